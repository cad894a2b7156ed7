"""Which tasks an evaluation runs: stratified samples (``ewa eval --limit N``) and named subsets (``--subset lite``).

A task's **stratum** is its curriculum level (the difficulty quartile of :mod:`embodiedweb.curricula`)
plus what its domain names with :meth:`embodiedweb.domains.base.Domain.stratum` (a recipe with or without
shopping, a store rule, a question kind, a continent ...). :meth:`Domain.variety` names what a sample
should rotate over (kitchens and recipes, stores and products, places, countries).

* :func:`stratified_sample` - ``n`` tasks spread over every stratum: each stratum gets its share of ``n``
  (largest remainder, at least one each while ``n`` allows), and within a stratum the next task is the one
  whose varieties the sample has used least so far (ties in a seeded order). Same tasks, ``n`` and seed:
  same sample.
* :func:`subset` - a named fixed subset: a list of test task ids per env shipped in
  ``data/subsets/<name>.json`` (the same on every machine and across versions until regenerated on
  purpose; how ``lite`` is chosen: :mod:`embodiedweb.data_gen.subsets`).
"""

from __future__ import annotations

import json
import math
import random
from collections import defaultdict
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from embodiedweb.curricula import load_difficulty
from embodiedweb.paths import data_dir
from embodiedweb.tasks import Task

#: named subsets: name -> (fraction of an env's tasks, at least this many tasks)
SUBSETS: dict[str, tuple[float, int]] = {"lite": (0.10, 20)}

Stratum = tuple[Any, ...]


def strata_of(domain: Any, tasks: Sequence[Task]) -> dict[str, Stratum]:
    """``{task_id: stratum}``: the curriculum level (``-1`` without a difficulty record) and the domain's own keys."""
    records = load_difficulty(domain.name)
    return {t.task_id: (int(records.get(t.task_id, {}).get("level", -1)), *domain.stratum(t)) for t in tasks}


def stratified_sample(domain: Any, tasks: Sequence[Task], n: int, seed: int = 0) -> list[str]:
    """Ids of ``n`` of ``tasks`` spread over their strata (see the module doc), in the tasks' file order."""
    if n >= len(tasks):
        return [t.task_id for t in tasks]
    strata = strata_of(domain, tasks)
    groups: dict[Stratum, list[Task]] = defaultdict(list)
    for t in tasks:
        groups[strata[t.task_id]].append(t)
    keys = sorted(groups, key=repr)
    # every stratum gets one while n allows (the largest first), the rest by largest remainder
    quota = dict.fromkeys(keys, 0)
    for k in sorted(keys, key=lambda k: (-len(groups[k]), repr(k)))[: min(n, len(keys))]:
        quota[k] = 1
    left = n - sum(quota.values())
    if left > 0:
        extra = quotas({k: len(groups[k]) - quota[k] for k in keys}, left)
        quota = {k: quota[k] + extra[k] for k in keys}
    # within the strata, greedily the task whose varieties (kitchen, recipe, store ...) the sample has used
    # least so far, over the whole sample; ties in a seeded random order
    rng = random.Random(f"sample:{domain.name}:{seed}")
    tiebreak = {t.task_id: rng.random() for t in sorted(tasks, key=lambda t: t.task_id)}
    used: dict[tuple[int, str], int] = defaultdict(int)
    left = {k: sorted(groups[k], key=lambda t: tiebreak[t.task_id]) for k in keys}
    chosen: set[str] = set()
    while any(quota.values()):
        for k in keys:
            if quota[k] <= 0:
                continue
            parts = {t.task_id: tuple(enumerate(domain.variety(t))) for t in left[k]}
            best = min(left[k], key=lambda t: (sum(used[p] for p in parts[t.task_id]), tiebreak[t.task_id]))
            left[k].remove(best)
            chosen.add(best.task_id)
            quota[k] -= 1
            for part in parts[best.task_id]:
                used[part] += 1
    return [t.task_id for t in tasks if t.task_id in chosen]


def quotas(sizes: dict[Any, int], n: int) -> dict[Any, int]:
    """``n`` shared over groups of these sizes in proportion (largest remainder; ties by key)."""
    total = sum(sizes.values())
    want = {k: n * v / total for k, v in sizes.items()} if total else {}
    quota = {k: math.floor(w) for k, w in want.items()}
    for k in sorted(want, key=lambda k: (-(want[k] - quota[k]), repr(k)))[: n - sum(quota.values())]:
        quota[k] += 1
    return quota


def subset(domain: Any, tasks: Sequence[Task], name: str) -> list[str]:
    """Ids of the named subset (:data:`SUBSETS`) among ``tasks``, in the tasks' file order: the fixed list
    of ``data/subsets/<name>.json`` (written by :mod:`embodiedweb.data_gen.subsets`) for the tasks' env."""
    if name not in SUBSETS:
        raise ValueError(f"unknown subset {name!r}: the subsets are {', '.join(sorted(SUBSETS))}")
    if not tasks:
        return []
    listed = set(subset_lists(name).get(tasks[0].env_id, {}).get("tasks", ()))
    return [t.task_id for t in tasks if t.task_id in listed]


@lru_cache(maxsize=4)
def subset_lists(name: str) -> dict[str, dict[str, Any]]:
    """``{env_id: {"tasks": [...], ...}}`` of the shipped subset ``name`` (empty when it has no file)."""
    path = data_dir() / "subsets" / f"{name}.json"
    if not path.exists():
        return {}
    with open(path, encoding="utf-8") as f:
        return json.load(f)["envs"]


def select(domain: Any, tasks: Sequence[Task], *, split: str | None = "test", limit: int | None = None,
           subset_name: str | None = None, seed: int = 0) -> list[str]:
    """The task ids an evaluation runs: ``split`` (``all`` or None: every split), then the named subset,
    then a stratified sample of ``limit``."""
    pool = [t for t in tasks if not split or split == "all" or t.split == split]
    ids = subset(domain, pool, subset_name) if subset_name else [t.task_id for t in pool]
    if limit is not None and limit < len(ids):
        keep = set(ids)
        ids = stratified_sample(domain, [t for t in pool if t.task_id in keep], limit, seed)
    return ids
