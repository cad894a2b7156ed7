"""The walking tours' directions rule per leg (:func:`embodiedweb.domains.outdoor.tours.directions_per_leg`):
directions to a place count only when asked before its leg began (planned ahead) or while at least a quarter of
the leg was still ahead. A walker who finds each place without the map and asks for directions a step short of
it fails the web part on every tour (it passed every tour before navigation checker version 5); directions
planned from the start or asked at each place for the next pass (``test_hard_tours.py``)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401  (registers the envs)
from embodiedweb.domains.outdoor.common import StreetOracle, city, near
from embodiedweb.domains.outdoor.navigation import NavigationDomain
from embodiedweb.registration import spec_for
from embodiedweb.tasks import Task, load_tasks

NAV = "EWA-Navigation-v0"


@pytest.fixture(scope="module")
def env():
    e = gym.make(NAV, level="hard")
    yield e
    e.close()


@pytest.fixture(scope="module")
def tours() -> list[Task]:
    tasks = load_tasks(spec_for(NAV).level_tasks_path("hard"), NavigationDomain().validate_task)
    return [t for t in tasks if "tour" in t.goal]


class AsksAStepShort(StreetOracle):
    """Walks the shortest order without the map (it knows where the places are); at the last node outside each
    place's goal radius it asks the map for directions to the place, walks in, and goes on; stops at the last."""

    def plan(self) -> Any:
        by_place = {s["place"]: s for s in self.task.goal["tour"]}
        for p in self.task.goal["best_order"]:
            node = by_place[p]["node"]
            path = city().route(self.here(), node)
            k = next(i for i, n in enumerate(path) if near(n, node))
            if k > 0:
                yield from self.walk_to(path[k - 1])
            yield from self.ask_directions(by_place[p]["name"])
            yield from self.walk_to(node)
        yield "stop"


def play(env: Any, agent: Any, task_id: str) -> dict[str, Any]:
    obs, info = env.reset(seed=0, options={"task_id": task_id})
    agent.reset(env, obs, info)
    done = False
    while not done:
        obs, _, term, trunc, info = env.step(agent.act(obs, info))
        done = term or trunc
    return info["metrics"]


def test_directions_a_step_short_of_each_place_guide_nothing(env, tours):
    results = [play(env, AsksAStepShort(t), t.task_id) for t in tours]
    assert all(m["places_reached"] == len(t.goal["tour"]) for m, t in zip(results, tours, strict=True))
    assert not any(m["web"] for m in results), [t.task_id for m, t in zip(results, tours, strict=True) if m["web"]]
