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
least two places, the destination is never the nearest of them to the start by walking distance nor the
first of them by name, so walking to the nearest place of the described kind, or of the kind in the named
neighbourhood, or to the first one the wiki's alphabetical lists give, fails.
Splits are by destination place, with the standard tier's split of each place. Same seed, same bytes.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

from embodiedweb.data_gen.outdoor_tasks import _max_steps, _split, _task
from embodiedweb.data_gen.output import write_or_check
from embodiedweb.paths import data_dir

SEED = 29
N_HARD_NAV = 120
ROUTE_M = (400.0, 1500.0)
#: extra steps over the standard budget: reading the wiki and finding the corner's name
EXTRA_STEPS = 40
#: name words that say nothing of a place's identity (a description may share them with the name)
GENERIC = {"the", "of", "and", "new", "york", "street", "building", "center", "centre", "hall", "house",
           "square", "park", "station", "church", "theatre", "theater", "museum", "library", "hotel", "market",
           "tower", "bridge", "memorial", "plaza", "avenue", "place"}
INSTRUCTION = ("Your destination is {desc}. Find out on the wiki which place that is, get walking directions on "
               "the map website, walk there and stop in front of it. You start at the street corner whose signs "
               "you see.")
#: how much likelier a place with a description of several facts is drawn than one with a single fact
MULTI_WEIGHT = 4


def hard_path() -> Path:
    """The shipped hard-tier task file."""
    return data_dir() / "navigation" / "hard.jsonl"


def infoboxes() -> dict[str, dict[str, str]]:
    """Each place's wiki infobox (``{field: value}``), read from the wiki's own articles: the facts a
    description uses are the ones the wiki shows."""
    articles = json.loads((data_dir() / "wiki" / "articles.json").read_text(encoding="utf-8"))
    return {a["place_id"]: dict(a["infobox"]) for a in articles if a.get("kind") == "place"}


def facts_of(box: dict[str, str]) -> dict[str, tuple[str, str]]:
    """The describable facts of an infobox: ``{key: (value to match, phrase)}``."""
    out: dict[str, tuple[str, str]] = {"neighborhood": (box["Neighborhood"], f"in {box['Neighborhood']}")}
    if box.get("Completed", "").isdigit():
        y = box["Completed"]
        out["decade"] = (y[:3], f"completed in the {y[:3]}0s")
    if box.get("Opened", "").isdigit():
        out["opened"] = (box["Opened"], f"opened in {box['Opened']}")
    if box.get("Architect"):
        out["architect"] = (box["Architect"], f"designed by {box['Architect']}")
    if box.get("Architectural style"):
        out["style"] = (box["Architectural style"], f"in the {box['Architectural style']} style")
    if box.get("Floors", "").isdigit():
        out["floors"] = (box["Floors"], f"with {box['Floors']} floors")
    return out


def matches(boxes: dict[str, dict[str, str]], kind: str, facts: dict[str, str]) -> list[str]:
    """The places of ``kind`` whose infobox has every fact of ``facts`` (``{key: value}``)."""
    out = []
    for pid, box in boxes.items():
        if box["Type"] != kind:
            continue
        mine = facts_of(box)
        if all(k in mine and mine[k][0] == v for k, v in facts.items()):
            out.append(pid)
    return out


def _words(text: str) -> set[str]:
    return {w for w in re.split(r"[^\w]+", text.lower()) if len(w) >= 3} - GENERIC


def describe(pid: str, names: dict[str, str], boxes: dict[str, dict[str, str]], rng: random.Random,
             walkable: frozenset[str] = frozenset()) -> tuple[str, dict[str, str]] | None:
    """A description (the kind and 2 or 3 facts, else 1) that fits only ``pid``, shares no telling word
    with its name (``names``: each place's wiki title), and whose every proper part fits another place too, which comes before
    it by name (among all of them, and among the ``walkable`` ones: on the street graph);
    ``(phrase, {key: value})`` or None."""
    box = boxes[pid]
    kind = box["Type"]
    facts = facts_of(box)
    keys = sorted(facts)
    rng.shuffle(keys)
    for size in (2, 3, 1):
        for combo in itertools.combinations(keys, size):
            chosen = {k: facts[k][0] for k in combo}
            if matches(boxes, kind, chosen) != [pid]:
                continue
            parts = [matches(boxes, kind, {k: chosen[k] for k in part})
                     for n in range(size) for part in itertools.combinations(combo, n)]
            # every part fits another place too, and the destination does not come first by name among
            # them (the wiki's categories and lists are alphabetical: "the first theatre listed" is no answer)
            if any(len(fits) < 2 or any(pool and min(pool, key=lambda p: names[p].lower()) == pid
                                        for pool in (fits, [p for p in fits if p in walkable]))
                   for fits in parts):
                continue
            style = facts["style"][0] + " " if "style" in combo else ""
            where = facts["neighborhood"][1] if "neighborhood" in combo else ""
            rest = " and ".join(facts[k][1] for k in ("decade", "opened", "floors", "architect") if k in combo)
            phrase = f"the {style}{kind.lower()}" + (f" {where}" if where else "") + (
                f"{',' if where else ''} {rest}" if rest else "")
            if _words(phrase) & _words(names[pid]):
                continue
            return phrase, chosen
    return None


def shortcut_free(city: Any, start: str, pid: str, kind: str, chosen: dict[str, str],
                  boxes: dict[str, dict[str, str]]) -> bool:
    """The destination is not the nearest place (walking from ``start``) among those fitting any proper part
    of its description: its kind alone, or the kind with some of the facts."""
    from embodiedweb.worlds.street.world import walking_distances

    node = {p: city.place_node(p) for p in boxes}
    walk = walking_distances(city, start, 1e9)
    dist = {p: walk[n] for p, n in node.items() if n in walk}
    keys = list(chosen)
    for n in range(len(keys)):
        for part in itertools.combinations(keys, n):
            fits = [p for p in matches(boxes, kind, {k: chosen[k] for k in part}) if p in dist]
            nearest = min(fits, key=lambda p: (dist[p], p))
            if nearest == pid or node[nearest] == node[pid]:
                return False
    return True


def hard_navigation(city: Any, rng: random.Random) -> list[dict[str, Any]]:
    """The hard navigation tasks (see the module docstring)."""
    from embodiedweb.data_gen.outdoor_tasks import _start
    from embodiedweb.domains.outdoor.common import checkpoints

    boxes = infoboxes()
    articles = json.loads((data_dir() / "wiki" / "articles.json").read_text(encoding="utf-8"))
    names = {a["place_id"]: a["title"] for a in articles if a.get("kind") == "place"}
    walkable = frozenset(p for p in boxes if city.place_node(p))
    described = {}
    for pid in sorted(boxes):
        if city.place_node(pid):
            got = describe(pid, names, boxes, random.Random(f"{SEED}:{pid}"), walkable)
            if got:
                described[pid] = got
    pids = sorted(described)
    out: list[dict[str, Any]] = []
    per_split = {"train": 0, "test": 0}
    uses: dict[str, int] = {}
    tries = 0
    while len(out) < N_HARD_NAV and tries < 20000:
        tries += 1
        pid = rng.choices(pids, weights=[MULTI_WEIGHT if len(described[p][1]) > 1 else 1 for p in pids])[0]
        split = _split(pid)
        if per_split[split] >= N_HARD_NAV // 2 or uses.get(pid, 0) >= 2:
            continue
        dest = city.place_node(pid)
        got = _start(city, rng, dest, *ROUTE_M)
        if got is None:
            continue
        start, path = got
        phrase, chosen = described[pid]
        kind = boxes[pid]["Type"]
        if not shortcut_free(city, start, pid, kind, chosen, boxes):
            continue
        uses[pid] = uses.get(pid, 0) + 1
        per_split[split] += 1
        task = _task("EWA-Navigation-v0", "", INSTRUCTION.format(desc=phrase), start, rng.uniform(0, 360),
                     {"dest_node": dest, "dest_name": names[pid], "dest_place": pid,
                      "route_m": round(city.route_length(path), 1), "checkpoints": checkpoints(path),
                      "description": phrase, "facts": {"kind": kind, **chosen}},
                     split, _max_steps(len(path)) + EXTRA_STEPS, level="hard")
        task["embodied"]["view"] = "walker"
        task["web"]["sites"] = {"map": {"plain": True}}
        out.append(task)
    if len(out) < N_HARD_NAV:
        raise RuntimeError(f"only {len(out)} of {N_HARD_NAV} hard navigation tasks could be drawn ({per_split})")
    for i, t in enumerate(out):
        t["task_id"] = f"nav-hard-{i:03d}"
    return out


def render() -> str:
    """The file's text: one task per line, keys sorted."""
    from embodiedweb.worlds.street.city import load_city

    tasks = hard_navigation(load_city(), random.Random(SEED))
    return "".join(json.dumps(t, ensure_ascii=False, sort_keys=True) + "\n" for t in tasks)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the shipped file instead of writing it")
    a = ap.parse_args(argv)
    return write_or_check(hard_path(), render(), a.check, __spec__.name)


if __name__ == "__main__":
    sys.exit(main())
