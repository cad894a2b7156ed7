"""The wrappers' caches give exactly what computing afresh gives (issue 16's overhead target).

:class:`embodiedweb.wrappers.ShapedReward` keeps the checker's completion while the env's ``state_version``
is unchanged; :class:`embodiedweb.wrappers.TokenObservations` keeps each field's encoding while its text is
unchanged; :class:`embodiedweb.wrappers.DiscreteActions` reads a page's lines and words through per-line
caches and keeps the places it asks directions to until a place is added. Each test plays a scripted episode per env (the oracle's on the env's first task, with a
refused action after every third, a step that changes nothing) through a cached and an uncached wrapper
side by side and compares every output. The last tests break the invalidation on purpose (the version never
moves; web changes do not move it) and check that the comparison catches it, so a passing comparison means
something.
"""

from __future__ import annotations

import gc
import heapq
import json
import re

import gymnasium as gym
import numpy as np
import pytest

import embodiedweb  # noqa: F401  (registers the ids)
from baselines.oracle import OracleAgent
from embodiedweb import wrappers
from embodiedweb.env import EmbodiedWebEnv
from embodiedweb.registration import registered_ids
from embodiedweb.wrappers import (
    DiscreteActions,
    ShapedReward,
    TokenObservations,
    canonical_action,
    token_id,
    tokenize,
)

IDS = registered_ids()
#: a refused action (the state does not change) is sent after every this many oracle actions
REFUSED_EVERY = 3


def _play(env_id, make, mode="progress"):
    """Play the scripted episode through ``make(cache)`` for cache True and False side by side; returns the
    per-step outputs of each, the number of checker calls of each, and the cached env."""
    envs = {cache: make(cache) for cache in (True, False)}
    outs = {True: [], False: []}
    calls = {True: 0, False: 0}
    task = envs[True].unwrapped.tasks.tasks[0].task_id
    agent = OracleAgent()
    obs = info = None
    for cache, env in envs.items():
        o, i = env.reset(seed=0, options={"task_id": task})
        outs[cache].append(_record(o, 0.0, False, False, i))
        if cache:
            obs, info = o, i
    agent.reset(envs[True], obs, info)
    done, n = False, 0
    while not done:
        n += 1
        action = "noop" if n % (REFUSED_EVERY + 1) == 0 else agent.act(obs, info)
        for cache, env in envs.items():
            before = wrappers.completion_now.calls
            o, r, term, trunc, i = env.step(action)
            calls[cache] += wrappers.completion_now.calls - before
            outs[cache].append(_record(o, r, term, trunc, i))
            if cache:
                obs, info, done = o, i, term or trunc
    for env in envs.values():
        env.close()
    return outs, calls


def _record(obs, reward, terminated, truncated, info):
    """What a step gives an agent, comparable with ``==`` (timings left out: they are measurements)."""
    keep = {k: v for k, v in info.items() if k != "timings"}
    obs = {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in obs.items()}
    return json.dumps([obs, float(reward), bool(terminated), bool(truncated), keep], sort_keys=True, default=repr)


@pytest.fixture
def count_checks(monkeypatch):
    """Count the calls of :func:`embodiedweb.wrappers.completion_now` (one checker run each)."""
    real = wrappers.completion_now

    def counted(base, fresh=False):
        counted.calls += 1
        return real(base, fresh)

    counted.calls = 0
    monkeypatch.setattr(wrappers, "completion_now", counted)
    return counted


def _shaped(env_id, mode):
    def make(cache):
        env = ShapedReward(gym.make(env_id), mode=mode, gamma=0.99)
        env.cache = cache
        return env
    return make


def _mismatches(env_id, mode="progress"):
    outs, calls = _play(env_id, _shaped(env_id, mode), mode)
    return [k for k, (a, b) in enumerate(zip(outs[True], outs[False], strict=True)) if a != b], calls, outs


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("mode", ["progress", "subgoal"])
def test_cached_completion_gives_the_uncached_outputs(env_id, mode, count_checks):
    bad, calls, outs = _mismatches(env_id, mode)
    assert not bad, f"{env_id}: the cached ShapedReward differs from the uncached one at steps {bad[:5]}"
    assert json.loads(outs[True][-1])[4]["sparse_reward"] == 1.0  # the scripted episode succeeds
    assert calls[True] < calls[False]  # and the cache was used (the refused actions at least)


@pytest.mark.parametrize("env_id", IDS)
def test_an_unchanged_state_version_means_an_unchanged_state(env_id):
    """Over the scripted episode, whenever ``state_version`` did not move, the world's semantic state and the
    web session's snapshot are those of the step before (and the version never goes down)."""
    env = gym.make(env_id)
    base = env.unwrapped
    agent = OracleAgent()
    obs, info = env.reset(seed=0, options={"task_id": base.tasks.tasks[0].task_id})
    agent.reset(env, obs, info)

    def state():
        return (base.state_version, json.dumps(base.world.semantic_state(), sort_keys=True, default=repr),
                json.dumps(base.webapp.snapshot(base.session), sort_keys=True, default=repr), base.answer)

    prev, done, n, unchanged = state(), False, 0, 0
    while not done:
        n += 1
        action = "noop" if n % (REFUSED_EVERY + 1) == 0 else agent.act(obs, info)
        obs, _, term, trunc, info = env.step(action)
        done = term or trunc
        cur = state()
        assert cur[0] >= prev[0]
        if cur[0] == prev[0]:
            unchanged += 1
            assert cur[1:] == prev[1:], f"{env_id} step {n} ({action!r}): the state changed, its version did not"
        prev = cur
    assert unchanged >= n // (REFUSED_EVERY + 1)  # the refused actions at least
    env.close()


def _mutating_checker(monkeypatch):
    """Break: a checker that writes into the states it is given (the recorded ones, between steps)."""
    from embodiedweb.domains.base import Episode

    real = Episode.__init__

    def init(self, task, world_state, web_state, *args, **kwargs):
        if isinstance(world_state, dict):
            world_state["checked"] = world_state.get("checked", 0) + 1
        real(self, task, world_state, web_state, *args, **kwargs)

    monkeypatch.setattr(Episode, "__init__", init)


def _recorded_mismatches(env_id):
    """Steps of the scripted episode, played under ShapedReward (whose checks read the recorded states), after
    which the env's recorded world or web state is not what the world and the sites give afresh."""
    env = ShapedReward(gym.make(env_id), mode="progress")
    base = env.unwrapped
    agent = OracleAgent()
    obs, info = env.reset(seed=0, options={"task_id": base.tasks.tasks[0].task_id})
    agent.reset(env, obs, info)

    def dumps(state):
        return json.dumps(state, sort_keys=True, default=repr)

    bad, done, n = [], False, 0
    while not done:
        n += 1
        action = "noop" if n % (REFUSED_EVERY + 1) == 0 else agent.act(obs, info)
        obs, _, term, trunc, info = env.step(action)
        done = term or trunc
        if (dumps(base._world_state), dumps(base._web_state)) != (dumps(base.world.semantic_state()),
                                                                  dumps(base.webapp.snapshot(base.session))):
            bad.append(n)
    env.close()
    return bad


@pytest.mark.parametrize("env_id", IDS)
def test_the_recorded_states_are_the_current_states(env_id):
    """Between steps the states the trace recorded last are the world's and the sites' (ShapedReward's checks
    read those), and checking them leaves them so."""
    assert base_records(env_id) and not _recorded_mismatches(env_id)


def base_records(env_id):
    env = gym.make(env_id)
    try:
        env.reset(seed=0)
        return env.unwrapped._states_recorded
    finally:
        env.close()


def _stale_web_record(monkeypatch):
    """Break: a step's web diff is taken but the recorded web state is left as it was."""
    real = EmbodiedWebEnv._changes

    def changes(self, changed):
        web = self._web_state
        out = real(self, changed)
        self._web_state = web
        return out

    monkeypatch.setattr(EmbodiedWebEnv, "_changes", changes)


@pytest.mark.parametrize("breakage", [_stale_web_record, _mutating_checker])
def test_the_recorded_states_check_catches_stale_or_written_states(breakage, monkeypatch):
    breakage(monkeypatch)
    assert _recorded_mismatches("EWA-Navigation-v0")


def test_reset_moves_the_state_version():
    env = gym.make(IDS[0])
    env.reset(seed=0)
    v = env.unwrapped.state_version
    env.reset(seed=0)
    assert env.unwrapped.state_version > v
    env.close()


# the comparison catches a broken invalidation ------------------------------------------------------------
def _never_moves(monkeypatch):
    """Break: ``state_version`` stays 0 (every increment is lost)."""
    monkeypatch.setattr(EmbodiedWebEnv, "state_version", property(lambda self: 0, lambda self, v: None),
                        raising=False)


def _web_changes_ignored(monkeypatch):
    """Break: a step that changed only the web session does not move ``state_version``."""
    real = EmbodiedWebEnv._changes

    def changes(self, changed):
        out = real(self, changed)
        return {k: v for k, v in out.items() if k != "web"}

    monkeypatch.setattr(EmbodiedWebEnv, "_changes", changes)


@pytest.mark.parametrize("breakage", [_never_moves, _web_changes_ignored])
def test_the_comparison_catches_a_broken_invalidation(breakage, monkeypatch, count_checks):
    breakage(monkeypatch)
    caught = [env_id for env_id in ("EWA-Navigation-v0", "EWA-Cooking-v0") if _mismatches(env_id)[0]]
    assert caught == ["EWA-Navigation-v0", "EWA-Cooking-v0"], f"{breakage.__name__}: not caught on all: {caught}"


# TokenObservations and DiscreteActions ------------------------------------------------------------------
class _Inner(gym.ObservationWrapper):
    """Keeps the raw observation under the token wrapper (the reference is computed from it)."""

    def observation(self, observation):
        self.raw = observation
        return observation


def _reference_field(tok, key, text):
    """A field's encoding computed afresh from :func:`tokenize` and :func:`token_id` (no cache at all)."""
    ids = np.array([token_id(t, tok.vocab_size) for line in text.split("\n") for t in tokenize(line)], np.int32)
    if tok.encoding == "bow":
        return np.log1p(np.bincount(ids, minlength=tok.vocab_size).astype(np.float32))
    n = tok.max_tokens[key]
    out = np.zeros(n, np.int32)
    if len(ids) <= n:
        out[: len(ids)] = ids
    else:
        out[: n - 1], out[n - 1] = ids[: n - 1], wrappers.TRUNC
    return out


def _token_and_candidate_mismatches(env_id, encoding):
    """Steps of the scripted episode where TokenObservations' fields or DiscreteActions' page lines and
    direction places differ from their uncached reference."""
    inner = _Inner(DiscreteActions(gym.make(env_id)))
    tok = TokenObservations(inner, encoding=encoding, candidates=True)
    discrete = inner.env
    agent = OracleAgent()
    bad = []
    obs, info = tok.reset(seed=0, options={"task_id": tok.unwrapped.tasks.tasks[0].task_id})
    agent.reset(tok, inner.raw, info)
    done, n = False, 0
    while not done:
        for key in tok.keys:
            if key != "active" and not np.array_equal(obs[key], _reference_field(tok, key, inner.raw[key])):
                bad.append((n, key))
        rows = np.zeros_like(obs["candidates"])
        for i, c in enumerate(discrete.candidates()):
            ids = np.array([token_id(t, tok.vocab_size) for t in tokenize(c)], np.int32)
            k = tok.candidate_tokens
            rows[i, : min(len(ids), k)] = ids[:k] if len(ids) <= k else np.append(ids[: k - 1], wrappers.TRUNC)
        if not np.array_equal(obs["candidates"], rows):
            bad.append((n, "candidates"))
        page = inner.raw["web_text"]
        whole = tuple((m.group(1), m.group(2), m.group(3).replace("\\'", "'").replace("\\\\", "\\"))
                      for m in wrappers._LINE.finditer(page))
        if wrappers._page_lines(page) != whole:
            bad.append((n, "page_lines"))
        if _comparable(wrappers._page(page)) != _reference_page(page):
            bad.append((n, "page"))
        index, title_pairs = wrappers._site_index(), wrappers._site_index_lookup()[1]
        for text in (page, inner.raw["embodied_text"], inner.raw["instruction"]):
            words = re.findall(r"\w+", text.lower())
            whole = (" ".join(words), tuple(w for w in dict.fromkeys(words) if w in index),
                     frozenset(p for p in zip(words, words[1:], strict=False) if p in title_pairs))
            plain = wrappers._plain_words(text)
            if (*plain[:2], frozenset(plain[2])) != whole or len(set(plain[2])) != len(plain[2]):
                bad.append((n, "plain_words"))
        memory = discrete._memory
        if memory.directions_to() != wrappers._unique(memory.instruction_names + memory.places):
            bad.append((n, "directions_to"))
        lines = wrappers._page_lines(page)
        boxes = tuple(bid for bid, role, _name in lines if role in ("searchbox", "textbox"))
        spins = tuple(bid for bid, role, _name in lines if role == "spinbutton")
        signs = tuple(dict.fromkeys(m.strip() for m in wrappers._QUOTED.findall(inner.raw["embodied_text"])))
        known = memory.type_words + [w for w in memory.seen_words if w not in set(memory.type_words)]
        words = known + [w for w in signs if w and w not in set(known)]
        typed = [f"type [{b}] [{w}]{end}" for b in boxes for end in (" [1]", "") for w in words]
        typed += [f"type [{b}] [{w}]" for b in spins for w in words if w.isdigit()]
        if memory.typed(boxes, spins, signs) != typed:
            bad.append((n, "typed"))
        best = heapq.nlargest(3, memory.sentences, key=memory.sentences.__getitem__)
        answers = wrappers._unique([a for s in best for a in wrappers.answer_spans(s)] + list(memory.latest_names))
        if memory.answers() != answers or memory.stops() != [f"stop [{a}]" for a in answers]:
            bad.append((n, "answers"))
        said = list(dict.fromkeys([*answers, *reversed(memory.page_names), *reversed(memory.seen_names)]))
        if memory.dones() != ["done"] + [f"done [{a}]" for a in said[: wrappers.MAX_DONES]]:
            bad.append((n, "dones"))
        view = inner.raw["embodied_text"]
        if wrappers._view_reading(view) != _reference_view(view):
            bad.append((n, "view"))
        n += 1
        action = "noop" if n % (REFUSED_EVERY + 1) == 0 else agent.act(inner.raw, info)
        index = {canonical_action(c, drop_note=True): i for i, c in reversed(list(enumerate(discrete.candidates())))}
        # the oracle's action by its index; "noop" by a masked index (sent as "noop")
        obs, _, term, trunc, info = tok.step(index.get(canonical_action(action, drop_note=True),
                                                       discrete.max_actions - 1))
        done = term or trunc
    tok.close()
    return bad, info


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("encoding", ["ids", "bow"])
def test_token_and_candidate_caches_give_the_uncached_outputs(env_id, encoding):
    bad, info = _token_and_candidate_mismatches(env_id, encoding)
    assert not bad, f"{env_id}: cached != uncached at {bad[:5]}"
    assert info["sparse_reward" if "sparse_reward" in info else "metrics"]  # the episode ran to its end


def test_a_full_field_cache_still_gives_the_uncached_outputs(monkeypatch):
    """Past :data:`wrappers.FIELD_CACHE` padded fields the cache starts again: with room for 2, the outputs are
    still the reference's at every step, and the cache never holds more."""
    monkeypatch.setattr(wrappers, "FIELD_CACHE", 2)
    held = []
    real = TokenObservations._field

    def field(self, key, text):
        out = real(self, key, text)
        held.append(len(self._fields))
        return out

    monkeypatch.setattr(TokenObservations, "_field", field)
    bad, _ = _token_and_candidate_mismatches("EWA-Cooking-v0", "ids")
    assert not bad and held and max(held) <= 2


def _token_memo_never_invalidated(monkeypatch):
    """Break: TokenObservations takes every field's text for the one it encoded last."""
    monkeypatch.setattr(TokenObservations, "_unchanged", staticmethod(lambda old, new: True))


def _directions_never_recomputed(monkeypatch):
    """Break: DiscreteActions keeps the first places it asked directions to."""
    real = wrappers._Memory.directions_to

    def stale(self):
        if self._directions_to[0] < 0:
            return real(self)
        return self._directions_to[1]

    monkeypatch.setattr(wrappers._Memory, "directions_to", stale)


def _view_read_one_place_a_line(monkeypatch):
    """Break: a street view's line gives its first place only (a search, not every match)."""
    def first(line):
        m = wrappers._SEEN_PLACE.search(line)
        return (m.group(1),) if m else ()
    monkeypatch.setattr(wrappers, "_view_places", first)
    monkeypatch.setattr(wrappers, "_view_reading", wrappers._view_reading.__wrapped__)


def _dones_from_the_first_names(monkeypatch):
    """Break: ``done`` candidates name only the last five page names read (not up to MAX_DONES)."""
    real = wrappers._Memory.dones

    def short(self):
        names = self.page_names
        self.page_names = wrappers._RecentNames(list(names)[-5:])
        try:
            return real(self)
        finally:
            self.page_names = names
    monkeypatch.setattr(wrappers._Memory, "dones", short)


def _answers_never_recomputed(monkeypatch):
    """Break: DiscreteActions keeps the first answers it made (a page's better sentence left out)."""
    real = wrappers._Memory.answers

    def stale(self, limit=3):
        return self._answers if self._answers is not None else real(self, limit)

    monkeypatch.setattr(wrappers._Memory, "answers", stale)


def _typed_follows_the_search_words() -> bool:
    """A page's type candidates before and after a page names a thing to search for (the search words grow)
    and a sign comes into sight, against their uncached reference."""
    memory = wrappers._Memory("Buy apples for the Corner Shop, 2 of them.")

    def reference(boxes, spins, signs):
        known = memory.type_words + [w for w in memory.seen_words if w not in set(memory.type_words)]
        words = known + [w for w in signs if w and w not in set(known)]
        return ([f"type [{b}] [{w}]{end}" for b in boxes for end in (" [1]", "") for w in words]
                + [f"type [{b}] [{w}]" for b in spins for w in words if w.isdigit()])

    ok = True
    for signs in ((), ("Casa Blanca",)):
        for page in ("", "[1] main ''\n\t[2] listitem '1 tomato'"):
            memory.read_page(page)
            ok &= memory.typed(("12",), ("14",), signs) == reference(("12",), ("14",), signs)
    return ok and "tomato" in memory.seen_words and memory.typed(("12",), ("14",), ()).count("type [14] [2]") == 1


def test_type_candidates_follow_the_search_words(monkeypatch):
    assert _typed_follows_the_search_words()
    _typed_never_recomputed(monkeypatch)  # and the check catches candidates kept past a change
    assert not _typed_follows_the_search_words()


def _typed_never_recomputed(monkeypatch):
    """Break: DiscreteActions keeps a page's type candidates when the search words grow."""
    real = wrappers._Memory.typed

    def stale(self, boxes, spins, signs):
        key = ("first", boxes, spins, signs)
        if key not in self._typed:
            self._typed[key] = real(self, boxes, spins, signs)
        return self._typed[key]

    monkeypatch.setattr(wrappers._Memory, "typed", stale)


@pytest.mark.parametrize(("breakage", "env_id"), [(_token_memo_never_invalidated, "EWA-Navigation-v0"),
                                                  (_directions_never_recomputed, "EWA-Shopping-v0"),
                                                  (_answers_never_recomputed, "EWA-Traveling-v0"),
                                                  (_view_read_one_place_a_line, "EWA-Navigation-v0"),
                                                  (_dones_from_the_first_names, "EWA-Assistant-v0")])
def test_the_token_and_candidate_comparison_catches_a_broken_cache(breakage, env_id, monkeypatch):
    breakage(monkeypatch)
    assert _token_and_candidate_mismatches(env_id, "ids")[0]


def _reference_view(text: str) -> tuple:
    """What :func:`wrappers._view_reading` gives, read from the whole text by its two patterns (as it was before
    the places were read line by line)."""
    return (tuple(wrappers._unique([m.group(1) for m in wrappers._SEEN_PLACE.finditer(text)])),
            tuple(wrappers._unique([t.lower() for t in wrappers._SEEN_TYPE.findall(text)])))


ODD_VIEWS = [
    "You are at n1: A St.\n- north: street A St; places: Joe's Pizza (12 m walk), Bryant Park (Midtown) (40 m walk)\n"
    "- east: buildings",
    "- x: places: Café (3 m walk)\nKitchen.\n- Tomato|-1.03|+0.99|+2.11 (Tomato), 0.0 m\n"
    "- Bowl|+0.1|+0.2|+0.3 (Bowl), 1 m; in/on CounterTop|+0.00|+0.90|+2.20 (CounterTop)\n- tomato|1|2 (Tomato)",
    "places: No Match (12 m walk)\n, Line Start (5 m walk)\n: Other (7 m walk)",
    "",
]


def test_a_views_reading_equals_the_whole_texts():
    """``_view_reading`` reads a view's places line by line and its kinds in one scan; on odd views and every
    view of random episodes of every env it equals the two patterns run over the whole text."""
    views = list(dict.fromkeys(list(ODD_VIEWS) + random_play_texts("embodied_text", 150, seed=2)))
    assert sum(bool(wrappers._view_reading(v)[0]) for v in views) >= 10  # views with places in sight
    assert sum(bool(wrappers._view_reading(v)[1]) for v in views) > 20  # kitchen views
    for view in views:
        assert wrappers._view_reading(view) == _reference_view(view), view[:200]
    assert wrappers._view_reading(ODD_VIEWS[0])[0] == ("Joe's Pizza", "Bryant Park (Midtown)")
    assert wrappers._view_reading(ODD_VIEWS[1]) == (("Café",), ("tomato", "bowl", "countertop"))
    assert wrappers._view_reading(ODD_VIEWS[2])[0] == ("No Match", "Line Start", "Other")


def test_dones_are_the_first_of_the_answers_names_and_places_joined():
    """``done`` candidates are the first MAX_DONES of the answers, the page names (newest first) and the places
    seen (newest first) joined without repeats, however the three overlap and however long they grow; ``stop``
    candidates are the answers'."""
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(400)]
    for _ in range(200):
        memory = wrappers._Memory("What is it?")
        answers = list(dict.fromkeys(rng.choice(words, int(rng.integers(0, 200)))))
        memory._answers = answers
        memory.answers = lambda limit=3, a=answers: a  # the answers as drawn
        memory.page_names = wrappers._RecentNames(list(rng.choice(words, int(rng.integers(0, 300)))))
        memory.seen_names = wrappers._UniqueList(list(rng.choice(words, int(rng.integers(0, 300)))))
        said = list(dict.fromkeys([*answers, *reversed(memory.page_names), *reversed(memory.seen_names)]))
        assert memory.dones() == ["done"] + [f"done [{a}]" for a in said[: wrappers.MAX_DONES]]
        assert memory.stops() == [f"stop [{a}]" for a in answers]  # the texts looked up by name are these


def _comparable(page: tuple) -> tuple:
    """A page's reading with its sentences' words and its title pairs as sets (their order is no output)."""
    *head, sentences, boxes, spins, options, (joined, firsts, pairs) = page
    return (*head, tuple((sent, frozenset(words)) for sent, words in sentences), boxes, spins, options,
            (joined, firsts, frozenset(pairs)))


def _reference_page(page: str) -> tuple:
    """What :func:`wrappers._page` gives (:func:`_comparable`), read from the whole text without a cache (as it
    was before the readings were per line)."""
    lines = [(m.group(1), m.group(2), m.group(3).replace("\\'", "'").replace("\\\\", "\\"))
             for m in wrappers._LINE.finditer(page)]
    titles = [t.replace("\\'", "'").replace("\\\\", "\\") for t in wrappers._TITLE.findall(page)]
    places, page_names, counted, latest, sentences = titles, [], [], [], []
    for _bid, role, name in lines:
        if role in ("heading", "cell") and 0 < len(name) <= 80:
            page_names += [name, *wrappers._YEAR.findall(name)]
        if role == "listitem" and (m := wrappers._COUNTED.fullmatch(name)):
            counted.append(m.group(1))
        if role == "option" and not name.lower().startswith("choose"):
            places.append(name)
        elif role in ("paragraph", "StaticText", "listitem", "cell") and len(name) < 400:
            latest += wrappers.names_in(name)
            sentences += [(sent, frozenset(wrappers._words(sent))) for sent in wrappers._SENTENCE.split(name)]
    options, select = [], None
    for bid, role, name in lines:
        if role == "combobox":
            select = bid
        elif role == "option" and select is not None:
            low = re.sub(r"\s*\(.*?\)", "", name).strip().lower()
            options += [f"type [{select}] [{low}]", f"type [{select}] [{low.replace(' ', '-')}]"]
    words = re.findall(r"\w+", page.lower())
    index, title_pairs = wrappers._site_index(), wrappers._site_index_lookup()[1]
    plain = (" ".join(words), tuple(w for w in dict.fromkeys(words) if w in index),
             frozenset(p for p in zip(words, words[1:], strict=False) if p in title_pairs))
    unique = wrappers._unique
    return (tuple(unique(places)), tuple(unique(page_names)), tuple(unique(counted)),
            tuple(unique(latest)[: wrappers.LATEST_NAMES]), tuple(sentences),
            tuple(bid for bid, role, _name in lines if role in ("searchbox", "textbox")),
            tuple(bid for bid, role, _name in lines if role == "spinbutton"), tuple(options), plain)


#: pages the scripted episodes may not show: a name over two lines (the page is read whole), an escaped
#: quote and a long heading, level-1 headings that are not titles, options before and under drop-downs, and
#: the same elements under other ids
ODD_PAGES = [
    "[1] heading 'Café d\\'Orsay' level=1\n[2] paragraph 'Opened in 1986. It shows \"Olympia\" to Paris.'",
    "[1] heading 'A name\nover two lines' level=1\n[2] heading 'Paris' level=1\n[3] listitem '2 apples'",
    "[1] heading '" + "x" * 81 + "' level=1\n[2] heading 'Paris' level=12\n[3] heading 'Rome' level=1 x",
    "[1] option 'Small (2 oz)'\n[2] combobox 'Size'\n\t[3] option 'Choose one'\n\t[4] option 'Extra Large (+$2)'"
    "\n[5] combobox 'Color'\n\t[6] option 'Navy Blue'\n[7] spinbutton 'Qty'\n[8] searchbox 'Search'",
    "[11] heading 'Café d\\'Orsay' level=1\n[12] paragraph 'Opened in 1986. It shows \"Olympia\" to Paris.'"
    "\n[13] cell '1889'\n[14] textbox 'To' value='x'\n[15] listitem '1 tomato'\n[16] cell ''",
    # cut to the observation's size in its last element's name, after a whole one and after a name over lines
    "[1] heading 'Paris' level=1\n[2] paragraph 'Opened in 1986 by Anna Ruiz.'\n\t\t[3] link 'Transport in Arm"
    "enia… (20,329 characters in all)",
    "[1] cell 'Paris'\n[2] paragraph 'Designed by Carl Berg in 1901… (9,000 characters in all)",
    "[1] heading 'A name\nover two lines' level=1\n[2] cell 'Rome'\n[3] link 'Cut… (9,000 characters in all)",
    "[1] link 'Cut at once… (9,000 characters in all)",
]


def random_play_texts(field: str, steps: int, seed: int) -> list[str]:
    """The observation ``field`` at each of ``steps`` random admissible steps (never ``stop``) of every env."""
    texts = []
    for env_id in IDS:
        env = gym.make(env_id)
        rng = np.random.default_rng(seed)
        obs, info = env.reset(seed=seed)
        for _ in range(steps):
            texts.append(str(obs.get(field, "")))
            adm = [a for a in info["admissible_actions"] if not a.startswith("stop")]
            obs, _, term, trunc, info = env.step(adm[int(rng.integers(len(adm)))] if adm else "noop")
            if term or trunc:
                obs, info = env.reset()
        env.close()
    return texts


def test_a_pages_reading_line_by_line_equals_the_whole_texts():
    """``_page`` reads a page line by line through caches of lines without their ids; on odd pages, and on
    every page of random episodes of every env, it equals reading the whole text afresh."""
    pages = list(dict.fromkeys(list(ODD_PAGES) + random_play_texts("web_text", 200, seed=1)))
    assert len(pages) > 150
    for page in pages:
        got = wrappers._page(page)
        assert _comparable(got) == _reference_page(page), page[:200]
        assert all(len(set(words)) == len(words) for _sent, words in got[4]), page[:200]  # each word once
        assert len(set(got[8][2])) == len(got[8][2]), page[:200]  # each pair once
    places, names, counted, _latest, _sentences, boxes, _spins, options, _plain = zip(
        *[wrappers._page(page) for page in ODD_PAGES], strict=True)
    assert places[0] == ("Café d'Orsay",) and places[1] == ("A name over two lines", "Paris")
    assert places[2] == () and options[3][2:4] == ("type [2] [extra large]", "type [2] [extra-large]")
    assert boxes[4] == ("14",) and counted[4] == ("tomato",) and "1889" in names[4]
    # what the page and line caches keep is tuples of strings: once met, the garbage collector stops tracking
    # it (thousands of pages and tens of thousands of lines stay cached in a long run)
    for _ in range(3):
        gc.collect()
    kept = [wrappers._page(page) for page in pages]
    kept += [wrappers._line_reading(line) for page in pages for line in page.split("\n")]
    assert not [value for value in kept if gc.is_tracked(value)][:3]


def _reference_line_words(line: str):
    """What :func:`wrappers._line_plain_words` gives, computed on the whole line (no id split)."""
    words = re.findall(r"\w+", line.lower())
    if not words:
        return None
    index, title_pairs = wrappers._site_index(), wrappers._site_index_lookup()[1]
    return (" ".join(words), words[0], words[-1], tuple(w for w in dict.fromkeys(words) if w in index),
            frozenset(p for p in zip(words, words[1:], strict=False) if p in title_pairs))


@pytest.mark.parametrize("env_id", registered_ids())
def test_a_lines_words_read_as_id_and_rest_equal_the_whole_lines(env_id):
    """``_line_plain_words`` caches an element line's words without its id (ids are numbered per page); the
    result equals reading the whole line, on every line of the pages of random episodes and on lines whose
    id is itself a title's first word."""
    env = gym.make(env_id)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    lines: set[str] = set()
    for _ in range(150):
        lines.update(str(obs.get("web_text", "")).split("\n"))
        lines.update(str(obs.get("embodied_text", "")).split("\n"))
        adm = [a for a in info["admissible_actions"] if not a.startswith("stop")]
        obs, _, term, trunc, info = env.step(adm[int(rng.integers(len(adm)))] if adm else "noop")
        if term or trunc:
            obs, info = env.reset()
    env.close()
    first = next(iter(wrappers._site_index()))  # a word that starts a title
    pair = next(iter(wrappers._site_index_lookup()[1]))  # the first two words of a title
    lines |= {f"\t[{first}] link 'A {first} B'", f"[{first}] link ''", f"[{first}] link '{first} {first}'",
              f"[{pair[0]}] {pair[1]} x", f"[{pair[0]}] {pair[0]} {pair[1]}",
              "[7] link ''", "[7] ", "  [x9] text '7 7'", "[1]link 'no space'", "plain words only", ""}
    assert len(lines) > 50
    for line in lines:
        got = wrappers._line_plain_words(line)
        if got is not None:
            assert len(set(got[4])) == len(got[4]), line  # each pair once
            got = (*got[:4], frozenset(got[4]))
        assert got == _reference_line_words(line), line
    # a reading holds only strings and tuples: once met, the garbage collector stops tracking it (tens of
    # thousands stay cached in a long run)
    for _ in range(3):
        gc.collect()
    assert not any(gc.is_tracked(wrappers._line_plain_words(line)) for line in lines)


def _reference_title_gotos(page: str, instruction: str, view: str) -> list[str]:
    """The ``goto`` of every title of the site index that is whole in the three texts' plain words joined, in
    the order of their first words there, then of the index: searched for title by title."""
    texts = [" ".join(re.findall(r"\w+", t.lower())) for t in (page, instruction, view)]
    seen = " " + " ".join(t for t in texts if t) + " "
    index = wrappers._site_index()
    out = []
    for word in dict.fromkeys(seen.split()):
        out += [f"goto [{url}]" for title, url in index.get(word, ()) if title in seen]
    return list(dict.fromkeys(out))


def test_title_gotos_are_the_titles_in_the_joined_text():
    """``_title_gotos`` looks titles up per part (kept by the part's text) and searches only around the joins
    for those cut by one; it equals searching the whole joined text for every title, on the pages, instructions
    and views of random episodes of every env and on titles cut by a join, after a short middle part too."""
    cases: set[tuple[str, str, str]] = set()
    for env_id in registered_ids():
        env = gym.make(env_id)
        rng = np.random.default_rng(1)
        obs, info = env.reset(seed=1)
        for _ in range(60):
            cases.add((str(obs["web_text"]), str(obs["instruction"]), str(obs["embodied_text"])))
            adm = [a for a in info["admissible_actions"] if not a.startswith("stop")]
            obs, _, term, trunc, info = env.step(adm[int(rng.integers(len(adm)))] if adm else "noop")
            if term or trunc:
                obs, info = env.reset()
        env.close()
    longest = max((t for entries in wrappers._site_index().values() for t, _url in entries), key=len).split()
    three = next(t for entries in wrappers._site_index().values() for t, _url in entries if len(t.split()) == 3)
    a, b, c = three.split()
    cases |= {
        (f"x {a}", f"{b} {c} y", "z"),  # cut after its first word
        (f"x {a} {b}", f"{c}", "z"),  # cut after its second; the middle part shorter than the title
        ("x", f"{a}", f"{b} {c}"),  # from the instruction into the view
        (f"{a}", f"{b}", f"{c}"),  # across both joins
        (" ".join(longest[:-1]), longest[-1], ""),  # the longest title, cut before its last word; no view
        ("", f"w {a} {b} {c}", ""),  # whole in one part, the others empty
        (f"{a} {b} x", f"{a} {b} {c}", f"{a}"),  # its first words in every part, whole in one
        ("", "", ""),
    }
    assert len(cases) > 200
    for page, instruction, view in cases:
        parts = (wrappers._plain_words(page), wrappers._plain_words(instruction), wrappers._plain_words(view))
        got = list(dict.fromkeys(wrappers._title_gotos(parts)))
        assert got == _reference_title_gotos(page, instruction, view), (page[:80], instruction[:80], view[:80])
        assert got == list(dict.fromkeys(wrappers._title_gotos(parts)))  # the same from the kept parts


def _reference_run_on(joined: str, title: str) -> bool:
    """Whether the title (``" w1 w2 ... wk "``) starts with the last ``j`` words of ``joined`` for some ``2 <= j < k``:
    begun in that text and running on past its end, told word by word."""
    words, title_words = joined.split(), title.split()
    return any(words[-j:] == title_words[:j] for j in range(2, min(len(title_words), len(words) + 1)))


def test_a_parts_titles_that_run_on_are_those_its_last_words_begin():
    """``_part_titles`` keeps, of the titles of more than two words whose first two words are a pair of the part
    but that are not whole in it, exactly those its last words begin (only such a title can cross the join after
    it: any other is whole in one part, or not in the joined text); and its page ranking is its found titles by
    (first place, position). Over the pages, instructions and views of random episodes of Assistant and
    Geolocation and texts made to end inside titles."""
    texts: set[str] = set()
    for env_id in ("EWA-Assistant-v0", "EWA-Geolocation-v0"):
        env = gym.make(env_id)
        rng = np.random.default_rng(3)
        obs, info = env.reset(seed=3)
        for _ in range(40):
            texts |= {str(obs["web_text"]), str(obs["instruction"]), str(obs["embodied_text"])}
            adm = [a for a in info["admissible_actions"] if not a.startswith("stop")]
            obs, _, term, trunc, info = env.step(adm[int(rng.integers(len(adm)))] if adm else "noop")
            if term or trunc:
                obs, info = env.reset()
        env.close()
    long_titles = [t for entries in wrappers._site_index().values() for t, _url in entries if len(t.split()) >= 4][:40]
    for title in long_titles:
        w = title.split()
        texts |= {f"x {w[0]} {w[1]}", f"{w[0]} {w[1]} {w[2]}", f"{w[0]} {w[1]} y", f"{w[0]} {w[1]} {w[0]} {w[1]}",
                  " ".join(w[:-1]) + " z", f"{w[0]} {w[1]} {w[2]} {w[0]} {w[1]}"}
    by_pair = wrappers._site_index_lookup()[1]
    kept = 0
    for text in texts:
        part = wrappers._plain_words(text)
        if not part[0]:
            continue
        found, cut, gotos, first, last, ranked = wrappers._part_titles(part)
        padded = f" {part[0]} "
        expected = [(f, pos, title, goto) for pair in part[2] for f, pos, title, goto in by_pair.get(pair, ())
                    if title is not None and title not in padded and _reference_run_on(part[0], title)]
        assert list(cut) == expected, text[:80]
        kept += len(cut)
        rank = {w: i for i, w in enumerate(part[1])}
        assert list(ranked) == sorted((rank[w], pos, goto) for w, pos, goto in found)
        assert list(gotos) == [goto for _r, _p, goto in ranked]
        assert (first, last) == (part[0].split()[0], part[0].split()[-1])
    assert kept >= 40  # the made texts end inside titles


def test_candidate_list_digests_are_reproducible(capsys):
    """``python -m embodiedweb.benches.candidate_lists`` (the check that a speed-up keeps the lists) gives the same
    digests twice, a digest per env and level, and refuses a step count below 1."""
    from embodiedweb.benches import candidate_lists

    first = candidate_lists.candidate_digests(steps=3, long_steps=2)
    assert first == candidate_lists.candidate_digests(steps=3, long_steps=2)
    rows, _total, count = first
    assert count == 3 * (len(rows) - 2) + 2 * 2 and {(r[0], r[1]) for r in rows} >= {("EWA-Cooking-v0", "hard")}
    with pytest.raises(SystemExit):
        candidate_lists.main(["--steps", "0"])
    assert "must be positive" in capsys.readouterr().err
