"""The basket errands (``shop-hard-200`` ...) against the stop-37 red team (:mod:`tests.domains.outdoor.redteam_baskets`),
every basket each agent applies to. Pass: an item's units in two orders at its store; a unit too many, another
product or a kitchen delivery ordered and cancelled; a walk that only steps within each store's goal radius; a budget
and a limit of exactly the answer's; the item left in another store's cart; a detour within the limit's room. Fail:
an option changed; one unit at another store; the first store's order placed after it was left, or cancelled and
placed again once left; the walk going on out of the last store's goal radius to stop; another assignment in budget
walked touching only each store's goal radius; the nearest store per item bought by cancelling each store's orders
once picked up. None found a hole (stop 37); they stay as guards. End states the walk limit keeps the env from
reaching (every two stores are 1,355 m apart or more, a basket's room is under 200 m) are judged on the checker
alone."""

from __future__ import annotations

import pytest

from embodiedweb.domains.outdoor.baskets import store_nodes
from embodiedweb.domains.outdoor.common import city
from embodiedweb.domains.outdoor.shopping import ShoppingDomain
from embodiedweb.tasks import Task
from tests.domains.outdoor import redteam_baskets as rb
from tests.domains.outdoor.test_basket_errands import _end, _orders, _walk, load
from tests.redteam import assert_verdicts, failures, pool, run
from web_sites.shop import catalog


@pytest.fixture(scope="module")
def baskets() -> list[Task]:
    return load()


@pytest.mark.parametrize("cls", rb.GENUINE + rb.SHORTCUTS, ids=lambda c: c.__name__)
def test_basket_red_team_agent(cls, baskets):
    candidates = pool(cls, baskets)
    res = run(cls, rb.SHOP, candidates)
    assert not [r["agent_error"] for r in res if r["agent_error"]][:3]
    carried = [r for r in res if r["carried_out"]]
    assert candidates and len(carried) == len(candidates), failures([r for r in res if not r["carried_out"]])
    assert any(r["split"] == "test" for r in carried)
    assert_verdicts(cls, carried)


def test_the_stop_is_at_a_live_orders_store(baskets):
    """With the limit out of the way: a walk that collects every store and goes on to a store the basket buys
    nothing at (with or without a cancelled order there) and stops there fails on the stop; one that goes back to
    its first store and stops there passes (every metre is counted, the stop is at a store it collected from)."""
    d = ShoppingDomain()
    seen = 0
    for t in baskets:
        g = t.goal
        roomy = Task.from_json({**t.to_json(), "goal": {**g, "limit_m": 1e6}})
        orders, path = _orders(t), _walk(t, g["best_order"])
        back = path + city().route(path[-1], store_nodes()[g["best_order"][0]])[1:]
        assert d.check(_end(roomy, orders, back))["overall"], t.task_id
        mine = {it["store_id"] for it in g["basket"]}
        other = next((s for s in catalog.store_ids() if s not in mine), None)
        if other is None:
            continue
        on = path + city().route(path[-1], store_nodes()[other])[1:]
        slip = {**orders[0], "order_id": "ORD-Z", "store_id": other, "status": "cancelled", "at": 1}
        for o in (orders, [*orders, slip]):
            m = d.check(_end(roomy, o, on))
            assert not m["overall"] and not m["embodied"] and m["web"], t.task_id
        seen += 1
    assert seen >= 5
