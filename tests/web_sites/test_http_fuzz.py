"""HTTP fuzzing of the sites server (:mod:`web_sites.asgi`) and the play server (``ewa play``), in process.

Requests go straight to the ASGI apps with scopes built as uvicorn (h11) builds them: a printable-ASCII
request target (so bad %-escapes and escaped non-UTF-8 bytes, never raw ones), Latin-1 header values,
the body in chunks. They come from the real route table with mutated parameters (huge, negative and
non-ASCII numbers, empty, repeated keys, long strings, bad %-encoding, FTS/SQL syntax), random methods,
odd headers and cookies, and bodies of every kind (forms, multipart, JSON, garbage, too many fields,
over the caps, lying Content-Lengths). Oracles: no response >= 500, no exception out of an app, no
handler error logged, and the caps answer what they promise (413 over the body cap, 415 multipart).

``EWA_FUZZ_REQUESTS`` (default 2000) sets the requests per server (for the sites a systematic corpus
comes first, then random requests), ``EWA_FUZZ_SEED`` the seed; run with
``-s`` to see the figures (status histogram, time, peak RSS growth)::

    EWA_FUZZ_REQUESTS=10000 python -m pytest -p no:cacheprovider -s tests/web_sites/test_http_fuzz.py
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import os
import random
import time
import tracemalloc
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, quote_plus, unquote

import pytest

from embodiedweb.play.server import MAX_BODY_BYTES as PLAY_MAX_BODY
from embodiedweb.play.server import PlaySession, create_play_app
from tests.fixtures.formlab import install as install_formlab
from tests.fixtures.lineworld import make_line_env
from web_sites.asgi import (
    FORM_TYPE,
    MAX_BODY_BYTES,
    MAX_FIELD_BYTES,
    MAX_FORM_FIELDS,
    MAX_URL_BYTES,
    SESSION_COOKIE,
    create_app,
)
from web_sites.framework import SQLITE_INT_MAX, SQLITE_INT_MIN
from web_sites.registry import get_webapp
from web_sites.shop import catalog as shop_catalog

N_REQUESTS = int(os.environ.get("EWA_FUZZ_REQUESTS", "2000"))
SEED = int(os.environ.get("EWA_FUZZ_SEED", "0"))


# --------------------------------------------------------------------------- an in-process ASGI client
@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes
    consumed: int  # bytes of the request body the app pulled


@dataclass
class Req:
    method: str
    target: str  # path?query, printable ASCII as on the wire
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: Any = b""  # bytes, or an iterable of byte chunks (sent as they come, without buffering)
    kind: str = "plain"  # what the request probes (some kinds have an expected status)

    def short(self) -> str:
        body = self.body if isinstance(self.body, bytes) else b"<stream>"
        return f"{self.kind}: {self.method} {self.target[:200]} headers={self.headers[:6]} body={body[:120]!r}"


async def call(app: Any, req: Req) -> Reply:
    """One request to ``app`` as uvicorn would pass it; the body is pulled chunk by chunk."""
    target = req.target.encode("ascii")
    raw_path, _, qs = target.partition(b"?")
    headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in req.headers]
    if isinstance(req.body, bytes) and req.body and not any(k == b"content-length" for k, _ in headers):
        headers.append((b"content-length", str(len(req.body)).encode()))  # as a client sends it
    scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
             "method": req.method, "scheme": "http", "path": unquote(raw_path.decode("ascii")), "raw_path": raw_path,
             "query_string": qs, "root_path": "", "headers": headers, "client": ("127.0.0.1", 50123),
             "server": ("127.0.0.1", 8765), "state": {}}
    chunks: Iterator[bytes] = iter([req.body] if isinstance(req.body, bytes) else req.body)
    consumed = 0
    request_done = False
    response_done = asyncio.Event()
    status = 0
    out_headers: dict[str, str] = {}
    body = bytearray()

    async def receive() -> dict[str, Any]:
        nonlocal consumed, request_done
        if request_done:
            await response_done.wait()
            return {"type": "http.disconnect"}
        chunk = next(chunks, None)
        if chunk is None:
            request_done = True
            return {"type": "http.request", "body": b"", "more_body": False}
        consumed += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": True}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
            out_headers.update({k.decode("latin-1"): v.decode("latin-1") for k, v in message.get("headers", [])})
        elif message["type"] == "http.response.body":
            body.extend(message.get("body", b""))
            if not message.get("more_body"):
                response_done.set()

    await app(scope, receive, send)
    response_done.set()
    return Reply(status, out_headers, bytes(body), consumed)


def run_async(coro: Any) -> Any:
    """``asyncio.run`` in a thread of its own: Playwright's sync API (used by browser tests in this
    process) keeps an event loop marked running on the main thread."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def request(app: Any, req: Req) -> Reply:
    return run_async(call(app, req))


def streamed(total: int, chunk: int = 64 * 1024) -> Iterator[bytes]:
    """``total`` bytes in chunks of one reused buffer (the test itself never holds the body)."""
    buf = b"x" * chunk
    for _ in range(total // chunk):
        yield buf


# --------------------------------------------------------------------------- mutated values
HUGE = "9" * 5000
NUMBERS = ["0", "1", "2", "3", "-1", "99", "100", "+5", " 3 ", "007", "3.5", "2.0", "1e9", "1e999", "-0", "nan", "inf",
           "-inf", "Infinity", str(SQLITE_INT_MAX), str(SQLITE_INT_MAX + 1), str(SQLITE_INT_MIN),
           str(SQLITE_INT_MIN - 1), "99999999999999999999999", HUGE, "-" + HUGE, "0" * 40 + "1", "²", "³", "٣", "١٢",
           "𝟗", "Ⅻ", "1_000", "0x1f", "1 2", "١e3", "$4.50", "4,50", "--1", "+-1"]
STRINGS = ["", " ", "a", "é" * 300, "x" * 3000, "'; DROP TABLE shop_cart; --", "<script>alert(1)</script>", '"', "'",
           "\\", "%", "\x00", "a\x00b", "\t\r\n", "\u202e\u200b", "🙂" * 40, "NULL", "None", "[]", "{}", "*", "?",
           "AND OR NOT", '"unterminated', "NEAR(a b", "title:x", "^x", "5th Ave & W 42nd St", "350 5th Ave",
           "99999999999999999999 5th Ave", "9" * 199 + " 5th Ave", "W 9999999999th St & 5th Ave", "n0", "n" + HUGE[:30],
           "../../etc/passwd", "/shop/cart", "http://evil.example/", "a" * 250 + " & " + "b" * 250, "& & & / at and",
           "ORD-00001", "ORD-" + "9" * 30, "p0001", "chelsea"]
BAD_ESCAPES = ["%", "%z", "%zz", "%ff%fe", "%c3", "%ed%a0%80", "%00", "%25", "%%41", "%u0041", "+%2B+", "%0d%0a",
               "%e2%80%ae", "%C0%AF"]
#: parameters that hold numbers (and get the numbers above most of the time)
NUMERIC = {"num", "line", "qty", "page", "max_price", "tab", "index"}
METHODS = ["PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "CONNECT", "PROPFIND", "get", "post", "X" * 40]


class Mutator:
    def __init__(self, rng: random.Random, real: dict[str, list[str]]) -> None:
        self.rng, self.real = rng, real

    def value(self, name: str = "", p_real: float = 0.35) -> str:
        r, pool = self.rng, self.real.get(name) or []
        roll = r.random()
        if pool and roll < p_real:
            return r.choice(pool)
        if pool and roll < p_real + 0.1:  # a real value, damaged
            v = r.choice(pool)
            return r.choice([v.upper(), v + r.choice(STRINGS[:12]), v[: max(0, len(v) - 1)], v * 2, f" {v} ",
                             v + "\x00", v + "/", v + HUGE[:25]])
        if r.random() < (0.85 if name in NUMERIC else 0.3):
            return r.choice(NUMBERS)
        return r.choice(STRINGS)

    def qs_part(self, s: str) -> str:
        """``s`` %-encoded for a query string, now and then with broken escapes spliced in."""
        enc = quote_plus(s, safe="")
        if self.rng.random() < 0.1:
            i = self.rng.randrange(len(enc) + 1)
            enc = enc[:i] + self.rng.choice(BAD_ESCAPES) + enc[i:]
        return enc

    def query(self, names: list[str]) -> str:
        """A query string (or form body) with some of ``names`` (now and then twice), now and then odd keys."""
        r = self.rng
        pairs = []
        for name in r.sample(names, len(names)):
            if r.random() < (0.3 if name in SHARED_PARAMS else 0.7):
                for _ in range(2 if r.random() < 0.1 else 1):  # repeated keys
                    pairs.append(f"{self.qs_part(name)}={self.qs_part(self.value(name))}" if r.random() < 0.95
                                 else self.qs_part(name))
        if r.random() < 0.1:
            key = r.choice(["", "x", "é", "a[]", "&", HUGE[:50], "page", "q"])
            pairs.append(f"{self.qs_part(key)}={self.qs_part(self.value())}")
        if r.random() < 0.05:
            pairs.append(r.choice(BAD_ESCAPES) + "=" + r.choice(BAD_ESCAPES))
        sep = "&" if r.random() < 0.95 else r.choice([";", "&&", "&=&"])
        return sep.join(pairs)

    def segment(self, name: str) -> str:
        v = self.value(name, p_real=0.6) or "x"
        enc = quote(v, safe="")
        r = self.rng.random()
        if r < 0.06:
            enc += self.rng.choice(BAD_ESCAPES)
        elif r < 0.09:
            enc = self.rng.choice(["..", ".", "%2e%2e", "%2F", "a%2Fb", "%00", "%20"])
        return enc


def fill(pattern: str, seg: Callable[[str], str]) -> str:
    out = []
    for part in pattern.split("/"):
        out.append(seg(part[1:-1]) if part.startswith("{") and part.endswith("}") else part)
    return "/".join(out) or "/"


def odd_headers(r: random.Random) -> list[tuple[str, str]]:
    pool = [("accept", "*/*"), ("accept", "\xff\xfe" * 10), ("user-agent", "x" * 4000), ("x-forwarded-for", "1.2.3.4"),
            ("accept-encoding", "gzip, br"), ("transfer-encoding", "chunked"), ("content-encoding", "gzip"),
            ("expect", "100-continue"), ("range", "bytes=0-10"), ("if-none-match", '"x"'), ("x-" + "a" * 100, "1"),
            ("accept-language", "é;q=0.5"), ("referer", "http://evil.example/\xe9")]
    return [r.choice(pool) for _ in range(r.choice([0, 0, 1, 2]))]


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


def vm_kb(field_name: str) -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
    return 0


@dataclass
class Run:
    statuses: collections.Counter = field(default_factory=collections.Counter)
    failures: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)


async def run_requests(app: Any, reqs: Iterable[Req], expect: Callable[[Req, Reply], str | None]) -> Run:
    run = Run()
    for req in reqs:
        t0 = time.perf_counter()
        try:
            reply = await call(app, req)
        except Exception as e:  # an exception out of the app is a failure, like a 500
            run.failures.append(f"exception {e!r} for {req.short()}")
            run.statuses["exception"] += 1
            continue
        finally:
            run.times.append(time.perf_counter() - t0)
        run.statuses[reply.status] += 1
        problem = "status >= 500" if reply.status >= 500 else expect(req, reply)
        if problem:
            run.failures.append(f"{problem} (got {reply.status}) for {req.short()}")
    return run


def report(name: str, run: Run, n: int, wall: float, rss: tuple[int, int, int, int]) -> None:
    hwm0, hwm1, rss0, rss1 = rss
    print(f"\n[{name}] {n} requests in {wall:.1f} s ({n / wall:.0f}/s; per request p50 {percentile(run.times, .5) * 1e3:.1f}"
          f" ms, p99 {percentile(run.times, .99) * 1e3:.1f} ms, max {max(run.times) * 1e3:.0f} ms)")
    print(f"[{name}] statuses {dict(sorted(run.statuses.items(), key=lambda kv: str(kv[0])))}; failures"
          f" {len(run.failures)}")
    print(f"[{name}] peak RSS (VmHWM) {hwm0 / 1024:.0f} -> {hwm1 / 1024:.0f} MB (+{(hwm1 - hwm0) / 1024:.1f}); RSS"
          f" {rss0 / 1024:.0f} -> {rss1 / 1024:.0f} MB")


@pytest.fixture
def handler_errors():
    """Handler exceptions the dispatcher turned into 500 pages (the play server shows them inside 200s)."""
    seen: list[str] = []

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage()[:2000])

    h = Catch(level=logging.ERROR)
    logger = logging.getLogger("web_sites.framework")
    logger.addHandler(h)
    yield seen
    logger.removeHandler(h)


# --------------------------------------------------------------------------- the sites server
#: the query or form parameters each route reads (path parameters come from the pattern)
ROUTE_PARAMS = {
    "/recipes": ["q", "diet", "difficulty", "ingredient", "equipment"],
    "/recipes/search": ["q", "diet", "difficulty", "ingredient", "equipment", "page"],
    "/shop/search": ["q", "category", "store", "max_price", "sort", "page"],
    "/shop/category/{slug}": ["q", "store", "max_price", "sort", "page"], "/shop/product/{pid}": ["store"],
    "/shop/cart/add": ["product_id", "store", "qty", "opt_size", "opt_pack", "opt_colour"],
    "/shop/cart/update": ["line", "qty"], "/shop/cart/remove": ["line"], "/shop/checkout": ["store", "delivery"],
    "/shop/orders/cancel": ["order_id"],
    "/map/search": ["q"], "/map/directions": ["from", "to"], "/wiki/search": ["q", "page"],
    "/formlab/search": ["q", "only"], "/formlab/cart/add": ["item", "qty", "size"],
    "/formlab/prefs": ["diet", "tag", "note", "speed"],
}
SHARED_PARAMS = ["msg", "kind"]  # every page reads them (its flash message, shown when the site issued it)


def test_the_fuzz_table_has_every_parameter_the_sites_read():
    """A parameter a site starts to read must be added to :data:`ROUTE_PARAMS`, so the corpus tries it."""
    import inspect
    import re

    install_formlab()
    for site in get_webapp().sites:
        src = inspect.getsource(type(site))
        read = set(re.findall(r"\.(?:arg|args|int_arg|page_arg)\(\s*\"(\w+)\"", src))
        read |= {"page"} if "page_arg()" in src else set()
        fuzzed = {n for _, pattern in site.route_table for n in ROUTE_PARAMS.get(pattern, [])}
        assert read <= fuzzed, f"{site.name} reads {sorted(read - fuzzed)}: add them to ROUTE_PARAMS"


def path_params(pattern: str) -> list[str]:
    return [part[1:-1] for part in pattern.split("/") if part.startswith("{") and part.endswith("}")]


def real_values() -> dict[str, list[str]]:
    from embodiedweb.worlds.street.city import load_city
    from web_sites.recipes import catalog as recipes
    from web_sites.shop import catalog as shop
    from web_sites.wiki import catalog as wiki

    city = load_city()
    places = sorted(city.places)[:200]
    return {
        "rid": [r["recipe_id"] for r in recipes.recipes()], "num": ["1", "2", "3", "5", "9"],
        "diet": list(recipes.DIETS), "difficulty": list(recipes.DIFFICULTIES),
        "ingredient": list(recipes.INGREDIENT_LABELS), "equipment": list(recipes.EQUIPMENT_LABELS),
        "pid": [p["product_id"] for p in shop.products()][:300] + places, "product_id": [p["product_id"] for p in shop.products()],
        "sid": shop.store_ids(), "store": shop.store_ids(), "slug": [c for c, _ in shop.categories()] + [a["slug"] for a in wiki.articles()][:300],
        "category": [c for c, _ in shop.categories()], "cat": list(wiki.categories()), "oid": ["ORD-00001", "ORD-00002"],
        "order_id": ["ORD-00001", "ORD-00002", "ORD-99999"],
        "sort": ["relevance", "price_asc", "price_desc", "name"], "delivery": ["kitchen", "pickup"],
        "qty": ["1", "2", "5", "99"], "line": ["1", "2", "3"], "page": ["1", "2", "3"], "max_price": ["4.50", "$3", "10"],
        "opt_size": ["small", "large"], "opt_pack": ["6-eggs", "12-eggs"],
        "from": [city.places[p].name for p in places[:40]] + ["5th Ave & W 42nd St", "350 5th Ave"],
        "to": [city.places[p].name for p in places[40:80]] + ["Broadway & W 47th St"],
        "q": ["eggs", "tomato", "Empire State Building", "Broadway", "pasta", "coffee", "5th Ave & W 42nd St"],
        "item": ["apple", "egg"], "size": ["S", "M", "L"],
    }


def multipart(r: random.Random) -> tuple[str, bytes]:
    b = "fuzzboundary"
    body = (f"--{b}\r\nContent-Disposition: form-data; name=\"qty\"\r\n\r\n1\r\n--{b}\r\nContent-Disposition: form-data;"
            f" name=\"file\"; filename=\"a.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n").encode() + \
        bytes(r.randrange(256) for _ in range(200)) + f"\r\n--{b}--\r\n".encode()
    return f"multipart/form-data; boundary={b}", body


class SiteFuzzer:
    """Requests to the sites from the route table (see the module docstring): :meth:`corpus` tries every
    number of :data:`NUMBERS` in every numeric parameter and every other string of :data:`STRINGS` in every
    other parameter, the rest valid; :meth:`one` makes a random request."""

    def __init__(self, seed: int, sessions: list[str]) -> None:
        self.rng = random.Random(seed)
        self.mut = Mutator(self.rng, real_values())
        self.routes = [(methods, pattern) for site in get_webapp().sites for methods, pattern in site.route_table]
        self.sessions = sessions
        self.valid_adds = [(p["product_id"], s) for p in shop_catalog.products() for s in p["prices"]][:200]

    def cookie(self, odd: bool = True) -> list[tuple[str, str]]:
        r = self.rng.random()
        if r < 0.85 or not odd:
            return [("cookie", f"{SESSION_COOKIE}={self.rng.choice(self.sessions)}")]
        if r < 0.9:
            return []  # a new public session
        return [("cookie", self.rng.choice([f"{SESSION_COOKIE}=", f"{SESSION_COOKIE}=x" + "y" * 3000, "=;=;;",
                                            f"{SESSION_COOKIE}=\xe9\xff", f"{SESSION_COOKIE}=%00; {SESSION_COOKIE}=b",
                                            "a=b; " * 50, f'{SESSION_COOKIE}="quoted"']))]

    def valid(self, name: str) -> str:
        return (self.mut.real.get(name) or ["x"])[0]

    def add_to_cart(self) -> Req:
        pid, sid = self.rng.choice(self.valid_adds)
        return Req("POST", "/shop/cart/add", self.cookie(odd=False) + [("content-type", FORM_TYPE)],
                   f"product_id={pid}&store={sid}&qty={self.rng.choice(['1', '2'])}".encode(), "form")

    def corpus(self) -> list[Req]:
        out = [self.add_to_cart() for _ in range(6)]  # cart lines to update and remove
        for methods, pattern in self.routes:
            rel = pattern.split("/", 2)[-1] if pattern.count("/") > 1 else pattern
            own = ROUTE_PARAMS.get(pattern, ROUTE_PARAMS.get("/" + rel, []))
            method = "POST" if "POST" in methods and "GET" not in methods else "GET"
            for target_name in path_params(pattern) + own:
                for v in NUMBERS if target_name in NUMERIC else STRINGS[::2]:
                    if target_name in path_params(pattern) and not v.strip(" /."):
                        continue  # an empty segment is another route
                    seg = {n: quote(v if n == target_name else self.valid(n), safe="") for n in path_params(pattern)}
                    path = fill(pattern, seg.__getitem__)
                    qs = "&".join(f"{n}={quote_plus(v if n == target_name else self.valid(n))}" for n in own)
                    headers = self.cookie(odd=False)
                    if method == "POST":
                        out.append(Req("POST", path, headers + [("content-type", FORM_TYPE)], qs.encode(), "form"))
                    else:
                        out.append(Req("GET", path + ("?" + qs if qs else ""), headers, b"", "corpus"))
        return out

    def body(self, names: list[str]) -> tuple[str, list[tuple[str, str]], Any]:
        """(kind, headers, body) of a POST."""
        r, mut = self.rng, self.mut
        roll = r.random()
        form = ("form", [("content-type", FORM_TYPE)])
        if roll < 0.7:
            return (*form, mut.query(names).encode("ascii"))
        if roll < 0.74:
            ctype, data = multipart(r)
            return "multipart", [("content-type", ctype)], data
        if roll < 0.78:
            return "other-type", [("content-type", r.choice(["application/json", "text/plain", "application/xml",
                                                              "x/y; charset=\xe9"]))], b'{"qty": 1}'
        if roll < 0.81:
            return "no-type", [], r.choice([b"", b"qty=1", b"\xff\xfe\x00"])
        if roll < 0.84:  # raw bytes that are not %-escaped (a client may send them in a body)
            return (*form, "q=é€&qty=²&line=".encode() + bytes([0xff, 0xc3]))
        if roll < 0.86:
            return "many-fields", form[1], b"&".join(b"a=1" for _ in range(MAX_FORM_FIELDS + 10))
        if roll < 0.88:
            return "big-field", form[1], b"q=" + b"x" * (MAX_FIELD_BYTES + 10)
        if roll < 0.89:
            return "over-cap", form[1], streamed(MAX_BODY_BYTES + 64 * 1024)
        if roll < 0.9:
            return "over-cap", [*form[1], ("content-length", str(10 * MAX_BODY_BYTES))], b"q=1"
        if roll < 0.95:
            cl = r.choice(["abc", "-1", "1e3", "²", "99999999999999999999999", "", " 5 ", "3", "100000"])
            return "bad-length", [*form[1], ("content-length", cl)], b"qty=1&line=1"
        return (*form, b"")

    def one(self) -> Req:
        r, mut = self.rng, self.mut
        if r.random() < 0.05:
            return self.add_to_cart()
        methods, pattern = r.choice(self.routes)
        names = ROUTE_PARAMS.get(pattern, []) + SHARED_PARAMS
        if r.random() < 0.05:
            path = r.choice(["/static/style.css", "/static/../framework.py", "/static/%2e%2e/asgi.py", "/nope",
                             "//shop//cart", "/shop/" + "a/" * 200, "/" + "x" * (MAX_URL_BYTES + 10), "/%ff",
                             "/shop/product/" + "%c3", "/wiki/article/%2F..%2F"])
        else:
            path = fill(pattern, mut.segment)
        method = r.choice(methods) if r.random() < 0.92 else r.choice(METHODS + ["GET", "POST"])
        query = mut.query(names if method != "POST" else SHARED_PARAMS)
        target = path + ("?" + query if query or r.random() < 0.05 else "")
        headers = self.cookie() + odd_headers(r)
        kind, body = "plain", b""
        if method == "POST":
            kind, bh, body = self.body(names)
            headers += bh
        elif r.random() < 0.03:
            kind, body = "get-with-body", r.choice([b"q=1", streamed(256 * 1024)])
        if r.random() < 0.03:
            headers.append(("host", r.choice(["evil.example", "", "\xe9", "[::1", "a" * 300])))
        return Req(method, target, headers, body, kind)


def expect_site(req: Req, reply: Reply) -> str | None:
    if reply.status in (404, 405):  # /static and methods other than GET and POST never reach the sites
        return None
    want = None
    if req.method == "POST":
        want = {"over-cap": 413, "many-fields": 413, "big-field": 413, "multipart": 415, "other-type": 415}.get(req.kind)
    if len(req.target) > MAX_URL_BYTES:
        want = 414
    if want is not None and reply.status != want:
        return f"expected {want}"
    return None


def test_fuzz_sites_server(handler_errors):
    install_formlab()  # the test site too (its routes are in the table whenever the play tests ran first)
    app = create_app(get_webapp())
    sessions = [f"fuzz{SEED}s{i}" for i in range(4)]
    fuzzer = SiteFuzzer(SEED, sessions)
    corpus = fuzzer.corpus()
    reqs = (corpus + [fuzzer.one() for _ in range(N_REQUESTS - len(corpus))])[:N_REQUESTS]
    print(f"\n[sites] {min(len(corpus), N_REQUESTS)} of {len(corpus)} corpus requests, then random ones")
    hwm0, rss0 = vm_kb("VmHWM"), vm_kb("VmRSS")
    t0 = time.perf_counter()
    run = run_async(run_requests(app, reqs, expect_site))
    wall = time.perf_counter() - t0
    report("sites", run, N_REQUESTS, wall, (hwm0, vm_kb("VmHWM"), rss0, vm_kb("VmRSS")))
    for s in sessions:
        get_webapp().drop_session(s)
    assert not run.failures, f"{len(run.failures)} failures, e.g.:\n" + "\n".join(run.failures[:10])
    assert not handler_errors, handler_errors[:3]
    assert sum(v for k, v in run.statuses.items() if k in (200, 303)) > N_REQUESTS // 4  # it reached the handlers


# --------------------------------------------------------------------------- the play server
PLAY_ORIGIN = "http://127.0.0.1:8765"
ACTION_TEMPLATES = ["click [{id}]", "type [{id}] [{text}] [{flag}]", "type [{id}] [{text}]", "hover [{id}]",
                    "press [{key}]", "scroll [{dir}]", "new_tab", "close_tab", "tab_focus [{num}]", "goto [{url}]",
                    "go_back", "go_forward", "forward", "left", "right", "move [{node}]", "switch_environment [{text}]",
                    "stop [{text}]", "stop", "switch_environment", "{text}", "click {id}", "click [{id}] [{id}]",
                    "type [{id}]", "jump [{id}]", "", "   ", "CLICK [{id}]"]


class PlayFuzzer:
    def __init__(self, seed: int, session: PlaySession, site_urls: list[str]) -> None:
        self.rng = random.Random(seed)
        self.mut = Mutator(self.rng, {})
        self.session = session
        self.urls = site_urls

    def action(self) -> str:
        r, mut = self.rng, self.mut
        adm = self.session.info.get("admissible_actions", [])
        if adm and r.random() < 0.35:
            return r.choice(adm)
        fills = {"id": r.choice([str(r.randrange(40))] * 3 + [mut.value()]), "text": mut.value(),
                 "flag": r.choice(["0", "1", "2", "true", "²", ""]), "key": r.choice(["Enter", "Tab", "Ctrl+A", "?", ""]),
                 "dir": r.choice(["up", "down", "left", "sideways", ""]), "num": mut.value(),
                 "url": r.choice(self.urls + [mut.value(), "http://evil.example/", "javascript:alert(1)", "file:///etc/passwd"]),
                 "node": r.choice(["n0", "n1", "n2", "n9", mut.value()])}
        return r.choice(ACTION_TEMPLATES).format(**fills)

    def json_body(self) -> tuple[str, bytes]:
        r = self.rng
        roll = r.random()
        if roll < 0.6:
            return "act", json.dumps({"action": self.action()}).encode()
        if roll < 0.7:
            return "act", json.dumps({"kind": r.choice(["switch", "stop", "other", None, 5]), "message": self.mut.value(),
                                      "answer": r.choice([self.mut.value(), None, [1], {"a": 1}])}).encode()
        if roll < 0.75:
            return "bad-json", r.choice([b"[1, 2]", b"null", b"5", b'"s"', b"{not json", b"\xff\xfe", b"{" * 50,
                                         b"", b'{"action": ' + b"1" * 5000 + b"}", b'{"action": 1e999}',
                                         b'{"action": [' * 20000 + b"]" * 20000, b'{"action": "\\ud800"}',
                                         b'{"action": {"x": []}}', b'{"action": "a\\u0000b"}'])
        if roll < 0.78:
            return "over-cap", b'{"action": "' + b"x" * (PLAY_MAX_BODY + 10) + b'"}'
        return "act", json.dumps({"action": self.action(), "extra": self.mut.value()}).encode()

    def one(self) -> Req:
        r = self.rng
        roll = r.random()
        own = [("host", "127.0.0.1:8765")]
        if roll < 0.12:
            path = r.choice(["/", "/play/web", "/play/embodied.png", "/static/style.css", "/nope", "/play/act",
                             "/play/" + "x" * 300, "/%ff", "/play/web?" + self.mut.query(["a", "page"])])
            return Req(r.choice(["GET"] * 8 + METHODS), path, own + odd_headers(r))
        if roll < 0.15 or (self.session.done and roll < 0.5):
            return Req("POST", "/play/next", own + [("origin", PLAY_ORIGIN)], kind="next")
        kind, body = self.json_body()
        headers = [("host", "127.0.0.1:8765" if r.random() < 0.93 else r.choice(
            ["localhost", "[::1]:8765", "evil.example", "", "\xe9", "127.0.0.1:8765:1", "[::1"]))]
        o = r.random()
        if o < 0.6:
            headers.append(("origin", PLAY_ORIGIN))
        elif o < 0.65:
            headers.append(("origin", r.choice(["http://evil.example", "null", "", "http://127.0.0.1:8765/", "\xff"])))
        c = r.random()
        if c < 0.93:
            headers.append(("content-type", r.choice(["application/json"] * 5 + ["application/json; charset=utf-8"])))
        elif c < 0.98:
            headers.append(("content-type", r.choice(["text/plain", "multipart/form-data; boundary=x",
                                                      "application/x-www-form-urlencoded"])))
        if r.random() < 0.05:
            headers.append(("content-length", r.choice(["abc", "-1", "²", "99999999999999999999", str(10 ** 8), "1"])))
            kind = "bad-length"
        if kind == "over-cap" and r.random() < 0.5:
            body = streamed(4 * PLAY_MAX_BODY, 8192)  # no Content-Length: counted while read
        headers += odd_headers(r)
        method = "POST" if r.random() < 0.96 else r.choice(METHODS + ["GET"])
        return Req(method, "/play/act" if r.random() < 0.98 else "/play/next", headers, body, kind)


def expect_play(req: Req, reply: Reply) -> str | None:
    if req.kind == "over-cap" and req.method == "POST" and req.target == "/play/act" and reply.status not in (403, 413):
        return "expected 413 (or 403 from the guard)"
    return None


def test_fuzz_play_server(tmp_path, handler_errors):
    env = make_line_env(max_steps=25)
    session = PlaySession(env, ["line-0"], tmp_path / "human.jsonl")
    app = create_play_app(session)
    urls = [f"http://ewa.local{fill(p, lambda n: {'item': 'apple', 'rid': 'r001', 'num': '2'}.get(n, 'x'))}"
            for s in get_webapp().sites for _, p in s.route_table] + ["http://ewa.local/recipes/recipe/r001/step/²",
                                                                        "/formlab/cart", "http://ewa.local/%ff"]
    fuzzer = PlayFuzzer(SEED + 1, session, urls)
    hwm0, rss0 = vm_kb("VmHWM"), vm_kb("VmRSS")
    t0 = time.perf_counter()

    def reqs() -> Iterator[Req]:  # made one at a time: actions follow the episode's admissible actions
        for _ in range(N_REQUESTS):
            yield fuzzer.one()

    run = run_async(run_requests(app, reqs(), expect_play))
    wall = time.perf_counter() - t0
    report("play", run, N_REQUESTS, wall, (hwm0, vm_kb("VmHWM"), rss0, vm_kb("VmRSS")))
    env.close()
    assert not run.failures, f"{len(run.failures)} failures, e.g.:\n" + "\n".join(run.failures[:10])
    assert not handler_errors, handler_errors[:3]
    assert run.statuses[200] > N_REQUESTS // 4 and session.steps + len(session.records) > 0


# --------------------------------------------------------------------------- the body caps
@pytest.mark.parametrize("server", ["sites", "play"])
def test_a_body_over_the_cap_is_refused_while_streaming_and_never_held(server, tmp_path):
    """50 MB sent in 64 KB chunks without a Content-Length: 413, the app pulls no more than the cap plus one
    chunk, and the memory allocated while serving stays far below the body's size."""
    env = None
    if server == "sites":
        app, path, cap = create_app(get_webapp()), "/shop/cart/add", MAX_BODY_BYTES
        headers = [("content-type", "application/x-www-form-urlencoded")]
    else:
        env = make_line_env(max_steps=25)
        app = create_play_app(PlaySession(env, ["line-0"], None))
        path, cap = "/play/act", PLAY_MAX_BODY
        headers = [("host", "127.0.0.1:8765"), ("origin", PLAY_ORIGIN), ("content-type", "application/json")]
    total, chunk = 50 * 1024 * 1024, 64 * 1024
    request(app, Req("GET" if server == "sites" else "POST", "/" if server == "sites" else "/play/next", headers))
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        reply = request(app, Req("POST", path, headers, streamed(total, chunk)))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert reply.status == 413, reply
    assert reply.consumed <= cap + chunk, f"the app read {reply.consumed} bytes of a {total}-byte body"
    assert peak < 8 * 1024 * 1024, f"{peak} bytes allocated while refusing a {total}-byte body"
    # a declared length over the cap is refused before a byte is read
    reply = request(app, Req("POST", path, [*headers, ("content-length", str(total))], streamed(total, chunk)))
    assert reply.status == 413 and reply.consumed == 0, reply
    if env is not None:
        env.close()


def test_sites_refuse_multipart_and_oversized_forms_before_parsing():
    app = create_app(get_webapp())
    ctype, data = multipart(random.Random(1))
    reply = request(app, Req("POST", "/shop/cart/add", [("content-type", ctype)], streamed(50 * 1024 * 1024)))
    assert reply.status == 415 and reply.consumed == 0 and b"file uploads are not accepted" in reply.body, reply
    form = [("content-type", "application/x-www-form-urlencoded")]
    many = b"&".join(b"a=1" for _ in range(MAX_FORM_FIELDS + 1))
    assert request(app, Req("POST", "/shop/cart/add", form, many)).status == 413
    assert request(app, Req("POST", "/shop/cart/add", form, b"q=" + b"x" * MAX_FIELD_BYTES)).status == 413
    assert request(app, Req("GET", "/wiki/search?q=" + "x" * MAX_URL_BYTES)).status == 414
    assert request(app, Req("POST", "/shop/cart/add", [*form, ("content-length", "²")], b"qty=1")).status == 400
    # what the forms send still works: a 303 to the product page with the message
    ok = request(app, Req("POST", "/shop/cart/add", form, b"product_id=p9999&store=x&qty=1"))
    assert ok.status == 303 and "no+product" in ok.headers["location"].replace("%20", "+"), ok
