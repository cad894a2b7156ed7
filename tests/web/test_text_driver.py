"""Form semantics of the browser-free driver, against the formlab fixture site."""

from __future__ import annotations

import pytest

from embodiedweb.web.axtree import PageTree
from embodiedweb.web.text_driver import TextDriver, form_urlencode
from tests.fixtures.formlab import install
from web_sites.registry import get_webapp


def bid(tree: PageTree, role: str, name: str) -> str:
    """The id of the first element with this role and name."""
    for n in tree.nodes.values():
        if n.role == role and n.name == name:
            return n.bid
    raise AssertionError(f"no {role} {name!r} in\n{tree.text}")


@pytest.fixture()
def drv() -> TextDriver:
    install()
    app = get_webapp()
    session = app.new_session_id()
    app.reset_session(session)
    d = TextDriver(app)
    d.reset(session, "/formlab/")
    return d


def snap(d: TextDriver) -> dict:
    return get_webapp().snapshot(d.session)["formlab"]


def test_get_search_by_enter_and_refine(drv: TextDriver) -> None:
    assert drv.execute("type", {"id": bid(drv.tree(), "searchbox", "Search"), "text": "e", "enter": True}) == ""
    assert drv.url == "http://ewa.local/formlab/search?q=e"
    t = drv.tree()
    assert "link 'egg'" in t.text and "link 'bread'" in t.text
    assert drv.execute("click", {"id": bid(t, "checkbox", "egg")}) == ""
    assert "checkbox 'egg' checked=true" in drv.tree().text
    assert drv.execute("click", {"id": bid(drv.tree(), "button", "Refine")}) == ""
    assert drv.url == "http://ewa.local/formlab/search?q=e&only=egg&go=refine"
    assert "link 'bread'" not in drv.tree().text


def test_post_cart_redirects_and_changes_state(drv: TextDriver) -> None:
    drv.execute("goto", {"url": "/formlab/item/apple"})
    t = drv.tree()
    assert drv.execute("type", {"id": bid(t, "spinbutton", "Quantity"), "text": "3"}) == ""
    assert drv.execute("type", {"id": bid(t, "combobox", "Size"), "text": "large"}) == ""
    assert "combobox 'Size' value='Large'" in drv.tree().text
    assert drv.execute("click", {"id": bid(t, "button", "Add to cart")}) == ""
    assert drv.url.startswith("http://ewa.local/formlab/cart?msg=Added")
    assert snap(drv)["cart"] == [{"item": "apple", "qty": 3, "size": "L"}]
    assert drv.execute("go_back", {}) == ""  # POST-redirect-GET: back to the item page
    assert drv.url == "http://ewa.local/formlab/item/apple"


def test_number_field_validation(drv: TextDriver) -> None:
    drv.execute("goto", {"url": "/formlab/item/egg"})
    qty = bid(drv.tree(), "spinbutton", "Quantity")
    for bad in ("abc", "5.", "+5", "nan", "1_0"):
        assert "takes a number" in drv.execute("type", {"id": qty, "text": bad})
    for good in ("2", " 7 ", "-1", ".5", "1e2"):
        assert drv.execute("type", {"id": qty, "text": good}) == ""
    assert "value='1e2'" in drv.tree().text
    # `type 77 3 0` (a player's): the unbracketed flag is read as text; the message shows the bracketed form
    said = drv.execute("type", {"id": qty, "text": "3 0"})
    assert said.startswith("Field [") and f"type [{qty}] [3] [0]" in said
    assert "bracket" not in drv.execute("type", {"id": qty, "text": "x 1"})  # no number to offer


def test_prefs_radio_checkbox_select_textarea(drv: TextDriver) -> None:
    drv.execute("goto", {"url": "/formlab/prefs"})
    t = drv.tree()
    assert "option 'slow' selected" in t.text  # the first option is selected when none is marked
    assert drv.execute("click", {"id": bid(t, "radio", "Vegan")}) == ""
    assert drv.execute("click", {"id": bid(t, "checkbox", "Quick")}) == ""
    assert drv.execute("click", {"id": bid(t, "checkbox", "Cheap")}) == ""
    assert drv.execute("click", {"id": bid(t, "checkbox", "Cheap")}) == ""
    assert drv.execute("type", {"id": bid(t, "textbox", "Note"), "text": "no nuts\nplease"}) == ""
    assert drv.execute("click", {"id": bid(t, "option", "fast")}) == ""
    text = drv.tree().text
    assert "radio 'Vegan' checked=true" in text and "radio 'Anything' checked=false" in text
    assert "option 'fast' selected" in text and "option 'slow' selected" not in text
    assert drv.execute("click", {"id": bid(t, "button", "Disabled")}) == f"Element [{bid(t, 'button', 'Disabled')}] is disabled."
    assert drv.execute("click", {"id": bid(t, "button", "Save")}) == ""
    assert snap(drv)["prefs"] == {"diet": "vegan", "tags": "quick", "note": "no nuts\r\nplease", "speed": "fast"}


def test_keyboard_typing_tab_and_enter(drv: TextDriver) -> None:
    t = drv.tree()
    drv.execute("click", {"id": bid(t, "searchbox", "Search")})
    for k in ("t", "o", "x", "Backspace", "Space"):
        assert drv.execute("press", {"key_comb": k}) == ""
    assert "value='to'" in drv.tree().text
    assert drv.execute("press", {"key_comb": "Enter"}) == ""
    assert drv.url == "http://ewa.local/formlab/search?q=to+"
    drv.execute("goto", {"url": "/formlab/prefs"})
    drv.execute("click", {"id": bid(drv.tree(), "checkbox", "Quick")})
    drv.execute("press", {"key_comb": "Tab"})
    drv.execute("press", {"key_comb": "Space"})
    assert "checkbox 'Cheap' checked=true" in drv.tree().text
    drv.execute("press", {"key_comb": "Enter"})  # Enter in a checkbox submits its form
    assert snap(drv)["prefs"]["tags"] == "quick,cheap"


def test_tabs_history_goto_and_unknown_ids(drv: TextDriver) -> None:
    assert drv.execute("go_back", {}) == "go_back: there is no previous page in this tab."
    assert drv.execute("go_forward", {}) == "go_forward: there is no next page in this tab."
    assert drv.execute("close_tab", {}).startswith("close_tab refused")
    assert drv.execute("new_tab", {}) == "" and drv.url == "http://ewa.local/" and drv.active_tab == 1
    assert drv.execute("tab_focus", {"index": 3}) == "No tab 3; open tabs are 0..1."
    assert drv.execute("tab_focus", {"index": 0}) == "" and drv.url == "http://ewa.local/formlab/"
    assert drv.execute("close_tab", {}) == "" and len(drv.tab_titles()) == 1
    assert drv.execute("goto", {"url": "http://example.com/"}).startswith("goto refused")
    assert drv.execute("goto", {"url": "file:///etc/passwd"}).startswith("goto refused")
    err = drv.execute("click", {"id": "9999"})
    assert err.startswith("No element with id [9999] on the current page (http://ewa.local/)")
    assert "Interactive ids on this page: " in err
    # a link to the page we are on replaces the history entry, as browsers do
    drv.execute("goto", {"url": "/formlab/"})
    drv.execute("click", {"id": bid(drv.tree(), "link", "Form Lab")})
    assert drv.execute("go_back", {}) == "" and drv.url == "http://ewa.local/"


@pytest.mark.parametrize("name,args", [
    ("click", {"id": "-1"}), ("click", {"id": "abc\"]"}), ("type", {"id": "3", "text": "x"}),
    ("type", {"id": "99999", "text": ""}), ("press", {"key_comb": "Ctrl+Nope"}), ("press", {"key_comb": "+"}),
    ("press", {"key_comb": "Control+a"}), ("scroll", {"direction": "down"}), ("hover", {"id": "0"}),
    ("goto", {"url": ""}), ("goto", {"url": "javascript:alert(1)"}), ("goto", {"url": "/no/such/page?x=1"}),
    ("tab_focus", {"index": -1}), ("fly", {}),
])
def test_odd_input_never_raises(drv: TextDriver, name: str, args: dict) -> None:
    assert isinstance(drv.execute(name, args), str)
    assert isinstance(drv.tree().text, str)


def test_form_urlencode_like_a_browser() -> None:
    assert form_urlencode([("q", "a b*~-._&=é")]) == "q=a+b*%7E-._%26%3D%C3%A9"
