"""Browsing the shop through the text driver: home, search, filters, categories, products, stores."""

from __future__ import annotations

import re

from web_sites.shop import catalog

from .conftest import Shopper


def result_names(s: Shopper) -> list[str]:
    table = s.bid("table", "found", exact=False)
    return [n.name for n in s.d.tree().nodes.values() if n.role == "link" and int(n.bid) > int(table)
            and n.name not in ("Previous page", "Next page")]


def prices(s: Shopper) -> list[float]:
    return [float(m) for m in re.findall(r"\] cell '(?:from )?\$(\d+\.\d\d)'", s.text)]


def test_home_lists_categories_and_stores(shopper: Shopper):
    s = shopper
    assert s.has("heading", "FreshCart Market")
    for _, label in catalog.categories():
        assert s.has("link", label, exact=True)
    for st in catalog.stores():
        assert s.has("link", st["name"], exact=True)
    assert s.bid("searchbox", "Search products")


def test_search_from_home_box(shopper: Shopper):
    s = shopper
    assert s.type("searchbox", "Search products", "egg", enter=True) == ""
    assert s.d.url.endswith("/shop/search?q=egg")
    names = result_names(s)
    egg_products = [p["name"] for p in catalog.products_for_type("Egg")]
    assert set(egg_products) <= set(names)
    # products with the word in their name come before category-only matches
    first = names[: len([n for n in names if "egg" in n.lower()])]
    assert all("egg" in n.lower() for n in first)
    # brand search
    s.goto("/shop/search?q=catskill+creamery")
    assert result_names(s)
    assert set(result_names(s)) == {p["name"] for p in catalog.products() if p["brand"] == "Catskill Creamery"}


def test_search_words_all_match_any_order(shopper: Shopper):
    s = shopper
    s.goto("/shop/search?q=EGGS+brown")
    names = result_names(s)
    assert names and all("egg" in n.lower() and "brown" in n.lower() for n in names)


def test_filters_category_store_max_price_and_sort(shopper: Shopper):
    s = shopper
    s.goto("/shop/search")
    assert s.has("table", f"{len(catalog.products())} products found", exact=False)
    assert s.type("searchbox", "Search products", "tomato") == ""
    assert s.type("combobox", "Category", "Produce") == ""
    assert s.type("combobox", "Store", "Ninth Avenue Market") == ""
    assert s.type("spinbutton", "Max price ($)", "2.5") == ""
    assert s.type("combobox", "Sort by", "Price: low to high") == ""
    assert s.click("button", "Search") == ""
    assert "category=produce" in s.d.url and "store=hells-kitchen" in s.d.url and "sort=price_asc" in s.d.url
    expected = sorted(
        (p["prices"]["hells-kitchen"], p["name"]) for p in catalog.products()
        if p["category"] == "produce" and "tomato" in (p["name"] + " " + p["brand"]).lower()
        and "hells-kitchen" in p["prices"] and p["prices"]["hells-kitchen"] <= 2.5)
    assert expected, "test data should have cheap tomatoes at Ninth Avenue Market"
    assert result_names(s) == [n for _, n in expected]
    assert prices(s) == [v for v, _ in expected]
    assert "columnheader 'Price at Ninth Avenue Market'" in s.text
    # the form keeps the chosen filters
    assert "combobox 'Category' value='Produce'" in s.text
    assert "spinbutton 'Max price ($)' value='2.5'" in s.text
    # descending sort
    s.goto("/shop/search?category=kitchenware&sort=price_desc")
    ps = prices(s)
    assert ps == sorted(ps, reverse=True) and len(ps) == 20
    assert s.has("link", "Next page")
    assert s.click("link", "Next page") == ""
    assert "page=2" in s.d.url and "category=kitchenware" in s.d.url
    assert max(prices(s)) <= min(ps)


def test_bad_filter_values_give_a_message_and_still_search(shopper: Shopper):
    s = shopper
    s.goto("/shop/search?q=apple&max_price=cheap&store=mars&category=toys&sort=random")
    text = " ".join(s.alerts())
    assert "maximum price" in text and "no store 'mars'" in text and "no category 'toys'" in text
    assert "Unknown sort order" in text
    assert "Honeycrisp Apple" in result_names(s)


def test_odd_characters_are_harmless(shopper: Shopper):
    s = shopper
    n = len(catalog.products())
    for q in ["%", "_", "%%", "a%e", "'", '"', "'; DROP TABLE shop_products; --", "<script>alert(1)</script>",
              "\\", "[*]", "egg%", "ü€😀", "x" * 500, "  ", "?q=&", "#"]:
        s.goto("/shop/")
        assert s.type("searchbox", "Search products", q, enter=True) == ""
        assert s.has("heading", "Search results", exact=False) or s.has("heading", "All products"), (q, s.text)
        assert not s.alerts(), q
        if q.strip() not in ("",):
            names = result_names(s)
            assert len(names) < 20 or q.strip() in ("?q=&",), (q, names[:5])
    s.goto("/shop/search?q=%25")  # a literal percent sign, not a LIKE wildcard
    assert sorted(result_names(s)) == sorted(p["name"] for p in catalog.products() if "%" in p["name"])
    s.goto("/shop/search?q=_")
    assert s.has("table", "0 products found", exact=False)
    s.goto("/shop/search")
    assert s.has("table", f"{n} products found", exact=False)
    s.goto("/shop/search?q=%3Cb%3Ebold%3C%2Fb%3E")
    assert s.has("heading", "Search results for “<b>bold</b>”", exact=True)  # shown as text, not markup


def test_category_page(shopper: Shopper):
    s = shopper
    assert s.click("link", "Kitchenware", exact=True) == ""
    assert s.d.url.endswith("/shop/category/kitchenware")
    assert s.has("heading", "Kitchenware", exact=True)
    n = sum(1 for p in catalog.products() if p["category"] == "kitchenware")
    assert s.has("table", f"{n} products found", exact=False)
    assert "combobox 'Category' value='Kitchenware'" in s.text


def test_product_page_offers_and_form(shopper: Shopper):
    s = shopper
    p = next(p for p in catalog.products_for_type("Egg") if len(p["prices"]) < 4 and p["options"])
    s.goto("/shop/search?q=" + p["name"].replace(" ", "+"))
    assert s.click("link", p["name"], exact=True) == ""
    assert s.d.url.endswith(f"/shop/product/{p['product_id']}")
    assert s.has("heading", p["name"], exact=True)
    assert s.has("table", "Prices at each store", exact=True)
    for st in catalog.stores():
        assert s.has("link", st["name"], exact=True)
    cells = s.cells()
    for v in p["prices"].values():
        assert f"${v:.2f}" in cells
    assert cells.count("Out of stock") == 4 - len(p["prices"])
    # every control of the add-to-cart form has a name
    assert "combobox 'Store' value='Choose a store'" in s.text
    assert "spinbutton 'Quantity' value='1'" in s.text
    assert "button 'Add to cart'" in s.text
    for g in p["options"]:
        assert f"combobox '{g['label']}'" in s.text


def test_stores_page_has_addresses_coordinates_and_hours(shopper: Shopper):
    s = shopper
    assert s.click("link", "Stores", exact=True) == ""
    cells = s.cells()
    for st in catalog.stores():
        assert st["address"] in cells
        assert f"{st['lat']:.4f}" in cells and f"{st['lng']:.4f}" in cells
    st = catalog.stores()[0]
    assert s.click("link", st["name"], exact=True) == ""
    assert s.has("table", f"Opening hours of {st['name']}", exact=True)
    assert s.click("link", "Browse the", exact=False) == ""
    assert f"store={st['store_id']}" in s.d.url
    assert len([n for n in result_names(s)]) == 20


def test_unknown_pages_show_a_message(shopper: Shopper):
    s = shopper
    for url, words in [("/shop/product/p9999", "no product"), ("/shop/product/%27%3B--", "no product"),
                       ("/shop/category/toys", "no category"), ("/shop/stores/mars", "no store"),
                       ("/shop/orders/ORD-99999", "no order")]:
        s.goto(url)
        assert any(words in a for a in s.alerts()), (url, s.text)
    s.goto("/shop/nothing-here")
    assert s.has("heading", "Page not found")


def test_every_control_has_an_accessible_name():
    s = Shopper()
    s.add(catalog.products_for_type("Pan")[0]["product_id"],
          catalog.store(catalog.cheapest_store(catalog.products_for_type("Pan")[0]["product_id"]))["name"])
    for url in ["/shop/", "/shop/search?q=pan", "/shop/category/produce", "/shop/product/p0001",
                "/shop/stores", "/shop/cart", "/shop/orders"]:
        s.goto(url)
        for n in s.d.tree().interactive:
            if n.role == "option":
                continue
            assert n.name.strip(), (url, n)


def test_product_page_price_note_is_true(shopper: Shopper):
    """The note under the price table says the table's prices are before option surcharges: for every
    product with options that holds (each group has a choice without a surcharge, and the table's price is
    the price with those choices), including products whose preselected choice costs extra."""
    s = shopper
    with_options = [p for p in catalog.products() if p["options"]]
    assert with_options
    surcharged_default = 0
    for p in with_options:
        plain = {g["name"]: next(c["value"] for c in g["choices"] if not c.get("price_delta")) for g in p["options"]}
        surcharged_default += any(g["choices"][0].get("price_delta") for g in p["options"])
        store = sorted(p["prices"])[0]
        assert catalog.price(p["product_id"], store, plain) == round(p["prices"][store], 2), p["product_id"]
    assert surcharged_default  # the case the note once got wrong ("prices are for the first choice")
    p = next(p for p in with_options if any(g["choices"][0].get("price_delta") for g in p["options"]))
    s.d.execute("goto", {"url": f"/shop/product/{p['product_id']}"})
    assert "before option surcharges" in s.text
    assert "first choice" not in s.text


def test_every_option_shows_its_amount(shopper: Shopper):
    """The note says a choice adds "the amount shown next to it": every choice shows one, a surcharge as
    ``(+$x.xx)`` and a choice without one as ``(no extra charge)`` (a bare label once left the amount unsaid)."""
    s = shopper
    seen_free = seen_paid = 0
    for p in [p for p in catalog.products() if p["options"]][:12] + [
            p for p in catalog.products() if any(c.get("price_delta") for g in p["options"] for c in g["choices"])][:4]:
        s.goto(f"/shop/product/{p['product_id']}")
        for g in p["options"]:
            for c in g["choices"]:
                delta = c.get("price_delta") or 0
                shown = f"{c['label']} (+${delta:.2f})" if delta else f"{c['label']} (no extra charge)"
                assert s.has("option", shown, exact=True), (p["product_id"], shown, s.text)
                seen_free += not delta
                seen_paid += bool(delta)
        assert "a choice adds the amount shown next to it" in s.text
    assert seen_free and seen_paid
