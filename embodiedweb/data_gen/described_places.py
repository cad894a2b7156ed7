"""Places described by their wiki facts instead of their names (the hard tier's destinations): the
descriptions, and the checks that keep a description from being guessed.

A description is a place's kind (its wiki infobox's Type) and the fewest further facts of its infobox
(neighbourhood, decade completed, year opened, floors, architect, style) that fit it alone among the wiki's
places; :func:`describe` and :func:`shortcut_free` give the rules. Used by
:mod:`embodiedweb.data_gen.hard_navigation` and :mod:`embodiedweb.data_gen.hard_traveling`.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from typing import Any

from embodiedweb.paths import data_dir

#: name words that say nothing of a place's identity (a description may share them with the name)
GENERIC = {"the", "of", "and", "new", "york", "street", "building", "center", "centre", "hall", "house",
           "square", "park", "station", "church", "theatre", "theater", "museum", "library", "hotel", "market",
           "tower", "bridge", "memorial", "plaza", "avenue", "place"}
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


def described_places(city: Any, seed: int) -> tuple[dict[str, dict[str, str]], dict[str, str],
                                                   dict[str, tuple[str, dict[str, str]]]]:
    """``(infoboxes, wiki titles, {place_id: (phrase, facts)})`` of every place on the street graph that has a
    description (drawn per place from ``seed``)."""
    boxes = infoboxes()
    articles = json.loads((data_dir() / "wiki" / "articles.json").read_text(encoding="utf-8"))
    names = {a["place_id"]: a["title"] for a in articles if a.get("kind") == "place"}
    walkable = frozenset(p for p in boxes if city.place_node(p))
    described = {}
    for pid in sorted(boxes):
        if city.place_node(pid):
            got = describe(pid, names, boxes, random.Random(f"{seed}:{pid}"), walkable)
            if got:
                described[pid] = got
    return boxes, names, described


def as_walker_task(task: dict[str, Any]) -> dict[str, Any]:
    """A task dict made to give the walker's street views and a plain map session (the hard tier's)."""
    task["embodied"]["view"] = "walker"
    task["web"]["sites"] = {**task["web"].get("sites", {}), "map": {"plain": True}}
    return task
