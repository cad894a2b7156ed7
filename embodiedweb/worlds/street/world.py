"""StreetWorld: walking a street graph as an :class:`~embodiedweb.worlds.base.EmbodiedWorld`.

State: the current node, the heading the agent faces (degrees clockwise from true north) and the path
walked. Actions (names as parsed by the action registry):

* ``forward`` - walk to the neighbour most nearly straight ahead (relative heading within +-90 deg);
  an error when no street leaves ahead (e.g. at a dead end: turn with ``left``/``right``).
* ``left`` / ``right`` - turn to face the neighbour whose relative heading is closest to -90 / +90 deg
  and walk there (one action = one move, as in the paper's graph navigation). Neighbours within 15 deg
  of straight ahead are left to ``forward``; a neighbour straight behind counts for both sides, so
  ``left``/``right`` also turn the agent around at a dead end or in the middle of a block.
* ``move`` with ``args={"node_id": "n123"}`` - walk to that adjacent node.

After every move the heading is the direction of the edge just walked. Bad input never raises: the
message says what went wrong and the state is unchanged.

``reset(config, seed)``: ``{"start": node_id, "heading": deg, "graph": "city" | "touchdown:<folder>"}``;
without ``start`` a node is drawn from ``seed``; without ``heading`` the agent faces its first neighbour.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import numpy as np

from ..base import EmbodiedWorld
from .city import City, load_city
from .geo import angle_diff, pick_neighbor

ACTIONS = ("forward", "left", "right", "move")


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


def relative_word(rel: float) -> str:
    a = abs(rel)
    side = "left" if rel < 0 else "right"
    if a <= 20:
        return "ahead"
    if a <= 60:
        return f"ahead-{side}"
    if a <= 120:
        return side
    if a <= 160:
        return f"behind-{side}"
    return "behind"


class StreetWorld(EmbodiedWorld):
    """A walker on a street graph (see module docstring)."""

    kind = "street"

    def __init__(self, city: City | None = None) -> None:
        self.city: City | None = city
        self.graph_spec = "city"
        self.node = ""
        self.heading = 0.0
        self.path: list[str] = []
        self.moves = 0
        self._static: dict[str, tuple[str, str]] = {}

    # ------------------------------------------------------------------ lifecycle
    def reset(self, config: dict[str, Any], seed: int) -> None:
        config = config or {}
        spec = config.get("graph") or "city"
        if self.city is None or spec != self.graph_spec:
            self.city = get_graph(spec)
            self.graph_spec = spec
            self._static = {}
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
        self.moves = 0

    def _require(self) -> City:
        if self.city is None or not self.node:
            raise RuntimeError("StreetWorld.reset() must be called first")
        return self.city

    # ------------------------------------------------------------------ acting
    def choose(self, action: str) -> tuple[str, float] | None:
        """The neighbour ``forward``/``left``/``right`` would walk to, with its heading (or ``None``)."""
        city = self._require()
        headings = {nb: h for nb, h, _d, _s in city.neighbors(self.node)}
        nb = pick_neighbor(action, self.heading, headings.items())
        return (nb, headings[nb]) if nb is not None else None

    def execute(self, name: str, args: dict[str, Any]) -> str:
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
            return (f"No street {where} from {self.node} (facing {city.compass(self.heading)}). "
                    "Try another direction or move [node_id].")
        self._go(pick[0], pick[1])
        return ""

    def _go(self, target: str, heading: float) -> None:
        self.node = target
        self.heading = heading % 360.0
        self.path.append(target)
        self.moves += 1

    # ------------------------------------------------------------------ observations
    def _static_text(self, node_id: str) -> tuple[str, str]:
        """(header, views) for a node: computed once, reused for every heading."""
        got = self._static.get(node_id)
        if got is not None:
            return got
        city = self._require()
        node = city.nodes[node_id]
        name = city.intersection_name(node_id)
        header = f"You are at {node_id}: {name} ({node.lat:.6f}, {node.lng:.6f})."
        from .render import view_contents

        contents = view_contents(city, node_id)
        lines = ["Views:"]
        for d, word in zip(("N", "E", "S", "W"), ("north", "east", "south", "west"), strict=True):
            c = contents[d]
            parts = []
            if c["streets"]:
                parts.append("street " + " / ".join(c["streets"]))
            if c["places"]:
                parts.append("places: " + ", ".join(f"{n} ({int(dist)} m)" for dist, n in c["places"][:5]))
            lines.append(f"- {word}: " + ("; ".join(parts) if parts else "buildings"))
        here = city.places_at(node_id)
        if here:
            lines.append("Here: " + ", ".join(p.name for p in here))
        got = (header, "\n".join(lines))
        if len(self._static) > 50000:
            self._static.clear()
        self._static[node_id] = got
        return got

    def text(self) -> str:
        city = self._require()
        header, views = self._static_text(self.node)
        h = self.heading
        lines = [header, f"Facing {city.compass(h)} (heading {h:.0f} deg).", "Neighbours:"]
        for nb, nh, dist, street in city.neighbors(self.node):
            rel = angle_diff(nh, h)
            lines.append(f"- {nb}: {relative_word(rel)} (heading {nh:.0f} deg, {int(round(rel)) + 0:+d} deg from you), "
                         f"{dist:.0f} m along {street or 'a street'}")
        if len(lines) == 3:
            lines.append("- none")
        lines.append(views)
        return "\n".join(lines)

    def image(self, size: tuple[int, int] = (512, 512)) -> np.ndarray:
        from .render import render_views

        city = self._require()
        return render_views(city, self.node, self.heading, size)

    def semantic_state(self) -> dict[str, Any]:
        city = self._require()
        node = city.nodes[self.node]
        return {"graph": self.graph_spec, "node": self.node, "heading": round(self.heading, 2),
                "lat": node.lat, "lng": node.lng, "intersection": city.intersection_name(self.node),
                "path": list(self.path), "visited": len(set(self.path)), "moves": self.moves,
                "places_here": [p.place_id for p in city.places_at(self.node)]}

    def admissible_actions(self) -> list[str]:
        city = self._require()
        out = [a for a in ("forward", "left", "right") if self.choose(a) is not None]
        out += [f"move [{nb}]" for nb, *_ in city.neighbors(self.node)]
        return out
