"""What `ewa eval` runs (issue 22, item 7): the test split by default, `--limit N` as a seeded sample spread
over the env's strata, and the fixed `lite` subset."""

from __future__ import annotations

import json
from collections import Counter

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401  (registers the ids)
from embodiedweb.cli import main
from embodiedweb.registration import registered_ids
from embodiedweb.sampling import select, strata_of, stratified_sample, subset

IDS = registered_ids()


def split_tasks(env_id):
    env = gym.make(env_id)
    base = env.unwrapped
    env.close()
    return base.domain, [t for t in base.tasks.tasks if t.split == "test"]


@pytest.mark.parametrize("env_id", IDS)
def test_limit_50_covers_every_stratum(env_id):
    domain, tasks = split_tasks(env_id)
    strata = strata_of(domain, tasks)
    ids = stratified_sample(domain, tasks, 50, seed=0)
    assert len(ids) == min(50, len(tasks)) and len(set(ids)) == len(ids)
    assert {strata[i] for i in ids} == set(strata.values())
    # in file order, test tasks only
    order = [t.task_id for t in tasks]
    assert ids == [i for i in order if i in set(ids)]


@pytest.mark.parametrize("env_id", IDS)
def test_sample_is_fixed_by_the_seed_and_proportional(env_id):
    domain, tasks = split_tasks(env_id)
    a, b, c = (stratified_sample(domain, tasks, 40, seed=s) for s in (0, 0, 1))
    assert a == b and a != c
    # no stratum is over-represented: each gets its proportional share, give or take the one-per-stratum floor
    strata = strata_of(domain, tasks)
    sizes, got = Counter(strata.values()), Counter(strata[i] for i in a)
    for k, n in sizes.items():
        assert got[k] <= max(1, 40 * n / len(tasks)) + 1.0, (k, got[k], n)


def test_sample_rotates_over_kitchens():
    """Within a stratum the sample visits different kitchens and recipes before repeating one."""
    domain, tasks = split_tasks("EWA-Cooking-v0")
    ids = set(stratified_sample(domain, tasks, 30, seed=0))
    kitchens = Counter(t.embodied["kitchen_id"] for t in tasks if t.task_id in ids)
    recipes = Counter(t.goal["recipe_id"] for t in tasks if t.task_id in ids)
    assert len(kitchens) >= 20 and max(kitchens.values()) <= 2 and max(recipes.values()) <= 2, (kitchens, recipes)


@pytest.mark.parametrize("env_id", IDS)
def test_lite_is_a_tenth_at_least_20_and_spread_over_the_strata(env_id):
    domain, tasks = split_tasks(env_id)
    lite = subset(domain, tasks, "lite")
    assert len(lite) == min(len(tasks), max(20, round(0.1 * len(tasks))))
    assert sorted(lite) == sorted(subset(domain, list(reversed(tasks)), "lite"))  # order does not matter
    strata = strata_of(domain, tasks)
    sizes, got = Counter(strata.values()), Counter(strata[i] for i in lite)
    for k, n in sizes.items():  # each stratum its proportional share (largest remainder)
        assert abs(got[k] - len(lite) * n / len(tasks)) < 1, (k, got[k], n)


def test_lite_is_the_shipped_list_and_the_generator_reproduces_it():
    """The subset is data (stable across versions); the generator rewrites the same bytes."""
    from embodiedweb.data_gen.subsets import render
    from embodiedweb.paths import data_dir

    assert (data_dir() / "subsets" / "lite.json").read_text(encoding="utf-8") == render("lite")


def test_lite_matches_the_split_on_difficulty():
    """The salt kept is the most balanced of 256 on the tasks' difficulty measures: its imbalance is far below
    a plain hash pick's (salt 0)."""
    from embodiedweb.curricula import load_difficulty
    from embodiedweb.data_gen.subsets import choose, imbalance

    domain, tasks = split_tasks("EWA-Cooking-v0")
    chosen = choose("EWA-Cooking-v0")
    pool = [t.task_id for t in tasks]
    records = load_difficulty(domain.name)
    assert chosen["imbalance"] == pytest.approx(imbalance(records, pool, chosen["tasks"]), abs=1e-6)
    assert chosen["tasks"] == subset(domain, tasks, "lite")
    strata = strata_of(domain, tasks)
    first = sorted(pool, key=lambda t: (repr(strata[t]), t))[: len(chosen["tasks"])]  # a lopsided pick
    assert chosen["imbalance"] < imbalance(records, pool, first)


def test_select_defaults_to_the_test_split():
    domain, _ = split_tasks("EWA-Navigation-v0")
    env = gym.make("EWA-Navigation-v0")
    every = env.unwrapped.tasks.tasks
    env.close()
    split = {t.task_id: t.split for t in every}
    assert {split[i] for i in select(domain, every)} == {"test"}
    assert {split[i] for i in select(domain, every, split="all")} == set(split.values())
    with pytest.raises(ValueError, match="subsets are"):
        select(domain, every, subset_name="huge")


def test_ewa_eval_runs_test_tasks_and_records_the_selection(tmp_path):
    out = tmp_path / "r.jsonl"
    assert main(["eval", "--env", "EWA-Navigation-v0", "--agent", "oracle", "--limit", "3", "--out", str(out),
                 "--no-progress"]) == 0
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    env = gym.make("EWA-Navigation-v0")
    split = {t.task_id: t.split for t in env.unwrapped.tasks.tasks}
    env.close()
    assert len(recs) == 3 and {split[r["task_id"]] for r in recs} == {"test"}
    assert recs[0]["selection"] == {"split": "test", "subset": None, "limit": 3, "curriculum": None,
                                    "level": "standard"}
    with pytest.raises(SystemExit) as e:
        main(["eval", "--env", "EWA-Navigation-v0", "--subset", "huge"])
    assert e.value.code == 2
