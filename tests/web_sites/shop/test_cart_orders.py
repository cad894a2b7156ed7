"""Cart, checkout, orders, kitchen deliveries, seeding, snapshots and session isolation."""

from __future__ import annotations

import json

from web_sites.shop import catalog

from .conftest import Shopper


def by_name(name: str) -> dict:
    return next(p for p in catalog.products() if p["name"] == name)


def store_name(sid: str) -> str:
    return catalog.store(sid)["name"]


def test_add_with_options_checkout_delivers_into_the_kitchen():
    s = Shopper()
    eggs = by_name("Large White Eggs")
    sid = catalog.cheapest_store(eggs["product_id"])
    assert s.add(eggs["product_id"], store_name(sid), "2", Pack="12 eggs (+$2.20)") == ""
    assert any("Added 2 × Large White Eggs (Pack: 12 eggs)" in m for m in s.statuses()), s.text
    assert not s.alerts()
    assert s.has("link", "Cart (2)", exact=True)
    apple = by_name("Honeycrisp Apple")
    a_sid = catalog.cheapest_store(apple["product_id"])
    assert s.add(apple["product_id"], store_name(a_sid), "3", Size="large") == ""
    unit_eggs = catalog.price(eggs["product_id"], sid, {"pack": "12-eggs"})
    assert unit_eggs == round(eggs["prices"][sid] + 2.20, 2)
    snap = s.snapshot()
    assert snap["orders"] == []
    assert {"product_id": eggs["product_id"], "store_id": sid, "object_type": "Egg", "options": {"pack": "12-eggs"},
            "qty": 2, "unit_price": unit_eggs} in snap["cart"]

    s.goto("/shop/cart")
    assert s.has("region", f"Cart at {store_name(sid)}", exact=True)
    assert f"${unit_eggs * 2:.2f}" in s.cells()
    s.checkout(store_name(sid), "Deliver to my kitchen")
    assert s.path == "/shop/orders/ORD-00001"
    assert s.has("heading", "Order ORD-00001", exact=True)
    assert any("Order ORD-00001 is placed" in m for m in s.statuses())
    snap = s.snapshot()
    assert snap["orders"] == [{"order_id": "ORD-00001", "store_id": sid, "delivery": "kitchen",
                               "items": [{"product_id": eggs["product_id"], "object_type": "Egg",
                                          "options": {"pack": "12-eggs"}, "qty": 2, "unit_price": unit_eggs}],
                               "total": round(unit_eggs * 2, 2), "at": 0,  # at: the env's step (none here)
                               "status": "placed", "cancelled_at": None, "collected_at": None}]
    # the other store's line stays in the cart
    assert [c["product_id"] for c in snap["cart"]] == ([apple["product_id"]] if a_sid != sid else [])
    deliveries = s.app.take_deliveries(s.session)
    assert len(deliveries) == 6  # 2 x 12 eggs, capped at 6 a line
    assert all(d == {"order_id": "ORD-00001", "object_type": "Egg", "product_id": eggs["product_id"],
                     "name": "Large White Eggs", "qty": 1} for d in deliveries)
    assert s.app.take_deliveries(s.session) == []
    json.dumps(snap)

    if a_sid != sid:
        s.checkout(store_name(a_sid), "Deliver to my kitchen")
        assert s.path == "/shop/orders/ORD-00002"
        ds = s.app.take_deliveries(s.session)
        assert [d["object_type"] for d in ds] == ["Apple"] * 3
        assert s.snapshot()["orders"][1]["items"][0]["options"] == {"size": "large"}
    s.goto("/shop/orders")
    assert s.has("link", "ORD-00001", exact=True)
    assert s.has("link", "Cart (0)", exact=True)


def test_pickup_order_and_non_kitchen_items_deliver_nothing():
    s = Shopper()
    towels = by_name("Paper Towels")
    knife = catalog.products_for_type("Knife")[0]
    sid = next(x for x in towels["prices"] if x in knife["prices"])
    s.add(towels["product_id"], store_name(sid), "1", Pack="6 rolls (+$7.00)")
    s.add(knife["product_id"], store_name(sid), "1")
    s.checkout(store_name(sid), "Pick up in store")
    order = s.snapshot()["orders"][0]
    assert order["delivery"] == "pickup" and order["store_id"] == sid
    assert [i["product_id"] for i in order["items"]] == sorted([towels["product_id"], knife["product_id"]])
    expected = round(catalog.price(towels["product_id"], sid, {"pack": "6-rolls"})
                     + catalog.price(knife["product_id"], sid), 2)
    assert order["total"] == expected
    assert s.app.take_deliveries(s.session) == []
    assert s.has("paragraph", f"Pickup: in store at {store_name(sid)}", exact=False)
    # a kitchen delivery of a non-kitchen item queues nothing
    s.add(towels["product_id"], store_name(sid), "2")
    s.checkout(store_name(sid))
    assert s.snapshot()["orders"][1]["order_id"] == "ORD-00002"
    assert s.app.take_deliveries(s.session) == []


def test_same_line_merges_and_update_and_remove():
    s = Shopper()
    p = by_name("Gala Apple")
    sid = catalog.cheapest_store(p["product_id"])
    s.add(p["product_id"], store_name(sid), "2")
    s.add(p["product_id"], store_name(sid), "1")
    s.add(p["product_id"], store_name(sid), "1", Size="Large (+$0.30)")
    cart = s.snapshot()["cart"]
    assert [(c["options"], c["qty"]) for c in cart] == [({"size": "large"}, 1), ({"size": "medium"}, 3)]
    s.goto("/shop/cart")
    assert "spinbutton 'Quantity of Gala Apple (Size: Medium)' value='3'" in s.text
    assert s.type("spinbutton", "Quantity of Gala Apple (Size: Medium)", "5") == ""
    assert s.click("button", "Update quantity of Gala Apple (Size: Medium)") == ""
    assert any("set to 5" in m for m in s.statuses())
    assert s.click("button", "Remove Gala Apple (Size: Large)") == ""
    assert any("Removed Gala Apple" in m for m in s.statuses())
    assert [(c["options"], c["qty"]) for c in s.snapshot()["cart"]] == [({"size": "medium"}, 5)]
    assert s.click("button", "Remove Gala Apple (Size: Medium)") == ""
    assert s.snapshot()["cart"] == []
    assert s.has("paragraph", "Your cart is empty.", exact=True)


def test_sessions_are_isolated_and_order_ids_count_per_session():
    a, b = Shopper(), Shopper()
    p = catalog.products_for_type("Bread")[0]
    sid = catalog.cheapest_store(p["product_id"])
    a.add(p["product_id"], store_name(sid), "1")
    assert b.snapshot()["cart"] == []
    b.goto("/shop/cart")
    assert b.has("paragraph", "Your cart is empty.", exact=True)
    a.checkout(store_name(sid))
    b.add(p["product_id"], store_name(sid), "2")
    b.checkout(store_name(sid), "Pick up in store")
    assert [o["order_id"] for o in a.snapshot()["orders"]] == ["ORD-00001"]
    assert [o["order_id"] for o in b.snapshot()["orders"]] == ["ORD-00001"]
    assert a.snapshot()["orders"][0]["delivery"] == "kitchen" and b.snapshot()["orders"][0]["delivery"] == "pickup"
    b.goto("/shop/orders/ORD-00001")
    assert "2" in b.cells()
    assert len(a.app.take_deliveries(a.session)) == 1 and b.app.take_deliveries(b.session) == []
    # a reset clears the session
    a.app.reset_session(a.session, {})
    assert a.snapshot() == {"cart": [], "orders": []}


def test_seed_config_budget_stockouts_and_cart():
    eggs = by_name("Large Brown Eggs")
    cheapest = catalog.cheapest_store(eggs["product_id"])
    apple = by_name("Fuji Apple")
    a_sid = sorted(apple["prices"])[0]
    cfg = {"budget": 5.0, "out_of_stock": [[cheapest, eggs["product_id"]]],
           "cart": [{"product_id": apple["product_id"], "store_id": a_sid, "qty": 2}]}
    s = Shopper(cfg)
    snap = s.snapshot()
    assert snap["cart"] == [{"product_id": apple["product_id"], "store_id": a_sid, "object_type": "Apple",
                             "options": {}, "qty": 2, "unit_price": apple["prices"][a_sid]}]
    # the stocked-out offer shows as out of stock and cannot be bought
    s.goto(f"/shop/product/{eggs['product_id']}")
    row = s.text.split(store_name(cheapest))[1].split("\n")[1:4]
    assert "'—'" in row[1] and "Out of stock" in row[2], row
    s.add(eggs["product_id"], store_name(cheapest), "1")
    assert any("does not have Large Brown Eggs in stock" in m for m in s.alerts())
    # search with a store filter hides it
    s.goto(f"/shop/search?q=large+brown+eggs&store={cheapest}")
    assert s.has("table", "0 products found", exact=False)
    # budget shown and enforced
    s.goto("/shop/cart")
    assert s.has("paragraph", "Budget: $5.00", exact=False)
    second = catalog.cheapest_store(eggs["product_id"], out_of_stock=cfg["out_of_stock"])
    s.add(eggs["product_id"], store_name(second), "2")
    s.checkout(store_name(second))
    if 2 * eggs["prices"][second] > 5:
        assert any("remaining budget of $5.00" in m for m in s.alerts())
        assert s.snapshot()["orders"] == []
    s.goto("/shop/cart")
    s.type("spinbutton", "Quantity of Large Brown Eggs (Pack: 6 eggs)", "1")
    s.click("button", "Update quantity of Large Brown Eggs (Pack: 6 eggs)")
    s.checkout(store_name(second))
    assert [o["order_id"] for o in s.snapshot()["orders"]] == ["ORD-00001"]
    s.goto("/shop/orders")
    assert s.has("paragraph", f"remaining ${5 - eggs['prices'][second]:.2f}", exact=False)


def test_bad_seed_config_raises_a_clear_error():
    import pytest

    s = Shopper()
    with pytest.raises(ValueError, match=r"cart\[0\]\.product_id"):
        s.app.reset_session(s.session, {"sites": {"shop": {"cart": [{"product_id": "nope", "store_id": "chelsea"}]}}})


def test_snapshot_is_sorted_and_stable():
    s = Shopper()
    picks = [catalog.products_for_type(t)[0] for t in ("Tomato", "Bowl", "Lettuce")]
    for p in picks:
        for sid in sorted(p["prices"], reverse=True)[:2]:
            s.add(p["product_id"], store_name(sid), "1")
    snap = s.snapshot()
    keys = [(c["store_id"], c["product_id"]) for c in snap["cart"]]
    assert keys == sorted(keys)
    assert json.loads(json.dumps(snap)) == snap == s.snapshot()
    for c in snap["cart"]:
        assert set(c) == {"product_id", "store_id", "object_type", "options", "qty", "unit_price"}
