"""The hard navigation tier's tours against the stop-37 red team (:mod:`tests.domains.outdoor.redteam_tours`): the
shortcuts fail on every tour they apply to, the genuine alternatives pass; and the planning rule of
:func:`~embodiedweb.domains.outdoor.tours.directions_per_leg` on hand-made states (directions planned ahead count from
the start or another place of the tour, not from beside the place they lead to)."""

from __future__ import annotations

import pytest

from embodiedweb.domains.outdoor.common import DIRECTIONS_NEAR_M, city, near
from embodiedweb.domains.outdoor.tours import check_tour
from tests.domains.outdoor import redteam_tours as rt
from tests.domains.outdoor.test_hard_tours import ep, toy  # noqa: F401  (the toy street fixture)
from tests.redteam import assert_verdicts, failures, run

AGENTS = rt.SHORTCUTS + rt.GENUINE


@pytest.fixture(scope="module")
def tours():
    return rt.hard_tours()


@pytest.mark.parametrize("cls", AGENTS, ids=[c.__name__ for c in AGENTS])
def test_tour_red_team_agent(cls, tours):
    """Every tour the agent applies to (test split first): a shortcut passes none of them and breaks what it
    stands for; a genuine alternative passes every one; at least nine in ten carry the idea out."""
    mine = sorted((t for t in tours if cls.applies(t)), key=lambda t: (t.split != "test", t.task_id))
    res = run(cls, rt.NAV, mine, max_steps=rt.MAX_STEPS)
    assert not [r["agent_error"] for r in res if r["agent_error"]][:3]
    carried = [r for r in res if r["carried_out"]]
    assert len(carried) >= max(9, int(0.9 * len(mine))), (len(carried), len(mine), failures(res))
    assert_verdicts(cls, carried)


def test_directions_from_beside_a_place_plan_no_leg(toy):  # noqa: F811
    """Directions to a place asked before walking count as planned when they start at the start or at another
    place of the tour, not from a corner beside the place itself (a route of a few dozen metres): before
    navigation checker version 6 such directions passed 55 of 55 tours for a walker who knew the way."""
    goal, path = toy
    a, b = goal["tour"][0]["node"], goal["tour"][1]["node"]
    beside = next(n for n in reversed(path[:-1]) if n != b and not near(n, b))  # outside b's radius ...
    assert city().shortest_length(beside, b) <= DIRECTIONS_NEAR_M  # ... yet within 60 m of it
    assert city().shortest_length(beside, a) > DIRECTIONS_NEAR_M and city().shortest_length(beside, path[0]) > 60
    to_a = {"to_node": a, "at": 1}
    m = check_tour(ep(goal, path, [to_a, {"from_node": beside, "to_node": b, "at": 2}]))
    assert m["embodied"] and not m["web"] and not m["overall"]
    # the same leg planned from the first place (or from the start) counts
    assert check_tour(ep(goal, path, [to_a, {"from_node": a, "to_node": b, "at": 2}]))["overall"]
    assert check_tour(ep(goal, path, [to_a, {"to_node": b, "at": 2}]))["overall"]


def test_the_limit_counts_the_way_to_each_door(toy):  # noqa: F811
    """A walk that turns back at the rim of a place's goal radius is judged against the limit as the walk that went
    to the place's door and back (:func:`~embodiedweb.domains.outdoor.tours.to_the_doors`); the way from where the
    walk ends to the place it ends beside counts once. Before navigation checker version 6 the rim walk counted as
    walked, and an order over the limit on the map's routes passed 24 of 24 tours it could be cut to fit."""
    from embodiedweb.domains.outdoor.tours import to_the_doors, walked_m

    goal, path = toy
    a = goal["tour"][0]["node"]
    c = city()
    other = [path[0]]  # the other way from the start: a second place b there, away from a
    while len(other) < 12:
        other.append(next(nb for nb, *_ in c.neighbors(other[-1]) if nb not in path and nb not in other))
    b = other[-1]
    assert c.shortest_length(b, a) > 100
    rim = min(i for i in range(len(path)) if near(path[i], a))  # the first node inside a's radius: turn back there
    d = c.shortest_length(path[rim], a)
    assert 0 < d <= 20
    walk = path[:rim + 1] + path[rim - 1::-1] + other[1:]  # to a's rim, back to the start, on to b
    tour = {**goal, "tour": [{"place": "a", "node": a}, {"place": "b", "node": b}]}
    assert to_the_doors(walk, [a, b]) == pytest.approx(2 * d)
    door = path[:path.index(a) + 1] + path[path.index(a) - 1::-1] + other[1:]  # to a's door and back
    assert to_the_doors(door, [a, b]) == 0.0
    assert to_the_doors(walk[:-1], [a, b]) == pytest.approx(2 * d + c.shortest_length(walk[-2], b))  # a node short
    dirs = [{"to_node": a, "at": 1}, {"to_node": b, "at": 2}]
    limit = walked_m({"path": walk}) + d  # within the limit as walked, not with the way to a's door and back
    m = check_tour(ep({**tour, "limit_m": limit}, walk, dirs))
    assert m["places_reached"] == 2 and m["web"] and not m["embodied"]
    assert check_tour(ep({**tour, "limit_m": limit + d}, walk, dirs))["overall"]
    assert check_tour(ep({**tour, "limit_m": walked_m({"path": door})}, door, dirs))["overall"]


def test_no_spot_is_beside_two_ends_of_a_tour(tours):
    """The start and the places of every tour are more than 150 m apart (the generator's ``APART_M``), so no node is
    within the 20 m goal radius of two places (no walker is at two at once), and directions from within 60 m of the
    start or another place never start beside the place they lead to: the planning rule's "another place" is a leg."""
    from embodiedweb.data_gen.hard_tours import APART_M

    assert APART_M > 2 * DIRECTIONS_NEAR_M
    for t in tours:
        ends = [t.embodied["start"], *(s["node"] for s in t.goal["tour"])]
        closest = min(city().shortest_length(a, b) for i, a in enumerate(ends) for b in ends[i + 1:])
        assert closest > APART_M, (t.task_id, closest)
