"""Settings for the whole test session."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _sb3_logs_in_pytest_tmp(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Stable-Baselines3 makes a folder under the system's temporary directory for every model trained without a
    logger (``SB3-<date>``); a test run made about ninety. They go to pytest's own temporary folder instead (the
    variable reaches the examples the tests run as subprocesses too)."""
    os.environ.setdefault("SB3_LOGDIR", str(tmp_path_factory.mktemp("sb3")))
