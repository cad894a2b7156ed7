"""EWA-Cooking-v0: task suite, checker discrimination, oracle, negative controls."""

from __future__ import annotations

import json
import random

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401
from embodiedweb.domains.cooking.oracle import CookingOracle
from embodiedweb.evaluate import run_episode
from embodiedweb.tasks import TaskError, load_tasks


@pytest.fixture(scope="module")
def env():
    e = gym.make("EWA-Cooking-v0")
    yield e
    e.close()


def test_suite_size_and_variants(env):
    tasks = env.unwrapped.tasks.tasks
    assert len(tasks) >= 900
    assert sum(1 for t in tasks if t.goal.get("missing")) >= 100
    assert {t.split for t in tasks} == {"train", "test"}
    # both recipes of a confounder pair share a split
    by_pair: dict[str, set[str]] = {}
    for t in tasks:
        if t.meta.get("pair_id"):
            by_pair.setdefault(t.meta["pair_id"], set()).add(t.split)
    assert all(len(s) == 1 for s in by_pair.values())


def test_oracle_solves_every_task(env):
    base = env.unwrapped
    failures = []
    for t in base.tasks:
        rec = run_episode(env, base.domain.oracle(t), t.task_id, seed=1)
        if not rec["metrics"]["overall"] or rec.get("agent_errors"):
            failures.append((t.task_id, rec.get("agent_errors"),
                             [c for c, ok in rec["metrics"].get("conditions", {}).items() if not ok]))
    assert not failures, failures[:5]


def _episode(env, agent, task_id):
    return run_episode(env, agent, task_id, seed=0)["metrics"]


class _WrongRecipe(CookingOracle):
    """Cooks the right dish but opens the confounder recipe on the web."""

    def __init__(self, task):
        super().__init__(task)
        self.skip = ("wrong_recipe", 0)
        self.rng = random.Random(0)


class _WrongReceptacle(CookingOracle):
    """Follows the right recipe but leaves the food on a counter top instead of the dish."""

    def place(self, otype, state):
        target = self.first(otype, **state)
        if target is None:
            return
        yield from self.fetch(target)
        yield from self.free_hands()


class _TwoDishes(CookingOracle):
    """Serves each component in a different dish of the right type."""

    used: list[str] = []

    def place(self, otype, state):
        objs = self.objects()
        dishes = sorted(o["objectId"] for o in objs.values() if o["objectType"] == self.recipe["dish"])
        fresh = [d for d in dishes if d not in self.used] or dishes
        self.dish_id = fresh[0]
        self.used = [*self.used, fresh[0]]
        for pid in objs[self.dish_id]["parentReceptacles"]:
            if objs[pid]["objectType"] in ("Cabinet", "Fridge", "Microwave", "Drawer"):
                yield from self.fetch(self.dish_id)
                yield from self.free_hands()
                break
        yield from super().place(otype, state)


class _WrongAppliance(CookingOracle):
    """Cooks with the other appliance than the recipe says (pan instead of toaster, ...)."""

    def cook(self, otype, how):
        yield from super().cook(otype, {"toaster": "pan", "pan": "microwave", "pot": "microwave",
                                        "microwave": "pan"}[how])


def test_right_state_wrong_recipe_fails_web(env):
    t = next(t for t in env.unwrapped.tasks if t.meta.get("pair_id") and not t.goal.get("missing"))
    m = _episode(env, _WrongRecipe(t), t.task_id)
    assert m["embodied"] and not m["web"] and not m["overall"]


def test_right_recipe_wrong_receptacle_fails_embodied(env):
    t = next(t for t in env.unwrapped.tasks if not t.goal.get("missing"))
    m = _episode(env, _WrongReceptacle(t), t.task_id)
    assert m["web"] and not m["embodied"] and not m["overall"]
    assert 0 < m["completion"] < 1


def test_components_in_two_dishes_fail_embodied(env):
    import dataclasses

    from embodiedweb.domains.cooking import CookingDomain
    from embodiedweb.env import EmbodiedWebEnv
    from web_sites.recipes import catalog

    t = next(t for t in env.unwrapped.tasks if not t.goal.get("missing") and t.meta["n_steps"] >= 4)
    dish = catalog.get(t.goal["recipe_id"])["dish"]
    t2 = dataclasses.replace(t, task_id="two-dishes", embodied={**t.embodied, "add": [{"type": dish, "on": "CounterTop"}]})
    e2 = EmbodiedWebEnv(CookingDomain(), [t2], max_steps=200)
    m = _episode(e2, _TwoDishes(t2), "two-dishes")
    e2.close()
    assert m["web"] and not m["embodied"]
    m = _episode(env, CookingOracle(t), t.task_id)
    assert m["overall"]


def test_wrong_appliance_fails_embodied(env):
    t = next(t for t in env.unwrapped.tasks if t.meta.get("pair_id") and not t.goal.get("missing")
             and t.meta["constraint"]["filter"] == "equipment")
    m = _episode(env, _WrongAppliance(t), t.task_id)
    assert m["web"] and not m["embodied"]


def test_negative_controls(env):
    from baselines.perturbed import PerturbedOracle
    from baselines.random_agent import RandomAgent

    tasks = env.unwrapped.tasks.tasks[::10]
    rand = [_episode(env, RandomAgent(seed=3), t.task_id) for t in tasks]
    pert = [_episode(env, PerturbedOracle(seed=3), t.task_id) for t in tasks]
    assert sum(m["overall"] for m in rand) / len(rand) <= 0.02
    assert sum(m["overall"] for m in pert) / len(pert) <= 0.05
    assert sum(m["completion"] for m in pert) / len(pert) > 0.3  # perturbed does most of the work


def test_bad_task_files_name_task_and_field(tmp_path):
    from embodiedweb.domains.cooking import CookingDomain

    good = {"task_id": "t1", "env_id": "EWA-Cooking-v0", "instruction": "cook",
            "embodied": {"kitchen_id": "kitchen_00"}, "goal": {"recipe_id": "r001"}}
    cases = [({"goal": {"recipe_id": "r999"}}, "goal.recipe_id"),
             ({"embodied": {"kitchen_id": "kitchen_99"}}, "embodied.kitchen_id"),
             ({"goal": {"recipe_id": "r001", "missing": "Banana"}}, "goal.missing"),
             ({"split": "everything"}, "split"), ({"instruction": ""}, "instruction"), ({"color": "red"}, "color")]
    for patch, field in cases:
        p = tmp_path / "tasks.jsonl"
        p.write_text(json.dumps({**good, **patch}) + "\n")
        with pytest.raises(TaskError) as e:
            load_tasks(p, CookingDomain().validate_task)
        assert "t1" in str(e.value) and field in str(e.value), str(e.value)
    p = tmp_path / "bad.jsonl"
    p.write_text("{not json\n")
    with pytest.raises(TaskError, match="bad.jsonl:1"):
        load_tasks(p)


def test_heuristic_reads_only_observations_and_beats_random(env):
    from baselines.heuristic import HeuristicAgent

    tasks = [t for t in env.unwrapped.tasks.tasks[::25] if not t.goal.get("missing")]
    ms = [_episode(env, HeuristicAgent(), t.task_id) for t in tasks]
    assert sum(m["overall"] for m in ms) / len(ms) >= 0.2
    assert sum(m["completion"] for m in ms) / len(ms) >= 0.5


def test_a_step_the_kitchen_cannot_do_is_an_error_naming_recipe_and_step(tmp_path):
    from embodiedweb.domains.cooking import CookingDomain
    from embodiedweb.domains.cooking.feasibility import check_feasible, kitchen_inventory
    from web_sites.recipes import catalog

    toast = next(r for r in catalog.recipes() if any(op.get("how") == "toaster" for s in r["steps"] for op in s["ops"]))
    kitchen = next(k for k in (f"kitchen_{i:02d}" for i in range(30)) if "Toaster" not in kitchen_inventory(k))
    with pytest.raises(ValueError) as e:
        check_feasible(toast, kitchen, set(kitchen_inventory(kitchen)))
    step = next(i for i, s in enumerate(toast["steps"], 1) if any(op.get("how") == "toaster" for op in s["ops"]))
    assert f"recipe {toast['recipe_id']} step {step}" in str(e.value) and "Toaster" in str(e.value)
    p = tmp_path / "tasks.jsonl"
    p.write_text(json.dumps({"task_id": "t1", "env_id": "EWA-Cooking-v0", "instruction": "cook",
                             "embodied": {"kitchen_id": kitchen}, "goal": {"recipe_id": toast["recipe_id"]}}) + "\n")
    with pytest.raises(TaskError, match=f"t1.*{kitchen}.*step {step}"):
        load_tasks(p, CookingDomain().validate_task)


def test_generated_suite_matches_the_file_and_every_task_is_feasible():
    from embodiedweb.data_gen.cooking_tasks import generate
    from embodiedweb.paths import data_dir

    lines = (data_dir() / "cooking" / "tasks.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(x) for x in lines] == generate()


def test_same_name_recipes_are_never_the_same_dish():
    """A dish can be judged as one version only if no two versions share every final condition."""
    from web_sites.recipes import catalog

    seen: dict[tuple, str] = {}
    for r in catalog.recipes():
        key = (r["name"], tuple(sorted(json.dumps(c, sort_keys=True) for c in r["final"])))
        assert key not in seen, (r["recipe_id"], seen.get(key))
        seen[key] = r["recipe_id"]
