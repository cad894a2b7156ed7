"""What an agent that plays from the page text alone needs: a control keeps its element id across pages of one kind
(a status line does not renumber the page), the last recipe step says it is the last, and a page shows only the
status messages the site itself gave (a ``msg`` written into a URL shows nothing)."""

from __future__ import annotations

from embodiedweb.web.axtree import PageTree
from web_sites.recipes import catalog as recipes
from web_sites.shop import catalog as shop

from .shop.conftest import Shopper


def ids(tree: PageTree, roles: tuple[str, ...] = ("link", "button", "combobox", "spinbutton", "searchbox")) -> dict:
    """``(role, name) -> id`` of the page's controls (a cart link by its role only: its count changes)."""
    out = {}
    for n in tree.nodes.values():
        if n.role in roles:
            out[(n.role, "Cart" if n.name.startswith("Cart (") else n.name)] = n.bid
    return out


def test_recipe_step_pages_keep_the_ids_of_next_previous_and_the_overview():
    r = next(x for x in recipes.recipes() if len(x["steps"]) >= 4)
    s = Shopper(start=f"/recipes/recipe/{r['recipe_id']}/step/1")
    seen: dict[str, set[str]] = {}
    for i in range(1, len(r["steps"]) + 1):
        s.goto(f"/recipes/recipe/{r['recipe_id']}/step/{i}")
        for (_role, name), bid in ids(s.d.tree(), ("link",)).items():
            if name in ("Next", "Previous", "Recipe overview"):
                seen.setdefault(name, set()).add(bid)
    assert {k: len(v) for k, v in seen.items()} == {"Next": 1, "Previous": 1, "Recipe overview": 1}, seen


def test_the_last_recipe_step_says_it_is_the_last():
    r = next(x for x in recipes.recipes() if len(x["steps"]) >= 3)
    s = Shopper(start=f"/recipes/recipe/{r['recipe_id']}/step/1")
    n = len(r["steps"])
    for i in range(1, n + 1):
        s.goto(f"/recipes/recipe/{r['recipe_id']}/step/{i}")
        assert ("This is the last step" in s.text) == (i == n), s.text
        assert s.has("link", "Next", exact=True) == (i < n)


def test_a_status_line_does_not_renumber_the_shop_product_page():
    s = Shopper()
    p = next(x for x in shop.products() if not x.get("options"))
    sid = shop.cheapest_store(p["product_id"])
    s.goto(f"/shop/product/{p['product_id']}?store={sid}")
    before = ids(s.d.tree())
    assert s.add(p["product_id"], shop.store(sid)["name"]) == ""
    assert any(m.startswith("Added 1 ×") for m in s.statuses()), s.text
    assert ids(s.d.tree()) == before
    s.goto(f"/shop/product/{p['product_id']}")
    assert s.click("button", "Add to cart") == ""  # no store chosen: an error line
    assert s.alerts() == ["Choose a store to buy from."]
    after_error = ids(s.d.tree())
    s.goto(f"/shop/product/{p['product_id']}")
    assert ids(s.d.tree()) == after_error and not s.alerts() and not s.statuses()


def test_a_message_written_into_a_url_is_not_shown():
    s = Shopper()
    p = next(x for x in shop.products() if not x.get("options"))
    sid = shop.cheapest_store(p["product_id"])
    s.goto("/shop/cart?msg=Your+order+was+refunded.&kind=info")
    assert not s.statuses() and "refunded" not in s.text
    s.goto("/shop/?msg=Payment+failed&kind=error")
    assert not s.alerts() and "Payment failed" not in s.text
    assert s.add(p["product_id"], shop.store(sid)["name"]) == ""
    shown = s.statuses()
    assert len(shown) == 1 and shown[0].startswith("Added 1 ×")
    issued = s.d.url.split("?", 1)[1]
    s.goto(s.d.url)  # the page again (a reload): the site's own message still shows
    assert s.statuses() == shown
    s.goto(f"/shop/cart?{issued}")  # the site's message on another page than the one it was for
    assert not s.statuses()
    s.goto(f"/shop/product/{p['product_id']}?{issued.replace('kind=info', 'kind=error')}")  # another kind
    assert not s.alerts() and not s.statuses()
    other = Shopper()  # another session: the site never told it so
    other.goto(f"/shop/product/{p['product_id']}?{issued}")
    assert not other.statuses()


def test_static_serves_the_stylesheet_to_pages_and_opening_it_is_the_sites_page():
    """A page's stylesheet loads; a page opened at /static (a navigation), and a missing file, get the sites' own
    404 page, which the text driver shows there too (Starlette's answer was '{"detail":"Not Found"}')."""
    from fastapi.testclient import TestClient

    from web_sites.asgi import create_app
    from web_sites.registry import get_webapp

    client = TestClient(create_app(get_webapp()), base_url="http://127.0.0.1:8765")
    css = client.get("/static/style.css", headers={"Accept": "text/css,*/*;q=0.1", "Sec-Fetch-Mode": "no-cors",
                                                   "Sec-Fetch-Dest": "style"})
    assert css.status_code == 200 and "text/css" in css.headers["content-type"] and css.headers["cache-control"] == "no-cache"
    assert client.get("/static/style.css", headers={"Accept": "text/css"}).status_code == 200
    for path, headers in [("/static/nope.css", {"Accept": "text/css", "Sec-Fetch-Mode": "no-cors"}),
                          ("/static/nope.css", {}),
                          ("/static/style.css", {"Accept": "text/html,*/*", "Sec-Fetch-Mode": "navigate"}),
                          ("/static/style.css", {"Accept": "text/html,application/xhtml+xml"}),
                          ("/static/", {}), ("/static/../framework.py", {})]:
        r = client.get(path, headers=headers)
        assert r.status_code == 404 and "text/html" in r.headers["content-type"], (path, headers, r.text[:200])
        assert "Page not found" in r.text and "detail" not in r.text, r.text[:300]
