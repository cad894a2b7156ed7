"""Agents written as generators; they live in :mod:`embodiedweb.agents.script` (the domains' oracles are
written with them, and the library never imports ``baselines``). Re-exported here so that
``from baselines.script import ScriptAgent`` keeps working."""

from embodiedweb.agents.script import Plan, ScriptAgent, find_bid

__all__ = ["Plan", "ScriptAgent", "find_bid"]
