"""The EWA-Assistant-v0 heuristic: observations only, solves episodes of the test split, deterministic."""

from __future__ import annotations

import ast
from pathlib import Path

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401  (registers the envs)
from baselines.heuristic import HeuristicAgent, heuristic_path

ENV = "EWA-Assistant-v0"
ROOT = Path(__file__).resolve().parents[2]
#: what the heuristic's own code may not import or name: the catalogs, the domains (goals, checkers,
#: grounding), the generator, the world's internals, the task file
FORBIDDEN_IMPORTS = ("web_sites", "embodiedweb.domains", "embodiedweb.data_gen", "embodiedweb.worlds",
                     "embodiedweb.tasks", "embodiedweb.env", "embodiedweb.paths")
FORBIDDEN_NAMES = {"goal", "expect", "semantic_state", "task", "tasks", "unwrapped", "catalog", "snapshot",
                   "data_dir", "world", "webapp"}


class Sealed:
    """Stands in for the env in ``agent.reset``: any attribute access fails the test."""

    def __getattr__(self, name: str):
        raise AssertionError(f"the heuristic read env.{name}")


def _lean(info: dict) -> dict:
    """The info the agent is shown: only the env id (which heuristic) and the last action's error."""
    return {"env_id": info.get("env_id"), "last_action_error": info.get("last_action_error", "")}


def _run(env, task_id: str) -> tuple[list[str], dict]:
    """One episode; while the agent thinks, the task's expected results are gone (what a cheater would
    read), and they are back only inside ``env.step`` for the env's checker."""
    obs, info = env.reset(seed=0, options={"task_id": task_id})
    turns = env.unwrapped.task.goal["turns"]
    expects = [t["expect"] for t in turns]

    def hide() -> None:
        for t in turns:
            t["expect"] = {}

    def show() -> None:
        for t, e in zip(turns, expects, strict=True):
            t["expect"] = e

    agent = HeuristicAgent()
    hide()
    agent.reset(Sealed(), obs, _lean(info))
    actions: list[str] = []
    while True:
        hide()
        a = agent.act(obs, _lean(info))
        actions.append(a)
        show()
        obs, _, term, trunc, info = env.step(a)
        if term or trunc:
            return actions, info["metrics"]


def _imports_and_names(path: Path) -> tuple[set[str], set[str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    mods: set[str] = set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            mods |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            mods.add(node.module)
            mods |= {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.Name):
            names.add(node.id)
    return mods, names


def test_the_domain_declares_the_heuristic():
    assert heuristic_path(ENV) == "baselines.assistant_heuristic:AssistantHeuristic"


@pytest.mark.parametrize("module", ["assistant_heuristic", "kitchen_skills"])
def test_the_heuristic_reads_no_privileged_module_or_field(module):
    mods, names = _imports_and_names(ROOT / "baselines" / f"{module}.py")
    bad = sorted(m for m in mods if m.startswith(FORBIDDEN_IMPORTS))
    assert not bad, f"baselines/{module}.py imports {bad}"
    assert not names & FORBIDDEN_NAMES, f"baselines/{module}.py names {sorted(names & FORBIDDEN_NAMES)}"


@pytest.fixture(scope="module")
def env():
    e = gym.make(ENV)
    yield e
    e.close()


def test_the_heuristic_solves_test_episodes_from_observations_alone(env):
    tasks = [t.task_id for t in env.unwrapped.tasks if t.split == "test"][:30]
    assert len(tasks) == 30
    results = [_run(env, tid)[1] for tid in tasks]
    solved = sum(bool(m["overall"]) for m in results)
    assert solved >= 6, f"{solved}/30 solved"
    turn_success = sum(m["turn_success"] for m in results) / len(results)
    assert turn_success >= 0.4


def test_the_heuristic_is_deterministic(env):
    tasks = [t.task_id for t in env.unwrapped.tasks if t.split == "test"][:4]
    for tid in tasks:
        assert _run(env, tid) == _run(env, tid)
