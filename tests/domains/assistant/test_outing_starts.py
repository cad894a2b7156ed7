"""Stop 38: no two places an outing asks the walker to be at in a row (the start included) lie within twice the goal
radius of each other along the streets, so each such turn needs a walk ("take me back to where we started" passed
standing at the theater, 13 m from a start 24-40 m away: 70 of 120 outings)."""

from __future__ import annotations

import json

from embodiedweb.data_gen.assistant_tasks import sightings
from embodiedweb.domains.outdoor.common import GOAL_RADIUS_M
from embodiedweb.paths import data_dir
from embodiedweb.worlds.street.city import load_city
from embodiedweb.worlds.street.world import walking_distances


def _too_near(a: str, b: str) -> bool:
    d = walking_distances(load_city(), a, 2 * GOAL_RADIUS_M + 1).get(b)
    return d is not None and d <= 2 * GOAL_RADIUS_M


def test_a_sighting_is_farther_than_twice_the_radius() -> None:
    c = load_city()
    near = [(n, p) for n, p in sightings() if _too_near(n, c.places[p].node_id)]
    assert not near, near[:5]


def test_every_outing_walks_between_its_places() -> None:
    tasks = [json.loads(line) for line in (data_dir() / "assistant" / "tasks.jsonl").read_text().splitlines()]
    bad = []
    for t in tasks:
        if (t.get("embodied") or {}).get("world") != "street":
            continue
        seq = [t["embodied"]["start"], *(x["expect"]["node"] for x in t["goal"]["turns"]
                                         if x["kind"] in ("walk_there", "go_back"))]
        bad += [t["task_id"] for a, b in zip(seq, seq[1:], strict=False) if _too_near(a, b)]
    assert not bad, (len(bad), bad[:5])
