"""The same action sequences give the same tree text, URL and site state in the text and browser drivers."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest

from embodiedweb.web.axtree import PageTree
from embodiedweb.web.text_driver import TextDriver
from tests.fixtures.formlab import install
from web_sites.registry import get_webapp
from web_sites.shop import catalog as shop_catalog

Step = tuple[str, dict] | Callable[[PageTree], tuple[str, dict]]

_GALA = next(p["product_id"] for p in shop_catalog.products() if p["name"] == "Gala Apple")
_STORES = [shop_catalog.store(sid)["name"] for sid in sorted(next(p for p in shop_catalog.products()
                                                                  if p["product_id"] == _GALA)["prices"])]


def browser_or_skip():
    """A BrowserDriver, or a clean skip when Chromium or Playwright cannot run here."""
    if not os.path.exists("/usr/bin/chromium"):
        pytest.skip("Chromium is not installed at /usr/bin/chromium")
    try:
        from embodiedweb.web.browser_driver import BrowserDriver

        drv = BrowserDriver(get_webapp())
        drv.reset(get_webapp().new_session_id(), "/")
    except Exception as e:  # pragma: no cover - depends on the machine
        pytest.skip(f"Playwright could not launch Chromium: {e}")
    return drv


@pytest.fixture(scope="module")
def browser() -> Iterator:
    install()
    drv = browser_or_skip()
    yield drv
    drv.close()


def by(role: str, name: str, action: str = "click", **extra: object) -> Callable[[PageTree], tuple[str, dict]]:
    """A step acting on the element with this role and name (looked up on the page of the moment)."""
    def step(tree: PageTree) -> tuple[str, dict]:
        node = next((n for n in tree.nodes.values() if n.role == role and n.name == name), None)
        assert node is not None, f"no {role} {name!r} in\n{tree.text}"
        return action, {"id": node.bid, **extra}
    return step


SEQUENCES: dict[str, tuple[str, list[Step]]] = {
    "search": ("/formlab/", [
        by("searchbox", "Search", "type", text="e", enter=True),
        by("checkbox", "egg"), by("checkbox", "bread"), by("checkbox", "egg"),
        by("textbox", "Query", "type", text="re"), by("button", "Refine"), by("textbox", "Query", "type", text="r~*"),
        by("textbox", "Query", "type", text="rea"),
        by("button", "Refine"),
        by("link", "bread"),
        ("go_back", {}), ("go_back", {}), ("go_back", {}), ("go_forward", {}), ("go_forward", {}),
        ("go_forward", {}), ("go_forward", {}),
        by("link", "Form Lab"), ("go_back", {}),
    ]),
    "cart": ("/formlab/", [
        by("link", "Tomato"),
        by("spinbutton", "Quantity", "type", text="abc"),
        by("spinbutton", "Quantity", "type", text="0"),
        by("button", "Add to cart"),
        by("spinbutton", "Quantity", "type", text=" 4 "),
        by("combobox", "Size", "type", text="small"),
        by("button", "Add to cart"),
        ("go_back", {}),
        by("option", "Large"),
        by("spinbutton", "Quantity", "type", text="2", enter=True),
        by("link", "Continue shopping"),
        ("goto", {"url": "http://ewa.local/formlab/cart"}),
        ("click", {"id": "424242"}),
    ]),
    "prefs": ("/formlab/prefs", [
        by("radio", "Vegan"), by("radio", "Vegetarian"),
        by("checkbox", "Cheap"), by("checkbox", "Quick"), by("checkbox", "Cheap"),
        by("textbox", "Note", "type", text="no nuts\nplease"),
        by("combobox", "Speed", "type", text="FAST"),
        by("combobox", "Speed", "type", text="warp"),
        by("button", "Disabled"),
        by("radio", "Vegan", "type", text="x"),
        by("button", "Save"),
        by("checkbox", "Quick"), ("press", {"key_comb": "Tab"}), ("press", {"key_comb": "Space"}),
        ("press", {"key_comb": "Tab"}), ("press", {"key_comb": "a"}), ("press", {"key_comb": "Enter"}),
        ("press", {"key_comb": "b"}), ("press", {"key_comb": "Backspace"}),
        by("button", "Save"),
        by("checkbox", "Quick"), ("press", {"key_comb": "Enter"}),
    ]),
    "tabs": ("/formlab/", [
        ("close_tab", {}), ("new_tab", {}), by("link", "Form Lab"), by("link", "Cart"),
        ("tab_focus", {"index": 0}), ("tab_focus", {"index": 7}), by("link", "Preferences"),
        ("new_tab", {}), ("goto", {"url": "/formlab/item/egg"}), ("tab_focus", {"index": 1}), ("close_tab", {}),
        ("goto", {"url": "http://example.com/"}), ("goto", {"url": "https://127.0.0.1:1/x"}),
        ("goto", {"url": "/does/not/exist"}), ("go_back", {}), ("close_tab", {}), ("close_tab", {}),
        ("press", {"key_comb": "Alt+ArrowLeft"}), ("press", {"key_comb": "Alt+ArrowRight"}),
        ("press", {"key_comb": "Bogus+x"}), ("scroll", {"direction": "down"}), ("hover", {"id": "3"}),
        ("press", {"key_comb": "Tab"}), ("press", {"key_comb": "Tab"}), ("press", {"key_comb": "Enter"}),
    ]),
    # links in a narrow column that wrap onto two lines (the centre of the box is on another link, or on the
    # paragraph), and a link and a checkbox under a sheet (no point reaches them, the click is dispatched;
    # the checkbox is focused, as a mouse press would do: Space toggles it back)
    "links": ("/formlab/links", [
        by("link", "Go to apple"), ("go_back", {}), by("link", "Go to tomato"), ("go_back", {}),
        by("link", "Potato"), ("go_back", {}),
        by("checkbox", "Covered box"), ("press", {"key_comb": "Space"}), ("press", {"key_comb": "Tab"}),
        ("press", {"key_comb": "Space"}),
    ]),
    # dot segments resolve from the root, never above it (stop 31: "/../@2130706433:PORT/" became a user name
    # before another host on the machine in browser mode), and an encoded slash is a slash in both modes (an
    # ASGI server decodes the path before routing)
    "escapes": ("/formlab/", [
        ("goto", {"url": "/../formlab/cart"}), ("goto", {"url": "/x/../../@2130706433:9/"}),
        ("goto", {"url": "/../@0x7f000001:9/"}), ("goto", {"url": "/%2e%2e/formlab/"}),
        ("goto", {"url": "../formlab/item/egg"}), ("goto", {"url": "/formlab/item%2Fegg"}),
    ]),
    # a status message written into a URL shows nothing, the site's own does (and does not renumber the page);
    # /static opened as a page, or a missing file there, is the sites' 404 page in both modes (the browser had
    # Starlette's JSON 404, or the stylesheet as text)
    "fair": ("/formlab/", [
        ("goto", {"url": "/formlab/cart?msg=Your+order+was+refunded.&kind=info"}),
        ("goto", {"url": "/formlab/item/egg"}), by("button", "Add to cart"), ("go_back", {}), ("go_forward", {}),
        ("goto", {"url": "/formlab/item/egg?msg=Added+1+egg.&kind=info"}),
        ("goto", {"url": "/static/style.css"}), ("goto", {"url": "/static/nope.css"}), ("go_back", {}),
        ("goto", {"url": "/static/"}), ("goto", {"url": "/static/[x]"}),
    ]),
    # at most 20 tabs: the 20th new_tab is refused in both modes, and works again after a close_tab
    "tab_cap": ("/formlab/", [("new_tab", {})] * 20 + [("close_tab", {}), ("new_tab", {}), ("new_tab", {})]),
    # the shop's order cancelled on its page (a slip), listed as cancelled, the right order placed after; an unknown
    # order's page; the cancelled order's page again (no button left)
    "shop_cancel": (f"/shop/product/{_GALA}", [
        by("combobox", "Store", "type", text=_STORES[1]), by("button", "Add to cart"),
        ("goto", {"url": "/shop/cart"}), by("radio", "Pick up in store"), by("button", f"Check out at {_STORES[1]}"),
        by("button", "Cancel order ORD-00001"),
        ("goto", {"url": "/shop/orders"}),
        ("goto", {"url": f"/shop/product/{_GALA}"}),
        by("combobox", "Store", "type", text=_STORES[0]), by("button", "Add to cart"),
        ("goto", {"url": "/shop/cart"}), by("radio", "Pick up in store"), by("button", f"Check out at {_STORES[0]}"),
        by("link", "All orders"), by("link", "ORD-00001"), ("go_back", {}),
        ("goto", {"url": "/shop/orders/ORD-00009"}),
    ]),
}


@pytest.mark.parametrize("name", list(SEQUENCES))
def test_same_tree_url_and_state_after_every_step(browser, name: str) -> None:
    app = get_webapp()
    start, steps = SEQUENCES[name]
    text = TextDriver(app)
    s_text, s_browser = app.new_session_id(), app.new_session_id()
    for s in (s_text, s_browser):
        app.reset_session(s)
    text.reset(s_text, start)
    browser.reset(s_browser, start)
    assert browser.tree().text == text.tree().text
    for i, step in enumerate(steps):
        action, args = step(text.tree()) if callable(step) else step
        e_text = text.execute(action, args)
        e_browser = browser.execute(action, args)
        where = f"{name} step {i}: {action} {args}"
        assert e_browser == e_text, where
        assert browser.url == text.url, where
        assert browser.tree().text == text.tree().text, where
        assert browser.tab_titles() == text.tab_titles(), where
        assert browser.active_tab == text.active_tab, where
        assert app.snapshot(s_browser) == app.snapshot(s_text), where
