"""Agents: oracle, random, perturbed, heuristic, LLM (OpenAI-compatible), and human play."""
