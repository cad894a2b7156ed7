"""The street graph: the embedded Manhattan (from ``data/city/streets.json``) or any other backend.

:func:`build_city` turns street polylines into a graph like a Street View panorama graph: a node every
10-15 m along each street, one node at every intersection shared by all streets that meet there,
undirected edges with heading (degrees clockwise from true north, per direction), length (m) and street
name. Node ids ``n0``, ``n1``, ... are assigned in file order, so the graph is deterministic.

:class:`City` is the interface every backend fills (the Touchdown loader builds one too): nodes,
neighbours, nearest node, shortest routes (Dijkstra on a graph compressed to junctions, so a route across
the whole city takes well under a few milliseconds), turn-by-turn directions, intersection names, address
parsing and the places snapped to nodes.
"""

from __future__ import annotations

import difflib
import heapq
import json
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from embodiedweb.text import clean_text

from .addresses import geocode_number, ordinal, street_key
from .geo import (
    bearing_deg,
    compass4,
    haversine_m,
    neighbour_labels,
    pick_neighbor,
    to_latlng,
    to_xy,
)

NODE_SPACING_M = 12.5  # target spacing; segments between junctions are split evenly (10-15 m)
MAX_EDGE_M = 15.0
JUNCTION_TOL_M = 2.0  # a street ending within this distance of another street joins it (T-junction)
MERGE_TOL_M = 8.0  # crossings closer than this are one intersection (e.g. Broadway, 7th Ave, 45th St)
WALK_SPEED_M_PER_MIN = 80.0  # 4.8 km/h
#: The verb of a directions step for each label the street world gives the street the route takes.
TURN_VERBS = {"ahead": "Continue ahead", "ahead-left": "Bear left", "ahead-right": "Bear right", "left": "Turn left",
              "right": "Turn right", "behind-left": "Turn sharp left", "behind-right": "Turn sharp right",
              "behind": "Turn around"}


@dataclass
class Node:
    """A viewpoint of the street graph: its id, position and the streets it lies on."""

    node_id: str
    lat: float
    lng: float
    streets: tuple[str, ...]


@dataclass
class Place:
    """A named place (store, landmark, ...) at a position, with its address and the street node it is reached at."""

    place_id: str
    name: str
    lat: float
    lng: float
    category: str = ""
    address: str = ""
    node_id: str = ""
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Location:
    """A resolved search text: where it is and what it was."""

    node_id: str
    lat: float
    lng: float
    label: str
    kind: str  # "place" | "intersection" | "address" | "node"
    place_id: str = ""


class City:
    """An undirected street graph with routing, directions and geocoding (see module docstring).

    ``compass_offset`` is the bearing that directions call "north": 29 for the embedded Manhattan (the
    avenues' uptown direction, as New Yorkers say "walk north on 5th Ave"), 0 for true north.
    """

    def __init__(self, nodes: dict[str, Node], edges: list[tuple[str, str, float, str]], name: str = "city",
                 compass_offset: float = 0.0, headings: dict[tuple[str, str], float] | None = None) -> None:
        self.name = name
        self.compass_offset = compass_offset
        self.nodes = nodes
        self._ids = list(nodes)
        self._index = {nid: i for i, nid in enumerate(self._ids)}
        adj: dict[str, list[tuple[str, float, float, str]]] = {nid: [] for nid in nodes}
        seen: set[tuple[str, str]] = set()
        for a, b, length, street in edges:
            if a == b or (a, b) in seen or a not in nodes or b not in nodes:
                continue
            seen.add((a, b))
            seen.add((b, a))
            na, nb = nodes[a], nodes[b]
            hab = headings.get((a, b)) if headings else None
            hba = headings.get((b, a)) if headings else None
            if hab is None:
                hab = bearing_deg(na.lat, na.lng, nb.lat, nb.lng)
            if hba is None:
                hba = bearing_deg(nb.lat, nb.lng, na.lat, na.lng)
            adj[a].append((b, round(hab, 2), round(length, 2), street))
            adj[b].append((a, round(hba, 2), round(length, 2), street))
        # tuples, not lists: a tuple of atoms is untracked by the garbage collector, whose full collections
        # would otherwise walk every node's list (see embodiedweb.frozen)
        self._adj: dict[str, tuple[tuple[str, float, float, str], ...]] = {
            nid: tuple(sorted(lst, key=lambda e: (e[1], e[0]))) for nid, lst in adj.items()}
        self.n_edges = len(seen) // 2
        self._lat = np.array([nodes[i].lat for i in self._ids])
        self._lng = np.array([nodes[i].lng for i in self._ids])
        xy = [to_xy(nodes[i].lat, nodes[i].lng) for i in self._ids]
        self._x = np.array([p[0] for p in xy])
        self._y = np.array([p[1] for p in xy])
        self._build_chains()
        self.places: dict[str, Place] = {}
        self._places_by_node: dict[str, list[str]] = {}
        self._address_index: dict[str, str] = {}  # address_form of a place's address -> place id
        self._street_index: tuple[dict[str, list[str]], dict[str, list[str]]] | None = None
        self._street_names: set[str] = {s for n in nodes.values() for s in n.streets}
        self._intersections: dict[frozenset[str], str] | None = None

    # ------------------------------------------------------------------ graph access
    def __len__(self) -> int:
        return len(self.nodes)

    def __contains__(self, node_id: object) -> bool:
        return node_id in self.nodes

    def neighbors(self, node_id: str) -> tuple[tuple[str, float, float, str], ...]:
        """``((neighbour id, heading deg, distance m, street name), ...)`` sorted by heading."""
        return self._adj.get(node_id, ())

    def edge(self, a: str, b: str) -> tuple[str, float, float, str] | None:
        """The edge from ``a`` to ``b``, or ``None`` if they are not adjacent."""
        return next((e for e in self._adj.get(a, ()) if e[0] == b), None)

    def degree(self, node_id: str) -> int:
        """Number of edges at a node."""
        return len(self._adj.get(node_id, ()))

    def node_ids(self) -> list[str]:
        """All node ids, in graph order."""
        return list(self._ids)

    def nearest_node(self, lat: float, lng: float) -> str:
        """The node closest to a coordinate."""
        x, y = to_xy(lat, lng)
        i = int(np.argmin((self._x - x) ** 2 + (self._y - y) ** 2))
        return self._ids[i]

    def nodes_within(self, lat: float, lng: float, radius_m: float) -> list[tuple[float, str]]:
        """``(distance m, node id)`` of the nodes within ``radius_m`` of a coordinate, nearest first."""
        x, y = to_xy(lat, lng)
        d2 = (self._x - x) ** 2 + (self._y - y) ** 2
        idx = np.nonzero(d2 <= radius_m * radius_m)[0]
        return sorted((float(math.sqrt(d2[i])), self._ids[i]) for i in idx)

    def distance_m(self, a: str, b: str) -> float:
        """Straight-line (haversine) distance between two nodes, in metres."""
        na, nb = self.nodes[a], self.nodes[b]
        return haversine_m(na.lat, na.lng, nb.lat, nb.lng)

    def components(self) -> list[list[str]]:
        """The graph's connected components, as lists of node ids."""
        seen: set[str] = set()
        out = []
        for start in self._ids:
            if start in seen:
                continue
            comp, stack = [], [start]
            seen.add(start)
            while stack:
                u = stack.pop()
                comp.append(u)
                for v, *_ in self._adj[u]:
                    if v not in seen:
                        seen.add(v)
                        stack.append(v)
            out.append(comp)
        return sorted(out, key=len, reverse=True)

    # ------------------------------------------------------------------ routing
    def _build_chains(self) -> None:
        """Compress degree-2 runs into chains between junctions (degree != 2) for fast Dijkstra."""
        junction = {nid for nid in self._ids if len(self._adj[nid]) != 2}
        chains: list[tuple[list[str], list[float]]] = []  # node list and cumulative lengths
        on_chain: dict[str, tuple[int, int]] = {}  # interior node -> (chain index, position)
        jadj: dict[str, list[tuple[str, float, int, bool]]] = {j: [] for j in junction}
        done_edges: set[tuple[str, str]] = set()

        def walk(j: str, first: str, first_len: float) -> None:
            nodes_, cum = [j, first], [0.0, first_len]
            prev, cur = j, first
            while cur not in junction:
                nxt = next(e for e in self._adj[cur] if e[0] != prev) if len(self._adj[cur]) == 2 else None
                if nxt is None:
                    break
                prev, cur = cur, nxt[0]
                nodes_.append(cur)
                cum.append(cum[-1] + nxt[2])
            done_edges.add((nodes_[0], nodes_[1]))
            done_edges.add((nodes_[-1], nodes_[-2]))
            ci = len(chains)
            chains.append((nodes_, cum))
            for pos, nid in enumerate(nodes_[1:-1], start=1):
                on_chain[nid] = (ci, pos)
            jadj[nodes_[0]].append((nodes_[-1], cum[-1], ci, True))
            if nodes_[-1] != nodes_[0] or len(nodes_) > 2:
                jadj.setdefault(nodes_[-1], []).append((nodes_[0], cum[-1], ci, False))

        for j in sorted(junction, key=self._index.__getitem__):
            for nb, _h, length, _s in self._adj[j]:
                if (j, nb) not in done_edges:
                    walk(j, nb, length)
        # pure cycles of degree-2 nodes: promote one node of each to a junction
        rest = [nid for nid in self._ids if nid not in junction and nid not in on_chain]
        while rest:
            j = rest[0]
            junction.add(j)
            jadj[j] = []
            for nb, _h, length, _s in self._adj[j]:
                if (j, nb) not in done_edges:
                    walk(j, nb, length)
            rest = [nid for nid in rest if nid not in junction and nid not in on_chain]
        self._junction = junction
        self._chains = chains
        self._on_chain = on_chain
        self._jadj = {j: tuple(es) for j, es in jadj.items()}

    def _anchors(self, nid: str) -> list[tuple[str, float, int, bool]]:
        """Junctions reachable from ``nid`` along its chain: (junction, distance, chain, towards chain end)."""
        if nid in self._junction:
            return [(nid, 0.0, -1, True)]
        ci, pos = self._on_chain[nid]
        nodes_, cum = self._chains[ci]
        return [(nodes_[0], cum[pos], ci, False), (nodes_[-1], cum[-1] - cum[pos], ci, True)]

    def route(self, a: str, b: str) -> list[str]:
        """Shortest walk from ``a`` to ``b`` by length (Dijkstra); ``[]`` when unknown or unreachable."""
        if a not in self.nodes or b not in self.nodes:
            return []
        if a == b:
            return [a]
        best_len = math.inf
        best: tuple | None = None
        # a and b on the same chain: walking along it is a candidate
        if a not in self._junction and b not in self._junction and self._on_chain[a][0] == self._on_chain[b][0]:
            ci = self._on_chain[a][0]
            pa, pb = self._on_chain[a][1], self._on_chain[b][1]
            cum = self._chains[ci][1]
            best_len = abs(cum[pb] - cum[pa])
            best = ("direct",)
        src = self._anchors(a)
        dst: dict[str, tuple[float, int, bool]] = {}
        for j, d, ci, fwd in self._anchors(b):  # both ends of a loop chain can be one junction: keep the nearer
            if d < dst.get(j, (math.inf,))[0]:
                dst[j] = (d, ci, fwd)
        dist: dict[str, float] = {}
        prev: dict[str, tuple[str, int, bool] | None] = {}
        heap: list[tuple[float, str]] = []
        for j, d, ci, fwd in src:
            if d < dist.get(j, math.inf):
                dist[j] = d
                prev[j] = ("@src", ci, fwd)  # type: ignore[assignment]
                heapq.heappush(heap, (d, j))
        done: set[str] = set()
        remaining = set(dst)
        jadj = self._jadj
        while heap and remaining:
            d, u = heapq.heappop(heap)
            if u in done:
                continue
            if d >= best_len:
                break
            done.add(u)
            if u in dst:
                remaining.discard(u)
                total = d + dst[u][0]
                if total < best_len:
                    best_len, best = total, ("via", u)
            for v, w, ci, fwd in jadj[u]:
                nd = d + w
                if nd < dist.get(v, math.inf):
                    dist[v] = nd
                    prev[v] = (u, ci, fwd)
                    heapq.heappush(heap, (nd, v))
        if best is None:
            return []
        if best[0] == "direct":
            return self._chain_slice(self._on_chain[a][0], self._on_chain[a][1], self._on_chain[b][1])
        # rebuild: junction sequence back to a source anchor
        u = best[1]
        path_rev: list[str] = []
        # tail: from junction u along b's chain to b
        tail = self._tail(u, b)
        cur = u
        while True:
            p = prev[cur]
            if p is None:
                break
            pu, ci, fwd = p
            if pu == "@src":
                path_rev.append(cur)
                head = self._head(a, cur)
                full = head + list(reversed(path_rev))
                break
            nodes_ = self._chains[ci][0]
            seg = nodes_ if fwd else list(reversed(nodes_))
            path_rev.extend(reversed(seg[1:]))
            cur = pu
        else:  # pragma: no cover
            return []
        # full currently: a ... u (junction sequence expanded); append tail
        out = full + tail[1:]
        # drop accidental immediate duplicates
        dedup = [out[0]]
        for n in out[1:]:
            if n != dedup[-1]:
                dedup.append(n)
        return dedup

    def _chain_slice(self, ci: int, p0: int, p1: int) -> list[str]:
        nodes_ = self._chains[ci][0]
        return nodes_[p0:p1 + 1] if p0 <= p1 else list(reversed(nodes_[p1:p0 + 1]))

    def _head(self, a: str, j: str) -> list[str]:
        """Nodes from ``a`` along its chain to its anchor junction ``j`` (``[a]`` when a is j)."""
        if a == j:
            return [a]
        ci, pos = self._on_chain[a]
        nodes_, cum = self._chains[ci]
        # a loop chain starts and ends at j: go the shorter way round
        if nodes_[0] == j and (nodes_[-1] != j or cum[pos] <= cum[-1] - cum[pos]):
            return self._chain_slice(ci, pos, 0)
        return self._chain_slice(ci, pos, len(nodes_) - 1)

    def _tail(self, j: str, b: str) -> list[str]:
        return list(reversed(self._head(b, j)))

    def route_length(self, path: list[str]) -> float:
        """Length in metres of a path of adjacent nodes; raises ``ValueError`` otherwise."""
        total = 0.0
        for u, v in zip(path, path[1:], strict=False):
            e = self.edge(u, v)
            if e is None:
                raise ValueError(f"{u} and {v} are not adjacent")
            total += e[2]
        return total

    def distances_to(self, node: str) -> dict[str, float]:
        """Walking distance (m) from every node to ``node`` (Dijkstra from it; cached for the last 256 nodes asked)."""
        cache: dict[str, dict[str, float]] = self.__dict__.setdefault("_distances_to", {})
        hit = cache.get(node)
        if hit is not None:
            return hit
        dist = self._dijkstra(node, math.inf)
        if len(cache) >= 256:
            cache.pop(next(iter(cache)))
        cache[node] = dist
        return dist

    def _dijkstra(self, source: str, bound: float) -> dict[str, float]:
        """Walking distance (m) from ``source`` to every node at most ``bound`` away (none for an unknown source)."""
        dist: dict[str, float] = {source: 0.0} if source in self.nodes else {}
        heap = [(0.0, source)] if dist else []
        adj = self._adj
        while heap:
            d, u = heapq.heappop(heap)
            if d > dist[u]:
                continue
            for v, _heading, length, _street in adj[u]:
                nd = d + length
                if nd <= bound and nd < dist.get(v, math.inf):
                    dist[v] = nd
                    heapq.heappush(heap, (nd, v))
        return dist

    def within_walk(self, goal: str, radius_m: float) -> frozenset[str]:
        """The nodes whose :meth:`shortest_length` to ``goal`` is at most ``radius_m`` (cached for the last 1,024
        pairs asked: a checker asks at most steps whether the agent, or a place it looked up, is near a goal).
        A Dijkstra from ``goal`` that stops 1 m past the radius finds them; each is then measured as
        :meth:`shortest_length` measures it, so a node at the radius's edge is judged by the same sum."""
        cache: dict[tuple[str, float], frozenset[str]] = self.__dict__.setdefault("_within_walk", {})
        key = (goal, float(radius_m))
        hit = cache.get(key)
        if hit is not None:
            return hit
        near = self._dijkstra(goal, float(radius_m) + 1.0)
        found = frozenset(n for n in near if self.shortest_length(n, goal) <= radius_m)
        if len(cache) >= 1024:
            cache.pop(next(iter(cache)))
        cache[key] = found
        return found

    def shortest_length(self, a: str, b: str) -> float:
        """Length of the shortest route between two nodes (``inf`` when unreachable)."""
        p = self.route(a, b)
        return self.route_length(p) if p else math.inf

    def to_networkx(self, directed: bool = False) -> Any:
        """This graph as a ``networkx.Graph`` (``directed``: a ``DiGraph`` with both directions of each
        edge): node attributes ``lat``, ``lng``, ``name``, ``streets``, ``places``; edge attributes
        ``length`` (metres) and ``street`` (and ``heading``). See :mod:`embodiedweb.worlds.street.graph`."""
        from .graph import to_networkx

        return to_networkx(self, directed=directed)

    # ------------------------------------------------------------------ names and directions
    def compass(self, heading: float) -> str:
        """Four-way compass word for a bearing, relative to ``compass_offset`` (see class docstring)."""
        return compass4(heading - self.compass_offset)

    def intersection_name(self, node_id: str) -> str:
        """``"5th Ave & W 42nd St"`` at an intersection, ``"5th Ave between W 42nd St & W 43rd St"`` else
        (cached per node: every semantic state of the street world names the agent's)."""
        cache: dict[str, str] = self.__dict__.setdefault("_intersection_name", {})
        name = cache.get(node_id)
        if name is None:
            name = self._name_intersection(node_id)
            if node_id in self.nodes:
                cache[node_id] = name
        return name

    def _name_intersection(self, node_id: str) -> str:
        node = self.nodes.get(node_id)
        if node is None:
            return ""
        streets = _distinct_streets(node.streets)
        if len(streets) >= 2:
            return " & ".join(streets)
        if not streets:
            return node_id
        if node_id in self._on_chain:
            ci, _pos = self._on_chain[node_id]
            ends = self._chains[ci][0]
            names = []
            for j in (ends[0], ends[-1]):
                cross = [s for s in _distinct_streets(self.nodes[j].streets) if s != streets[0]]
                if cross:
                    names.append(cross[0])
            names = sorted(set(names), key=_street_sort_key)
            if len(names) == 2:
                return f"{streets[0]} between {names[0]} & {names[1]}"
            if len(names) == 1:
                return f"{streets[0]} near {names[0]}"
        return streets[0]

    def labels_at(self, node_id: str, heading: float) -> dict[str, str]:
        """Each neighbour's relative-direction word at ``node_id`` for a walker facing ``heading``: the
        street world's labels (:func:`~embodiedweb.worlds.street.geo.neighbour_labels`)."""
        return neighbour_labels(heading, ((nb, h) for nb, h, _d, _s in self.neighbors(node_id)))

    def turn_at(self, prev: str, node_id: str, nxt: str) -> tuple[str, bool]:
        """For a walk ``prev -> node_id -> nxt``: the label of ``nxt`` at ``node_id`` for a walker who
        arrived from ``prev`` (facing the direction of that edge), and whether ``forward`` goes there."""
        e = self.edge(prev, node_id)
        if e is None:
            raise ValueError(f"{prev} and {node_id} are not adjacent")
        opts = [(nb, h) for nb, h, _d, _s in self.neighbors(node_id)]
        return neighbour_labels(e[1], opts)[nxt], pick_neighbor("forward", e[1], opts) == nxt

    def legs(self, path: list[str]) -> list[dict[str, Any]]:
        """The walk split into legs: ``[{"street", "heading", "length_m", "start", "end", "turn"}, ...]``.

        A new leg starts where the street name changes or where ``forward`` would not follow the route
        (so walking ``forward`` along a leg stays on it); ``turn`` is the label, at the leg's start node,
        of the route's next node for a walker arriving along the route (``""`` on the first leg), and
        ``heading`` the bearing from the leg's start to its end."""
        legs: list[dict[str, Any]] = []
        for i, (u, v) in enumerate(zip(path, path[1:], strict=False)):
            e = self.edge(u, v)
            if e is None:
                raise ValueError(f"{u} and {v} are not adjacent")
            _, h, length, street = e
            label, ahead = self.turn_at(path[i - 1], u, v) if i > 0 else ("", True)
            if legs and legs[-1]["street"] == street and ahead:
                leg = legs[-1]
                leg["length_m"] += length
                leg["end"] = v
                leg["end_heading"] = h
            else:
                legs.append({"street": street, "heading": h, "end_heading": h, "length_m": length,
                             "start": u, "end": v, "turn": label})
        for leg in legs:
            s, e = self.nodes[leg["start"]], self.nodes[leg["end"]]
            leg["heading"] = round(bearing_deg(s.lat, s.lng, e.lat, e.lng), 1) if leg["start"] != leg["end"] \
                else leg["heading"]
            leg["length_m"] = round(leg["length_m"], 1)
        return legs

    def directions(self, path: list[str], destination: str = "", plain: bool = False) -> list[str]:
        """Numbered turn-by-turn steps: "1. Head north on 5th Ave (towards n12) for 240 m", "2. Turn left onto W 42nd St
        (left at n1671) and walk west for 170 m", ..., "Arrive at ...".

        A turn step's verb comes from :data:`TURN_VERBS` of the label the street world shows, at the node
        named in brackets, for the street the route takes, to a walker arriving along the route; the
        bracket repeats that label. The first step names the start's neighbour to walk to, which the
        street view lists with its own direction word. The compass words are the map's grid directions (``compass_offset``).

        ``plain`` (the hard tier's map): street names, turns and distances only, as a real map site gives
        them ("Turn left onto W 42nd St and walk west for 170 m", "Arrive at ..."): no node ids."""
        if not path:
            return []
        legs = self.legs(path)
        steps: list[str] = []
        for k, leg in enumerate(legs):
            dist = _fmt_m(leg["length_m"])
            if k == 0:
                towards = "" if plain else f" (towards {path[1]})"
                steps.append(f"Head {self.compass(leg['heading'])} on {leg['street']}{towards} for {dist}")
            else:
                label = leg["turn"]
                verb = TURN_VERBS[label.split(" ")[0]]
                at = "" if plain else f" ({label} at {leg['start']})"
                steps.append(f"{verb} onto {leg['street']}{at} and walk {self.compass(leg['heading'])} for {dist}")
        where = destination or self.intersection_name(path[-1])
        steps.append(f"Arrive at {where}" if plain else f"Arrive at {where} ({path[-1]})")
        return [f"{i}. {s}" for i, s in enumerate(steps, start=1)]

    # ------------------------------------------------------------------ geocoding
    def intersection_node(self, street_a: str, street_b: str) -> str | None:
        """The node where two streets meet (names normalised; E/W may be omitted)."""
        if self._intersections is None:
            table: dict[frozenset[str], str] = {}
            for nid in self._ids:
                node = self.nodes[nid]
                if len(node.streets) < 2:
                    continue
                keys = {street_key(normalize_street(s)) for s in node.streets}
                for k1 in keys:
                    for k2 in keys:
                        if k1 != k2:
                            table.setdefault(frozenset((k1, k2)), nid)
                full = {normalize_street(s) for s in node.streets}
                for k1 in full:
                    for k2 in full:
                        if k1 != k2:
                            table.setdefault(frozenset((k1, k2)), nid)
            self._intersections = table
        for a in _candidates(normalize_street(street_a)):
            for b in _candidates(normalize_street(street_b)):
                for ka, kb in ((a, b), (street_key(a), street_key(b))):
                    nid = self._intersections.get(frozenset((ka, kb)))
                    if nid:
                        return nid
        return None

    def street_nodes(self, street: str) -> list[str]:
        """The nodes on a street (name normalised; E/W may be omitted), in graph order."""
        if self._street_index is None:
            full: dict[str, list[str]] = {}
            bare: dict[str, list[str]] = {}
            for nid in self._ids:
                for s in {normalize_street(x) for x in self.nodes[nid].streets}:
                    full.setdefault(s, []).append(nid)
                for k in {street_key(normalize_street(x)) for x in self.nodes[nid].streets}:
                    bare.setdefault(k, []).append(nid)
            self._street_index = (full, bare)
        key = normalize_street(street)
        full, bare = self._street_index
        return list(full.get(key) or bare.get(street_key(key), []))

    def parse_address(self, text: str) -> Location | None:
        """Geocode ``"5th Ave & W 42nd St"`` (also "and", "at", "/") or ``"350 5th Ave"`` / ``"11 W 53rd St"``,
        with or without the postal part (``", New York, NY 10118"``).

        An address of a known place (its rooftop point, as on the place's page, the shop's store pages
        and the wiki's infoboxes) resolves to that place's node: the node the checkers use. Other house
        numbers are interpolated by the Manhattan address rules (on an avenue the cross street is
        ``number / 20 + key``; on a numbered street numbers start at 5th Ave and grow by about 100 per
        avenue block east and west); numbers outside a street's range resolve to nothing.
        """
        t = strip_postal(clean_text(text))
        if not t:
            return None
        pid = self._address_index.get(address_form(t))
        if pid is not None:
            place = self.places[pid]
            return Location(place.node_id, place.lat, place.lng, _display_address(t, self), "address", place.place_id)
        block = self._block_middle(t)
        if block is not None:
            node = self.nodes[block]
            return Location(block, node.lat, node.lng, self.intersection_name(block), "intersection")
        if len(_street_parts(t)) >= 2:
            nid = self._corner(t)
            if nid is None:
                return None
            node = self.nodes[nid]
            return Location(nid, node.lat, node.lng, self.intersection_name(nid), "intersection")
        key = address_key(t)
        if key is None:
            return None
        number, street = key
        ll = self._geocode_number(number, street)
        if ll is None:
            return None
        nid = self._nearest_on_street(ll[0], ll[1], street)
        if nid is None:
            return None
        node = self.nodes[nid]
        return Location(nid, node.lat, node.lng, f"{number} {_display_street(street, self)}", "address")

    def address_suggestions(self, text: str, limit: int = 5) -> list[Place]:
        """Known places for a query that found nothing: same street first, then similar names/addresses."""
        t = strip_postal(clean_text(text))
        key = address_key(t)
        out: list[Place] = []
        if key is not None:
            number, street = key
            same = []
            for pid, p in self.places.items():
                k = address_key(strip_postal(p.address))
                if k is not None and k[1] == street:
                    same.append((abs(k[0] - number), pid))
            out = [self.places[pid] for _, pid in sorted(same)]
        if len(out) < limit:
            names = {p.name.lower(): p for p in self.places.values()}
            names.update({strip_postal(p.address).lower(): p for p in self.places.values() if p.address})
            for m in difflib.get_close_matches(t.lower(), list(names), n=limit, cutoff=0.5):
                if names[m] not in out:
                    out.append(names[m])
        return out[:limit]

    def _nearest_on_street(self, lat: float, lng: float, street: str) -> str | None:
        cands = self.street_nodes(street)
        if not cands:
            return None
        x, y = to_xy(lat, lng)
        idx = np.array([self._index[c] for c in cands])
        d2 = (self._x[idx] - x) ** 2 + (self._y[idx] - y) ** 2
        return cands[int(np.argmin(d2))]

    def _geocode_number(self, number: int, street: str) -> tuple[float, float] | None:
        return geocode_number(self, number, street)

    def locate(self, text: str) -> Location | None:
        """Resolve a place name or id, a node id, an intersection or an address to a node."""
        t = clean_text(text)
        if not t:
            return None
        if re.fullmatch(r"n\d+", t) and t in self.nodes:
            node = self.nodes[t]
            return Location(t, node.lat, node.lng, self.intersection_name(t), "node")
        place = self.find_place(t)
        if place is not None:
            return Location(place.node_id, place.lat, place.lng, place.name, "place", place.place_id)
        return self.parse_address(t)

    # ------------------------------------------------------------------ places
    def set_places(self, places: list[dict[str, Any]], max_snap_m: float = 150.0, corner_m: float = 400.0) -> None:
        """Snap places (``{"place_id", "name", "lat", "lng", ...}``) to the graph, one node each.

        The node is the one the place's address names: on the address's street, nearest to the place's
        point, for a house-number address ("350 5th Ave" is on 5th Ave); the corner for an intersection
        address ("W 42nd St & 6th Ave", when within ``corner_m`` of the place); else the node nearest to
        the place's point. Every place's address is indexed, so geocoding it (with or without the postal part, in
        any spelling of the streets) gives exactly this node: the map, the instruction, the shop, the
        wiki and the checkers mean one place by one address."""
        self.places = {}
        self._places_by_node = {}
        self._address_index = {}
        for p in places:
            try:
                pid, name = str(p["place_id"]), str(p["name"])
                lat, lng = float(p["lat"]), float(p["lng"])
            except (KeyError, TypeError, ValueError):
                continue
            nid = self.nearest_node(lat, lng)
            n = self.nodes[nid]
            if haversine_m(lat, lng, n.lat, n.lng) > max_snap_m:
                continue
            address = strip_postal(clean_text(p.get("address", "")))
            key = address_key(address) if address else None
            if key is not None:
                on_street = self._nearest_on_street(lat, lng, key[1])
                if on_street is not None and haversine_m(lat, lng, self.nodes[on_street].lat,
                                                         self.nodes[on_street].lng) <= max_snap_m:
                    nid = on_street
            elif address:
                corner = self._corner(address)
                if corner is not None and haversine_m(lat, lng, self.nodes[corner].lat,
                                                      self.nodes[corner].lng) <= corner_m:
                    nid = corner
            self.places[pid] = Place(pid, name, lat, lng, str(p.get("category", "")), str(p.get("address", "")),
                                     nid, dict(p))
            self._places_by_node.setdefault(nid, []).append(pid)
            form = address_form(address)
            if form:
                self._address_index.setdefault(form, pid)

    def block_nodes(self, node_id: str) -> frozenset[str]:
        """The nodes of the block a mid-block node lies on (the nodes the street world names as it, "W 47th St
        between 8th Ave & 9th Ave") and the corners at its two ends; empty for a corner or an unknown node."""
        if node_id not in self._on_chain or " between " not in self.intersection_name(node_id):
            return frozenset()
        nodes_ = self._chains[self._on_chain[node_id][0]][0]
        name = self.intersection_name(node_id)
        return frozenset([nodes_[0], nodes_[-1], *(n for n in nodes_[1:-1] if self.intersection_name(n) == name)])

    def _block_middle(self, text: str) -> str | None:
        """The middle node of the block a name like ``"W 47th St between 8th Ave & 9th Ave"`` names (the name the
        street world gives every node of that block, :meth:`intersection_name`): the block as a place, not one
        of its corners. None for any other text, or a block the city does not have."""
        m = _BLOCK.fullmatch(text)
        if m is None:
            return None
        a, b = self.intersection_node(m["street"], m["a"]), self.intersection_node(m["street"], m["b"])
        if a is None or b is None:
            return None
        street = street_key(normalize_street(m["street"]))
        inside = [n for n in self.route(a, b)[1:-1] if " between " in self.intersection_name(n)
                  and street in {street_key(normalize_street(s)) for s in self.nodes[n].streets}]
        if not inside:
            return None
        name = self.intersection_name(inside[len(inside) // 2])
        block = [n for n in inside if self.intersection_name(n) == name]
        return block[len(block) // 2]

    def _corner(self, address: str) -> str | None:
        parts = _street_parts(address)
        for i in range(len(parts)):
            for j in range(i + 1, len(parts)):
                nid = self.intersection_node(parts[i], parts[j])
                if nid:
                    return nid
        return None

    def place_node(self, place_id: str) -> str | None:
        """The node of a place, or ``None`` for an unknown place."""
        p = self.places.get(place_id)
        return p.node_id if p else None

    def places_at(self, node_id: str) -> list[Place]:
        """The places at a node."""
        return [self.places[p] for p in self._places_by_node.get(node_id, [])]

    def places_near(self, node_id: str, radius_m: float = 60.0) -> list[tuple[float, float, Place]]:
        """``[(distance m, bearing deg, place)]`` of places within ``radius_m`` of a node, nearest first."""
        node = self.nodes[node_id]
        out = []
        for p in self.places.values():
            if abs(p.lat - node.lat) > 0.002 or abs(p.lng - node.lng) > 0.003:
                continue
            d = haversine_m(node.lat, node.lng, p.lat, p.lng)
            if d <= radius_m:
                out.append((round(d, 1), round(bearing_deg(node.lat, node.lng, p.lat, p.lng), 1), p))
        out.sort(key=lambda t: (t[0], t[2].place_id))
        return out

    def find_place(self, text: str) -> Place | None:
        """The place whose id or name equals ``text`` (case-insensitive), or ``None``."""
        t = clean_text(text).lower()
        if not t:
            return None
        if t in {k.lower() for k in self.places}:
            return next(p for k, p in self.places.items() if k.lower() == t)
        exact = [p for p in self.places.values() if p.name.lower() == t]
        return sorted(exact, key=lambda p: p.place_id)[0] if exact else None

    def search_places(self, text: str, limit: int = 20) -> list[Place]:
        """Places whose name, category or address contains every word of ``text`` (name hits first)."""
        words = [w for w in re.split(r"[^\w']+", clean_text(text).lower()) if w]
        if not words:
            return []
        scored = []
        for p in self.places.values():
            name = p.name.lower()
            hay = f"{name} {p.category.lower()} {p.address.lower()}"
            if all(w in hay for w in words):
                score = (0 if name == " ".join(words) else 1 if all(w in name for w in words) else 2)
                scored.append((score, p.name.lower(), p.place_id, p))
        scored.sort(key=lambda s: s[:3])
        return [s[3] for s in scored[:limit]]


# ---------------------------------------------------------------------- names
_ORD_WORDS = {"first": "1st", "second": "2nd", "third": "3rd", "fourth": "4th", "fifth": "5th", "sixth": "6th",
              "seventh": "7th", "eighth": "8th", "ninth": "9th", "tenth": "10th", "eleventh": "11th",
              "twelfth": "12th"}
_SUFFIX = {"street": "st", "st.": "st", "avenue": "ave", "av": "ave", "av.": "ave", "ave.": "ave", "place": "pl", "pl.": "pl",
           "square": "sq", "sq.": "sq", "south": "s", "east": "e", "west": "w", "e.": "e", "w.": "w",
           "boulevard": "blvd", "road": "rd", "drive": "dr"}
_ALIASES = {"avenue of the americas": "6th ave", "lexington": "lexington ave", "lex ave": "lexington ave",
            "madison": "madison ave", "park": "park ave", "park ave south": "park ave s",
            "fashion ave": "7th ave", "broadway": "broadway"}


_POSTAL = re.compile(r"(?:,?\s*(?:new york(?: city)?|nyc|manhattan|ny|usa|united states))+(?:,?\s*(?:ny\s*)?\d{5}"
                     r"(?:-\d{4})?)?\s*(?:,?\s*(?:usa|united states))?\s*$", re.IGNORECASE)


def strip_postal(text: str) -> str:
    """An address without its city, state, zip and country: "365 5th Ave, New York, NY 10016" -> "365 5th Ave"."""
    t = re.sub(r",?\s*\d{5}(?:-\d{4})?\s*$", "", text.strip())  # a bare zip
    prev = None
    while prev != t:
        prev = t
        t = _POSTAL.sub("", t).strip().rstrip(",").strip()
    return t


def address_key(text: str) -> tuple[int, str] | None:
    """``(house number, normalised street)`` of a house-number address ("11-13 W 53rd St" -> (11, "w 53rd st"))."""
    m = re.match(r"^(\d{1,5})(?:\s*-\s*\d+)?\s+(.+)$", text.strip())
    if not m:
        return None
    street = normalize_street(re.sub(r"\s*(?:#|suite|ste\.?|floor|fl\.?)\s*\w*$", "", m.group(2), flags=re.I))
    return (int(m.group(1)), street) if street else None


_BLOCK = re.compile(r"(?P<street>.+?)\s+between\s+(?P<a>.+?)\s*(?:&|\band\b|/)\s*(?P<b>.+)", re.IGNORECASE)
_JOINERS = re.compile(r"\s*(?:&|\band\b|\bat\b|/|\bcorner of\b|\bbetween\b|,)\s*", re.IGNORECASE)


def _street_parts(text: str) -> list[str]:
    """The streets of an intersection-style address ("Broadway & 7th Ave at W 47th St" -> three)."""
    return [p for p in _JOINERS.split(text) if p.strip()]


def address_form(text: str) -> str:
    """A canonical form of an address (postal part already stripped) to match addresses written
    differently: "4 Union Square South" and "4 Union Sq S" -> "4 union sq s"; "W 42nd St & 6th Ave" and
    "6th Ave and West 42nd Street" -> "42nd st & 6th ave"."""
    key = address_key(text)
    if key is not None:
        return f"{key[0]} {key[1]}"
    parts = _street_parts(text)
    streets = []
    for part in parts:
        n = normalize_street(part)
        if re.fullmatch(r"\d+(st|nd|rd|th)", n):
            n += " st"
        streets.append(street_key(n))
    return " & ".join(sorted(set(streets)))


def _display_address(text: str, city: City) -> str:
    key = address_key(text)
    return f"{key[0]} {_display_street(key[1], city)}" if key else text


def _ordinal_word(m: re.Match[str]) -> str:
    """A number and what follows it: "42nd"/"42 nd"/"42" -> "42nd"; "42 st" -> "42nd st" (42 is no "st" ordinal,
    so the "St" there is Street)."""
    n, suffix = int(m.group(1)), m.group(2)
    if suffix is None or ordinal(n) == f"{n}{suffix}":
        return ordinal(n)
    return f"{ordinal(n)} {suffix}"


def normalize_street(name: str) -> str:
    """Lower-case canonical street name: "Fifth Avenue" -> "5th ave", "West 42nd Street" -> "w 42nd st"."""
    t = clean_text(name).lower().replace(",", " ")
    t = re.sub(r"\s+", " ", t).strip()
    if t in _ALIASES:
        return _ALIASES[t]
    words = []
    for w in t.split(" "):
        w = _ORD_WORDS.get(w, w)
        w = _SUFFIX.get(w, w)
        words.append(w)
    t = " ".join(words)
    t = re.sub(r"\b(\d+)(?:\s*(st|nd|rd|th)\b)?", _ordinal_word, t)
    if re.fullmatch(r"[ew] \d+(st|nd|rd|th)", t):  # "w 42nd" -> "w 42nd st"
        t += " st"
    return _ALIASES.get(t, t)


def _candidates(norm: str) -> list[str]:
    """A bare ordinal ("5th", "42nd") may be an avenue or a street: try both."""
    if re.fullmatch(r"\d+(st|nd|rd|th)", norm):
        return [norm + " st", norm + " ave"]
    return [norm]


def _street_sort_key(name: str) -> tuple[int, str]:
    k = name.lower()
    return (0 if (k.endswith(" ave") or k.endswith(" ave s") or k == "broadway" or k.endswith(" pl")
                  or " sq " in k) else 1, k)


def _distinct_streets(streets: tuple[str, ...]) -> list[str]:
    """Streets of a node, avenues first; "E 42nd St"/"W 42nd St" at 5th Ave count once (as "W ...")."""
    by_key: dict[str, str] = {}
    for s in sorted(streets, key=lambda s: (not s.startswith("W "), s)):
        by_key.setdefault(street_key(normalize_street(s)), s)
    return sorted(by_key.values(), key=_street_sort_key)


def _display_street(norm: str, city: City) -> str:
    for s in sorted(city._street_names):
        if normalize_street(s) == norm:
            return s
    return norm.title()


def _fmt_m(m: float) -> str:
    return f"{int(round(m / 10.0) * 10)} m" if m >= 20 else f"{int(round(m))} m"


# ---------------------------------------------------------------------- building the embedded city
def build_city(doc: dict[str, Any], spacing_m: float = NODE_SPACING_M) -> City:
    """Turn a streets document (``{"streets": [{"name", "kind", "points": [[lat, lng], ...]}]}``) into a City."""
    streets = doc["streets"]
    polys: list[list[tuple[float, float]]] = [[to_xy(p[0], p[1]) for p in s["points"]] for s in streets]
    cum: list[list[float]] = []
    for pl in polys:
        c = [0.0]
        for (x0, y0), (x1, y1) in zip(pl, pl[1:], strict=False):
            c.append(c[-1] + math.hypot(x1 - x0, y1 - y0))
        cum.append(c)
    # crossings: (street index, arc position, x, y)
    hits: list[tuple[int, float, float, float, int, float]] = []
    for i in range(len(polys)):
        for j in range(i + 1, len(polys)):
            for pi, pj, x, y in _poly_crossings(polys[i], cum[i], polys[j], cum[j]):
                hits.append((i, pi, x, y, j, pj))
    # cluster crossing points into junctions
    junctions: list[list[float]] = []  # [x, y, count]
    members: list[list[tuple[int, float]]] = []
    for i, pi, x, y, j, pj in hits:
        k = next((k for k, (jx, jy, _n) in enumerate(junctions) if math.hypot(jx - x, jy - y) <= MERGE_TOL_M), None)
        if k is None:
            junctions.append([x, y, 1])
            members.append([])
            k = len(junctions) - 1
        else:
            jx, jy, n = junctions[k]
            junctions[k] = [(jx * n + x) / (n + 1), (jy * n + y) / (n + 1), n + 1]
        members[k].extend([(i, pi), (j, pj)])
    # key points along each street: (arc position, junction index or -1)
    keys: list[list[tuple[float, int]]] = [[(0.0, -1), (c[-1], -1)] for c in cum]
    for k, mem in enumerate(members):
        for i, pos in mem:
            keys[i].append((pos, k))
    node_xy: list[tuple[float, float]] = []
    node_streets: list[set[str]] = []
    junction_node: dict[int, int] = {}
    edges: list[tuple[int, int, str]] = []

    def new_node(x: float, y: float) -> int:
        node_xy.append((x, y))
        node_streets.append(set())
        return len(node_xy) - 1

    for si, s in enumerate(streets):
        pts = sorted(keys[si], key=lambda t: (t[0], -t[1]))
        # merge key points closer than 1 m, preferring junctions
        merged: list[tuple[float, int]] = []
        for pos, k in pts:
            if merged and pos - merged[-1][0] < 1.0:
                if merged[-1][1] == -1 and k != -1:
                    merged[-1] = (merged[-1][0] if merged[-1][0] == 0.0 else pos, k)
                continue
            merged.append((pos, k))
        ids: list[int] = []
        for pos, k in merged:
            if k >= 0:
                if k not in junction_node:
                    junction_node[k] = new_node(junctions[k][0], junctions[k][1])
                ids.append(junction_node[k])
            else:
                ids.append(new_node(*_point_at(polys[si], cum[si], pos)))
        chain: list[int] = [ids[0]]
        for (p0, _), (p1, _), b in zip(merged, merged[1:], ids[1:], strict=False):
            n_seg = max(1, round((p1 - p0) / spacing_m), math.ceil((p1 - p0) / MAX_EDGE_M))
            for q in range(1, n_seg):
                chain.append(new_node(*_point_at(polys[si], cum[si], p0 + (p1 - p0) * q / n_seg)))
            chain.append(b)
        for nid in chain:
            node_streets[nid].add(s["name"])
        for u, v in zip(chain, chain[1:], strict=False):
            if u != v:
                edges.append((u, v, s["name"]))
    nodes: dict[str, Node] = {}
    for k, (x, y) in enumerate(node_xy):
        lat, lng = to_latlng(x, y)
        nodes[f"n{k}"] = Node(f"n{k}", round(lat, 6), round(lng, 6), tuple(sorted(node_streets[k])))
    out_edges = []
    for u, v, name in edges:
        a, b = nodes[f"n{u}"], nodes[f"n{v}"]
        out_edges.append((a.node_id, b.node_id, haversine_m(a.lat, a.lng, b.lat, b.lng), name))
    return City(nodes, out_edges, name="manhattan", compass_offset=float(doc.get("grid_bearing_deg", 0.0)))


def _point_at(pl: list[tuple[float, float]], cum: list[float], pos: float) -> tuple[float, float]:
    for k in range(1, len(pl)):
        if pos <= cum[k] or k == len(pl) - 1:
            seg = cum[k] - cum[k - 1]
            f = 0.0 if seg == 0 else min(1.0, max(0.0, (pos - cum[k - 1]) / seg))
            (x0, y0), (x1, y1) = pl[k - 1], pl[k]
            return x0 + (x1 - x0) * f, y0 + (y1 - y0) * f
    return pl[-1]


def _poly_crossings(a: list[tuple[float, float]], ca: list[float], b: list[tuple[float, float]],
                    cb: list[float]) -> list[tuple[float, float, float, float]]:
    """Crossings of two polylines, including T-junctions within ``JUNCTION_TOL_M`` of an end."""
    out = []
    for i in range(len(a) - 1):
        for j in range(len(b) - 1):
            r = _seg_cross(a[i], a[i + 1], b[j], b[j + 1])
            if r is not None:
                ta, tb, x, y = r
                out.append((ca[i] + ta * (ca[i + 1] - ca[i]), cb[j] + tb * (cb[j + 1] - cb[j]), x, y))
    dedup: list[tuple[float, float, float, float]] = []
    for h in out:
        if not any(math.hypot(h[2] - d[2], h[3] - d[3]) < 1.0 for d in dedup):
            dedup.append(h)
    return dedup


def _seg_cross(p0, p1, q0, q1):
    """Intersection of segments (extended by the tolerance at their ends); (ta, tb, x, y) or None."""
    dx1, dy1 = p1[0] - p0[0], p1[1] - p0[1]
    dx2, dy2 = q1[0] - q0[0], q1[1] - q0[1]
    den = dx1 * dy2 - dy1 * dx2
    la, lb = math.hypot(dx1, dy1), math.hypot(dx2, dy2)
    if la == 0 or lb == 0:
        return None
    if abs(den) < 1e-9 * la * lb:  # parallel: touching end to end counts as a junction
        for pa, ta in ((p0, 0.0), (p1, 1.0)):
            for pb, tb in ((q0, 0.0), (q1, 1.0)):
                if math.hypot(pa[0] - pb[0], pa[1] - pb[1]) <= JUNCTION_TOL_M:
                    return ta, tb, (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
        return None
    ta = ((q0[0] - p0[0]) * dy2 - (q0[1] - p0[1]) * dx2) / den
    tb = ((q0[0] - p0[0]) * dy1 - (q0[1] - p0[1]) * dx1) / den
    ea, eb = JUNCTION_TOL_M / la, JUNCTION_TOL_M / lb
    if -ea <= ta <= 1 + ea and -eb <= tb <= 1 + eb:
        ta_c, tb_c = min(1.0, max(0.0, ta)), min(1.0, max(0.0, tb))
        return ta_c, tb_c, p0[0] + dx1 * ta, p0[1] + dy1 * ta
    return None


def streets_path() -> Path:
    """The street data file, ``data/city/streets.json``."""
    from embodiedweb.paths import data_dir

    return data_dir() / "city" / "streets.json"


def places_path() -> Path:
    """The places data file, ``data/places/places.json``."""
    from embodiedweb.paths import data_dir

    return data_dir() / "places" / "places.json"


def read_places(path: Path | None = None) -> list[dict[str, Any]]:
    """The places list (``[]`` when the file is missing or unreadable); accepts a list or ``{"places": [...]}``."""
    path = path or places_path()
    try:
        doc = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return []
    if isinstance(doc, dict):
        doc = doc.get("places", [])
    return [p for p in doc if isinstance(p, dict)] if isinstance(doc, list) else []


@lru_cache(maxsize=1)
def load_city() -> City:
    """The embedded Manhattan with the places snapped to it (cached)."""
    city = build_city(json.loads(streets_path().read_text()))
    city.set_places(read_places())
    return city
