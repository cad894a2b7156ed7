"""Red-team agents for the shopping hard tier's basket errands (``shop-hard-200`` ...; stop 37; see
:mod:`tests.redteam`). The ways ``test_basket_errands.py`` already plays (the obvious plans, ordering at each stop, one
cart per store, browsing first, other shortest paths, a cancelled slip at another store, ordering after the walk, a
kitchen delivery, a detour, only the last store walked to) are not repeated here.

Shortcuts must fail; genuine alternatives must pass. ``python -m tests.domains.outdoor.redteam_baskets`` prints their
rates on every basket and on the test split's.
"""

from __future__ import annotations

import re
from itertools import permutations
from typing import Any

from embodiedweb.agents.script import find_bid
from embodiedweb.domains.outdoor.baskets import collection_order, store_nodes
from embodiedweb.domains.outdoor.common import GOAL_RADIUS_M, city
from embodiedweb.tasks import Task
from tests.domains.outdoor.test_basket_errands import Basket, load
from tests.redteam import RedTeam, pool, run
from web_sites.shop import catalog

SHOP = "EWA-Shopping-v0"


def _qty_item(task: Task) -> int | None:
    """The index of the first item asked in two units or more, else ``None``."""
    return next((k for k, it in enumerate(task.goal["basket"]) if int(it["qty"]) >= 2), None)


class _BasketAgent(RedTeam, Basket):
    """A basket played one way (the generator's stores, unless the agent changes them)."""

    def __init__(self, task: Task) -> None:
        Basket.__init__(self, task)

    def order(self, it: dict[str, Any], delivery: str = "pickup") -> Any:
        """The item ordered at its ``store_id`` (``Basket.order``); an order the shop refused is an error."""
        yield from super().order(it, delivery)
        if "heading 'Order ORD-" not in self.obs["web_text"]:
            self.errors.append(f"no order placed: {it['product_id']} at {it['store_id']}")

    def cancel_placed(self) -> Any:
        """Cancel the order whose page the checkout just led to."""
        m = re.search(r"heading 'Order (ORD-\d+)'", self.obs["web_text"])
        if m is None:
            self.errors.append("no order placed")
            return
        yield f"click [{find_bid(self.obs['web_text'], 'button', f'Cancel order {m.group(1)}')}]"

    def collect(self, stores: list[str]) -> Any:
        for s in stores:
            yield from self.walk_to(store_nodes()[s])


# ------------------------------------------------------------------------------------------- genuine
class SplitAtItsStore(_BasketAgent):
    """An item asked in two units or more bought in two pickup orders at its one store (one unit, then the rest):
    "every unit of an item from one store" is kept."""

    kind = "genuine"

    @classmethod
    def applies(cls, task: Task) -> bool:
        return _qty_item(task) is not None

    def plan(self) -> Any:
        items, k = self.items(), _qty_item(self.task)
        for j, it in enumerate(items):
            if j == k:
                yield from self.order({**it, "qty": 1})
                yield from self.order({**it, "qty": int(it["qty"]) - 1})
            else:
                yield from self.order(it)
        yield from self.collect(collection_order(self.here(), [it["store_id"] for it in items]))
        yield "stop"


class ExtraUnitCancelled(_BasketAgent):
    """The first item ordered with a unit too many, that order cancelled, then the basket bought right (where the
    unit too many fits the budget: the shop refuses an order over it)."""

    kind = "genuine"

    @classmethod
    def applies(cls, task: Task) -> bool:
        it = task.goal["basket"][0]
        return catalog.price(it["product_id"], it["store_id"], it["options"]) * (it["qty"] + 1) <= task.goal["budget"]

    def plan(self) -> Any:
        items = self.items()
        yield from self.order({**items[0], "qty": int(items[0]["qty"]) + 1})
        yield from self.cancel_placed()
        for it in items:
            yield from self.order(it)
        yield from self.collect(collection_order(self.here(), [it["store_id"] for it in items]))
        yield "stop"


class OtherProductCancelled(_BasketAgent):
    """A product the basket does not ask for ordered for pickup at the first item's store and cancelled, then the
    basket bought right."""

    kind = "genuine"

    def plan(self) -> Any:
        items = self.items()
        wanted = {it["product_id"] for it in items}
        other = next(p["product_id"] for p in catalog.products()
                     if p["product_id"] not in wanted and items[0]["store_id"] in catalog.stores_selling(p["product_id"])
                     and not p["options"])
        yield from self.order({"product_id": other, "options": {}, "qty": 1, "store_id": items[0]["store_id"]})
        yield from self.cancel_placed()
        for it in items:
            yield from self.order(it)
        yield from self.collect(collection_order(self.here(), [it["store_id"] for it in items]))
        yield "stop"


def rim_path(start: str, stores: list[str]) -> list[str]:
    """The nodes within the goal radius of each store (one per store, in the shortest collection order) that make
    the shortest walk from ``start`` touching every store's radius."""
    c, nodes = city(), store_nodes()
    rad = {s: sorted(set(c.within_walk(nodes[s], GOAL_RADIUS_M)) | {nodes[s]}) for s in stores}
    best: tuple[float, list[str]] | None = None
    for order in permutations(sorted(set(stores))):
        cur: dict[str, tuple[float, list[str]]] = {start: (0.0, [])}
        for s in order:
            cur = {v: min(((w + c.shortest_length(u, v), [*p, v]) for u, (w, p) in cur.items()), key=lambda x: x[0])
                   for v in rad[s]}
        cand = min(cur.values(), key=lambda x: x[0])
        if best is None or cand[0] < best[0] - 1e-9:
            best = cand
    assert best is not None
    return best[1]


class RimWalker(_BasketAgent):
    """The basket bought right; the walk only steps within each store's goal radius (the corner of it nearest the
    way on), and stops there at the last: the rule's "at the store"."""

    kind = "genuine"

    def plan(self) -> Any:
        items = self.items()
        for it in items:
            yield from self.order(it)
        for n in rim_path(self.here(), [it["store_id"] for it in items]):
            yield from self.walk_to(n)
        yield "stop"


class LeftInTheCart(_BasketAgent):
    """An item also put in the cart at a store the basket buys nothing at (never checked out there: the same item in
    two carts), then the basket bought right and walked. (At one of the basket's own stores the line would go into
    that store's checkout: a cart is checked out per store.)"""

    kind = "genuine"

    @staticmethod
    def elsewhere(task: Task) -> tuple[int, str] | None:
        """(item index, a store selling it that the basket buys nothing at), if any."""
        mine = {it["store_id"] for it in task.goal["basket"]}
        return next(((k, s) for k, it in enumerate(task.goal["basket"])
                     for s in catalog.stores_selling(it["product_id"]) if s not in mine), None)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return cls.elsewhere(task) is not None

    def plan(self) -> Any:
        items = self.items()
        k, other = self.elsewhere(self.task)
        it = items[k]
        yield from self.add({**it, "store_id": other})
        for x in items:
            yield from self.order(x)
        yield from self.collect(collection_order(self.here(), [x["store_id"] for x in items]))
        yield "stop"


class KitchenCancelled(_BasketAgent):
    """The first item first ordered for kitchen delivery, that order cancelled at once, then the basket bought
    right for pickup and walked."""

    kind = "genuine"

    def plan(self) -> Any:
        items = self.items()
        yield from self.order(items[0], "kitchen")
        yield from self.cancel_placed()
        for x in items:
            yield from self.order(x)
        yield from self.collect(collection_order(self.here(), [x["store_id"] for x in items]))
        yield "stop"


class SmallDetour(_BasketAgent):
    """The basket bought right; before the stores, a way out and back to the farthest corner within a third of the
    limit's room (the limit less the answer's walk), so the whole walk stays within the limit."""

    kind = "genuine"

    def plan(self) -> Any:
        items = self.items()
        for x in items:
            yield from self.order(x)
        here, g = self.here(), self.task.goal
        room = (float(g["limit_m"]) - float(g["route_m"])) / 3
        far = max(city().within_walk(here, room), key=lambda n: (city().shortest_length(here, n), n))
        if far == here:
            self.errors.append("no corner within the room")
        yield from self.walk_to(far)
        yield from self.walk_to(here)
        yield from self.collect(collection_order(self.here(), [x["store_id"] for x in items]))
        yield "stop"


class ChecksCollectedBetween(_BasketAgent):
    """The basket bought right; after each store but the last, back to the shop's Orders page to see the store's
    orders "Collected" (the page shows it since stop 37), then on: reading the web between stores walks nowhere."""

    kind = "genuine"

    def plan(self) -> Any:
        items = self.items()
        for x in items:
            yield from self.order(x)
        order = collection_order(self.here(), [x["store_id"] for x in items])
        for k, store in enumerate(order):
            yield from self.collect([store])
            if k < len(order) - 1:
                yield "switch_environment"
                yield "goto [/shop/orders]"
                if "Collected at" not in self.obs["web_text"]:
                    self.errors.append(f"the Orders page shows nothing collected after {store}")
                yield "switch_environment"
        yield "stop"


def with_budget(task: Task, budget: float) -> Task:
    """The task with its budget (the goal's and the shop session's: one budget) set to ``budget``."""
    rec = task.to_json()
    return Task.from_json({**rec, "goal": {**rec["goal"], "budget": budget},
                           "web": {**rec["web"], "sites": {**rec["web"]["sites"], "shop": {"budget": budget}}}})


def _answer_cost(task: Task) -> float:
    return round(sum(catalog.price(it["product_id"], it["store_id"], it["options"]) * it["qty"]
                     for it in task.goal["basket"]), 2)


class ExactBudget(_BasketAgent):
    """The basket's budget (the goal's and the shop session's) set to exactly what the answer costs: the oracle's
    plan spends all of it."""

    kind = "genuine"

    @classmethod
    def adapt(cls, task: Task) -> Task:
        b = _answer_cost(task)
        return with_budget(task, b)


class ExactLimit(_BasketAgent):
    """The basket's walking limit set to exactly the answer's shortest walk: the oracle's walk is all of it."""

    kind = "genuine"

    @classmethod
    def adapt(cls, task: Task) -> Task:
        from embodiedweb.domains.outdoor.tours import walked_m

        path = [task.embodied["start"]]
        for s in task.goal["best_order"]:
            path += city().route(path[-1], store_nodes()[s])[1:]
        rec = task.to_json()
        return Task.from_json({**rec, "goal": {**rec["goal"], "limit_m": walked_m({"path": path})}})


# ------------------------------------------------------------------------------------------- shortcuts
def _other_option(it: dict[str, Any]) -> dict[str, str] | None:
    p = catalog.product(it["product_id"])
    for group in p["options"]:
        for ch in group["choices"]:
            if ch["value"] != it["options"].get(group["name"]):
                return {**it["options"], group["name"]: ch["value"]}
    return None


class WrongOption(_BasketAgent):
    """The first item with options bought with one option changed (at its store, for pickup); the rest right. The
    budget raised by $100 so that only the asked options can stop it (a dearer option would be refused by the shop)."""

    breaks = ("web",)

    @classmethod
    def adapt(cls, task: Task) -> Task:
        return with_budget(task, round(float(task.goal["budget"]) + 100, 2))

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(_other_option(it) for it in task.goal["basket"])

    def plan(self) -> Any:
        items = self.items()
        k = next(j for j, it in enumerate(items) if _other_option(it))
        for j, it in enumerate(items):
            yield from self.order({**it, "options": _other_option(it)} if j == k else it)
        yield from self.collect(collection_order(self.here(), [it["store_id"] for it in items]))
        yield "stop"


def _split_elsewhere(task: Task) -> tuple[int, str] | None:
    """(index of an item asked in two units or more, another of the basket's stores that sells it), if any."""
    mine = {it["store_id"] for it in task.goal["basket"]}
    return next(((k, s) for k, it in enumerate(task.goal["basket"]) if int(it["qty"]) >= 2
                 for s in catalog.stores_selling(it["product_id"]) if s != it["store_id"] and s in mine), None)


class OneUnitElsewhere(_BasketAgent):
    """An item asked in two units or more: one unit at another of the basket's stores that sells it (no metre more),
    the rest at its store; every store walked. The budget (the goal's and the shop's) raised by $100 so that only the
    rule "every unit of an item from one store" can stop it (such a split costs more than the budget in every
    basket as generated, and the shop refuses it)."""

    breaks = ("web",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return _split_elsewhere(task) is not None

    @classmethod
    def adapt(cls, task: Task) -> Task:
        b = round(float(task.goal["budget"]) + 100, 2)
        return with_budget(task, b)

    def plan(self) -> Any:
        items = self.items()
        k, other = _split_elsewhere(self.task)
        yield from self.order({**items[k], "qty": 1, "store_id": other})
        for j, x in enumerate(items):
            yield from self.order({**x, "qty": int(x["qty"]) - 1} if j == k else x)
        yield from self.collect(collection_order(self.here(), [x["store_id"] for x in items]))
        yield "stop"


class FirstStoreOrderedLate(_BasketAgent):
    """Every store walked in the shortest order, but the first store's items ordered only once the walker stands at
    the second store, never back at the first (the last store's are ordered first)."""

    breaks = ("embodied",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return len(set(task.goal["best_order"])) >= 2

    def plan(self) -> Any:
        items = self.items()
        order = collection_order(self.here(), [it["store_id"] for it in items])
        for it in items:
            if it["store_id"] != order[0]:
                yield from self.order(it)
        yield from self.collect(order[:2])
        for it in items:
            if it["store_id"] == order[0]:
                yield from self.order(it)
        yield from self.collect(order[2:])
        yield "stop"


class ReorderedAfterPickup(_BasketAgent):
    """The basket bought right and the first store reached; there its order is cancelled, the walker leaves, and
    the same items are ordered again from the street on (an order nobody waited for at the store)."""

    breaks = ("embodied",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return len(set(task.goal["best_order"])) >= 2

    def plan(self) -> Any:
        items = self.items()
        order = collection_order(self.here(), [it["store_id"] for it in items])
        first = [it for it in items if it["store_id"] == order[0]]
        ids: list[str] = []
        for it in items:
            yield from self.order(it)
            if it["store_id"] == order[0]:
                m = re.search(r"heading 'Order (ORD-\d+)'", self.obs["web_text"])
                ids += [m.group(1)] if m else []
        yield from self.collect(order[:1])
        # a step away from the store, out of its radius, then the cancel and the new orders
        yield from self.walk_to(city().route(store_nodes()[order[0]], store_nodes()[order[1]])[3])
        yield "switch_environment"
        for oid in ids:
            yield f"goto [/shop/orders/{oid}]"
            yield f"click [{find_bid(self.obs['web_text'], 'button', f'Cancel order {oid}')}]"
        for it in first:
            yield from self.order(it)
        yield from self.collect(order[1:])
        yield "stop"


class StepsOffTheLast(_BasketAgent):
    """The basket bought right and every store reached; then the walker steps on to the nearest corner outside the
    last store's goal radius (within the limit) and stops there."""

    breaks = ("embodied",)

    def plan(self) -> Any:
        items = self.items()
        order = collection_order(self.here(), [it["store_id"] for it in items])
        for it in items:
            yield from self.order(it)
        yield from self.collect(order)
        last = store_nodes()[order[-1]]
        off = min((n for n in city().within_walk(last, 4 * GOAL_RADIUS_M)
                   if city().shortest_length(last, n) > GOAL_RADIUS_M),
                  key=lambda n: (city().shortest_length(last, n), n))
        yield from self.walk_to(off)
        yield "stop"


def rim_m(start: str, stores: list[str]) -> float:
    """The metres of :func:`rim_path`'s walk."""
    ends = [start, *rim_path(start, stores)]
    return sum(city().shortest_length(a, b) for a, b in zip(ends, ends[1:], strict=False))


def rim_alternative(task: Task) -> tuple[tuple[str, ...], float] | None:
    """Of the assignments (a store per item) other than the generator's that keep the budget, the one whose walk
    touching only each store's goal radius is shortest, and that walk's metres; ``None`` if there is none."""
    from itertools import product

    from embodiedweb.data_gen import hard_baskets as gen

    g = task.goal
    totals = gen.line_totals(g["basket"])
    answer = tuple(it["store_id"] for it in g["basket"])
    best: tuple[tuple[str, ...], float] | None = None
    for a in product(*[sorted(t) for t in totals]):
        if a == answer or gen.cost(totals, a) > float(g["budget"]) + 1e-9:
            continue
        m = rim_m(task.embodied["start"], list(a))
        if best is None or m < best[1]:
            best = (a, m)
    return best


class RimAlternative(_BasketAgent):
    """Another assignment that keeps the budget (the one with the shortest walk), bought and walked touching only
    each store's goal radius (a walker cutting every corner it may): the generator keeps every such walk more than
    :data:`~embodiedweb.data_gen.hard_baskets.MISS_M` over the limit, so the radius cannot make up for it."""

    breaks = ("embodied",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return rim_alternative(task) is not None

    def plan(self) -> Any:
        stores, _m = rim_alternative(self.task)
        items = [{**it, "store_id": s} for it, s in zip(self.task.goal["basket"], stores, strict=True)]
        for it in items:
            yield from self.order(it)
        for n in rim_path(self.here(), list(stores)):
            yield from self.walk_to(n)
        yield "stop"


class CancelsBehind(_BasketAgent):
    """The plan of the nearest store per item (over the budget: the shop refuses its last orders), bought store by
    store standing at each, every store's orders cancelled once picked up (their money released for the next):
    the money laundered through cancellations, so only the last store's orders stand."""

    breaks = ("web",)

    @staticmethod
    def nearest(task: Task) -> tuple[str, ...]:
        from tests.domains.outdoor.test_basket_errands import plans

        return plans(task)["nearest per item"]

    @classmethod
    def applies(cls, task: Task) -> bool:
        return len(set(cls.nearest(task))) >= 2

    def plan(self) -> Any:
        items = [{**it, "store_id": s} for it, s in zip(self.task.goal["basket"], self.nearest(self.task), strict=True)]
        order = collection_order(self.here(), [it["store_id"] for it in items])
        for k, s in enumerate(order):
            yield from self.walk_to(store_nodes()[s])
            for it in (it for it in items if it["store_id"] == s):
                yield from self.order(it)
                if k < len(order) - 1:
                    yield from self.cancel_placed()
        yield "stop"


class StopsAtTheFirst(_BasketAgent):
    """The basket bought right, the first store of the collection order reached, and the stop there: the other
    store's orders are placed (the money spent) but never collected."""

    breaks = ("embodied",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return len(set(task.goal["best_order"])) >= 2

    def plan(self) -> Any:
        items = self.items()
        for x in items:
            yield from self.order(x)
        yield from self.collect(collection_order(self.here(), [x["store_id"] for x in items])[:1])
        yield "stop"


GENUINE = (SplitAtItsStore, ExtraUnitCancelled, OtherProductCancelled, RimWalker, ExactBudget, ExactLimit,
           LeftInTheCart, KitchenCancelled, SmallDetour, ChecksCollectedBetween)
SHORTCUTS = (WrongOption, OneUnitElsewhere, FirstStoreOrderedLate, StepsOffTheLast, RimAlternative, StopsAtTheFirst)
#: ideas the shop no longer lets an agent carry out: both cancel an order once it is collected, which the shop
#: refuses since stop 37 (no Cancel button; ``tests/web_sites/shop/test_pickup.py``). Both failed (0/14, 0/6)
#: while they could be carried out; kept to show what was tried
RETIRED = (ReorderedAfterPickup, CancelsBehind)


def rates(classes: tuple[type, ...] = GENUINE + SHORTCUTS) -> list[dict[str, Any]]:
    """Per agent: the baskets it applies to, those that carried its idea out (test split among them) and passes."""
    tasks = load()
    rows = []
    for cls in classes:
        res = run(cls, SHOP, pool(cls, tasks))
        done = [r for r in res if r["carried_out"]]
        rows.append({"agent": cls.__name__, "kind": cls.kind, "applies": len(res), "carried": len(done),
                     "test": sum(r["split"] == "test" for r in done),
                     "overall": sum(bool(r["metrics"].get("overall")) for r in done),
                     "test_overall": sum(bool(r["metrics"].get("overall")) for r in done if r["split"] == "test"),
                     "broken": [m for m in getattr(cls, "breaks", ()) if any(r["metrics"].get(m) for r in done)],
                     "errors": [(r["task_id"], r["errors"][:2]) for r in res if not r["carried_out"]][:3]})
    return rows


if __name__ == "__main__":
    for r in rates():
        print(r)
