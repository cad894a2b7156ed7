"""The perturbed oracle: the oracle with one randomly chosen necessary step removed or replaced.

A negative control: if checkers discriminate, this agent should almost always fail. The domain's
oracle knows which of its steps are necessary, so it applies the perturbation (``perturb=rng``).
"""

from __future__ import annotations

import random
from typing import Any

from baselines.base import Agent


class PerturbedOracle(Agent):
    """``env.domain.oracle(task, perturb=rng)`` with a per-task seeded ``rng``."""

    name = "perturbed"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.expert: Agent | None = None

    def reset(self, env: Any, obs: dict[str, Any], info: dict[str, Any]) -> None:
        base = env.unwrapped
        rng = random.Random(f"perturb:{self.seed}:{base.task.task_id}")
        self.expert = base.domain.oracle(base.task, perturb=rng)
        self.expert.reset(env, obs, info)

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> str:
        assert self.expert is not None
        return self.expert.act(obs, info)

    def episode_record(self) -> dict[str, Any]:
        return self.expert.episode_record() if self.expert else {}
