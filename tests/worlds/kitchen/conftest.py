"""Fixtures for the kitchen tests: the shared ALFRED data (../shared/data relative to the repo root)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def alfred_dir() -> Path:
    d = SHARED_DATA / "alfred"
    if not (d / "train.jsonl.gz").is_file() or not (d / "layouts").is_dir():
        pytest.skip("shared ALFRED fixtures not present")
    return d
