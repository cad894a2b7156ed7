"""The domain plug-in contract (issue 17): a domain declares its world, checker, oracle, optional heuristic,
prompt guidance and report family in one place; worlds declare their actions; and the example plug-in
domain of ``examples/plugin_domain`` (one folder + one TOML file, nothing else edited) runs end to end:
oracle, random, ``ewa eval --env all`` skipping its missing heuristic with a note, and ``ewa report``."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import pytest

from embodiedweb.domains.base import REPORT_FAMILIES, Domain
from embodiedweb.registration import load_specs
from embodiedweb.worlds.base import EmbodiedWorld

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "plugin_domain"
SPECS = load_specs()


# ------------------------------------------------------------------ the contract of the shipped domains
@pytest.mark.parametrize("spec", SPECS, ids=[s.id for s in SPECS])
def test_every_domain_declares_the_contract(spec):
    cls = spec.domain_class()
    assert issubclass(cls, Domain) and issubclass(cls.world, EmbodiedWorld)
    for w in getattr(cls.world, "parts", ()) or (cls.world,):  # a world that is one of several per episode
        assert w.action_specs and all(s.domain == w.kind for s in w.action_specs)
    # "other" only for a multi-turn domain, whose own table is the report's Turns table
    assert cls.report_family in REPORT_FAMILIES and (cls.report_family != "other" or cls.multi_turn)
    assert len(cls.prompt_guidance) > 40
    module, _, name = cls.heuristic.partition(":")
    assert callable(getattr(importlib.import_module(module), name, None))
    d = spec.load_domain()
    assert d.world_kind == cls.world.kind and isinstance(d.make_world(), cls.world)


def test_world_kind_is_only_the_worlds():
    """The world kind is declared once, by the world: a domain's ``world_kind`` reads it."""
    from embodiedweb.domains.outdoor import NavigationDomain

    assert isinstance(vars(Domain)["world_kind"], property)
    assert not any("world_kind" in vars(k) for s in SPECS for k in s.domain_class().__mro__ if k is not Domain)

    class Toy(EmbodiedWorld):
        kind = "toy"

    class ToyDomain(NavigationDomain):
        world = Toy

    assert ToyDomain().world_kind == "toy"


def test_heuristic_prompt_and_report_come_from_the_domain(monkeypatch):
    from baselines.heuristic import HeuristicAgent, heuristic_path
    from baselines.prompts import system_prompt
    from embodiedweb.domains.outdoor import NavigationDomain
    from embodiedweb.report.tables import env_family

    assert heuristic_path("EWA-Navigation-v0") == NavigationDomain.heuristic
    assert env_family("EWA-Navigation-v0") == "outdoor" and env_family("EWA-Unknown-v9") == "other"
    assert system_prompt(NavigationDomain(), "ACTIONS").startswith(NavigationDomain.prompt_guidance)
    monkeypatch.setattr(NavigationDomain, "heuristic", None)
    monkeypatch.setattr(NavigationDomain, "report_family", "geolocation")
    monkeypatch.setattr(NavigationDomain, "prompt_guidance", "Walk somewhere.")
    assert "declares none" in HeuristicAgent().skip_note("EWA-Navigation-v0")
    assert HeuristicAgent().skip_note("EWA-Shopping-v0") is None
    assert env_family("EWA-Navigation-v0") == "geolocation"
    assert system_prompt(NavigationDomain(), "ACTIONS").startswith("Walk somewhere.\n")


# ------------------------------------------------------------------ the example plug-in domain, end to end
@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """The example copied to a fresh folder (it needs nothing else of the repository) and registered
    through EWA_ENVS_PATH; the Gymnasium id is removed again afterwards."""
    folder = tmp_path / "plugins"
    shutil.copytree(EXAMPLE, folder, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setenv("EWA_ENVS_PATH", str(folder))
    monkeypatch.syspath_prepend(str(folder))
    yield folder
    gym.registry.pop("EWA-Errand-v0", None)
    for m in [m for m in sys.modules if m.startswith("ewa_errand")]:
        del sys.modules[m]


def test_the_example_registers_and_its_oracle_solves_every_task(plugin):
    from embodiedweb.evaluate import run_episode
    from embodiedweb.registration import register_all

    assert "EWA-Errand-v0" in register_all()
    env = gym.make("EWA-Errand-v0", web_mode="text")
    try:
        assert env.unwrapped.domain.world_kind == "street" and env.spec.max_episode_steps == 200
        assert env.unwrapped.describe_actions().count("## ") == 3  # web, street, meta
        tasks = env.unwrapped.tasks.tasks
        assert len(tasks) == 4 and {t.split for t in tasks} == {"train", "test"}
        for t in tasks:
            rec = run_episode(env, env.unwrapped.domain.oracle(t), t.task_id, seed=0)
            assert rec["metrics"]["overall"] and rec["metrics"]["completion"] == 1.0, (t.task_id, rec["metrics"])
        import random

        bad = run_episode(env, env.unwrapped.domain.oracle(tasks[0], random.Random(1)), tasks[0].task_id, seed=0)
        assert not bad["metrics"]["overall"]  # the perturbed oracle fails: the checker is not trivial
    finally:
        env.close()


def _ewa(args, env, cwd):
    return subprocess.run([sys.executable, "-m", "embodiedweb.cli", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=900)


def test_the_example_runs_through_ewa_eval_all_and_ewa_report(plugin, tmp_path):
    env = {**os.environ, "EWA_ENVS_PATH": str(plugin), "PYTHONPATH": str(ROOT)}
    out = tmp_path / "results"
    out.mkdir()
    listed = _ewa(["envs"], env, tmp_path)
    assert listed.returncode == 0 and "EWA-Errand-v0" in listed.stdout
    # make demo's loop: every env, heuristic included -- the plug-in domain declares none: skipped, noted
    r = _ewa(["eval", "--env", "all", "--agent", "heuristic", "--limit", "1", "--out", str(out / "heuristic.jsonl"),
              "--no-progress", "--json"], env, tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "note: no heuristic agent for EWA-Errand-v0: its domain 'errand' declares none (skipped)" in r.stderr
    res = json.loads(r.stdout.strip().splitlines()[-1])["results"]
    assert res["EWA-Errand-v0"]["episodes"] == 0 and "skipped" in res["EWA-Errand-v0"]
    assert all(v["episodes"] == 1 and "skipped" not in v for k, v in res.items() if k != "EWA-Errand-v0")
    assert len(res) == len(SPECS) + 1
    for agent in ("oracle", "random"):
        r = _ewa(["eval", "--env", "EWA-Errand-v0", "--agent", agent, "--split", "all", "--save-steps",
                  "--out", str(out / f"{agent}.jsonl"), "--no-progress", "--json"], env, tmp_path)
        assert r.returncode == 0, r.stderr[-2000:]
        res = json.loads(r.stdout.strip().splitlines()[-1])["results"]["EWA-Errand-v0"]
        assert res["episodes"] == 4 and res["overall"] == (1.0 if agent == "oracle" else 0.0), res
    r = _ewa(["report", *(str(out / f"{a}.jsonl") for a in ("oracle", "random", "heuristic")), "--json"],
             env, tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    numbers = json.loads(r.stdout.strip().splitlines()[-1])
    t3 = numbers["table3"]["EWA-Errand-v0"]  # report family "other": its own table of Table 3's columns
    assert t3["oracle"]["overall"] == 1.0 and t3["random"]["overall"] == 0.0 and "heuristic" not in t3
    assert numbers["notes"] == {"EWA-Errand-v0": ["heuristic: skipped, the domain 'errand' declares no heuristic"]}
    from embodiedweb.report import build_report

    tables = build_report([out / f"{a}.jsonl" for a in ("oracle", "random", "heuristic")], process=False).tables
    errand = next(t for t in tables if t.title == "Errand (EWA-Errand-v0)")
    assert [row[0] for row in errand.rows] == ["oracle", "random"]
    assert errand.caption.endswith("; note: heuristic: skipped, the domain 'errand' declares no heuristic")
