"""EWA-Traveling-v0: walk to a landmark and answer a question whose answer is written in its wiki article.

The questions ask about details of this project's world that the wiki generator writes into each place
article (``world_facts``: a plaque's honoree, the leads of the last restoration, the time of a weekly
walk, a mosaic's length, a time capsule's year, an exhibition's floor, a sculpture's animal; see
:mod:`embodiedweb.data_gen.wiki`). They are drawn at random per place, so knowing the real building does
not help: the answer has to be read. One truth: the checker judges the answer against the article's
fact record (the task's ``goal.answer`` must agree with it, else the task is refused).

Metrics:

- ``web``: the landmark's article was viewed in this episode (the wiki's per-session view log) **and**
  the answer is right;
- ``embodied``: the agent stopped at the landmark (:meth:`StreetDomain.stopped_at`);
- ``overall`` = web and embodied; ``completion`` = fraction of (article viewed, landmark reached,
  answer right). Extras: ``article_viewed``, ``answer_right`` and, when the answer is wrong,
  ``answer_error`` (why, e.g. "names 3 options (owl, fox, heron); give one").

Answers are judged by the fact's type (numbers with units and tolerance, clock times, names with
initials, one-of choices): see :mod:`embodiedweb.domains.outdoor.answers`. The landmark's own name is
removed from the answer first.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from embodiedweb.domains.base import Episode
from embodiedweb.domains.outdoor.answers import Verdict, judge, numbers_in, parse_time
from embodiedweb.domains.outdoor.common import StreetDomain, StreetOracle, city
from embodiedweb.tasks import Task, TaskError

#: the perturbed oracle's "stop short" stops at least this far (straight line) from the landmark
SHORT_OF_M = 60.0


def article(slug: str) -> dict[str, Any] | None:
    from web_sites.wiki import catalog

    return catalog.get(slug)


def fact_of(goal: dict[str, Any]) -> dict[str, Any] | None:
    """The fact record a task asks about: ``world_facts[goal.fact]`` of the article ``goal.slug``."""
    a = article(str(goal.get("slug")))
    return (a or {}).get("world_facts", {}).get(str(goal.get("fact")))


@lru_cache(maxsize=1)
def known_people() -> tuple[str, ...]:
    """Every name the wiki's world facts give (an answer naming one who is not the answer is wrong)."""
    from web_sites.wiki import catalog

    return tuple(f["value"] for a in catalog.articles() for f in (a.get("world_facts") or {}).values()
                 if f.get("kind") == "name")


def landmark_names(goal: dict[str, Any]) -> list[str]:
    a = article(str(goal.get("slug"))) or {}
    return [n for n in {a.get("title"), (a.get("facts") or {}).get("name")} if n]


def judge_answer(answer: str | None, goal: dict[str, Any]) -> Verdict:
    """The answer judged against the fact, with the landmark's names and, in the hard tier, its description
    ("the skyscraper completed in the 1980s with the most floors") left out: an answer that restates what the
    instruction calls the place, whole or in part ("completed in the 1980s"), does not state the description's
    numbers as the answer; nor is a true fact of the article's infobox stated as such ("It was completed in
    1963.", "it has 77 floors") judged as the answer (``known``: :data:`~embodiedweb.domains.outdoor.answers.OTHER_FACTS`)."""
    fact = fact_of(goal)
    if fact is None:
        return Verdict(False, f"the wiki has no fact {goal.get('fact')!r} for {goal.get('slug')!r}")
    ignore = [*landmark_names(goal), *([goal["description"]] if goal.get("description") else [])]
    return judge(answer, fact, ignore=ignore, others=known_people(),
                 ignore_numbers=numbers_in(goal["description"]) if goal.get("description") else (),
                 known=(article(str(goal.get("slug"))) or {}).get("facts"))


def fact_read(web_state: dict[str, Any], goal: dict[str, Any]) -> bool:
    """The fact was read on the wiki: its article (``goal.slug``) opened, or a search page listed the article
    with a snippet that states it (the answer quoted as the article writes it, or the snippet itself judged
    a right answer: "... is on the 15th floor ..." for 15). A snippet is what a search engine shows to be read."""
    from embodiedweb.text import fold

    wiki = web_state.get("wiki", {})
    if goal.get("slug") in wiki.get("views", []):
        return True
    said = f" {fold(str(goal.get('answer', ''))).strip()} "  # whole words: "38 0 m" is not in "138 0 m"
    for shown in wiki.get("shown", []):
        if shown.get("slug") == goal.get("slug"):
            snippet = str(shown.get("snippet", ""))
            if said.strip() and said in f" {fold(snippet).strip()} " or judge_answer(snippet, goal).ok:
                return True
    return False


class TravelingDomain(StreetDomain):
    """Walk to a landmark and answer a question only its wiki article answers (``stop [answer]``).

    Env id ``EWA-Traveling-v0`` (``envs/traveling.toml``: tasks ``data/traveling/tasks.jsonl``, 400
    steps); the Manhattan street world; episodes start in the world.

    Checker (:meth:`check`): ``web`` = the landmark's article viewed this episode (or a search result of it
    whose snippet states the fact: :func:`fact_read`) and the answer right
    (judged by the fact's type, :mod:`embodiedweb.domains.outdoor.answers`); ``embodied`` = ``stop`` at
    the landmark (:meth:`stopped_at`); ``overall`` = both; ``completion`` = the fraction of (article
    viewed, landmark reached, answer right).
    """

    name = "traveling"
    #: 2: a name in the possessive names the person; the hard tier's description restated in an answer is not judged;
    #: 3: a decimal comma ("14,6 m") and compound lengths ("14 m 60 cm", "47 ft 11 in") are read as one number;
    #: 4: numbers in words are read ("forty-one metres", "the fifteenth floor"); the fact read in a search result's
    #: snippet counts as read on the wiki; 5: clock times said in words ("quarter past five") are read;
    #: 6: a second value offered in words, as a bare hour or as a margin ("maybe thirty-nine or 38", "5:50 pm, or
    #: 6", "give or take 20 minutes"), or another person named by surname alone, is a hedge; "ten to six", "five-fifty
    #: p.m.", "a 125-foot-long", "the fifteenth-floor" and millimetres are read; 7: a bare hour standing free beside
    #: the time is a second time whatever word offers it ("if not 6", "vs 6", "6 at the latest", "6-ish"); 8 (stop 33): a
    #: number firmly denied is no value offered ("not 43 m but 38 m" passes, "not 38 m" fails), a true number of the
    #: article's infobox stated as such is not judged ("2nd floor. It was completed in 1963."), Roman years are read;
    #: 9 (stop 34): a name's words stay within one list item ("Tariq Szabó & Yusuf F. Boateng" names no Yusuf Szabó;
    #: "Szabó, Tariq" still names Tariq Szabó), a hyphenated surname may be written with a space or an en dash, a
    #: choice's option firmly denied is no option named ("a beaver, not an otter" passes, "not a beaver" fails);
    #: 10 (stop 35): a name written with a word of another person's name names neither ("Omar Reid Tanaka", "Yusuf
    #: Tariq Szabó"), a person firmly denied is no person named ("Omar Reid (not Tariq Szabó)" passes, "not Omar Reid"
    #: fails); 11 (stop 36): a word that is never a given name ("but", "maybe", "definitely", :data:`NOT_NAMES`) is
    #: no initial ("not Ruth Bhatt, but Thorne" named Søren B. Thorne by the surname alone), and a number with a
    #: duration word is a duration, not the fact's unit ("38 hours" passed for 38 m); a denial followed by its
    #: reversal ("Omar Reid, not Tariq Szabó, or vice versa") denies no one; 12 (stop 38): so does a reversal in other
    #: words ("or vice-versa", "or the other way", "or the converse", "or swapped", "either way"), while "not vice
    #: versa" is no reversal; a denial reaches the people joined to it by "and" or "&" with no comma (a denied team:
    #: "A and B, not C and D" names A and B); 13 (stop 39): an item of a list the judge cannot read is another value
    #: ("Astrid V. Halvorsen, Tomas leRoux", "15th floor, top floor", "a beaver, an otterr"), and a time answer's
    #: alternatives and items are judged too ("2:15 pm or later")
    checker_version = 13
    heuristic = "baselines.street_heuristic:TravelingHeuristic"
    prompt_guidance = ("You stand on a street in Manhattan and can use a web browser. Walk to the landmark, then "
                       "answer the question using the wiki; answer with stop [your answer].")
    node_fields = ("place_node",)

    def validate_task(self, task: Task) -> None:
        """Also raise ``TaskError`` when the wiki article, its fact, or the recorded answer does not match."""
        super().validate_task(task)
        g, tid = task.goal, task.task_id
        if article(str(g.get("slug"))) is None:
            raise TaskError(f"task {tid!r}: field 'goal.slug': no wiki article {g.get('slug')!r}")
        fact = fact_of(g)
        if fact is None:
            raise TaskError(f"task {tid!r}: field 'goal.fact': article {g['slug']!r} records no fact "
                            f"{g.get('fact')!r}")
        if str(g.get("answer")) != str(fact["value"]) or g.get("kind") != fact["kind"]:
            raise TaskError(f"task {tid!r}: field 'goal.answer': {g.get('answer')!r} ({g.get('kind')}) is not the "
                            f"article's {fact['value']!r} ({fact['kind']}); regenerate the suite")

    difficulty_measures = ("route_m", "oracle_switches", "oracle_steps")

    def task_measures(self, task: Task) -> dict[str, Any]:
        """The walk from the start to the landmark."""
        return {"route_m": round(float(city().shortest_length(task.embodied["start"], task.goal["place_node"])), 1)}

    def stratum(self, task: Task) -> tuple[Any, ...]:
        """The kind of answer asked (a name, a number, a time, a choice)."""
        return (str(task.goal.get("kind", "")),)

    def variety(self, task: Task) -> tuple[str, ...]:
        """Traveling variety: the goal place."""
        return (str(task.goal.get("place_id", "")),)

    def check(self, episode: Episode) -> dict[str, Any]:
        """Passes when the article was viewed, the answer is right, and the walk stopped at the place."""
        g = episode.task.goal
        viewed = fact_read(episode.web_state, g)
        at = self.stopped_at(episode, g["place_node"])
        verdict = judge_answer(episode.answer, g)
        out: dict[str, Any] = {"overall": viewed and verdict.ok and at, "web": viewed and verdict.ok,
                               "embodied": at, "completion": (viewed + at + verdict.ok) / 3,
                               "article_viewed": viewed, "answer_right": verdict.ok}
        if not verdict.ok:
            out["answer_error"] = verdict.reason
        return out

    def oracle(self, task: Task, perturb: random.Random | None = None) -> Any:
        """A scripted :class:`TravelingOracle` for the task."""
        return TravelingOracle(task, perturb)


def wrong_answer(fact: dict[str, Any]) -> str:
    """A plausible answer of the right type that the judge rejects (the perturbed oracle's)."""
    kind, value = fact["kind"], str(fact["value"])
    if kind == "number":
        return f"{float(value) + max(1.0, 3 * float(fact.get('tol') or 0)):g}"
    if kind == "time":
        t = (parse_time(value) + 70) % (24 * 60)
        return f"{t // 60}:{t % 60:02d}"
    if kind == "choice":
        return next(c for c in fact["choices"] if c != value)
    return "I do not know"


class TravelingOracle(StreetOracle):
    """Reads the landmark's wiki article, walks there (shortest path) and answers with the article's fact.

    Perturbed (one necessary step removed or replaced): a wrong answer, stopping short (at least
    :data:`SHORT_OF_M` from the landmark), not walking, or not reading the article. The steps are
    methods (:meth:`read`, :meth:`walk`, :meth:`answer`) so that variants can replace one of them."""

    def fact(self) -> dict[str, Any]:
        """The goal's fact record from the article (or one built from the goal)."""
        g = self.task.goal
        return fact_of(g) or {"kind": g["kind"], "value": g["answer"]}

    def read(self) -> Any:
        """Switch to the web and open the goal's wiki article."""
        if self.task.goal.get("description"):  # the hard tier: the place is described, found by searching
            yield from self.find_article(self.task.goal["slug"], self.task.goal["description"])
            return
        if self.obs["active"] != "web":
            yield "switch_environment [look the landmark up on the wiki]"
        yield f"goto [/wiki/article/{quote(self.task.goal['slug'])}]"

    def walk(self) -> Any:
        """Walk to the goal place."""
        yield from self.walk_to(self.task.goal["place_node"])

    def walk_short(self, metres: float) -> Any:
        """Walk the route but stop at its last node at least ``metres`` (straight line) from the landmark."""
        goal = self.task.goal["place_node"]
        path = city().route(self.here(), goal)
        far = [n for n in path if city().distance_m(n, goal) >= metres]
        yield from self.walk_to(far[-1] if far else path[0])

    def answer(self) -> str:
        """The fact's value as the answer string."""
        return str(self.fact()["value"])

    def plan(self) -> Any:
        """Read the article, walk to the place and stop with the answer; a perturbation answers wrong, stops short, or skips a part."""
        mode = self.perturb.choice(["wrong_answer", "stop_short", "no_walk", "no_read"]) if self.perturb else None
        if mode != "no_read":
            yield from self.read()
        if mode == "stop_short":
            yield from self.walk_short(SHORT_OF_M)
        elif mode != "no_walk":
            yield from self.walk()
        yield f"stop [{wrong_answer(self.fact()) if mode == 'wrong_answer' else self.answer()}]"
