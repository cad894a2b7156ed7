"""The cooking hard tier (issue 22, item 3): long recipes cooked several ways, food put away in closed
cupboards and the fridge, leftovers that match the recipe's components, a second kind of dish, and a missing
ingredient the instruction does not name.

What is shown here: the generator reproduces the shipped file; every task's kitchen is what the task says
(each fresh ingredient hidden in a closed receptacle, the leftovers in sight and made before the episode, the
missing ingredient nowhere); the oracle solves every task through the action interface; the perturbed oracle
and random play fail; the shortcut agents fail (and break the part their idea must break); the genuine
alternatives pass; a blind guess at the missing ingredient passes exactly when it is right; the standard
tier's cooking shortcuts fail on hard tasks too; the order rule and bad task files.
"""

from __future__ import annotations

import json
import random
from typing import Any

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401  (registers the envs)
from embodiedweb.data_gen import hard_cooking as gen
from embodiedweb.data_gen import recipes as recipe_gen
from embodiedweb.data_gen.cooking_tasks import split_of
from embodiedweb.domains.cooking.checker import HEAT_SOURCE
from embodiedweb.domains.cooking.domain import CookingDomain
from embodiedweb.domains.cooking.oracle import CookingOracle, leftover
from embodiedweb.paths import data_dir
from embodiedweb.tasks import Task, TaskError, load_tasks
from embodiedweb.worlds.kitchen.world import SETUP_TIME, KitchenWorld
from tests.domains.cooking import redteam as rt
from tests.domains.cooking import redteam_hard as rh
from tests.redteam import broken_parts, failures
from web_sites.recipes import catalog

COOK = "EWA-Cooking-v0"
#: carried-out episodes per red-team agent (test split first)
WANT = 40


@pytest.fixture(scope="module")
def env():
    e = gym.make(COOK, level="hard")
    yield e
    e.close()


@pytest.fixture(scope="module")
def hard_tasks() -> list[Task]:
    return rh.hard_tasks()


def play(env: Any, agent: Any, task_id: str, seed: int = 0) -> dict[str, Any]:
    obs, info = env.reset(seed=seed, options={"task_id": task_id})
    agent.reset(env, obs, info)
    done = False
    while not done:
        obs, _, term, trunc, info = env.step(agent.act(obs, info))
        done = term or trunc
    return info["metrics"]


def test_generator_reproduces_the_shipped_file():
    assert gen.render(gen.generate()) == (data_dir() / "cooking" / "hard.jsonl").read_text(encoding="utf-8")


def test_tier_shape(hard_tasks):
    """Ids, splits (the standard tier's, by recipe name), recipes of 8-15 steps cooked several ways, half the
    tasks with an unnamed missing ingredient, and instructions that never name it."""
    numbers = [int(t.task_id.removeprefix("cook-hard-")) for t in hard_tasks]
    assert [t.task_id for t in hard_tasks] == [f"cook-hard-{n:03d}" for n in numbers]
    assert numbers == sorted(set(numbers))
    assert len(hard_tasks) >= 120
    standard = {t.goal["recipe_id"]: t.split for t in rt.all_tasks()}
    missing = 0
    for t in hard_tasks:
        r = catalog.get(t.goal["recipe_id"])
        assert gen.eligible(r) and 8 <= gen.MIN_STEPS <= len(r["steps"]) <= 15
        if r["recipe_id"] in standard:  # a recipe of the standard collection: the standard tier's split
            assert t.split == standard[r["recipe_id"]] and "sites" not in t.web
        else:  # a long recipe of the site's hard shelf, which the task's sessions are shown
            assert t.split == split_of(r["name"]) and t.web["sites"] == {"recipes": {"extra": gen.RECIPE_SHELF}}
            assert 10 <= len(r["steps"]) <= 15
            words = r["name"].split()
            assert all(a != b for a, b in zip(words, words[1:], strict=False)), r["name"]  # "Feast Feast"
            assert len({HEAT_SOURCE[op["how"]] for s in r["steps"] for op in s["ops"] if op["op"] == "cook"}) >= 3
        assert t.goal["missing_told"] is False
        if t.goal["missing"]:
            missing += 1
            assert t.goal["missing"].lower() not in t.instruction.lower().split("“")[0]
            assert "has no" not in t.instruction
    assert missing == len(hard_tasks) // 2
    shelf = [t for t in hard_tasks if t.goal["recipe_id"] not in standard]
    assert len(shelf) >= 40 and {t.split for t in shelf} == {"train", "test"}
    # the shelf's tasks come last, and ids are never reused: the 40 tasks of 7-step recipes the tier's first
    # version had are retired, every other task keeps its id (the file's lines of the kept tasks are unchanged)
    assert numbers[len(hard_tasks) - len(shelf):] == list(range(134, 182))
    retired = set(range(134)) - set(numbers)
    assert len(retired) == 40 and all(n < 134 for n in numbers[: len(hard_tasks) - len(shelf)])
    with pytest.raises(gym.error.Error, match="standard, hard"):
        gym.make(COOK, level="expert")


def test_recipe_files_are_the_generators():
    assert recipe_gen.main(["--check"]) == 0


def test_only_a_hard_session_sees_the_shelf_of_long_recipes():
    """The long recipes are on the site for the hard tier's sessions only: a standard session's search, pages
    and counts are the standard collection's (its tasks' traces do not change)."""
    long = catalog.recipes(gen.RECIPE_SHELF)
    shelf = [r for r in long if not r["recipe_id"].startswith("r")]
    assert shelf and all(catalog.shown(r["recipe_id"], "hard") for r in shelf)
    assert not any(catalog.shown(r["recipe_id"]) for r in shelf)
    assert catalog.recipes() == tuple(r for r in long if r["recipe_id"].startswith("r"))
    name = shelf[0]["name"]
    assert not catalog.search(name) and [r["name"] for r in catalog.search(name, extra="hard")] == [name]
    for level, seen in (("standard", False), ("hard", True)):
        env = gym.make(COOK, level=level)
        task = next(t for t in env.unwrapped.tasks.tasks if (t.web.get("sites") is not None) == seen)
        env.reset(seed=0, options={"task_id": task.task_id})
        if env.unwrapped.active != "web":
            env.step("switch_environment")
        obs = env.step(f"goto [/recipes/recipe/{shelf[0]['recipe_id']}]")[0]
        assert (name in obs["web_text"]) is seen, level
        obs = env.step(f"goto [/recipes/search?q={name.split()[0]}+{name.split()[1]}+Feast]")[0]
        assert (name in obs["web_text"]) is seen, level
        env.close()


@pytest.mark.parametrize("seed", [0, 7])
def test_every_kitchen_is_what_the_task_says(hard_tasks, seed):
    """Fresh ingredients are hidden in closed receptacles; leftovers lie in sight, cut or heated at setup
    time; the missing ingredient is nowhere, fresh or prepared; a second kind of dish is on a counter."""
    for t in hard_tasks:
        w = KitchenWorld()
        w.reset(t.embodied, seed)
        sim = w.sim
        objs = sim.active_objects()
        ings = set(catalog.get(t.goal["recipe_id"])["ingredients"])
        fresh = [o for o in objs if o.object_type in ings and not o.stamps.get("sliced") and "heated" not in o.stamps]
        assert sorted({o.object_type for o in fresh}) == sorted(t.meta["stored"]), t.task_id
        assert all(sim.is_hidden(o) for o in fresh), (t.task_id, [o.object_id for o in fresh if not sim.is_hidden(o)])
        made = [o for o in objs if o.stamps.get("sliced") == SETUP_TIME or o.stamps.get("heated") == SETUP_TIME]
        assert made and all(not sim.is_hidden(o) for o in made), t.task_id
        if t.goal["missing"]:
            assert not [o for o in objs if o.object_type.startswith(t.goal["missing"])], t.task_id
        other = gen.OTHER_DISH[catalog.get(t.goal["recipe_id"])["dish"]]
        assert any(o.object_type == other and not sim.is_hidden(o) for o in objs), t.task_id


def test_oracle_solves_every_hard_task(env, hard_tasks):
    failed = []
    for n, t in enumerate(hard_tasks):
        m = play(env, CookingOracle(t), t.task_id, seed=n)
        if not m["overall"]:
            failed.append((t.task_id, {k: v for k, v in m.get("conditions", {}).items() if not v}))
    assert not failed, failed[:5]


def test_perturbed_oracle_and_random_fail(env, hard_tasks):
    perturbed = [t.task_id for n, t in enumerate(hard_tasks)
                 if play(env, CookingOracle(t, random.Random(n)), t.task_id, seed=n)["overall"]]
    assert len(perturbed) / len(hard_tasks) <= 0.02, perturbed
    rng = random.Random(0)
    wins = 0
    for t in hard_tasks[:20]:
        obs, info = env.reset(seed=0, options={"task_id": t.task_id})
        done = False
        while not done:
            obs, _, term, trunc, info = env.step(rng.choice(info.get("admissible_actions") or ["stop"]))
            done = term or trunc
        wins += bool(info["metrics"]["overall"])
    assert wins == 0


@pytest.mark.parametrize("cls", rh.SHORTCUTS, ids=lambda c: c.__name__)
def test_hard_shortcuts_fail(cls, hard_tasks):
    res = rh.run_agent(cls, [t for t in sorted(hard_tasks, key=lambda t: t.split != "test") if cls.applies(t)], WANT)
    carried = [r for r in res if r["carried_out"]]
    assert len(carried) >= WANT, failures([r for r in res if not r["carried_out"]])
    assert not [r for r in carried if r["metrics"]["overall"]], failures([r for r in carried if r["metrics"]["overall"]])
    assert not broken_parts(cls, carried), failures(broken_parts(cls, carried))


@pytest.mark.parametrize("cls", rh.GENUINE, ids=lambda c: c.__name__)
def test_hard_genuine_alternatives_pass(cls, hard_tasks):
    res = rh.run_agent(cls, [t for t in sorted(hard_tasks, key=lambda t: t.split != "test") if cls.applies(t)], WANT)
    carried = [r for r in res if r["carried_out"]]
    assert len(carried) >= WANT, failures([r for r in res if not r["carried_out"]])
    failed = [r for r in carried if not r["metrics"]["overall"]]
    assert not failed, failures(failed)


def test_a_blind_guess_passes_only_when_right(hard_tasks):
    """Ordering the recipe's first ingredient unseen passes exactly on the tasks where that is what is missing
    (chance, not a way around looking): nothing missing, or another one missing, fails."""
    res = rh.run_agent(rh.GuessMissing, hard_tasks)
    for t, r in zip(hard_tasks, res, strict=True):
        right = t.goal["missing"] == sorted(catalog.get(t.goal["recipe_id"])["ingredients"])[0]
        assert bool(r["metrics"]["overall"]) == right, (t.task_id, r["metrics"].get("conditions"))


def test_completion_credits_the_work_done_not_a_served_leftover(hard_tasks):
    """Completion is the share of sub-goals met (stop 39, a black-box cheater's finding on cook-hard-001): an honest
    dish with one extra order loses that one sub-goal (it zeroed every web sub-goal: 0.23), and a prepared leftover
    served earns neither its steps nor its component (0.69), so it scores below the honest slip; the failing
    step says the food served was made before the episode."""
    t = next(t for t in hard_tasks if t.task_id == "cook-hard-001")
    n = len(catalog.get(t.goal["recipe_id"])["steps"]) + len(catalog.get(t.goal["recipe_id"])["final"]) + 1
    [slip] = rh.run_agent(rh.OneExtraOrder, [t])
    [cheat] = rh.run_agent(rh.UseLeftovers, [t])
    assert slip["carried_out"] and cheat["carried_out"]
    assert not slip["metrics"]["overall"] and not cheat["metrics"]["overall"]
    assert slip["metrics"]["completion"] == pytest.approx((n - 1) / n), slip["metrics"]["conditions"]
    failed = [c for c, ok in cheat["metrics"]["conditions"].items() if not ok]
    served = [o for o in rh.dish_contents(cheat["agent"]) if leftover(o)]  # each one component not made
    assert cheat["metrics"]["completion"] == pytest.approx((n - len(failed) - len(served)) / n), (failed, served)
    assert cheat["metrics"]["completion"] < slip["metrics"]["completion"] - 1 / n, cheat["metrics"]["completion"]
    assert failed and all("served was" in c and "before the episode began" in c for c in failed), failed


@pytest.mark.parametrize("cls", rt.SHORTCUTS, ids=lambda c: c.__name__)
def test_standard_shortcuts_fail_on_hard_tasks(cls, hard_tasks):
    """The standard tier's cooking shortcuts, played on hard kitchens: none passes."""
    pool = [t for t in hard_tasks if cls.applies(t)]
    random.Random(cls.__name__).shuffle(pool)
    res = rh.run_agent(cls, pool, 8)
    assert not [r for r in res if r["carried_out"] and r["metrics"]["overall"]], failures(
        [r for r in res if r["carried_out"] and r["metrics"]["overall"]])


def test_leftovers_are_told_apart_by_their_stamps():
    assert leftover({"stamps": {"sliced": SETUP_TIME}}) and leftover({"stamps": {"heated:Microwave": SETUP_TIME}})
    assert not leftover({"stamps": {"sliced": 3, "cooled": SETUP_TIME}}) and not leftover({})


@pytest.mark.parametrize(("change", "field"), [
    (lambda t: t["embodied"]["add"].append({"type": "Apple", "prepare": ["fry"]}), r"embodied\.add\[\d+\]\.prepare"),
    (lambda t: t["embodied"]["add"].append({"type": "Dragonfruit"}), r"embodied\.add\[\d+\]"),
    (lambda t: t["embodied"]["add"].append({"type": "Apple", "on": "Moon"}), r"embodied\.add\[\d+\]\.on"),
    (lambda t: t["goal"].update(missing_told="no"), r"goal\.missing_told"),
    (lambda t: t["embodied"].update(teleport="anywhere"), r"embodied\.teleport"),
])
def test_bad_hard_task_names_task_and_field(tmp_path, change, field):
    row = json.loads((data_dir() / "cooking" / "hard.jsonl").read_text(encoding="utf-8").splitlines()[0])
    change(row)
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(TaskError, match=rf"cook-hard-000.*{field}"):
        load_tasks(path, CookingDomain().validate_task)
