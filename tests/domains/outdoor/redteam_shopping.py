"""Red-team agents for EWA-Shopping-v0's single purchases, standard and hard (stop 37; see :mod:`tests.redteam`): the
ideas :mod:`tests.domains.outdoor.redteam`, ``test_hard_shopping.py`` and ``test_errands.py`` already try (ordering
everywhere, rule-blind stores, every option, extra units, cancelled slips, a kept slip, cancelling on arrival, the
errands' orders before / after the walk) are not repeated here.

Shortcuts must fail; genuine alternatives must pass. ``python -m tests.domains.outdoor.redteam_shopping [N]`` prints
their rates (N episodes that carried the idea out per agent and tier, test split first).
"""

from __future__ import annotations

from typing import Any

from baselines.script import Plan, find_bid
from embodiedweb.domains.outdoor.common import city
from embodiedweb.tasks import Task
from tests.domains.outdoor.redteam import CancelsOnArrival, ShopAgent, _Cancels
from tests.redteam import pool, run, suite

SHOP = "EWA-Shopping-v0"


def hard_singles() -> list[Task]:
    """The hard tier's single purchases (quantities, budgets, stock; no errands, no baskets)."""
    from embodiedweb.domains.outdoor.shopping import ShoppingDomain
    from embodiedweb.registration import spec_for
    from embodiedweb.tasks import load_tasks

    tasks = load_tasks(spec_for(SHOP).level_tasks_path("hard"), ShoppingDomain().validate_task)
    return [t for t in tasks if "errands" not in t.goal and "basket" not in t.goal]


def _qty(task: Task) -> int:
    return int(task.goal.get("qty", 1))


class OrderAtTheDoor(ShopAgent):
    """Follows the map to the rule's store first, and orders for pickup standing at its door, then stops (a
    walker who buys on arrival)."""

    kind = "genuine"

    def plan(self) -> Plan:
        from web_sites.shop import catalog

        g = self.task.goal
        yield from self.follow_map_to(catalog.store(g["store_id"])["name"])
        yield from self.order_at(g["store_id"], "pickup", g.get("options"), g.get("qty"))
        if "Order ORD-" not in self.obs["web_text"]:
            self.errors.append("no order placed")
        yield "stop"


class SplitQuantity(ShopAgent):
    """Hard tier: the asked units in two orders at the rule's store (one unit, then the rest), both for pickup
    ("all from one store" is kept), walks there and stops."""

    kind = "genuine"

    @classmethod
    def applies(cls, task: Task) -> bool:
        return _qty(task) >= 2

    def plan(self) -> Plan:
        g = self.task.goal
        yield from self.order_at(g["store_id"], "pickup", g.get("options"), 1)
        yield from self.order_at(g["store_id"], "pickup", g.get("options"), _qty(self.task) - 1)
        if self.obs["web_text"].count("is placed") != 1 or "ORD-00002" not in self.obs["web_text"]:
            self.errors.append("the second order was not placed")
        yield from self.walk_route_to(self.store_node(g["store_id"]))
        yield "stop"


#: the hard rules whose store is the nearest one the shop lets the agent order the units at (in stock, in budget)
NEAREST_ACCEPTING = ("nearest_in_budget", "nearest_in_stock")


class NearestTheShopAccepts(_Cancels):
    """Hard tier, "the nearest store that has it in stock / where it fits the budget": tries the stores from the
    nearest by walking distance (the map's lengths), each time the units in the cart and a pickup checkout; where
    the shop refuses (out of stock, over budget) it removes the line and tries the next; walks to the store that
    took the order. The shop's own refusals are what a shopper reads."""

    kind = "genuine"
    tolerated = ("refused",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return task.goal.get("rule") in NEAREST_ACCEPTING

    def plan(self) -> Plan:
        from web_sites.shop import catalog

        g = self.task.goal
        start = self.here()
        stores = sorted(catalog.stores_selling(g["product_id"]),
                        key=lambda s: (city().shortest_length(start, self.store_node(s)), s))
        for s in stores:
            yield from self.order_at(s, "pickup", g.get("options"), g.get("qty"))
            if self.placed() is not None:
                yield from self.walk_route_to(self.store_node(s))
                yield "stop"
                return
            self.errors.append(f"refused at {s}")
            yield "goto [/shop/cart]"
            while (line := find_bid(self.obs["web_text"], "button", "Remove", exact=False)) is not None:
                yield f"click [{line}]"
        self.errors.append("no store took the order")


class CancelsAfterPickup(CancelsOnArrival):
    """:class:`~tests.domains.outdoor.redteam.CancelsOnArrival` on the hard tier: the units ordered at the rule's
    store, the walk to its door, the order cancelled there (its money released; once collected, the shop refuses,
    stop 37), then a step in and the stop: nothing bought."""

    def plan(self) -> Plan:
        g = self.task.goal
        yield from self.order_at(g["store_id"], "pickup", g.get("options"), g.get("qty"))
        oid = self.order_id()
        yield from self.walk_to_the_door(g["store_node"])
        yield from self.cancel(oid)
        yield from self.walk_route_to(g["store_node"])
        yield "stop"


class RestForTheKitchen(ShopAgent):
    """Hard tier: one unit for pickup at the rule's store and the rest of the units delivered to the kitchen from
    there (the instruction says pickup), then the walk there."""

    breaks = ("web",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return _qty(task) >= 2

    def plan(self) -> Plan:
        g = self.task.goal
        yield from self.order_at(g["store_id"], "pickup", g.get("options"), 1)
        yield from self.order_at(g["store_id"], "kitchen", g.get("options"), _qty(self.task) - 1)
        yield from self.walk_route_to(self.store_node(g["store_id"]))
        yield "stop"


class ExtraItemInTheOrder(ShopAgent):
    """Orders the asked item at the rule's store with one unit of another product it sells in the same pickup
    order, walks there and stops. Not a way to find the store; measured (the instruction names one item)."""

    kind = "genuine"

    def plan(self) -> Plan:
        from web_sites.shop import catalog

        g = self.task.goal
        other = next(p for p in ("p0001", "p0002", "p0003", "p0004", "p0005")
                     if p != g["product_id"] and g["store_id"] in catalog.stores_selling(p))
        if self.obs["active"] != "web":
            yield "switch_environment"
        yield f"goto [/shop/product/{other}]"
        yield f"type [{find_bid(self.obs['web_text'], 'combobox', 'Store')}] [{catalog.store(g['store_id'])['name']}]"
        yield f"click [{find_bid(self.obs['web_text'], 'button', 'Add to cart')}]"
        yield from self.buy_and_walk(g["store_id"])


STANDARD = (OrderAtTheDoor, ExtraItemInTheOrder)
HARD = (OrderAtTheDoor, SplitQuantity, NearestTheShopAccepts, CancelsAfterPickup, RestForTheKitchen)


def rates(n: int = 60) -> list[dict[str, Any]]:
    """Per agent and tier: the episodes that carried the idea out (up to ``n``, test split first) and their passes."""
    rows = []
    for tier, classes, tasks in (("standard", STANDARD, suite(SHOP)), ("hard", HARD, hard_singles())):
        for cls in classes:
            res = [r for r in run(cls, SHOP, pool(cls, tasks), n) if r["carried_out"]]
            rows.append({"agent": cls.__name__, "kind": cls.kind, "tier": tier, "episodes": len(res),
                         "test": sum(r["split"] == "test" for r in res),
                         **{m: sum(bool(r["metrics"].get(m)) for r in res) for m in ("overall", "web", "embodied")}})
    return rows


if __name__ == "__main__":
    import sys

    for r in rates(int(sys.argv[1]) if len(sys.argv) > 1 else 60):
        print(f"| {r['agent']} | {r['kind']} | {r['tier']} | {r['episodes']} ({r['test']}) | {r['overall']} | "
              f"{r['web']} | {r['embodied']} |")
