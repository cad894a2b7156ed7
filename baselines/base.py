"""The agent interface used by ``ewa eval``."""

from __future__ import annotations

from typing import Any


class Agent:
    """An agent maps observations to action strings.

    ``reset`` is called at the start of every episode with the env (for ``describe_actions`` and
    the task), the first observation and info; ``act`` returns the next action string; an exception from ``act`` ends the episode as an error
    (``status: "error"``, not counted in accuracy), e.g. when a model endpoint cannot be reached.
    Agents other than the oracle must only read ``obs`` and ``info``.
    """

    name = "agent"

    def reset(self, env: Any, obs: dict[str, Any], info: dict[str, Any]) -> None:
        """Start an episode."""

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> str:
        raise NotImplementedError

    def run_settings(self) -> dict[str, Any]:
        """Settings of this agent that change its behaviour (they go into the run id of its records)."""
        return {}

    def run_label(self) -> str:
        """Readable name of this agent's run in ``ewa report`` rows."""
        return self.name

    def episode_record(self) -> dict[str, Any]:
        """Extra fields for the per-episode JSONL record (e.g. token usage)."""
        return {}
