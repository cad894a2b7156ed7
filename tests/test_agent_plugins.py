"""Plug-in agents (``ewa eval --agent module:Class``) and the agent's side of step files (issue 15 items 3-4)."""

from __future__ import annotations

import json

import pytest

import embodiedweb  # noqa: F401 - registers the env ids
from embodiedweb.cli import main
from tests.baselines.fake_openai import FakeOpenAI

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


# ------------------------------------------------------------------------------------ the LLM agent's flags
def reasoned_stop(messages):
    return "The dish cannot be made here.\nIn summary, the next action I will perform is ```stop```"


def llm_eval(out, url, *extra):
    return main(["eval", "--env", COOKING, "--agent", "llm", "--llm-model", "fake", "--llm-base-url", url,
                 "--limit", "1", "--out", str(out), "--no-progress", "--json", *extra])


def test_temperature_max_tokens_and_system_prompt_are_sent_and_are_runs(tmp_path):
    out = tmp_path / "t.jsonl"
    prompt = tmp_path / "system.txt"
    prompt.write_text("You cook in {domain}. JSON braces {\"stay\": 1}.\n{actions}")
    with FakeOpenAI(reasoned_stop) as server:
        assert llm_eval(out, server.base_url) == 0
        assert llm_eval(out, server.base_url, "--temperature", "0.7") == 0
        assert llm_eval(out, server.base_url, "--temperature", "0.7", "--max-tokens", "64") == 0
        assert llm_eval(out, server.base_url, "--temperature", "0.7", "--max-tokens", "64",
                        "--system-prompt", str(prompt)) == 0
        assert llm_eval(out, server.base_url, "--temperature", "0.7") == 0  # the same run again: resumed
        reqs = list(server.requests)
    assert len(reqs) == 4
    assert [(r["temperature"], r["max_tokens"], r["seed"]) for r in reqs] == [(0.0, 1024, 0), (0.7, 1024, 0),
                                                                              (0.7, 64, 0), (0.7, 64, 0)]
    system = reqs[3]["messages"][0]["content"]
    assert system.startswith('You cook in cooking. JSON braces {"stay": 1}.\n') and "click [id]" in system
    assert "You cook in" not in reqs[2]["messages"][0]["content"]
    recs = lines(out)
    assert len(recs) == 4 and len({r["run_id"] for r in recs}) == 4
    settings = [r["run_settings"]["agent_settings"] for r in recs]
    assert [s["temperature"] for s in settings] == [0.0, 0.7, 0.7, 0.7]
    assert settings[3]["system_prompt"].startswith("sha256:") and "system_prompt" not in settings[2]


def test_vision_in_text_mode_is_an_error(tmp_path, capsys):
    capsys.readouterr()
    assert llm_eval(tmp_path / "v.jsonl", "http://127.0.0.1:9/v1", "--vision") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--web-mode browser" in err
    assert not (tmp_path / "v.jsonl").exists()


def test_step_files_and_html_keep_completion_tokens_and_latency(tmp_path, capsys):
    out = tmp_path / "s.jsonl"
    replies = iter([{"content": "```goto [/recipes]```", "reasoning_content": "First the recipe site."}])

    def policy(messages):
        return next(replies, None) or reasoned_stop(messages)

    with FakeOpenAI(policy) as server:
        assert llm_eval(out, server.base_url, "--save-steps") == 0
    rec = lines(out)[0]
    steps = lines(out.parent / "s.steps" / COOKING / f"llm-{rec['run_id']}" / f"{rec['task_id']}.jsonl")
    assert len(steps) == 3 and "agent" not in steps[0]  # the reset view has no agent side
    first, last = steps[1]["agent"], steps[2]["agent"]
    assert first["completion"] == "```goto [/recipes]```" and first["action"] == "goto [/recipes]"
    assert first["reasoning"] == "First the recipe site."  # the reply's reasoning field
    assert last["completion"] == reasoned_stop(None) and last["action"] == "stop"
    assert last["reasoning"] == "The dish cannot be made here."  # the text before the action
    for side in (first, last):
        assert side["prompt_tokens"] > 0 and side["completion_tokens"] > 0 and 0 < side["latency_s"] < 60
    assert sum(s["agent"]["prompt_tokens"] for s in steps[1:]) == rec["llm"]["prompt_tokens"]
    html = tmp_path / "r.html"
    capsys.readouterr()
    assert main(["report", str(out), "--no-process", "--html", str(html)]) == 0
    page = html.read_text()
    assert f"tokens: {last['prompt_tokens']} prompt + {last['completion_tokens']} completion" in page
    assert f"latency {last['latency_s']} s" in page
    assert "raw completion (" in page and "The dish cannot be made here." in page
    assert "First the recipe site." in page
