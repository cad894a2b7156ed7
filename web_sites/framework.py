"""A small site framework: routes, per-session state, server-side rendering with element ids.

Handlers are plain synchronous functions ``handler(ctx, **path_params) -> Response``. The same
:class:`WebApp.handle` serves the FastAPI app (browser mode, people) and the in-process text driver,
so both see byte-identical pages. Every element of the body gets a ``data-bid`` attribute in
document order when the page is rendered; those are the element ids agents act on.

User input (query, form and path parameters) is text; a handler never turns it into a number with
bare ``int()``/``float()``/``str.isdigit()`` (they take "²", "٣", "1_0" and 5,000-digit numbers that
SQLite or the code then choke on). It uses :func:`parse_int` / :func:`parse_float` (ASCII only, whole
numbers within SQLite's 64-bit INTEGER) or :meth:`Request.int_arg` / :meth:`Request.page_arg`. A
handler refuses a request by raising :class:`BadRequest` (400, malformed input) or :class:`NotFound`
(404, an unknown id); the dispatcher answers with the error page and its message. Any other exception
is a site bug: a 500 page (and a log line).
"""

from __future__ import annotations

import json
import logging
import random
import re
import traceback
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlencode, urlsplit

from jinja2 import Environment, FileSystemLoader, select_autoescape

from web_sites.dom import parse_html, to_html, wrap_text_runs
from web_sites.state import StateStore

log = logging.getLogger(__name__)

SITES_DIR = Path(__file__).resolve().parent
BID_ATTR = "data-bid"
_SKIP_BID = {"script", "style", "template", "noscript"}

#: the range of SQLite's INTEGER (signed 64 bits): every whole number a handler binds into a query
SQLITE_INT_MIN, SQLITE_INT_MAX = -(2**63), 2**63 - 1
_INT_TEXT = re.compile(r"([+-]?)0*([0-9]+)")  # ASCII digits only: [0-9], not \d
_FLOAT_TEXT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?(?:nan|inf|infinity)",
                         re.IGNORECASE)
_MAX_NUMBER_CHARS = 100  # longer "numbers" are refused before any conversion


class HTTPError(Exception):
    """A request a handler refuses: the dispatcher answers ``status`` with an error page (``title``, ``detail``)."""

    status = 400
    title = "Bad request"

    def __init__(self, detail: str, title: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        if title is not None:
            self.title = title


class BadRequest(HTTPError):
    """Malformed input (a parameter that is not what the page takes): 400."""

    status = 400
    title = "Bad request"


class NotFound(HTTPError):
    """A well-formed id of nothing that exists: 404."""

    status = 404
    title = "Page not found"


def parse_int(text: str | None, clamp: tuple[int, int] | None = None) -> int | None:
    """A whole number written in ASCII digits (optional sign and surrounding spaces) that fits SQLite's
    INTEGER, or ``None``. With ``clamp=(lo, hi)`` a well-formed number is clamped into ``[lo, hi]``
    instead (however many digits it has), so ``None`` then means malformed only."""
    m = _INT_TEXT.fullmatch(text.strip()) if text is not None else None
    if m is None:
        return None
    sign, digits = m.groups()
    if len(digits) > 19:  # beyond 64 bits: never convert it (int() refuses over 4,300 digits)
        val = SQLITE_INT_MAX + 1 if sign != "-" else SQLITE_INT_MIN - 1
    else:
        val = int(sign + digits)
    if clamp is not None:
        return min(max(val, clamp[0]), clamp[1])
    return val if SQLITE_INT_MIN <= val <= SQLITE_INT_MAX else None


def parse_float(text: str | None) -> float | None:
    """A number written in ASCII (``4``, ``4.50``, ``-1e3``, also ``nan``/``inf``: callers check the range)
    or ``None``; unlike ``float()`` it refuses other scripts' digits, ``_`` separators and huge texts."""
    if text is None:
        return None
    t = text.strip()
    if len(t) > _MAX_NUMBER_CHARS or not _FLOAT_TEXT.fullmatch(t):
        return None
    return float(t)


@dataclass
class Request:
    """One request to the sites: method, path, query and form fields, and the session id."""

    method: str
    path: str
    query: dict[str, list[str]] = field(default_factory=dict)
    form: dict[str, list[str]] = field(default_factory=dict)
    session: str = ""
    #: render from state, change nothing (a GET only): what a reopened tab must do
    restore: bool = False

    @classmethod
    def from_url(cls, method: str, url: str, session: str, form: dict[str, list[str]] | None = None) -> Request:
        """Build a request by splitting the URL into path and parsed query string."""
        path, _, qs = url.partition("?")
        return cls(method.upper(), path or "/", parse_qs(qs, keep_blank_values=True), form or {}, session)

    def arg(self, name: str, default: str = "") -> str:
        """Return the first form (else query) value of a parameter, or the default."""
        vals = self.form.get(name) or self.query.get(name)
        return vals[0] if vals else default

    def args(self, name: str) -> list[str]:
        """Return all form values of a parameter followed by its query values."""
        return list(self.form.get(name, [])) + list(self.query.get(name, []))

    def int_arg(self, name: str, default: int | None = None, lo: int = SQLITE_INT_MIN, hi: int = SQLITE_INT_MAX) -> int:
        """A whole-number parameter in ``[lo, hi]``; :class:`BadRequest` when it is malformed or out of range
        (or missing and there is no ``default``)."""
        raw = self.arg(name).strip()
        if not raw and default is not None:
            return default
        val = parse_int(raw)
        if val is None or not lo <= val <= hi:
            shown = f"'{raw[:20]}'" if raw else "nothing"
            raise BadRequest(f"The {name} must be a whole number from {lo} to {hi}; {shown} is not.")
        return val

    def page_arg(self, name: str = "page") -> int:
        """A page number, forgivingly: a malformed or missing one is page 1, a huge one is clamped (callers
        clamp it to their last page)."""
        val = parse_int(self.arg(name, "1"), clamp=(1, SQLITE_INT_MAX))
        return 1 if val is None else val


class Response:
    """A rendered page (``html`` and its parsed, id-annotated ``doc``) or a redirect.

    ``html`` of a page made by :func:`finish_page` is serialized from ``doc`` on first read: the text
    driver works on ``doc`` and never needs the string, the HTTP server reads it at once.
    """

    __slots__ = ("status", "_html", "redirect", "doc", "content_type")

    def __init__(self, status: int = 200, html: str | None = None, redirect: str | None = None, doc: Any = None,
                 content_type: str = "text/html; charset=utf-8") -> None:
        self.status = status
        self._html = html
        self.redirect = redirect
        self.doc = doc  # lxml tree of ``html`` (the text driver uses it without re-parsing)
        self.content_type = content_type

    @property
    def html(self) -> str:
        """Return the page as HTML, serialising the document once and caching it."""
        if self._html is None:
            self._html = "" if self.doc is None else to_html(self.doc)
        return self._html

    def __repr__(self) -> str:
        return f"Response(status={self.status}, redirect={self.redirect!r})"


class Ctx:
    """What a handler gets: the request, the state store, the session and rendering helpers."""

    def __init__(self, app: WebApp, site: Site, req: Request) -> None:
        self.app, self.site, self.req = app, site, req
        self.store = app.store
        self.session = req.session
        #: the episode clock (the env's step number) when the request arrived
        self.now = app.clock(req.session)

    def render(self, template: str, status: int = 200, **context: Any) -> Response:
        """Render one of this site's templates with the site and request in the context."""
        return self.app.render(f"{self.site.name}/templates/{self.site.name}/{template}", status, site=self.site,
                               req=self.req, **context)

    def redirect(self, url: str) -> Response:
        """Return a 303 redirect to the URL."""
        return Response(status=303, redirect=url)

    def message_redirect(self, url: str, message: str, kind: str = "info") -> Response:
        """Return a 303 redirect to the URL carrying a flash message and its kind. The message is also kept in
        the session's state, for that page: a page shows a ``msg`` of its URL only when the site issued it
        (:meth:`WebApp.issued_flash`), so a URL someone wrote (``?msg=Your order is refunded``) shows nothing."""
        self.app.issue_flash(self.session, url, message, kind)
        sep = "&" if "?" in url else "?"
        return Response(status=303, redirect=f"{url}{sep}{urlencode({'msg': message, 'kind': kind})}")


Handler = Callable[..., Response]


class Site:
    """A website under a path prefix, with its routes, tables, seeding and semantic snapshot.

    Subclasses declare ``name``, ``title``, ``description`` and register routes with
    :meth:`route`; they override :meth:`setup` (catalogue tables), :meth:`seed_session`
    (initial per-session rows from a task's config) and :meth:`snapshot` (the state checkers read).
    """

    name: str = ""
    title: str = ""
    description: str = ""
    order: int = 50

    def __init__(self) -> None:
        self._routes: list[tuple[set[str], re.Pattern[str], Handler]] = []
        #: ``(methods, full pattern)`` of every route, e.g. ``(("GET",), "/shop/product/{pid}")``
        self.route_table: list[tuple[tuple[str, ...], str]] = []
        self.register_routes()

    @property
    def prefix(self) -> str:
        """URL prefix of the site: empty for home, else "/<name>"."""
        return "" if self.name == "home" else f"/{self.name}"

    def register_routes(self) -> None:
        """Register routes with :meth:`route` (subclasses override)."""

    def route(self, pattern: str, handler: Handler, methods: Iterable[str] = ("GET",)) -> None:
        """Add a route; ``pattern`` is relative to the prefix and may hold ``{name}`` parts."""
        full = (self.prefix + pattern).rstrip("/") or "/"
        rx = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", full)
        self._routes.append(({m.upper() for m in methods}, re.compile(f"^{rx}$"), handler))
        self.route_table.append((tuple(sorted(m.upper() for m in methods)), full))

    def match(self, method: str, path: str) -> tuple[Handler | None, dict[str, str], bool]:
        """Find the route for method and path; returns (handler, path params, whether the path matched any route)."""
        path_seen = False
        for methods, rx, handler in self._routes:
            m = rx.match(path)
            if m:
                path_seen = True
                if method in methods:
                    return handler, m.groupdict(), True
        return None, {}, path_seen

    def setup(self, store: StateStore) -> None:
        """Create catalogue and per-session tables."""

    def seed_session(self, store: StateStore, session: str, config: dict[str, Any], rng: random.Random) -> None:
        """Insert this site's initial per-session rows."""

    def snapshot(self, store: StateStore, session: str) -> dict[str, Any]:
        """The site's semantic state for one session (what checkers and traces read)."""
        return {}


class WebApp:
    """All sites of one process: dispatch, rendering, sessions, deliveries."""

    def __init__(self, sites: Iterable[Site]) -> None:
        self.store = StateStore()
        self.sites: list[Site] = []
        self._clocks: dict[str, int] = {}
        # auto_reload off: the templates ship with the package, so no stat() of them on every page
        self.jinja = Environment(loader=FileSystemLoader(str(SITES_DIR)), autoescape=select_autoescape(["html"]),
                                 trim_blocks=True, lstrip_blocks=True, auto_reload=False)
        self.jinja.globals["all_sites"] = lambda: [s for s in self.sites if s.name != "home"]
        self.store.register_session_table(
            "CREATE TABLE IF NOT EXISTS deliveries (session TEXT, seq INTEGER, order_id TEXT, item TEXT,"
            " delivered INTEGER DEFAULT 0)", "deliveries")
        self.store.register_session_table(
            "CREATE TABLE IF NOT EXISTS sessions (session TEXT PRIMARY KEY, seed INTEGER, config TEXT)", "sessions")
        # the flash messages the sites issued (:meth:`Ctx.message_redirect`), by the page they were for: no part
        # of any snapshot, only what lets a page tell its own messages from a ``msg`` written into its URL
        self.store.register_session_table(
            "CREATE TABLE IF NOT EXISTS flashes (session TEXT, path TEXT, message TEXT, kind TEXT)", "flashes")
        for site in sites:
            self.add_site(site)

    def add_site(self, site: Site) -> None:
        """Set up and register a site unless one with its name exists, keeping sites sorted by order."""
        if any(s.name == site.name for s in self.sites):
            return
        site.setup(self.store)
        self.sites.append(site)
        self.sites.sort(key=lambda s: (s.order, s.name))

    def site(self, name: str) -> Site | None:
        """Return the registered site with this name, or None."""
        return next((s for s in self.sites if s.name == name), None)

    # sessions ---------------------------------------------------------------------------------
    @staticmethod
    def new_session_id() -> str:
        """Return a fresh random hex session id."""
        return uuid.uuid4().hex

    def reset_session(self, session: str, config: dict[str, Any] | None = None, seed: int = 0) -> None:
        """Delete one session's rows and seed them again from ``config`` and ``seed``."""
        config = config or {}
        self._clocks[session] = 0
        with self.store.transaction():
            self.store.clear_session(session)
            self.store.execute("INSERT INTO sessions VALUES (?, ?, ?)", (session, seed, json.dumps(config)))
            for site in self.sites:
                site_cfg = dict(config.get("sites", {}).get(site.name, {}))
                site.seed_session(self.store, session, site_cfg, random.Random(f"{seed}:{site.name}"))

    def drop_session(self, session: str) -> None:
        """Delete all stored state of a session and forget its clock."""
        with self.store.transaction():
            self.store.clear_session(session)
        self._clocks.pop(session, None)

    def set_clock(self, session: str, t: int) -> None:
        """Set a session's episode clock (the env's step number): sites stamp what they log with it."""
        self._clocks[session] = int(t)

    def clock(self, session: str) -> int:
        """A session's episode clock (0 until set)."""
        return self._clocks.get(session, 0)

    def has_session(self, session: str) -> bool:
        """Whether the session exists in the store."""
        return self.store.query_one("SELECT 1 AS x FROM sessions WHERE session = ?", (session,)) is not None

    def snapshot(self, session: str) -> dict[str, Any]:
        """Semantic state of every site for one session."""
        out: dict[str, Any] = {}
        for site in self.sites:
            snap = site.snapshot(self.store, session)
            if snap:
                out[site.name] = snap
        return out

    def add_delivery(self, session: str, order_id: str, item: dict[str, Any]) -> None:
        """Append an item of an order to the session's delivery queue."""
        row = self.store.query_one("SELECT COUNT(*) AS n FROM deliveries WHERE session = ?", (session,))
        seq = row["n"] if row else 0
        self.store.execute("INSERT INTO deliveries (session, seq, order_id, item) VALUES (?, ?, ?, ?)",
                           (session, seq, order_id, json.dumps(item, sort_keys=True)))

    def take_deliveries(self, session: str) -> list[dict[str, Any]]:
        """Deliveries not yet placed in the embodied world (marks them delivered)."""
        with self.store.transaction():
            rows = self.store.query(
                "SELECT seq, order_id, item FROM deliveries WHERE session = ? AND delivered = 0 ORDER BY seq",
                (session,))
            # (-1: withdrawn, its order cancelled before it reached the kitchen)
            self.store.execute("UPDATE deliveries SET delivered = 1 WHERE session = ? AND delivered = 0", (session,))
        return [{"order_id": r["order_id"], **json.loads(r["item"])} for r in rows]

    # flash messages ---------------------------------------------------------------------------
    @staticmethod
    def _flash_path(url: str) -> str:
        return unquote(urlsplit(url).path).rstrip("/") or "/"

    def issue_flash(self, session: str, url: str, message: str, kind: str) -> None:
        """Record that the site shows ``message`` (of ``kind``) on the page at ``url`` for this session."""
        path = self._flash_path(url)
        if self.store.query_one("SELECT 1 AS x FROM flashes WHERE session = ? AND path = ? AND message = ? AND kind = ?",
                                (session, path, message, kind)) is None:
            self.store.execute("INSERT INTO flashes VALUES (?, ?, ?, ?)", (session, path, message, kind))

    def issued_flash(self, req: Request) -> tuple[str, str]:
        """The flash message and kind of the request's ``msg`` and ``kind`` when the site issued that message for
        this page in this session (:meth:`issue_flash`), else ``("", "info")``: a message written into a URL by
        hand is not shown, so no page carries a status the site did not give."""
        message = req.query.get("msg", [""])[0]
        kind = req.query.get("kind", ["info"])[0]
        if not message or self.store.query_one(
                "SELECT 1 AS x FROM flashes WHERE session = ? AND path = ? AND message = ? AND kind = ?",
                (req.session, self._flash_path(req.path), message, kind)) is None:
            return "", "info"
        return message, kind

    # rendering --------------------------------------------------------------------------------
    def render(self, template: str, status: int = 200, **context: Any) -> Response:
        """Render a template (adding the flash message of the request's query when the site issued it,
        :meth:`issued_flash`) into a response."""
        req: Request | None = context.get("req")
        if req is not None and "flash" not in context:
            context["flash"], context["flash_kind"] = self.issued_flash(req)
        context.setdefault("flash_kind", "info")
        html = self.jinja.get_template(template).render(**context)
        return finish_page(html, status)

    def error_page(self, status: int, title: str, detail: str) -> Response:
        """Return the shared error page with the given status, title and detail."""
        return self.render("templates/error.html", status, title=title, detail=detail)

    # dispatch ---------------------------------------------------------------------------------
    def handle(self, req: Request) -> Response:
        """Serve one request; never raises (errors become error pages)."""
        if req.session and not self.has_session(req.session):
            self.reset_session(req.session)
        path = req.path.rstrip("/") or "/"
        method_seen = False
        for site in sorted(self.sites, key=lambda s: -len(s.prefix)):
            if site.prefix and not (path == site.prefix or path.startswith(site.prefix + "/")):
                continue
            handler, params, path_seen = site.match(req.method, path)
            method_seen = method_seen or path_seen
            if handler is None:
                continue
            try:
                if req.restore and req.method == "GET":
                    with self.store.discarded():
                        return handler(Ctx(self, site, req), **params)
                return handler(Ctx(self, site, req), **params)
            except HTTPError as e:  # input the handler refuses: a 4xx page with its message
                return self.error_page(e.status, e.title, e.detail)
            except Exception:  # a site bug must not kill the agent's run
                log.error("handler error for %s %s\n%s", req.method, req.path[:300], traceback.format_exc())
                return self.error_page(500, "Something went wrong", "The page could not be shown.")
        if method_seen:
            return self.error_page(405, "Method not allowed", f"{req.method} is not allowed for {req.path}.")
        return self.error_page(404, "Page not found", f"There is no page at {req.path}.")


def finish_page(html: str, status: int = 200) -> Response:
    """Give every body element a ``data-bid`` (document order), each run of text after a link or a block one of its
    own (:func:`~web_sites.dom.wrap_text_runs`), and return the page."""
    doc = parse_html(html)
    body = doc.find("body")
    if body is not None:
        wrap_text_runs(body)  # a run of text after a link has an id of its own, after the link's
    n = 0
    for el in (body.iter() if body is not None else ()):
        if not isinstance(el.tag, str) or el.tag in _SKIP_BID:
            continue
        el.set(BID_ATTR, str(n))
        n += 1
        # Pages show the server's state: browsers must not restore typed values on back/forward
        # (the text driver re-renders from the server too).
        if el.tag in ("form", "input", "select", "textarea") and el.get("autocomplete") is None:
            el.set("autocomplete", "off")
    return Response(status=status, doc=doc)
