"""Human play in `ewa report`: one record per participant and task, accuracy with participants and a
95 % Wilson interval, and step files kept apart per participant."""

from __future__ import annotations

import json

import pytest

from embodiedweb.cli import main
from embodiedweb.report import build_report
from embodiedweb.report.process import steps_file
from embodiedweb.report.tables import load_records, wilson_interval
from embodiedweb.runs import human_identity


def human(task: str, pid: str | None, overall: bool, env: str = "EWA-Cooking-v0") -> dict:
    r = {"env_id": env, "task_id": task, "agent": "human", **human_identity(), "status": "ok", "seed": 0,
         "suite_version": "s1", "metrics": {"overall": overall, "web": overall, "embodied": overall,
                                            "completion": 1.0 if overall else 0.0, "steps": 5}}
    if pid is not None:
        r["participant"] = pid
    return r


def test_wilson_interval_known_values():
    lo, hi = wilson_interval(8, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.4902, 0.9433)
    lo, hi = wilson_interval(0, 5)  # not empty at 0 %
    assert lo == 0.0 and round(hi, 4) == 0.4345
    lo, hi = wilson_interval(5, 5)
    assert round(lo, 4) == 0.5655 and hi == 1.0
    lo, hi = wilson_interval(77, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.6785, 0.8416)
    assert wilson_interval(0, 0) is None


def test_two_participants_on_one_task_both_count(tmp_path):
    out = tmp_path / "human.jsonl"
    recs = [human("c1", "ann", True), human("c1", "bob", False), human("c2", "ann", True),
            human("c2", "ann", True),  # ann's c2 written twice: one episode (the later line)
            human("c1", "cy", True), {**human("c3", "dee", True), "status": "error", "error": "boom"}]
    out.write_text("".join(json.dumps(r) + "\n" for r in recs))
    assert len(load_records([out])) == 5
    rep = build_report([out], process=False)
    h = rep.numbers["human"]["EWA-Cooking-v0"]["human"]
    assert h["episodes"] == 4 and h["errors"] == 1 and h["participants"] == 3 and h["overall"] == 0.75
    lo, hi = wilson_interval(3, 4)
    assert h["ci95"] == [round(lo, 4), round(hi, 4)]
    [t] = [t for t in rep.tables if t.title == "Human accuracy"]
    assert t.columns[2:4] == ["Participants", "Episodes"] and t.rows == [
        ["Cooking", "human", "3", "4", "1", "75.0", f"{100 * lo:.1f}–{100 * hi:.1f}"]]
    assert "human" not in rep.numbers or all("oracle" not in per for per in rep.numbers["human"].values())


def test_agent_records_still_dedupe_by_run_and_have_no_human_row(tmp_path):
    out = tmp_path / "oracle.jsonl"
    r = {"env_id": "EWA-Cooking-v0", "task_id": "c1", "agent": "oracle", "run_id": "r1", "run_label": "oracle",
         "suite_version": "s1", "metrics": {"overall": True}}
    out.write_text(json.dumps({**r, "metrics": {"overall": False}}) + "\n" + json.dumps(r) + "\n")
    [only] = load_records([out])
    assert only["metrics"]["overall"] is True  # the later line wins, as before
    assert build_report([out], process=False).numbers["human"] == {}


def test_human_step_files_are_kept_per_participant(tmp_path):
    out = tmp_path / "human.jsonl"
    a, b = human("c1", "ann", True), human("c1", "bob", False)
    out.write_text(json.dumps(a) + "\n" + json.dumps(b) + "\n")
    for r in (a, b):
        d = tmp_path / "human.steps" / "EWA-Cooking-v0" / f"human-{r['run_id']}" / r["participant"]
        d.mkdir(parents=True)
        (d / "c1.jsonl").write_text("{}\n")
    files = {rec["participant"]: steps_file(rec) for rec in load_records([out])}
    assert files["ann"] != files["bob"] and all(files.values())


@pytest.mark.parametrize("flag", [[], ["--no-process"]])
def test_report_cli_prints_the_human_table(tmp_path, capsys, flag):
    out = tmp_path / "human.jsonl"
    out.write_text("".join(json.dumps(human(t, p, p != "bob")) + "\n" for t in ("c1", "c2") for p in ("ann", "bob")))
    assert main(["report", str(out), "--json", *flag]) == 0
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert last["human"]["EWA-Cooking-v0"]["human"]["participants"] == 2
