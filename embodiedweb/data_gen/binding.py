"""Every condition a store rule states binds (stop 38, issue 22; a measurement-quality rule of the hard tier).

A store rule is a set of filters (stock, a budget, a radius, a price limit) and a rank (nearest, cheapest, nearest
to a named place) over the stores that sell the product. A condition *binds* when the rule with that condition
dropped picks another store or leaves a tie: an agent that ignores it does not get the answer for free. Three
players of hard Shopping reported "only one store fits the budget, so the nearest part did not matter" on 8 of the
22 test ``nearest_in_budget`` tasks before this rule. :func:`unbound` names the conditions that do not bind;
:func:`rule_conditions` builds a rule's filters and rank from a task's facts, for the generator and the tests alike.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from embodiedweb.data_gen.outdoor_tasks import MARGIN_M as DIST_MARGIN  # walking distances a rank tells apart

#: prices or totals closer than this are a tie
PRICE_MARGIN = 0.005


def pick(pool: Collection[str], rank: Mapping[str, float], margin: float) -> str | None:
    """The store of ``pool`` first by ``rank`` when it leads the next by ``margin`` or more, else None (a tie or no
    store)."""
    ranked = sorted(pool, key=lambda s: (rank[s], s))
    if not ranked or (len(ranked) > 1 and rank[ranked[1]] - rank[ranked[0]] < margin):
        return None
    return ranked[0]


def unbound(store: str, selling: Collection[str], filters: Mapping[str, Collection[str]],
            rank: tuple[str, Mapping[str, float], float],
            swaps: Mapping[str, tuple[Mapping[str, Collection[str]], tuple[str, Mapping[str, float], float]]]
            | None = None) -> list[str]:
    """The conditions of a rule that do not bind for answer ``store``: a filter (name -> the stores it lets through)
    whose drop leaves ``store`` picked alone; the rank ``(name, values, margin)`` when the filters leave one store;
    a swapped condition (name -> the rule's filters and rank with it dropped, e.g. a named place read as the start)
    whose rule picks ``store`` alone."""
    def passing(fs: Mapping[str, Collection[str]]) -> list[str]:
        return [s for s in selling if all(s in allowed for allowed in fs.values())]

    name, values, margin = rank
    out = [f for f in filters
           if pick(passing({k: v for k, v in filters.items() if k != f}), values, margin) == store]
    if len(passing(filters)) == 1:
        out.append(name)
    for swap, (fs, (_n, vs, m)) in (swaps or {}).items():
        if pick(passing(fs), vs, m) == store:
            out.append(swap)
    return out


def rule_conditions(rule: str, selling: Collection[str], *, dist: Mapping[str, float], price: Mapping[str, float],
                    available: Collection[str] | None = None, total: Mapping[str, float] | None = None,
                    budget: float | None = None, radius: float | None = None, limit: float | None = None,
                    place_dist: Mapping[str, float] | None = None) -> tuple[dict[str, Any], Any, dict[str, Any]]:
    """(filters, rank, swaps) of a store rule, hard (``cheapest_in_stock`` ...) or standard (``within`` ...), for
    :func:`unbound`. ``dist``: walking distances from the start; ``price``: the listed prices; ``available``: the
    stores with stock (``open_now``: the stores open); ``total``: the order's total per store (a budget's); ``radius`` and ``limit``: the rule's
    numbers; ``place_dist``: walking distances from the named place. A rule without a condition stated (the
    standard ``cheapest``, ``nearest``) has only its rank. Raises ``ValueError`` for an unknown rule or a missing
    fact."""
    def need(x: Any, what: str) -> Any:
        if x is None:
            raise ValueError(f"store rule {rule!r} needs {what}")
        return x

    near = ("nearest", dist, DIST_MARGIN)
    cheap = ("cheapest", price, PRICE_MARGIN)
    filters: dict[str, Any] = {}
    swaps: dict[str, Any] = {}
    if rule in ("cheapest_in_stock", "nearest_in_stock", "nearest_in_budget", "cheapest_within",
                "near_place_in_stock", "in_stock"):
        filters["stock"] = set(need(available, "the stores with stock"))
    if rule == "open_now":
        filters["open"] = set(need(available, "the stores open"))
    if rule == "nearest_in_budget":
        tot = need(total, "the totals")
        filters["budget"] = {s for s in selling if tot[s] <= need(budget, "a budget") + 1e-9}
    if rule in ("cheapest_within", "within"):
        filters["radius"] = {s for s in selling if dist[s] <= need(radius, "a radius")}
    if rule == "under_price":
        filters["price limit"] = {s for s in selling if price[s] <= need(limit, "a price limit") + 1e-9}
    if rule in ("near_place_in_stock", "near_place"):
        pd = need(place_dist, "the place's distances")
        rank = ("nearest", pd, DIST_MARGIN)
        swaps["place"] = (filters, near)  # the place read as where you are
    elif rule == "cheapest_near_place":
        pd = need(place_dist, "the place's distances")
        r = need(radius, "a radius")
        filters["radius"] = {s for s in selling if pd[s] <= r}
        swaps["place"] = ({**filters, "radius": {s for s in selling if dist[s] <= r}}, cheap)
        rank = cheap
    elif rule in ("cheapest_in_stock", "cheapest_within", "cheapest", "within"):
        rank = cheap
    elif rule in ("nearest_in_stock", "nearest_in_budget", "nearest", "in_stock", "under_price", "open_now"):
        rank = near
    else:
        raise ValueError(f"unknown store rule {rule!r}")
    return filters, rank, swaps


def unbound_of(rule: str, store: str, selling: Collection[str], **facts: Any) -> list[str]:
    """:func:`unbound` of a rule built by :func:`rule_conditions` from ``facts``."""
    filters, rank, swaps = rule_conditions(rule, selling, **facts)
    return unbound(store, selling, filters, rank, swaps)


def stated_radii(text: str) -> list[float]:
    """The walking radii an instruction states ("within a 1500 m walk"), in order."""
    return [float(x.replace(",", "")) for x in re.findall(r"within an? ([\d,]+) m walk", text)]


def stated_limits(text: str) -> list[float]:
    """The price limits an instruction states ("at most $3.55"), in order."""
    return [float(x) for x in re.findall(r"at most \$(\d+\.\d\d)", text)]
