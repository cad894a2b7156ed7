"""The hard tier of EWA-Navigation-v0 (``level="hard"``, ``data/navigation/hard.jsonl``).

The oracle solves every hard task through the public interface; the walker's views and the plain map
never show node ids, coordinates, a "here" list or distances to places; shortcut agents (the nearest place
that fits part of the description, the first place of the kind on the wiki, the standard tier's habits)
fail, and no lazy reading of the description by rank (the nearest, 2nd, 3rd, 2nd farthest or farthest fitting place) is
right on more than a third of a kind's tasks; agents that solve a task another legitimate way (the map's place pages and the address, the street
signs read in the other order, their own route, a stop one node short) pass.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from typing import Any
from urllib.parse import urlencode

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401  (registers the envs)
from embodiedweb.data_gen import described_places as dp
from embodiedweb.data_gen import hard_navigation as gen
from embodiedweb.domains.outdoor.common import GOAL_RADIUS_M, city
from embodiedweb.domains.outdoor.navigation import NavigationDomain, NavigationOracle
from embodiedweb.registration import spec_for
from embodiedweb.tasks import Task, TaskError, load_tasks
from tests.domains.outdoor import lazy_ranks

NAV = "EWA-Navigation-v0"
#: what the standard tier's views and map print and a walker's or a plain map's must not
LEAKS = {
    "node id": re.compile(r"\bn\d{2,}\b"),
    "coordinates": re.compile(r"\d{2}\.\d{4,}, -\d{2}\.\d{4,}"),
    "here list": re.compile(r"\bHere\b"),
    "distance to a place": re.compile(r"\d+ m walk"),
}


@pytest.fixture(scope="module")
def env():
    e = gym.make(NAV, level="hard")
    yield e
    e.close()


@pytest.fixture(scope="module")
def hard_tasks() -> list[Task]:
    """The single-destination tasks (the walking tours after them: ``test_hard_tours.py``)."""
    tasks = load_tasks(spec_for(NAV).level_tasks_path("hard"), NavigationDomain().validate_task)
    return [t for t in tasks if "tour" not in t.goal]


def play(env: Any, agent: Any, task_id: str, seen: list[tuple[str, str]] | None = None) -> dict[str, Any]:
    """One episode of a script agent; its final metrics. ``seen`` collects every street text and web page
    shown, as ``(side, text)``."""
    obs, info = env.reset(seed=0, options={"task_id": task_id})
    agent.reset(env, obs, info)
    done = False
    while not done:
        if seen is not None:
            seen += [("embodied", obs["embodied_text"]), ("web", obs["web_text"])]
        obs, _, term, trunc, info = env.step(agent.act(obs, info))
        done = term or trunc
    return info["metrics"]


def leaks_in(side: str, text: str) -> set[str]:
    """What of :data:`LEAKS` a text shows: node ids anywhere but the neighbour lines (the handles ``move``
    takes); the rest in the street view only (the wiki may give a place's coordinates, as a wiki does)."""
    text = "\n".join(line for line in text.splitlines() if not re.match(r"- n\d+: ", line))
    return {what for what, rx in LEAKS.items() if (side == "embodied" or what == "node id") and rx.search(text)}


def walkable_fitting(boxes: dict[str, dict[str, str]], kind: str, part: dict[str, str]) -> int:
    """How many places on the street graph fit a looser part of a description."""
    return sum(p in city().places for p in dp.matches(boxes, kind, part))


def test_generator_reproduces_the_shipped_file():
    assert gen.render() == gen.hard_path().read_text(encoding="utf-8")


def test_tasks_are_described_not_named(hard_tasks):
    """120 tasks, 60 test and 60 train; no instruction names its destination, its address or its start;
    each description fits exactly its destination among the wiki's places, and every proper part of it
    fits at least three places on the street graph (with two, the one not nearest to the start was forced)."""
    assert len(hard_tasks) == 120 and sum(t.split == "test" for t in hard_tasks) == 60
    boxes = dp.infoboxes()
    for t in hard_tasks:
        g = t.goal
        place = city().places[g["dest_place"]]
        text = t.instruction.lower()
        assert place.name.lower() not in text and place.address.split(",")[0].lower() not in text
        assert city().intersection_name(t.embodied["start"]).lower() not in text
        desc = dp.goal_as_description(g)
        assert dp.fits(boxes, desc) == [g["dest_place"]]
        assert all(walkable_fitting(boxes, desc["kind"], part) >= dp.MIN_WALKABLE for part in loose_parts(g)), t.task_id
        assert t.embodied["view"] == "walker" and t.web["sites"]["map"]["plain"] is True


def test_oracle_solves_every_hard_task_and_sees_no_leak(env, hard_tasks):
    """The oracle (wiki article, plain directions from the corner's name, the walk, stop) passes all 120;
    nothing it is shown on the way has a node id, coordinates, a here list or a distance to a place."""
    failed, leaks = [], set()
    for t in hard_tasks:
        seen: list[tuple[str, str]] = []
        if not play(env, NavigationOracle(t), t.task_id, seen)["overall"]:
            failed.append(t.task_id)
        leaks |= {(t.task_id, what) for side, text in seen for what in leaks_in(side, text)}
    assert not failed and not leaks, (failed[:5], sorted(leaks)[:5])


def test_the_leak_check_sees_the_standard_tiers_views(env):
    """The same check on a standard episode finds every kind of leak (so its silence above means something)."""
    std = gym.make(NAV)
    try:
        t = std.unwrapped.tasks.tasks[0]
        seen: list[tuple[str, str]] = []
        play(std, NavigationOracle(t), t.task_id, seen)
        assert set().union(*(leaks_in(side, text) for side, text in seen)) == set(LEAKS)
    finally:
        std.close()


def test_walker_view_reads_signs(env, hard_tasks):
    """At the start: the corner's street signs, no 'You are at'; at the destination node: its sign beside you."""
    t = hard_tasks[0]
    obs, _ = env.reset(seed=0, options={"task_id": t.task_id})
    text = obs["embodied_text"]
    assert text.startswith("Street signs at this corner: ") and "You are at" not in text
    world = env.unwrapped.world
    world.node = t.goal["dest_node"]
    assert any(p.name in world.text().split("Beside you: ")[1] for p in city().places_at(t.goal["dest_node"]))


def test_plain_map_refuses_node_ids_and_standard_map_still_takes_them():
    hard = gym.make(NAV, level="hard")
    std = gym.make(NAV)
    try:
        hard.reset(seed=0, options={"task_id": "nav-hard-000"})
        std.reset(seed=0, options={"task_id": "nav-000"})
        url = "goto [/map/directions?" + urlencode({"from": "n1392", "to": "Shubert Theatre"}) + "]"
        for e in (hard, std):
            e.step("switch_environment")
        h = hard.step(url)[0]["web_text"]
        s = std.step(url)[0]["web_text"]
        assert "could not find the starting point" in h and "Head west on W 44th St (towards n9635)" in s
        h = hard.step("goto [/map/search?q=n1392]")[0]["web_text"]
        assert "No match" in h
        h = hard.step("goto [/map/directions?" + urlencode({"from": "6th Ave & W 44th St", "to": "Shubert Theatre"})
                      + "]")[0]["web_text"]
        assert "Head west on W 44th St for 400 m" in h and not LEAKS["node id"].search(h)
    finally:
        hard.close()
        std.close()


def test_bad_view_names_task_and_field(tmp_path, hard_tasks):
    t = hard_tasks[0]
    bad = Task.from_json({**t.to_json(), "embodied": {**t.embodied, "view": "xray"}})
    with pytest.raises(TaskError, match=r"nav-hard-000.*embodied\.view"):
        NavigationDomain().validate_task(bad)


# ---------------------------------------------------------------------------------------- adversaries
class GoTo(NavigationOracle):
    """The oracle's skills aimed at another place: directions (from the corner's name) to ``place_id`` by
    name, its walk, stop."""

    def __init__(self, task: Task, place_id: str) -> None:
        super().__init__(task)
        self.place = city().places[place_id]

    def plan(self) -> Any:
        yield from self.ask_directions(self.place.name)
        yield from self.walk_to(self.place.node_id)
        yield "stop"


def dest_of(goal: dict[str, Any]) -> str:
    return goal.get("dest_place") or goal["place_id"]


def loose_parts(goal: dict[str, Any]) -> list[dict[str, str]]:
    """The looser descriptions a guesser might settle for: the kind with any proper subset of the facts (with
    every subset, the full one too, when the description is a rank within them)."""
    facts = {k: v for k, v in goal["facts"].items() if k != "kind"}
    upto = len(facts) + 1 if goal.get("rank") else len(facts)
    return [{k: facts[k] for k in part} for n in range(upto) for part in itertools.combinations(sorted(facts), n)]


def guesses(task: Task) -> set[str]:
    """Where a guesser who read the description might go instead of finding out: for each looser part, the
    place fitting it nearest to the start (walking) and the first by name; the anchor of a hop ("designed by
    the architect of X": X); the other end of a rank ("completed first": the one completed last)."""
    boxes = dp.infoboxes()
    g = task.goal
    start = task.embodied["start"]
    out = set()
    for part in loose_parts(g):
        pool = [p for p in dp.matches(boxes, g["facts"]["kind"], part) if p in city().places]
        out.add(min(pool, key=lambda p: (city().shortest_length(start, city().places[p].node_id), p)))
        out.add(min(pool, key=lambda p: city().places[p].name.lower()))
    if g.get("anchor") in city().places:
        out.add(g["anchor"])
    if g.get("rank"):
        field, highest, _ = dp.RANKS[g["rank"]]
        pool = dp.matches(boxes, g["facts"]["kind"], {k: v for k, v in g["facts"].items() if k != "kind"})
        other = (min if highest else max)(pool, key=lambda p: int(boxes[p][field]))
        if other in city().places:
            out.add(other)
    return out


def sample(tasks: list[Task], n: int = 40) -> list[Task]:
    return random.Random(3).sample(tasks, n)


def nearest_of_a_part(task: Task) -> set[str]:
    """The place fitting each looser part nearest to the start (walking): the one guess that may be the
    destination itself (:data:`~embodiedweb.data_gen.described_places.LAZY_CAP` holds how often)."""
    picks = dp.rank_picks(dp.infoboxes(), dp.goal_as_description(task.goal), lazy_ranks._dist_from(task.embodied["start"]))
    return {p for k, p in picks.items() if k.endswith(" #1")}


def wrong_guesses(task: Task) -> list[str]:
    """:func:`guesses` but the destination (only ever the nearest place fitting a looser part)."""
    dest = dest_of(task.goal)
    got = guesses(task)
    assert dest not in got or dest in nearest_of_a_part(task), task.task_id
    return sorted(got - {dest})


def test_red_team_guesses_fail(env, hard_tasks):
    """Walking to any of the wrong guesses (:func:`guesses`; the nearest place fitting a looser part may be the
    destination, on at most a third of a kind's tasks: :func:`test_no_lazy_rank_reading_is_right_often`)
    with directions to it passes at most 2 % of the runs (over every task and every guess)."""
    passed, runs = 0, 0
    for t in hard_tasks:
        for place in wrong_guesses(t):
            runs += 1
            passed += bool(play(env, GoTo(t, place), t.task_id)["overall"])
    assert runs >= 240 and passed / runs <= 0.02, (passed, runs)


def test_no_lazy_rank_reading_is_right_often():
    """Reading the description loosely (a fact dropped, one kept, the rank dropped) and walking to the nearest,
    2nd, 3rd, 2nd farthest or farthest place that fits the looser reading (:mod:`tests.domains.outdoor.lazy_ranks`) is right
    on at most a third of a task kind's tasks in each split (until stop 32 the 2nd nearest dropping the
    neighbourhood was right on 11 of 17 two-fact tasks, the 2nd nearest in a rank's scope on 15 of 32)."""
    tasks = [json.loads(line) for line in gen.hard_path().read_text(encoding="utf-8").splitlines()]
    tasks = [t for t in tasks if "tour" not in t["goal"]]  # (a tour's places: LazyCaps of their own, test_hard_tours)
    assert lazy_ranks.over_cap(tasks) == [], lazy_ranks.report(tasks)


def test_lazy_rank_readings_are_counted_as_a_guesser_walks():
    """The measure itself: on a made-up task, the nearest, 2nd, 3rd, 2nd farthest and farthest of each looser
    reading are the places fitting it in walking order from the start."""
    boxes = dp.infoboxes()
    kind, hood = "Theatre", "Theater District"
    pool = dp.matches(boxes, kind, {"neighborhood": hood})
    dist = {p: float(i) for i, p in enumerate(sorted(pool, reverse=True))}
    picks = dp.rank_picks(boxes, {"kind": kind, "facts": {"neighborhood": hood}, "rank": "first"}, dist)
    order = sorted(pool, reverse=True)
    assert len(order) >= 3
    assert [picks[f"drop:rank {k}"] for k in dp.POSITIONS] == [*order[:3], *order[-2:]]
    assert picks["keep:neighborhood #2"] == order[1] and picks["keep:- #1"] == order[0]


class StandardHabits(NavigationOracle):
    """The standard tier's habits: directions asked from the node id the world listed as a neighbour (the
    plain map refuses them), then the right walk: fails the web part."""

    def plan(self) -> Any:
        g = self.task.goal
        yield from self.look_up(g)
        nb = city().neighbors(self.here())[0][0]
        yield "goto [/map/directions?" + urlencode({"from": nb, "to": g["dest_name"]}) + "]"
        yield from self.walk_to(g["dest_node"])
        yield "stop"


def test_red_team_node_ids_on_the_plain_map_fail(env, hard_tasks):
    results = [play(env, StandardHabits(t), t.task_id) for t in sample(hard_tasks, 20)]
    assert not any(m["overall"] or m["web"] for m in results) and all(m["embodied"] for m in results)


class OtherWay(NavigationOracle):
    """A genuine solver that does everything its own way: identifies the place from the map's search and
    place page (not the wiki), asks directions by the place's address from the corner's street signs read
    the other way round, walks its own route (one block off the map's first leg, then the shortest way) and
    stops one node before the destination."""

    def plan(self) -> Any:
        g = self.task.goal
        place = city().places[g["dest_place"]]
        yield "switch_environment"
        yield "goto [/map/search?" + urlencode({"q": g["facts"]["kind"].split()[0]}) + "]"
        yield f"goto [/map/place/{place.place_id}]"
        corner = " & ".join(reversed(city().intersection_name(self.here()).split(" & ")))
        address = place.address.split(", New York")[0]
        yield "goto [/map/directions?" + urlencode({"from": corner, "to": address}) + "]"
        yield "switch_environment"
        route = city().route(self.here(), g["dest_node"])
        detour = next((nb for nb, *_ in city().neighbors(self.here()) if nb != route[1]), None)
        if detour is not None:
            yield f"move [{detour}]"
        path = city().route(self.here(), g["dest_node"])
        for nxt in path[1:-1]:
            yield f"move [{nxt}]"
        yield "stop"


def test_genuine_alternative_passes(env, hard_tasks):
    """OtherWay passes on every task (its stop is one node short of the destination, within the
    20 m radius, or on it when the route is one node)."""
    failed = []
    for t in hard_tasks:
        path = city().route(t.embodied["start"], t.goal["dest_node"])
        assert city().shortest_length(path[-2], t.goal["dest_node"]) <= GOAL_RADIUS_M
        if not play(env, OtherWay(t), t.task_id)["overall"]:
            failed.append(t.task_id)
    assert len(failed) / len(hard_tasks) <= 0.02, failed


def test_random_and_perturbed_fail(env, hard_tasks):
    """The perturbed oracle (no directions, a stop short, a wrong turn) and random play pass at most 2 %."""
    rng = random.Random(0)
    tasks = sample(hard_tasks)
    perturbed = sum(bool(play(env, NavigationOracle(t, random.Random(i)), t.task_id)["overall"])
                    for i, t in enumerate(tasks))
    wins = 0
    for t in tasks[:20]:
        obs, info = env.reset(seed=0, options={"task_id": t.task_id})
        done = False
        while not done:
            acts = info.get("admissible_actions") or ["stop"]
            obs, _, term, trunc, info = env.step(rng.choice(acts))
            done = term or trunc
        wins += bool(info["metrics"]["overall"])
    assert perturbed / len(tasks) <= 0.02 and wins == 0, (perturbed, wins)


@pytest.mark.parametrize("name", ["DirectionsOneNodeEarly", "DirectionsOneNodeEarlyFromStart", "WalkBackThenAsk",
                                  "AskFromMidBlock", "AskAtBlockEnd"])
def test_directions_rules_on_the_hard_tier(hard_tasks, name):
    """The standard tier's red-team agents of navigation checker version 5 on every hard single destination:
    directions asked a step short of the destination, or after walking back from there, guide nothing (they passed
    all 120 before); directions asked mid-block from the block's name count (43 of 120 failed when the walker stood
    mid-block)."""
    from tests.domains.outdoor import redteam as rt
    from tests.redteam import run

    cls = getattr(rt, name)
    res = run(cls, NAV, [t for t in hard_tasks if cls.applies(t)])
    carried = [r for r in res if r["carried_out"]]
    passed = [r["task_id"] for r in carried if r["metrics"]["overall"]]
    assert len(carried) >= 0.8 * len(hard_tasks), len(carried)
    if cls.kind == "genuine":
        assert len(passed) >= 0.98 * len(carried), sorted({r["task_id"] for r in carried} - set(passed))[:5]
    else:
        assert not passed, passed[:5]
