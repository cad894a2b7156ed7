"""The parameter rule of the sites: numbers from users are parsed by the framework's helpers (ASCII digits,
within SQLite's 64-bit INTEGER), handlers refuse input with BadRequest (400) / NotFound (404) and the
dispatcher turns those into error pages; malformed input never gives a 500."""

from __future__ import annotations

import uuid

import pytest

from web_sites.framework import (
    SQLITE_INT_MAX,
    SQLITE_INT_MIN,
    BadRequest,
    Ctx,
    NotFound,
    Request,
    Response,
    Site,
    WebApp,
    parse_float,
    parse_int,
)
from web_sites.registry import get_webapp
from web_sites.shop import catalog as shop

HUGE = "9" * 5000


@pytest.mark.parametrize("text,value", [("0", 0), ("42", 42), (" 7 ", 7), ("-3", -3), ("+5", 5), ("007", 7),
                                        ("0" * 40 + "12", 12), (str(SQLITE_INT_MAX), SQLITE_INT_MAX),
                                        (str(SQLITE_INT_MIN), SQLITE_INT_MIN)])
def test_parse_int_takes_ascii_whole_numbers_in_sqlite_range(text, value):
    assert parse_int(text) == value


@pytest.mark.parametrize("text", ["", " ", "abc", "²", "³", "٣", "١٢", "𝟗", "Ⅻ", "1_000", "3.5", "1e3", "0x1f", "--1",
                                  "1 2", str(SQLITE_INT_MAX + 1), str(SQLITE_INT_MIN - 1), "99999999999999999999999",
                                  HUGE, "-" + HUGE, None])
def test_parse_int_refuses_everything_else(text):
    assert parse_int(text) is None


def test_parse_int_clamps_on_request_without_ever_converting_huge_numbers():
    assert parse_int(HUGE, clamp=(1, 10)) == 10 and parse_int("-" + HUGE, clamp=(1, 10)) == 1
    assert parse_int("5", clamp=(1, 10)) == 5 and parse_int("²", clamp=(1, 10)) is None


@pytest.mark.parametrize("text,value", [("4.50", 4.5), ("4", 4.0), (" .5 ", 0.5), ("1e9", 1e9), ("-2", -2.0),
                                        ("1e999", float("inf"))])
def test_parse_float_takes_ascii_numbers(text, value):
    assert parse_float(text) == value


@pytest.mark.parametrize("text", ["", "x", "٣", "١.٥", "1_0", "4,50", "0x10", "1" * 101, "4.5.6", "²"])
def test_parse_float_refuses_other_scripts_separators_and_huge_texts(text):
    assert parse_float(text) is None


class _Probe(Site):
    name = "probe"

    def register_routes(self) -> None:
        self.route("/n", self.number)
        self.route("/missing", self.missing)
        self.route("/bug", self.bug)

    def number(self, ctx: Ctx) -> Response:
        return Response(200, html=f"n={ctx.req.int_arg('n', lo=1, hi=99)} page={ctx.req.page_arg()}")

    def missing(self, ctx: Ctx) -> Response:
        raise NotFound("There is no such thing.", "Thing not found")

    def bug(self, ctx: Ctx) -> Response:
        raise KeyError("a site bug")


@pytest.fixture(scope="module")
def probe_app() -> WebApp:
    return WebApp([_Probe()])


def _get(app: WebApp, url: str, method: str = "GET", form: dict[str, str] | None = None) -> Response:
    return app.handle(Request.from_url(method, url, "", {k: [v] for k, v in (form or {}).items()}))


@pytest.mark.parametrize("query,status,text", [
    ("n=5", 200, "n=5 page=1"), ("n=5&page=3", 200, "n=5 page=3"), ("n=5&page=-4", 200, "n=5 page=1"),
    ("n=5&page=%C2%B2", 200, "n=5 page=1"), (f"n=5&page={HUGE}", 200, f"n=5 page={SQLITE_INT_MAX}"),
    ("n=%C2%B2", 400, "The n must be a whole number from 1 to 99; '²' is not."),
    ("n=100", 400, "from 1 to 99; '100' is not"), (f"n={HUGE}", 400, "is not"), ("", 400, "nothing is not"),
])
def test_typed_parameters_and_bad_request_pages(probe_app, query, status, text):
    resp = _get(probe_app, f"/probe/n?{query}")
    assert resp.status == status and text in resp.html, (resp.status, resp.html[-400:])
    if status == 400:
        assert "<title>Bad request</title>" in resp.html


def test_not_found_is_a_404_page_and_a_bug_is_still_a_500(probe_app, caplog):
    resp = _get(probe_app, "/probe/missing")
    assert resp.status == 404 and "<title>Thing not found</title>" in resp.html and "There is no such thing." in resp.html
    assert _get(probe_app, "/probe/bug").status == 500 and "a site bug" in caplog.text
    assert issubclass(NotFound, Exception) and BadRequest.status == 400


# --------------------------------------------------------------------------- the sites
@pytest.fixture
def session() -> str:
    s = uuid.uuid4().hex
    get_webapp().reset_session(s, {})
    yield s
    get_webapp().drop_session(s)


def _site(session: str, url: str, method: str = "GET", form: dict[str, str] | None = None) -> Response:
    return get_webapp().handle(Request.from_url(method, url, session, {k: [v] for k, v in (form or {}).items()}))


@pytest.mark.parametrize("num,status,words", [("²", 400, "'²' is not a step number"), ("٣", 400, "not a step number"),
                                              (HUGE, 400, "not a step number"), ("x", 400, "not a step number"),
                                              ("0", 404, "has steps 1 to"), ("99", 404, "has steps 1 to"),
                                              ("-1", 404, "has steps 1 to"), ("2", 200, "Step 2 of")])
def test_recipe_step_numbers(session, num, status, words):
    resp = _site(session, f"/recipes/recipe/r001/step/{num}")
    assert resp.status == status and words in resp.html, (resp.status, resp.html[-600:])
    views = get_webapp().snapshot(session).get("recipes", {}).get("views", [])
    assert [v[:2] for v in views] == ([["r001", 2]] if status == 200 else [])


@pytest.mark.parametrize("line", ["99999999999999999999999", str(SQLITE_INT_MAX + 1), str(SQLITE_INT_MIN - 1), HUGE,
                                  "²", "٣", "1_0", ""])
@pytest.mark.parametrize("action", ["update", "remove"])
def test_cart_lines_that_cannot_exist_are_unknown_lines(session, line, action):
    pid, sid = next((p["product_id"], s) for p in shop.products() for s in p["prices"])
    assert _site(session, "/shop/cart/add", "POST", {"product_id": pid, "store": sid, "qty": "2"}).status == 303
    before = get_webapp().snapshot(session)["shop"]["cart"]
    resp = _site(session, f"/shop/cart/{action}", "POST", {"line": line, "qty": "3"})
    assert resp.status == 303 and "That+cart+line+does+not+exist" in resp.redirect, resp
    assert get_webapp().snapshot(session)["shop"]["cart"] == before
    ok = _site(session, f"/shop/cart/{action}", "POST", {"line": "1", "qty": "3"})
    assert ok.status == 303 and "kind=error" not in ok.redirect


@pytest.mark.parametrize("qty", ["٣", "1_0", "²", HUGE])
def test_quantities_are_ascii(session, qty):
    pid, sid = next((p["product_id"], s) for p in shop.products() for s in p["prices"])
    resp = _site(session, "/shop/cart/add", "POST", {"product_id": pid, "store": sid, "qty": qty})
    assert resp.status == 303 and "kind=error" in resp.redirect
    assert get_webapp().snapshot(session)["shop"]["cart"] == []


@pytest.mark.parametrize("url", ["/shop/search?q=eggs&max_price=%D9%A3", "/shop/search?q=eggs&max_price=1_0",
                                 "/shop/search?q=eggs&page=" + HUGE, "/shop/search?q=eggs&page=%C2%B2",
                                 "/wiki/search?q=Broadway&page=" + HUGE, "/wiki/search?q=Broadway&page=%D9%A3",
                                 "/recipes/search?q=&page=" + HUGE, "/recipes/search?q=&page=%C2%B2"])
def test_search_pages_forgive_odd_numbers(session, url):
    resp = _site(session, url)
    assert resp.status == 200, (resp.status, resp.html[-500:])
    if "max_price" in url:
        assert "The maximum price must be a number of dollars" in resp.html
