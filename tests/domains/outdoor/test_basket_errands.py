"""Basket errands of EWA-Shopping-v0's hard tier (``shop-hard-200`` ...; stop 37; ``goal.basket``;
:mod:`embodiedweb.data_gen.hard_baskets`, the checker :func:`embodiedweb.domains.outdoor.baskets.check_basket`).

Three or four items split across the stores under a budget and a walking limit: exactly one assignment of items to
stores meets both (from the catalogue's prices and the map's lengths), none of the obvious plans is it; the oracle
passes every basket through the public interface; the obvious plans, each bought and walked through the env, fail
every basket; another way of doing the right thing (ordering at each stop, one cart, browsing first, another
shortest path, a slip cancelled) passes; a walk past the stores before ordering, a delivery, a detour over the
limit, or the budget broken where the shop does not stop it, fail.

``python -m tests.domains.outdoor.test_basket_errands`` prints every agent's rate.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401  (registers the envs)
from embodiedweb.data_gen import hard_baskets as gen
from embodiedweb.data_gen.outdoor_tasks import _split
from embodiedweb.domains.base import Episode
from embodiedweb.domains.outdoor.baskets import collection_order, store_nodes
from embodiedweb.domains.outdoor.common import city
from embodiedweb.domains.outdoor.shopping import BasketOracle, ShoppingDomain
from embodiedweb.env import EmbodiedWebEnv
from embodiedweb.paths import data_dir
from embodiedweb.registration import spec_for
from embodiedweb.tasks import Task, TaskError, load_tasks
from tests.domains.outdoor.test_appointment_tours import other_shortest_via
from tests.domains.outdoor.test_hard_shopping import play
from web_sites.shop import catalog

SHOP = "EWA-Shopping-v0"
FIRST_BASKET = 200
#: sha256 of the hard file's lines before the baskets (shop-hard-000..199), as stop 36 left them (with stop 38's
#: walker view, plain map and unnamed start undone: :func:`before_stop_38`)
EARLIER_LINES_SHA256 = "a48b0c3a353fcd4dd431cf6f291418aa503de3188fb620e16c9b04c188daca12"
#: the same lines since stop 38
EARLIER_LINES_SHA256_STOP_38 = "13881f05a7519a1382deb3f1f26f5444d37ed01272fdd400902eb4f9f772f970"


def before_stop_38(line: str) -> str:
    """A hard shopping task line as it was before stop 38: the start named ("You are at <corner>. "), no walker
    view, no plain map."""
    import json

    t = json.loads(line)
    assert t["instruction"].startswith(gen.WHERE_YOU_START + " ") and t["embodied"].pop("view") == "walker"
    assert t["web"]["sites"].pop("map") == {"plain": True}
    if not t["web"]["sites"]:
        del t["web"]["sites"]
    corner = city().intersection_name(t["embodied"]["start"])
    t["instruction"] = f"You are at {corner}. " + t["instruction"][len(gen.WHERE_YOU_START) + 1:]
    return json.dumps(t, ensure_ascii=False, sort_keys=True) + "\n"


@pytest.fixture(scope="module")
def env():
    e = gym.make(SHOP, level="hard")
    yield e
    e.close()


def load() -> list[Task]:
    tasks = load_tasks(spec_for(SHOP).level_tasks_path("hard"), ShoppingDomain().validate_task)
    return [t for t in tasks if "basket" in t.goal]


@pytest.fixture(scope="module")
def baskets() -> list[Task]:
    return load()


def rows_of(t: Task) -> tuple[list[tuple[Any, float, float]], dict[str, float], dict[Any, Any], Any]:
    """From the catalogue's prices and the map's lengths: every assignment's (stores, total, walk), the walk from
    the start to each store, the walks of every set of stores, and the stores' legs."""
    nodes = store_nodes()
    start = t.embodied["start"]
    between = gen.store_legs(city(), nodes)
    dist = {s: city().shortest_length(start, n) for s, n in nodes.items()}
    of = {n: s for s, n in nodes.items()}
    walk = gen.walks(start, lambda a, b: dist[of[b]] if a == start else between[of[a], of[b]], nodes)
    totals = gen.line_totals(t.goal["basket"])
    return gen.table(totals, walk), dist, walk, (totals, between)


def answer(t: Task) -> tuple[str, ...]:
    return tuple(it["store_id"] for it in t.goal["basket"])


def plans(t: Task) -> dict[str, tuple[str, ...]]:
    """The obvious plans (:func:`~embodiedweb.data_gen.hard_baskets.heuristic_assignments`) for ``t``."""
    _rows, dist, walk, (totals, between) = rows_of(t)
    return gen.heuristic_assignments(totals, dist, walk, t.goal["limit_m"], t.goal["budget"],
                                     lambda x, y: between[x, y])


# ------------------------------------------------------------------------------------------- the tasks
def test_earlier_hard_lines_are_byte_identical():
    """The 200 lines before the baskets are stop 36's, byte for byte, but for stop 38's walker view, plain map and
    unnamed start (undone, they give stop 36's bytes; as they are, stop 38's)."""
    lines = (data_dir() / "shopping" / "hard.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    assert hashlib.sha256("".join(lines[:FIRST_BASKET]).encode("utf-8")).hexdigest() == EARLIER_LINES_SHA256_STOP_38
    undone = "".join(before_stop_38(line) for line in lines[:FIRST_BASKET])
    assert hashlib.sha256(undone.encode("utf-8")).hexdigest() == EARLIER_LINES_SHA256


def test_baskets_reproduce():
    """The generator's baskets are the shipped lines (same seed, same tasks)."""
    import json

    from embodiedweb.worlds.street.city import load_city

    drawn = gen.baskets(load_city(), random.Random(gen.BASKET_SEED), FIRST_BASKET)
    assert [json.loads(json.dumps(t)) for t in drawn] == [t.to_json() for t in load()]


def test_baskets_are_appended_split_and_sized(baskets):
    """14 baskets from shop-hard-200, seven per split (four of three items, three of four), each item of the
    task's split, sold at three or four stores at different prices, and said in the instruction as the tier says
    an item; the budget and the limit in the instruction, the shop's budget the goal's; the oracle's walk within
    the env's 400 steps."""
    assert [t.task_id for t in baskets] == [f"shop-hard-{FIRST_BASKET + i}" for i in range(14)]
    for split in ("test", "train"):
        assert sorted(len(t.goal["basket"]) for t in baskets if t.split == split) == sorted(gen.BASKET_ITEMS)
    for t in baskets:
        g = t.goal
        assert t.web["sites"]["shop"] == {"budget": g["budget"]} and t.meta["max_steps"] == 400
        assert f"${g['budget']:.2f} to spend in all" in t.instruction and f"at most {g['limit_m']:,} m" in t.instruction
        for it in g["basket"]:
            prices = catalog.product(it["product_id"])["prices"]
            assert _split(it["product_id"]) == t.split and len(prices) >= 3
            assert len(set(prices.values())) == len(prices)
            assert gen.item_text(it) in t.instruction
        assert g["route_m"] <= gen.MAX_ROUTE_M and len(set(answer(t))) == 2


def test_exactly_one_assignment_meets_both_limits(baskets):
    """From the catalogue's prices and the map's lengths alone: the answer is the one assignment within the budget
    and the limit, even with the margins (every other misses the budget by more than ten cents or the limit by
    MISS_M); its walk is ``route_m``, at least ROOM_M under the limit; its total within the budget."""
    for t in baskets:
        rows, *_ = rows_of(t)
        g = t.goal
        assert gen.feasible(rows, g["budget"], g["limit_m"]) == [answer(t)], t.task_id
        assert gen.feasible(rows, g["budget"], g["limit_m"], gen.BUDGET_MARGIN, gen.MISS_M) == [answer(t)], t.task_id
        _a, c, w = next(r for r in rows if r[0] == answer(t))
        assert abs(w - g["route_m"]) < 0.1 and w <= g["limit_m"] - gen.ROOM_M and c <= g["budget"]


def test_no_obvious_plan_is_the_answer(baskets):
    """The cheapest store per item breaks the limit, every store that sells everything the budget, and so on for
    each plan of :func:`heuristic_assignments` (cap: none)."""
    assert gen.HEURISTIC_CAP == 0.0
    for t in baskets:
        rows, *_ = rows_of(t)
        g = t.goal
        fits = gen.feasible(rows, g["budget"], g["limit_m"])
        got = plans(t)
        hits = [k for k, a in got.items() if a in fits]
        assert not hits, (t.task_id, hits)
        info = {a: (c, w) for a, c, w in rows}
        # the cheapest store per item walks too far (it is the lowest total there is); a store selling everything,
        # or the two stores nearest the start, within the limit's reach, cost too much
        assert info[got["cheapest per item"]][1] > g["limit_m"] + gen.MISS_M, t.task_id
        for k, a in got.items():
            if k.startswith("one store:") or k == "two nearest stores":
                assert info[a][1] > g["limit_m"] + gen.MISS_M or info[a][0] > g["budget"] + gen.BUDGET_MARGIN, (t.task_id, k)


def both_limits_bind(t: Task) -> tuple[bool, bool]:
    """(the cheapest assignment of all breaks the walking limit, the shortest-walk assignment of all breaks the
    budget): each limit binds (stop 38, every condition a hard task states binds)."""
    rows, *_ = rows_of(t)
    g = t.goal
    _a, _c, cheapest_walk = min(rows, key=lambda r: (r[1], r[2], r[0]))
    _a, shortest_total, _w = min(rows, key=lambda r: (r[2], r[1], r[0]))
    return cheapest_walk > g["limit_m"], shortest_total > g["budget"]


def test_both_limits_bind(baskets):
    """A basket's two limits bind by construction: the cheapest assignment walks too far and the shortest walk costs
    too much (an agent ignoring either limit does not get the answer; 14 of 14 each)."""
    assert len(baskets) == 14
    for t in baskets:
        assert both_limits_bind(t) == (True, True), t.task_id


# ------------------------------------------------------------------------------------------- episodes
class Basket(BasketOracle):
    """Buys a basket in one way: ``how`` names it, ``stores`` the store per item (the answer by default)."""

    def __init__(self, task: Task, how: str = "plan", stores: tuple[str, ...] | None = None) -> None:
        super().__init__(task)
        self.how = how
        self.stores = stores or answer(task)

    def items(self) -> list[dict[str, Any]]:
        return [{**it, "store_id": s} for it, s in zip(self.task.goal["basket"], self.stores, strict=True)]

    def order(self, it: dict[str, Any], delivery: str = "pickup") -> Any:
        yield from self.order_at(it["store_id"], delivery, it.get("options") or {}, int(it["qty"]),
                                 product_id=it["product_id"])

    def plan(self) -> Any:
        items, how = self.items(), self.how
        order = collection_order(self.here(), [it["store_id"] for it in items])
        if how == "at_each_stop":  # walk to each store, order its items standing there
            for s in order:
                yield from self.walk_to(store_nodes()[s])
                for it in (it for it in items if it["store_id"] == s):
                    yield from self.order(it)
            yield "stop"
            return
        if how == "browse":  # every product page, the stores page, the map's legs, then the plan
            if self.obs["active"] != "web":
                yield "switch_environment"
            yield "goto [/shop/stores]"
            for it in self.task.goal["basket"]:
                yield f"goto [/shop/product/{it['product_id']}]"
            for s in catalog.store_ids():
                yield from self.ask_directions(catalog.store(s)["name"])
        if how == "one_cart":  # every item of a store in one order
            for s in order:
                for it in (it for it in items if it["store_id"] == s):
                    yield from self.add(it)
                yield from self.checkout(s)
        elif how == "slip_cancelled":  # the first item first at another store, cancelled
            from tests.domains.outdoor.test_errands import Errands

            it = items[0]
            other = next(s for s in catalog.stores_selling(it["product_id"]) if s != it["store_id"])
            yield from self.order({**it, "store_id": other})
            yield from Errands.cancel(self)  # type: ignore[arg-type]
        if how not in ("one_cart", "walk_first"):
            for k, it in enumerate(items):
                yield from self.order(it, "kitchen" if how == "kitchen" and k == 0 else "pickup")
        if how == "detour":  # out of the way and back first: the right stores, more metres than the limit
            here = self.here()
            far = max(city().within_walk(here, 250.0), key=lambda n: (city().shortest_length(here, n), n))
            yield from self.walk_to(far)
            yield from self.walk_to(here)
        if how == "last_only":
            order = order[-1:]
        for s in order:
            if how == "other_paths":
                via = other_shortest_via(self.here(), store_nodes()[s])
                if via is not None:
                    yield from self.walk_to(via)
            yield from self.walk_to(store_nodes()[s])
        if how == "walk_first":  # the stores passed first, every order placed at the last one
            for it in items:
                yield from self.order(it)
        yield "stop"

    def add(self, it: dict[str, Any]) -> Any:
        """The item in the cart at its store (the first half of ``order_at``)."""
        from embodiedweb.agents.script import find_bid

        if self.obs["active"] != "web":
            yield "switch_environment"
        yield f"goto [/shop/product/{it['product_id']}]"
        yield f"type [{find_bid(self.obs['web_text'], 'combobox', 'Store')}] [{catalog.store(it['store_id'])['name']}]"
        p = catalog.product(it["product_id"])
        for group in p["options"]:
            if group["name"] in (it.get("options") or {}):
                yield f"type [{find_bid(self.obs['web_text'], 'combobox', group['label'])}] [{it['options'][group['name']]}]"
        yield f"type [{find_bid(self.obs['web_text'], 'spinbutton', 'Quantity')}] [{it['qty']}]"
        yield f"click [{find_bid(self.obs['web_text'], 'button', 'Add to cart')}]"

    def checkout(self, store: str) -> Any:
        from tests.domains.outdoor.test_errands import Errands

        yield from Errands.checkout(self, store)  # type: ignore[arg-type]


def rate(env: Any, tasks: list[Task], make: Any) -> float:
    return sum(bool(play(env, make(t), t.task_id)["overall"]) for t in tasks) / len(tasks)


def test_oracle_solves_every_basket_and_perturbed_fails(env, baskets):
    results = [play(env, BasketOracle(t), t.task_id) for t in baskets]
    assert all(m["overall"] and m["completion"] == 1.0 for m in results), [m for m in results if not m["overall"]]
    assert rate(env, baskets, lambda t: BasketOracle(t, random.Random(t.task_id))) == 0.0


def test_oracle_actions_are_candidates_of_the_discrete_interface(baskets):
    """Every action of the oracle (option and quantity fields included) is a candidate of ``DiscreteActions``, on a
    basket of three items and one of four."""
    from embodiedweb.wrappers import DiscreteActions
    from tests.test_wrappers import oracle_through_discrete

    e = DiscreteActions(gym.make(SHOP, level="hard"))
    try:
        for t in (baskets[0], baskets[-1]):
            misses, _most, metrics, _ = oracle_through_discrete(e, t.task_id)
            assert misses == [] and metrics["overall"], (t.task_id, misses)
    finally:
        e.close()


#: the obvious plans every basket is measured on (a store that sells every item: each of the four, where it does)
PLANS = ("cheapest per item", "nearest per item", "cheapest, then drop the farthest store",
         "cheapest, then drop the store cheapest to lose", "nearest, then cheaper until in budget", "two nearest stores",
         "shortest-walk pair", "cheapest pair", "stores within the limit", "nearest store next", "one store")


def plan_rate(env: Any, tasks: list[Task], name: str) -> tuple[float, int]:
    """(share of the tasks passed, tasks measured) buying and walking ``name``'s plan through the env (``one
    store``: every store that sells every item, each its own episode)."""
    runs = [(t, a) for t in tasks for k, a in plans(t).items() if k == name or (name == "one store" and
                                                                                 k.startswith("one store:"))]
    return sum(bool(play(env, Basket(t, "plan", a), t.task_id)["overall"]) for t, a in runs) / max(len(runs), 1), len(runs)


@pytest.mark.parametrize("name", PLANS)
def test_obvious_plans_fail_through_the_env(env, baskets, name):
    """Each plan bought (its orders placed where the shop lets them through) and its stores walked in their
    shortest order, then the stop: 0 %."""
    passed, n = plan_rate(env, baskets, name)
    assert n > 0 and passed == 0.0, (name, passed, n)


@pytest.mark.parametrize("how", ["at_each_stop", "one_cart", "browse", "other_paths", "slip_cancelled"])
def test_genuine_other_ways_pass(env, baskets, how):
    assert rate(env, baskets, lambda t: Basket(t, how)) == 1.0


@pytest.mark.parametrize("how", ["walk_first", "kitchen", "detour", "last_only"])
def test_shortcuts_and_slips_fail(env, baskets, how):
    """The stores passed before ordering (nothing waited there), an item delivered, a detour that breaks the
    limit, only the last store walked to: 0 %."""
    assert rate(env, baskets, lambda t: Basket(t, how)) == 0.0


def test_budget_is_the_checkers_too(baskets):
    """Where the shop does not stop an order over the budget (the session's budget left out), the plans that keep
    the walk but not the budget (the nearest store per item, the two nearest stores, the shortest-walk pair, a store
    selling everything) are bought and walked in full, and fail on the budget alone."""
    unlimited = [Task.from_json({**t.to_json(), "web": {**t.web, "sites": {}}}) for t in baskets]
    e = EmbodiedWebEnv(ShoppingDomain(), unlimited, env_id=SHOP, max_steps=400)
    try:
        over = 0
        for t in unlimited:
            rows, *_ = rows_of(t)
            info = {a: (c, w) for a, c, w in rows}
            for k, a in plans(t).items():
                c, w = info[a]
                if w <= t.goal["limit_m"] - 40 and c > t.goal["budget"]:
                    m = play(e, Basket(t, "plan", a), t.task_id)
                    assert not m["overall"] and not m["web"] and m["embodied"], (t.task_id, k, m)
                    assert m["spent"] > t.goal["budget"]
                    over += 1
        assert over >= len(unlimited)
    finally:
        e.close()


# ------------------------------------------------------------------------------------------- the checker alone
def _end(task: Task, orders: list[dict[str, Any]], path: list[str], answer: str | None = "") -> Episode:
    """The end state of a walk along ``path`` (one node per step, from step 10 on) after ``orders``."""
    world = {"node": path[-1], "path": path, "path_at": [0, *range(10, 9 + len(path))]}
    return Episode(task=task, world_state=world, web_state={"shop": {"orders": orders}}, answer=answer, steps=10,
                   switches=2)


def _orders(t: Task, at: int = 5) -> list[dict[str, Any]]:
    out = []
    for k, it in enumerate(t.goal["basket"]):
        unit = catalog.price(it["product_id"], it["store_id"], it["options"])
        out.append({"order_id": f"ORD-{k}", "store_id": it["store_id"], "delivery": "pickup", "at": at,
                    "total": round(unit * it["qty"], 2),
                    "items": [{"product_id": it["product_id"], "options": dict(it["options"]), "qty": it["qty"]}]})
    return out


def _walk(t: Task, stores: list[str]) -> list[str]:
    path = [t.embodied["start"]]
    for s in stores:
        path += city().route(path[-1], store_nodes()[s])[1:]
    return path


def test_checker_rules_on_end_states(baskets):
    """The right orders and the shortest collection walk pass, in either order when it fits the limit; each single
    fault fails: over the budget, over the limit, a store reached only before its order, another product bought,
    a unit more, another option, an item split over two stores, a delivery, no stop, the stop off the stores."""
    d = ShoppingDomain()
    t = baskets[0]
    g = t.goal
    orders, path = _orders(t), _walk(t, g["best_order"])
    good = d.check(_end(t, orders, path))
    assert good["overall"] and good["completion"] == 1.0 and good["walked_m"] <= g["limit_m"]
    # the limit is a limit: a walk of exactly the limit passes, half a metre more fails; the metres reported
    # are the walk's to a decimetre
    from embodiedweb.domains.outdoor.tours import walked_m

    walked = walked_m({"path": path})
    assert good["walked_m"] == round(walked, 1)
    decimals = [(u, _walk(u, u.goal["best_order"])) for u in baskets]
    u, upath = next((u, p) for u, p in decimals if round(walked_m({"path": p}), 1) != round(walked_m({"path": p})))
    assert d.check(_end(u, _orders(u), upath))["walked_m"] == round(walked_m({"path": upath}), 1)
    assert d.check(_end(Task.from_json({**t.to_json(), "goal": {**g, "limit_m": walked}}), orders, path))["overall"]
    assert not d.check(_end(Task.from_json({**t.to_json(), "goal": {**g, "limit_m": walked - 0.5}}), orders,
                            path))["embodied"]
    it0 = g["basket"][0]
    other = next(s for s in catalog.stores_selling(it0["product_id"]) if s != it0["store_id"])
    split = [{**orders[0], "items": [{**orders[0]["items"][0], "qty": 1}]},
             {**orders[0], "order_id": "ORD-X", "store_id": other, "items": [{**orders[0]["items"][0], "qty": 1}]}]
    first = store_nodes()[g["best_order"][0]]
    passed_at = 9 + next(i for i, n in enumerate(path) if n == first)
    faults = {
        "over the budget": _end(t, [{**orders[0], "total": orders[0]["total"] + g["budget"]}] + orders[1:], path),
        "over the limit": _end(t, orders, path + list(reversed(path))[1:] + path[1:]),
        "the first store passed before its order": _end(
            t, [{**o, "at": passed_at + 5} if o["store_id"] == g["best_order"][0] else o for o in orders], path),
        "another product": _end(t, orders + [{**orders[0], "order_id": "ORD-Y", "total": 0.0,
                                             "items": [{"product_id": "p0001", "options": {}, "qty": 1}]}], path),
        "a unit more": _end(t, [{**orders[0], "items": [{**orders[0]["items"][0], "qty": it0["qty"] + 1}]}]
                            + orders[1:], path),
        "another option": _end(t, [{**orders[0], "items": [{**orders[0]["items"][0], "options": {"x": "y"}}]}]
                               + orders[1:], path),
        "a delivery": _end(t, [{**orders[0], "delivery": "kitchen"}] + orders[1:], path),
        "no stop": _end(t, orders, path, answer=None),
        "the stop off the stores": _end(t, orders, path + city().route(path[-1], t.embodied["start"])[1:4]),
    }
    if it0["qty"] >= 2:
        faults["an item split over two stores"] = _end(t, split + orders[1:], path)
    for what, episode in faults.items():
        m = d.check(episode)
        assert not m["overall"] and m["completion"] < 1.0, what
    # a cancelled order bought nothing and spent nothing: beside the right ones, it changes nothing
    slip = {**orders[0], "order_id": "ORD-Z", "store_id": other, "status": "cancelled", "total": 99.0}
    assert d.check(_end(t, orders + [slip], path))["overall"]


def test_basket_validation_names_task_and_field(baskets):
    rec = baskets[0].to_json()

    def bad(goal: dict[str, Any] | None = None, web: dict[str, Any] | None = None) -> Task:
        return Task.from_json({**rec, "goal": {**rec["goal"], **(goal or {})}, "web": web or rec["web"]})

    items = rec["goal"]["basket"]
    cases = {
        r"goal\.basket'": bad({"basket": items[:1]}),
        r"goal\.basket\[1\]\.qty": bad({"basket": [items[0], {**items[1], "qty": 0}, *items[2:]]}),
        r"goal\.basket\[0\]\.product_id": bad({"basket": [{**items[0], "product_id": "p9999"}, *items[1:]]}),
        r"goal\.basket\[2\]\.options": bad({"basket": [*items[:2], {**items[2], "options": {"nope": "x"}}, *items[3:]]}),
        r"goal\.basket\[0\]\.store_id": bad({"basket": [{**items[0], "store_id": "nowhere"}, *items[1:]]}),
        r"goal\.basket\[1\]\.store_id": bad({"basket": [items[0], {k: v for k, v in items[1].items() if k != "store_id"},
                                                        *items[2:]]}),
        r"goal\.limit_m": bad({"limit_m": -5}),
        r"goal\.budget": bad({"budget": "ten"}),
        r"web\.sites\.shop\.budget": bad(web={**rec["web"], "sites": {"shop": {"budget": rec["goal"]["budget"] + 1}}}),
    }
    for field, task in cases.items():
        with pytest.raises(TaskError, match=rf"shop-hard-{FIRST_BASKET}.*{field}"):
            ShoppingDomain().validate_task(task)


def main() -> None:
    """Print the rates of the oracle, the obvious plans and the other ways (every basket, through the env)."""
    tasks = load()
    e = gym.make(SHOP, level="hard")
    try:
        print(f"oracle {rate(e, tasks, lambda t: BasketOracle(t)):.0%}  perturbed "
              f"{rate(e, tasks, lambda t: BasketOracle(t, random.Random(t.task_id))):.0%}  ({len(tasks)} baskets)")
        for name in PLANS:
            passed, n = plan_rate(e, tasks, name)
            print(f"plan {name!r}: {passed:.0%} of {n}")
        for how in ("at_each_stop", "one_cart", "browse", "other_paths", "slip_cancelled", "walk_first", "kitchen",
                    "detour", "last_only"):
            print(f"way {how!r}: {rate(e, tasks, lambda t, h=how: Basket(t, h)):.0%}")
    finally:
        e.close()


if __name__ == "__main__":
    main()


@pytest.mark.parametrize("options,said", [({"Colour": "Plaid"}, "has no option 'Colour'"), ("x", "must be an object")])
def test_options_a_product_does_not_offer_name_the_field(options, said):
    """A basket item's and a single purchase's options are checked by one rule (``baskets.check_options``): the
    error names the task and the field."""
    import copy
    import dataclasses

    tasks = load_tasks(spec_for("EWA-Shopping-v0").level_tasks_path("hard"), ShoppingDomain().validate_task)
    basket = next(t for t in tasks if "basket" in t.goal)
    single = next(t for t in tasks if "basket" not in t.goal and "errands" not in t.goal)
    g = copy.deepcopy(basket.goal)
    g["basket"][0]["options"] = options
    with pytest.raises(TaskError, match=rf"task '{basket.task_id}': field 'goal.basket\[0\].options': .*{said}"):
        ShoppingDomain().validate_task(dataclasses.replace(basket, goal=g))
    with pytest.raises(TaskError, match=rf"task '{single.task_id}': field 'goal.options': .*{said}"):
        ShoppingDomain().validate_task(dataclasses.replace(single, goal={**single.goal, "options": options}))
