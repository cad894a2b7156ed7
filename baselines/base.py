"""The agent interface used by ``ewa eval``."""

from __future__ import annotations

from typing import Any


class Agent:
    """An agent maps observations to action strings.

    ``reset`` is called at the start of every episode with the env (for ``describe_actions`` and
    the task), the first observation and info; ``act`` returns the next action string.
    Agents other than the oracle must only read ``obs`` and ``info``.
    """

    name = "agent"

    def reset(self, env: Any, obs: dict[str, Any], info: dict[str, Any]) -> None:
        """Start an episode."""

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> str:
        raise NotImplementedError

    def episode_record(self) -> dict[str, Any]:
        """Extra fields for the per-episode JSONL record (e.g. token usage)."""
        return {}
