"""The agent interface and the scripted-agent base the domains' oracles are written with.

Agents themselves (random, heuristic, LLM, ...) live in the top-level ``baselines`` package, which builds
on this one; the library never imports ``baselines``."""
