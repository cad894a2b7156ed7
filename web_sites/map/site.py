"""``/map``: place and address search, walking directions on the city graph, an SVG route map.

Pages (all GET, so a route can be revisited by its URL):

* ``/map/`` - search and directions forms;
* ``/map/search?q=...`` - places (by name, category or address), intersections ("5th Ave & W 42nd St"),
  addresses ("350 5th Ave") and node ids matching ``q``;
* ``/map/place/{place_id}`` - a place: category, address, the street node it is at, a small map;
* ``/map/directions?from=...&to=...`` - the shortest walk (Dijkstra on the street graph): numbered steps,
  total distance and walking time, start and end node ids, and an SVG map of the route.

Plain sessions (the hard tier: session config ``{"plain": true}``, e.g. a task's
``web.sites.map.plain``): the site gives what a real map site gives - street names, turns and distances,
the start and end as street corners or blocks - and never prints or accepts the street graph's node ids
(a node id typed as a start, destination or search is not found).

Per-session state (what checkers read, :meth:`MapSite.snapshot`): ``{"searches": [{"q", "results"}],
"directions": [{"from", "to", "from_node", "to_node", "length_m", "at"}]}`` in request order (``at``: the
env's step number of the request); only directions that were found are recorded.

Optional Google backend (off by default): with ``EMBODIEDWEB_MAP_GOOGLE=1`` set (and the key in
``GOOGLE_MAPS_API_KEY``), a directions request whose start or destination the site's own gazetteer cannot
resolve is sent to :class:`~embodiedweb.worlds.street.google.GoogleMaps` instead of answering "not found".
Only unresolved requests go to Google - not all directions - because that is the least surprising choice:
every route the site can compute itself stays exactly as it is offline (same steps, nodes and lengths, so
checkers and recorded tasks are unaffected), and Google only fills in what would otherwise be an error.
Such a route is recorded in ``directions`` with the same keys as the site's own and the page says
"Directions by Google"; a Google failure (no key, refusal, network, extra not installed) is shown as a
message on the page. Without the opt-in the site never constructs ``GoogleMaps``.
"""

from __future__ import annotations

import os
import random
import re
from typing import Any
from urllib.parse import urlencode

import numpy as np

from embodiedweb.extras import MissingExtra
from embodiedweb.text import clean_text
from embodiedweb.worlds.street.city import WALK_SPEED_M_PER_MIN, City, Location, load_city
from embodiedweb.worlds.street.geo import to_xy
from embodiedweb.worlds.street.google import GoogleMaps, GoogleMapsError
from web_sites.framework import Ctx, Response, Site
from web_sites.state import StateStore

GOOGLE_OPT_IN_ENV = "EMBODIEDWEB_MAP_GOOGLE"


def google_enabled() -> bool:
    """Whether the Google directions backend is switched on (``EMBODIEDWEB_MAP_GOOGLE=1``; default off)."""
    return os.environ.get(GOOGLE_OPT_IN_ENV, "").strip().lower() in ("1", "true", "yes", "on")


_NODE_ID = re.compile(r"n\d+")

HELP = "Try a place name, an intersection such as “5th Ave & W 42nd St” or an address such as “350 5th Ave”."


class MapSite(Site):
    """The map website (see module docstring)."""

    name = "map"
    title = "Maps"
    description = "Search places and addresses in Manhattan and get walking directions with a map."
    order = 30

    def register_routes(self) -> None:
        """Route the map's index, search, place and directions pages."""
        self.route("/", self.index)
        self.route("/search", self.search)
        self.route("/place/{pid}", self.place)
        self.route("/directions", self.directions)

    def setup(self, store: StateStore) -> None:
        """Register the per-session search and directions log tables."""
        store.register_session_table(
            "CREATE TABLE IF NOT EXISTS map_searches (session TEXT, seq INTEGER, q TEXT, results INTEGER)",
            "map_searches")
        store.register_session_table(
            "CREATE TABLE IF NOT EXISTS map_directions (session TEXT, seq INTEGER, from_q TEXT, to_q TEXT,"
            " from_node TEXT, to_node TEXT, length_m REAL, at INTEGER)", "map_directions")
        store.register_session_table("CREATE TABLE IF NOT EXISTS map_settings (session TEXT, plain INTEGER)",
                                     "map_settings")

    def seed_session(self, store: StateStore, session: str, config: dict[str, Any], rng: random.Random) -> None:
        """A session starts with no searches and no directions; ``config["plain"]`` makes it a plain session."""
        if config.get("plain"):
            store.execute("INSERT INTO map_settings VALUES (?, ?)", (session, 1))

    @staticmethod
    def plain(ctx: Ctx) -> bool:
        """Whether this session is plain (see the module docstring)."""
        return ctx.store.query_one("SELECT plain FROM map_settings WHERE session = ?", (ctx.session,)) is not None

    def _locate(self, ctx: Ctx, text: str) -> Location | None:
        """``City.locate``, except that a plain session does not resolve node ids."""
        if self.plain(ctx) and _NODE_ID.fullmatch(clean_text(text)):
            return None
        return self.city().locate(text)

    def snapshot(self, store: StateStore, session: str) -> dict[str, Any]:
        """Return the session's logged searches and directions, or {} if none."""
        s = store.query("SELECT q, results FROM map_searches WHERE session = ? ORDER BY seq", (session,))
        d = store.query("SELECT from_q, to_q, from_node, to_node, length_m, at FROM map_directions WHERE session = ?"
                        " ORDER BY seq", (session,))
        if not s and not d:
            return {}
        return {"searches": [{"q": r["q"], "results": r["results"]} for r in s],
                "directions": [{"from": r["from_q"], "to": r["to_q"], "from_node": r["from_node"],
                                "to_node": r["to_node"], "length_m": r["length_m"], "at": r["at"]} for r in d]}

    @staticmethod
    def city() -> City:
        """Return the loaded city map."""
        return load_city()

    _google: Any = None

    def google(self) -> Any:
        """The :class:`GoogleMaps` backend, made on first use (only called when :func:`google_enabled`)."""
        if self._google is None:
            self._google = GoogleMaps(city=self.city())
        return self._google

    def _google_directions(self, ctx: Ctx, frm: str, to: str, ctxv: dict[str, Any]) -> Response:
        """Directions from Google for a request the gazetteer could not resolve (see module docstring)."""
        try:
            d = self.google().directions(frm, to)
        except (GoogleMapsError, MissingExtra, ImportError) as e:
            ctxv["error"] = f"Directions by Google are not available: {e}"
            return ctx.render("directions.html", **ctxv)
        if d is None:
            ctxv["error"] = f"Google found no walking route from “{frm}” to “{to}”."
            return ctx.render("directions.html", **ctxv)
        ctx.store.execute("INSERT INTO map_directions VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                          (ctx.session, self._next_seq(ctx, "map_directions"), frm, to, d["from_node"],
                           d["to_node"], d["length_m"], ctx.now))
        ctxv["google_route"] = {**d, "length_m": round(d["length_m"]),
                                "reverse_url": "/map/directions?" + urlencode({"from": to, "to": frm})}
        return ctx.render("directions.html", **ctxv)

    def _next_seq(self, ctx: Ctx, table: str) -> int:
        row = ctx.store.query_one(f"SELECT COUNT(*) AS n FROM {table} WHERE session = ?", (ctx.session,))
        return row["n"] if row else 0

    # pages ----------------------------------------------------------------------------------
    def index(self, ctx: Ctx) -> Response:
        """Render the map home with place categories and the place count."""
        city = self.city()
        cats = sorted({p.category for p in city.places.values() if p.category})
        return ctx.render("index.html", q="", frm="", to="", categories=cats, n_places=len(city.places))

    def search(self, ctx: Ctx) -> Response:
        """Search places and addresses, log the search, and render results or suggestions."""
        city = self.city()
        q = clean_text(ctx.req.arg("q"))
        results: list[dict[str, Any]] = []
        suggestions: list[Any] = []
        error = ""
        if not q:
            error = "Type a place, an intersection or an address to search. " + HELP
        else:
            for p in city.search_places(q, limit=30):
                results.append({"kind": "place", "name": p.name, "category": p.category, "address": p.address,
                                "node": p.node_id, "url": f"/map/place/{p.place_id}", "place_id": p.place_id,
                                "where": city.intersection_name(p.node_id)})
            plain = self.plain(ctx)
            loc = city.parse_address(q) if not results else None
            if loc is None and q in city.nodes and not plain:
                loc = city.locate(q)
            if loc is not None:
                results.append({"kind": loc.kind, "name": loc.label, "category": loc.kind.capitalize(),
                                "address": "", "node": loc.node_id, "url": "", "place_id": "",
                                "where": city.intersection_name(loc.node_id)})
            if plain:
                for r in results:
                    r["node"] = ""
            if not results:
                error = f"No match for “{q}”. " + HELP
                suggestions = city.address_suggestions(q)
            ctx.store.execute("INSERT INTO map_searches VALUES (?, ?, ?, ?)",
                              (ctx.session, self._next_seq(ctx, "map_searches"), q, len(results)))
        return ctx.render("search.html", q=q, results=results, error=error, frm="", to="", suggestions=suggestions,
                          dir_url=lambda **kw: "/map/directions?" + urlencode(kw))

    def place(self, ctx: Ctx, pid: str) -> Response:
        """Render a place with its facts and a local map, or 404."""
        city = self.city()
        p = city.places.get(pid)
        if p is None:
            return ctx.app.error_page(404, "Place not found", f"There is no place {pid[:60]!r} on the map.")
        svg = route_svg(city, [p.node_id], f"Map around {p.name}", marks=[(p.node_id, p.name)])
        return ctx.render("place.html", p=p, where=city.intersection_name(p.node_id), svg=svg, plain=self.plain(ctx),
                          facts={k: v for k, v in p.data.items() if k not in (
                              "place_id", "name", "lat", "lng", "category", "address") and isinstance(v, str | int | float)},
                          to_url="/map/directions?" + urlencode({"to": p.name}),
                          from_url="/map/directions?" + urlencode({"from": p.name}))

    def directions(self, ctx: Ctx) -> Response:
        """Locate both endpoints, compute and log a walking route, and render it or the errors."""
        city = self.city()
        frm, to = clean_text(ctx.req.arg("from")), clean_text(ctx.req.arg("to"))
        ctxv: dict[str, Any] = {"frm": frm, "to": to, "error": "", "route": None, "suggestions": []}
        if not frm and not to:
            return ctx.render("directions.html", **ctxv)
        errors = []
        if not frm:
            errors.append("Enter a starting point.")
        if not to:
            errors.append("Enter a destination.")
        a = self._locate(ctx, frm) if frm else None
        b = self._locate(ctx, to) if to else None
        plain = self.plain(ctx)
        suggestions: list[Any] = []
        if frm and a is None:
            errors.append(f"We could not find the starting point “{frm}”.")
            suggestions += city.address_suggestions(frm)
        if to and b is None:
            errors.append(f"We could not find the destination “{to}”.")
            suggestions += city.address_suggestions(to)
        ctxv["suggestions"] = suggestions
        if frm and to and (a is None or b is None) and google_enabled():
            ctxv["suggestions"] = []
            return self._google_directions(ctx, frm, to, ctxv)
        if not errors and a is not None and b is not None and a.node_id == b.node_id:
            same = a.label if plain else f"{a.label}, {a.node_id}"
            errors.append(f"The starting point and the destination are the same place ({same}).")
        if errors:
            ctxv["error"] = " ".join(errors) + ("" if not (frm and to) or (a and b) else " " + HELP)
            return ctx.render("directions.html", status=200, **ctxv)
        assert a is not None and b is not None
        path = city.route(a.node_id, b.node_id)
        if not path:
            ctxv["error"] = f"There is no walking route from {a.label} to {b.label}."
            return ctx.render("directions.html", **ctxv)
        length = city.route_length(path)
        steps = [s.split(". ", 1)[1] for s in city.directions(path, _dest_label(b), plain=plain)]
        ctx.store.execute("INSERT INTO map_directions VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                          (ctx.session, self._next_seq(ctx, "map_directions"), frm, to, a.node_id, b.node_id,
                           round(length, 1), ctx.now))
        ctxv["route"] = {
            "a": a, "b": b, "a_where": city.intersection_name(a.node_id), "b_where": city.intersection_name(b.node_id),
            "length_m": round(length), "minutes": max(1, round(length / WALK_SPEED_M_PER_MIN)), "steps": steps,
            "nodes": len(path), "grid_north": f"{city.compass_offset:.0f}", "plain": plain,
            "svg": route_svg(city, path, f"Map of the walking route from {a.label} to {b.label}, "
                                         f"{_fmt_km(length)}", marks=[(a.node_id, "A"), (b.node_id, "B")]),
            "reverse_url": "/map/directions?" + urlencode({"from": to, "to": frm}),
        }
        return ctx.render("directions.html", **ctxv)


def _dest_label(loc: Location) -> str:
    return loc.label


def _fmt_km(m: float) -> str:
    return f"{m / 1000:.1f} km" if m >= 1000 else f"{int(round(m))} m"


def route_svg(city: City, path: list[str], label: str, marks: list[tuple[str, str]] | None = None,
              size: tuple[int, int] = (480, 360), margin_m: float = 120.0) -> str:
    """An inline SVG: streets around the route in grey, the route in blue, labelled markers."""
    pts = [to_xy(city.nodes[n].lat, city.nodes[n].lng) for n in path]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    x0, x1 = min(xs) - margin_m, max(xs) + margin_m
    y0, y1 = min(ys) - margin_m, max(ys) + margin_m
    w, h = size
    scale = min(w / (x1 - x0), h / (y1 - y0))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2

    def sx(x: float) -> float:
        return round(w / 2 + (x - cx) * scale, 1)

    def sy(y: float) -> float:
        return round(h / 2 - (y - cy) * scale, 1)

    half_w, half_h = w / scale / 2, h / scale / 2
    segs, (lo_x, hi_x, lo_y, hi_y) = _street_segments(city)
    # the segments that reach into the view, in the city's order (one vectorised test over every segment)
    seen = ~((hi_x < cx - half_w) | (lo_x > cx + half_w) | (hi_y < cy - half_h) | (lo_y > cy + half_h))
    d_parts = [f"M{sx(ax)} {sy(ay)}L{sx(bx)} {sy(by)}" for (ax, ay), (bx, by), _name in
               (segs[i] for i in np.flatnonzero(seen))]
    route = " ".join(f"{sx(x)},{sy(y)}" for x, y in pts)
    body = f'<path d="{"".join(d_parts)}" stroke="#bbb" stroke-width="3" fill="none"/>' if d_parts else ""
    if len(pts) > 1:
        body += f'<polyline points="{route}" fill="none" stroke="#1a5fd0" stroke-width="5" stroke-linejoin="round"/>'
    for nid, text in marks or []:
        n = city.nodes[nid]
        x, y = to_xy(n.lat, n.lng)
        body += (f'<circle cx="{sx(x)}" cy="{sy(y)}" r="8" fill="#d03a1a"/>'
                 f'<text x="{sx(x) + 10}" y="{sy(y) - 10}" font-size="13" fill="#222">{_esc(text[:40])}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{_esc(label)}" width="{w}" height="{h}"'
            f' viewBox="0 0 {w} {h}"><rect width="{w}" height="{h}" fill="#f4f1ea"/>{body}</svg>')


_SEG_CACHE: dict[int, tuple[list, tuple[np.ndarray, ...]]] = {}


def _street_segments(city: City) -> tuple[list, tuple[np.ndarray, ...]]:
    """Every edge once as ((x, y), (x, y), street), and the arrays of their bounding boxes (lowest x, highest
    x, lowest y, highest y), cached per city."""
    key = id(city)
    if key not in _SEG_CACHE:
        segs = []
        for nid in city.node_ids():
            a = city.nodes[nid]
            for nb, _h, _d, street in city.neighbors(nid):
                if nid < nb:
                    b = city.nodes[nb]
                    segs.append((to_xy(a.lat, a.lng), to_xy(b.lat, b.lng), street))
        ends = np.array([(ax, bx, ay, by) for (ax, ay), (bx, by), _ in segs], dtype=float).reshape(-1, 4)
        boxes = (np.minimum(ends[:, 0], ends[:, 1]), np.maximum(ends[:, 0], ends[:, 1]),
                 np.minimum(ends[:, 2], ends[:, 3]), np.maximum(ends[:, 2], ends[:, 3]))
        _SEG_CACHE[key] = (segs, boxes)
    return _SEG_CACHE[key]


def _esc(s: str) -> str:
    return (str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;"))


SITE = MapSite()
