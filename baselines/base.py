"""The agent interface; it lives in :mod:`embodiedweb.agents.base` (the oracles need it, and the library
never imports ``baselines``). Re-exported here so that ``from baselines.base import Agent`` keeps working."""

from embodiedweb.agents.base import Agent, AgentProtocol

__all__ = ["Agent", "AgentProtocol"]
