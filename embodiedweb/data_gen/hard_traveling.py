"""Generate the hard tier of EWA-Traveling-v0: ``python -m embodiedweb.data_gen.hard_traveling``
(``--check``: compare with the shipped file, write nothing).

Writes ``data/traveling/hard.jsonl`` (``hard_tasks`` of ``envs/traveling.toml``; ids ``travel-hard-000`` ...;
``gym.make("EWA-Traveling-v0", level="hard")``). Same env, action grammar and checker as the standard tier
(:class:`embodiedweb.domains.outdoor.traveling.TravelingDomain`: the landmark's article viewed, the answer
right, a stop within 20 m of the landmark). What makes a hard task hard is what makes a hard navigation task
hard (:mod:`embodiedweb.data_gen.hard_navigation`): the landmark is described by its wiki facts, not named
(:mod:`embodiedweb.data_gen.described_places`: every proper part of the description fits at least three places,
the landmark is not the first of them by name, and no nearest, 2nd, 3rd, 2nd farthest or farthest of them from the start is
the landmark of more than a third of a task kind's tasks in a split), the start is a corner read from its street signs, the
map is plain and the views are a walker's. The question is asked of "that place", so the agent has to
identify the landmark before its article can answer; an article of a look-alike gives a wrong answer.
Questions go in turn over the standard tier's kinds (:data:`~embodiedweb.data_gen.outdoor_tasks.QUESTIONS`).
Splits are by place, with the standard tier's split of each place. Same seed, same bytes.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from embodiedweb.data_gen.described_places import (
    MAX_SINGLE,
    LazyCaps,
    as_walker_task,
    described_places,
    goal_description,
    shortcut_free,
    task_kind,
    walking,
    weight,
)
from embodiedweb.data_gen.outdoor_tasks import QUESTIONS, _max_steps, _split, _start, _task
from embodiedweb.data_gen.output import write_or_check
from embodiedweb.paths import data_dir

SEED = 31
N_HARD_TRAVEL = 120
ROUTE_M = (400.0, 1500.0)
#: extra steps over the standard budget: identifying the landmark on the wiki, finding the corner's name
EXTRA_STEPS = 40
#: questions asked of one landmark at most
MAX_USES = 4
INSTRUCTION = ("Your destination is {desc}. Find out on the wiki which place that is, walk there and stop in front "
               "of it, answering this question from its wiki article: {question} Answer with stop [your answer]. "
               "You start at the street corner whose signs you see.")


def hard_path() -> Path:
    """The shipped hard-tier task file."""
    return data_dir() / "traveling" / "hard.jsonl"


def hard_traveling(city: Any, rng: random.Random) -> list[dict[str, Any]]:
    """The hard traveling tasks (see the module docstring)."""
    boxes, _names, described = described_places(city, SEED)
    articles = {a["place_id"]: a for a in json.loads((data_dir() / "wiki" / "articles.json").read_text(encoding="utf-8"))
                if a.get("kind") == "place" and a.get("world_facts")}
    pids = sorted(p for p in described if p in articles)
    keys = list(QUESTIONS)
    out: list[dict[str, Any]] = []
    chosen: list[tuple[dict[str, Any], str]] = []
    per_split = {"train": 0, "test": 0}
    caps = LazyCaps()
    used: set[tuple[str, str]] = set()
    turn = 0
    while len(out) < N_HARD_TRAVEL and turn < 200 * N_HARD_TRAVEL:
        key = keys[turn % len(keys)]
        turn += 1
        cands = [p for p in pids if key in articles[p]["world_facts"] and (p, key) not in used
                 and sum(q == p for q, _k in used) < MAX_USES]
        if not cands:
            continue
        pid = rng.choices(cands, weights=[max(weight(d) for d in described[p]) for p in cands])[0]
        split = _split(pid)
        if per_split[split] >= N_HARD_TRAVEL // 2:
            continue
        dest = city.place_node(pid)
        got = _start(city, rng, dest, *ROUTE_M)
        if got is None:
            continue
        start, path = got
        descs = described[pid]
        desc = rng.choices(descs, weights=[weight(d) for d in descs])[0]
        if weight(desc) == 1 and sum(weight(d) == 1 for d, s in chosen if s == split) >= MAX_SINGLE * N_HARD_TRAVEL // 2:
            continue
        dist = walking(city, start, boxes)
        if not shortcut_free(city, start, pid, desc, boxes, dist, nearest=False):
            continue
        right = caps.right(boxes, desc, dist, pid)
        if not caps.admits(task_kind(desc), split, right):
            continue
        caps.add(task_kind(desc), split, right)
        used.add((pid, key))
        per_split[split] += 1
        chosen.append((desc, split))
        a = articles[pid]
        fact = a["world_facts"][key]
        task = _task("EWA-Traveling-v0", "",
                     INSTRUCTION.format(desc=desc["phrase"], question=QUESTIONS[key].format(name="that place")),
                     start, rng.uniform(0, 360),
                     {"place_id": pid, "place_node": dest, "slug": a["slug"], "fact": key, "answer": fact["value"],
                      "kind": fact["kind"], **goal_description(desc)},
                     split, _max_steps(len(path)) + 10 + EXTRA_STEPS, level="hard")
        out.append(as_walker_task(task))
    if len(out) < N_HARD_TRAVEL:
        raise RuntimeError(f"only {len(out)} of {N_HARD_TRAVEL} hard traveling tasks could be drawn ({per_split})")
    for i, t in enumerate(out):
        t["task_id"] = f"travel-hard-{i:03d}"
    return out


def render() -> str:
    """The file's text: one task per line, keys sorted."""
    from embodiedweb.worlds.street.city import load_city

    tasks = hard_traveling(load_city(), random.Random(SEED))
    return "".join(json.dumps(t, ensure_ascii=False, sort_keys=True) + "\n" for t in tasks)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the shipped file instead of writing it")
    a = ap.parse_args(argv)
    return write_or_check(hard_path(), render(), a.check, __spec__.name)


if __name__ == "__main__":
    sys.exit(main())
