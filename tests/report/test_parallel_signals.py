"""Stopping a parallel ``ewa eval``: SIGTERM or Ctrl-C to the parent, SIGKILL of the parent or of a worker.

Episodes are made slow by the LLM agent on a fake endpoint that takes ``DELAY`` s per reply, so the run
is still going when the signal comes. Afterwards no process of the run may be left, the JSONL holds
whole lines only, and the same command (with a fast endpoint) runs only the missing episodes.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("openai")
pytest.importorskip("uvicorn")
from embodiedweb.evaluate import load_done  # noqa: E402
from tests.baselines.fake_openai import FakeOpenAI  # noqa: E402
from tests.signals import SIGINT_DEFAULT  # noqa: E402

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the run's processes in /proc")

ENV = "EWA-Navigation-v0"
LIMIT = 32  # 8 steps each: over 8 s of work for 2 workers at DELAY, so the old code's workers outlive GONE_S
DELAY = 0.05
GONE_S = 4.0  # every process of the run ends within this many seconds of the signal


@pytest.fixture(scope="module")
def endpoint():
    state = {"delay": DELAY}

    def policy(messages):
        time.sleep(state["delay"])
        return "I have no idea"  # not an action: the env answers with an error and the episode goes on

    with FakeOpenAI(policy) as server:
        yield server.base_url, state


def command(url: str, out: Path) -> list[str]:
    return [sys.executable, "-c", SIGINT_DEFAULT, "-m", "embodiedweb.cli", "eval", "--env", ENV, "--agent", "llm",
            "--llm-model", "fake", "--llm-base-url", url, "--llm-api-key", "k", "--workers", "2",
            "--limit", str(LIMIT), "--max-steps", "8", "--out", str(out), "--no-progress"]


def proc_table() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state) of every process."""
    table = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            table[int(d.name)] = (int(fields[1]), fields[0])
    return table


def descendants(pid: int) -> dict[int, int]:
    """pid -> parent pid of every process below ``pid`` (forkserver, resource tracker, workers)."""
    table = proc_table()
    out: dict[int, int] = {}
    todo = [pid]
    while todo:
        parent = todo.pop()
        for p, (pp, _) in table.items():
            if pp == parent and p not in out:
                out[p] = pp
                todo.append(p)
    return out


def alive(pids) -> list[int]:
    table = proc_table()
    return [p for p in pids if p in table and table[p][1] != "Z"]  # a zombie has ended


def wait_gone(pids, t0: float) -> float:
    while alive(pids) and time.monotonic() - t0 < GONE_S + 10:
        time.sleep(0.05)
    return time.monotonic() - t0


def whole_lines(out: Path) -> list[dict]:
    text = out.read_text(encoding="utf-8")
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


class Run:
    """``ewa eval`` started in its own session (so a Ctrl-C to its process group reaches only the run)."""

    def __init__(self, url: str, out: Path) -> None:
        self.out = out
        self.err = out.with_suffix(".err")
        with open(self.err, "w") as err:
            self.proc = subprocess.Popen(command(url, out), stdout=subprocess.DEVNULL, stderr=err,
                                         start_new_session=True)
        self.pids: dict[int, int] = {}

    def wait_records(self, n: int) -> None:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.err.read_text()
            if self.out.exists() and self.out.read_text().count("\n") >= n:  # the workers are at work
                self.pids = descendants(self.proc.pid)
                workers = [p for p, pp in self.pids.items() if pp != self.proc.pid]
                assert len(workers) == 2, self.pids  # forkserver children
                return
            time.sleep(0.05)
        pytest.fail(f"no {n} records in 90 s: {self.err.read_text()}")

    @property
    def workers(self) -> list[int]:
        return [p for p, pp in self.pids.items() if pp != self.proc.pid]

    def stderr_lines(self) -> list[str]:
        return self.err.read_text().splitlines()

    def cleanup(self) -> None:
        for p in [self.proc.pid, *alive(self.pids)]:
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait()


@pytest.fixture
def run(endpoint, tmp_path):
    url, state = endpoint
    state["delay"] = DELAY
    runs: list[Run] = []

    def start() -> Run:
        runs.append(Run(url, tmp_path / "r.jsonl"))
        return runs[-1]

    yield start
    for r in runs:
        r.cleanup()


def resume(endpoint, out: Path) -> None:
    """The same command, now with a fast endpoint: only the missing episodes run, none twice."""
    url, state = endpoint
    state["delay"] = 0.0
    before = out.read_text(encoding="utf-8")
    done = {r["task_id"] for r in whole_lines(out)}
    subprocess.run(command(url, out), check=True, capture_output=True, timeout=120)
    after = out.read_text(encoding="utf-8")
    assert after.startswith(before)  # the records of the stopped run stay as they were
    recs = whole_lines(out)
    ids = [r["task_id"] for r in recs]
    assert len(ids) == len(set(ids)) == LIMIT
    assert len(recs) - len(done) == LIMIT - len(done) and done < set(ids)


def test_sigterm_stops_the_workers_keeps_the_records_and_resumes(run, endpoint):
    r = run()
    r.wait_records(1)
    t0 = time.monotonic()
    r.proc.send_signal(signal.SIGTERM)
    assert r.proc.wait(timeout=GONE_S + 10) == 143
    assert time.monotonic() - t0 < GONE_S
    assert wait_gone(r.pids, t0) < GONE_S, alive(r.pids)
    lines = r.stderr_lines()
    assert len(lines) == 1 and lines[0].startswith("ewa eval: stopped by SIGTERM after "), lines
    assert "the same command resumes" in lines[0]
    assert 1 <= len(whole_lines(r.out)) < LIMIT
    resume(endpoint, r.out)


def test_ctrl_c_stops_the_run_with_one_line_and_no_worker_tracebacks(run):
    r = run()
    r.wait_records(1)
    t0 = time.monotonic()
    os.killpg(r.proc.pid, signal.SIGINT)  # what a terminal sends: to the parent and every worker
    assert r.proc.wait(timeout=GONE_S + 10) == 130
    assert wait_gone(r.pids, t0) < GONE_S, alive(r.pids)
    lines = r.stderr_lines()
    assert len(lines) == 1 and lines[0].startswith("ewa eval: stopped by SIGINT after "), lines
    assert 1 <= len(whole_lines(r.out)) < LIMIT


def test_workers_end_by_themselves_when_the_parent_is_killed(run):
    r = run()
    r.wait_records(1)
    t0 = time.monotonic()
    r.proc.kill()  # SIGKILL: no handler of the parent runs
    r.proc.wait()
    assert wait_gone(r.pids, t0) < GONE_S, alive(r.pids)
    recs = whole_lines(r.out)
    assert 1 <= len(recs) < LIMIT and len(load_done(r.out)) == len(recs)  # a rerun skips them (see the SIGTERM test)


def test_a_killed_worker_stops_the_run_with_one_line(run):
    r = run()
    r.wait_records(1)
    t0 = time.monotonic()
    os.kill(r.workers[0], signal.SIGKILL)
    assert r.proc.wait(timeout=GONE_S + 10) == 1
    assert wait_gone(r.pids, t0) < GONE_S, alive(r.pids)
    lines = r.stderr_lines()
    assert len(lines) == 1 and "died (killed by SIGKILL)" in lines[0] and lines[0].startswith("ewa eval: worker "), lines
    assert 1 <= len(whole_lines(r.out)) < LIMIT
