"""Agents by name for ``ewa eval --agent NAME``."""

from __future__ import annotations

from typing import Any

from baselines.base import Agent


def agent_names() -> list[str]:
    return ["oracle", "random", "perturbed", "heuristic", "llm"]


def make_agent(name: str, seed: int = 0, **kwargs: Any) -> Agent:
    """Build the agent ``name``; unknown names raise ``ValueError`` listing the valid ones."""
    if name == "oracle":
        from baselines.oracle import OracleAgent

        return OracleAgent()
    if name == "random":
        from baselines.random_agent import RandomAgent

        return RandomAgent(seed=seed)
    if name == "perturbed":
        from baselines.perturbed import PerturbedOracle

        return PerturbedOracle(seed=seed)
    if name == "heuristic":
        from baselines.heuristic import HeuristicAgent

        return HeuristicAgent(seed=seed)
    if name == "llm":
        from baselines.llm_agent import LLMAgent

        return LLMAgent(seed=seed, **kwargs)
    raise ValueError(f"unknown agent {name!r}; agents: {', '.join(agent_names())}")
