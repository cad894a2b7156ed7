"""StreetWorld: walking a street graph as an :class:`~embodiedweb.worlds.base.EmbodiedWorld`.

State: the current node, the heading the agent faces (degrees clockwise from true north) and the path
walked. Every action except a refused one walks to an adjacent node; none turns on the spot.

Labels: each neighbour of the current node gets its own relative-direction word (``ahead``,
``ahead-right``, ``right``, ``behind-right``, ``behind``, ``behind-left``, ``left``, ``ahead-left``) from
:func:`~embodiedweb.worlds.street.geo.neighbour_labels`: the word of the 45-degree sector its relative
bearing falls in, re-dealt to a free neighbouring word (keeping the neighbours' clockwise order) where
two would share one. The map's turn words come from the same function, so "Turn left onto ..." names
the neighbour labelled ``left`` at that node for a walker arriving along the route.

Actions (names as parsed by the action registry):

* ``forward`` - walk to the neighbour labelled ``ahead``; if there is none, to the one labelled
  ``ahead-left`` or ``ahead-right`` nearest to straight ahead; an error when there is neither (e.g. at a
  dead end).
* ``left`` / ``right`` - walk to the neighbour labelled ``left`` / ``right`` (turning to face it and
  walking there is one action, as in the paper's graph navigation); if there is none, to the one on that
  side (``ahead-left``, ``behind-left`` or ``behind`` for ``left``) nearest to 90 degrees that way, so at
  a dead end or mid-block both walk back the way the agent came; an error when there is none.
* ``move`` with ``args={"node_id": "n123"}`` - walk to that adjacent node.

After every move the heading is the direction of the edge just walked. Bad input never raises: the
message says what went wrong and the state is unchanged.

Places (one rule for every place): a place is *in sight* when its street node is within
:data:`SIGHT_M` (60 m) walking distance in whole metres as every line shows a distance (:func:`shown_m`: a
node 60.4 m away reads "60 m" and is in sight, one 60.6 m away reads "61 m" and is not); it is then listed in
the view it lies in, with that distance (the image's signs say the same number). It
is *here* when its node is within :data:`HERE_RADIUS_M` (20 m, the outdoor checkers' goal radius) walking
distance, exactly where stopping counts as arriving.

``reset(config, seed)``: ``{"start": node_id, "heading": deg, "graph": "city" | "touchdown:<folder>",
"view": "map" | "walker"}``; without ``start`` a node is drawn from ``seed``; without ``heading`` the agent
faces its first neighbour.

Views (``view``): ``"map"`` (the default, the standard tier) heads the text with the node's id, its
intersection name and coordinates, lists places in sight with their walking distances and says which are
*here*. ``"walker"`` (the hard tier) shows what a walker sees: the street signs at a corner (mid-block,
the street the block is on), the storefront signs with house numbers beside the walker and, per direction,
the signs further along (nearest first, no distances); no coordinates, no intersection label mid-block, no
"here" list. The neighbour lines (ids to ``move`` to, directions, the metres to the next node) are the same
in both: node ids are handles to walk by, and the hard tier's map never prints or accepts them.

``watch`` (reset config; the hard tier's appointment tours only): ``{"start": "HH:MM", "pace_m_per_min": p}``; the
text's second line is then ``Your watch: HH:MM.``, the start plus the whole minutes walked (:mod:`.watch`). Without
it the views are exactly as before.
"""

from __future__ import annotations

import heapq
import random
from functools import lru_cache
from typing import Any

import numpy as np

from ..base import EmbodiedWorld
from ..spec import ActionSpec, Arg, bare_action
from .city import City, Place, load_city
from .geo import angle_diff, bearing_deg, compass8, neighbour_labels, pick_by_labels, relative_word
from .render import render_views, view_contents
from .watch import clock_text, step_metres, validate_watch, watch_minutes

__all__ = ["ACTIONS", "ACTION_SPECS", "HERE_RADIUS_M", "SIGHT_M", "VIEWS", "StreetWorld", "get_graph", "relative_word",
           "shown_m", "sight"]

#: the street world's observation styles (``reset`` config ``view``): the standard tier's and the walker's
VIEWS = ("map", "walker")

#: The street world's actions (the action registry composes its grammar from them; the geo world reuses them).
ACTION_SPECS: tuple[ActionSpec, ...] = (
    bare_action("forward", "street", "Walk to the neighbouring node labelled ahead (if none, to the one labelled "
                "ahead-left or ahead-right nearest to straight ahead); refused when there is neither."),
    bare_action("left", "street", "Walk to the neighbouring node labelled left (turning and walking there is one "
                "action); if none, to the one labelled ahead-left, behind-left or behind nearest to 90 degrees "
                "left, so at a dead end or mid-block it walks back the way you came."),
    bare_action("right", "street", "Walk to the neighbouring node labelled right (turning and walking there is "
                "one action); if none, to the one labelled ahead-right, behind-right or behind nearest to 90 "
                "degrees right, so at a dead end or mid-block it walks back the way you came."),
    ActionSpec("move", "street", (Arg("node_id", "node"),), "Walk to the neighbouring node with this id. After "
               "any walk you face the way you walked.", "move [n0123]"),
)
ACTIONS = tuple(s.name for s in ACTION_SPECS)
ACTION_TITLE = "Street actions (only while the embodied environment is active)"


@lru_cache(maxsize=4)
def _touchdown(folder: str) -> City:
    from .touchdown import load_touchdown

    return load_touchdown(folder)


def get_graph(spec: str | None) -> City:
    """``"city"`` (default, the embedded Manhattan) or ``"touchdown:<folder>"``."""
    if not spec or spec == "city":
        return load_city()
    if spec.startswith("touchdown:"):
        return _touchdown(spec.split(":", 1)[1])
    raise ValueError(f"unknown street graph {spec!r}: use 'city' or 'touchdown:<folder>'")


#: A place is listed in the views when its node is this close by walking distance as shown, in whole metres
#: (:func:`shown_m`; every place alike).
SIGHT_M = 60.0
#: "Here" lists a place when its node is this close by walking distance: the outdoor checkers' goal
#: radius (``embodiedweb.domains.outdoor.common.GOAL_RADIUS_M``; a test holds them equal).
HERE_RADIUS_M = 20.0


def shown_m(d: float) -> int:
    """A walking distance in whole metres, as every street text and image shows one: to the centimetre the graph's
    edge lengths are stored in (a sum of them carries float noise, 52.50000000000001 one way and 52.49999999999999
    the other), then to whole metres, half to even like ``f"{d:.0f}"``. :data:`SIGHT_M` is compared with this
    number, so a place a view could show at "60 m" is listed."""
    return round(round(d, 2))


def _remember(cache: dict[Any, Any], key: Any, value: Any, cap: int) -> Any:
    """Store ``value`` in a text cache that is emptied when it grows past ``cap`` entries; return it."""
    if len(cache) > cap:
        cache.clear()
    cache[key] = value
    return value


def walking_distances(city: City, src: str, limit_m: float) -> dict[str, float]:
    """Walking distance from ``src`` to every node within ``limit_m`` (Dijkstra bounded by the limit)."""
    dist = {src: 0.0}
    heap = [(0.0, src)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, _h, length, _s in city.neighbors(u):
            nd = d + length
            if nd <= limit_m and nd < dist.get(v, float("inf")):
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    return dist


def sight(city: City, node_id: str) -> tuple[list[tuple[float, Place]], list[tuple[float, float, Place]]]:
    """``(here, seen)`` at a node: ``here`` = ``[(walking m, place)]`` of the places whose node is within
    :data:`HERE_RADIUS_M` walking distance (judged by ``city.shortest_length``, as the checkers judge a
    stop); ``seen`` = ``[(walking m, bearing deg, place)]`` of those whose node is not this one and within
    :data:`SIGHT_M` as shown (``shown_m(walking m) <= SIGHT_M``; the bearing from here to the place's node).
    Walking metres are exact (a view rounds them once, by :func:`shown_m`). Both nearest first; cached per
    node."""
    token = (id(city.places), len(city.places))
    cache = city.__dict__.get("_sight_cache")
    if cache is None or cache[0] != token:
        cache = (token, {})
        city.__dict__["_sight_cache"] = cache
    got = cache[1].get(node_id)
    if got is not None:
        return got
    here: list[tuple[float, Place]] = []
    seen: list[tuple[float, float, Place]] = []
    if city.places:
        me = city.nodes[node_id]
        for nid, d in walking_distances(city, node_id, SIGHT_M + 0.5).items():
            at = city.places_at(nid)
            if not at or shown_m(d) > SIGHT_M:
                continue
            close = nid == node_id or (d <= HERE_RADIUS_M + 1.0 and city.shortest_length(node_id, nid) <= HERE_RADIUS_M)
            if nid != node_id:
                n = city.nodes[nid]
                b = bearing_deg(me.lat, me.lng, n.lat, n.lng)
            for p in at:
                if close:
                    here.append((d, p))
                if nid != node_id:
                    seen.append((d, round(b, 1), p))
        here.sort(key=lambda t: (t[0], t[1].place_id))
        seen.sort(key=lambda t: (t[0], t[2].place_id))
    got = (here, seen)
    if len(cache[1]) > 50000:
        cache[1].clear()
    cache[1][node_id] = got
    return got


class StreetWorld(EmbodiedWorld):
    """A walker on a street graph (see module docstring)."""

    kind = "street"
    action_specs = ACTION_SPECS
    action_title = ACTION_TITLE

    def __init__(self, city: City | None = None) -> None:
        self.city: City | None = city
        self.graph_spec = "city"
        self.node = ""
        self.heading = 0.0
        self.path: list[str] = []
        #: the env's step number at which the walker reached each node of :attr:`path` (0: the start)
        self.path_at: list[int] = []
        self._clock = 0
        self.moves = 0
        self.view = "map"
        #: ``(start minutes, pace m/min)`` of the walker's watch (:mod:`.watch`; appointment tours), else ``None``
        self.watch: tuple[int, float] | None = None
        #: metres walked since the start (:func:`~.watch.step_metres` of each move, summed in order)
        self.walked = 0.0
        self._static: dict[str, tuple[str, str]] = {}
        self._dyn: dict[tuple[str, float], tuple[dict[str, str], str]] = {}

    # ------------------------------------------------------------------ lifecycle
    def reset(self, config: dict[str, Any], seed: int) -> None:
        """Load the configured graph (if changed) and place the walker at the start node (else a seeded one) and heading."""
        config = config or {}
        spec = config.get("graph") or "city"
        if self.city is None or spec != self.graph_spec:
            self.city = get_graph(spec)
            self.graph_spec = spec
            self._static = {}
            self._dyn = {}
        view = str(config.get("view") or "map")
        if view not in VIEWS:
            raise ValueError(f"view {view!r} is not one of {', '.join(VIEWS)}")
        if view != self.view:
            self.view = view
            self._static = {}
        watch = config.get("watch")
        self.watch = None if watch is None else validate_watch(watch)
        city = self.city
        start = config.get("start")
        if start is None:
            ids = city.node_ids()
            start = ids[random.Random(seed).randrange(len(ids))]
        if start not in city.nodes:
            raise ValueError(f"start node {start!r} is not in the {city.name} graph")
        heading = config.get("heading")
        if heading is None:
            nbs = city.neighbors(start)
            heading = nbs[0][1] if nbs else 0.0
        self.node = str(start)
        self.heading = float(heading) % 360.0
        self.path = [self.node]
        self.path_at = [0]
        self._clock = 0
        self.moves = 0
        self.walked = 0.0

    def set_clock(self, t: int) -> None:
        """The env's step number before each action: each node reached is stamped with it (``path_at``)."""
        self._clock = int(t)

    def _require(self) -> City:
        if self.city is None or not self.node:
            raise RuntimeError("StreetWorld.reset() must be called first")
        return self.city

    # ------------------------------------------------------------------ acting
    def choose(self, action: str) -> tuple[str, float] | None:
        """The neighbour ``forward``/``left``/``right`` would walk to, with its heading (or ``None``)."""
        city = self._require()
        opts = [(nb, h) for nb, h, _d, _s in city.neighbors(self.node)]
        nb = pick_by_labels(action, self.heading, opts, self._dynamic()[0])
        return (nb, dict(opts)[nb]) if nb is not None else None

    def labels(self) -> dict[str, str]:
        """Each neighbour's relative-direction word for the current heading (see module docstring)."""
        return dict(self._dynamic()[0])

    def _dynamic(self) -> tuple[dict[str, str], str]:
        """(labels, the facing and neighbour lines) for the current node and heading, cached."""
        key = (self.node, self.heading)
        got = self._dyn.get(key)
        if got is not None:
            return got
        city = self._require()
        h = self.heading
        nbs = city.neighbors(self.node)
        labels = neighbour_labels(h, ((nb, nh) for nb, nh, _d, _s in nbs))
        lines = [f"Facing {self.facing()}.", "Neighbours:"]
        for nb, nh, dist, street in nbs:
            rel = angle_diff(nh, h)
            lines.append(f"- {nb}: {labels[nb]} (heading {nh:.0f} deg, {int(round(rel)) + 0:+d} deg from you), "
                         f"{shown_m(dist)} m along {street or 'a street'}")
        if not nbs:
            lines.append("- none")
        return _remember(self._dyn, key, (labels, "\n".join(lines)), 100000)

    def facing(self) -> str:
        """``"53 deg (northeast ...)"``: the heading and its 8-point compass word (with the map's grid word
        when the city's map calls another bearing north)."""
        city = self._require()
        h = round(self.heading) % 360
        out = f"{h} deg ({compass8(h)}"
        if city.compass_offset:
            out += (f"; on the map's grid, whose north is {city.compass_offset:.0f} deg up the avenues, "
                    f"{city.compass(self.heading)}")
        return out + ")"

    def execute(self, name: str, args: dict[str, Any]) -> str:
        """Street override: turn, step or ``move [node_id]`` along the graph and return the feedback."""
        city = self._require()
        if name not in ACTIONS:
            return f"Invalid street action: {name!r}. Use forward, left, right or move [node_id]."
        if name == "move":
            target = str((args or {}).get("node_id", "") or "").strip()
            if not target:
                return "move needs a node id: move [n123]"
            if target not in city.nodes:
                return f"Unknown node {target[:40]!r}: choose one of the neighbours listed in the observation."
            e = city.edge(self.node, target)
            if e is None:
                nbs = ", ".join(n for n, *_ in city.neighbors(self.node))
                return f"{target} is not adjacent to {self.node}; adjacent nodes: {nbs or 'none'}."
            self._go(target, e[1])
            return ""
        pick = self.choose(name)
        if pick is None:
            where = "ahead" if name == "forward" else f"to the {name}"
            labels = ", ".join(f"{nb} {w}" for nb, w in self.labels().items()) or "none"
            return (f"No street {where} from {self.node} (facing {self.facing()}); neighbours: {labels}. "
                    "Try another direction or move [node_id].")
        self._go(pick[0], pick[1])
        return ""

    def _go(self, target: str, heading: float) -> None:
        if self.watch is not None:
            self.walked += step_metres(self._require(), self.node, target)
        self.node = target
        self.heading = heading % 360.0
        self.path.append(target)
        self.path_at.append(self._clock)
        self.moves += 1

    # ------------------------------------------------------------------ observations
    def _static_text(self, node_id: str) -> tuple[str, str]:
        """(header, views and places) for a node: computed once, reused for every heading."""
        got = self._static.get(node_id)
        if got is not None:
            return got
        city = self._require()
        if self.view == "walker":
            return _remember(self._static, node_id, _walker_text(city, node_id), 50000)
        node = city.nodes[node_id]
        name = city.intersection_name(node_id)
        header = f"You are at {node_id}: {name} ({node.lat:.6f}, {node.lng:.6f})."
        here, seen = sight(city, node_id)
        contents = view_contents(city, node_id, seen)
        grid = f" (the map's grid directions: north = {city.compass_offset:.0f} deg)" if city.compass_offset else ""
        lines = [f"Views{grid}; places listed within {SIGHT_M:.0f} m walk, by the direction of their street node:"]
        for d, word in zip(("N", "E", "S", "W"), ("north", "east", "south", "west"), strict=True):
            c = contents[d]
            parts = []
            if c["streets"]:
                parts.append("street " + " / ".join(c["streets"]))
            if c["places"]:
                parts.append("places: " + ", ".join(f"{n} ({shown_m(dist)} m walk)" for dist, n in c["places"]))
            lines.append(f"- {word}: " + ("; ".join(parts) if parts else "buildings"))
        if here:
            lines.append(f"Here (within {HERE_RADIUS_M:.0f} m walk, where stopping counts as arriving): " + ", ".join(
                f"{p.name} ({'at this node' if d == 0 else f'{shown_m(d)} m'})" for d, p in here))
        return _remember(self._static, node_id, (header, "\n".join(lines)), 50000)

    def text(self) -> str:
        """The node's header, the current dynamic text and the views."""
        header, views = self._static_text(self.node)
        if self.watch is not None:
            header += f"\n{self.watch_line()}"
        return f"{header}\n{self._dynamic()[1]}\n{views}"

    def watch_line(self) -> str:
        """``"Your watch: 09:47."``: the start time plus the whole minutes walked at the watch's pace (:mod:`.watch`)."""
        if self.watch is None:
            return ""
        start, pace = self.watch
        return f"Your watch: {clock_text(start + watch_minutes(self.walked, pace))}."

    def image(self, size: tuple[int, int] = (512, 512)) -> np.ndarray:
        """The rendered views at this node for the current heading."""
        city = self._require()
        return render_views(city, self.node, self.heading, sight(city, self.node)[1], size,
                            walker=self.view == "walker")

    def semantic_state(self) -> dict[str, Any]:
        """Graph, node, heading, coordinates, intersection, path (and the step each of its nodes was reached
        at), visits, moves and the places in sight."""
        city = self._require()
        node = city.nodes[self.node]
        return {"graph": self.graph_spec, "node": self.node, "heading": round(self.heading, 2),
                "lat": node.lat, "lng": node.lng, "intersection": city.intersection_name(self.node),
                "path": list(self.path), "path_at": list(self.path_at), "visited": len(set(self.path)), "moves": self.moves,
                "places_here": [p.place_id for _d, p in sight(city, self.node)[0]]}

    def admissible_actions(self) -> list[str]:
        """Turns that lead somewhere plus ``move [node]`` per neighbour."""
        city = self._require()
        out = [a for a in ("forward", "left", "right") if self.choose(a) is not None]
        out += [f"move [{nb}]" for nb, *_ in city.neighbors(self.node)]
        return out


def _sign(place: Place) -> str:
    """A storefront sign as a walker reads it: the name, and the house number when the address has one."""
    number = place.address.split(" ", 1)[0] if place.address else ""
    return f"{place.name} (no. {number})" if number.isdigit() else place.name


def _walker_text(city: City, node_id: str) -> tuple[str, str]:
    """(header, views) of the ``walker`` view at a node (see the module docstring)."""
    from .city import _distinct_streets

    streets = _distinct_streets(city.nodes[node_id].streets)
    if len(streets) >= 2:
        header = f"Street signs at this corner: {' / '.join(streets)}."
    elif streets:
        header = f"You are on a block of {streets[0]} (no street sign mid-block)."
    else:
        header = "No street sign in sight."
    _here, seen = sight(city, node_id)
    beside = [p for p in city.places_at(node_id)]
    contents = view_contents(city, node_id, seen)
    grid = f" (the map's grid directions: north = {city.compass_offset:.0f} deg)" if city.compass_offset else ""
    # the reach of sight is said (a playthrough looked for a cathedral a block off and took its absence as news)
    lines = [f"Views{grid}; storefront and building signs in sight (up to {SIGHT_M:.0f} m of walking away), "
             "nearest first:"]
    names = {p.name: p for _d, _b, p in seen}
    for d, word in zip(("N", "E", "S", "W"), ("north", "east", "south", "west"), strict=True):
        c = contents[d]
        parts = []
        if c["streets"]:
            parts.append("street " + " / ".join(c["streets"]))
        if c["places"]:
            parts.append("signs: " + ", ".join(_sign(names[n]) for _dist, n in c["places"]))
        lines.append(f"- {word}: " + ("; ".join(parts) if parts else "buildings"))
    lines.append("Beside you: " + (", ".join(_sign(p) for p in sorted(beside, key=lambda p: p.place_id))
                                   if beside else "no sign"))
    return header, "\n".join(lines)
