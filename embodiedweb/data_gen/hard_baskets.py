"""Basket errands of the shopping hard tier (``shop-hard-200`` ...; stop 37; written with the rest of the tier by
``python -m embodiedweb.data_gen.hard_shopping``).

A basket task asks the agent to buy three or four items (each a product with options and a quantity, described as
the tier's single purchases describe them), every unit of an item from one store but the items split across the
stores as it likes, for pickup; to spend at most ``goal.budget`` dollars in all and to walk at most
``goal.limit_m`` metres, along the streets from the start to the last store it collects from. Each item is sold
at three or four of the four stores at different prices (the catalogue's own prices and stock, nothing set for
the session but the budget), so each way of splitting the basket (an **assignment**: a store per item) has a total
and a walk: the shortest open walk from the start through its stores (over every order, legs as the map measures
them, :meth:`~embodiedweb.worlds.street.city.City.shortest_length`).

What makes a basket hard is that the two limits interact across the stores: cheap stores are far apart and near
stores are dear. :func:`draw_basket` keeps a basket only when exactly one assignment meets both limits, with room
to spare (its total at most the budget, its walk :data:`ROOM_M` or more under the limit), and every other
assignment misses one of them by a margin (a total more than :data:`BUDGET_MARGIN` over the budget, or a walk more
than :data:`MISS_M` over the limit: walking to a store's corner within the goal radius cannot make up for it);
and when none of the obvious plans (:func:`heuristic_assignments`: the cheapest store per item, one store for all,
the nearest store per item, the cheapest per item repaired by dropping stores until the walk fits, the nearest per
item repaired by moving items to cheaper stores until the total fits, the two stores nearest the start, the
shortest-walk or cheapest pair of stores, the stores within the limit of the start, the nearest store next taking
all it sells) is that assignment (:data:`HEURISTIC_CAP`: none). The answer's pair of stores is no more than
:data:`PAIR_CAP` of a split's baskets. Items are of the task's split (the standard tier's split of each product).

The checker (:func:`embodiedweb.domains.outdoor.baskets.check_basket`) reads the rule, not the answer: any set of
orders and walk meeting both limits passes (the generator makes that set one assignment). Same seed, same bytes.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from embodiedweb.data_gen.described_places import as_walker_task
from embodiedweb.data_gen.outdoor_tasks import _split, _task

#: the seed of the baskets' draw (the tier's other families keep theirs)
BASKET_SEED = "37:baskets"
#: how every hard shopping instruction (single purchases, errands, baskets) says where the agent starts: not by
#: name (stop 38, as hard navigation's): the walker reads the street signs at its corner in the street view, and a
#: store's storefront sign (its name and house number) tells it that it has arrived
WHERE_YOU_START = "You start at the street corner whose signs you see in the street view."
#: per split, the number of items of its 1st, 2nd ... basket (so a split has ``len(BASKET_ITEMS)`` baskets)
BASKET_ITEMS = (3, 3, 3, 3, 4, 4, 4)
#: the quantities an item is asked in
QTYS = (1, 2, 3)
#: the limit is the answer's walk times this, rounded up to :data:`ROUND_M`, and at least :data:`ROOM_M` over it
WALK_SLACK = 1.05
ROUND_M = 50
ROOM_M = 60.0
#: every other assignment's walk that fits the budget is this much over the limit (the goal radius at each store
#: and its corners cannot make up for it)
MISS_M = 100.0
#: every other assignment whose walk fits the limit costs more than the budget by at least this much
BUDGET_MARGIN = 0.10
#: the answer's walk is at most this long (about 240 of the env's 400 steps; the rest for the web)
MAX_ROUTE_M = 3000.0
#: no obvious plan (:func:`heuristic_assignments`) is the answer of any basket
HEURISTIC_CAP = 0.0
#: no pair of stores is the answer's stores in more than this share of a split's baskets
PAIR_CAP = 0.5
#: EWA-Shopping-v0's step limit (``envs/shopping.toml``): every basket's own budget
ENV_MAX_STEPS = 400
#: draws before the generator gives up
MAX_TRIES = 200_000

Assignment = tuple[str, ...]


def store_nodes(city: Any) -> dict[str, str]:
    """Each store's street node (where its address is), by store id."""
    from web_sites.shop import catalog

    return {s["store_id"]: city.locate(s["address"]).node_id for s in catalog.stores()}


def store_legs(city: Any, nodes: dict[str, str]) -> dict[tuple[str, str], float]:
    """The map's walking length from each store to each other (and 0 to itself), by store ids."""
    return {(a, b): city.shortest_length(nodes[a], nodes[b]) if a != b else 0.0 for a in nodes for b in nodes}


def line_totals(items: Sequence[dict[str, Any]]) -> list[dict[str, float]]:
    """For each item, ``{store: qty x unit price with its options}`` at every store that sells it."""
    from web_sites.shop import catalog

    out = []
    for it in items:
        totals = {}
        for s in catalog.stores_selling(it["product_id"]):
            unit = catalog.price(it["product_id"], s, it["options"])
            assert unit is not None
            totals[s] = round(unit * it["qty"], 2)
        out.append(totals)
    return out


def walks(start: str, legs: Callable[[str, str], float], nodes: dict[str, str]
          ) -> dict[frozenset[str], tuple[float, tuple[str, ...]]]:
    """For every non-empty set of stores, ``(metres, order)`` of the shortest open walk from ``start`` through them
    (ties: the first order in store-id order)."""
    out: dict[frozenset[str], tuple[float, tuple[str, ...]]] = {}
    ids = sorted(nodes)
    for k in range(1, len(ids) + 1):
        for combo in itertools.combinations(ids, k):
            best: tuple[float, tuple[str, ...]] | None = None
            for order in itertools.permutations(combo):
                ends = [start, *(nodes[s] for s in order)]
                m = sum(legs(a, b) for a, b in zip(ends, ends[1:], strict=False))
                if best is None or m < best[0] - 1e-9:
                    best = (m, order)
            assert best is not None
            out[frozenset(combo)] = best
    return out


def cost(totals: list[dict[str, float]], a: Assignment) -> float:
    """The total of assignment ``a`` (a store per item)."""
    return round(sum(t[s] for t, s in zip(totals, a, strict=True)), 2)


def walk_of(walk: dict[frozenset[str], tuple[float, tuple[str, ...]]], a: Assignment) -> float:
    """The shortest walk through the stores of assignment ``a``."""
    return walk[frozenset(a)][0]


def cheapest_within(totals: list[dict[str, float]], stores: set[str] | frozenset[str]) -> Assignment | None:
    """Each item at its cheapest store among ``stores`` (None when one of them sells an item nowhere)."""
    out = []
    for t in totals:
        there = [s for s in t if s in stores]
        if not there:
            return None
        out.append(min(there, key=lambda s: (t[s], s)))
    return tuple(out)


def heuristic_assignments(totals: list[dict[str, float]], dist: dict[str, float],
                          walk: dict[frozenset[str], tuple[float, tuple[str, ...]]], limit_m: float,
                          budget: float, store_dist: Callable[[str, str], float]) -> dict[str, Assignment]:
    """The obvious plans a shopper might follow without weighing the two limits against each other (name ->
    assignment): ``cheapest per item``; ``one store: <id>`` for each store selling every item; ``nearest per
    item`` (walking from the start); ``cheapest, then drop the farthest store`` / ``cheapest, then drop the store
    cheapest to lose`` (the cheapest per item, then while the walk is over the limit a store dropped and its items
    moved to their cheapest remaining store: the store whose loss saves most walk, or costs least); ``nearest, then
    cheaper until in budget`` (the nearest per item, then while over budget the item whose move to a store already
    used or its cheapest store saves most moved there); ``two nearest stores`` (the cheapest per item of the two
    stores nearest the start); ``shortest-walk pair`` / ``cheapest pair`` (of the pairs of stores selling every
    item, the one with the shortest walk or the lowest total, each item at its cheaper store of the two);
    ``stores within the limit`` (the cheapest per item among the stores the limit reaches from the start, read as
    a radius); ``nearest store next`` (walk to the nearest store, take there every item it sells, then on to the
    store nearest to it for the rest)."""
    n = len(totals)
    all_stores = sorted({s for t in totals for s in t})
    by_dist = sorted(all_stores, key=lambda s: (dist[s], s))
    out: dict[str, Assignment] = {}
    cheapest = cheapest_within(totals, set(all_stores))
    assert cheapest is not None
    out["cheapest per item"] = cheapest
    for s in all_stores:
        if all(s in t for t in totals):
            out[f"one store: {s}"] = (s,) * n
    out["nearest per item"] = tuple(min(t, key=lambda s: (dist[s], s)) for t in totals)
    for name, pick in (("cheapest, then drop the farthest store", "walk"),
                       ("cheapest, then drop the store cheapest to lose", "cost")):
        a = cheapest
        while walk_of(walk, a) > limit_m and len(set(a)) > 1:
            options = []
            for drop in sorted(set(a)):
                rest = cheapest_within(totals, set(a) - {drop})
                if rest is not None:
                    options.append((walk_of(walk, rest) if pick == "walk" else cost(totals, rest), drop, rest))
            if not options:
                break
            a = min(options)[2]
        out[name] = a
    a = out["nearest per item"]
    while cost(totals, a) > budget:
        used = set(a)
        moves = []
        for i, t in enumerate(totals):
            targets = {s for s in t if s in used} | {min(t, key=lambda s: (t[s], s))}
            for s in targets:
                if t[s] < t[a[i]]:
                    moves.append((t[s] - t[a[i]], i, s))
        if not moves:
            break
        _d, i, s = min(moves)
        a = (*a[:i], s, *a[i + 1:])
    out["nearest, then cheaper until in budget"] = a
    two = cheapest_within(totals, set(by_dist[:2]))
    if two is not None:
        out["two nearest stores"] = two
    pairs = [(p, cheapest_within(totals, set(p))) for p in itertools.combinations(all_stores, 2)]
    pairs = [(p, a) for p, a in pairs if a is not None]
    if pairs:
        out["shortest-walk pair"] = min(pairs, key=lambda pa: (walk[frozenset(pa[0])][0], pa[0]))[1]
        out["cheapest pair"] = min(pairs, key=lambda pa: (cost(totals, pa[1]), pa[0]))[1]
    inside = {s for s in all_stores if dist[s] <= limit_m}
    radius = cheapest_within(totals, inside)
    if radius is not None:
        out["stores within the limit"] = radius
    left, here, picks = set(range(n)), None, [""] * n
    while left:
        nxt = min((s for s in all_stores if any(s in totals[i] for i in left)),
                  key=lambda s: ((dist[s] if here is None else store_dist(here, s)), s))
        for i in sorted(left):
            if nxt in totals[i]:
                picks[i] = nxt
                left.discard(i)
        here = nxt
    out["nearest store next"] = tuple(picks)
    return out


def table(totals: list[dict[str, float]], walk: dict[frozenset[str], tuple[float, tuple[str, ...]]]
          ) -> list[tuple[Assignment, float, float]]:
    """Every assignment (a store per item, each at a store that sells it) with its total and its walk."""
    return [(a, cost(totals, a), walk_of(walk, a)) for a in itertools.product(*(sorted(t) for t in totals))]


def feasible(rows: list[tuple[Assignment, float, float]], budget: float, limit_m: float,
             budget_margin: float = 0.0, miss_m: float = 0.0) -> list[Assignment]:
    """Of :func:`table`'s ``rows``, every assignment whose total is at most ``budget + budget_margin`` and walk at
    most ``limit_m + miss_m``."""
    return [a for a, c, w in rows if c <= budget + budget_margin + 1e-9 and w <= limit_m + miss_m + 1e-6]


def limits_for(rows: list[tuple[Assignment, float, float]], a: Assignment) -> tuple[float, int] | None:
    """``(budget, limit_m)`` that only assignment ``a`` meets, with the margins of the module doc, or None: the
    limit the walk x :data:`WALK_SLACK` rounded up to :data:`ROUND_M` (at least :data:`ROOM_M` over it), the budget
    a round figure (ten cents) half way between ``a``'s total and the cheapest other assignment whose walk comes
    within :data:`MISS_M` of the limit (:func:`table`'s ``rows``)."""
    c, w = next((c, w) for b, c, w in rows if b == a)
    limit = int(math.ceil(max(w * WALK_SLACK, w + ROOM_M) / ROUND_M) * ROUND_M)
    rivals = [cb for b, cb, wb in rows if b != a and wb <= limit + MISS_M + 1e-6]
    hi = min(rivals, default=c + 10.0)
    if hi <= c + 2 * BUDGET_MARGIN:
        return None
    budget = math.floor((c + hi) / 2 * 10) / 10
    if budget < c or hi - budget < BUDGET_MARGIN - 1e-9:
        return None
    return budget, limit


def _item(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """An item of product ``p``: a choice per option group (any, the default too) and a quantity."""
    options = {g["name"]: rng.choice(g["choices"])["value"] for g in p["options"]}
    return {"product_id": p["product_id"], "options": options, "qty": rng.choice(QTYS)}


def item_text(it: dict[str, Any]) -> str:
    """``3 × Gala Apple (Size: Large)``: the item as the tier's single purchases say it."""
    from web_sites.shop import catalog

    p = catalog.product(it["product_id"])
    assert p is not None
    opts = f" ({catalog.option_text(p, it['options'])})" if p["options"] else ""
    return f"{it['qty']} × {p['name']}{opts}"


def starts_of(city: Any, nodes: dict[str, str]) -> list[str]:
    """The corners a basket may start at (degree 3 or more, no store's): those with a pair of stores whose walk
    (from the corner through both) is at most :data:`MAX_ROUTE_M` and which is neither the two stores nearest the
    corner nor the pair with the shortest walk (an answer there would be what :func:`heuristic_assignments`' "two
    nearest stores" and "shortest-walk pair" buy, whatever the prices)."""
    to = {s: city.distances_to(n) for s, n in nodes.items()}
    between = {(a, b): city.shortest_length(nodes[a], nodes[b]) for a in nodes for b in nodes if a < b}
    out = []
    for n in city.node_ids():
        if city.degree(n) < 3 or n in nodes.values():
            continue
        d = {s: to[s].get(n, math.inf) for s in nodes}
        pair_walk = {ab: min(d[ab[0]], d[ab[1]]) + m for ab, m in between.items()}
        nearest = tuple(sorted(sorted(d, key=lambda s: (d[s], s))[:2]))
        shortest = min(pair_walk, key=lambda ab: (pair_walk[ab], ab))
        if any(w <= MAX_ROUTE_M and ab not in (nearest, shortest) for ab, w in pair_walk.items()):
            out.append(n)
    return out


def draw_basket(city: Any, rng: random.Random, n_items: int, products: list[dict[str, Any]],
                nodes: dict[str, str], starts: list[str], between: dict[tuple[str, str], float]) -> dict[str, Any] | None:
    """One basket of ``n_items`` items of ``products`` from a random start of ``starts`` (``between``: the
    :func:`store_legs`), or None when the draw does not single out one assignment with margin that no obvious plan
    buys (see the module doc)."""
    start = rng.choice(starts)
    chosen = rng.sample(products, n_items)
    items = [_item(p, rng) for p in chosen]
    totals = line_totals(items)
    dist = {s: city.shortest_length(start, n) for s, n in nodes.items()}
    store_of = {n: s for s, n in nodes.items()}

    def legs(a: str, b: str) -> float:
        return dist[store_of[b]] if a == start else between[store_of[a], store_of[b]]

    walk = walks(start, legs, nodes)
    rows = table(totals, walk)
    # only an assignment cheaper than every other one that walks no farther can be the one meeting both limits
    answers = [a for a, c, w in rows if 2 <= len(set(a)) and w <= MAX_ROUTE_M
               and all(cb > c for b, cb, wb in rows if wb <= w + 1e-6 and b != a)]
    rng.shuffle(answers)
    for a in answers:
        got = limits_for(rows, a)
        if got is None:
            continue
        budget, limit = got
        if feasible(rows, budget, limit, BUDGET_MARGIN, MISS_M) != [a]:
            continue
        plans = heuristic_assignments(totals, dist, walk, limit, budget, lambda x, y: between[x, y])
        if any(b == a for b in plans.values()):
            continue
        w, order = walk[frozenset(a)]
        return {"start": start, "items": items, "stores": list(a), "budget": budget, "limit_m": limit,
                "route_m": round(w, 1), "best_order": list(order), "total": cost(totals, a)}
    return None


def baskets(city: Any, rng: random.Random, first_id: int) -> list[dict[str, Any]]:
    """The basket errands (see the module doc), ids ``shop-hard-<first_id>`` on, the splits interleaved."""
    from web_sites.shop import catalog

    nodes = store_nodes(city)
    products = [p for p in catalog.products() if len(p["prices"]) >= 3
                and len(set(p["prices"].values())) == len(p["prices"])]
    by_split = {sp: [p for p in products if _split(p["product_id"]) == sp] for sp in ("train", "test")}
    pair_cap = int(PAIR_CAP * len(BASKET_ITEMS))
    starts = starts_of(city, nodes)
    between = store_legs(city, nodes)
    drawn: dict[str, list[dict[str, Any]]] = {"test": [], "train": []}
    pairs: dict[tuple[str, frozenset[str]], int] = {}
    tries = 0
    for k in range(len(BASKET_ITEMS)):
        for split in ("test", "train"):
            while True:
                tries += 1
                if tries > MAX_TRIES:
                    raise RuntimeError(f"only {sum(map(len, drawn.values()))} of {2 * len(BASKET_ITEMS)} basket "
                                       "errands could be drawn")
                got = draw_basket(city, rng, BASKET_ITEMS[k], by_split[split], nodes, starts, between)
                if got is None:
                    continue
                key = (split, frozenset(got["stores"]))
                if pairs.get(key, 0) + 1 > pair_cap:
                    continue
                pairs[key] = pairs.get(key, 0) + 1
                drawn[split].append(got)
                break
    out = []
    for k in range(len(BASKET_ITEMS)):
        for split in ("test", "train"):
            b = drawn[split][k]
            out.append(_basket_task(city, b, split, rng))
    for i, t in enumerate(out):
        t["task_id"] = f"shop-hard-{first_id + i:03d}"
    return out


def _basket_task(city: Any, b: dict[str, Any], split: str, rng: random.Random) -> dict[str, Any]:
    items = [item_text(it) for it in b["items"]]
    listed = "; ".join(items[:-1]) + "; and " + items[-1]
    goal = {"basket": [{**it, "store_id": s} for it, s in zip(b["items"], b["stores"], strict=True)],
            "budget": b["budget"], "limit_m": b["limit_m"], "route_m": b["route_m"], "best_order": b["best_order"],
            "rule": "basket"}
    task = _task("EWA-Shopping-v0", "",
                 f"{WHERE_YOU_START} Buy these {len(items)} items on the shop website "
                 f"and collect them: {listed}. Every unit of an item from one store, but the items may come from "
                 f"different stores. You have ${b['budget']:.2f} to spend in all, and you may walk at most "
                 f"{b['limit_m']:,} m in all, along the streets from here to the last store you collect from. Choose "
                 "“Pick up in store” for each order, walk to each store you ordered from to pick it up, and stop at "
                 "the last one. The shop's product pages give each store's price; the map website gives walking "
                 "distances.",
                 b["start"], rng.uniform(0, 360), goal, split, ENV_MAX_STEPS, start_in="web", rule="basket",
                 level="hard")
    task["web"]["sites"] = {"shop": {"budget": b["budget"]}}
    return as_walker_task(task)
