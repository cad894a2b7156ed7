"""Agents by name for ``ewa eval --agent NAME``, and plug-in agents by ``module:Class`` or ``module:factory``."""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys
from typing import Any

from baselines.base import Agent


class AgentSpecError(ValueError):
    """``--agent`` names no built-in agent and no importable plug-in; the message is one line."""


def agent_names() -> list[str]:
    return ["oracle", "random", "perturbed", "heuristic", "llm"]


def make_agent(name: str, seed: int = 0, **kwargs: Any) -> Agent:
    """Build the agent ``name`` (a built-in name, or a plug-in ``module:Class`` / ``module.sub:factory``,
    see :func:`load_plugin`); anything else raises :class:`AgentSpecError` (a ``ValueError``)."""
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
    if ":" in name:
        return load_plugin(name, seed=seed)
    raise AgentSpecError(f"unknown agent {name!r}; agents: {', '.join(agent_names())}, "
                         "or a plug-in as module:Class or module:factory")


def load_plugin(spec: str, seed: int = 0) -> PluginAgent:
    """Import ``module:attr`` (the current directory is importable too), call ``attr`` (a class or a
    factory; with ``seed=`` when it takes a ``seed`` parameter) and wrap the agent it returns in a
    :class:`PluginAgent`. Raises :class:`AgentSpecError` with one line for a bad spec, a module that does
    not import, a missing attribute, or an object without a callable ``act``."""
    mod_name, _, attr = spec.partition(":")
    if not mod_name or not attr:
        raise AgentSpecError(f"bad agent spec {spec!r}: expected module:Class or module:factory")
    cwd = os.getcwd()
    if "" not in sys.path and cwd not in sys.path:
        sys.path.append(cwd)
    try:
        mod = importlib.import_module(mod_name)
    except Exception as e:  # missing, or broken (a syntax error, a missing dependency of its own)
        raise AgentSpecError(f"agent {spec!r}: cannot import module {mod_name!r} ({type(e).__name__}: {e})") from None
    obj: Any = mod
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise AgentSpecError(f"agent {spec!r}: module {mod_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise AgentSpecError(f"agent {spec!r}: {attr!r} is not a class or factory")
    if inspect.isclass(obj) and not callable(getattr(obj, "act", None)):  # before building it
        raise AgentSpecError(f"agent {spec!r}: {attr} does not implement act(obs, info) (see baselines.base.AgentProtocol)")
    try:
        takes_seed = "seed" in inspect.signature(obj).parameters
    except (TypeError, ValueError):
        takes_seed = False
    agent = obj(seed=seed) if takes_seed else obj()
    if not callable(getattr(agent, "act", None)):
        raise AgentSpecError(f"agent {spec!r}: {type(agent).__name__} does not implement act(obs, info) "
                             "(see baselines.base.AgentProtocol)")
    return PluginAgent(agent, spec)


class PluginAgent(Agent):
    """A plug-in agent seen through the :class:`Agent` interface: the optional hooks it lacks are filled in.

    Run identity: ``name`` is the plug-in's ``name`` attribute or its class name; its settings are
    its ``run_settings()`` or ``settings()`` (none otherwise) plus the spec it was loaded from."""

    def __init__(self, inner: Any, spec: str) -> None:
        self.inner, self.spec = inner, spec
        raw = getattr(inner, "name", None)
        raw = raw if isinstance(raw, str) and raw else type(inner).__name__
        self.name = re.sub(r"[^\w.+-]", "_", raw)  # also a folder name of the step files

    def reset(self, env: Any, obs: dict[str, Any], info: dict[str, Any]) -> None:
        if callable(getattr(self.inner, "reset", None)):
            self.inner.reset(env, obs, info)

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> str:
        return self.inner.act(obs, info)

    def close(self) -> None:
        if callable(getattr(self.inner, "close", None)):
            self.inner.close()

    def _hook(self, *names: str) -> Any:
        for n in names:
            f = getattr(self.inner, n, None)
            if callable(f):
                return f()
        return None

    def run_settings(self) -> dict[str, Any]:
        own = self._hook("run_settings", "settings")
        return {"plugin": self.spec, **(own if isinstance(own, dict) else {})}

    def run_label(self) -> str:
        label = self._hook("run_label")
        return str(label) if label else self.name

    def episode_record(self) -> dict[str, Any]:
        rec = self._hook("episode_record")
        return rec if isinstance(rec, dict) else {}

    def last_step_info(self) -> dict[str, Any]:
        info = self._hook("last_step_info")
        return info if isinstance(info, dict) else {}
