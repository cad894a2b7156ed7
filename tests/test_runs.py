"""Run identity and errors apart from failures (issue 15 items 1 and 2), through ``ewa eval`` and ``ewa report``
against the fake OpenAI-compatible endpoint."""

from __future__ import annotations

import json

import pytest

import embodiedweb  # noqa: F401 - registers the env ids
from embodiedweb.cli import main
from embodiedweb.evaluate import summarize
from embodiedweb.report.tables import compute, label_runs
from tests.baselines.fake_openai import FakeOpenAI

COOKING = "EWA-Cooking-v0"


def stop_policy(messages):
    return "In summary, the next action I will perform is ```stop```"


def llm_eval(out, url, model, *extra):
    return main(["eval", "--env", COOKING, "--agent", "llm", "--llm-model", model, "--llm-base-url", url,
                 "--limit", "2", "--out", str(out), "--no-progress", "--json", *extra])


def lines(out):
    return [json.loads(x) for x in out.read_text().splitlines()]


def report_json(capsys, *args):
    capsys.readouterr()
    code = main(["report", *map(str, args), "--no-process", "--json"])
    return code, capsys.readouterr()


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch):
    monkeypatch.setattr("baselines.llm_agent.time.sleep", lambda s: None)  # retries of a dead endpoint: at once


def test_two_models_into_one_file_are_two_complete_runs(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    with FakeOpenAI(stop_policy) as server:
        assert llm_eval(out, server.base_url, "fake-a") == 0
        assert llm_eval(out, server.base_url, "fake-b") == 0  # not skipped as done
        models = [r["model"] for r in server.requests]
    assert models.count("fake-a") == 2 and models.count("fake-b") == 2
    recs = lines(out)
    assert len(recs) == 4 and len({r["run_id"] for r in recs}) == 2
    assert [r["run_label"] for r in recs] == ["llm:fake-a"] * 2 + ["llm:fake-b"] * 2
    assert all(r["status"] == "ok" for r in recs)
    s = recs[0]["run_settings"]
    assert s["agent_settings"]["model"] == "fake-a" and s["agent_settings"]["prompt_version"]
    assert s["web_mode"] == "text" and s["seed"] == 0
    assert "base_url" not in json.dumps(s) and "api_key" not in json.dumps(s)  # the endpoint is not the run
    with FakeOpenAI(stop_policy) as other:  # same model and settings elsewhere: the same run, resumed
        assert llm_eval(out, other.base_url, "fake-a") == 0 and not other.requests
    code, cap = report_json(capsys, out)
    assert code == 0
    rows = json.loads(cap.out.strip().splitlines()[-1])["table3"][COOKING]
    assert list(rows) == ["llm:fake-a", "llm:fake-b"] and all(r["episodes"] == 2 for r in rows.values())


def test_dead_endpoint_episodes_are_errors_and_retried(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    server = FakeOpenAI(stop_policy)  # its port is chosen but nothing listens yet: the endpoint is down
    assert llm_eval(out, server.base_url, "m") == 1
    cap = capsys.readouterr()
    summary = json.loads(cap.out.strip().splitlines()[-1])["results"][COOKING]
    assert summary["errors"] == 2 and summary["episodes"] == 0 and summary["overall"] is None  # not 0 %
    err = cap.err.strip().splitlines()[-1]
    assert err.startswith("ewa eval: 2 of 2 episode(s) ended in an error") and "--retry-errors" in err
    recs = lines(out)
    assert [r["status"] for r in recs] == ["error", "error"]
    assert all("APIConnectionError" in r["error"] for r in recs)
    code, rep = report_json(capsys, out)
    row = json.loads(rep.out.strip().splitlines()[-1])["accuracy"][COOKING]["llm:m"]
    assert code == 0 and row["episodes"] == 0 and row["errors"] == 2 and row["overall"] is None
    with server:
        assert llm_eval(out, server.base_url, "m") == 1 and not server.requests  # kept as errors by default
        assert llm_eval(out, server.base_url, "m", "--retry-errors") == 0 and len(server.requests) == 2
    assert [r["status"] for r in lines(out)[-2:]] == ["ok", "ok"]
    code, rep = report_json(capsys, out)
    row = json.loads(rep.out.strip().splitlines()[-1])["accuracy"][COOKING]["llm:m"]
    assert row["episodes"] == 2 and row["errors"] == 0


def rec(agent, task, overall, **kw):
    return {"env_id": COOKING, "task_id": task, "agent": agent, "seed": 0,
            "metrics": {"overall": overall, "web": overall, "embodied": overall, "completion": float(overall)}, **kw}


def test_error_episodes_are_not_in_accuracy():
    recs = [rec("llm", "c1", True, run_id="x", status="ok"),
            rec("llm", "c2", False, run_id="x", status="error", error="APIConnectionError: down")]
    assert summarize(recs)[COOKING] == {"episodes": 1, "errors": 1, "overall": 1.0, "web": 1.0, "embodied": 1.0,
                                        "completion": 1.0}
    label_runs(recs)
    row = compute(recs)["accuracy"][COOKING]["llm"]
    assert row["episodes"] == 1 and row["errors"] == 1 and row["overall"] == 1.0


def test_report_refuses_two_runs_under_one_label(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    for seed in ("0", "1"):
        assert main(["eval", "--env", COOKING, "--agent", "random", "--limit", "2", "--seed", seed, "--out", str(out),
                     "--no-progress"]) == 0
    recs = lines(out)
    assert len(recs) == 4 and len({r["run_id"] for r in recs}) == 2  # the second seed is a run of its own
    code, cap = report_json(capsys, out)
    assert code == 2 and cap.err.count("\n") == 1
    assert "different runs would be merged into one row (random:" in cap.err and "--split-runs" in cap.err
    capsys.readouterr()
    assert main(["report", str(out), "--no-process", "--json", "--split-runs"]) == 0
    rows = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["table3"][COOKING]
    assert sorted(rows) == sorted(f"random#{r['run_id'][:6]}" for r in recs[::2])
    # distinct labels given at eval time are rows of their own, no flag needed
    assert main(["eval", "--env", COOKING, "--agent", "random", "--limit", "2", "--seed", "2", "--out", str(out),
                 "--no-progress", "--run-label", "random-s2"]) == 0
    code, cap = report_json(capsys, tmp_path / "r.jsonl", "--split-runs")
    assert "random-s2" in json.loads(cap.out.strip().splitlines()[-1])["table3"][COOKING]


def test_old_records_without_run_id_load_as_their_agent(tmp_path, capsys):
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps(rec("oracle", t, True)) + "\n" for t in ("c1", "c2")))
    code, cap = report_json(capsys, old)
    assert code == 0 and json.loads(cap.out.strip().splitlines()[-1])["table3"][COOKING]["oracle"]["episodes"] == 2
    # a new oracle run beside them is another run under the same label: refused, or split apart
    assert main(["eval", "--env", COOKING, "--agent", "oracle", "--limit", "2", "--out", str(old),
                 "--no-progress"]) == 0
    assert len(lines(old)) == 4  # the old records are not this run's: it ran its own episodes
    code, cap = report_json(capsys, old)
    assert code == 2 and "agent:oracle" in cap.err
    code, cap = report_json(capsys, old, "--split-runs")
    rows = json.loads(cap.out.strip().splitlines()[-1])["table3"][COOKING]
    assert "oracle#old" in rows and len(rows) == 2


def test_parallel_runs_keep_models_apart_and_retry_errors(tmp_path):
    """The same with ``--workers 2``: runs apart, errors kept, then retried (their lines replaced)."""
    from embodiedweb.evaluate import evaluate

    out = tmp_path / "p.jsonl"
    server = FakeOpenAI(stop_policy)
    kw = {"limit": 2, "out": out, "progress": False, "workers": 2}
    dead = {"base_url": server.base_url, "model": "m", "max_retries": 0}  # retries are not the run's identity
    summary, recs = evaluate([COOKING], "llm", agent_kwargs=dead, **kw)
    assert summary[COOKING]["errors"] == 2 and [r["status"] for r in recs] == ["error", "error"]
    with server:
        _, again = evaluate([COOKING], "llm", agent_kwargs=dead, **kw)
        assert again == recs and not server.requests
        _, fixed = evaluate([COOKING], "llm", agent_kwargs=dead, retry_errors=True, **kw)
        other = {"base_url": server.base_url, "model": "n"}
        _, second = evaluate([COOKING], "llm", agent_kwargs=other, **kw)
        assert len(server.requests) == 4
    assert [r["status"] for r in fixed + second] == ["ok"] * 4
    assert {r["run_id"] for r in fixed} == {recs[0]["run_id"]} != {r["run_id"] for r in second}
    assert [(r["run_label"], r["status"]) for r in lines(out)] == [("llm:m", "ok")] * 2 + [("llm:n", "ok")] * 2


def test_html_viewer_marks_error_episodes(tmp_path):
    from embodiedweb.report import build_report
    from embodiedweb.report.html import write_html

    out = tmp_path / "e.jsonl"
    out.write_text(json.dumps(rec("llm", "c1", False, run_id="abc", run_label="llm:m", status="error",
                                  error="APIConnectionError: Connection error.")) + "\n")
    d = tmp_path / "e.steps" / COOKING / "llm-abc"
    d.mkdir(parents=True)
    (d / "c1.jsonl").write_text(json.dumps({"step": 0, "action": None, "active": "web", "web_url": "u", "error": "",
                                            "message": "", "text": "t", "changes": {}}) + "\n")
    report = build_report([out], process=False)
    html = write_html(report, tmp_path / "e.html", [str(out)]).read_text()
    assert "ended by an agent/endpoint error: APIConnectionError: Connection error." in html
    assert "llm:m · c1" in html
