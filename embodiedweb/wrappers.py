"""Gymnasium wrappers that make the EmbodiedWeb envs RL-ready (issue 16, item 2).

* :class:`ShapedReward` - the sparse success reward, that reward plus potential-based shaping on the
  checker's completion fraction (the optimal policy is unchanged, Ng et al. 1999), or plus a one-off bonus
  per sub-goal reached.
* :class:`TokenObservations` - numeric observations of fixed shapes: hashed token ids or bags of words of the
  text fields (and, over a :class:`DiscreteActions`, the token ids of each candidate action).
* :class:`DiscreteActions` - a ``Discrete(K)`` action space over the env's admissible actions plus
  ``type`` actions with candidate strings from the instruction and the page, with a mask
  (``info["action_mask"]`` and ``action_masks()``, sb3-contrib ``MaskablePPO``'s convention).

They wrap an env made by ``gym.make("EWA-...-v0")`` (any wrappers in between) and read the
:class:`embodiedweb.env.EmbodiedWebEnv` under them through ``env.unwrapped``.
"""

from __future__ import annotations

import heapq
import math
import re
import zlib
from array import array
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import chain, compress
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from embodiedweb.spaces import OBS_TEXT_MAX, REPLACEMENT

assert array("i").itemsize == np.dtype(np.int32).itemsize  # a line's token ids are stored as C ints

__all__ = ["ShapedReward", "DiscreteActions", "TokenObservations", "all_candidates", "completion_now", "canonical_action",
           "tokenize", "token_id"]


def completion_now(base: Any, fresh: bool = False) -> float:
    """The checker's completion fraction (0..1) of the env's current semantic state.

    ``base`` is an :class:`embodiedweb.env.EmbodiedWebEnv`; the domain's ``check`` runs on an
    :class:`embodiedweb.domains.base.Episode` built from the world's semantic state, the web session's
    snapshot, the answer so far (``None`` until ``stop``), the step and switch counts and the history:
    the same Episode the env checks at the end of an episode, so at the last step this is
    ``info["metrics"]["completion"]``. A checker error counts as 0. Called between steps, it reads the
    states the env's trace recorded last (they are the current ones); ``fresh`` asks the world and the
    sites for them again.
    """
    if base.task is None:
        return 0.0
    return float(base._metrics(between_steps=not fresh).get("completion", 0.0))


class ShapedReward(gym.Wrapper[Any, Any, Any, Any], gym.utils.RecordConstructorArgs):
    """Chooses the reward of an EmbodiedWeb env: ``sparse``, ``progress`` (potential-based shaping) or
    ``subgoal`` (a one-off bonus per sub-goal).

    * ``mode="sparse"``: the env's own reward, 1.0 on the step that ends a successful episode
      (``info["metrics"]["overall"]``), 0.0 otherwise. The wrapper then only adds ``info["potential"]``
      and ``info["shaping"]`` = 0.0 (nothing is computed: sparse costs nothing).
    * ``mode="progress"``: ``r' = r + gamma * Phi(s') - Phi(s)`` where the potential ``Phi(s)`` is the
      checker's completion fraction of the state (:func:`completion_now`: the domain's ``check`` on the
      current semantic state, again whenever that state changed). Because the shaping term is a difference of potentials, the
      optimal policy of the shaped MDP is the optimal policy of the sparse one (Ng, Harada and Russell,
      *Policy invariance under reward transformations*, ICML 1999); use the same ``gamma`` as the agent.

    * ``mode="subgoal"``: ``r' = r + bonus * max(0, Phi(s') - best)`` where ``best`` is the highest completion
      reached so far this episode: each sub-goal of the checker (its completion counts equal sub-goals: the
      directions looked up, a checkpoint passed, the right product in the cart ...) pays ``bonus`` times its
      share of the task the first time it is reached, and never again; nothing is taken back when a later
      action undoes it. An episode's bonuses sum to at most ``bonus``. Easier to learn from than
      ``progress`` on long tasks, but *not* policy-invariant (an agent may prefer collecting sub-goals to
      finishing): keep ``bonus`` below the success reward (the default 0.5).

    * ``mode="distance"`` (envs whose task sends the agent to one place: Navigation, Shopping, Traveling):
      ``progress`` with the potential ``Phi(s) = completion(s) + distance_weight * (1 - d(s) / d(s_0))``,
      ``d`` the walking distance left to the goal (``Domain.goal_distance``; ``d(s_0)`` at ``reset``,
      ``d / d(s_0)`` capped at 1): every metre walked towards the goal pays as it is walked, as in
      Habitat's PointNav reward (the change of the geodesic distance), and the same terminal rule makes
      it given back at ``stop`` unless the success reward pays for it. Policy-invariant like ``progress``.
      An env without such a goal raises ``gym.error.Error`` at ``reset``.

    Terminal states (``progress``, ``distance``): by default (``terminal_potential="zero"``) the potential of the state an episode
    *terminates* in (``stop``) is 0, as Ng et al.'s absorbing state requires for invariance in episodic
    tasks: over an episode the shaping terms then sum to ``-Phi(s_0)`` for ``gamma=1`` (progress earned
    is given back at the end unless the success reward pays for it). With ``terminal_potential="completion"``
    the terminal state keeps its completion as potential (the episode's shaping then sums to
    ``Phi(s_T) - Phi(s_0)`` for ``gamma=1``, a bonus for partial completion: no longer strictly
    policy-invariant). A truncated episode's last state is not absorbing: its potential is its completion.

    ``info`` gains ``potential`` (``Phi(s')`` as used) and ``shaping`` (``r' - r``); the env's reward stays
    in ``info["sparse_reward"]``.

    Example:
        >>> import gymnasium as gym, embodiedweb
        >>> from embodiedweb.wrappers import ShapedReward
        >>> env = ShapedReward(gym.make("EWA-Navigation-v0"), mode="progress", gamma=0.99)
        >>> obs, info = env.reset(seed=0)
        >>> info["potential"]
        0.0

    Cost: the checker runs only when the state it reads changed: the completion is kept while the env's
    ``state_version`` stays the same (a step that moved nothing, a failed action, a page read), for the
    domains whose ``check`` reads the states and the answer only (``Domain.completion_from_state``, all the
    shipped ones); otherwise one checker call per step (see docs/rl-cost-per-step.md's measured figures). The checker
    reads the world's and the web session's states as the env's trace recorded them last (with
    ``record_trace``, the default: they are the current ones), without asking the world and the sites again.
    """

    #: reuse the completion while the env's ``state_version`` is unchanged, and check the states the env's
    #: trace recorded last (see the class docstring); False checks every step on states asked for afresh (the
    #: reference the cached path is tested against)
    cache = True

    def __init__(self, env: gym.Env[Any, Any], mode: str = "progress", gamma: float = 0.99,
                 terminal_potential: str = "zero", bonus: float = 0.5, distance_weight: float = 0.5) -> None:
        if mode not in REWARD_MODES:
            raise ValueError(f"mode must be one of {', '.join(map(repr, REWARD_MODES))}, got {mode!r}")
        if not 0.0 <= float(bonus) <= 1e6:
            raise ValueError(f"bonus must be a non-negative number, got {bonus!r}")
        if not 0.0 <= float(distance_weight) <= 1e6:
            raise ValueError(f"distance_weight must be a non-negative number, got {distance_weight!r}")
        if not 0.0 <= gamma <= 1.0:
            raise ValueError(f"gamma must be in [0, 1], got {gamma!r}")
        if terminal_potential not in ("zero", "completion"):
            raise ValueError(f"terminal_potential must be 'zero' or 'completion', got {terminal_potential!r}")
        gym.utils.RecordConstructorArgs.__init__(self, mode=mode, gamma=gamma, terminal_potential=terminal_potential,
                                                 bonus=bonus, distance_weight=distance_weight)
        gym.Wrapper.__init__(self, env)
        self.mode = mode
        self.gamma = float(gamma)
        self.terminal_potential = terminal_potential
        self.bonus = float(bonus)
        self.distance_weight = float(distance_weight)
        #: the walking distance to the goal at reset (``distance`` mode)
        self.start_distance: float | None = None
        self.potential = 0.0
        #: the highest completion reached this episode (``subgoal`` mode)
        self.best = 0.0
        self._cached: tuple[int, float] | None = None  # (state_version, completion)

    def _phi(self) -> float:
        if self.mode == "sparse":
            return 0.0
        if self.mode == "distance":
            return self._completion() + self.distance_weight * self._walked()
        return self._completion()

    def _distance(self) -> float | None:
        base = self.env.unwrapped
        if base.task is None:
            return None
        return base.domain.goal_distance(base.task, base.world)

    def _walked(self) -> float:
        """The share of the start's walking distance to the goal walked off (0 at the start, 1 at the goal)."""
        d, d0 = self._distance(), self.start_distance
        if d is None or not d0 or not math.isfinite(d0):
            return 0.0
        return 1.0 - min(d, d0) / d0

    def _completion(self) -> float:
        base = self.env.unwrapped
        version = getattr(base, "state_version", None)
        if not self.cache:
            return completion_now(base, fresh=True)
        if version is None or not getattr(getattr(base, "domain", None), "completion_from_state", False):
            return completion_now(base)
        if self._cached is not None and self._cached[0] == version:
            return self._cached[1]
        phi = completion_now(base)
        self._cached = (version, phi)
        return phi

    def __getstate__(self) -> dict[str, Any]:
        """The wrapper's state without the completion cache (a copy's env counts its versions anew)."""
        state = dict(self.__dict__)
        state["_cached"] = None
        return state

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        """Reset the env and the potential; ``info`` gets ``potential`` and ``shaping`` (0)."""
        obs, info = self.env.reset(seed=seed, options=options)
        self._cached = None
        if self.mode == "distance":
            self.start_distance = self._distance()
            if self.start_distance is None:
                raise gym.error.Error(
                    f"reward mode 'distance' needs a task that sends the agent to one place (Navigation, Shopping, "
                    f"Traveling); {self.env.unwrapped.spec.id if self.env.unwrapped.spec else 'this env'}'s "
                    f"task {getattr(self.env.unwrapped.task, 'task_id', '?')} has none")
        self.potential = self._phi()
        self.best = self.potential
        info["potential"] = self.potential
        info["shaping"] = 0.0
        return obs, info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the env and add the shaping term for the mode (``progress``/``subgoal``) to the reward; ``info`` gets ``potential``, ``shaping``, ``sparse_reward``."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        if self.mode in ("progress", "distance"):
            if terminated and self.terminal_potential == "zero":
                phi = 0.0
            elif "metrics" in info:  # the env checked the final state already
                phi = float(info["metrics"].get("completion", 0.0))
                if self.mode == "distance":
                    phi += self.distance_weight * self._walked()
            else:
                phi = self._phi()
            shaping = self.gamma * phi - self.potential
            self.potential = phi
        elif self.mode == "subgoal":
            phi = float(info["metrics"].get("completion", 0.0)) if "metrics" in info else self._phi()
            shaping = self.bonus * max(0.0, phi - self.best)
            self.best = max(self.best, phi)
            self.potential = phi
        else:
            shaping = 0.0
        info["potential"] = self.potential
        info["shaping"] = shaping
        info["sparse_reward"] = float(reward)
        return obs, float(reward) + shaping, terminated, truncated, info


def canonical_action(action: str, drop_note: bool = False) -> str:
    """An action with its whitespace normalised: runs of whitespace become one space, none at the ends
    and none just inside brackets (``type [ 3 ] [a  b]`` -> ``type [3] [a b]``).

    ``drop_note``: ``switch_environment [note]`` becomes ``switch_environment``: the note is only carried
    into the next observation's ``message`` (no state, no checker reads it), so the two are the same move.
    """
    text = re.sub(r"\s+", " ", str(action)).strip()
    text = re.sub(r"\[\s*(.*?)\s*\]", lambda m: f"[{m.group(1)}]", text)
    if drop_note and text.startswith("switch_environment"):
        return "switch_environment"
    return text


#: the reward modes of :class:`ShapedReward`
REWARD_MODES = ("sparse", "progress", "subgoal", "distance")

#: the default ``K`` of :class:`DiscreteActions` (the measured maximum candidate count over every oracle
#: step of the whole suite, with margin; see docs/rl-cost-per-step.md's measured figures)
DEFAULT_MAX_ACTIONS = 512

#: the capital letters a name may start with: Latin A-Z and every other upper-case letter (İzmir, Łódź, Ürümqi)
_UPPER = "A-Z" + "".join(sorted({c for c in map(chr, range(0xC0, 0x2000)) if c.isupper()}))
_NAME = re.compile(r"(?:[" + _UPPER + r"][\w'’.&/-]*|\d[\w'’.:/-]*)(?:\s+(?:[" + _UPPER + r"][\w'’.&/-]*|\d[\w'’.:/-]*|(?:&|of|the|de|del|della|do|dos|das|des|la|las|los|du|on|upon|and|y|van|von|der|den|da|di|le|el|al|bin|ibn|ter)(?![\w'’])))*")
#: a place after "to", "at" or "from", up to a parenthesis, "and", or the end of the clause
_PLACE = re.compile(r"\b(?:to|at|from) ([A-Z0-9][^()\n,;]*?)(?= \(| and |[,.;:!?]\s|[,.;:!?]?$)")
_QUOTED = re.compile(r"[“\"]([^”\"]{1,80})[”\"]")
_TIME = re.compile(r"\b\d{1,2}:\d{2}\s?(?:am|pm)\b", re.I)
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?!\w|\.\d)")
_ORDINAL = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b")
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_LINE = re.compile(r"^\s*\[(\w+)\] (\S+) '((?:[^'\\]++|\\.)*+)'", re.M)
_CONNECTORS = {"of", "the", "de", "del", "della", "do", "dos", "das", "des", "la", "las", "los", "du", "on", "upon", "&",
               "and", "y", "van", "von", "der", "den", "da", "di", "le", "el", "al", "bin", "ibn", "ter"}
#: a place with a parenthesis of its own, followed by another (``23rd Street station (Lexington Avenue Line)``)
_PLACE_PAREN = re.compile(r"(?=\b(?:to|at|from) ([A-Z0-9][^()\n,;]*? \([^()]*\)) \()")
_STOPWORDS = {"the", "a", "an", "of", "and", "or", "to", "in", "on", "at", "by", "is", "it", "its", "for", "with",
              "from", "this", "that", "what", "which", "who", "whose", "how", "many", "much", "when", "where",
              "your", "you", "answer", "stop", "walk", "there", "then", "site", "wiki", "article", "question"}


def names_in(text: str) -> list[str]:
    """Names, places and numbers in ``text``, in order: quoted strings, then runs of capitalised words
    or numbers (``St. Bartholomew's Church``, ``225 W 44th St``), cut of trailing connectors and
    punctuation, and each of those with a leading article (``The``) dropped; then the places named after
    "to", "at" or "from" as written (``34th Street-Penn Station station``)."""
    # each pattern's literal is looked for first: most texts have no quote and no parenthesis
    out: list[str] = [m.group(1).strip() for m in _QUOTED.finditer(text)] if '"' in text or "“" in text else []
    for m in _NAME.finditer(text):
        words = m.group(0).split()
        while words and (words[-1].lower() in _CONNECTORS):
            words.pop()
        name = " ".join(words).rstrip(".,;:!?")
        if name:
            out.append(name)
            if " and " in name:  # "Anders Lombardi and Inès Makinde", "Museum of Arts and Design"
                out += [part for part in name.split(" and ") if part[:1].isupper() or part[:1].isdigit()]
            if words[0] in ("The", "A", "An") and len(words) > 1:
                out.append(" ".join(words[1:]).rstrip(".,;:!?"))
    out += [m.group(1).strip() for m in _PLACE.finditer(text)]
    if " (" in text:
        out += [m.group(1).strip() for m in _PLACE_PAREN.finditer(text)]
    return _unique(out)


def answer_spans(sentence: str) -> list[str]:
    """What an answer drawn from ``sentence`` may be: names (two joined by ``and`` too), times, numbers
    (an ordinal's too: ``2`` of ``2nd``), then every word."""
    names = names_in(sentence)
    joined = [f"{a} and {b}" for a, b in zip(names, names[1:], strict=False) if f"{a} and {b}" in sentence]
    return _unique(joined + names + _TIME.findall(sentence) + _NUMBER.findall(sentence) + _ORDINAL.findall(sentence)
                   + [w for w in _WORD.findall(sentence) if w.lower() not in _STOPWORDS])


def _unique(items: Iterable[str], limit: int | None = None) -> list[str]:
    """``items`` with their whitespace normalised (:data:`_SPACED`), the empty ones and repeats dropped, in order
    (the first ``limit`` of them: the rest of ``items`` is not read)."""
    seen: set[str] = set()
    out: list[str] = []
    spaced = _SPACED
    for x in items:
        y = spaced.get(x)
        if y is None:
            if len(spaced) >= 262_144:
                spaced.clear()
            y = spaced[x] = " ".join(x.split())
        if y and y not in seen:
            seen.add(y)
            out.append(y)
            if len(out) == limit:
                break
    return out


#: ``" ".join(x.split())`` of each string seen by :func:`_unique` (the same names come back at every step)
_SPACED: dict[str, str] = {}


class _UniqueList(list):  # type: ignore[type-arg]
    """A list kept as :func:`_unique` keeps it (whitespace normalised, no empty item, no repeat, first
    occurrences in order), grown by :meth:`add` in time proportional to what is added, not to its length
    (an episode's lists of places and page names grow at every new page)."""

    def __init__(self, items: list[str] | tuple[str, ...] = ()) -> None:
        super().__init__(_unique(list(items)))
        self._seen = set(self)

    def add(self, items: list[str] | tuple[str, ...]) -> None:
        """Append the normalised ``items`` not in the list yet (``_unique(self + items)``)."""
        seen = self._seen
        for y in _unique(list(items)):
            if y not in seen:
                seen.add(y)
                self.append(y)

    def add_normal(self, items: tuple[str, ...]) -> None:
        """:meth:`add` of ``items`` that :func:`_unique` leaves as they are (normalised already, no repeat)."""
        seen = self._seen
        for y in items:
            if y not in seen:
                seen.add(y)
                self.append(y)


class _RecentNames:
    """Names kept once each (normalised as :func:`_unique` leaves them), in the order they were last read: reading
    a name again moves it to the end, so ``reversed`` gives the names of the pages read most recently first.
    :attr:`version` counts the readings (a list built from it is kept while it is the same)."""

    def __init__(self, items: list[str] | tuple[str, ...] = ()) -> None:
        self._names: dict[str, None] = dict.fromkeys(_unique(list(items)))
        self.version = 0

    def touch(self, items: tuple[str, ...]) -> None:
        """Read ``items`` (normalised already, no repeat): each moves to the end, in their order."""
        names = self._names
        for y in items:
            names.pop(y, None)
            names[y] = None
        self.version += 1

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __reversed__(self) -> Iterator[str]:
        return reversed(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: object) -> bool:
        return name in self._names


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if w.lower() not in _STOPWORDS}


# caches of pure functions of a text (pages and sentences repeat across steps and episodes) --------------
# What they keep is tuples of strings (of tuples of strings ...), never sets, lists or class instances: the
# garbage collector stops tracking such a tuple the first time it meets it, so the tens of thousands kept
# in a long run add nothing to its collections (a full collection walks every object it tracks).
@lru_cache(maxsize=65536)
def _word_set(text: str) -> tuple[str, ...]:
    """:func:`_words` of ``text``, once each in order (a tuple: see above), cached."""
    words = dict.fromkeys(map(str.lower, _WORD.findall(text)))  # in order, once each (C loops)
    for stop in _STOPWORDS.intersection(words):
        del words[stop]
    return tuple(words)


class _Texts(dict):  # type: ignore[type-arg]
    """``template`` filled with a name, by the name, made at its first lookup (an episode's ``stop`` and ``done``
    candidates are rebuilt at every new page, mostly of the same names: ``map(texts.__getitem__, names)`` looks
    them up in one C loop, a third of the time of a cached function's calls or of formatting them again)."""

    def __init__(self, template: str) -> None:
        super().__init__()
        self.template = template

    def __missing__(self, name: str) -> str:
        if len(self) >= 65536:
            self.clear()
        text = self[name] = self.template.format(name)
        return text


#: ``stop [answer]`` and ``done [answer]`` by the answer
_STOP_TEXTS = _Texts("stop [{}]")
_DONE_TEXTS = _Texts("done [{}]")


@lru_cache(maxsize=65536)
def _answer_spans(sentence: str) -> tuple[str, ...]:
    """:func:`answer_spans` of ``sentence``, cached."""
    return tuple(answer_spans(sentence))


def _unescaped(name: str) -> str:
    """A quoted name of the tree text as it reads (``\\'`` is ``'``, ``\\\\`` is ``\\``)."""
    return name.replace("\\'", "'").replace("\\\\", "\\")


def _page_lines(tree_text: str) -> tuple[tuple[str, str, str], ...]:
    """(id, role, name) of each element line of a page's tree text (the name unescaped), read from the whole
    text: a name may hold a line break (:func:`_page` reads other pages line by line)."""
    return tuple((m.group(1), m.group(2), _unescaped(m.group(3)))
                 for m in _LINE.finditer(tree_text))


@lru_cache(maxsize=65536)
def _names(text: str) -> tuple[str, ...]:
    """:func:`names_in` of ``text``, cached."""
    return tuple(names_in(text))


_SENTENCE = re.compile(r"(?<=[.!?])(?<!\s[A-Z]\.)\s+")


@lru_cache(maxsize=65536)
def _sentences(name: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The sentences of a page line's name with their :func:`_words`, cached."""
    sentences = _SENTENCE.split(name)
    return tuple(zip(sentences, map(_word_set, sentences), strict=True))


#: the best-scored page sentences whose names, numbers and words are ``stop [answer]`` candidates
BEST_SENTENCES = 3
#: multi-turn envs: at most this many ``done [answer]`` candidates
MAX_DONES = 120
_SEEN_PLACE = re.compile(r"(?<=: |, )([^;:()\n]+?(?: \([^;:()\n]+\))?) \(\d+ m walk\)")
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")
#: a page's title: its level-1 heading
_TITLE = re.compile(r"^\s*\[\w+\] heading '((?:[^'\\]|\\.){1,80})' level=1$", re.M)
#: the corner a walker stands at, by its street signs ("Street signs at this corner: 6th Ave / W 53rd St.")
_CORNER = re.compile(r"^Street signs at this corner: (.+?)\.$", re.M)
#: a list item that counts a thing (a recipe's ingredient: "1 tomato"): the thing is a search word
_COUNTED = re.compile(r"\d+(?:\.\d+)? ([a-z][a-z ]{1,30})")
_SEEN_TYPE = re.compile(r"\|[-+\d.|]+ \(([A-Z][A-Za-z]+)\)")

#: at most this many names of the page read last become ``stop [name]`` candidates
LATEST_NAMES = 40


#: a page's element line after its id (``heading 'Paris' level=1``): its role and quoted name
_ELEMENT = re.compile(r"(\S+) '((?:[^'\\]++|\\.)*+)'")
#: the start of such a line whose quoted name does not end on it
_ELEMENT_START = re.compile(r"\S+ '")
#: a page's title as :data:`_TITLE` reads it, on an element line after its id
_ELEMENT_TITLE = re.compile(r"heading '((?:[^'\\]|\\.){1,80})' level=1$")
#: the roles of a page's text (its names are read, its sentences scored against the question)
_TEXT_ROLES = frozenset(("paragraph", "StaticText", "listitem", "cell"))


#: an element line's share of a page (:func:`_element_reading`), whatever its id, one tuple per column of
#: :func:`_page` (joined across the page's lines by C loops): (its title (a level-1 heading), its names (its
#: own and its years, when it is a heading or cell), the thing it counts, the place it offers (an option), the
#: names in its text, the sentences of its text with their words, its kind of field (:data:`_FIELD_KINDS`,
#: 0 for none), an option's ``type`` text); the strings of the first five whitespace-normalised
_ElementReading = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...],
                        tuple[tuple[str, tuple[str, ...]], ...], int, str]
#: the kinds of field of an element: 1 a search or text box, 2 a number field, 3 a drop-down, 4 an option
_FIELD_KINDS = {"searchbox": 1, "textbox": 1, "spinbutton": 2, "combobox": 3, "option": 4}
#: the reading of a line that is no element
_NO_ELEMENT: _ElementReading = ((), (), (), (), (), (), 0, "")


def _spaced(text: str) -> str:
    """``text`` with its whitespace normalised, as :func:`_unique` leaves it."""
    return " ".join(text.split())


def _element_reading(role: str, name: str, title: str | None) -> _ElementReading:
    """One element's share of :func:`_page` (``title``: the line's title, as :data:`_TITLE` reads it, unescaped:
    until stop 32 a title with an apostrophe was asked directions to with its backslash)."""
    page_names: tuple[str, ...] = ()
    if role in ("heading", "cell") and 0 < len(name) <= 80:
        page_names = tuple(x for x in (_spaced(name), *_YEAR.findall(name)) if x)
    m = _COUNTED.fullmatch(name) if role == "listitem" else None
    place, latest, sentences, option = "", (), (), ""
    if role == "option":
        if not name.lower().startswith("choose"):
            place = _spaced(name)
        option = re.sub(r"\s*\(.*?\)", "", name).strip().lower()
    elif role in _TEXT_ROLES and len(name) < 400:
        latest, sentences = _names(name), _sentences(name)
    spaced_title = _spaced(title) if title is not None else ""
    return ((spaced_title,) if spaced_title else (), page_names, (_spaced(m.group(1)),) if m else (),
            (place,) if place else (), latest, sentences, _FIELD_KINDS.get(role, 0), option)


@lru_cache(maxsize=65536)
def _element(rest: str) -> _ElementReading | None:
    """:func:`_element_reading` of an element line without its id (``rest``), cached (ids are numbered per
    page: the same element on another page has another line, but the same rest); :data:`_NO_ELEMENT` for a
    line that is no element, None for one whose quoted name does not end on it."""
    m = _ELEMENT.match(rest)
    if m is None:
        return None if _ELEMENT_START.match(rest) else _NO_ELEMENT
    title = _ELEMENT_TITLE.match(rest)
    return _element_reading(m.group(1), _unescaped(m.group(2)), _unescaped(title.group(1)) if title else None)


@lru_cache(maxsize=65536)
def _line_reading(line: str) -> tuple[Any, str | None, _ElementReading | None]:
    """(:func:`_line_plain_words`, the element's id, :func:`_element`) of one line of tree text, cached: the
    one lookup a page makes per line when the line was on a page before."""
    m = _BID_PREFIX.match(line)
    if m is None:
        return _line_plain_words(line), None, _NO_ELEMENT
    return _line_plain_words(line), m.group(1), _element(line[m.end():])


#: what the candidate generator reads of a page (:func:`_page`): (places, names, counted things, the names in
#: its text, its sentences with their words, boxes, number fields, drop-downs' ``type`` candidates, its
#: :func:`_plain_words`)
_PageReading = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...],
                     tuple[tuple[str, tuple[str, ...]], ...], tuple[str, ...], tuple[str, ...], tuple[str, ...],
                     tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]]]


@lru_cache(maxsize=4096)
def _page(tree_text: str) -> _PageReading:
    """What the candidate generator reads of a page (its tree text), in page order: its places (its title,
    the options of its drop-downs), its names (headings, table cells and the years in them), the things its
    list items count ("1 tomato"), the names in its text (at most :data:`LATEST_NAMES`) and the sentences of
    its text with their words (for :meth:`_Memory.read_page`; the first four whitespace-normalised and without
    repeats, as :func:`_unique` leaves them); its search and text boxes, number fields and drop-downs' ``type``
    candidates (each option in lower case, with its spaces and with hyphens); and its :func:`_plain_words`.

    Cached (the same pages come back in other episodes), and read line by line through :func:`_line_reading`
    (a new page mostly repeats lines of others). A page whose element names hold a line break has its
    elements read from the whole text (not one cut in its last element's name: that element is left out)."""
    plains, bids, elements = zip(*map(_line_reading, tree_text.split("\n")), strict=True)
    whole = None in elements
    if whole and elements.index(None) == len(elements) - 1:
        # only the last element's name does not end: the page was cut there (a long page is cut to the
        # observation's size), and the whole text's reading leaves that element out too
        elements, whole = (*elements[:-1], _NO_ELEMENT), False
    if whole:
        read = [(bid, _element_reading(role, name, None)) for bid, role, name in _page_lines(tree_text)]
        bids, elements = zip(*read, strict=True) if read else ((), ())
    titles, names, counted, places, latest, sentences, kinds, options = (
        zip(*elements, strict=True) if elements else ((),) * len(_NO_ELEMENT))
    if whole:
        titles = ((_spaced(_unescaped(t)),) for t in _TITLE.findall(tree_text))
    join = chain.from_iterable
    fields: list[list[str]] = [[], [], []]  # boxes, number fields, options' type candidates
    select = None
    for bid, kind, option in compress(zip(bids, kinds, options, strict=True), kinds):  # the fields only
        if kind == 3:
            select = bid
        elif kind == 4:
            if select is not None:
                fields[2] += [f"type [{select}] [{option}]", f"type [{select}] [{option.replace(' ', '-')}]"]
        else:
            fields[kind - 1].append(bid)
    return (tuple(dict.fromkeys(x for x in chain(join(titles), join(places)) if x)),
            tuple(dict.fromkeys(join(names))), tuple(dict.fromkeys(join(counted))),
            tuple(dict.fromkeys(join(latest)))[:LATEST_NAMES], tuple(join(sentences)), tuple(fields[0]),
            tuple(fields[1]), tuple(fields[2]), _joined_plain_words([p for p in plains if p is not None]))


@lru_cache(maxsize=1024)
def _instruction_reading(instruction: str) -> tuple[list[str], frozenset[str], list[str]]:
    """An instruction's names; the words of its question (from a question word to "?", or all of it), less
    the words of its names (the landmark's own name is in every sentence of its article); and what ``type``
    candidates write in a box: its names and words, lower-cased too. Cached (a multi-turn env's instructions
    come back in other episodes); the lists are read, never changed."""
    names = names_in(instruction)
    asked = re.findall(r"\b(?:Who|Whose|What|When|How|Which|Where|Why)\b[^?]*\?", instruction) or [instruction]
    question = frozenset(_words(" ".join(asked)) - _words(" ".join(names)))
    words = _unique([w for w in _WORD.findall(instruction) if w.lower() not in _STOPWORDS])
    return names, question, _unique(names + [w.lower() for w in names] + [w.lower() for w in words])


@lru_cache(maxsize=4096)
def _view_reading(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The place names of a street view and the object types it shows (lower case), each normalised and
    once, as :func:`_unique` leaves them; cached. The places are read from the lines that hold
    :data:`_SEEN_PLACE`'s literal, each line's through :func:`_view_places` (no match holds a line break, and a
    walker's new view mostly repeats the lines of places in sight of views seen before: only its first lines,
    where it stands and its heading, are new); the types from the whole text in one C scan (a kitchen's lines
    change with every move: their distances)."""
    places: Iterable[str] = ()
    if "m walk)" in text:
        places = chain.from_iterable(_view_places(line) for line in text.split("\n") if "m walk)" in line)
    # a type is one word of letters: normalised already, never empty
    types = tuple(dict.fromkeys(map(str.lower, _SEEN_TYPE.findall(text)))) if "|" in text else ()
    return tuple(_unique(places)), types


@lru_cache(maxsize=65536)
def _view_places(line: str) -> tuple[str, ...]:
    """The matches of :data:`_SEEN_PLACE` in one line of a street view (not yet normalised), cached."""
    return tuple(m.group(1) for m in _SEEN_PLACE.finditer(line))


class _Memory:
    """What the candidate generator remembers of an episode: place names and answer sentences seen."""

    def __init__(self, instruction: str) -> None:
        #: (limit, the best-scored sentences) until a score changes (the last one made, to keep its object when
        #: the same sentences come back: what is built from it is kept by identity); the answers and what they
        #: were made of. None of them is the instruction's: a sentence's score is kept as it was when read, so a
        #: dialogue's next instruction keeps them (until stop 36 it rebuilt the answers, their spans and the
        #: ``stop`` and ``done`` lists from the same sentences: a third of such a step)
        self._best: tuple[int, tuple[str, ...]] | None = None
        self._best_made: tuple[int, tuple[str, ...]] | None = None
        self._answers: list[str] | None = None
        self._answers_key: tuple[Any, ...] | None = None
        #: (the best sentences it was made of, their answer spans, the same as a set)
        self._spans: tuple[Any, list[str], set[str]] | None = None
        self._stops: tuple[list[str], list[str]] | None = None
        self._dones: tuple[list[str], int, int, list[str]] | None = None
        self.set_instruction(instruction)
        self.places = _UniqueList()  # store names etc. seen in select options and pages
        self._directions_to: tuple[int, list[str]] = (-1, [])  # (len(places), the places directions go to)
        self.sentences: dict[str, int] = {}  # page sentence -> overlap with the instruction's words
        #: the :data:`BEST_SENTENCES` best-scored sentences, best first, the first scored among equals (kept as
        #: scores rise: only a sentence whose score rose can enter them), and each sentence's place in
        #: :attr:`sentences` (the order ties are broken by)
        self._top: list[str] = []
        self._order: dict[str, int] = {}
        self._read: set[str] = set()  # page texts read already
        self._last_page: str | None = None  # the page text read last
        #: whether the episode's world is a street world (walking directions start at its node); asked once: a
        #: world of several parts answers for its live part through ``__getattr__``, which raises for a kitchen
        #: (3 µs a step), and its live part is chosen at the reset
        self.street: bool | None = None
        #: the names on the page read last (a fact that shares no word with the instruction, such as the
        #: city an article ties a shop sign to, is an answer too)
        self.latest_names: tuple[str, ...] = ()
        self._web: dict[tuple[str, str, str], list[str]] = {}  # web candidates by (page, place, view)
        #: multi-turn envs: headings, link and cell names and years of every page read, places in sight,
        #: and the object types of the kitchen seen (lower case: words to search for)
        self.page_names = _RecentNames()
        self.seen_names = _UniqueList()
        self.seen_words = _UniqueList()

    def set_instruction(self, instruction: str) -> None:
        """Read the (current) instruction: its names, its question's words and its other words."""
        self.instruction = instruction
        #: the instruction's names; the words of its question; what ``type`` candidates write in a box
        self.instruction_names, self.question, self.type_words = _instruction_reading(instruction)
        self._directions_to = (-1, [])
        self._search: tuple[int, list[str], set[str]] = (-1, [], set())
        #: :meth:`typed`'s lists by (search words' version, boxes, number fields, signs)
        self._typed: dict[tuple[Any, ...], list[str]] = {}
        self._web = {}

    def read_page(self, tree_text: str) -> None:
        if tree_text in self._read:
            # a page read before this episode (a tab switched back to, a search asked again) is the page read last
            # again: its names are the latest and the most recent page names (until stop 34 both kept the last new
            # page's, and an answer on a page read twice fell out of a later turn's done list: assist-012, -248)
            if tree_text != self._last_page:
                reading = _page(tree_text)
                self.latest_names = reading[3]
                self.page_names.touch(reading[1])
                self._last_page = tree_text
            return
        self._last_page = tree_text
        self._read.add(tree_text)
        places, page_names, counted, latest, sentences, *_fields = _page(tree_text)
        self.seen_words.add_normal(counted)
        question, scores, order = self.question, self.sentences, self._order
        rose = []
        for sent, words in sentences:
            score = len(question.intersection(words))
            if score >= 1 and score > scores.get(sent, 0):
                if sent not in order:
                    order[sent] = len(order)
                scores[sent] = score
                rose.append(sent)
        if rose:
            self._top = sorted(dict.fromkeys(self._top + rose),
                               key=lambda sent: (-scores[sent], order[sent]))[:BEST_SENTENCES]
            self._best = None
        self.places.add_normal(places)
        self.page_names.touch(page_names)
        self.latest_names = latest

    def directions_to(self) -> list[str]:
        """The places ``goto`` candidates ask walking directions to: the instruction's names, then the places
        seen (recomputed only when a place was added: :attr:`places` only grows)."""
        if self._directions_to[0] != len(self.places):
            self._directions_to = (len(self.places), _unique(self.instruction_names + self.places))
        return self._directions_to[1]

    def typed(self, boxes: tuple[str, ...], spins: tuple[str, ...], signs: tuple[str, ...]) -> list[str]:
        """The ``type`` candidates of a page's ``boxes`` and number fields (``spins``): each box with each of
        :meth:`search_words` and each sign in sight not among them (a name the agent can look up), with and
        without pressing Enter; each number field with the whole numbers among those (a quantity). Kept
        until the search words change: the same boxes come back on every page of a site."""
        known, known_set = self.search_words()
        key = (self._search[0], boxes, spins, signs)
        hit = self._typed.get(key)
        if hit is None:
            words = known + [w for w in signs if w and w not in known_set]
            hit = []
            for bid in boxes:
                hit += [f"type [{bid}] [{w}] [1]" for w in words]
                hit += [f"type [{bid}] [{w}]" for w in words]
            numbers = [w for w in words if w.isdigit()]
            for bid in spins:
                hit += [f"type [{bid}] [{n}]" for n in numbers]
            if len(self._typed) >= 256:
                self._typed.clear()
            self._typed[key] = hit
        return hit

    def search_words(self) -> tuple[list[str], set[str]]:
        """What ``type`` candidates write in a box: the instruction's words (:attr:`type_words`), then the things
        seen to search for (:attr:`seen_words`) that are not among them; and the same as a set (recomputed
        only when a thing was seen: :attr:`seen_words` only grows)."""
        if self._search[0] != len(self.seen_words):
            instruction = set(self.type_words)
            words = self.type_words + [w for w in self.seen_words if w not in instruction]
            self._search = (len(self.seen_words), words, set(words))
        return self._search[1], self._search[2]

    def answers(self, limit: int = BEST_SENTENCES) -> list[str]:
        if self._best is None or self._best[0] != limit:
            # the ``limit`` best-scored sentences, the first seen among equals (as a stable sort by score)
            best = (limit, tuple(self._top) if limit == BEST_SENTENCES else
                    tuple(heapq.nlargest(limit, self.sentences, key=self.sentences.__getitem__)))
            self._best = self._best_made = self._best_made if best == self._best_made else best
        if self._spans is None or self._spans[0] is not self._best:
            # the best sentences' spans, kept while they are the best (the page's names change at every page)
            spans = _unique([a for s in self._best[1] for a in _answer_spans(s)])
            self._spans = (self._best, spans, set(spans))
        key = (self._best, self.latest_names)
        if self._answers is None or key != self._answers_key:  # else the same list: callers cache by it
            # _unique(spans + latest names), without normalising either again
            _, spans, spans_set = self._spans
            self._answers = spans + [y for y in self.latest_names if y not in spans_set]
            self._answers_key = key
        return self._answers

    def stops(self) -> list[str]:
        """``stop [answer]`` for each of :meth:`answers`."""
        answers = self.answers()
        if self._stops is None or self._stops[0] is not answers:
            self._stops = (answers, list(map(_STOP_TEXTS.__getitem__, answers)))
        return self._stops[1]

    def read_world(self, text: str) -> None:
        """Multi-turn envs: the place names of a street view (an answer may be the place in sight)."""
        if text in self._read:
            return
        self._read.add(text)
        names, types = _view_reading(text)
        self.seen_names.add_normal(names)
        self.seen_words.add_normal(types)

    def dones(self) -> list[str]:
        """Multi-turn envs: ``done``, then ``done [answer]`` for :meth:`answers`, every heading, link and table
        cell and year of the pages read this episode (what was opened, ordered or looked up in an earlier turn
        is an answer later) and the places seen, newest first, at most :data:`MAX_DONES`."""
        answers = self.answers()
        cached = self._dones  # the same answers (list) and no name added: the same list
        if cached is None or cached[0] is not answers or cached[1:3] != (self.page_names.version, len(self.seen_names)):
            # each of the three is normalised, without empty items or repeats (as _unique leaves a list): only
            # repeats across them are dropped
            said = list(dict.fromkeys(chain(answers, reversed(self.page_names), reversed(self.seen_names))))[:MAX_DONES]
            cached = self._dones = (answers, self.page_names.version, len(self.seen_names),
                                    ["done", *map(_DONE_TEXTS.__getitem__, said)])
        return cached[3]


class DiscreteActions(gym.Wrapper[Any, int, Any, Any], gym.utils.RecordConstructorArgs):
    """A ``Discrete(max_actions)`` action space over the env's candidate actions, with a validity mask.

    At each step the wrapper lists the *candidate actions* of the state (:meth:`candidates`), as
    TextWorld's admissible commands do, and action ``i`` runs the ``i``-th of them. The list is, in this
    order (duplicates removed):

    1. the env's admissible actions (``info["admissible_actions"]``: clicks, select options, scrolling,
       tabs, world actions on visible objects, ``switch_environment``, ``stop``);
    2. in the embodied world, the same actions on object *types* (``PutObject [CounterTop]``) and
       ``Teleport`` to every object of the world by id (``Teleport [Knife|-0.35|+0.77|-0.19]``);
    3. in the web, ``goto`` candidates: walking directions from the agent's place (``/map/directions``) to
       each name of the instruction and each place seen on the pages (store names), and the wiki article
       of every name seen whose title it is;
    4. in the web, ``type`` actions: each search or text box with each name, place and number of the
       instruction and each text a sign in the last street view reads (with and without pressing Enter),
       and each drop-down with its options written in lower case (``type [70] [medium]``);
    5. ``stop [answer]`` with the names, times, numbers and words of the page sentences seen this episode
       that share the most words with the instruction (the wiki fact the question asks about), and the
       names on the page read last (up to :data:`LATEST_NAMES`: the city a wiki article ties a sign to);
       only where the task's ``stop`` carries an answer (``Domain.takes_answer``: not in Navigation,
       Cooking and Shopping but its errands with a question), since elsewhere ``stop [anything]`` is
       ``stop`` and a list full of copies of it would end random play within a few steps.

    Overflow: the list is cut at ``max_actions`` keeping the first ones, so the env's own admissible
    actions always come first and the order above is the priority (deterministic: every group is in page or
    world order). ``max_actions`` defaults to :data:`DEFAULT_MAX_ACTIONS`, above the largest candidate list
    measured over every oracle step of the suite.

    The mask (``info["action_mask"]`` after ``reset`` and ``step``, and :meth:`action_masks` as
    sb3-contrib's ``MaskablePPO`` calls it) is True for the first ``len(candidates)`` indices. A masked
    index is still a valid action of the space: it is sent to the env as the text ``"noop"``, which the
    env answers with an error in ``obs["last_action_error"]`` (a step is used, nothing changes).
    ``info["candidate_actions"]`` holds the texts; :meth:`action_text` maps an index to its text.

    The observation space is unchanged (compose with an observation wrapper for numeric inputs).

    Example:
        >>> import gymnasium as gym, embodiedweb
        >>> from embodiedweb.wrappers import DiscreteActions
        >>> env = DiscreteActions(gym.make("EWA-Navigation-v0"))
        >>> obs, info = env.reset(seed=0)
        >>> env.action_space
        Discrete(512)
        >>> bool(info["action_mask"][0]), env.action_text(0) == info["candidate_actions"][0]
        (True, True)
    """

    def __init__(self, env: gym.Env[Any, Any], max_actions: int = DEFAULT_MAX_ACTIONS) -> None:
        if int(max_actions) < 2:
            raise ValueError(f"max_actions must be at least 2, got {max_actions!r}")
        gym.utils.RecordConstructorArgs.__init__(self, max_actions=max_actions)
        gym.Wrapper.__init__(self, env)
        self.max_actions = int(max_actions)
        self.action_space = spaces.Discrete(self.max_actions)
        self._candidates: list[str] = []
        self._mask = np.zeros(self.max_actions, dtype=bool)
        self._indices = np.arange(self.max_actions)  # the mask is the indices below the candidate count
        self._masks: dict[int, np.ndarray] = {}  # candidate count -> its mask (never handed out: copies are)
        self._memory: _Memory | None = None
        #: how many candidates the last state had before the cut at ``max_actions``
        self.last_candidate_count = 0

    # the candidate list ---------------------------------------------------------------------------
    def candidates(self) -> list[str]:
        """The candidate actions of the current state (at most ``max_actions``)."""
        return list(self._candidates)

    def action_text(self, index: int) -> str:
        """The action text of ``index`` (``"noop"`` for a masked index)."""
        i = int(index)
        return self._candidates[i] if 0 <= i < len(self._candidates) else "noop"

    def action_masks(self) -> np.ndarray:
        """The valid indices of the current state (sb3-contrib ``MaskablePPO``'s hook)."""
        return self._mask.copy()

    def _refresh(self, obs: dict[str, Any], info: dict[str, Any]) -> None:
        base = self.env.unwrapped
        assert self._memory is not None
        if getattr(base, "multi_turn", False) and obs["instruction"] != self._memory.instruction:
            self._memory.set_instruction(str(obs["instruction"]))  # the next instruction of the dialogue
        full = all_candidates(base, obs, info, self._memory)
        self.last_candidate_count = len(full)
        self._candidates = full if len(full) <= self.max_actions else full[: self.max_actions]  # a new list
        n = len(self._candidates)
        mask = self._masks.get(n)
        if mask is None:
            mask = self._masks[n] = self._indices < n
        self._mask = mask
        info["action_mask"] = self._mask.copy()
        info["candidate_actions"] = list(self._candidates)

    # gym API ------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        """Reset the env and rebuild the candidate actions (and mask) for the first observation."""
        obs, info = self.env.reset(seed=seed, options=options)
        self._memory = _Memory(str(self.env.unwrapped.task.instruction))
        self._refresh(obs, info)
        return obs, info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the env with the text of candidate ``action``, then refresh the candidates."""
        obs, reward, terminated, truncated, info = self.env.step(self.action_text(int(action)))
        self._refresh(obs, info)
        return obs, reward, terminated, truncated, info


def all_candidates(base: Any, obs: dict[str, Any], info: dict[str, Any], memory: _Memory) -> list[str]:
    """Every candidate action of ``base``'s state in :class:`DiscreteActions`'s order (not cut)."""
    admissible = info.get("admissible_actions") or base.admissible_actions()
    groups: list[list[str]] = []
    web = base.active == "web" and base.driver is not None
    if base.active == "embodied":
        groups.append([t for t in map(_on_type, admissible) if t])
        groups.append([f"Teleport [{oid}]" for oid in _object_ids(base.world)])
    elif web:
        page = str(obs.get("web_text", ""))
        if memory.street is None:
            memory.street = hasattr(base.world, "graph_spec")
        here = str(base.world.node) if memory.street else ""
        key = (page, here, str(obs.get("embodied_text", "")))
        if key not in memory._web:
            memory.read_page(page)
            memory._web[key] = list(dict.fromkeys(_web_candidates(page, here, key[2], memory)))
        groups.append(memory._web[key])
    if base.task is None or base.domain.takes_answer(base.task):  # else stop [anything] is stop
        groups.append(memory.stops())
    if getattr(base, "multi_turn", False):  # instructions one at a time: ``done [answer]`` with the same answers
        memory.read_world(str(obs.get("embodied_text", "")))
        groups.append(memory.dones())
    if not web:  # the actions on object types repeat each other (two objects of one type): one pass
        return list(dict.fromkeys(chain(admissible, *groups)))
    # on the web each group is whitespace-normalised and without repeats, and the groups after the env's own
    # list are of different verbs (goto and type, stop [answer], done): only an env action can repeat one
    out = list(dict.fromkeys(admissible))
    shared = [a for a in out if a.startswith(_GROUP_VERBS)]  # often only "done" or "stop", or nothing
    for group in groups:
        if not shared:
            out += group
        elif len(shared) <= 4:  # each one at most once in the group: removed where it is, by C scans
            kept = list(group)
            for a in shared:
                if a in kept:
                    kept.remove(a)
            out += kept
        else:
            clash = set(shared)
            out += [a for a in group if a not in clash]
    return out


#: the verbs of the candidates :func:`all_candidates` adds to the env's admissible actions on the web
_GROUP_VERBS = ("goto", "type", "stop", "done")


@lru_cache(maxsize=65536)
def _on_type(action: str) -> str:
    """``PutObject [CounterTop]`` of ``PutObject [CounterTop|+0.45|+0.90|+1.95]`` (empty for other actions)."""
    m = re.fullmatch(r"(\w+) \[([^|\]]+)\|[^\]]*\]", action)
    return f"{m.group(1)} [{m.group(2)}]" if m else ""


def _object_ids(world: Any) -> list[str]:
    """The ids of the world's objects the agent may name (a kitchen's; none for the street and geo worlds)."""
    world = getattr(world, "live", world)  # a world of several parts: the episode's
    if getattr(world, "kind", None) != "kitchen":
        return []
    known = getattr(world, "known_object_ids", None)
    if known is not None:  # not one the agent cannot know of (in a closed receptacle not opened yet)
        return known()
    try:
        return [o.object_id for o in world._require().active_objects()]
    except AttributeError:  # another kitchen implementation: its semantic state lists the objects
        state = world.semantic_state()
        objects = state.get("objects", []) if isinstance(state, dict) else []
        return [o["objectId"] for o in objects if isinstance(o, dict) and o.get("objectId")]


def _web_candidates(page: str, here: str, view: str, memory: _Memory) -> list[str]:
    """``goto`` and ``type`` candidates of a page (its tree text), the agent's street node and its view."""
    out: list[str] = []
    if here:
        out += [_directions(here, p) for p in memory.directions_to()]
        corner = _CORNER.search(view)
        if corner:
            out += [_directions(" & ".join(corner.group(1).split(" / ")), p) for p in memory.directions_to()]
    *_read, boxes, spins, options, plain = _page(page)
    out += _title_gotos((plain, _plain_words(memory.instruction), _plain_words(view)))
    out += _SITE_GOTOS
    if boxes or spins:
        out += memory.typed(boxes, spins, _signs(view))
    return out + list(options)


_PlainWords = tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]]


def _title_gotos(parts: tuple[_PlainWords, _PlainWords, _PlainWords]) -> list[str]:
    """The ``goto`` of every title of :func:`_site_index` in ``seen = _plain(" ".join(texts))`` (whole words), where
    ``parts`` are the :func:`_plain_words` of the page, the instruction and the view: in the order of their first
    words there, then of the index (a repeat may follow its first: callers drop repeats).

    A title of one word is there when its word is. A title of more words can only be where its first two
    words are, as a pair of one part or across the space that joins two: each part's titles are looked up from
    its pairs once and kept (:func:`_part_titles`, by the part's text: a page comes back in later episodes), and
    only those that may run on past their part's end are searched for around the joins (a title whole in another
    part is found there, from that part's pairs). The page's first words rank first in ``seen``, so its own titles
    are kept in their final order: when the instruction and the view add none, they are the answer."""
    page, instruction, view = parts
    mine = _part_titles(page) if page[0] else _NO_TITLES
    extra: list[tuple[str, int, str]] = []  # (first word, position, goto) of the instruction's and view's titles
    spanning = list(mine[1])  # (first word, position, title, goto) of those that may cross a join
    read = [mine] if page[0] else []
    for part in (instruction, view):
        if part[0]:
            theirs = _part_titles(part)
            extra += theirs[0]
            spanning += theirs[1]
            read.append(theirs)
    if len(read) > 1:
        by_pair = _site_index_lookup()[1]
        for a, b in zip(read, read[1:], strict=False):  # the pair across each join: a part's last word, the next's first
            for first, pos, title, goto in by_pair.get((a[4], b[3]), ()):
                if title is None:
                    extra.append((first, pos, goto))
                else:
                    spanning.append((first, pos, title, goto))
    if not extra and not spanning:
        return list(mine[2])
    rank = dict(zip(page[1], range(len(page[1])), strict=True))  # title-starting word -> its first place in ``seen``
    for w in chain(instruction[1], view[1]):
        if w not in rank:
            rank[w] = len(rank)
    hits = [(rank[w], pos, goto) for w, pos, goto in extra if w in rank]
    if spanning:
        windows = _join_windows([part[0] for part in parts if part[0]], max(len(t) for _f, _p, t, _g in spanning))
        hits += [(rank[first], pos, goto) for first, pos, title, goto in spanning
                 if first in rank and any(title in w for w in windows)]
    if not hits:
        return list(mine[2])
    hits += mine[5]  # the page's own, ranked as in ``rank``
    hits.sort()
    return [goto for _i, _pos, goto in hits]


def _join_windows(texts: list[str], longest: int) -> list[str]:
    """The stretches of ``seen = " " + " ".join(texts) + " "`` that hold every occurrence, at most ``longest``
    characters long, of a string that holds one of the spaces joining two texts."""
    n = longest - 1
    if all(len(t) >= n for t in texts):  # each stretch from the two texts beside its space
        return [f"{a[-n:]} {b[:n]}" if n > 0 else " " for a, b in zip(texts, texts[1:], strict=False)]
    seen = " " + " ".join(texts) + " "
    out, k = [], 0
    for t in texts[:-1]:
        k += 1 + len(t)  # the joining space after ``t``
        out.append(seen[max(0, k - n): k + n + 1])
    return out


#: :func:`_part_titles` by the part's text (its words, which its pairs and first words are made of)
_PART_TITLES: dict[str, tuple[Any, ...]] = {}
_TitlesOfPart = tuple[tuple[tuple[str, int, str], ...], tuple[tuple[str, int, str, str], ...], tuple[str, ...], str, str,
                      tuple[tuple[int, int, str], ...]]
#: :func:`_part_titles` of an empty part
_NO_TITLES: _TitlesOfPart = ((), (), (), "", "", ())


def _part_titles(part: _PlainWords) -> _TitlesOfPart:
    """One part's share of :func:`_title_gotos`, kept by its text: ((word, position, goto) of the titles of one
    word, then (first word, position, goto) of the titles of more words whose first two words are a pair of the
    part and that are whole in it; (first word, position, title, goto) of those that are not but may run on past
    the part's end (:func:`_runs_on`: any other is either whole in another part, and found there, or not in the
    joined text); the gotos of the first group in :func:`_title_gotos`' order when the part is the page (ranked
    by the part's own first words); its first and last words; and those ranked hits). Tuples of strings and
    numbers only (see the caches above)."""
    joined, firsts, pairs = part
    hit = _PART_TITLES.get(joined)
    if hit is None:
        singles, by_pair = _site_index_lookup()
        padded = f" {joined} "
        whole, cut = [], []
        for pair in pairs:
            head = None
            for first, pos, title, goto in by_pair.get(pair, ()):
                if title is None or title in padded:
                    whole.append((first, pos, goto))
                elif _runs_on(padded, title, head or (head := f" {pair[0]} {pair[1]} ")):
                    cut.append((first, pos, title, goto))
        found = [(w, pos, goto) for w in firsts for pos, goto in singles.get(w, ())]
        found += whole
        ranked: list[tuple[int, int, str]] = []
        if found:
            rank = dict(zip(firsts, range(len(firsts)), strict=True))
            ranked = sorted([(rank[w], pos, goto) for w, pos, goto in found if w in rank])
        space = joined.find(" ")
        hit = (tuple(found), tuple(cut), tuple(goto for _r, _p, goto in ranked), joined[:space] if space >= 0 else joined,
               joined[joined.rfind(" ") + 1:], tuple(ranked))
        if len(_PART_TITLES) >= 4096:
            _PART_TITLES.clear()
        _PART_TITLES[joined] = hit
    return hit


def _runs_on(padded: str, title: str, head: str) -> bool:
    """Whether ``title`` (a title of :func:`_site_index`, in :func:`_plain` form) may start in ``padded`` (a part's
    words with a space at each end, as in the joined text) and run on past its end: whether the text from an
    occurrence of its first two words (``head``: `` first second ``) to the end of ``padded`` is where it starts
    (shorter than it)."""
    i = padded.find(head, max(0, len(padded) - len(title) + 1))
    while i >= 0:
        if title.startswith(padded[i:]):
            return True
        i = padded.find(head, i + 1)
    return False


@lru_cache(maxsize=4096)
def _signs(view: str) -> tuple[str, ...]:
    """What the signs in sight read (quoted in the embodied view: a shop's name, an emblem), once each."""
    return tuple(dict.fromkeys(m.strip() for m in _QUOTED.findall(view)))


#: pages of the local sites a ``goto`` may always open
SITE_PAGES = ("/shop/", "/shop/cart", "/recipes/", "/wiki/", "/map/")
_SITE_GOTOS = [f"goto [{url}]" for url in SITE_PAGES]

_INDEX: dict[str, list[tuple[str, str]]] | None = None


def _plain(text: str) -> str:
    """Lower-case words separated by single spaces, with a space at each end (whole-word matching)."""
    return " " + " ".join(re.findall(r"\w+", text.lower())) + " "


#: a word of :func:`_plain`
_PLAIN_WORD = re.compile(r"\w+")
#: the element id that starts a line of tree text ("\t\t[12] link 'Home'")
_BID_PREFIX = re.compile(r"\s*\[(\w+)\] ")


@lru_cache(maxsize=65536)
def _line_plain_words(line: str) -> tuple[str, str, str, tuple[str, ...], tuple[tuple[str, str], ...]] | None:
    """One line's part of :func:`_plain_words` (None for a line without words): its words joined by spaces,
    its first and last word, the words that start a title of :func:`_site_index` (first occurrences in
    order) and its pairs of consecutive words that are a title's first two. Cached per line: most lines of a
    new page were on another (a page differs from the last by a typed value or a list item, and the pages of
    a site share their header). An element's line is read as its id's word followed by the words of the rest,
    which is cached on its own: ids are numbered per page, so the same element on another page (a list item,
    a link) has another id and another line, but the same rest. The pairs are a tuple, not a set: a tuple of
    strings is not tracked by the garbage collector, and tens of thousands of lines stay cached."""
    m = _BID_PREFIX.match(line)
    if m is None:
        return _plain_line_words(line)
    bid = m.group(1).lower()
    rest = _plain_line_words(line[m.end():])
    starts = bid in _site_index()
    if rest is None:
        return bid, bid, bid, (bid,) if starts else (), ()
    joined, first, last, firsts, pairs = rest
    if starts:
        firsts = (bid, *(w for w in firsts if w != bid))
        if (bid, first) in _site_index_lookup()[1] and (bid, first) not in pairs:
            pairs = ((bid, first), *pairs)
    return f"{bid} {joined}", bid, last, firsts, pairs


@lru_cache(maxsize=65536)
def _plain_line_words(line: str) -> tuple[str, str, str, tuple[str, ...], tuple[tuple[str, str], ...]] | None:
    """:func:`_line_plain_words` of a line read whole."""
    words = _PLAIN_WORD.findall(line.lower())
    if not words:
        return None
    index, title_pairs = _site_index(), _site_index_lookup()[1]
    return (" ".join(words), words[0], words[-1], tuple(dict.fromkeys(filter(index.__contains__, words))),
            tuple(dict.fromkeys(filter(title_pairs.__contains__, zip(words, words[1:], strict=False)))))


@lru_cache(maxsize=4096)
def _plain_words(text: str) -> tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]]:
    """(the words of :func:`_plain` of ``text`` joined by spaces, those of them that start a title of
    :func:`_site_index` (first occurrences in order), its pairs of consecutive words that are the first two
    of a title: a title of more words is searched for only when they are there), cached. Built from each line's
    :func:`_line_plain_words` (no word spans a line break, and lower-casing never looks across one), with the
    pairs across line breaks added."""
    return _joined_plain_words([p for p in map(_line_plain_words, text.split("\n")) if p is not None])


def _joined_plain_words(parts: list[tuple[str, str, str, tuple[str, ...], tuple[tuple[str, str], ...]]]
                        ) -> tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]]:
    """:func:`_plain_words` of a text from its lines' :func:`_line_plain_words` (those with words, in order):
    the pairs in order, each line's then those across line breaks, once each (a tuple: see the caches above)."""
    if not parts:
        return "", (), ()
    joined, starts, ends, firsts, pairs = zip(*parts, strict=True)  # the lines' columns
    across = filter(_site_index_lookup()[1].__contains__, zip(ends, starts[1:], strict=False))  # (a line's last, the next's first)
    return (" ".join(joined), tuple(dict.fromkeys(chain.from_iterable(firsts))),
            tuple(dict.fromkeys(chain(chain.from_iterable(pairs), across))))


@lru_cache(maxsize=1)
def _site_index_lookup() -> tuple[dict[str, list[tuple[int, str]]],
                                  dict[tuple[str, str], list[tuple[str, int, str | None, str]]]]:
    """:func:`_site_index` for :func:`_web_candidates`: (the titles of one word: (position in their word's
    entries, ``goto [path]``) by word; the titles of more: (first word, position, title, ``goto [path]``) by
    their first two words, which must be in the text before the title is searched for). A title of two words
    has None for its title: its words in the text are the title (the text's pairs are of consecutive words)."""
    singles: dict[str, list[tuple[int, str]]] = {}
    by_pair: dict[tuple[str, str], list[tuple[str, int, str | None, str]]] = {}
    for first, entries in _site_index().items():
        for pos, (title, url) in enumerate(entries):
            words = title.split()
            if len(words) > 1:
                by_pair.setdefault((words[0], words[1]), []).append(
                    (first, pos, title if len(words) > 2 else None, f"goto [{url}]"))
            else:
                singles.setdefault(first, []).append((pos, f"goto [{url}]"))
    return singles, by_pair


@lru_cache(maxsize=65536)
def _directions(here: str, place: str) -> str:
    """The ``goto`` of the walking directions from street node ``here`` to ``place``, cached."""
    from urllib.parse import urlencode

    return "goto [/map/directions?" + urlencode({"from": here, "to": place}) + "]"


def _site_index() -> dict[str, list[tuple[str, str]]]:
    """(title as :func:`_plain` text, path) of every wiki article, shop product and recipe of the local sites,
    by the title's first word: a ``goto`` candidate when its title is in the instruction, the page or the
    embodied view (whole words)."""
    global _INDEX
    if _INDEX is None:
        from urllib.parse import quote

        index: list[tuple[str, str]] = []
        try:
            from web_sites.wiki.catalog import articles

            index += [(_plain(str(a["title"])), f"/wiki/article/{quote(str(a['slug']))}") for a in articles()
                      if a.get("title")]
        except Exception:  # no wiki
            pass
        try:
            from web_sites.shop.catalog import products

            index += [(_plain(str(p["name"])), f"/shop/product/{p['product_id']}") for p in products() if p.get("name")]
        except Exception:  # no shop
            pass
        try:
            from web_sites.recipes.catalog import recipes

            index += [(_plain(str(r["name"])), f"/recipes/recipe/{r['recipe_id']}") for r in recipes() if r.get("name")]
        except Exception:  # no recipes
            pass
        _INDEX = {}
        for title, url in index:
            if title.split():
                _INDEX.setdefault(title.split()[0], []).append((title, url))
    return _INDEX


# TokenObservations ----------------------------------------------------------------------------------
#: a token: a number (``40.735699``, ``10:30``, ``1,200``), a run of letters, or one other character
_TOKEN = re.compile(r"\d+(?:[.,:]\d+)*|[^\W\d_]+|\S")
#: token ids: 0 pads, 1 is a character outside the observation charset (``�``), 2 marks a cut field
PAD, UNK, TRUNC = 0, 1, 2
RESERVED_IDS = 3

#: token ids kept of each text field (``encoding="ids"``), measured over the oracle episodes of 40 tasks of
#: every env (15,591 observations; tokens of :func:`tokenize`): 99th percentile / largest seen -
#: instruction 107/107, web_url 31/80, web_tabs 49/93, web_text 1,113/1,428, embodied_text 1,204/1,483,
#: last_action 17/27 (the oracle makes no errors and sends no messages: those get room for a sentence)
DEFAULT_MAX_TOKENS: dict[str, int] = {
    "active": 1,
    "instruction": 128,
    "web_url": 64,
    "web_tabs": 128,
    "web_text": 1280,
    "embodied_text": 1280,
    "last_action": 32,
    "last_action_error": 64,
    "message": 64,
}
#: the fields :class:`TokenObservations` encodes by default (``web_tabs`` is left out: the tab titles repeat
#: the url and page)
DEFAULT_TOKEN_KEYS = ("active", "instruction", "web_url", "web_text", "embodied_text", "last_action",
                      "last_action_error", "message")
#: token ids kept of each candidate action (``candidates=True``): 99th percentile 17, largest 40 over the
#: 717,070 candidates of the same episodes
DEFAULT_CANDIDATE_TOKENS = 24
#: ``candidate_tokens`` with ``candidate_context=True``: the action and the line its argument names
DEFAULT_CONTEXT_TOKENS = 48
#: the token between a candidate's own tokens and its context's (``candidate_context=True``)
CONTEXT_SEP = "|"
#: a line's key: a page element's bid (``[13] link``), a street neighbour's node (``- n842: ...``), a kitchen
#: object's id (``- Cabinet|+0.30|+0.36|-2.45 (Cabinet), ...``)
_LINE_KEY = re.compile(r"^\s*(?:- )?(?:\[(\w+)\] |([^\s\[\]:]+)(?::| \())", re.M)
_ARG = re.compile(r"\[([^\]]+)\]")


@lru_cache(maxsize=512)
def _line_keys(text: str) -> dict[str, str]:
    """Key -> the rest of its line, for each line of ``text`` that names a bid, a node or an object first
    (the first line wins)."""
    out: dict[str, str] = {}
    for m in _LINE_KEY.finditer(text):
        key = m.group(1) or m.group(2)
        if key not in out:
            end = text.find("\n", m.end())
            out[key] = text[m.end(): end if end >= 0 else len(text)].strip()
    return out


def candidate_context(action: str, keys: dict[str, str], here: str = "") -> str:
    """The observation line (less its key) that the first argument of ``action`` naming a line refers to;
    for a ``stop`` without one, ``here`` (the line saying where the agent is: a stop ends the episode
    there); else ''."""
    for arg in _ARG.findall(action):
        line = keys.get(arg)
        if line is not None:
            return line
    return here if action.split(" ", 1)[0] == "stop" else ""


#: the padded fields :class:`TokenObservations` keeps (by field and text). A padded field is the size of its
#: ``max_tokens`` (5 KB for ``web_text``), so 8,192 of them held 23 MB after 20,000 random Geolocation steps;
#: past this many, a field's text seen again is padded anew from its cached ids (a copy into zeros)
FIELD_CACHE = 1024


def tokenize(text: str) -> list[str]:
    """The tokens of ``text``: lower-cased numbers, runs of letters and single other characters."""
    return _TOKEN.findall(text.lower())


def token_id(token: str, vocab_size: int) -> int:
    """The id of ``token`` in ``[RESERVED_IDS, vocab_size)``: CRC-32 of its UTF-8 bytes (stable across
    processes and Python versions, unlike ``hash()``), or :data:`UNK` for ``�``."""
    if token == REPLACEMENT:
        return UNK
    return zlib.crc32(token.encode("utf-8")) % (vocab_size - RESERVED_IDS) + RESERVED_IDS


class TokenObservations(gym.ObservationWrapper[Any, Any, Any], gym.utils.RecordConstructorArgs):
    """Numeric observations of fixed shapes for an EmbodiedWeb env: hashed token ids or bags of words.

    Each selected text field (``keys``) is split by :func:`tokenize` (lower-cased numbers, words and
    punctuation) and each token hashed to an id by :func:`token_id` (CRC-32 modulo ``vocab_size - 3``, plus
    3: ids 0, 1 and 2 are :data:`PAD`, :data:`UNK` for ``�`` and :data:`TRUNC`). The ids are the same in every
    process (no ``hash()``, whose seed changes per process) and need no vocabulary file.

    * ``encoding="ids"``: the field becomes ``Box(0, vocab_size - 1, (max_tokens[key],), int32)``, its token
      ids in order, padded with 0; a field with more tokens keeps the first ``max_tokens - 1`` and ends with
      :data:`TRUNC`. For an embedding layer (a transformer, a GRU, a mean of embeddings). The defaults
      (:data:`DEFAULT_MAX_TOKENS`) cover the 99th percentile of every field over oracle episodes (web_text
      1,280 for a 99th percentile of 1,113 tokens).
    * ``encoding="bow"``: the field becomes ``Box(0, log1p(max characters), (vocab_size,), float32)``, the
      ``log1p`` of the count of each id in the whole field (nothing is cut). For MLP policies (Stable
      Baselines3's ``MultiInputPolicy``).
    * ``active`` becomes ``Discrete(2)``: 0 in the embodied world, 1 in the web.
    * ``images=True`` passes ``embodied_image`` and ``web_screenshot`` through (uint8, height x width x 3): the
      env must be made with ``render_images=True``.
    * ``candidates=True`` (the wrapper must be above a :class:`DiscreteActions`) adds ``candidates``:
      ``Box(0, vocab_size - 1, (max_actions, candidate_tokens), int32)``, row ``i`` the token ids of
      candidate action ``i`` (zeros for the masked indices), for policies that score each candidate.
    * ``candidate_context=True`` (with ``candidates``) appends to each candidate's tokens, after
      :data:`CONTEXT_SEP`, those of the observation line its argument names: the page element of a bid
      (``click [13]`` and ``[13] searchbox 'Search places'``), the street neighbour of a node
      (``move [n842]`` and ``n842: right (heading 29 deg, +104 deg from you), 12 m along 8th Ave``), the
      kitchen object of an objectId; a plain ``stop``, the first line of the embodied view (where the agent
      is: ``You are at n9664: W 44th St between 7th Ave & 8th Ave ...``, where stopping ends the episode).
      An id means nothing by itself (it is hashed like any token); the line says what acting on it does.
      ``candidate_tokens`` then defaults to 48.

    ``vocab_size`` defaults to 16,384 for ``ids`` (an embedding table of 16,384 rows is small) and 4,096 for
    ``bow`` (the width of each field's vector, the first layer of an MLP). The oracle episodes hold 18,620
    distinct tokens, most of them numbers (coordinates, prices) of ``embodied_text``; web pages hold 2,758 and
    instructions 536, of which 4,096 buckets give 751 and 32 a shared bucket, 16,384 buckets 198 and 9.

    Example:
        >>> import gymnasium as gym, embodiedweb
        >>> from embodiedweb.wrappers import DiscreteActions, TokenObservations
        >>> env = TokenObservations(DiscreteActions(gym.make("EWA-Navigation-v0")), candidates=True)
        >>> obs, info = env.reset(seed=0)
        >>> obs["web_text"].shape, obs["candidates"].shape, int(obs["active"])
        ((1280,), (512, 24), 0)
        >>> env.observation_space.contains(obs)
        True

    Cost: the tokens of each distinct text are computed once and cached (pages and instructions repeat, and
    so do most lines of a changed text), and a field whose text is the one encoded last is not encoded again
    (``bow`` too), so a step costs a few string comparisons and array copies (``ewa bench``'s
    ``wrapped_overhead_pct`` has the measured figures).
    """

    def __init__(self, env: gym.Env[Any, Any], encoding: str = "ids", keys: tuple[str, ...] | None = None,
                 vocab_size: int | None = None, max_tokens: dict[str, int] | None = None, images: bool = False,
                 candidates: bool = False, candidate_tokens: int | None = None,
                 candidate_context: bool = False) -> None:
        if encoding not in ("ids", "bow"):
            raise ValueError(f"encoding must be 'ids' or 'bow', got {encoding!r}")
        if vocab_size is None:
            vocab_size = 16_384 if encoding == "ids" else 4_096
        if not isinstance(vocab_size, int | np.integer) or not 16 <= int(vocab_size) <= 2**31 - 1:
            raise ValueError(f"vocab_size must be an integer from 16 to 2**31 - 1, got {vocab_size!r}")
        text_keys = [k for k, s in env.observation_space.spaces.items() if isinstance(s, spaces.Text)] \
            if isinstance(env.observation_space, spaces.Dict) else []
        keys = tuple(DEFAULT_TOKEN_KEYS if keys is None else keys)
        bad = [k for k in keys if k not in text_keys]
        if bad or not keys:
            raise ValueError(f"keys must be text fields of the observation {sorted(text_keys)}, got {list(keys)!r}"
                             " (is TokenObservations under another observation wrapper or DiscreteActions?"
                             " it goes outermost)")
        limits = dict(DEFAULT_MAX_TOKENS)
        for k, n in (max_tokens or {}).items():
            if k not in DEFAULT_MAX_TOKENS:
                raise ValueError(f"max_tokens has an unknown field {k!r} (fields: {sorted(DEFAULT_MAX_TOKENS)})")
            if not isinstance(n, int | np.integer) or int(n) < 1:
                raise ValueError(f"max_tokens[{k!r}] must be a positive integer, got {n!r}")
            limits[k] = int(n)
        image_keys = ("embodied_image", "web_screenshot")
        if images and not all(k in env.observation_space.spaces for k in image_keys):
            raise ValueError("images=True needs an env made with render_images=True "
                             "(gym.make(id, render_images=True)): its observation has no images")
        discrete = find_discrete(env) if candidates else None
        if candidates and discrete is None:
            raise ValueError("candidates=True needs a DiscreteActions under TokenObservations "
                             "(TokenObservations(DiscreteActions(env), candidates=True))")
        if candidate_context and not candidates:
            raise ValueError("candidate_context=True needs candidates=True")
        if candidate_tokens is None:
            candidate_tokens = DEFAULT_CONTEXT_TOKENS if candidate_context else DEFAULT_CANDIDATE_TOKENS
        if not isinstance(candidate_tokens, int | np.integer) or int(candidate_tokens) < 1:
            raise ValueError(f"candidate_tokens must be a positive integer, got {candidate_tokens!r}")
        gym.utils.RecordConstructorArgs.__init__(
            self, encoding=encoding, keys=keys, vocab_size=vocab_size, max_tokens=max_tokens, images=images,
            candidates=candidates, candidate_tokens=candidate_tokens, candidate_context=candidate_context)
        gym.ObservationWrapper.__init__(self, env)
        self.candidate_context = bool(candidate_context)
        self.encoding = encoding
        self.keys = keys
        self.vocab_size = int(vocab_size)
        self.max_tokens = {k: limits[k] for k in keys if k != "active"}
        self.images = bool(images)
        self.candidate_tokens = int(candidate_tokens)
        self._discrete = discrete
        high_bow = np.float32(np.log1p(max(OBS_TEXT_MAX.values())))
        obs_spaces: dict[str, spaces.Space[Any]] = {}
        for k in keys:
            if k == "active":
                obs_spaces[k] = spaces.Discrete(2)
            elif encoding == "ids":
                obs_spaces[k] = spaces.Box(0, self.vocab_size - 1, (self.max_tokens[k],), np.int32)
            else:
                obs_spaces[k] = spaces.Box(np.float32(0.0), high_bow, (self.vocab_size,), np.float32)
        if images:
            for k in image_keys:
                obs_spaces[k] = env.observation_space.spaces[k]
        if discrete is not None:
            obs_spaces["candidates"] = spaces.Box(0, self.vocab_size - 1,
                                                  (discrete.max_actions, self.candidate_tokens), np.int32)
        self.observation_space = spaces.Dict(obs_spaces)
        self._token_ids: dict[str, int] = {}
        self._text_ids: dict[str, np.ndarray] = {}  # text -> all its token ids
        self._line_ids: dict[str, bytes] = {}  # line of a text -> its token ids (int32 bytes)
        self._chunk_ids: dict[str, bytes] = {}  # whitespace-free chunk of a line -> its token ids (int32 bytes)
        self._fields: dict[tuple[str, str], np.ndarray] = {}  # (key, text) -> the field's padded ids
        self._last: dict[str, tuple[str, np.ndarray]] = {}  # key -> (its text last encoded, its encoding)
        self._rows: dict[str, bytes] = {}  # candidate text -> its padded ids (int32 bytes)
        self._last_matrix: tuple[list[str], np.ndarray] | None = None  # (the candidates last encoded, matrix)
        self._matrices: dict[tuple[str, ...], np.ndarray] = {}  # candidate list -> its matrix

    # tokens ---------------------------------------------------------------------------------------
    def text_ids(self, text: str) -> np.ndarray:
        """All the token ids of ``text`` (int32, cached per text, and per line: no token spans a line
        break, and most lines of a changed text, such as the embodied view's, were seen before)."""
        ids = self._text_ids.get(text)
        if ids is None:
            lines = self._line_ids
            if len(lines) > 200_000:
                lines.clear()
            split = text.split("\n")
            parts = list(map(lines.get, split))  # each line's ids as int32 bytes
            if None in parts:
                for i, line_ids in enumerate(parts):
                    if line_ids is None:
                        parts[i] = lines[split[i]] = self._line_bytes(split[i])
            ids = np.frombuffer(b"".join(parts), dtype=np.int32).copy()
            if len(self._text_ids) >= 8192:
                self._text_ids.clear()
            self._text_ids[text] = ids
        return ids

    def _line_bytes(self, line: str) -> bytes:
        """The token ids of one line as int32 bytes, joined from those of its whitespace-separated chunks (no
        token holds a space, and casing a chunk is casing it in its line), which are cached: a new line is
        mostly chunks seen before (an element's id, a distance, an object's name). Callers cache the lines."""
        chunks = self._chunk_ids
        split = line.split()
        parts = list(map(chunks.get, split))
        if None in parts:
            if len(chunks) > 200_000:
                chunks.clear()
            for i, chunk_ids in enumerate(parts):
                if chunk_ids is None:
                    parts[i] = chunks[split[i]] = array("i", self._token_list(tokenize(split[i]))).tobytes()
        return b"".join(parts)  # type: ignore[arg-type]

    def _token_list(self, tokens: list[str]) -> list[int]:
        table = self._token_ids
        ids = list(map(table.get, tokens))
        if None in ids:
            if len(table) > 1_000_000:
                table.clear()
            for tok in set(tokens).difference(table):
                table[tok] = token_id(tok, self.vocab_size)
            ids = list(map(table.get, tokens))
        return ids  # type: ignore[return-value]

    def _padded(self, ids: np.ndarray, n: int) -> np.ndarray:
        out = np.zeros(n, dtype=np.int32)
        if len(ids) <= n:
            out[: len(ids)] = ids
        else:
            out[: n - 1] = ids[: n - 1]
            out[n - 1] = TRUNC
        return out

    @staticmethod
    def _unchanged(old: Any, new: Any) -> bool:
        """Whether a field's text (or the candidate list) is the one encoded last (most are, at most steps)."""
        return old is new or old == new

    def _field(self, key: str, text: str) -> np.ndarray:
        last = self._last.get(key)
        if last is not None and self._unchanged(last[0], text):  # no hashing of the text, no bincount
            return last[1].copy()
        if self.encoding == "bow":
            arr = np.log1p(np.bincount(self.text_ids(text), minlength=self.vocab_size).astype(np.float32))
        else:
            arr = self._fields.get((key, text))
            if arr is None:
                if len(self._fields) >= FIELD_CACHE:
                    self._fields.clear()
                arr = self._fields[(key, text)] = self._padded(self.text_ids(text), self.max_tokens[key])
        self._last[key] = (text, arr)
        return arr.copy()

    def _candidate_matrix(self, cands: list[str], observation: dict[str, Any] | None = None) -> np.ndarray:
        assert self._discrete is not None
        if self.candidate_context and observation is not None:
            embodied = str(observation.get("embodied_text", ""))
            keys = {**_line_keys(embodied), **_line_keys(str(observation.get("web_text", "")))}
            here = embodied.split("\n", 1)[0].strip()
            cands = [f"{c} {CONTEXT_SEP} {line}" if (line := candidate_context(c, keys, here)) else c
                     for c in cands]
        last = self._last_matrix
        if last is not None and self._unchanged(last[0], cands):  # the list of the step before: no hashing
            return last[1].copy()
        key = tuple(cands)
        mat = self._matrices.get(key)
        if mat is None:
            rows = self._rows
            parts = list(map(rows.get, cands))
            if None in parts:  # rows of candidates never encoded before
                if len(rows) + len(cands) > 65536:
                    rows.clear()
                for i, c in enumerate(cands):
                    if parts[i] is None:
                        ids = np.frombuffer(self._line_bytes(c), dtype=np.int32)
                        parts[i] = rows[c] = self._padded(ids, self.candidate_tokens).tobytes()
            flat = np.zeros(self._discrete.max_actions * self.candidate_tokens, dtype=np.int32)
            filled = np.frombuffer(b"".join(parts), dtype=np.int32)  # the rows one after the other
            flat[: len(filled)] = filled
            mat = flat.reshape(self._discrete.max_actions, self.candidate_tokens)
            if len(self._matrices) >= 128:
                self._matrices.clear()
            self._matrices[key] = mat
        self._last_matrix = (list(cands), mat)
        return mat.copy()

    # gym API ------------------------------------------------------------------------------------
    def observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        """Encode the text fields (``active`` as 0/1), pass images through, and add the candidate matrix when discrete."""
        out: dict[str, Any] = {}
        for k in self.keys:
            if k == "active":
                out[k] = int(observation.get("active") == "web")
            else:
                out[k] = self._field(k, str(observation.get(k, "")))
        if self.images:
            out["embodied_image"] = observation["embodied_image"]
            out["web_screenshot"] = observation["web_screenshot"]
        if self._discrete is not None:
            out["candidates"] = self._candidate_matrix(self._discrete._candidates, observation)
        return out


def find_discrete(env: Any) -> DiscreteActions | None:
    """The :class:`DiscreteActions` in ``env``'s wrapper chain (None without one)."""
    while env is not None:
        if isinstance(env, DiscreteActions):
            return env
        env = getattr(env, "env", None)
    return None


def unbatch_info(info: dict[str, Any], index: int) -> dict[str, Any]:
    """Env ``index``'s own info out of a Gymnasium vector env's batched info (keys ``k`` with their
    ``_k`` masks, nested dicts the same way)."""
    out: dict[str, Any] = {}
    for key, value in info.items():
        if key.startswith("_"):
            continue
        present = info.get(f"_{key}")
        if present is not None and not bool(present[index]):
            continue
        if isinstance(value, dict):
            out[key] = unbatch_info(value, index)
        else:
            item = value[index]
            out[key] = item.item() if isinstance(item, np.generic) else item
    return out
