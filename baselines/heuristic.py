"""The heuristic agent: a per-domain, rule-based baseline that reads only observations.

Which heuristic runs is the env's domain's declaration (``Domain.heuristic``, an import path such as
``"baselines.street_heuristic:NavigationHeuristic"``), read from the domain class of the env id the info
names; a domain without one (``heuristic = None``) is skipped by ``ewa eval`` with a note
(:meth:`HeuristicAgent.skip_note`)."""

from __future__ import annotations

import importlib
from typing import Any

from baselines.base import Agent
from embodiedweb.registration import domain_class


def heuristic_path(env_id: str) -> str | None:
    """The ``module:Class`` of the heuristic the domain of ``env_id`` declares (``None``: none, or an
    unknown env id)."""
    cls = domain_class(env_id)
    return getattr(cls, "heuristic", None) if cls is not None else None


def load_heuristic(path: str) -> Agent:
    """Import and build the heuristic ``module:Class``."""
    module, _, cls = path.partition(":")
    return getattr(importlib.import_module(module), cls)()


class HeuristicAgent(Agent):
    """Dispatches to the heuristic the env's domain declares (``Domain.heuristic``)."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.inner: Agent | None = None

    def skip_note(self, env_id: str) -> str | None:
        """Why this agent cannot run on ``env_id`` (its domain declares no heuristic), else ``None``."""
        if heuristic_path(env_id):
            return None
        cls = domain_class(env_id)
        what = f"its domain {cls.name!r}" if cls is not None else "it is not a registered env"
        return f"no heuristic agent for {env_id}: {what} declares none (skipped)"

    def reset(self, env: Any, obs: dict[str, Any], info: dict[str, Any]) -> None:
        # the domain from the env id the info names: never env internals
        env_id = str(info.get("env_id", ""))
        path = heuristic_path(env_id)
        if not path:
            raise ValueError(self.skip_note(env_id))
        self.inner = load_heuristic(path)
        self.inner.reset(env, obs, info)

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> str:
        assert self.inner is not None
        return self.inner.act(obs, info)

    def episode_record(self) -> dict[str, Any]:
        return self.inner.episode_record() if self.inner else {}
