"""Shared fixtures: a small real evaluation run with saved steps (oracle, perturbed, random on cooking)."""

from __future__ import annotations

from pathlib import Path

import pytest

import embodiedweb  # noqa: F401 - registers the env ids
from embodiedweb.evaluate import evaluate

COOKING = "EWA-Cooking-v0"


@pytest.fixture(scope="session")
def cooking_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run") / "res.jsonl"
    for agent in ("oracle", "perturbed", "random"):
        evaluate([COOKING], agent, limit=4, out=out, progress=False, save_steps=True)
    return out
