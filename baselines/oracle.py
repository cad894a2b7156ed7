"""The oracle: the domain's expert for the task, acting only through public actions."""

from __future__ import annotations

from typing import Any

from baselines.base import Agent


class OracleAgent(Agent):
    """Delegates to ``env.domain.oracle(task)``; the expert reads observations to find element ids
    and object ids, and knows the task's goal (that is what makes it an oracle)."""

    name = "oracle"

    def __init__(self) -> None:
        self.expert: Agent | None = None

    def reset(self, env: Any, obs: dict[str, Any], info: dict[str, Any]) -> None:
        base = env.unwrapped
        self.expert = base.domain.oracle(base.task)
        self.expert.reset(env, obs, info)

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> str:
        assert self.expert is not None
        return self.expert.act(obs, info)
