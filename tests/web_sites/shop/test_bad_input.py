"""Bad input gives a message on the page (role="alert"), creates no order and changes nothing."""

from __future__ import annotations

import pytest

from web_sites.shop import catalog

from .conftest import Shopper

EGGS = next(p for p in catalog.products() if p["name"] == "Large White Eggs")
EGG_STORE = catalog.cheapest_store(EGGS["product_id"])
NOT_SELLING = next(s for s in catalog.store_ids() if s not in EGGS["prices"])


def name(sid: str) -> str:
    return catalog.store(sid)["name"]


def assert_rejected(s: Shopper, words: str, cart_before: list | None = None) -> None:
    alerts = s.alerts()
    assert any(words.lower() in a.lower() for a in alerts), (words, alerts, s.text)
    snap = s.snapshot()
    assert snap["orders"] == []
    if cart_before is not None:
        assert snap["cart"] == cart_before
    assert s.app.take_deliveries(s.session) == []


@pytest.mark.parametrize("qty,words", [("0", "at least 1"), ("-2", "at least 1"), ("", "Enter a quantity"),
                                       ("2.5", "whole number"), ("100", "at most 99"), ("1e9", "at most 99")])
def test_bad_quantity_in_the_form(qty: str, words: str):
    s = Shopper()
    s.add(EGGS["product_id"], name(EGG_STORE), qty)
    assert_rejected(s, words, [])
    assert s.path == f"/shop/product/{EGGS['product_id']}"
    # the store choice is kept so the agent can fix the quantity
    assert f"combobox 'Store' value='{name(EGG_STORE)}'" in s.text


@pytest.mark.parametrize("form,words", [
    ({"qty": "abc"}, "not a quantity"),
    ({"qty": "nan"}, "whole number"),
    ({"qty": "inf"}, "whole number"),
    ({"product_id": "p9999"}, "no product with id 'p9999'"),
    ({"product_id": "'; DROP TABLE shop_cart; --"}, "no product with id"),
    ({"product_id": ""}, "no product"),
    ({"store": ""}, "Choose a store"),
    ({"store": "mars"}, "no store 'mars'"),
    ({"store": NOT_SELLING}, "does not have Large White Eggs in stock"),
    ({"opt_pack": "dozen"}, "is not a pack of Large White Eggs"),
    ({"opt_colour": "red"}, "has no option 'colour'"),
])
def test_bad_add_to_cart_posts(form: dict, words: str):
    s = Shopper()
    base = {"product_id": EGGS["product_id"], "store": EGG_STORE, "qty": "1", "opt_pack": "6-eggs"}
    s.post("/shop/cart/add", {**base, **form})
    assert_rejected(s, words, [])


def test_store_that_does_not_sell_chosen_in_the_form():
    s = Shopper()
    s.add(EGGS["product_id"], name(NOT_SELLING), "1")
    assert_rejected(s, f"{name(NOT_SELLING)} does not have", [])


def test_no_store_chosen_in_the_form():
    s = Shopper(start=f"/shop/product/{EGGS['product_id']}")
    s.click("button", "Add to cart")
    assert_rejected(s, "Choose a store", [])


def test_checkout_with_an_empty_cart():
    s = Shopper()
    s.post("/shop/checkout", {"store": EGG_STORE, "delivery": "kitchen"})
    assert_rejected(s, "Your cart is empty", [])
    s.goto("/shop/cart")
    assert "button 'Check out" not in s.text  # nothing to check out


def test_bad_checkouts_keep_the_cart():
    s = Shopper()
    s.add(EGGS["product_id"], name(EGG_STORE), "2")
    before = s.snapshot()["cart"]
    assert len(before) == 1
    s.checkout(name(EGG_STORE), delivery=None)  # no delivery choice made
    assert_rejected(s, "Deliver to my kitchen", before)
    other = next(x for x in catalog.store_ids() if x != EGG_STORE)
    for form, words in [({"store": other, "delivery": "kitchen"}, f"no items from {name(other)}"),
                        ({"store": "mars", "delivery": "kitchen"}, "Choose which store"),
                        ({"store": EGG_STORE, "delivery": "drone"}, "Pick up in store"),
                        ({"store": EGG_STORE}, "Deliver to my kitchen")]:
        s.post("/shop/checkout", form)
        assert_rejected(s, words, before)


@pytest.mark.parametrize("form,words", [({"line": "1", "qty": "0"}, "use Remove"), ({"line": "1", "qty": "-1"}, "at least 1"),
                                        ({"line": "1", "qty": "x"}, "not a quantity"),
                                        ({"line": "77", "qty": "2"}, "does not exist"),
                                        ({"line": "one", "qty": "2"}, "does not exist")])
def test_bad_cart_updates(form: dict, words: str):
    s = Shopper()
    s.add(EGGS["product_id"], name(EGG_STORE), "2")
    before = s.snapshot()["cart"]
    s.post("/shop/cart/update", form)
    assert_rejected(s, words, before)


def test_bad_cart_update_in_the_form_and_bad_remove():
    s = Shopper()
    s.add(EGGS["product_id"], name(EGG_STORE), "2")
    before = s.snapshot()["cart"]
    s.goto("/shop/cart")
    label = "Quantity of Large White Eggs (Pack: 6 eggs)"
    assert s.type("spinbutton", label, "0") == ""
    s.click("button", "Update quantity of Large White Eggs (Pack: 6 eggs)")
    assert_rejected(s, "at least 1", before)
    s.post("/shop/cart/remove", {"line": "42"})
    assert_rejected(s, "does not exist", before)


def test_wrong_methods_and_get_on_post_routes_do_not_crash():
    s = Shopper()
    for url in ["/shop/cart/add", "/shop/checkout", "/shop/cart/update"]:
        s.goto(url)
        assert s.has("heading", "Method not allowed")
    assert s.snapshot() == {"cart": [], "orders": []}
