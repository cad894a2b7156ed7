"""The hard navigation tier's appointment tours (``nav-hard-180`` ...; stop 36; ``APPOINTMENT_TOURS`` of
:mod:`embodiedweb.data_gen.hard_tours`, the appointment rule of :func:`embodiedweb.domains.outdoor.tours.check_tour`,
the walker's watch of :mod:`embodiedweb.worlds.street.watch`): each place of a tour has a time to be there by;
exactly one order of visits meets every appointment, with room to spare; the oracle passes every tour; walkers
that do not weigh the appointments against the walks (the shortest walk, earliest appointment first, the most
urgent place next, the lazy orders, the planners) fail; another shortest path per leg, directions on the way, the
map's place pages and a small detour within the room pass.

``python -m tests.domains.outdoor.test_appointment_tours`` prints the red-team and genuine agents' rates."""

from __future__ import annotations

import hashlib
import itertools
import json
from typing import Any

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401  (registers the envs)
from embodiedweb.data_gen import described_places as dp
from embodiedweb.data_gen import hard_tours as gen
from embodiedweb.domains.base import Episode
from embodiedweb.domains.outdoor.common import city, near
from embodiedweb.domains.outdoor.navigation import NavigationDomain, TourOracle
from embodiedweb.domains.outdoor.tours import appointments, check_tour, walked_m
from embodiedweb.paths import data_dir
from embodiedweb.registration import spec_for
from embodiedweb.tasks import Task, TaskError, load_tasks
from embodiedweb.worlds.street.watch import clock_text, parse_clock
from tests.domains.outdoor.test_hard_tours import FIRST_APPOINTMENT, Walker, play

NAV = "EWA-Navigation-v0"
#: sha256 of the appointment tours' lines (nav-hard-180..191) as stop 36 wrote them
APPOINTMENT_LINES_SHA256 = "7269828f787cfab361a3c3c31694b189eb4f060d9e575d39e1615e25f638dc71"


@pytest.fixture(scope="module")
def env():
    e = gym.make(NAV, level="hard")
    yield e
    e.close()


def load() -> list[Task]:
    tasks = load_tasks(spec_for(NAV).level_tasks_path("hard"), NavigationDomain().validate_task)
    return [t for t in tasks if "watch" in t.embodied]


@pytest.fixture(scope="module")
def dated() -> list[Task]:
    return load()


def legs(t: Task) -> dict[tuple[str, str], float]:
    """The map's length of every leg of ``t``: the start to each place, each place to each other."""
    ends = [t.embodied["start"], *(s["node"] for s in t.goal["tour"])]
    return {(a, b): city().shortest_length(a, b) for a in ends for b in ends if a != b}


def due_m(t: Task) -> dict[str, float]:
    """Each place's appointment as metres walked, from the task's clock fields alone: the watch passes the
    appointment's minute at ``(by - start + 1) x pace``."""
    start, pace, by = appointments(t)
    return {s["place"]: (b + 1) * pace for s, b in zip(t.goal["tour"], by, strict=True)}


def leg_metres(t: Task) -> Any:
    """``metres(node, place)``: a leg of ``t`` as the map measures it."""
    leg, node = legs(t), {s["place"]: s["node"] for s in t.goal["tour"]}
    return lambda n, p: leg[n, node[p]]


def meeting(t: Task, miss_m: float = 0.0) -> list[tuple[str, ...]]:
    """Every order of ``t``'s places whose walk (each leg the map's length) meets every appointment."""
    leg, node, due = legs(t), {s["place"]: s["node"] for s in t.goal["tour"]}, due_m(t)
    return [o for o in itertools.permutations(node)
            if gen.meets(t.embodied["start"], o, node, lambda n, p: leg[n, node[p]], due, miss_m)]


def orders(t: Task) -> dict[str, list[str]]:
    """The capped orders of the generator (lazy orders, planners, shortest walk, EDF, least slack), the map's lengths."""
    node = {s["place"]: s["node"] for s in t.goal["tour"]}
    names = {s["place"]: s["name"] for s in t.goal["tour"]}
    start, pace, by = appointments(t)
    return gen.appointment_orders(city(), t.embodied["start"], [s["place"] for s in t.goal["tour"]], node, names,
                                  {s["place"]: b for s, b in zip(t.goal["tour"], by, strict=True)}, pace)


# ------------------------------------------------------------------------------------------- the tasks
def test_appointment_tours_are_appended_split_and_sized(dated):
    """12 tours from nav-hard-180, six per split (three of four places and three of five), each place described
    and of the tour's split, with its time in the instruction; the start time and pace in the instruction and the
    watch; no walking limit; budgets the standard walk + 45 per place + 2 per leg, within the env's limit."""
    from embodiedweb.data_gen.outdoor_tasks import _max_steps, _split

    assert [t.task_id for t in dated] == [f"nav-hard-{FIRST_APPOINTMENT + i}" for i in range(12)]
    boxes = dp.infoboxes()
    for split in ("test", "train"):
        assert sorted(len(t.goal["tour"]) for t in dated if t.split == split) == sorted(gen.APPOINTMENT_PLACES)
    for t in dated:
        g, w = t.goal, t.embodied["watch"]
        n = len(g["tour"])
        assert "limit_m" not in g and w["pace_m_per_min"] == gen.PACE_M_PER_MIN
        assert t.instruction.startswith(f"You have appointments at {gen.NUMBERS[n]} places")
        assert f"set out at {w['start']}" in t.instruction and f"walk {gen.PACE_M_PER_MIN} m a minute" in t.instruction
        assert [parse_clock(s["by"]) for s in g["tour"]] == sorted(parse_clock(s["by"]) for s in g["tour"])
        for s in g["tour"]:
            assert f"by {s['by']} at {s['description']}" in t.instruction and _split(s["place"]) == t.split
            assert dp.fits(boxes, dp.goal_as_description(s)) == [s["place"]]
            assert s["name"].lower() not in t.instruction.lower()
        nodes = {s["place"]: s["node"] for s in g["tour"]}
        path = [t.embodied["start"]]
        for p in g["best_order"]:
            path += city().route(path[-1], nodes[p])[1:]
        assert t.meta["max_steps"] == _max_steps(len(path)) + 45 * n + 2 * gen.legs_of(n) <= 1050


def test_appointment_tours_are_byte_identical():
    """The appointment tours' lines are stop 36's, byte for byte."""
    lines = (data_dir() / "navigation" / "hard.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    text = "".join(line for line in lines if int(json.loads(line)["task_id"][-3:]) >= FIRST_APPOINTMENT)
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == APPOINTMENT_LINES_SHA256


def test_exactly_one_order_meets_the_appointments(dated):
    """From the clock fields alone and the map's lengths: the best order is the one order meeting every
    appointment, with at least ``ROOM_M`` metres before each appointment's minute; every other order misses one
    by ``MISS_M`` or more, even arriving anywhere within the goal radius; it is not the shortest walk."""
    for t in dated:
        best = tuple(t.goal["best_order"])
        assert meeting(t) == [best] and meeting(t, gen.MISS_M) == [best], t.task_id
        node = {s["place"]: s["node"] for s in t.goal["tour"]}
        start, pace, by = appointments(t)
        by_p = {s["place"]: b for s, b in zip(t.goal["tour"], by, strict=True)}
        at = gen.arrivals(t.embodied["start"], best, node, leg_metres(t))
        assert all(a <= by_p[p] * pace - gen.ROOM_M for p, a in zip(best, at, strict=True)), t.task_id
        assert abs(at[-1] - t.goal["route_m"]) < 0.1 and t.goal["tour_m"] < t.goal["route_m"]
        due = due_m(t)
        for o in itertools.permutations(node):
            if o != best:
                rim = gen.rim_walks(city(), t.embodied["start"], o, node)
                assert any(a >= due[p] + gen.MISS_M for p, a in zip(o, rim, strict=True)), (t.task_id, o)


def test_no_capped_order_meets_the_appointments(dated):
    """None of the generator's capped orders (the lazy orders, the three planners, the shortest walk, earliest
    appointment first, least slack first) meets every appointment on any tour (caps: 0)."""
    assert set(gen.APPOINTMENT_CAPS) == set(orders(dated[0])) and not any(gen.APPOINTMENT_CAPS.values())
    for t in dated:
        fits = [k for k, o in orders(t).items() if tuple(o) in meeting(t)]
        assert not fits, (t.task_id, fits)


# ------------------------------------------------------------------------------------------- episodes
def test_oracle_solves_every_appointment_tour(env, dated):
    failed = [t.task_id for t in dated if not play(env, TourOracle(t), t.task_id)["overall"]]
    assert not failed, failed


SHORTCUTS = ("shortest walk", "EDF", "EDF + one swap", "EDF + swaps", "least slack", "listed", "nearest", "farthest", "by distance", "by name",
             "nearest + 2-opt", "nearest + 2-opt + or-opt", "cheapest insertion")


def shortcut_results(env: Any, tasks: list[Task], strategy: str) -> list[dict[str, Any]]:
    """Each tour walked in ``strategy``'s order (directions to each place up front)."""
    return [play(env, Walker(t, orders(t)[strategy]), t.task_id) for t in tasks]


@pytest.mark.parametrize("strategy", SHORTCUTS)
def test_red_team_orders_fail(env, dated, strategy):
    """Walking the order of a capped strategy, with the map's directions to every place up front: every place
    reached and the stop made, but an appointment missed, on every tour."""
    results = shortcut_results(env, dated, strategy)
    assert all(m["places_reached"] == len(t.goal["tour"]) for m, t in zip(results, dated, strict=True))
    passed = [t.task_id for m, t in zip(results, dated, strict=True) if m["overall"]]
    assert not passed, passed
    assert all(m["web"] and not m["embodied"] for m in results)


class OtherShortestPaths(Walker):
    """The best order, each leg by another shortest path than the map's: through a node off the map's route that
    lies on a walk of the same length (Manhattan's grid has many)."""

    def plan(self) -> Any:
        for p in self.ask:
            yield from self.ask_directions(self.names[p])
        for p in self.order:
            via = other_shortest_via(self.here(), self.nodes[p])
            if via is not None:
                yield from self.walk_to(via)
            yield from self.walk_to(self.nodes[p])
        yield "stop"


def other_shortest_via(a: str, b: str) -> str | None:
    """A node off the map's route from ``a`` to ``b`` on another walk of the same length (within 1 m), about half
    way; ``None`` when the map's route is the only shortest walk."""
    route = set(city().route(a, b))
    da, db, ab = city().distances_to(a), city().distances_to(b), city().shortest_length(a, b)
    on = [n for n in da if n not in route and da[n] + db.get(n, 1e9) <= ab + 1.0]
    return min(on, key=lambda n: (abs(da[n] - ab / 2), n)) if on else None


def detour_walker(t: Task) -> Walker:
    """The best order with a detour before the first leg, out to a neighbour of the start and back, when it costs
    less than half the smallest room before an appointment (else no detour)."""
    leg, node = legs(t), {s["place"]: s["node"] for s in t.goal["tour"]}
    start, pace, by = appointments(t)
    by_p = {s["place"]: b for s, b in zip(t.goal["tour"], by, strict=True)}
    best = t.goal["best_order"]
    at = gen.arrivals(t.embodied["start"], best, node, lambda n, p: leg[n, node[p]])
    room = min(by_p[p] * pace - a for p, a in zip(best, at, strict=True))
    s0 = t.embodied["start"]
    nb = next((n for n, *_ in city().neighbors(s0) if 2 * city().shortest_length(s0, n) < room / 2), None)
    return Walker(t, best, via={0: nb} if nb else None)


def genuine_agents(t: Task) -> dict[str, Walker]:
    best = t.goal["best_order"]
    return {"another shortest path per leg": OtherShortestPaths(t, best),
            "directions on the way": Walker(t, best, on_the_way=True),
            "the map's place pages": Walker(t, best, place_pages=True),
            "a detour within the room": detour_walker(t),
            "every article and leg looked up": Walker(t, best, read=True, legs=True),
            "a stop one node short": Walker(t, best, short=True)}


def test_genuine_alternatives_pass(env, dated):
    """Another shortest path on every leg, directions asked on the way, the map's place pages, a detour within the
    room, every article and all legs looked up, a stop one node short: all pass every tour."""
    failed = [(t.task_id, k) for t in dated for k, a in genuine_agents(t).items() if not play(env, a, t.task_id)["overall"]]
    assert not failed, failed


def test_another_shortest_path_differs_from_the_maps():
    """The alternative walker's leg really leaves the map's route at the same length."""
    c = city()
    a = c.locate("5th Ave & E 42nd St").node_id
    b = c.locate("Madison Ave & E 46th St").node_id
    via = other_shortest_via(a, b)
    assert via is not None and via not in c.route(a, b)
    assert abs(c.shortest_length(a, via) + c.shortest_length(via, b) - c.shortest_length(a, b)) <= 1.0


# ------------------------------------------------------------------------------------------- the watch
def test_the_watch_shows_the_time_walked(env, dated):
    """On an appointment tour the street view shows the watch, the start time plus the whole minutes walked at the
    pace, from the same metres the checker reads (``tours.walked_m`` of the world's path), at every step of the
    oracle's walk."""
    t = dated[0]
    start, pace, _by = appointments(t)
    obs, info = env.reset(seed=0, options={"task_id": t.task_id})
    agent = TourOracle(t)
    agent.reset(env, obs, info)
    seen, done = 0, False
    while not done:
        obs, _, term, trunc, info = env.step(agent.act(obs, info))
        done = term or trunc
        if obs["active"] == "embodied":
            walked = walked_m(env.unwrapped.world.semantic_state())
            assert f"Your watch: {clock_text(start + int(walked // pace))}." in obs["embodied_text"]
            seen += 1
    assert seen > 100 and info["metrics"]["overall"]


def test_standard_and_other_hard_views_show_no_watch(env):
    """Tasks without appointments show no watch (their views are as before)."""
    for tid in ("nav-hard-179", "nav-hard-000"):
        obs, _ = env.reset(seed=0, options={"task_id": tid})
        obs, *_ = env.step("switch_environment") if obs["active"] != "embodied" else (obs,)
        assert "watch" not in obs["embodied_text"].lower()
    std = gym.make(NAV)
    obs, _ = std.reset(seed=0)
    obs = std.step("switch_environment")[0] if obs["active"] != "embodied" else obs
    assert "watch" not in obs["embodied_text"].lower()
    std.close()


# --------------------------------------------------------------------------------- checker on states
@pytest.fixture(scope="module")
def toy():
    """A made-up tour of two places on a straight walk from a start corner, with appointments; the walk's metres
    to each place (for times in whole minutes at a pace of 10 m a minute)."""
    c = city()
    start = sorted(c.nodes)[100]
    path = [start]
    while len(path) < 20:
        nxt = next(nb for nb, *_ in c.neighbors(path[-1]) if nb not in path)
        path.append(nxt)
    a, b = path[8], path[-1]
    # the walk's metres on first coming within the goal radius of each (the arrival rule)
    to_a, to_b = (walked_m({"path": path[:next(i for i, n in enumerate(path) if near(n, x)) + 1]}) for x in (a, b))
    assert 0 < to_a < to_b - 60
    return a, b, path, to_a, to_b


def ep(tour, watch, path, answer="stop"):
    t = Task(task_id="t", env_id=NAV, instruction="i", goal={"tour": tour}, embodied={"start": path[0], "watch": watch})
    world = {"node": path[-1], "path": path, "path_at": [0, *range(10, 10 + len(path) - 1)]}
    dirs = [{"from_node": path[0], "to_node": s["node"], "at": 1} for s in tour]
    return Episode(task=t, world_state=world, web_state={"map": {"directions": dirs}}, answer=answer, steps=1, switches=0)


def test_checker_appointment_rules(toy):
    """A place reached while the watch reads its time or earlier is on time, a minute later is not (the watch's
    minute: the walk to b at 10 m a minute reads ``floor(to_b / 10)`` minutes); completion counts each place's
    appointment; the appointments replace the walking limit."""
    a, b, path, to_a, to_b = toy
    watch = {"start": "09:00", "pace_m_per_min": 10}
    t_a, t_b = int(to_a // 10), int(to_b // 10)
    on = [{"place": "a", "node": a, "by": clock_text(540 + t_a)}, {"place": "b", "node": b, "by": clock_text(540 + t_b)}]
    m = check_tour(ep(on, watch, path))
    assert m["overall"] and m["completion"] == 1.0
    late_b = [on[0], {**on[1], "by": clock_text(540 + t_b - 1)}]
    m = check_tour(ep(late_b, watch, path))
    assert not m["overall"] and m["web"] and not m["embodied"] and m["completion"] == pytest.approx(6 / 7)
    late_a = [{**on[0], "by": clock_text(540 + t_a - 1)}, on[1]]
    assert not check_tour(ep(late_a, watch, path))["embodied"]
    # arriving in the appointment's minute is on time, whatever the seconds: a pace that makes the walk to b end
    # just before the next minute begins
    pace = to_b / (t_b + 0.999)
    m = check_tour(ep(on, {"start": "09:00", "pace_m_per_min": pace}, path))
    assert m["embodied"], m


def test_bad_appointments_name_task_and_field(dated):
    t = dated[0]
    tj = t.to_json()

    def bad(embodied=None, goal=None):
        return Task.from_json({**tj, "embodied": embodied or tj["embodied"], "goal": goal or tj["goal"]})

    cases = [
        (bad(embodied={**tj["embodied"], "watch": {"start": "9:40", "pace_m_per_min": 80}}), r"embodied\.watch\.start"),
        (bad(embodied={**tj["embodied"], "watch": {"start": "25:00", "pace_m_per_min": 80}}), r"embodied\.watch\.start"),
        (bad(embodied={**tj["embodied"], "watch": {"start": "09:40", "pace_m_per_min": 0}}), r"embodied\.watch\.pace_m_per_min"),
        (bad(embodied={**tj["embodied"], "watch": {"start": "09:40", "pace_m_per_min": "fast"}}), r"embodied\.watch\.pace"),
        (bad(embodied={**tj["embodied"], "watch": "09:40"}), r"embodied\.watch'"),
        (bad(goal={**tj["goal"], "tour": [{**tj["goal"]["tour"][0], "by": "noon"}, *tj["goal"]["tour"][1:]]}),
         r"goal\.tour\[0\]\.by"),
        (bad(goal={**tj["goal"], "tour": [*tj["goal"]["tour"][:1], {k: v for k, v in tj["goal"]["tour"][1].items() if k != "by"},
                                          *tj["goal"]["tour"][2:]]}), r"goal\.tour\[1\]\.by"),
        (bad(goal={**tj["goal"], "tour": [{**tj["goal"]["tour"][0], "by": tj["embodied"]["watch"]["start"]},
                                          *tj["goal"]["tour"][1:]]}), r"goal\.tour\[0\]\.by.*not after"),
        (bad(goal={**tj["goal"], "limit_m": 3000}), r"goal\.limit_m"),
        (bad(embodied={k: v for k, v in tj["embodied"].items() if k != "watch"}), r"embodied\.watch"),
    ]
    for task, field in cases:
        with pytest.raises(TaskError, match=rf"{t.task_id}.*{field}"):
            NavigationDomain().validate_task(task)


# ------------------------------------------------------------------------------------------- helpers
def test_appointment_helpers_on_a_line():
    """Arrivals, meeting appointments, least slack first and a drawn set of appointments on places along a line."""
    import random

    pos = {"s": 0.0, "a": 1.0, "b": 3.0, "c": 2.0, "d": -1.0}
    node = {p: p for p in pos}

    def metres(n: str, p: str) -> float:
        return abs(pos[n] - pos[p])

    assert gen.arrivals("s", ["a", "b", "c"], node, metres) == [1.0, 3.0, 4.0]
    assert gen.meets("s", ["a", "b"], node, metres, {"a": 1.5, "b": 3.5})
    assert not gen.meets("s", ["a", "b"], node, metres, {"a": 1.5, "b": 3.0})  # at the minute's end: late
    assert gen.meets("s", ["a", "b"], node, metres, {"a": 1.5, "b": 3.0}, miss_m=0.5)
    # least slack: d (due 2, 1 away: 1 to spare) before a (due 5); then from d, a (2 away, due 5 at 3: 0 to spare)
    assert gen.least_slack("s", ["a", "d"], node, metres, {"a": 5.0, "d": 2.0}) == ["d", "a"]
    got = gen.draw_appointments(random.Random(0), "s", ["a", "b", "d"], node, lambda n, p: 100 * metres(n, p),
                                ("a", "b", "d"))
    assert isinstance(got, str) or got[0] != ("a", "b", "d")


def test_edf_repairs_on_a_line():
    """Earliest appointment first, then one swap, swaps lowering the lateness, one place moved, on a line: places
    b (3 m, due 5), a (1 m, due 4), c (2 m, due 6) from s (0). EDF a, b, c meets all; with a due later than b
    and the walk b, a late at a, the repairs find b, c, a or none."""
    pos = {"s": 0.0, "a": 1.0, "b": 3.0, "c": 2.0, "d": -1.0}
    node = {p: p for p in pos}

    def metres(n: str, p: str) -> float:
        return abs(pos[n] - pos[p])

    due = {"a": 4.0, "b": 5.0, "c": 6.0}
    assert gen.edf_one_swap("s", ["c", "b", "a"], node, metres, due) == ["a", "b", "c"]  # EDF meets all
    # b due first: EDF b (3), a (5), c (6: late for 5.8); the first swap, a before b: a (1), b (3), c (4) meets all
    due = {"b": 3.5, "a": 5.5, "c": 5.8}
    assert gen.lateness("s", ["b", "a", "c"], node, metres, due) == pytest.approx(0.2, abs=1e-5)
    assert gen.edf_one_swap("s", ["c", "b", "a"], node, metres, due) == ["a", "b", "c"]
    assert gen.edf_repaired("s", ["c", "b", "a"], node, metres, due) == ["a", "b", "c"]
    assert gen.edf_one_move("s", ["c", "b", "a"], node, metres, due) == ["a", "b", "c"]
    # c due first, then b, then a: EDF c (2), b (3), a (5: late for 4.5); a swap of b and a: c, a (3), b (5: late);
    # moving a first: a (1), c (2), b (3) meets all, and the swaps that lower the lateness find it too
    due = {"c": 2.5, "b": 3.5, "a": 4.5}
    assert gen.edf_one_swap("s", ["a", "b", "c"], node, metres, due) == ["c", "b", "a"]
    assert gen.edf_one_move("s", ["a", "b", "c"], node, metres, due) == ["a", "c", "b"]
    # nothing meets d (due 0.5, 1 m away) and b (due 2.5, 3 m away): the repairs give EDF back
    due = {"d": 0.5, "b": 2.5}
    assert gen.edf_one_swap("s", ["b", "d"], node, metres, due) == ["d", "b"]
    assert gen.edf_one_move("s", ["b", "d"], node, metres, due) == ["d", "b"]


def one_move(t: Task) -> list[str]:
    """Earliest appointment first, or the first order one place moved from it that meets every appointment."""
    node = {s["place"]: s["node"] for s in t.goal["tour"]}
    return gen.edf_one_move(t.embodied["start"], list(node), node, leg_metres(t), due_m(t))


def test_one_place_moved_from_edf_is_not_capped(dated):
    """Measured, not capped: every tour's order is earliest appointment first with one place moved (capping it
    starved the draw); docs/levels.md reports it."""
    assert sum(one_move(t) == t.goal["best_order"] for t in dated) == len(dated)


def rates(n: int | None = None) -> dict[str, str]:
    """The red-team and genuine agents' passes on the appointment tours (all 12, or the first ``n``)."""
    e = gym.make(NAV, level="hard")
    tasks = load()[:n]
    out = {"oracle": sum(bool(play(e, TourOracle(t), t.task_id)["overall"]) for t in tasks)}
    for k in SHORTCUTS:
        out[k] = sum(bool(m["overall"]) for m in shortcut_results(e, tasks, k))
    out["EDF + one move (not capped)"] = sum(bool(play(e, Walker(t, one_move(t)), t.task_id)["overall"]) for t in tasks)
    for k in genuine_agents(tasks[0]):
        out[k] = sum(bool(play(e, genuine_agents(t)[k], t.task_id)["overall"]) for t in tasks)
    e.close()
    return {k: f"{v} / {len(tasks)}" for k, v in out.items()}


if __name__ == "__main__":
    for k, v in rates().items():
        print(f"| {k} | {v} |")
