"""The browser driver on its own: screenshots, the origin fence, clicks on wrapped links and on links that
load nothing (its faults: test_browser_faults.py)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np
import pytest

from tests.fixtures.formlab import install
from tests.web.test_parity import browser_or_skip
from web_sites.registry import get_webapp


@pytest.fixture()
def drv() -> Iterator:
    install()
    d = browser_or_skip()
    d.reset(get_webapp().new_session_id(), "/formlab/")
    yield d
    d.close()


def test_screenshot_with_marks(drv) -> None:
    plain = drv.screenshot((640, 360), marks=False)
    marked = drv.screenshot((640, 360), marks=True)
    assert plain.shape == marked.shape == (360, 640, 3) and plain.dtype == np.uint8
    assert plain.std() > 5 and not np.array_equal(plain, marked)


def test_goto_elsewhere_is_refused(drv) -> None:
    err = drv.execute("goto", {"url": "http://example.com"})
    assert err.startswith("goto refused: 'example.com' is not reachable")
    assert drv.url == "http://ewa.local/formlab/"


def test_requests_to_other_origins_are_aborted(drv) -> None:
    js = "u => fetch(u).then(r => 'ok ' + r.status, e => 'blocked')"
    assert drv.page.evaluate(js, drv.origin + "/").startswith("ok")
    assert drv.page.evaluate(js, "http://example.com/") == "blocked"
    assert drv.page.evaluate(js, "http://127.0.0.1:9/") == "blocked"
    assert drv.url == "http://ewa.local/formlab/"


def _link(drv, name: str) -> str:
    return next(n.bid for n in drv.tree().nodes.values() if n.role == "link" and n.name == name)


# whether the element wraps onto several lines and the centre of its bounding box is not on it
CENTRE_MISSES_JS = """b => {
  const el = document.querySelector('[data-bid="' + b + '"]');
  el.scrollIntoView({block: 'nearest'});
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return el.getClientRects().length > 1 && !el.contains(hit);
}"""


def test_a_link_wrapped_onto_two_lines_is_followed_at_once(drv) -> None:
    drv.reset(get_webapp().new_session_id(), "/formlab/links")
    # "Go to apple": the box's centre is on the link "Bread page"; "Go to tomato": on the paragraph
    for name, item in (("Go to apple", "apple"), ("Go to tomato", "tomato")):
        bid = _link(drv, name)
        assert drv.page.evaluate(CENTRE_MISSES_JS, bid), name
        t0 = time.monotonic()
        assert drv.execute("click", {"id": bid}) == ""
        took = time.monotonic() - t0
        assert drv.url == f"http://ewa.local/formlab/item/{item}", name
        assert took < 3, (name, took)  # a page load, not a wait for a navigation that never comes
        assert drv.execute("go_back", {}) == ""


def test_a_click_that_loads_no_page_says_so(drv, monkeypatch) -> None:
    from embodiedweb.web import browser_driver

    monkeypatch.setattr(browser_driver, "NAV_START_TIMEOUT_MS", 300)
    monkeypatch.setattr(browser_driver, "NAV_TIMEOUT_MS", 400)  # /formlab/slow takes 0.6 s
    drv.reset(get_webapp().new_session_id(), "/formlab/links")
    cases = [("Lettuce", "nothing started loading within 0.3 s"),  # a script cancels the click
             ("No content", "the navigation failed (net::ERR_ABORTED)"),  # a 204 answer
             ("Slow", "the page did not finish loading within 0.4 s")]
    for name, why in cases:
        bid = _link(drv, name)
        t0 = time.monotonic()
        assert drv.execute("click", {"id": bid}) == f"Clicking [{bid}] did not load a page: {why}."
        assert time.monotonic() - t0 < 1.5, name
        if name != "Slow":  # (that one loads later)
            assert drv.url == "http://ewa.local/formlab/links"
