"""Curricula (task subsets by difficulty) and single-domain skill variants.

**Difficulty.** Every task has a difficulty record in ``data/curricula/<domain>.json``, written by
:mod:`embodiedweb.data_gen.curricula` (which runs each domain's oracle once per task through the public
action interface, text mode). The measures are:

* ``oracle_steps`` - the oracle's actions to solve the task (``stop`` included);
* ``oracle_switches`` - its ``switch_environment`` actions;
* ``oracle_web_steps`` / ``oracle_world_steps`` - its web and embodied-world actions;
* ``route_m`` - walking distance from the start to the goal along the streets (outdoor domains; the task's
  ``goal.route_m`` for navigation, which goes through its checkpoints);
* ``checkpoints`` - the route's intermediate sub-goals (navigation);
* ``recipe_steps`` - the recipe's steps (cooking);
* ``cues`` / ``hints`` / ``capital`` - the standpoint's distinguishing cue kinds, its hint kinds, and whether
  the city is a capital (geolocation: fewer cues and hints and a non-capital city are harder; the
  oracle's walk to a cue is 2-3 moves everywhere, too flat to rank by alone).

The **score** of a task is the mean, over its domain's :attr:`~embodiedweb.domains.base.Domain.difficulty_measures`, of the task's percentile
rank in its split (mid-rank for ties, 0..1; a measure written ``-name`` ranks the other way: more is easier). **Levels** are the quartiles of the score within each split
(tasks sorted by score then id, cut into four equal parts): level 0 is the easiest quarter, 3 the
hardest, and a level's train and test tasks match in difficulty. ``gym.make(id, curriculum=L)`` keeps
level ``L``'s tasks; ``curriculum=None`` (the default) keeps them all. ``ewa curricula`` prints the counts.

**Skills.** ``gym.make(id, skill="web" | "embodied")`` starts each episode after a prefix of the oracle's
actions and scores only one side (see :meth:`embodiedweb.env.EmbodiedWebEnv.reset`).
"""

from __future__ import annotations

import json
import numbers
from functools import lru_cache
from typing import Any

from embodiedweb.actions import REGISTRY, ActionError
from embodiedweb.paths import data_dir

#: valid values of ``curriculum=`` besides ``None``
LEVELS = (0, 1, 2, 3)
#: valid values of ``skill=`` besides ``None``
SKILLS = ("web", "embodied")
FORMAT_VERSION = 1


def curricula_dir() -> Any:
    """The folder of the difficulty records, ``data/curricula``."""
    return data_dir() / "curricula"


def difficulty_path(domain: str) -> Any:
    """The difficulty records file of ``domain``: ``data/curricula/<domain>.json``."""
    return curricula_dir() / f"{domain}.json"


@lru_cache(maxsize=8)
def load_difficulty(domain: str) -> dict[str, dict[str, Any]]:
    """``{task_id: record}`` of a domain (measures, ``split``, ``score``, ``level``); empty if no file."""
    path = difficulty_path(domain)
    if not path.exists():
        return {}
    with open(path, encoding="utf-8") as f:
        return json.load(f)["tasks"]


def _ranks(values: list[float]) -> list[float]:
    """Percentile rank of each value (mid-rank for ties), 0..1."""
    n = len(values)
    if n <= 1:
        return [0.5] * n
    order = sorted(range(n), key=lambda i: values[i])
    out = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 / (n - 1)
        i = j + 1
    return out


def _value(record: dict[str, Any], measure: str) -> float:
    """A measure's value oriented so that more is harder (``-name``: the negated value of ``name``)."""
    return -float(record[measure[1:]]) if measure.startswith("-") else float(record[measure])


def score_measures(domain: Any) -> tuple[str, ...]:
    """The measures of ``domain``'s difficulty score: its :attr:`Domain.difficulty_measures`."""
    return tuple(domain.difficulty_measures)


def assign_levels(domain: Any, records: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``records`` (measures and ``split`` per task id) of ``domain``'s tasks with ``score`` and ``level`` added."""
    measures = score_measures(domain)
    out = {tid: dict(r) for tid, r in records.items()}
    for split in sorted({r["split"] for r in records.values()}):
        ids = sorted(tid for tid, r in records.items() if r["split"] == split)
        ranks = [_ranks([_value(records[t], m) for t in ids]) for m in measures]
        for i, tid in enumerate(ids):
            out[tid]["score"] = round(sum(r[i] for r in ranks) / len(measures), 6)
        ordered = sorted(ids, key=lambda t: (out[t]["score"], t))
        for i, tid in enumerate(ordered):
            out[tid]["level"] = i * len(LEVELS) // len(ordered)
    return out


def action_kind(env: Any, action: str) -> str:
    """``web``, ``world``, ``switch``, ``stop`` or ``invalid``: what ``action`` is in ``env`` (unwrapped)."""
    try:
        p = REGISTRY.parse(action, env.domains)
    except ActionError:
        return "invalid"
    if p.domain == "meta":
        return "switch" if p.name == "switch_environment" else "stop" if p.name == "stop" else "invalid"
    return "web" if p.domain == "web" else "world"


def check_level(curriculum: Any) -> int | None:
    """``curriculum`` as a level (``None`` for all tasks); anything else is a ``gym.error.Error``."""
    import gymnasium as gym

    if curriculum is None:
        return None
    if isinstance(curriculum, bool) or not isinstance(curriculum, numbers.Integral) or curriculum not in LEVELS:
        raise gym.error.Error(f"curriculum must be one of {', '.join(map(str, LEVELS))} (0 = easiest) or None "
                              f"(all tasks), got {curriculum!r}")
    return int(curriculum)


def level_ids(domain: str, level: int, task_ids: list[str], env_id: str = "") -> set[str]:
    """The ids among ``task_ids`` at ``level``; a task without a difficulty record is an error."""
    import gymnasium as gym

    table = load_difficulty(domain)
    missing = [t for t in task_ids if t not in table]
    if missing:
        raise gym.error.Error(
            f"{env_id or domain}: no difficulty record for {len(missing)} task(s) (e.g. {missing[0]!r}) in "
            f"{difficulty_path(domain)}; regenerate it with python -m embodiedweb.data_gen.curricula")
    return {t for t in task_ids if table[t]["level"] == level}


def check_skill(skill: Any, domain: Any, env_id: str = "") -> str | None:
    """``skill`` if ``domain`` supports it (``None`` for the full task); otherwise a ``gym.error.Error``."""
    import gymnasium as gym

    if skill is None:
        return None
    if skill not in SKILLS:
        raise gym.error.Error(f"skill must be one of {', '.join(map(repr, SKILLS))} or None, got {skill!r}")
    supported = domain.skills()
    if skill not in supported:
        have = ", ".join(map(repr, supported)) or "none"
        raise gym.error.Error(f"{env_id or domain.name}: skill {skill!r} is not available in this setting "
                              f"({domain.settings() or 'default'}); supported skills: {have}")
    return str(skill)


def level_table(specs: list[Any], env_ids: list[str] | None = None) -> list[dict[str, Any]]:
    """One row per env (of ``specs``, :func:`embodiedweb.registration.load_specs`), level and split: task
    count and the means of the score and of the measures."""
    rows = []
    for spec in specs:
        if env_ids and spec.id not in env_ids:
            continue
        domain = spec.load_domain()
        table = load_difficulty(domain.name)
        for level in LEVELS:
            for split in sorted({r["split"] for r in table.values()}, reverse=True):
                recs = [r for r in table.values() if r["level"] == level and r["split"] == split]
                if not recs:
                    continue
                row: dict[str, Any] = {"env_id": spec.id, "level": level, "split": split, "tasks": len(recs),
                                       "score": sum(r["score"] for r in recs) / len(recs)}
                for m in score_measures(domain):
                    m = m.lstrip("-")
                    row[m] = sum(float(r[m]) for r in recs) / len(recs)
                rows.append(row)
    return rows
