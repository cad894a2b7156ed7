"""Accuracy tables on synthetic records (exact numbers), the `ewa report` CLI and the HTML report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from embodiedweb.cli import main
from embodiedweb.report import build_report
from embodiedweb.report.html import write_html
from embodiedweb.report.tables import compute, env_family, env_label, load_records


def rec(env: str, agent: str, task: str, **m: object) -> dict:
    base = {"overall": False, "web": False, "embodied": False, "completion": 0.0, "steps": 10}
    return {"env_id": env, "agent": agent, "task_id": task, "seed": 0, "metrics": {**base, **m}}


SYNTH = [
    rec("EWA-Cooking-v0", "oracle", "c1", overall=True, web=True, embodied=True, completion=1.0, steps=30),
    rec("EWA-Cooking-v0", "oracle", "c2", overall=True, web=True, embodied=True, completion=1.0, steps=40),
    rec("EWA-Cooking-v0", "random", "c1", web=True, completion=0.5, steps=100),
    rec("EWA-Cooking-v0", "random", "c2", completion=0.25, steps=100),
    rec("EWA-Cooking-v0", "human", "c1", overall=True, web=True, embodied=True, completion=1.0, steps=50),
    rec("EWA-Navigation-v0", "random", "n1", embodied=True, completion=0.5),
    rec("EWA-Navigation-v0", "human", "n1", overall=True, web=True, embodied=True, completion=1.0),
    rec("EWA-Shopping-v0", "random", "s1", web=True, completion=0.2),
    rec("EWA-Shopping-v0", "random", "s2", completion=0.0),
    rec("EWA-Traveling-v0", "human", "t1", overall=True, web=True, embodied=True, completion=1.0),
    rec("EWA-Geolocation-v0", "random", "g1", continent=True, country=True, city=False, street=False,
        distance_km=100.0, geoguessr_score=4000),
    rec("EWA-Geolocation-v0", "random", "g2", continent=True, country=False, city=False, street=False,
        distance_km=3000.0, geoguessr_score=1000),
    rec("EWA-Geolocation-v0", "human", "g1", continent=True, country=True, city=True, street=True, overall=True,
        distance_km=0.5, geoguessr_score=5000),
]


def write(path: Path, records: list[dict], cut: bool = False) -> Path:
    with open(path, "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
        if cut:
            f.write(json.dumps(records[0])[:25])
    return path


def test_env_family_and_label():
    assert env_family("EWA-Cooking-v0") == "cooking" and env_label("EWA-Cooking-v0") == "Cooking"
    assert {env_family(f"EWA-{n}-v0") for n in ("Navigation", "Shopping", "Traveling")} == {"outdoor"}
    assert env_family("EWA-Geolocation-v0") == "geolocation" and env_family("EWA-Laundry-v1") == "other"


def test_tables_exact_numbers(tmp_path):
    a = write(tmp_path / "a.jsonl", SYNTH[:8], cut=True)  # a cut last line is skipped
    b = write(tmp_path / "b.jsonl", SYNTH[8:] + [SYNTH[3]])  # a duplicate key counts once (last wins)
    records = load_records([a, b])
    assert len(records) == len(SYNTH)
    n = compute(records)
    t3 = n["table3"]["EWA-Cooking-v0"]
    assert list(t3) == ["oracle", "random", "human"]  # agents in the paper's order, human last
    assert t3["oracle"] == {"episodes": 2, "errors": 0, "overall": 1.0, "web": 1.0, "embodied": 1.0, "completion": 1.0,
                            "steps": 35.0}
    assert t3["random"] == {"episodes": 2, "errors": 0, "overall": 0.0, "web": 0.5, "embodied": 0.0, "completion": 0.375,
                            "steps": 100.0}
    assert t3["human"]["overall"] == 1.0
    t2 = n["table2"]
    assert list(t2) == ["random", "human"]
    assert t2["random"]["EWA-Shopping-v0"]["web"] == 0.5 and t2["random"]["EWA-Shopping-v0"]["completion"] == 0.1
    assert t2["random"]["EWA-Navigation-v0"]["embodied"] == 1.0
    assert set(t2["human"]) == {"EWA-Navigation-v0", "EWA-Traveling-v0"}
    g = n["table4"]["EWA-Geolocation-v0"]
    assert g["random"]["continent"] == 1.0 and g["random"]["country"] == 0.5 and g["random"]["city"] == 0.0
    assert g["random"]["distance_km"] == 1550.0 and g["random"]["geoguessr_score"] == 2500.0
    assert g["human"]["street"] == 1.0 and g["human"]["overall"] == 1.0


def test_report_cli_json_last_line(tmp_path, capsys):
    a = write(tmp_path / "a.jsonl", SYNTH)
    html = tmp_path / "r.html"
    assert main(["report", str(a), "--json", "--html", str(html)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    numbers = json.loads(out[-1])
    assert numbers["table3"]["EWA-Cooking-v0"]["random"]["completion"] == 0.375
    assert numbers["table4"]["EWA-Geolocation-v0"]["human"]["geoguessr_score"] == 5000.0
    assert numbers["accuracy"]["EWA-Shopping-v0"]["random"]["episodes"] == 2
    # no trace files: failures are counted but not classified
    assert numbers["taxonomy"]["EWA-Cooking-v0"]["random"]["without_trace"] == 2
    text = html.read_text()
    assert "Table 2 · Outdoor" in text and "Table 4 · Geolocation" in text and "data:image/png;base64," in text


def test_report_missing_file_is_an_error(tmp_path):
    with pytest.raises(SystemExit):
        main(["report", str(tmp_path / "nope.jsonl")])


def test_html_report_has_tables_plots_and_viewer(cooking_run, tmp_path):
    report = build_report([cooking_run], oracle_cache=tmp_path / "oracle")
    assert any(t.title.startswith("Table 3") for t in report.tables)
    assert any(t.title.startswith("Process metrics") for t in report.tables)
    assert any(t.title.startswith("Error taxonomy") for t in report.tables)
    out = write_html(report, tmp_path / "report.html", [str(cooking_run)])
    html = out.read_text()
    assert html.count("<table") >= 5
    assert html.count("data:image/png;base64,") >= 4  # accuracy, completion, steps, taxonomy
    assert "Trajectory viewer" in html and html.count('class="ep"') == 12
    assert "switch_environment" in html and "observation text" in html
    assert "Instruction-action misalignment" in html
    # the oracle's traces were cached per env + task + seed
    assert len(list((tmp_path / "oracle" / "EWA-Cooking-v0").glob("*.trace.jsonl"))) == 4
    n = report.numbers
    assert n["process"]["EWA-Cooking-v0"]["oracle"]["coverage"] == 1.0
    assert n["process"]["EWA-Cooking-v0"]["oracle"]["bifurcation_rate"] == 0.0
    assert n["process"]["EWA-Cooking-v0"]["random"]["bifurcation_rate"] == 1.0
    for per in n["taxonomy"].values():
        for s in per.values():
            assert sum(s["primary"].values()) == pytest.approx(1.0)
            assert sum(s["primary_counts"].values()) == s["failures"]


def test_viewer_shows_thumbnails_and_errors(tmp_path):
    a = write(tmp_path / "h.jsonl", [rec("EWA-Cooking-v0", "human", "c9", completion=0.5)])
    d = tmp_path / "h.steps" / "EWA-Cooking-v0" / "human"
    d.mkdir(parents=True)
    views = [{"step": 0, "action": None, "active": "web", "web_url": "http://ewa.local/", "error": "", "message": "",
              "text": "[1] link 'Recipes'", "changes": {}, "web_screenshot": "iVBORw0KGgoAAAANSUhEUgAAAAE="},
             {"step": 1, "action": "PickupObject [Apple]", "active": "embodied", "web_url": "http://ewa.local/",
              "error": "Apple is not visible", "message": "", "text": "You see a fridge <b>", "changes": {},
              "embodied_image": "iVBORw0KGgoAAAANSUhEUgAAAAI="}]
    (d / "c9.jsonl").write_text("".join(json.dumps(v) + "\n" for v in views))
    html = write_html(build_report([a], process=False), tmp_path / "h.html", [str(a)]).read_text()
    assert 'alt="web" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAE="' in html
    assert 'alt="embodied" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAI="' in html
    assert "error: Apple is not visible" in html and "You see a fridge &lt;b&gt;" in html  # text is escaped


def test_standard_and_hard_runs_are_rows_side_by_side(tmp_path):
    """One agent's runs on the standard and the hard tier (other run ids, other suite versions) are two rows
    of the same table, labelled with the tier, never merged and never refused as mixed."""
    std = [{**rec("EWA-Shopping-v0", "oracle", f"s{i}", overall=True, completion=1.0), "run_id": "aaa",
            "suite_version": "c1-x", "level": "standard"} for i in range(2)]
    hard = [{**rec("EWA-Shopping-v0", "oracle", f"shop-hard-{i}", overall=i == 0, completion=0.5),
             "run_id": "bbb", "suite_version": "c1-x-hard", "level": "hard"} for i in range(2)]
    report = build_report([write(tmp_path / "r.jsonl", std + hard)], process=False)
    per = report.numbers["table2"]
    assert per["oracle"]["EWA-Shopping-v0"]["overall"] == 1.0
    assert per["oracle · hard"]["EWA-Shopping-v0"]["overall"] == 0.5
