"""The heuristic baseline reads only what an agent is given (observations and info), never the env."""

from __future__ import annotations

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401
from baselines.heuristic import HeuristicAgent


class Sealed:
    """Stands in for the env in ``agent.reset``: any attribute access fails the test."""

    def __getattr__(self, name: str):
        raise AssertionError(f"the heuristic read env.{name}")


@pytest.mark.parametrize("env_id", ["EWA-Cooking-v0", "EWA-Navigation-v0", "EWA-Shopping-v0",
                                    "EWA-Traveling-v0", "EWA-Geolocation-v0"])
def test_heuristic_solves_a_task_from_observations_alone(env_id):
    env = gym.make(env_id)
    base = env.unwrapped
    solved = 0
    for t in [t for t in base.tasks if not t.goal.get("missing")][:3]:
        obs, info = env.reset(seed=0, options={"task_id": t.task_id})
        agent = HeuristicAgent()
        agent.reset(Sealed(), obs, info)
        done = False
        while not done:
            obs, _, term, trunc, info = env.step(agent.act(obs, info))
            done = term or trunc
        solved += bool(info["metrics"]["overall"])
    env.close()
    assert solved >= 1, env_id
