"""Places described by their wiki facts instead of their names (the hard tier's destinations): the
descriptions, and the checks that keep a description from being guessed.

A description is a place's kind (its wiki infobox's Type) and facts of its infobox (neighbourhood, decade
completed, year opened, floors, architect, style) that fit it alone among the wiki's places, or a rank
within its kind ("completed first"), or a hop through another place ("designed by the architect of ...");
:func:`describe`, :func:`shortcut_free` and :class:`LazyCaps` give the rules. Used by
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


#: ranks a description can single a place out by, among the places of its kind (and scope): the infobox
#: field compared, whether the highest wins, and the phrase
RANKS: dict[str, tuple[str, bool, str]] = {
    "first": ("Completed", False, "that was completed first"),
    "last": ("Completed", True, "that was completed last"),
    "most_floors": ("Floors", True, "with the most floors"),
}
#: shortcut targets (the nearest or first place fitting part of a description, the anchor, a rank's other end)
#: other than the destination are never this close to it along the streets (the checkers' goal radius is 20 m)
CLEAR_M = 40.0
#: every looser part of a description (:func:`parts`) fits at least this many places on the street graph: with
#: two, the one that is not the nearest from the start was forced (until stop 32 the 2nd nearest dropping the
#: neighbourhood of two-fact navigation tasks was right on 11 of 17)
MIN_WALKABLE = 3


def ranked(boxes: dict[str, dict[str, str]], pids: list[str], rank: str, reverse: bool = False) -> list[str]:
    """The place(s) of ``pids`` at the top of ``rank`` (at its other end with ``reverse``): one when the top
    is unique and every place has the compared field, else all of ``pids`` (the rank does not decide)."""
    field, highest, _ = RANKS[rank]
    if not pids or not all(boxes[p].get(field, "").isdigit() for p in pids):
        return pids
    value = {p: int(boxes[p][field]) for p in pids}
    best = (max if highest != reverse else min)(value.values())
    top = [p for p in pids if value[p] == best]
    return top if len(top) == 1 else pids


def fits(boxes: dict[str, dict[str, str]], desc: dict[str, Any]) -> list[str]:
    """The places a description (``{"kind", "facts", "rank"?}``) fits."""
    base = matches(boxes, desc["kind"], desc["facts"])
    return ranked(boxes, base, desc["rank"]) if desc.get("rank") else base


def parts(desc: dict[str, Any]) -> list[dict[str, str]]:
    """The looser descriptions a guesser might settle for (fact sets, without a rank): every proper subset
    of the facts, and for a ranked description the facts without the rank too."""
    keys = sorted(desc["facts"])
    upto = len(keys) + 1 if desc.get("rank") else len(keys)
    return [{k: desc["facts"][k] for k in part} for n in range(upto) for part in itertools.combinations(keys, n)]


def _phrase(kind: str, facts: dict[str, tuple[str, str]], combo: tuple[str, ...], rank: str | None = None,
            anchor: str | None = None) -> str:
    style = facts["style"][0] + " " if "style" in combo else ""
    where = facts["neighborhood"][1] if "neighborhood" in combo else ""
    said = [facts[k][1] for k in ("decade", "opened", "floors") if k in combo]
    if "architect" in combo:
        said.append(f"designed by the architect of {anchor}" if anchor else facts["architect"][1])
    rest = " and ".join(said)
    phrase = f"the {style}{kind.lower()}" + (f" {where}" if where else "") + (
        f"{',' if where else ''} {rest}" if rest else "")
    return phrase + (f" {RANKS[rank][2]}" if rank else "")


def describe(pid: str, names: dict[str, str], boxes: dict[str, dict[str, str]], rng: random.Random,
             walkable: frozenset[str] = frozenset(), apart: Any = None) -> list[dict[str, Any]]:
    """The descriptions of ``pid`` (``{"kind", "facts", "rank", "anchor", "phrase"}``), at most one of each
    kind, ``rng`` drawing among the candidates of a kind:

    - **a rank** within the kind and a scope (a neighbourhood, a decade or none): "the skyscraper in Midtown
      that was completed first" (at least three places in the scope, all with the compared field; the
      agent compares them, e.g. on the wiki's list of the kind);
    - **a hop** through another place: "the theatre designed by the architect of the Shubert Theatre"
      (the anchor, another place by the same architect, ``apart(anchor, pid)`` from the destination; the
      agent reads the anchor's article, then the architect's works);
    - **facts**: the kind and 2 or 3 facts of the infobox; and the kind and 1 fact.

    Every description fits only ``pid``, shares no telling word with its name (``names``: wiki titles),
    and every part a guesser might settle for (:func:`parts`) fits at least two places, :data:`MIN_WALKABLE`
    of them ``walkable`` (on the street graph), of which ``pid`` is not the first by name (among all, and among the ``walkable`` ones: the wiki's categories and lists
    are alphabetical)."""
    box = boxes[pid]
    kind = box["Type"]
    facts = facts_of(box)
    keys = sorted(facts)
    rng.shuffle(keys)

    def fair(desc: dict[str, Any]) -> bool:
        if fits(boxes, desc) != [pid] or _words(desc["phrase"]) & _words(names[pid]):
            return False
        for part in parts(desc):
            pool = matches(boxes, kind, part)
            if len(pool) < 2 or sum(q in walkable for q in pool) < MIN_WALKABLE or any(p and min(p, key=lambda q: names[q].lower()) == pid
                                    for p in (pool, [q for q in pool if q in walkable])):
                return False
        return True

    def by_rank() -> dict[str, Any] | None:
        scopes = [s for s in (("neighborhood",), ("decade",), ()) if all(k in facts for k in s)]
        for scope, rank in itertools.product(rng.sample(scopes, len(scopes)), rng.sample(sorted(RANKS), len(RANKS))):
            if scope == ("decade",) and rank != "most_floors":  # "completed in the 1980s, completed first"
                continue
            chosen = {k: facts[k][0] for k in scope}
            if len(matches(boxes, kind, chosen)) < 3:
                continue
            desc = {"kind": kind, "facts": chosen, "rank": rank, "phrase": _phrase(kind, facts, scope, rank)}
            if fair(desc):
                return desc
        return None

    def by_hop() -> dict[str, Any] | None:
        if "architect" not in facts:
            return None
        anchors = sorted(q for q in boxes if q != pid and boxes[q].get("Architect") == box["Architect"]
                         and (apart is None or apart(q, pid)))
        if not anchors:
            return None
        anchor = rng.choice(anchors)
        for extra in [()] + [(k,) for k in keys if k != "architect"]:
            combo = ("architect", *extra)
            desc = {"kind": kind, "facts": {k: facts[k][0] for k in combo}, "anchor": anchor,
                    "phrase": _phrase(kind, facts, combo, anchor=names[anchor])}
            if fair(desc):
                return desc
        return None

    def by_facts(sizes: tuple[int, ...]) -> dict[str, Any] | None:
        for size in sizes:
            for combo in itertools.combinations(keys, size):
                desc = {"kind": kind, "facts": {k: facts[k][0] for k in combo},
                        "phrase": _phrase(kind, facts, combo)}
                if fair(desc):
                    return desc
        return None

    makers = [by_rank, by_hop, lambda: by_facts((2, 3)), lambda: by_facts((1,))]
    return [{"rank": None, "anchor": None, **d} for d in (make() for make in makers) if d]


def shortcut_targets(boxes: dict[str, dict[str, str]], desc: dict[str, Any], dist: dict[str, float],
                     nearest: bool = True) -> set[str]:
    """The places a guesser who read the description might walk to instead (``dist``: walking metres from
    the start, of the places on the street graph): the nearest fitting each part (:func:`parts`; left out
    with ``nearest=False``), the anchor, and a rank's other end."""
    out = set()
    for part in parts(desc) if nearest else []:
        pool = [p for p in matches(boxes, desc["kind"], part) if p in dist]
        if pool:
            out.add(min(pool, key=lambda p: (dist[p], p)))
    if desc.get("anchor"):
        out.add(desc["anchor"])
    if desc.get("rank"):
        out.update(ranked(boxes, matches(boxes, desc["kind"], desc["facts"]), desc["rank"], reverse=True))
    return out


def walking(city: Any, start: str, boxes: dict[str, dict[str, str]]) -> dict[str, float]:
    """Walking metres from ``start`` to each place of ``boxes`` on the street graph."""
    from embodiedweb.worlds.street.world import walking_distances

    walk = walking_distances(city, start, 1e9)
    return {p: walk[n] for p in boxes if (n := city.place_node(p)) in walk}


def shortcut_free(city: Any, start: str, pid: str, desc: dict[str, Any], boxes: dict[str, dict[str, str]],
                  dist: dict[str, float] | None = None, nearest: bool = True) -> bool:
    """No shortcut target (:func:`shortcut_targets`) is the destination or within :data:`CLEAR_M` of it along
    the streets (``dist``: :func:`walking` from ``start``, computed when not given). With ``nearest=False``
    the nearest place fitting a part may be the destination itself (:class:`LazyCaps` then holds how often),
    but no other place so close to it."""
    node = {p: city.place_node(p) for p in boxes}
    dist = walking(city, start, boxes) if dist is None else dist
    return all(t != pid and (node.get(t) is None or city.shortest_length(node[t], node[pid]) > CLEAR_M)
               for t in shortcut_targets(boxes, desc, dist, nearest)) and (nearest or all(
        t == pid or node.get(t) is None or city.shortest_length(node[t], node[pid]) > CLEAR_M
        for t in shortcut_targets(boxes, desc, dist) - shortcut_targets(boxes, desc, dist, False)))


def described_places(city: Any, seed: int) -> tuple[dict[str, dict[str, str]], dict[str, str],
                                                   dict[str, list[dict[str, Any]]]]:
    """``(infoboxes, wiki titles, {place_id: descriptions})`` of every place on the street graph that has a
    description (:func:`describe`, drawn per place from ``seed``)."""
    boxes = infoboxes()
    articles = json.loads((data_dir() / "wiki" / "articles.json").read_text(encoding="utf-8"))
    names = {a["place_id"]: a["title"] for a in articles if a.get("kind") == "place"}
    walkable = frozenset(p for p in boxes if city.place_node(p))

    def apart(a: str, b: str) -> bool:
        na, nb = city.place_node(a), city.place_node(b)
        return na is None or nb is None or city.shortest_length(na, nb) > CLEAR_M

    described = {}
    for pid in sorted(boxes):
        if city.place_node(pid):
            got = describe(pid, names, boxes, random.Random(f"{seed}:{pid}"), walkable, apart)
            if got:
                described[pid] = got
    return boxes, names, described


def as_walker_task(task: dict[str, Any]) -> dict[str, Any]:
    """A task dict made to give the walker's street views and a plain map session (the hard tier's)."""
    task["embodied"]["view"] = "walker"
    task["web"]["sites"] = {**task["web"].get("sites", {}), "map": {"plain": True}}
    return task


def goal_description(desc: dict[str, Any]) -> dict[str, Any]:
    """A description as a task's goal records it: ``description`` (the phrase), ``facts`` (the kind and the
    facts), and ``rank`` / ``anchor`` when it has them."""
    out: dict[str, Any] = {"description": desc["phrase"], "facts": {"kind": desc["kind"], **desc["facts"]}}
    out.update({k: desc[k] for k in ("rank", "anchor") if desc.get(k)})
    return out


def goal_as_description(goal: dict[str, Any]) -> dict[str, Any]:
    """The description a task's goal records (the inverse of :func:`goal_description`)."""
    facts = dict(goal["facts"])
    return {"kind": facts.pop("kind"), "facts": facts, "rank": goal.get("rank"), "anchor": goal.get("anchor"),
            "phrase": goal["description"]}


#: how much likelier a place with a rank, a hop or several facts is drawn than one with a single fact
MULTI_WEIGHT = 4
#: at most this share of each split of a hard suite is described by a single fact
MAX_SINGLE = 0.25


def weight(desc: dict[str, Any]) -> int:
    """The draw weight of a place by its description (:data:`MULTI_WEIGHT` unless it is a single fact)."""
    return MULTI_WEIGHT if desc.get("rank") or desc.get("anchor") or len(desc["facts"]) > 1 else 1


#: the positions a rank-based lazy reading picks among the walkable places fitting a looser part of a
#: description, nearest first by walking distance from the start: the nearest, 2nd, 3rd, the 2nd farthest and
#: the farthest (name: index in the list)
POSITIONS = {"#1": 0, "#2": 1, "#3": 2, "2nd last": -2, "last": -1}


def task_kind(desc: dict[str, Any]) -> str:
    """A description's kind as a guesser tells it from the wording: ``rank`` ("... that was completed
    first"), ``hop`` ("designed by the architect of ..."), ``facts`` (two or three facts) or ``fact`` (one)."""
    return "rank" if desc.get("rank") else "hop" if desc.get("anchor") else "facts" if len(desc["facts"]) > 1 else "fact"


def rank_picks(boxes: dict[str, dict[str, str]], desc: dict[str, Any], dist: dict[str, float]) -> dict[str, str]:
    """What each rank-based lazy reading of a description walks to (``dist``: walking metres from the start
    of the walkable places): for each looser part (:func:`parts`), named by the facts it keeps (``keep:``)
    and by those it drops (``drop:``; ``drop:rank`` for a rank's own facts), the place at each of
    :data:`POSITIONS` among the walkable places fitting the part, nearest first. ``{strategy: place}``."""
    out: dict[str, str] = {}
    every = set(desc["facts"])
    for part in parts(desc):
        pool = sorted((p for p in matches(boxes, desc["kind"], part) if p in dist), key=lambda p: (dist[p], p))
        if not pool:
            continue
        kept, dropped = sorted(part), sorted(every - set(part))
        names = ("keep:" + ("+".join(kept) or "-"), "drop:" + ("+".join(dropped) or "rank"))
        at = {pos: pool[i] for pos, i in POSITIONS.items() if -len(pool) <= i < len(pool)}
        for name in names:
            for pos, p in at.items():
                out[f"{name} {pos}"] = p
    return out


#: no rank-based lazy reading (:func:`rank_picks`) walks to the destination of more than this share of the
#: tasks of one kind (:func:`task_kind`) in one split (one task when there are fewer than three)
LAZY_CAP = 1 / 3


class LazyCaps:
    """The count, per task kind and split, of the tasks drawn and of those each rank-based lazy reading gets
    right, to hold every reading to :data:`LAZY_CAP` while a suite is drawn (the shopping generator's
    ``RULE_BLIND_CAP``, :mod:`embodiedweb.data_gen.outdoor_tasks`). The cap holds at every step, so it holds
    for the suite drawn whatever its final count of each kind."""

    def __init__(self, cap: float = LAZY_CAP) -> None:
        self.cap = cap
        self.tasks: dict[tuple[str, str], int] = {}
        self.hits: dict[tuple[str, str, str], int] = {}

    def right(self, boxes: dict[str, dict[str, str]], desc: dict[str, Any], dist: dict[str, float], pid: str) -> list[str]:
        """The lazy readings of ``desc`` that walk to ``pid``."""
        return sorted(k for k, p in rank_picks(boxes, desc, dist).items() if p == pid)

    def admits(self, kind: str, split: str, right: list[str]) -> bool:
        """Whether one more task of ``kind`` in ``split``, which the readings ``right`` get right, keeps them
        all within the cap."""
        allowed = max(1, int(self.cap * (self.tasks.get((kind, split), 0) + 1) + 1e-9))
        return all(self.hits.get((kind, split, k), 0) < allowed for k in right)

    def add(self, kind: str, split: str, right: list[str]) -> None:
        self.tasks[(kind, split)] = self.tasks.get((kind, split), 0) + 1
        for k in right:
            self.hits[(kind, split, k)] = self.hits.get((kind, split, k), 0) + 1
