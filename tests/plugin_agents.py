"""Plug-in agents for ``ewa eval --agent tests.plugin_agents:...`` in tests (none subclasses baselines' Agent)."""

from __future__ import annotations

from typing import Any


class StopAgent:
    """Answers ``stop`` at once; a plain class with only the required ``act`` and the optional hooks."""

    name = "stopper"

    def __init__(self, seed: int = 0, answer: str = "I do not know") -> None:
        self.seed, self.answer = seed, answer
        self.steps = 0

    def reset(self, env: Any, obs: dict[str, Any], info: dict[str, Any]) -> None:
        self.steps = 0

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> str:
        self.steps += 1
        return f"stop [{self.answer}]"

    def settings(self) -> dict[str, Any]:
        return {"answer": self.answer}

    def last_step_info(self) -> dict[str, Any]:
        return {"completion": f"raw reply {self.steps}", "action": f"stop [{self.answer}]", "prompt_tokens": 7,
                "completion_tokens": 3, "latency_s": 0.25}


class Nameless:
    """Only ``act``: its label is the class name."""

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> str:
        return "stop"


def make_polite(seed: int = 0) -> StopAgent:
    """A factory: ``tests.plugin_agents:make_polite``."""
    return StopAgent(seed=seed, answer="sorry")


class NoAct:
    name = "noact"

    def reset(self, env: Any, obs: dict[str, Any], info: dict[str, Any]) -> None:
        pass


def make_noact() -> NoAct:
    return NoAct()
