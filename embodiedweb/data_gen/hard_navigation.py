"""Generate the hard tier of EWA-Navigation-v0: ``python -m embodiedweb.data_gen.hard_navigation``
(``--check``: compare with the shipped file, write nothing).

Writes ``data/navigation/hard.jsonl`` (``hard_tasks`` of ``envs/navigation.toml``; ids ``nav-hard-000`` ...;
``gym.make("EWA-Navigation-v0", level="hard")``). Same env, action grammar and checker as the standard
tier (:class:`embodiedweb.domains.outdoor.navigation.NavigationDomain`: directions to the destination on the
map, a stop within 20 m of it); what makes a hard task hard:

- **the destination is described, not named**: its kind and the fewest facts of its wiki article's
  infobox that single it out among the wiki's 194 places ("the Theatre in the Theater District completed
  in the 1910s, designed by Henry B. Herts"), with no word of its name and no address; the agent identifies
  it on the wiki (search, categories) or from the map's place pages;
- **the start is not named either**: the walker reads the street signs at its corner;
- **the map is plain** (``web.sites.map.plain``): street names, turns and distances only, no node ids, and
  node ids are not accepted as places;
- **the views are a walker's** (``embodied.view = "walker"``): street signs at corners, storefront signs
  with house numbers beside the walker and further along each way, no "here" list, no distances to places
  and no coordinates: the agent decides it has arrived from the signs.

Against shortcuts: every proper part of a description (its kind alone, the kind with one fact ...) fits at
least three places on the street graph, the destination is never the first of them by name, and no rank-based
lazy reading (the nearest, 2nd, 3rd, 2nd farthest or farthest place from the start fitting a part, by walking distance:
:func:`~embodiedweb.data_gen.described_places.rank_picks`) walks to the destination of more than a third of a
task kind's tasks (rank, hop, facts, one fact) in a split (:class:`~embodiedweb.data_gen.described_places.LazyCaps`;
until stop 32 the destination was never the nearest, which made the 2nd nearest right on 15 of 32 rank tasks).
Splits are by destination place, with the standard tier's split of each place; at most a quarter of each
split is described by one fact. Same seed, same bytes.

After them come the walking tours (``nav-hard-120`` ...: three described places in any order within a
walking limit, :mod:`embodiedweb.data_gen.hard_tours`), drawn from a seed of their own, then the long tours
(``nav-hard-144`` ...: four or five places, a tighter limit), from another, then the grand tours (``nav-hard-168``
...: six places, a limit that one order fits), from a third, then the appointment tours (``nav-hard-180`` ...: four or
five places, each with a time to be there by, a watch in the street view), from a fourth.
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
from embodiedweb.data_gen.outdoor_tasks import _max_steps, _split, _task
from embodiedweb.data_gen.output import write_or_check
from embodiedweb.paths import data_dir

SEED = 29
N_HARD_NAV = 120
ROUTE_M = (400.0, 1500.0)
#: extra steps over the standard budget: reading the wiki and finding the corner's name
EXTRA_STEPS = 40
#: tasks to one destination at most (four left the draw three train tasks short once every looser part had to
#: fit three walkable places and the lazy readings were capped)
MAX_USES = 5
INSTRUCTION = ("Your destination is {desc}. Find out on the wiki which place that is, get walking directions on "
               "the map website, walk there and stop in front of it. You start at the street corner whose signs "
               "you see.")


def hard_path() -> Path:
    """The shipped hard-tier task file."""
    return data_dir() / "navigation" / "hard.jsonl"


def hard_navigation(city: Any, rng: random.Random) -> list[dict[str, Any]]:
    """The hard navigation tasks (see the module docstring)."""
    from embodiedweb.data_gen.outdoor_tasks import _start
    from embodiedweb.domains.outdoor.common import checkpoints

    boxes, names, described = described_places(city, SEED)
    pids = sorted(described)
    out: list[dict[str, Any]] = []
    chosen: list[tuple[dict[str, Any], str]] = []
    per_split = {"train": 0, "test": 0}
    caps = LazyCaps()
    uses: dict[str, int] = {}
    tries = 0
    while len(out) < N_HARD_NAV and tries < 60000:
        tries += 1
        pid = rng.choices(pids, weights=[max(weight(d) for d in described[p]) for p in pids])[0]
        split = _split(pid)
        if per_split[split] >= N_HARD_NAV // 2 or uses.get(pid, 0) >= MAX_USES:
            continue
        dest = city.place_node(pid)
        got = _start(city, rng, dest, *ROUTE_M)
        if got is None:
            continue
        start, path = got
        descs = described[pid]
        desc = rng.choices(descs, weights=[weight(d) for d in descs])[0]
        if weight(desc) == 1 and sum(weight(d) == 1 for d, s in chosen if s == split) >= MAX_SINGLE * N_HARD_NAV // 2:
            continue
        dist = walking(city, start, boxes)
        if not shortcut_free(city, start, pid, desc, boxes, dist, nearest=False):
            continue
        right = caps.right(boxes, desc, dist, pid)
        if not caps.admits(task_kind(desc), split, right):
            continue
        caps.add(task_kind(desc), split, right)
        uses[pid] = uses.get(pid, 0) + 1
        per_split[split] += 1
        chosen.append((desc, split))
        task = _task("EWA-Navigation-v0", "", INSTRUCTION.format(desc=desc["phrase"]), start, rng.uniform(0, 360),
                     {"dest_node": dest, "dest_name": names[pid], "dest_place": pid,
                      "route_m": round(city.route_length(path), 1), "checkpoints": checkpoints(path),
                      **goal_description(desc)},
                     split, _max_steps(len(path)) + EXTRA_STEPS, level="hard")
        out.append(as_walker_task(task))
    if len(out) < N_HARD_NAV:
        raise RuntimeError(f"only {len(out)} of {N_HARD_NAV} hard navigation tasks could be drawn ({per_split})")
    for i, t in enumerate(out):
        t["task_id"] = f"nav-hard-{i:03d}"
    return out


def render() -> str:
    """The file's text: one task per line, keys sorted."""
    from embodiedweb.data_gen.hard_tours import APPOINTMENT_TOURS, GRAND_TOURS, LONG_TOURS, hard_tours
    from embodiedweb.worlds.street.city import load_city

    city = load_city()
    tasks = hard_navigation(city, random.Random(SEED))
    tasks += hard_tours(city, len(tasks), SEED)
    tasks += hard_tours(city, len(tasks), SEED, LONG_TOURS)
    tasks += hard_tours(city, len(tasks), SEED, GRAND_TOURS)
    tasks += hard_tours(city, len(tasks), SEED, APPOINTMENT_TOURS)
    return "".join(json.dumps(t, ensure_ascii=False, sort_keys=True) + "\n" for t in tasks)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the shipped file instead of writing it")
    a = ap.parse_args(argv)
    return write_or_check(hard_path(), render(), a.check, __spec__.name)


if __name__ == "__main__":
    sys.exit(main())
