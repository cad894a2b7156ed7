"""Parallel workers: same per-episode results with 1 or 2 workers; resume after a killed run.

Runs go through ``ewa eval`` in a fresh process: other tests install extra sites (formlab) into the
process-wide web app, which changes element ids on the home page and so a random agent's choices.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import embodiedweb  # noqa: F401
from embodiedweb.cli import main
from embodiedweb.evaluate import evaluate

COOKING = "EWA-Cooking-v0"
VOLATILE = ("duration_s",)


def strip(rec: dict) -> dict:
    return {k: v for k, v in rec.items() if k not in VOLATILE}


def lines(path: Path) -> list[dict]:
    return [strip(json.loads(x)) for x in path.read_text().splitlines()]


def run_eval(out: Path, workers: int) -> dict:
    cmd = [sys.executable, "-m", "embodiedweb.cli", "eval", "--env", COOKING, "--agent", "random", "--limit", "6",
           "--seed", "3", "--out", str(out), "--workers", str(workers), "--no-progress", "--json"]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    out = tmp_path_factory.mktemp("serial") / "s.jsonl"
    run_eval(out, 1)
    return out, lines(out)


def test_two_workers_equal_one(serial, tmp_path):
    s_out, s_recs = serial
    out = tmp_path / "p.jsonl"
    summary, recs = evaluate([COOKING], "random", limit=6, out=out, seed=3, progress=False, workers=2)
    assert [strip(r) for r in recs] == s_recs  # sorted in task order, same seeds and digests
    assert lines(out) == s_recs  # the file is rewritten in task order too
    assert [r["seed"] for r in recs] == [3 * 100_003 + i for i in range(6)]
    assert summary[COOKING]["episodes"] == 6


def test_resume_after_a_killed_run(serial, tmp_path):
    s_out, s_recs = serial
    out = tmp_path / "r.jsonl"
    text = s_out.read_text().splitlines(keepends=True)
    out.write_text("".join(text[:3]) + text[3][: len(text[3]) // 2])  # killed while writing the 4th record
    _, recs = evaluate([COOKING], "random", limit=6, out=out, seed=3, progress=False, workers=2)
    assert [strip(r) for r in recs] == s_recs
    got = lines(out)  # the cut line is gone: earlier records, then this run's in task order
    keys = [(r["env_id"], r["task_id"], r["agent"]) for r in got]
    assert len(keys) == len(set(keys)) == 6  # nothing twice, nothing lost
    assert got == s_recs
    before = out.read_text()
    _, again = evaluate([COOKING], "random", limit=6, out=out, seed=3, progress=False, workers=2)
    assert [strip(r) for r in again] == s_recs and out.read_text() == before  # all done: nothing runs


def test_resume_serial_after_a_cut_line(serial, tmp_path):
    s_out, s_recs = serial
    out = tmp_path / "c.jsonl"
    text = s_out.read_text().splitlines(keepends=True)
    out.write_text("".join(text[:2]) + text[2][:10])
    assert run_eval(out, 1)["results"][COOKING]["episodes"] == 6
    parsed = []
    for x in out.read_text().splitlines():
        try:
            parsed.append(json.loads(x))
        except json.JSONDecodeError:
            assert x == text[2][:10]  # the cut line stays alone on its line, the next record is intact
    assert len(parsed) == 6


def test_cli_workers_flag(tmp_path, capsys):
    out = tmp_path / "o.jsonl"
    assert main(["eval", "--env", COOKING, "--agent", "oracle", "--limit", "4", "--out", str(out), "--workers", "2",
                 "--no-progress", "--json", "--save-steps"]) == 0
    res = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert res["results"][COOKING]["overall"] == 1.0 and res["results"][COOKING]["episodes"] == 4
    assert len(list((tmp_path / "o.steps" / COOKING).glob("oracle-*/*.trace.jsonl"))) == 4
