"""Cancelling an order: the order page's "Cancel order" button, the status kept in the list and the snapshot,
the budget released, kitchen deliveries withdrawn until they reach the kitchen, and clear messages for an
unknown or already cancelled order."""

from __future__ import annotations

from web_sites.shop import catalog

from .conftest import Shopper


def by_name(name: str) -> dict:
    return next(p for p in catalog.products() if p["name"] == name)


def store_name(sid: str) -> str:
    return catalog.store(sid)["name"]


def _pickup(s: Shopper, p: dict, sid: str, qty: str = "1") -> str:
    s.add(p["product_id"], store_name(sid), qty)
    s.checkout(store_name(sid), "Pick up in store")
    return s.path.rsplit("/", 1)[-1]


def test_cancel_on_the_order_page_keeps_the_order_listed_as_cancelled():
    s = Shopper()
    p = by_name("Gala Apple")
    sid = catalog.cheapest_store(p["product_id"])
    oid = _pickup(s, p, sid)
    assert oid == "ORD-00001" and s.has("paragraph", "Status: Placed", exact=False)
    s.app.set_clock(s.session, 7)
    assert s.click("button", f"Cancel order {oid}") == ""
    assert s.path == f"/shop/orders/{oid}"
    assert any(f"Order {oid} from {store_name(sid)} is cancelled" in m for m in s.statuses()), s.text
    assert not s.alerts()
    assert s.has("paragraph", "Status: Cancelled", exact=False)
    assert not s.has("button", "Cancel order")  # nothing left to cancel
    [o] = s.snapshot()["orders"]
    assert o["status"] == "cancelled" and o["cancelled_at"] == 7 and o["at"] == 0
    assert catalog.live_orders(s.snapshot()["orders"]) == []
    s.goto("/shop/orders")
    assert s.has("link", oid, exact=True) and "Cancelled" in s.cells()
    # a new order counts on from the cancelled one's id
    assert _pickup(s, p, sid) == "ORD-00002"
    assert [o["status"] for o in s.snapshot()["orders"]] == ["cancelled", "placed"]
    assert [o["order_id"] for o in catalog.live_orders(s.snapshot()["orders"])] == ["ORD-00002"]


def test_unknown_empty_and_already_cancelled_give_a_message_and_change_nothing():
    s = Shopper()
    p = by_name("Gala Apple")
    sid = catalog.cheapest_store(p["product_id"])
    s.post("/shop/orders/cancel", {"order_id": "ORD-00009"})
    assert s.path == "/shop/orders" and any("no order 'ORD-00009'" in m for m in s.alerts()), s.text
    s.post("/shop/orders/cancel", {"order_id": ""})
    assert any("Choose an order to cancel" in m for m in s.alerts())
    oid = _pickup(s, p, sid)
    before = s.snapshot()
    s.post("/shop/orders/cancel", {"order_id": "ORD-00009"})
    assert s.snapshot() == before
    s.post("/shop/orders/cancel", {"order_id": oid})
    assert s.snapshot()["orders"][0]["status"] == "cancelled"
    after = s.snapshot()
    s.post("/shop/orders/cancel", {"order_id": oid})  # a stale form, sent again
    assert any(f"Order {oid} is already cancelled" in m for m in s.alerts()) and s.snapshot() == after
    # another session's order is not this one's
    other = Shopper()
    other.post("/shop/orders/cancel", {"order_id": oid})
    assert any(f"no order '{oid}'" in m for m in other.alerts())


def test_cancel_releases_the_budget():
    eggs = by_name("Large Brown Eggs")
    sid = catalog.cheapest_store(eggs["product_id"])
    price = eggs["prices"][sid]
    s = Shopper({"budget": round(price * 1.5, 2)})  # room for one order of one box, not two
    oid = _pickup(s, eggs, sid)
    s.add(eggs["product_id"], store_name(sid), "1")
    s.checkout(store_name(sid), "Pick up in store")
    assert any("remaining budget" in m for m in s.alerts()) and len(s.snapshot()["orders"]) == 1
    s.goto("/shop/cart")
    assert s.has("paragraph", f"spent ${price:.2f}", exact=False)
    s.post("/shop/orders/cancel", {"order_id": oid})
    s.goto("/shop/orders")
    assert s.has("paragraph", f"spent $0.00 · remaining ${price * 1.5:.2f}", exact=False), s.text
    s.checkout(store_name(sid), "Pick up in store")  # the line still in the cart fits now
    assert not s.alerts() and [o["status"] for o in s.snapshot()["orders"]] == ["cancelled", "placed"]


def test_a_kitchen_delivery_is_withdrawn_until_it_reaches_the_kitchen():
    s = Shopper()
    p = catalog.products_for_type("Tomato")[0]
    sid = catalog.cheapest_store(p["product_id"])
    s.add(p["product_id"], store_name(sid), "2")
    s.checkout(store_name(sid))
    s.click("button", "Cancel order ORD-00001")
    assert s.app.take_deliveries(s.session) == []  # withdrawn: nothing reaches the kitchen
    s.add(p["product_id"], store_name(sid), "1")
    s.checkout(store_name(sid))
    assert [d["order_id"] for d in s.app.take_deliveries(s.session)] == ["ORD-00002"]
    # on the counter now: no button, and a forged cancel is refused
    s.goto("/shop/orders/ORD-00002")
    assert not s.has("button", "Cancel order") and s.has("paragraph", "can no longer be cancelled", exact=False)
    s.post("/shop/orders/cancel", {"order_id": "ORD-00002"})
    assert any("already been delivered to your kitchen" in m for m in s.alerts())
    assert [o["status"] for o in s.snapshot()["orders"]] == ["cancelled", "placed"]


def test_live_orders_reads_old_snapshots_as_standing():
    placed = {"order_id": "A", "status": "placed"}
    old = {"order_id": "B"}  # recorded before orders had a status
    assert catalog.live_orders([placed, old, {"order_id": "C", "status": "cancelled"}]) == [placed, old]
    assert catalog.live_orders(None) == []


def test_a_delivered_order_shows_delivered_on_its_page_and_in_the_list():
    """One truth (stop 39): once a kitchen order's items reached the kitchen, the status shown on the order's page
    and in the order list is "Delivered to your kitchen" (it said "Placed" beside "can no longer be cancelled")."""
    s = Shopper()
    p = catalog.products_for_type("Tomato")[0]
    sid = catalog.cheapest_store(p["product_id"])
    s.add(p["product_id"], store_name(sid), "1")
    s.checkout(store_name(sid))
    assert s.has("paragraph", "Status: Placed", exact=False)  # not yet in the kitchen
    s.app.take_deliveries(s.session)
    s.goto("/shop/orders/ORD-00001")
    assert s.has("paragraph", "Status: Delivered to your kitchen", exact=False), s.text
    assert not s.has("paragraph", "Status: Placed", exact=False)
    s.goto("/shop/orders")
    assert "Delivered to your kitchen" in s.cells() and "Placed" not in s.cells(), s.cells()
