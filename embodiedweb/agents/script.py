"""Agents written as generators: ``yield action`` returns the next ``(obs, info)``."""

from __future__ import annotations

import re
from collections.abc import Generator
from typing import Any

from embodiedweb.agents.base import Agent

Plan = Generator[str, tuple[dict[str, Any], dict[str, Any]], None]


class ScriptAgent(Agent):
    """Subclasses implement :meth:`plan`; errors reported by the env are collected in ``errors``."""

    name = "script"

    def __init__(self) -> None:
        self._gen: Plan | None = None
        self.obs: dict[str, Any] = {}
        self.info: dict[str, Any] = {}
        self.env: Any = None
        self.errors: list[str] = []
        self._last = ""

    def plan(self) -> Plan:
        """Generator of action strings; each ``yield`` receives the next ``(obs, info)``. Subclasses implement it."""
        raise NotImplementedError
        yield ""

    def reset(self, env: Any, obs: dict[str, Any], info: dict[str, Any]) -> None:
        """Store the env and first observation, clear errors, and start a fresh plan."""
        self.env, self.obs, self.info = env, obs, info
        self.errors = []
        self._gen = self.plan()
        self._first = True

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> str:
        """Advance the plan with ``(obs, info)`` and return its next action (``stop`` once it ends); records action errors."""
        assert self._gen is not None
        self.obs, self.info = obs, info
        if obs.get("last_action_error") and not self._first:
            self.errors.append(f"{self._last}: {obs['last_action_error'][:200]}")
        try:
            action = next(self._gen) if self._first else self._gen.send((obs, info))
        except StopIteration:
            action = "stop"
        self._first = False
        self._last = action
        return action

    def episode_record(self) -> dict[str, Any]:
        """Extra episode fields: the first 20 ``agent_errors``, if any."""
        return {"agent_errors": self.errors[:20]} if self.errors else {}


def find_bid(web_text: str, role: str, name: str | None = None, exact: bool = True, nth: int = 0) -> str | None:
    """The id of the ``nth`` element with ``role`` (and accessible ``name``) in a tree text."""
    hits = []
    for m in re.finditer(r"^\s*\[(\w+)\] (\S+) '((?:[^'\\]|\\.)*)'", web_text, re.M):
        bid, r, n = m.group(1), m.group(2), m.group(3).replace("\\'", "'").replace("\\\\", "\\")
        if r != role:
            continue
        if name is None or (n == name if exact else name.lower() in n.lower()):
            hits.append(bid)
    return hits[nth] if len(hits) > nth else None
