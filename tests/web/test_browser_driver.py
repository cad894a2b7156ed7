"""The browser driver on its own: screenshots, the origin fence, and a Chromium that dies."""

from __future__ import annotations

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
