"""Versions that results carry: the suite version changes exactly when tasks, world, rules or settings do;
records carry it; a resumed run remeasures stale records; ``ewa report`` never averages two versions."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import gymnasium as gym
import pytest

import embodiedweb
from embodiedweb.cli import main
from embodiedweb.env import EmbodiedWebEnv
from embodiedweb.evaluate import evaluate
from embodiedweb.report import build_report
from embodiedweb.report.tables import MixedVersions
from embodiedweb.versions import suite_version, world_digest

NAV = "EWA-Navigation-v0"


def _env(**kw):
    return gym.make(NAV, **kw).unwrapped


def test_package_version_is_the_distribution_version():
    from importlib.metadata import version

    assert embodiedweb.__version__ == version("embodiedweb")


def test_suite_version_tracks_tasks_rules_world_and_settings(tmp_path):
    base = _env()
    v = base.suite_version
    assert v.startswith(f"c{base.domain.checker_version}-") and len(v.split("-")[1]) == 12
    assert _env().suite_version == v  # stable across instances
    assert _env(split="test").suite_version == v  # a split is a view of the same suite
    assert _env(max_steps=base.max_steps + 1).suite_version != v

    tasks = list(base._suite)
    changed = [dataclasses.replace(tasks[0], instruction=tasks[0].instruction + " ")] + tasks[1:]
    assert EmbodiedWebEnv(base.domain, changed, env_id=NAV).suite_version != \
        EmbodiedWebEnv(base.domain, tasks, env_id=NAV).suite_version
    settings = {"max_steps": base.max_steps}
    assert suite_version(tasks, 1, settings) != suite_version(tasks, 2, settings)

    # the world digest covers data files (not task files): one changed byte changes it
    (tmp_path / "city").mkdir()
    (tmp_path / "city" / "streets.json").write_text("{}")
    (tmp_path / "nav").mkdir()
    (tmp_path / "nav" / "tasks.jsonl").write_text("")
    d = world_digest(str(tmp_path))
    (tmp_path / "nav" / "tasks.jsonl").write_text("{}\n")
    assert world_digest.__wrapped__(str(tmp_path)) == d
    (tmp_path / "tables").mkdir()  # the generators' input tables: their effect is in the generated files
    (tmp_path / "tables" / "places.json").write_text("{}")
    assert world_digest.__wrapped__(str(tmp_path)) == d
    (tmp_path / "city" / "streets.json").write_text("{ }")
    assert world_digest.__wrapped__(str(tmp_path)) != d
    # a hard tier's world file (what only its sessions see) counts for the hard tier only
    d_std, d_hard = world_digest.__wrapped__(str(tmp_path)), world_digest.__wrapped__(str(tmp_path), "hard")
    assert d_std == d_hard
    (tmp_path / "city" / "hard.extra.json").write_text("[]")
    (tmp_path / "nav" / "hard.jsonl").write_text("{}\n")  # a hard task file counts for neither
    assert world_digest.__wrapped__(str(tmp_path)) == d_std
    assert world_digest.__wrapped__(str(tmp_path), "hard") != d_hard
    (tmp_path / "city" / "hard.extra.json").unlink()
    assert world_digest.__wrapped__(str(tmp_path), "hard") == d_hard


def test_records_carry_versions_and_stale_records_are_remeasured(tmp_path):
    out = tmp_path / "r.jsonl"
    _, recs = evaluate([NAV], "oracle", limit=2, out=out, progress=False)
    suite = _env().suite_version
    assert all(r["package_version"] == embodiedweb.__version__ and r["suite_version"] == suite for r in recs)

    # a record measured on another suite version is not "done": the rerun measures it again
    lines = out.read_text().splitlines()
    stale = json.loads(lines[0])
    stale["suite_version"] = "c0-000000000000"
    stale["metrics"]["overall"] = False
    out.write_text("\n".join([json.dumps(stale)] + lines[1:]) + "\n")
    _, recs = evaluate([NAV], "oracle", limit=2, out=out, progress=False)
    assert [r["suite_version"] for r in recs] == [suite, suite]
    assert all(r["metrics"]["overall"] for r in recs)
    rows = build_report([out], process=False).numbers["table2"]
    assert rows["oracle"][NAV]["overall"] == 1.0  # the new line wins over the stale one


def _write(path: Path, suites: list[str]) -> Path:
    with open(path, "w") as f:
        for i, s in enumerate(suites):
            f.write(json.dumps({"env_id": NAV, "task_id": f"t{i}", "agent": "a", "suite_version": s,
                                "package_version": "0.2.0", "metrics": {"overall": i % 2 == 0}}) + "\n")
    return path


def test_report_refuses_to_average_two_suite_versions(tmp_path, capsys):
    mixed = _write(tmp_path / "m.jsonl", ["c1-aaaaaaaaaaaa", "c1-bbbbbbbbbbbb"])
    with pytest.raises(MixedVersions, match="c1-aaaaaaaaaaaa, c1-bbbbbbbbbbbb"):
        build_report([mixed], process=False)
    assert main(["report", str(mixed), "--no-process"]) == 2
    assert "--mix-versions" in capsys.readouterr().err
    rep = build_report([mixed], process=False, mix_versions=True)
    assert rep.numbers["table2"]["a"][NAV]["episodes"] == 2
    versions = next(t for t in rep.tables if t.title == "Versions")
    assert versions.rows == [[NAV, "c1-aaaaaaaaaaaa, c1-bbbbbbbbbbbb", "0.2.0", "2"]]
    one = _write(tmp_path / "o.jsonl", ["c1-aaaaaaaaaaaa"] * 2)
    assert build_report([one], process=False).numbers["table2"]["a"][NAV]["episodes"] == 2


def test_a_lower_step_limit_through_gym_make_is_another_suite_version():
    import gymnasium as gym

    default = gym.make("EWA-Navigation-v0").unwrapped.suite_version
    same = gym.make("EWA-Navigation-v0", max_episode_steps=gym.spec("EWA-Navigation-v0").max_episode_steps)
    lower = gym.make("EWA-Navigation-v0", max_episode_steps=5)
    assert same.unwrapped.suite_version == default
    assert lower.unwrapped.step_limit == 5 and lower.unwrapped.suite_version != default
