"""``ewa eval``: its files hold whatever an agent sends (lone surrogates); SIGTERM and SIGINT stop a run.

Parallel runs stopped by signals: tests/report/test_parallel_signals.py.
"""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

import embodiedweb  # noqa: F401 - registers the env ids
from baselines.base import Agent
from embodiedweb.evaluate import Stopped, _StopSignals, evaluate, load_done

COOKING = "EWA-Cooking-v0"


class Surrogates(Agent):
    """Types and answers with lone surrogates, then raises with one; its record field has one too."""

    name = "surrogates"

    def reset(self, env, obs, info):
        self.n = 0

    def act(self, obs, info):
        self.n += 1
        if self.n == 1:
            return "switch_environment [caf\ud800]"
        raise ValueError("the model said caf\udcff")

    def episode_record(self):
        return {"notes": "note \ud800"}


def test_records_and_step_files_with_lone_surrogates(tmp_path, monkeypatch):
    monkeypatch.setattr("baselines.registry.make_agent", lambda name, seed=0, **kw: Surrogates())
    out = tmp_path / "r.jsonl"
    _, recs = evaluate([COOKING], "surrogates", limit=2, out=out, progress=False, save_steps=True)
    assert "caf\udcff" in recs[0]["metrics"]["agent_error"]
    text = out.read_bytes().decode("utf-8")  # strict UTF-8: the surrogates are JSON escapes
    assert "\\udcff" in text and "\\ud800" in text
    back = [json.loads(line) for line in text.splitlines()]
    assert [r["notes"] for r in back] == ["note \ud800"] * 2 and len(load_done(out)) == 2
    steps = sorted((tmp_path / "r.steps" / COOKING).glob("surrogates-*/*.jsonl"))
    assert len(steps) == 4
    for path in steps:  # actions are cleaned before the env and the views see them: U+FFFD
        assert "\ufffd" in path.read_bytes().decode("utf-8")
    _, again = evaluate([COOKING], "surrogates", limit=2, out=out, progress=False)  # resumes: nothing runs
    assert again == back and out.read_bytes().decode("utf-8") == text


def test_stop_signals_raise_stopped_and_leave_ignored_signals_alone():
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        pytest.skip("something else handles SIGTERM in this process")
    with pytest.raises(Stopped) as e, _StopSignals():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler raises at once
    assert e.value.exit_code == 143 and str(e.value) == "SIGTERM"
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # put back
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)  # e.g. a job started with `&` by a script
    try:
        with _StopSignals():
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, old)
