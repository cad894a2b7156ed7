"""Errands with several goals in one episode (EWA-Shopping-v0's hard tier, ``goal.errands``).

The oracle runs every errand task through the public interface; agents that do one errand, buy everything
by a rule-blind strategy, order everywhere, order without walking or walk without ordering fail; agents
that run the errands another legitimate way (each order just before its walk, the stores in the listed
order, one order per store holding all its items, a slip at another store cancelled before the right order,
orders everywhere with all but the rule's store's cancelled before walking) pass. A slip left standing, or
orders cancelled and placed again after walking past the stores (a cancelled order's time is not when
anything waited at the store), fail.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401  (registers the envs)
from embodiedweb.data_gen.outdoor_tasks import _split
from embodiedweb.domains.outdoor.common import city
from embodiedweb.domains.outdoor.errands import place_of, tour
from embodiedweb.domains.outdoor.shopping import ErrandOracle, ShoppingDomain
from embodiedweb.registration import spec_for
from embodiedweb.tasks import Task, TaskError, load_tasks
from tests.domains.outdoor.test_hard_navigation import play
from web_sites.shop import catalog

SHOP = "EWA-Shopping-v0"


@pytest.fixture(scope="module")
def env():
    e = gym.make(SHOP, level="hard")
    yield e
    e.close()


def _hard_errands() -> list[Task]:
    return [t for t in load_tasks(spec_for(SHOP).level_tasks_path("hard"), ShoppingDomain().validate_task)
            if "errands" in t.goal]


@pytest.fixture(scope="module")
def errand_tasks() -> list[Task]:
    """The purchases-only errands."""
    return [t for t in _hard_errands() if all(e["kind"] == "buy" for e in t.goal["errands"])]


@pytest.fixture(scope="module")
def ask_tasks() -> list[Task]:
    """The errands of a purchase and a landmark question."""
    return [t for t in _hard_errands() if any(e["kind"] == "ask" for e in t.goal["errands"])]


def test_errands_suite_shape(errand_tasks):
    """60 tasks after the 120 single purchases, half test; 2 or 3 purchases each under distinct rules, at two
    or more stores, their products in the task's split."""
    assert [t.task_id for t in errand_tasks] == [f"shop-hard-{i:03d}" for i in range(120, 180)]
    assert sum(t.split == "test" for t in errand_tasks) == 30
    for t in errand_tasks:
        es = t.goal["errands"]
        assert len(es) in (2, 3) and len({e["rule"] for e in es}) == len(es)
        assert len({e["store_id"] for e in es}) >= 2
        assert all(_split(e["product_id"]) == t.split for e in es)
        assert all(catalog.product(e["product_id"])["name"] in t.instruction for e in es)


class Errands(ErrandOracle):
    """The oracle's errands done another way, or spoiled (see the tests)."""

    def __init__(self, task: Task, how: str, store: str | None = None) -> None:
        super().__init__(task)
        self.how, self.store = how, store

    def plan(self) -> Any:
        es = list(self.task.goal["errands"])
        if self.how == "interleaved":  # each order just before its walk, in the listed order
            for e in es:
                yield from self.order_at(e["store_id"], "pickup", {}, product_id=e["product_id"])
                yield from self.walk_to(place_of(e))
            yield "stop"
            return
        if self.how == "one_cart":  # every item of a store in one order
            for store in dict.fromkeys(e["store_id"] for e in es):
                for e in (e for e in es if e["store_id"] == store):
                    yield from self.add(e, store)
                yield from self.checkout(store)
            for e in tour(self.here(), es):
                yield from self.walk_to(place_of(e))
            yield "stop"
            return
        if self.how == "one_errand":  # the errand nearest the start only
            e = tour(self.here(), es)[0]
            yield from self.order_at(e["store_id"], "pickup", {}, product_id=e["product_id"])
            yield from self.walk_to(place_of(e))
            yield "stop"
            return
        if self.how == "blind":  # every item at one store a rule-blind strategy chose, then walk the tour
            for e in es:
                if self.store in catalog.stores_selling(e["product_id"]):
                    yield from self.order_at(self.store, "pickup", {}, product_id=e["product_id"])
        elif self.how == "on_arrival":  # each order placed standing at its store, along the tour
            for e in tour(self.here(), es):
                yield from self.walk_to(place_of(e))
                yield from self.order_at(e["store_id"], "pickup", {}, product_id=e["product_id"])
            yield "stop"
            return
        elif self.how == "walk_first":  # the tour past every store first, then every order, standing at the last
            for e in tour(self.here(), es):
                yield from self.walk_to(place_of(e))
            for e in es:
                yield from self.order_at(e["store_id"], "pickup", {}, product_id=e["product_id"])
            yield "stop"
            return
        elif self.how in ("three_each", "kitchen_too"):  # more than "one": extra units, or a delivery besides
            for e in es:
                if self.how == "three_each":
                    yield from self.order_at(e["store_id"], "pickup", {}, 3, product_id=e["product_id"])
                else:
                    yield from self.order_at(e["store_id"], "pickup", {}, product_id=e["product_id"])
                    yield from self.order_at(e["store_id"], "kitchen", {}, product_id=e["product_id"])
        elif self.how == "everywhere":
            for e in es:
                for store in catalog.stores_selling(e["product_id"]):
                    yield from self.order_at(store, "pickup", {}, product_id=e["product_id"])
        elif self.how == "cancel_slip":  # each purchase first at another store, cancelled, then at its own
            for e in es:
                yield from self.order_at(self.other(e), "pickup", {}, product_id=e["product_id"])
                yield from self.cancel()
                yield from self.order_at(e["store_id"], "pickup", {}, product_id=e["product_id"])
        elif self.how == "slip_kept":  # the same slips, left standing
            for e in es:
                yield from self.order_at(self.other(e), "pickup", {}, product_id=e["product_id"])
                yield from self.order_at(e["store_id"], "pickup", {}, product_id=e["product_id"])
        elif self.how == "everywhere_cancel":  # every store, then the other stores' orders cancelled before walking
            for e in es:
                for store in catalog.stores_selling(e["product_id"], self.out_of_stock()):
                    yield from self.order_at(store, "pickup", {}, product_id=e["product_id"])
                    if store != e["store_id"]:
                        yield from self.cancel()
        elif self.how == "reorder_after_walk":  # ordered right, cancelled, the tour walked, then ordered again
            for e in es:
                yield from self.order_at(e["store_id"], "pickup", {}, product_id=e["product_id"])
                yield from self.cancel()
            for e in tour(self.here(), es):
                yield from self.walk_to(place_of(e))
            for e in es:
                yield from self.order_at(e["store_id"], "pickup", {}, product_id=e["product_id"])
            yield "stop"
            return
        elif self.how != "walk_only":
            for e in es:
                yield from self.order_at(e["store_id"], "pickup", {}, product_id=e["product_id"])
        if self.how == "no_walk":
            yield "stop"
            return
        order = tour(self.here(), es)
        if self.how == "last_only":  # straight to the last store of the tour
            order = order[-1:]
        for e in order:
            yield from self.walk_to(place_of(e))
        yield "stop"

    def other(self, e: dict[str, Any]) -> str:
        """A store other than the errand's that has its product in stock today."""
        return next(s for s in catalog.stores_selling(e["product_id"], self.out_of_stock()) if s != e["store_id"])

    def out_of_stock(self) -> list[list[str]]:
        return ((self.task.web.get("sites") or {}).get("shop") or {}).get("out_of_stock", [])

    def cancel(self) -> Any:
        """Cancel the order whose page the checkout just led to, with its "Cancel order" button."""
        import re

        from embodiedweb.agents.script import find_bid

        m = re.search(r"heading 'Order (ORD-\d+)'", self.obs["web_text"])
        assert m, self.obs["web_text"][:800]
        yield f"click [{find_bid(self.obs['web_text'], 'button', f'Cancel order {m.group(1)}')}]"
        assert f"Order {m.group(1)} from" in self.obs["web_text"], self.obs["web_text"][:800]

    def add(self, e: dict[str, Any], store: str) -> Any:
        """The first half of ``order_at``: the item in the cart at ``store``."""
        from embodiedweb.agents.script import find_bid

        if self.obs["active"] != "web":
            yield "switch_environment"
        yield f"goto [/shop/product/{e['product_id']}]"
        yield f"type [{find_bid(self.obs['web_text'], 'combobox', 'Store')}] [{catalog.store(store)['name']}]"
        yield f"click [{find_bid(self.obs['web_text'], 'button', 'Add to cart')}]"

    def checkout(self, store: str) -> Any:
        from embodiedweb.agents.script import find_bid

        yield "goto [/shop/cart]"
        name = catalog.store(store)["name"]
        button = find_bid(self.obs["web_text"], "button", f"Check out at {name}")
        radios = []
        i = 0
        while (b := find_bid(self.obs["web_text"], "radio", "Pick up in store", nth=i)) is not None:
            radios.append(b)
            i += 1
        radio = max((r for r in radios if int(r) < int(button)), key=int)
        yield f"click [{radio}]"
        yield f"click [{button}]"


def rate(env: Any, tasks: list[Task], make: Any) -> float:
    return sum(bool(play(env, make(t), t.task_id)["overall"]) for t in tasks) / len(tasks)


def test_oracle_runs_every_errand_task_and_perturbed_fails(env, errand_tasks):
    assert rate(env, errand_tasks, lambda t: ErrandOracle(t)) == 1.0
    assert rate(env, errand_tasks, lambda t: ErrandOracle(t, random.Random(t.task_id))) == 0.0


@pytest.mark.parametrize("how", ["interleaved", "one_cart", "on_arrival", "cancel_slip", "everywhere_cancel"])
def test_genuine_other_ways_pass(env, errand_tasks, how):
    assert rate(env, errand_tasks, lambda t: Errands(t, how)) >= 0.98


@pytest.mark.parametrize("how", ["one_errand", "everywhere", "no_walk", "walk_only", "last_only", "walk_first",
                                 "three_each", "kitchen_too", "slip_kept", "reorder_after_walk"])
def test_shortcuts_fail(env, errand_tasks, how):
    assert rate(env, errand_tasks, lambda t: Errands(t, how)) == 0.0


def test_rule_blind_stores_fail(env, errand_tasks):
    """Every item at one store (each of the four; what a fixed-store strategy does), then the tour: 0 %."""
    tasks = random.Random(5).sample(errand_tasks, 20)
    for store in catalog.store_ids():
        assert rate(env, tasks, lambda t, s=store: Errands(t, "blind", s)) == 0.0, store


def test_errand_validation_names_task_and_field(errand_tasks):
    rec = errand_tasks[0].to_json()
    one = {**rec, "goal": {**rec["goal"], "errands": rec["goal"]["errands"][:1]}}
    with pytest.raises(TaskError, match=r"shop-hard-120.*goal\.errands"):
        ShoppingDomain().validate_task(Task.from_json(one))
    bad = [dict(e) for e in rec["goal"]["errands"]]
    bad[1]["store_node"] = "nowhere"
    with pytest.raises(TaskError, match=r"goal\.errands\[1\]\.store_node"):
        ShoppingDomain().validate_task(Task.from_json({**rec, "goal": {**rec["goal"], "errands": bad}}))
    assert city().nodes  # (the city is loaded)


# ------------------------------------------------------------------------------- the checker alone
def _end(task: Task, orders: list[dict[str, Any]], path: list[str], answer: str | None = "") -> Any:
    """The end state of a walk along ``path`` (one node per step, from step 10 on) after ``orders``."""
    from embodiedweb.domains.base import Episode

    world = {"node": path[-1], "path": path, "path_at": [0, *range(10, 9 + len(path))]}
    return Episode(task=task, world_state=world, web_state={"shop": {"orders": orders}},
                   answer=answer, steps=10, switches=2)


def _order(e: dict[str, Any], store: str | None = None, delivery: str = "pickup", qty: int = 1, at: int = 5,
           options: dict[str, str] | None = None) -> dict[str, Any]:
    return {"order_id": "ORD-1", "store_id": store or e["store_id"], "delivery": delivery, "total": 1.0, "at": at,
            "items": [{"product_id": e["product_id"], "options": options or {}, "qty": qty}]}


def _cancelled(order: dict[str, Any]) -> dict[str, Any]:
    return {**order, "order_id": "ORD-9", "status": "cancelled", "cancelled_at": order["at"] + 1}


def test_checker_rules_on_end_states(errand_tasks):
    """Every purchase right and every store reached with a stop at one of them passes; each single fault
    fails: an order missing, at another store too, for delivery; a store not reached; no stop; the stop
    elsewhere. The stop may be at any of the stores, and the stores reached in any order."""
    d = ShoppingDomain()
    t = next(t for t in errand_tasks if len({e["store_id"] for e in t.goal["errands"]}) == len(t.goal["errands"]))
    es = t.goal["errands"]
    orders = [_order(e) for e in es]
    nodes = [e["store_node"] for e in es]
    start = t.embodied["start"]
    good = d.check(_end(t, orders, [start, *nodes]))
    assert good["overall"] and good["completion"] == 1.0 and good["errands_done"] == len(es) == good["errands"]
    assert d.check(_end(t, orders, [start, *reversed(nodes)]))["overall"]  # any order of visits
    # ordered while standing at the store (the last of the tour) counts: it is picked up there
    late = [*orders[:-1], _order(es[-1], at=9 + len(nodes) + 1)]
    assert d.check(_end(t, late, [start, *nodes]))["overall"]
    other = next(s for s in catalog.stores_selling(es[0]["product_id"]) if s != es[0]["store_id"])
    faults = {
        "an order missing": _end(t, orders[1:], [start, *nodes]),
        "also at another store": _end(t, orders + [_order(es[0], other)], [start, *nodes]),
        "delivered, not picked up": _end(t, [_order(es[0], delivery="kitchen")] + orders[1:], [start, *nodes]),
        "a store not reached": _end(t, orders, [start, nodes[-1]]),
        "no stop": _end(t, orders, [start, *nodes], answer=None),
        "the stop elsewhere": _end(t, orders, [start, *nodes, start]),
        # what was bought is exactly what was asked: one unit, the options, nothing else of the product
        "two units": _end(t, [_order(es[0], qty=2)] + orders[1:], [start, *nodes]),
        "a second order of it, delivered": _end(t, orders + [_order(es[0], delivery="kitchen")], [start, *nodes]),
        "another option too": _end(t, orders + [_order(es[0], options={"size": "x"})], [start, *nodes]),
        # a store passed before its order existed picks nothing up: walk the tour first, order at the end
        "ordered after passing the store": _end(t, [_order(es[0], at=9 + len(nodes) + 5)] + orders[1:],
                                                [start, *nodes]),
        # a cancelled order bought nothing (shopping checker version 8) and is no time the walk counts from: the
        # store passed while only a cancelled order existed, the live one placed after
        "its only order cancelled": _end(t, [_cancelled(_order(es[0]))] + orders[1:], [start, *nodes]),
        "passed while only a cancelled order stood": _end(
            t, [_cancelled(_order(es[0], at=5)), _order(es[0], at=9 + len(nodes) + 5)] + orders[1:], [start, *nodes]),
    }
    # a slip at another store, cancelled, beside the right order: passes
    assert d.check(_end(t, [_cancelled(_order(es[0], other))] + orders, [start, *nodes]))["overall"]
    for what, episode in faults.items():
        m = d.check(episode)
        assert not m["overall"] and m["completion"] < 1.0, what
    # a web state without the shop (nothing ordered) is a failed purchase, not a crash
    from embodiedweb.domains.base import Episode

    bare = Episode(task=t, world_state={"node": nodes[-1], "path": [start, *nodes]}, web_state={}, answer="",
                   steps=10, switches=2)
    assert not d.check(bare)["web"]


def test_a_purchase_is_exactly_what_was_asked():
    """``purchase_ok``: one unit (or ``qty``) of the product with the options asked, for pickup at the errand's
    store, and no other unit of it anywhere."""
    from embodiedweb.domains.outdoor.errands import purchase_ok

    e = {"product_id": "p1", "options": {"size": "large"}, "store_id": "s1"}

    def order(options=None, qty=1, store="s1", delivery="pickup"):
        return {"store_id": store, "delivery": delivery,
                "items": [{"product_id": "p1", "options": {"size": "large"} if options is None else options, "qty": qty}]}

    assert purchase_ok([order()], e) and purchase_ok([order(qty=2)], {**e, "qty": 2})
    assert not purchase_ok([order({"size": "small"})], e)  # one unit, another option
    assert not purchase_ok([order({})], e)  # no option chosen
    assert not purchase_ok([order(qty=2)], e) and not purchase_ok([order(), order(delivery="kitchen")], e)
    assert not purchase_ok([order(store="s2")], e) and not purchase_ok([order(), order(store="s2")], e)
    assert not purchase_ok([], e) and purchase_ok([order(), {"store_id": "s2", "items": [{"product_id": "p9", "qty": 1}]}], e)


def test_an_item_holds_its_options():
    from embodiedweb.domains.outdoor.errands import holds

    item = {"product_id": "p1", "options": {"size": "large"}, "qty": 1}
    assert holds(item, "p1", {"size": "large"}) and holds(item, "p1", None)
    assert not holds(item, "p1", {"size": "small"}) and not holds(item, "p2", {"size": "large"})
    assert not holds({**item, "qty": 0}, "p1", {"size": "large"})


# ---------------------------------------------------------------- a purchase and a landmark question
def test_purchase_and_question_shape(ask_tasks):
    """20 tasks after the purchases-only errands, half test: one purchase and one question about a named
    landmark each, the store and the landmark apart, product, landmark and task in one split."""
    from embodiedweb.data_gen.hard_shopping import ASK_APART_M

    assert [t.task_id for t in ask_tasks] == [f"shop-hard-{i:03d}" for i in range(180, 200)]
    assert sum(t.split == "test" for t in ask_tasks) == 10
    for t in ask_tasks:
        buy, ask = t.goal["errands"]
        assert buy["kind"] == "buy" and ask["kind"] == "ask"
        assert _split(buy["product_id"]) == _split(ask["place_id"]) == t.split
        assert city().shortest_length(buy["store_node"], ask["place_node"]) >= ASK_APART_M
        assert catalog.product(buy["product_id"])["name"] in t.instruction


class Ask(ErrandOracle):
    """The oracle's purchase-and-question errands done another way, or spoiled."""

    def __init__(self, task: Task, how: str) -> None:
        super().__init__(task)
        self.how = how

    def plan(self) -> Any:
        from embodiedweb.domains.outdoor.traveling import fact_of

        buy, ask = self.task.goal["errands"]
        answer = str(fact_of(ask)["value"])
        if self.how == "sentence":
            answer = f"The answer is {answer}, according to the article."
        if self.how != "skip_purchase":
            yield from self.order_at(buy["store_id"], "pickup", {}, product_id=buy["product_id"])
        if self.how != "from_memory":
            yield "goto [/wiki/article/" + ask["slug"] + "]"
        places = [ask, buy] if self.how == "landmark_first" else tour(self.here(), [buy, ask])
        if self.how == "skip_landmark":
            places = [buy]
        elif self.how == "skip_purchase":
            places = [ask]
        for e in places:
            yield from self.walk_to(place_of(e))
        if self.how == "stop_elsewhere":
            yield from self.walk_to(self.task.embodied["start"])
        yield "stop" if self.how == "no_answer" else f"stop [{answer}]"


def test_purchase_and_question_oracle_and_perturbed(env, ask_tasks):
    assert rate(env, ask_tasks, lambda t: ErrandOracle(t)) == 1.0
    assert rate(env, ask_tasks, lambda t: ErrandOracle(t, random.Random(t.task_id))) == 0.0


@pytest.mark.parametrize("how", ["landmark_first", "sentence"])
def test_purchase_and_question_genuine_ways_pass(env, ask_tasks, how):
    assert rate(env, ask_tasks, lambda t: Ask(t, how)) == 1.0


@pytest.mark.parametrize("how", ["from_memory", "skip_landmark", "skip_purchase", "stop_elsewhere", "no_answer"])
def test_purchase_and_question_shortcuts_fail(env, ask_tasks, how):
    """An answer the agent did not read (the article never opened), a place not visited, no purchase, the stop
    at neither place, no answer: each fails every task."""
    assert rate(env, ask_tasks, lambda t: Ask(t, how)) == 0.0
