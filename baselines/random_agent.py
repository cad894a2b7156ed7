"""A uniformly random agent over ``info["admissible_actions"]``, seeded per episode."""

from __future__ import annotations

import random
from typing import Any

from baselines.base import Agent


class RandomAgent(Agent):
    """Picks an admissible action at random; stops with a small probability each step."""

    name = "random"

    def __init__(self, seed: int = 0, stop_prob: float = 0.02) -> None:
        self.seed = seed
        self.stop_prob = stop_prob
        self.rng = random.Random(seed)

    def reset(self, env: Any, obs: dict[str, Any], info: dict[str, Any]) -> None:
        self.rng = random.Random(f"{self.seed}:{info.get('task_id')}")

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> str:
        if self.rng.random() < self.stop_prob:
            return "stop [I do not know]"
        acts = [a for a in info.get("admissible_actions", []) if a != "stop"]
        return self.rng.choice(acts) if acts else "stop"
