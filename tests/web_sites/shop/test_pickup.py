"""In-store pickup (stop 37): a pickup order the env reports collected (:meth:`ShopSite.collect`) shows "Collected at
<store>" on the Orders list and the order's page, is ``collected`` with ``collected_at`` in the snapshot, stays a
live order, and can no longer be cancelled (a clear message, nothing changed); a cancelled or kitchen order is never
collected. The walk that decides it is the env's: :mod:`tests.domains.outdoor.test_pickups`."""

from __future__ import annotations

from web_sites.shop import catalog
from web_sites.shop.site import SITE

from .conftest import Shopper


def by_name(name: str) -> dict:
    return next(p for p in catalog.products() if p["name"] == name)


def _order(s: Shopper, delivery: str = "Pick up in store") -> tuple[str, str]:
    p = by_name("Gala Apple")
    sid = catalog.cheapest_store(p["product_id"])
    s.add(p["product_id"], catalog.store(sid)["name"], "1")
    s.checkout(catalog.store(sid)["name"], delivery)
    return s.path.rsplit("/", 1)[-1], sid


def test_a_collected_pickup_shows_collected_and_cannot_be_cancelled():
    s = Shopper()
    oid, sid = _order(s)
    name = catalog.store(sid)["name"]
    assert [o["order_id"] for o in SITE.waiting_pickups(s.app.store, s.session)] == [oid]
    assert SITE.collect(s.app.store, s.session, {oid: 12}) == 1
    assert SITE.waiting_pickups(s.app.store, s.session) == []
    assert SITE.collect(s.app.store, s.session, {oid: 30}) == 0  # collected once: its step stays
    [o] = s.snapshot()["orders"]
    assert o["status"] == "collected" and o["collected_at"] == 12 and o["cancelled_at"] is None
    assert catalog.live_orders([o]) == [o]  # bought: still a live order for every checker
    s.goto("/shop/orders")
    assert f"Collected at {name}" in s.cells()
    s.goto(f"/shop/orders/{oid}")
    assert f"Status: Collected at {name}" in s.text
    assert not s.has("button", "Cancel order") and f"Picked up at {name}: this order can no longer be cancelled" in s.text
    before = s.snapshot()
    s.post("/shop/orders/cancel", {"order_id": oid})  # a stale form, or one forged
    assert any(f"Order {oid} has already been picked up at {name}; it can no longer be cancelled." in m
               for m in s.alerts()), s.text
    assert s.snapshot() == before
    s.goto(f"/shop/orders/cancel?order_id={oid}")  # the cancel as a link (an agent's `goto`): POST only
    assert s.snapshot() == before


def test_a_placed_pickup_shows_placed_until_collected():
    s = Shopper()
    oid, _sid = _order(s)
    s.goto("/shop/orders")
    assert "Placed" in s.cells() and not any(c.startswith("Collected") for c in s.cells())
    s.goto(f"/shop/orders/{oid}")
    assert "Status: Placed" in s.text and s.has("button", f"Cancel order {oid}", exact=True)
    assert s.snapshot()["orders"][0]["collected_at"] is None


def test_cancelled_and_kitchen_orders_are_never_collected():
    s = Shopper()
    oid, _sid = _order(s)
    s.post("/shop/orders/cancel", {"order_id": oid})
    kitchen, _sid = _order(s, "Deliver to my kitchen")
    assert SITE.waiting_pickups(s.app.store, s.session) == []
    assert SITE.collect(s.app.store, s.session, {oid: 5, kitchen: 5, "ORD-09999": 5}) == 0
    assert [(o["status"], o["collected_at"]) for o in s.snapshot()["orders"]] == [("cancelled", None),
                                                                                ("placed", None)]
    s.goto("/shop/orders")
    assert not any(c.startswith("Collected") for c in s.cells())
