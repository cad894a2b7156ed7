"""The EWA-Assistant-v0 heuristic: observations only, solves episodes of the test split, deterministic."""

from __future__ import annotations

import ast
from pathlib import Path

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401  (registers the envs)
from baselines.assistant_heuristic import intent, places_in, product_candidates
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


def _test_tasks(env, home: int, outing: int) -> list[str]:
    """The first ``home`` kitchen episodes and the first ``outing`` street episodes of the test split."""
    test = [t for t in env.unwrapped.tasks if t.split == "test"]
    street = [t.task_id for t in test if t.embodied.get("world") == "street"]
    kitchen = [t.task_id for t in test if t.embodied.get("world") != "street"]
    return kitchen[:home] + street[:outing]


def test_the_heuristic_solves_test_episodes_from_observations_alone(env):
    tasks = _test_tasks(env, 20, 10)
    assert len(tasks) == 30
    results = [_run(env, tid)[1] for tid in tasks]
    solved = sum(bool(m["overall"]) for m in results)
    assert solved >= 6, f"{solved}/30 solved"
    assert sum(bool(m["overall"]) for m in results[20:]) >= 2, "no outing solved"
    turn_success = sum(m["turn_success"] for m in results) / len(results)
    assert turn_success >= 0.4


def test_the_heuristic_is_deterministic(env):
    for tid in _test_tasks(env, 3, 2):
        assert _run(env, tid) == _run(env, tid)


#: requests in words none of the suite's phrasings use: the intent comes from cue words, not a template
@pytest.mark.parametrize(("text", "kind"), [
    ("Search for vegan recipes containing egg and open the top two, each in its own tab.", "open_two"),
    ("Please go back to the one that was ranked first.", "focus"),
    ("Which one of them needs less time? Name it.", "compare"),
    ("We ran out of what is in the fridge. Buy one more, cheapest product, cheapest store, pickup.", "order_food"),
    ("Grab me one Organic Whole Milk, 1 gal at the same store, pickup.", "same_store"),
    ("What did I order first?", "recall"),
    ("Open the fastest easy recipe using the food on the counter where the kettle is.", "quickest"),
    ("Move whatever is in the sink onto the dining table.", "move"),
    ("What is that museum over there, the one in view, called?", "name_seen"),
    ("Who was the architect?", "fact_architect"),
    ("What year did it open?", "fact_year"),
    ("Purchase a Glass Cleaner, 26 oz at the grocery store in sight, for pickup.", "order_seen"),
    ("Lead me there.", "walk_there"),
    ("Bring me back to the start.", "go_back"),
])
def test_the_intent_comes_from_cue_words(text, kind):
    assert intent(text) == kind


def test_slots_come_from_general_patterns():
    assert places_in("Move whatever is in the sink onto the counter where the salt shaker is.") == \
        [("SinkBasin", None), ("CounterTop", "SaltShaker")]
    assert product_candidates("Grab me one Organic Whole Milk, 1 gal at the same store, pickup.") == \
        ["Organic Whole Milk, 1 gal"]
    assert product_candidates("And a Jasmine Rice, 2 lb, please, from that same store.") == ["Jasmine Rice, 2 lb"]
