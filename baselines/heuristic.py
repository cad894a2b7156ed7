"""The heuristic agent: a per-domain, rule-based baseline that reads only observations."""

from __future__ import annotations

import importlib
from typing import Any

from baselines.base import Agent

# domain name -> "module:Class" of its heuristic
HEURISTICS = {
    "cooking": "baselines.cooking_heuristic:CookingHeuristic",
    "geolocation": "baselines.geo_heuristic:GeoHeuristic",
    "navigation": "baselines.street_heuristic:NavigationHeuristic",
    "shopping": "baselines.street_heuristic:ShoppingHeuristic",
    "traveling": "baselines.street_heuristic:TravelingHeuristic",
}


class HeuristicAgent(Agent):
    """Dispatches to the heuristic of the env's domain (see :data:`HEURISTICS`)."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.inner: Agent | None = None

    def reset(self, env: Any, obs: dict[str, Any], info: dict[str, Any]) -> None:
        # the task family from the env id the info names ("EWA-Cooking-v0" -> cooking): never env internals
        env_id = str(info.get("env_id", ""))
        domain = env_id.split("-")[1].lower() if env_id.count("-") >= 2 else env_id
        if domain not in HEURISTICS:
            raise ValueError(f"no heuristic agent for env {env_id!r}")
        module, _, cls = HEURISTICS[domain].partition(":")
        self.inner = getattr(importlib.import_module(module), cls)()
        self.inner.reset(env, obs, info)

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> str:
        assert self.inner is not None
        return self.inner.act(obs, info)

    def episode_record(self) -> dict[str, Any]:
        return self.inner.episode_record() if self.inner else {}
