"""Data invariants of the shop catalogue and the Python API for task generators and checkers."""

from __future__ import annotations

import json
import re

from embodiedweb.data_gen import shop as gen
from embodiedweb.paths import data_dir
from embodiedweb.worlds.street.geo import haversine_m
from web_sites.shop import catalog

INGREDIENTS = ("Apple", "Bread", "Egg", "Lettuce", "Potato", "Tomato")
TOOLS = ("Knife", "ButterKnife", "Pan", "Pot", "Plate", "Bowl", "Mug", "Cup", "Spatula")


def test_generator_is_deterministic_and_matches_the_files():
    stores, products = gen.build()
    again = gen.build()
    assert (stores, products) == again
    with open(data_dir() / "shop" / "products.json", encoding="utf-8") as f:
        assert json.load(f) == products
    with open(data_dir() / "shop" / "stores.json", encoding="utf-8") as f:
        assert json.load(f) == stores
    gen.check(stores, products)


def test_four_stores_in_manhattan():
    stores = catalog.stores()
    assert len(stores) == 4
    assert len({s["name"] for s in stores}) == 4
    for s in stores:
        assert 40.73 <= s["lat"] <= 40.765 and -74.005 <= s["lng"] <= -73.97, s
        assert re.search(r", New York, NY 10[01]\d\d$", s["address"]), s["address"]
        assert set(s["hours"]) == {"mon", "tue", "wed", "thu", "fri", "sat", "sun"}
        assert catalog.store_coordinates(s["store_id"]) == (s["lat"], s["lng"])
        assert catalog.store_by_name(s["name"].upper()) == s
    # the stores are hundreds of metres apart, not on top of each other
    locs = list(catalog.store_locations().values())
    for i, a in enumerate(locs):
        for b in locs[i + 1:]:
            assert haversine_m(*a, *b) > 500


def test_at_least_200_products_with_ids_categories_and_options():
    products = catalog.products()
    assert len(products) >= 200
    assert [p["product_id"] for p in products] == [f"p{i:04d}" for i in range(1, len(products) + 1)]
    cats = dict(catalog.categories())
    for slug in ("produce", "bakery", "dairy-eggs", "pantry", "kitchenware", "household"):
        assert slug in cats
    sids = set(catalog.store_ids())
    for p in products:
        assert p["name"] and p["brand"] and p["description"] and p["category"] in cats
        assert p["prices"] and set(p["prices"]) <= sids
        for g in p["options"]:
            assert g["name"] in ("size", "colour", "pack") and len(g["choices"]) >= 2
            assert len({c["value"] for c in g["choices"]}) == len(g["choices"])
    kinds = {g["name"] for p in products for g in p["options"]}
    assert kinds == {"size", "colour", "pack"}
    assert any(len(p["prices"]) < 4 for p in products)  # some stores lack some products


def test_every_kitchen_type_has_products_at_every_store():
    assert set(catalog.object_types()) == set(INGREDIENTS + TOOLS)
    for otype in INGREDIENTS:
        assert len(catalog.products_for_type(otype)) >= 3, otype
    for otype in INGREDIENTS + TOOLS:
        prods = catalog.products_for_type(otype)
        assert prods and all(p["object_type"] == otype for p in prods)
        for sid in catalog.store_ids():
            assert any(sid in p["prices"] for p in prods), (otype, sid)
    # confounders exist: products that match the word but deliver nothing
    assert any(p["object_type"] is None and "egg" in p["name"].lower() for p in catalog.products())
    assert any(p["object_type"] is None and "potato" in p["name"].lower() for p in catalog.products())


def test_no_price_ties_and_cheapest_store_is_unique():
    n_multi = 0
    for p in catalog.products():
        prices = sorted(p["prices"].values())
        assert all(re.fullmatch(r"\d+\.\d9", f"{v:.2f}") for v in prices), p["prices"]
        if len(prices) >= 2:
            n_multi += 1
            assert all(b - a > 0.015 for a, b in zip(prices, prices[1:], strict=False)), p
            best = catalog.cheapest_store(p["product_id"])
            assert best is not None and p["prices"][best] == prices[0]
            assert catalog.dearest_store(p["product_id"]) != best
    assert n_multi >= 150
    # every store is the cheapest for a fair share of products
    wins: dict[str, int] = {}
    for p in catalog.products():
        if len(p["prices"]) >= 2:
            s = catalog.cheapest_store(p["product_id"])
            wins[s] = wins.get(s, 0) + 1
    assert len(wins) == 4 and min(wins.values()) >= 15, wins


def test_price_api_with_options_and_out_of_stock():
    eggs = next(p for p in catalog.products_for_type("Egg") if any(g["name"] == "pack" for g in p["options"]))
    pid = eggs["product_id"]
    sid = catalog.cheapest_store(pid)
    base = eggs["prices"][sid]
    assert catalog.price(pid, sid) == base
    big = eggs["options"][0]["choices"][1]
    assert catalog.price(pid, sid, {"pack": big["value"]}) == round(base + big["price_delta"], 2)
    assert catalog.offers(pid) == dict(sorted(eggs["prices"].items()))
    # a session stock-out moves the cheapest store
    second = catalog.cheapest_store(pid, out_of_stock=[[sid, pid]])
    assert second not in (None, sid)
    assert catalog.price(pid, sid, out_of_stock=[(sid, pid)]) is None
    assert catalog.price("p9999", sid) is None and catalog.offers("p9999") == {}
    missing = [s for s in catalog.store_ids() if s not in eggs["prices"]]
    for s in missing:
        assert catalog.price(pid, s) is None
    # delivery units: a pack counts its objects, capped at 6 a line; non-kitchen items deliver nothing
    assert catalog.delivery_units(eggs, {"pack": eggs["options"][0]["choices"][0]["value"]}, 1) == 6
    apple = catalog.products_for_type("Apple")[0]
    assert catalog.delivery_units(apple, {}, 2) == 2
    assert catalog.delivery_units(apple, {}, 9) == 6
    towels = next(p for p in catalog.products() if p["name"] == "Paper Towels")
    assert catalog.delivery_units(towels, {}, 3) == 0


def test_validate_config_names_the_field():
    import pytest

    ok = {"budget": 20, "out_of_stock": [["chelsea", "p0001"]],
          "cart": [{"product_id": "p0001", "store_id": next(iter(catalog.product("p0001")["prices"])), "qty": 2,
                    "options": {"size": "large"}}]}
    catalog.validate_config(ok)
    bad = [({"budget": "ten"}, "budget"), ({"budget": -1}, "budget"), ({"colour": 1}, "unknown field"),
           ({"out_of_stock": [["nowhere", "p0001"]]}, "out_of_stock[0]"),
           ({"out_of_stock": [["chelsea", "p9999"]]}, "unknown product"),
           ({"cart": [{"product_id": "p9999", "store_id": "chelsea"}]}, "cart[0].product_id"),
           ({"cart": [{"product_id": "p0001", "store_id": "mars"}]}, "cart[0].store_id"),
           ({"cart": [{"product_id": "p0001", "store_id": "chelsea", "qty": 0}]}, "cart[0]"),
           ({"cart": [{"product_id": "p0001", "store_id": next(iter(catalog.product("p0001")["prices"])),
                       "options": {"size": "huge"}}]}, "cart[0].options")]
    for cfg, where in bad:
        with pytest.raises(ValueError, match=re.escape(where)):
            catalog.validate_config(cfg)
