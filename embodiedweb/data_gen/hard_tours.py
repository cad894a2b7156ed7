"""The hard navigation tier's walking tours (``nav-hard-120`` ...; written with the rest of the tier by
``python -m embodiedweb.data_gen.hard_navigation``).

A tour task asks the agent to visit three places, each described as the tier describes a destination
(:mod:`embodiedweb.data_gen.described_places`: its kind and facts of its wiki infobox, a rank or a hop, never
its name or address), in any order, to stop at the one it visits last, and to walk at most ``limit_m``
metres in all, counted along the streets from the start corner. The limit is the shortest open tour from the
start through the three places (over every order; legs measured as the map's directions measure them,
:meth:`~embodiedweb.worlds.street.city.City.shortest_length`) times :data:`SLACK`, rounded to 50 m: room for
the rounding and for an agent that follows the map's routes, none for a wrong order.

What makes a tour hard is the planning: the agent identifies three places, asks the map how far apart they
are and chooses the order. Against lazy orders (:func:`lazy_orders`: the order the instruction lists the
places in, nearest first from wherever the walker stands, the places by their distance from the start
nearest or farthest first, by name) the generator holds each lazy order to :data:`LAZY_CAPS` of a split's
tours: none for the listed order, nearest first and farthest first (a shortcut agent's likeliest orders; with
a third, it would pass a third of the tours), a third for the others. That leaves no tour of two places (there,
one of nearest first and farthest first is the shortest order). The places are each other's look-alikes no closer than
:data:`~embodiedweb.data_gen.described_places.CLEAR_M`, and the first leg's and later legs' routes of the
shortest tour pass no other place of the tour (the walker first reaches each place on its own leg). A tour's
places are all of one split (the standard tier's split of each place), half the tours test, half train.
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

from embodiedweb.data_gen.described_places import (
    CLEAR_M,
    LazyCaps,
    as_walker_task,
    described_places,
    goal_description,
    shortcut_free,
    shortcut_targets,
    task_kind,
    walking,
    weight,
)

#: tours (half test, half train)
N_TOURS = 24
#: places per tour
PLACES = 3
#: the limit is the shortest tour times this, rounded to :data:`ROUND_M`; kept only when the rounded limit is
#: within :data:`SLACK_RANGE` of the shortest tour
SLACK = 1.10
ROUND_M = 50
SLACK_RANGE = (1.08, 1.12)
#: the shortest tour's length (m)
TOUR_M = (1200.0, 2400.0)
#: the share of a split's tours each lazy order (:func:`lazy_orders`) may walk within the limit: none for the
#: orders a shortcut agent is most likely to take (as listed, nearest first, farthest first), a third for the rest
LAZY_CAPS = {"listed": 0.0, "nearest": 0.0, "farthest": 0.0, "by distance": 1 / 3, "by name": 1 / 3}
#: at most this share of a split's tour places is described by a single fact (the tier's single destinations:
#: a quarter, :data:`~embodiedweb.data_gen.described_places.MAX_SINGLE`; most places near others have only one)
MAX_SINGLE_TOURS = 0.4
#: tours a place may be part of at most
MAX_USES = 4
#: places of a tour are at least this far apart, and the start this far from each (walking metres)
APART_M = 150.0
#: extra steps per place over the walk's standard budget: its wiki look-up and its directions
STEPS_PER_PLACE = 45
#: the seed of the tours' own draw (the tier's single-destination tasks keep theirs)
TOUR_SEED = "29:tours"

INSTRUCTION = ("Visit three places, in any order: {descs}. Find out on the wiki which places they are, plan your walk "
               "with the map website's walking directions, walk to each and stop in front of the one you visit last. "
               "You can walk at most {limit:,} m in all, counted along the streets from the street corner whose signs "
               "you see, where you start.")


def tour_length(city: Any, nodes: list[str]) -> float:
    """The walk through ``nodes`` in turn, each leg the shortest route (the map's directions' length)."""
    return sum(city.shortest_length(a, b) for a, b in itertools.pairwise(nodes))


def lazy_orders(city: Any, start: str, listed: list[str], node: dict[str, str], name: dict[str, str],
                metres: Any = None) -> dict[str, list[str]]:
    """The orders a walker who does not plan might visit the places of ``listed`` (place ids) in:
    ``listed`` (as the instruction lists them), ``nearest`` (nearest first from wherever the walker stands,
    walking distance), ``by distance`` (by walking distance from the start, nearest first), ``farthest``
    (the same, farthest first) and ``by name`` (the places' names in alphabetical order). ``node``: each
    place's street node; ``name``: its name; ``metres(node, place)``: the walking distance (by default the
    map's, :meth:`~embodiedweb.worlds.street.city.City.shortest_length`)."""
    metres = metres or (lambda n, p: city.shortest_length(n, node[p]))
    from_start = {p: metres(start, p) for p in listed}
    greedy, here, left = [], start, list(listed)
    while left:
        nxt = min(left, key=lambda p: (metres(here, p), p))
        greedy.append(nxt)
        left.remove(nxt)
        here = node[nxt]
    by_dist = sorted(listed, key=lambda p: (from_start[p], p))
    return {"listed": list(listed), "nearest": greedy, "by distance": by_dist, "farthest": by_dist[::-1],
            "by name": sorted(listed, key=lambda p: (name[p].lower(), p))}


def limit_of(best: float) -> int:
    """The walking limit (m) of a tour whose shortest walk is ``best`` metres."""
    return int(round(best * SLACK / ROUND_M) * ROUND_M)


def _passes_others(city: Any, order: list[str], start: str, node: dict[str, str]) -> bool:
    """Some leg of the walk through ``order`` passes within the goal radius of a tour place visited later (the
    walker would reach it before its own leg)."""
    from embodiedweb.domains.outdoor.common import GOAL_RADIUS_M

    near = {p: city.within_walk(node[p], GOAL_RADIUS_M) | {node[p]} for p in order}
    here = start
    for i, p in enumerate(order):
        leg = city.route(here, node[p])
        if any(n in near[q] for q in order[i + 1:] for n in leg):
            return True
        here = node[p]
    return False


def hard_tours(city: Any, first_id: int, description_seed: int) -> list[dict[str, Any]]:
    """The tour tasks (see the module docstring), ids from ``nav-hard-{first_id}``, the places described as the
    single-destination tier describes them (``description_seed``: its seed, so each place reads the same in both)."""
    from embodiedweb.data_gen.outdoor_tasks import _max_steps, _split, _task

    rng = random.Random(TOUR_SEED)
    boxes, names, described = described_places(city, description_seed)
    node = {p: city.place_node(p) for p in described}
    by_split = {s: sorted(p for p in described if _split(p) == s) for s in ("test", "train")}
    caps = LazyCaps()
    uses: dict[str, int] = {}
    singles = {"test": 0, "train": 0}
    lazy_hits: dict[tuple[str, str], int] = {}
    out: list[dict[str, Any]] = []
    between = {p: city.distances_to(node[p]) for p in described}  # walking metres from every node to p
    rings: dict[str, list[str]] = {}  # the nodes a tour whose first drawn place is p may start at
    tries = 0
    why: dict[str, int] = {}

    def reject(reason: str) -> None:
        why[reason] = why.get(reason, 0) + 1

    while len(out) < N_TOURS and tries < 600000:
        tries += 1
        split = ("test", "train")[tries % 2]
        if sum(t["split"] == split for t in out) >= N_TOURS // 2:
            continue
        pool = [p for p in by_split[split] if uses.get(p, 0) < MAX_USES]
        first = rng.choices(pool, weights=[max(weight(d) for d in described[p]) for p in pool])[0]
        close = [p for p in pool if p != first and APART_M < between[p].get(node[first], math.inf) < 1100]
        if len(close) < PLACES - 1:
            reject("no close places")
            continue
        picked = [first]
        for _ in range(PLACES - 1):
            left = [p for p in close if p not in picked]
            picked.append(rng.choices(left, weights=[max(weight(d) for d in described[p]) for p in left])[0])
        if any(between[b].get(node[a], math.inf) <= APART_M for a, b in itertools.combinations(picked, 2)):
            reject("places too close")
            continue
        ring = rings.get(first)
        if ring is None:
            ring = rings[first] = sorted(n for n, d in between[first].items() if APART_M < d <= 1200 and city.degree(n) >= 3)
        start = rng.choice(ring)
        if any(not APART_M < between[p].get(start, math.inf) <= 1500 for p in picked):
            reject("start")
            continue
        rough = {o: between[o[0]][start] + sum(between[b][node[a]] for a, b in itertools.pairwise(o))
                 for o in itertools.permutations(picked)}
        if not TOUR_M[0] * 0.98 <= min(rough.values()) <= TOUR_M[1] * 1.02:
            reject("length")
            continue
        orders = rough  # until the tour is kept: then measured as the map measures, and checked again
        best_order = min(orders, key=lambda o: (orders[o], o))
        best = orders[best_order]
        limit = limit_of(best)
        if not TOUR_M[0] <= best <= TOUR_M[1] or not SLACK_RANGE[0] <= limit / best <= SLACK_RANGE[1]:
            reject("length or slack")
            continue
        bad = [o for o in orders if orders[o] > limit]
        if not bad:
            reject("every order fits")
            continue
        listed = list(rng.choice(sorted(bad)))
        lazy = lazy_orders(city, start, listed, node, names, lambda n, p: between[p][n])
        hits = [k for k, o in lazy.items() if orders[tuple(o)] <= limit]
        n_split = sum(t["split"] == split for t in out) + 1
        if any(lazy_hits.get((split, k), 0) + 1 > int(LAZY_CAPS[k] * n_split + 1e-9) for k in hits):
            reject("lazy order fits")
            continue
        if _passes_others(city, list(best_order), start, node):
            reject("passes another place")
            continue
        exact = {o: tour_length(city, [start, *(node[p] for p in o)]) for o in itertools.permutations(picked)}
        if (min(exact, key=lambda o: (exact[o], o)) != best_order or limit_of(exact[best_order]) != limit
                or any((exact[o] <= limit) != (orders[o] <= limit) for o in orders)):
            reject("the map's lengths differ")
            continue
        orders, best = exact, exact[best_order]
        dist = walking(city, start, boxes)
        descs = {}
        for p in picked:
            ds = described[p]
            descs[p] = rng.choices(ds, weights=[weight(d) for d in ds])[0]
        n_single = sum(weight(d) == 1 for d in descs.values())
        if singles[split] + n_single > MAX_SINGLE_TOURS * PLACES * N_TOURS // 2:
            reject("single facts")
            continue
        if not all(shortcut_free(city, start, p, descs[p], boxes, dist, nearest=False) for p in picked):
            reject("shortcut")
            continue
        # no look-alike of one place is another place of the tour or near one (walking to a look-alike
        # instead must not reach a place of the tour by chance)
        if any(t in picked or any(city.shortest_length(city.place_node(t), node[q]) <= CLEAR_M for q in picked)
               for p in picked for t in shortcut_targets(boxes, descs[p], dist) - {p} if city.place_node(t)):
            reject("look-alike near a tour place")
            continue
        rights = {p: caps.right(boxes, descs[p], dist, p) for p in picked}
        if not all(caps.admits(task_kind(descs[p]), split, rights[p]) for p in picked):
            reject("lazy rank cap")
            continue
        for p in picked:
            caps.add(task_kind(descs[p]), split, rights[p])
            uses[p] = uses.get(p, 0) + 1
        for k in hits:
            lazy_hits[(split, k)] = lazy_hits.get((split, k), 0) + 1
        singles[split] += n_single
        fitting = sorted(o for o in orders if orders[o] <= limit)
        path = [start]
        for p in best_order:
            path += city.route(path[-1], node[p])[1:]
        stops = [{"place": p, "node": node[p], "name": names[p], **goal_description(descs[p])} for p in listed]
        phrases = [s["description"] for s in stops]
        text = "; ".join(phrases[:-1]) + "; and " + phrases[-1]
        task = _task("EWA-Navigation-v0", "", INSTRUCTION.format(descs=text, limit=limit), start,
                     rng.uniform(0, 360),
                     {"tour": stops, "limit_m": limit, "tour_m": round(best, 1), "route_m": round(best, 1),
                      "best_order": list(best_order), "fitting_orders": [list(o) for o in fitting],
                      "checkpoints": []},
                     split, _max_steps(len(path)) + STEPS_PER_PLACE * PLACES, level="hard")
        out.append(as_walker_task(task))
    if len(out) < N_TOURS:
        raise RuntimeError(f"only {len(out)} of {N_TOURS} tours could be drawn ({tries} tries; rejected: {why})")
    for i, t in enumerate(out):
        t["task_id"] = f"nav-hard-{first_id + i:03d}"
    return out
