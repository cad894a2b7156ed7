"""The hard tier of EWA-Traveling-v0 (``level="hard"``, ``data/traveling/hard.jsonl``): a described landmark,
the walker's views, the plain map, and the standard checker.

The oracle solves every task through the public interface and is shown no leak on the way; agents that
answer from a look-alike's article (the nearest place fitting part of the description, the first of the
kind by name), or walk to the right place but read the wrong article, fail; an agent that finds the
landmark through the wiki's search, walks its own way and stops one node short passes.
"""

from __future__ import annotations

import json
import random
from typing import Any
from urllib.parse import quote, urlencode

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401  (registers the envs)
from embodiedweb.data_gen import described_places as dp
from embodiedweb.data_gen import hard_traveling as gen
from embodiedweb.domains.outdoor.common import city
from embodiedweb.domains.outdoor.traveling import TravelingDomain, TravelingOracle, article
from embodiedweb.registration import spec_for
from embodiedweb.tasks import Task, load_tasks
from tests.domains.outdoor import lazy_ranks
from tests.domains.outdoor.test_hard_navigation import (
    leaks_in,
    loose_parts,
    play,
    walkable_fitting,
    wrong_guesses,
)

TRAVEL = "EWA-Traveling-v0"


@pytest.fixture(scope="module")
def env():
    e = gym.make(TRAVEL, level="hard")
    yield e
    e.close()


@pytest.fixture(scope="module")
def hard_tasks() -> list[Task]:
    return load_tasks(spec_for(TRAVEL).level_tasks_path("hard"), TravelingDomain().validate_task)


def test_generator_reproduces_the_shipped_file():
    assert gen.render() == gen.hard_path().read_text(encoding="utf-8")


def test_landmarks_are_described_not_named(hard_tasks):
    assert len(hard_tasks) == 120 and sum(t.split == "test" for t in hard_tasks) == 60
    boxes = dp.infoboxes()
    for t in hard_tasks:
        g = t.goal
        place = city().places[g["place_id"]]
        text = t.instruction.lower()
        assert place.name.lower() not in text and place.address.split(",")[0].lower() not in text
        assert city().intersection_name(t.embodied["start"]).lower() not in text
        assert dp.fits(boxes, dp.goal_as_description(g)) == [g["place_id"]]
        assert all(walkable_fitting(boxes, g["facts"]["kind"], part) >= dp.MIN_WALKABLE for part in loose_parts(g)), t.task_id
        assert t.embodied["view"] == "walker" and t.web["sites"]["map"]["plain"] is True


def test_oracle_solves_every_hard_task_and_sees_no_leak(env, hard_tasks):
    failed, leaks = [], set()
    for t in hard_tasks:
        seen: list[tuple[str, str]] = []
        if not play(env, TravelingOracle(t), t.task_id, seen)["overall"]:
            failed.append(t.task_id)
        leaks |= {(t.task_id, what) for side, text in seen for what in leaks_in(side, text)}
    assert not failed and not leaks, (failed[:5], sorted(leaks)[:5])


class LookAlike(TravelingOracle):
    """Takes ``place_id`` for the landmark: reads its article, walks there and answers the question from it
    (its own fact of that kind, or the oracle's answer when it has none: the walk is then still wrong)."""

    def __init__(self, task: Task, place_id: str, walk_right: bool = False) -> None:
        super().__init__(task)
        self.other = place_id
        self.walk_right = walk_right

    def read(self) -> Any:
        if self.obs["active"] != "web":
            yield "switch_environment"
        yield f"goto [/wiki/article/{quote(self.other)}]"

    def walk(self) -> Any:
        yield from self.walk_to(self.task.goal["place_node"] if self.walk_right else city().places[self.other].node_id)

    def answer(self) -> str:
        fact = ((article(self.other) or {}).get("world_facts") or {}).get(self.task.goal["fact"])
        return str(fact["value"]) if fact else super().answer()


def test_red_team_look_alikes_fail(env, hard_tasks):
    """Each wrong guess (the nearest or first place fitting a looser part of the description, a hop's anchor,
    a rank's other end; the nearest may be the landmark itself, on at most a third of a kind's tasks), read,
    walked to and answered from: at most 2 % of the runs pass."""
    runs, passed = 0, 0
    for t in hard_tasks:
        for other in wrong_guesses(t):
            runs += 1
            passed += bool(play(env, LookAlike(t, other), t.task_id)["overall"])
    assert runs >= 240 and passed / runs <= 0.02, (passed, runs)


def test_red_team_right_walk_wrong_article_fails(env, hard_tasks):
    """Walking to the right landmark (say, found by its signs) but answering from a look-alike's article
    never passes."""
    results = []
    for t in random.Random(1).sample(hard_tasks, 30):
        other = wrong_guesses(t)[0]
        results.append(play(env, LookAlike(t, other, walk_right=True), t.task_id))
    assert not any(m["overall"] for m in results) and all(m["embodied"] for m in results)


def test_no_lazy_rank_reading_is_right_often():
    """As on the hard navigation tier: no nearest, 2nd, 3rd, 2nd farthest or farthest place fitting a looser reading of the
    description is the landmark of more than a third of a kind's tasks in a split (until stop 32 the 2nd
    nearest dropping the neighbourhood of two-fact tasks was right on 7 of 8 test tasks)."""
    tasks = [json.loads(line) for line in gen.hard_path().read_text(encoding="utf-8").splitlines()]
    assert lazy_ranks.over_cap(tasks) == [], lazy_ranks.report(tasks)


class Researcher(TravelingOracle):
    """A genuine solver: searches the wiki for the description's kind and facts, opens the landmark's article
    from the results, asks the plain map for directions from the corner read off its signs, walks a detour
    and stops one node short, and answers in a sentence."""

    def read(self) -> Any:
        g = self.task.goal
        if self.obs["active"] != "web":
            yield "switch_environment"
        words = " ".join(str(v) for k, v in sorted(g["facts"].items()) if k != "decade")
        yield "goto [/wiki/search?" + urlencode({"q": words}) + "]"
        yield f"goto [/wiki/article/{quote(g['slug'])}]"
        corner = city().intersection_name(self.here())
        yield "goto [/map/directions?" + urlencode({"from": corner, "to": article(g["slug"])["title"]}) + "]"

    def walk(self) -> Any:
        goal = self.task.goal["place_node"]
        yield "switch_environment"
        route = city().route(self.here(), goal)
        detour = next((nb for nb, *_ in city().neighbors(self.here()) if nb != route[1]), None)
        if detour is not None:
            yield f"move [{detour}]"
        for nxt in city().route(self.here(), goal)[1:-1]:
            yield f"move [{nxt}]"

    def answer(self) -> str:
        return f"It is {super().answer()}."


def test_genuine_researcher_passes(env, hard_tasks):
    failed = [t.task_id for t in hard_tasks if not play(env, Researcher(t), t.task_id)["overall"]]
    assert len(failed) / len(hard_tasks) <= 0.02, failed


def test_random_and_perturbed_fail(env, hard_tasks):
    rng = random.Random(0)
    perturbed = sum(bool(play(env, TravelingOracle(t, random.Random(i)), t.task_id)["overall"])
                    for i, t in enumerate(hard_tasks))
    wins = 0
    for t in hard_tasks[:20]:
        obs, info = env.reset(seed=0, options={"task_id": t.task_id})
        done = False
        while not done:
            obs, _, term, trunc, info = env.step(rng.choice(info.get("admissible_actions") or ["stop"]))
            done = term or trunc
        wins += bool(info["metrics"]["overall"])
    assert perturbed == 0 and wins == 0, (perturbed, wins)


def test_an_answer_that_restates_the_description_is_judged_on_its_answer(hard_tasks):
    """"The skyscraper completed in the 1980s with the most floors: the exhibition is on floor 48." answers 48:
    the description's own numbers (1980s) are not part of the answer (a red-team review found 15 of the 20 number
    tasks with a digit in their description rejected so). The same sentence with a wrong number still fails."""
    from embodiedweb.domains.outdoor.traveling import fact_of, judge_answer

    numbers = [t for t in hard_tasks if fact_of(t.goal)["kind"] == "number"]
    with_digit = [t for t in numbers if any(c.isdigit() for c in t.goal["description"])]
    assert len(with_digit) >= 10
    for t in numbers:
        f = fact_of(t.goal)
        said = f"{t.goal['description'][0].upper()}{t.goal['description'][1:]}: it is {f['value']} {f.get('unit') or ''}."
        assert judge_answer(said, t.goal).ok, (t.task_id, said, judge_answer(said, t.goal).reason)
        wrong = said.replace(f" {f['value']} ", f" {float(f['value']) * 3 + 7:g} ")
        assert not judge_answer(wrong, t.goal).ok, (t.task_id, wrong)
