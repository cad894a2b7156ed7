"""Plug-in agents (``ewa eval --agent module:Class``) and the agent's side of step files (issue 15 items 3-4)."""

from __future__ import annotations

import json

import pytest

import embodiedweb  # noqa: F401 - registers the env ids
from embodiedweb.cli import main

COOKING = "EWA-Cooking-v0"


def lines(path):
    return [json.loads(x) for x in path.read_text().splitlines()]


def plugin_eval(out, spec, *extra):
    return main(["eval", "--env", COOKING, "--agent", spec, "--limit", "2", "--out", str(out), "--no-progress",
                 "--json", *extra])


@pytest.mark.parametrize("workers", ["1", "2"])
def test_plugin_class_runs_with_its_name_settings_and_step_info(tmp_path, workers):
    out = tmp_path / "p.jsonl"
    assert plugin_eval(out, "tests.plugin_agents:StopAgent", "--workers", workers, "--save-steps") == 0
    recs = lines(out)
    assert [r["status"] for r in recs] == ["ok", "ok"] and all(r["steps"] == 1 for r in recs)
    assert {r["run_label"] for r in recs} == {"stopper"} and {r["agent"] for r in recs} == {"stopper"}
    settings = recs[0]["run_settings"]["agent_settings"]
    assert settings == {"plugin": "tests.plugin_agents:StopAgent", "answer": "I do not know"}
    assert recs[0]["metrics"]["answer"] == "I do not know"
    steps = lines(out.parent / "p.steps" / COOKING / f"stopper-{recs[0]['run_id']}" / f"{recs[0]['task_id']}.jsonl")
    assert steps[1]["agent"] == {"completion": "raw reply 1", "action": "stop [I do not know]", "prompt_tokens": 7,
                                 "completion_tokens": 3, "latency_s": 0.25}
    assert plugin_eval(out, "tests.plugin_agents:StopAgent", "--workers", workers) == 0
    assert len(lines(out)) == 2  # the same run: resumed, not repeated


def test_plugin_factory_and_bare_class(tmp_path):
    out = tmp_path / "f.jsonl"
    assert plugin_eval(out, "tests.plugin_agents:make_polite") == 0
    assert plugin_eval(out, "tests.plugin_agents:Nameless") == 0
    recs = lines(out)
    assert [r["metrics"]["answer"] for r in recs[:2]] == ["sorry", "sorry"]
    assert [r["run_label"] for r in recs] == ["stopper"] * 2 + ["Nameless"] * 2
    assert len({r["run_id"] for r in recs}) == 2  # the spec is part of the run


@pytest.mark.parametrize("spec, says", [
    ("nosuchagent", "unknown agent 'nosuchagent'"),
    ("tests.no_such_module:X", "cannot import module 'tests.no_such_module'"),
    ("tests.plugin_agents:Missing", "has no attribute 'Missing'"),
    ("tests.plugin_agents:NoAct", "does not implement act(obs, info)"),
    ("tests.plugin_agents:make_noact", "does not implement act(obs, info)"),
    (":StopAgent", "expected module:Class"),
])
def test_bad_agent_specs_exit_2_with_one_line(tmp_path, capsys, spec, says):
    capsys.readouterr()
    assert plugin_eval(tmp_path / "b.jsonl", spec) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("ewa eval: ") and says in err, err
    assert not (tmp_path / "b.jsonl").exists() or not (tmp_path / "b.jsonl").read_text()
