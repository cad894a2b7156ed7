"""EWA-Shopping-v0: compare products, prices and store distances on the shop and map sites, order the
item at the store the instruction's rule selects (in-store pickup), then walk to that store.

Metrics: ``web`` = a pickup order at the right store holds the right product with the requested
options, and every unit of the product ordered anywhere is that one (cancelled orders, which the shop's
order page allows, count for nothing) (one unit, for pickup at that store:
ordering everywhere, every option or extra units is no way to follow the instruction); ``embodied`` = the
agent stopped at that store (its node, or within the goal radius along the street); ``overall`` = both; ``completion`` = fraction of sub-goals (right product ordered, right store
and no other, pickup chosen, store reached).

Hard tasks (``gym.make("EWA-Shopping-v0", level="hard")``, ``data/shopping/hard.jsonl``) add two optional
goal fields, read by the same checker: ``qty`` (the number of units asked instead of one) and ``budget``
(the orders' totals add up to at most that much). Basket errands (``goal.basket``, stop 37): several items split
across the stores under a budget and a walking limit, checked by
:func:`~embodiedweb.domains.outdoor.baskets.check_basket`.
"""

from __future__ import annotations

import random
from typing import Any

from embodiedweb.agents.script import find_bid
from embodiedweb.domains.base import Episode
from embodiedweb.domains.outdoor.baskets import (
    check_basket,
    check_options,
    collection_order,
    store_nodes,
    validate_basket,
)
from embodiedweb.domains.outdoor.common import StreetDomain, StreetOracle, city
from embodiedweb.domains.outdoor.errands import (
    check_errands,
    holds,
    place_of,
    purchase_ok,
    tour,
    validate_errands,
)
from embodiedweb.domains.outdoor.pickups import sync_pickups
from embodiedweb.tasks import Task, TaskError


def _item_ok(item: dict[str, Any], goal: dict[str, Any]) -> bool:
    return holds(item, goal["product_id"], goal.get("options"))


class ShoppingDomain(StreetDomain):
    """Order a product for pickup at the store the instruction's rule selects, then walk to that store.

    Env id ``EWA-Shopping-v0`` (``envs/shopping.toml``: tasks ``data/shopping/tasks.jsonl``, 400 steps);
    the Manhattan street world; episodes start in the web.

    Checker (:meth:`check`): ``web`` = a pickup order at the rule's store (``goal.store_id``) holds the
    product with the requested options, and that is every unit of the product ordered anywhere (one, or the
    hard tier's ``qty``: :func:`~embodiedweb.domains.outdoor.errands.purchase_ok`); ``embodied``
    = ``stop`` at that store (:meth:`stopped_at`); ``overall`` = both; ``completion`` = the fraction of
    (right product ordered, right store and no other, pickup chosen, store reached).
    """

    name = "shopping"
    #: 2: the hard tier counts every unit of the item ordered, whatever its delivery; a possessive names the person;
    #: 3: an errand's numeric answer may use a decimal comma or a compound length (traveling's judge, version 3);
    #: 4: every tier buys exactly what is asked (one unit, or ``qty``, with the options, for pickup at the store, and
    #: no other unit of the product anywhere); an errand's store counts as reached only once its order exists;
    #: 5: an errand's answer may say a clock time in words (traveling's judge, version 5); 6: traveling's judge,
    #: version 6 (hedges in words, bare hours, margins, surnames alone; hyphenated units); 7: traveling's judge,
    #: version 7 (a bare hour standing free); 8: a cancelled order counts for nothing (not bought, not spent, not
    #: a time the walk is measured from); 9: traveling's judge, version 8 (an errand's number answer: denied values,
    #: the landmark's other true numbers stated as such, Roman years); 10: traveling's judge, version 9 (an errand's
    #: answer: names within one list item, hyphenated surnames with a space or an en dash, denied options); 11:
    #: traveling's judge, version 10 (an errand's name answer: no name of two people's words, denied people); 12:
    #: traveling's judge, version 11 (an errand's answer: no word that is never a name read as an initial, durations).
    #: (Stop 37's basket errands, ``goal.basket``, add a rule for a new kind of goal only: no earlier verdict changes.)
    #: 13: traveling's judge, version 12 (an errand's answer: a denial taken back in other words, "or the other way",
    #: "or vice-versa", "either way", offers both). 14: traveling's judge, version 13 (an errand's answer: an item of a
    #: list the judge cannot read is another value, "Astrid V. Halvorsen, Tomas leRoux").
    checker_version = 14
    heuristic = "baselines.street_heuristic:ShoppingHeuristic"
    prompt_guidance = ("You stand on a street in Manhattan and can use a web browser. Compare products, prices and "
                       "stores on the shop site and the map site, order the right item at the right store, then "
                       "walk to that store and stop there.")
    node_fields = ("store_node",)

    def validate_task(self, task: Task) -> None:
        """Also raise ``TaskError`` for an unknown product or store or an invalid shop config (for an
        errands task: a malformed errand, :func:`~embodiedweb.domains.outdoor.errands.validate_errands`)."""
        from web_sites.shop import catalog

        if "errands" in task.goal or "basket" in task.goal:
            self.validate_start(task)
            (validate_errands if "errands" in task.goal else validate_basket)(task)
            self._validate_shop_config(task)
            return
        super().validate_task(task)

        if catalog.product(task.goal.get("product_id", "")) is None:
            raise TaskError(f"task {task.task_id!r}: field 'goal.product_id': unknown product "
                            f"{task.goal.get('product_id')!r}")
        if catalog.store(task.goal.get("store_id", "")) is None:
            raise TaskError(f"task {task.task_id!r}: field 'goal.store_id': unknown store {task.goal.get('store_id')!r}")
        product = catalog.product(task.goal["product_id"])
        check_options(task.task_id, "goal.options", product, task.goal.get("options") or {})
        if "qty" in task.goal:
            qty = task.goal["qty"]
            if isinstance(qty, bool) or not isinstance(qty, int) or not 1 <= qty <= 99:
                raise TaskError(f"task {task.task_id!r}: field 'goal.qty': must be a whole number 1..99, got {qty!r}")
        if "budget" in task.goal:
            budget = task.goal["budget"]
            if isinstance(budget, bool) or not isinstance(budget, int | float) or budget < 0:
                raise TaskError(f"task {task.task_id!r}: field 'goal.budget': must be a number >= 0, got {budget!r}")
        self._validate_shop_config(task)

    @staticmethod
    def _validate_shop_config(task: Task) -> None:
        from web_sites.shop import catalog

        shop_cfg = (task.web.get("sites") or {}).get("shop")
        if shop_cfg is not None:
            try:
                catalog.validate_config(shop_cfg, "web.sites.shop")
            except ValueError as e:
                raise TaskError(f"task {task.task_id!r}: field {e}") from None

    difficulty_measures = ("route_m", "oracle_switches", "oracle_steps")

    def task_measures(self, task: Task) -> dict[str, Any]:
        """The walk from the start to the store."""
        if "basket" in task.goal:  # the answer's shortest walk through its stores
            return {"route_m": float(task.goal.get("route_m", 0.0))}
        if "errands" in task.goal:  # the shortest tour through the errands' places
            nodes = [task.embodied["start"]] + [place_of(e) for e in tour(task.embodied["start"], task.goal["errands"])]
            return {"route_m": round(sum(city().shortest_length(a, b) for a, b in zip(nodes, nodes[1:], strict=False)), 1)}
        return {"route_m": round(float(city().shortest_length(task.embodied["start"], task.goal["store_node"])), 1)}

    def stratum(self, task: Task) -> tuple[Any, ...]:
        """The store rule."""
        if "basket" in task.goal:
            return (f"basket:{len(task.goal['basket'])}",)
        if "errands" in task.goal:
            return ("errands:" + "+".join(e.get("rule", e["kind"]) for e in task.goal["errands"]),)
        return (str(task.goal.get("rule", "")),)

    def variety(self, task: Task) -> tuple[str, ...]:
        """Shopping variety: the ``(store_id, product_id)`` pair."""
        if "basket" in task.goal:
            return tuple(str(it.get("product_id")) for it in task.goal["basket"])
        if "errands" in task.goal:
            return tuple(str(e.get("product_id") or e.get("place_id")) for e in task.goal["errands"])
        return (str(task.goal.get("store_id", "")), str(task.goal.get("product_id", "")))

    def sync_sites(self, world: Any, webapp: Any, session: str) -> bool:
        """The shop's pickup orders the walk has collected become collected in its state
        (:func:`~embodiedweb.domains.outdoor.pickups.sync_pickups`)."""
        return sync_pickups(world, webapp, session)

    def takes_answer(self, task: Task) -> bool:
        """Only an errand with a landmark question takes an answer."""
        return any(e.get("kind") == "ask" for e in task.goal.get("errands") or [])

    def check(self, episode: Episode) -> dict[str, Any]:
        """Passes with a pickup order of the item at the goal store only and a stop at that store (an
        errands task: :func:`~embodiedweb.domains.outdoor.errands.check_errands`)."""
        g = episode.task.goal
        if "errands" in g:
            return check_errands(episode)
        if "basket" in g:
            return check_basket(episode)
        from web_sites.shop.catalog import live_orders

        # a cancelled order bought nothing and spent nothing (the shop releases its total from the budget)
        orders = live_orders(episode.web_state.get("shop", {}).get("orders", []))
        with_item = [o for o in orders if any(_item_ok(i, g) for i in o["items"])]
        right_store = [o for o in with_item if o["store_id"] == g["store_id"]]
        elsewhere = [o for o in orders if o["store_id"] != g["store_id"]
                     and any(i.get("product_id") == g["product_id"] for i in o["items"])]
        only_there = bool(right_store) and not elsewhere
        # exactly what was asked: one unit (``qty`` in the hard tier) with the options, for pickup at the store,
        # and no other unit of the product anywhere (every option, extra units or a kitchen delivery besides fail)
        web = purchase_ok(orders, g)
        at = self.stopped_at(episode, g["store_node"])
        subgoals = [bool(with_item), only_there, web, at]
        extra: dict[str, Any] = {}
        if "qty" in g or "budget" in g:  # the hard tier's goal fields (standard tasks have neither)
            qty = sum(int(i.get("qty", 0)) for o in right_store if o.get("delivery") == "pickup"
                      for i in o["items"] if _item_ok(i, g))
            spent = round(sum(float(o.get("total", 0.0)) for o in orders), 2)
            in_budget = "budget" not in g or spent <= float(g["budget"]) + 1e-9
            subgoals = [bool(with_item), only_there, web and in_budget, at, web, in_budget]
            web = web and in_budget
            extra = {"qty_ordered": qty, "spent": spent}
        return {"overall": web and at, "web": web, "embodied": at, "completion": sum(subgoals) / len(subgoals),
                "other_stores_ordered": sorted({o["store_id"] for o in elsewhere}), **extra}

    def oracle(self, task: Task, perturb: random.Random | None = None) -> Any:
        """A scripted :class:`ShoppingOracle` for the task (an errands task's: :class:`ErrandOracle`)."""
        if "errands" in task.goal:
            return ErrandOracle(task, perturb)
        if "basket" in task.goal:
            return BasketOracle(task, perturb)
        return ShoppingOracle(task, perturb)


class ShoppingOracle(StreetOracle):
    """Orders on the product page at the rule's store with the requested options, checks out for
    pickup, asks the map for the way, walks there and stops."""

    def plan(self) -> Any:
        """Order for pickup, get directions to the store, walk there and stop; a perturbation picks a wrong store, option, delivery, or no walk."""
        from web_sites.shop import catalog

        g = self.task.goal
        modes = ["wrong_store", "delivery", "no_walk"] + (["wrong_option"] if g.get("options") else [])
        modes += ["wrong_qty"] if "qty" in g else []  # (standard tasks: the same draw as before)
        mode = self.perturb.choice(modes) if self.perturb else None
        store_id = g["store_id"]
        if mode == "wrong_store":
            store_id = next(s for s in catalog.stores_selling(g["product_id"]) if s != g["store_id"])
        options = dict(g.get("options") or {})
        if mode == "wrong_option":
            product = catalog.product(g["product_id"])
            group = next(gr for gr in product["options"] if gr["name"] in options)
            options[group["name"]] = next(c["value"] for c in group["choices"] if c["value"] != options[group["name"]])
        qty = int(g.get("qty", 1))
        if mode == "wrong_qty":
            qty += self.perturb.choice([-1, 1]) if qty > 1 and self.perturb else 1
        yield from self.order_at(store_id, "kitchen" if mode == "delivery" else "pickup", options,
                                 qty if "qty" in g else None)
        yield from self.ask_directions(catalog.store(store_id)["name"])
        if mode != "no_walk":
            yield from self.walk_to(g["store_node"])
        yield "stop"

    def order_at(self, store_id: str, delivery: str = "pickup", options: dict[str, str] | None = None,
                 qty: int | None = None, product_id: str | None = None) -> Any:
        """Put the task's product (or ``product_id``; with ``options``; ``qty`` of it, else the form's 1) in
        the cart at a store on its product page, and check that store's items out for ``delivery``
        (``pickup`` or ``kitchen``)."""
        from web_sites.shop import catalog

        pid = product_id or self.task.goal["product_id"]
        store = catalog.store(store_id)
        if self.obs["active"] != "web":
            yield "switch_environment"
        yield f"goto [/shop/product/{pid}]"
        yield f"type [{find_bid(self.obs['web_text'], 'combobox', 'Store')}] [{store['name']}]"
        product = catalog.product(pid)
        for group in product.get("options", []):
            value = (options or {}).get(group["name"])
            if value is None:
                continue
            bid = find_bid(self.obs["web_text"], "combobox", group["label"])
            yield f"type [{bid}] [{value}]"
        if qty is not None:
            yield f"type [{find_bid(self.obs['web_text'], 'spinbutton', 'Quantity')}] [{qty}]"
        yield f"click [{find_bid(self.obs['web_text'], 'button', 'Add to cart')}]"
        yield "goto [/shop/cart]"
        text = self.obs["web_text"]
        label = "Deliver to my kitchen" if delivery == "kitchen" else "Pick up in store"
        radios = _all(text, "radio", label)
        buttons = _all(text, "button", f"Check out at {store['name']}")
        # the store's own checkout form: its radios come right before its button
        radio = max((r for r in radios if int(r) < int(buttons[0])), key=int, default=None) if buttons else None
        if radio:
            yield f"click [{radio}]"
        if buttons:
            yield f"click [{buttons[0]}]"


class ErrandOracle(ShoppingOracle):
    """Orders each purchase at its store for pickup (and reads the landmark's article), then walks the
    shortest tour through the errands' places and stops at the last with the answer.

    Perturbed (one errand spoiled): one errand left out entirely, one purchase at another store, the walk
    ending at the first place, or a wrong answer."""

    def plan(self) -> Any:
        from embodiedweb.domains.outdoor.traveling import fact_of, wrong_answer
        from web_sites.shop import catalog

        errands = list(self.task.goal["errands"])
        modes = ["skip", "wrong_store", "one_place"] + (["wrong_answer"] if any(e["kind"] == "ask" for e in errands)
                                                        else [])
        mode = self.perturb.choice(modes) if self.perturb else None
        if mode == "skip":
            errands.pop(self.perturb.randrange(len(errands)))
        answer = ""
        for e in errands:
            if e["kind"] == "buy":
                store = e["store_id"]
                if mode == "wrong_store":
                    store = next(s for s in catalog.stores_selling(e["product_id"]) if s != e["store_id"])
                    mode = None
                yield from self.order_at(store, "pickup", e.get("options") or {}, product_id=e["product_id"])
            else:
                if self.obs["active"] != "web":
                    yield "switch_environment"
                yield f"goto [/wiki/article/{e['slug']}]"
                fact = fact_of(e) or {"kind": "name", "value": e["answer"]}
                answer = wrong_answer(fact) if mode == "wrong_answer" else str(fact["value"])
        order = tour(self.here(), errands)
        if mode == "one_place":
            order = order[:1]
        for e in order:
            yield from self.walk_to(place_of(e))
        yield f"stop [{answer}]" if answer else "stop"


class BasketOracle(ShoppingOracle):
    """Orders each item of a basket at the generator's store for it (``goal.basket[k].store_id``) for pickup, one
    order per item, then walks the shortest collection order through those stores and stops at the last.

    Perturbed (one thing spoiled): one item at another store, one item left out, one unit more of an item, or the
    walk ending at the first store."""

    def plan(self) -> Any:
        from web_sites.shop import catalog

        basket = [dict(it) for it in self.task.goal["basket"]]
        mode = self.perturb.choice(["other_store", "skip", "extra_unit", "first_store_only"]) if self.perturb else None
        k = self.perturb.randrange(len(basket)) if self.perturb else 0
        if mode == "other_store":
            basket[k]["store_id"] = next(s for s in catalog.stores_selling(basket[k]["product_id"])
                                         if s != basket[k]["store_id"])
        elif mode == "skip":
            basket.pop(k)
        elif mode == "extra_unit":
            basket[k]["qty"] += 1
        for it in basket:
            yield from self.order_at(it["store_id"], "pickup", it.get("options") or {}, int(it["qty"]),
                                     product_id=it["product_id"])
        order = collection_order(self.here(), [it["store_id"] for it in basket])
        if mode == "first_store_only":
            order = order[:1]
        for s in order:
            yield from self.walk_to(store_nodes()[s])
        yield "stop"


def _all(text: str, role: str, name: str) -> list[str]:
    out, i = [], 0
    while (b := find_bid(text, role, name, nth=i)) is not None:
        out.append(b)
        i += 1
    return out
