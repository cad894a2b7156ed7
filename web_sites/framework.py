"""A small site framework: routes, per-session state, server-side rendering with element ids.

Handlers are plain synchronous functions ``handler(ctx, **path_params) -> Response``. The same
:class:`WebApp.handle` serves the FastAPI app (browser mode, people) and the in-process text driver,
so both see byte-identical pages. Every element of the body gets a ``data-bid`` attribute in
document order when the page is rendered; those are the element ids agents act on.
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
from urllib.parse import parse_qs, urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape

from web_sites.dom import parse_html, to_html
from web_sites.state import StateStore

log = logging.getLogger(__name__)

SITES_DIR = Path(__file__).resolve().parent
BID_ATTR = "data-bid"
_SKIP_BID = {"script", "style", "template", "noscript"}


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
        path, _, qs = url.partition("?")
        return cls(method.upper(), path or "/", parse_qs(qs, keep_blank_values=True), form or {}, session)

    def arg(self, name: str, default: str = "") -> str:
        vals = self.form.get(name) or self.query.get(name)
        return vals[0] if vals else default

    def args(self, name: str) -> list[str]:
        return list(self.form.get(name, [])) + list(self.query.get(name, []))


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
        return self.app.render(f"{self.site.name}/templates/{self.site.name}/{template}", status, site=self.site,
                               req=self.req, **context)

    def redirect(self, url: str) -> Response:
        return Response(status=303, redirect=url)

    def message_redirect(self, url: str, message: str, kind: str = "info") -> Response:
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
        self.register_routes()

    @property
    def prefix(self) -> str:
        return "" if self.name == "home" else f"/{self.name}"

    def register_routes(self) -> None:
        """Register routes with :meth:`route` (subclasses override)."""

    def route(self, pattern: str, handler: Handler, methods: Iterable[str] = ("GET",)) -> None:
        """Add a route; ``pattern`` is relative to the prefix and may hold ``{name}`` parts."""
        rx = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", (self.prefix + pattern).rstrip("/") or "/")
        self._routes.append(({m.upper() for m in methods}, re.compile(f"^{rx}$"), handler))

    def match(self, method: str, path: str) -> tuple[Handler | None, dict[str, str], bool]:
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
        for site in sites:
            self.add_site(site)

    def add_site(self, site: Site) -> None:
        if any(s.name == site.name for s in self.sites):
            return
        site.setup(self.store)
        self.sites.append(site)
        self.sites.sort(key=lambda s: (s.order, s.name))

    def site(self, name: str) -> Site | None:
        return next((s for s in self.sites if s.name == name), None)

    # sessions ---------------------------------------------------------------------------------
    @staticmethod
    def new_session_id() -> str:
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
            self.store.execute("UPDATE deliveries SET delivered = 1 WHERE session = ?", (session,))
        return [{"order_id": r["order_id"], **json.loads(r["item"])} for r in rows]

    # rendering --------------------------------------------------------------------------------
    def render(self, template: str, status: int = 200, **context: Any) -> Response:
        req: Request | None = context.get("req")
        if req is not None:
            context.setdefault("flash", req.query.get("msg", [""])[0])
            context.setdefault("flash_kind", req.query.get("kind", ["info"])[0])
        html = self.jinja.get_template(template).render(**context)
        return finish_page(html, status)

    def error_page(self, status: int, title: str, detail: str) -> Response:
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
            except Exception:  # a site bug must not kill the agent's run
                log.error("handler error for %s %s\n%s", req.method, req.path, traceback.format_exc())
                return self.error_page(500, "Something went wrong", "The page could not be shown.")
        if method_seen:
            return self.error_page(405, "Method not allowed", f"{req.method} is not allowed for {req.path}.")
        return self.error_page(404, "Page not found", f"There is no page at {req.path}.")


def finish_page(html: str, status: int = 200) -> Response:
    """Give every body element a ``data-bid`` (document order) and return the page."""
    doc = parse_html(html)
    body = doc.find("body")
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
