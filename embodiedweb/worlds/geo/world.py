"""GeoWorld: standing somewhere in the world, looking around and walking a few steps.

Each task's world is one *standpoint* of ``data/geo/standpoints.json``: a small street graph (the start
viewpoint and two or three more on each side along the same street, 40 m apart). A viewpoint has four
views (N/E/S/W) listing what can be seen there (road lines, cars and their plates, signs, bollards,
poles, plants, buildings, the sun). Viewpoint and standpoint ids are keyed hashes (``v3f9a...``): they
carry no place, and neither do their order or grouping.

Labels: each adjacent viewpoint gets its own relative-direction word (``ahead``, ``ahead-right``,
``right``, ``behind-right``, ``behind``, ``behind-left``, ``left``, ``ahead-left``) from the street
world's :func:`~embodiedweb.worlds.street.geo.neighbour_labels`, so no two neighbours share a label.

Actions are the street world's (kind ``"street"``), chosen by those labels
(:func:`~embodiedweb.worlds.street.geo.pick_by_labels`); every one that is not refused walks to an
adjacent viewpoint (none turns on the spot):

* ``forward`` - walk to the neighbour labelled ``ahead`` (else the ``ahead-left``/``ahead-right`` one
  nearest to straight ahead); an error when there is none (e.g. facing across the street);
* ``left`` / ``right`` - walk to the neighbour labelled ``left`` / ``right``; if there is none, to the one
  on that side (``ahead-left``, ``behind-left`` or ``behind`` for ``left``) nearest to 90 degrees that
  way, so facing along the street both walk back the way the agent came;
* ``move [node_id]`` - walk to that adjacent viewpoint.

After a move the heading is the direction of the edge walked. Unknown or non-adjacent ids, or a move
with no street in that direction, give a clear message and change nothing.

``text()`` describes the four views as a person sees them: sign text is quoted in its own characters,
and nothing names the country, city, language or script except what the signs themselves say; no sign
names the city (signs name streets, shops, brands, emblems, phone numbers and dishes).
``image(size)`` renders the four views (2 x 2: N, E / S, W) with Pillow. ``semantic_state()`` gives the
standpoint, node, heading, the nodes visited and the number of moves.

Settings: ``passive`` (the paper's passive setting: only the start's north view, moves refused) and
``static`` (all four views of the start, moves refused); both come from the constructor or from the
task's ``embodied`` config (``{"standpoint": "s0a1b2c3d4e", "passive": true}``).
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Any

import numpy as np

from embodiedweb.frozen import read_only
from embodiedweb.paths import data_dir
from embodiedweb.worlds.base import EmbodiedWorld
from embodiedweb.worlds.street.geo import angle_diff, neighbour_labels, pick_by_labels, relative_word
from embodiedweb.worlds.street.world import ACTION_SPECS, ACTION_TITLE, ACTIONS

HEADINGS = {"N": 0, "E": 90, "S": 180, "W": 270}
WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}


@lru_cache(maxsize=2)
def load_standpoints(path: str | None = None) -> dict[str, dict[str, Any]]:
    """Every standpoint by id: ``data/geo/standpoints.json`` and the hard tier's ``hard.standpoints.json``
    (ids of their own), or only the file at ``path``."""
    paths = [path] if path else [str(data_dir() / "geo" / "standpoints.json"),
                                 str(data_dir() / "geo" / "hard.standpoints.json")]
    out: dict[str, dict[str, Any]] = {}
    for p in paths:
        if path is None and p.endswith("hard.standpoints.json") and not os.path.exists(p):
            continue
        with open(p, encoding="utf-8") as f:
            raw = json.load(f)
        out.update((sp["id"], read_only(sp)) for sp in raw["standpoints"])  # tuples: the collector skips them
    return out


class GeoWorld(EmbodiedWorld):
    """See module docstring."""

    kind = "street"
    action_specs = ACTION_SPECS  # the street world's
    action_title = ACTION_TITLE

    def __init__(self, passive: bool = False, static: bool = False, path: str | None = None) -> None:
        self.default_passive = bool(passive)
        self.default_static = bool(static)
        self.path = path
        self.sp: dict[str, Any] | None = None
        self.node = ""
        self.heading = 0.0
        self.visited: list[str] = []
        self.moves = 0
        self.turns = 0
        self.passive = self.default_passive
        self.static = self.default_static

    # ------------------------------------------------------------------ lifecycle
    def reset(self, config: dict[str, Any], seed: int) -> None:
        """Load the configured standpoint (else one picked by ``seed``) and set the mode flags, start node and heading."""
        config = config or {}
        sps = load_standpoints(self.path)
        sid = config.get("standpoint")
        if sid is None:
            ids = sorted(sps)
            sid = ids[seed % len(ids)]
        if sid not in sps:
            raise ValueError(f"unknown standpoint {sid!r} (there are {len(sps)}, e.g. {next(iter(sps))})")
        self.sp = sps[sid]
        self.passive = bool(config.get("passive", self.default_passive))
        self.static = bool(config.get("static", self.default_static)) or self.passive
        self.node = self.sp["start"]
        self.heading = float(config.get("heading", self.sp.get("heading", 0))) % 360.0
        self.visited = [self.node]
        self.moves = 0
        self.turns = 0

    def _require(self) -> dict[str, Any]:
        if self.sp is None:
            raise RuntimeError("GeoWorld.reset() must be called first")
        return self.sp

    def neighbors(self, node: str | None = None) -> list[tuple[str, str]]:
        """(node id, compass letter) of the viewpoints adjacent to ``node``."""
        sp = self._require()
        nbs = sp["nodes"][node or self.node]["neighbors"]
        return sorted(((nb, h) for h, nb in nbs.items()), key=lambda t: HEADINGS[t[1]])

    def _options(self, node: str | None = None) -> list[tuple[str, float]]:
        return [(nb, float(HEADINGS[h])) for nb, h in self.neighbors(node)]

    def labels(self, node: str | None = None, heading: float | None = None) -> dict[str, str]:
        """``{neighbour id: label}`` at ``node`` for a walker facing ``heading`` (default: here, now): the
        street world's labels, one distinct word per neighbour."""
        h = self.heading if heading is None else heading
        return neighbour_labels(h, self._options(node))

    # ------------------------------------------------------------------ acting
    def choose(self, action: str) -> tuple[str, str] | None:
        """``(neighbour, compass letter)`` a ``forward``/``left``/``right`` action leads to, or ``None``."""
        letters = dict(self.neighbors())
        opts = self._options()
        nb = pick_by_labels(action, self.heading, opts, neighbour_labels(self.heading, opts))
        return (nb, letters[nb]) if nb is not None else None

    def execute(self, name: str, args: dict[str, Any]) -> str:
        """Geo override: turn or move between viewpoints (refused when passive or static) and return the feedback."""
        try:
            self._require()
        except RuntimeError as e:
            return str(e)
        if name not in ACTIONS:
            return f"Invalid street action: {str(name)[:40]!r}. Use forward, left, right or move [node_id]."
        if self.passive:
            return "You cannot move or turn in this setting: you can only look north from where you stand."
        if self.static:
            return "You cannot move or turn in this setting: look at the four views from where you stand."
        labels = self.labels()
        adj = ", ".join(f"{nb} ({WORDS[h]}, {labels[nb]})" for nb, h in self.neighbors()) or "none"
        if name == "move":
            target = str((args or {}).get("node_id", "") or "").strip()
            if not target:
                return f"move needs a viewpoint id, e.g. move [{self.neighbors()[0][0]}]; adjacent: {adj}."
            if target not in self._require()["nodes"]:
                return f"Unknown viewpoint {target[:40]!r}: choose one of the adjacent viewpoints: {adj}."
            hit = [h for nb, h in self.neighbors() if nb == target]
            if not hit:
                if target == self.node:
                    return f"You are already at {target}; adjacent viewpoints: {adj}."
                return f"{target} is not adjacent to {self.node}; adjacent viewpoints: {adj}."
            self._go(target, hit[0])
            return ""
        pick = self.choose(name)
        if pick is None:
            where = "ahead" if name == "forward" else f"to the {name}"
            return (f"No viewpoint {where} from {self.node} (facing {WORDS[self._compass()]}). "
                    f"Adjacent viewpoints: {adj}. left/right walk to the viewpoint labelled left/right, or else to the "
                    "one on that side or behind; move [node_id] walks to any adjacent one.")
        self._go(*pick)
        return ""

    def _go(self, target: str, h: str) -> None:
        if float(HEADINGS[h]) != self.heading:
            self.turns += 1
        self.node = target
        self.heading = float(HEADINGS[h])
        self.visited.append(target)
        self.moves += 1

    def _compass(self) -> str:
        return min(HEADINGS, key=lambda k: abs(angle_diff(HEADINGS[k], self.heading)))

    # ------------------------------------------------------------------ observations
    def views(self, node: str | None = None) -> dict[str, list[dict[str, Any]]]:
        """The items seen in each direction at ``node`` (all four, or only N in the passive setting)."""
        sp = self._require()
        v = sp["nodes"][node or self.node]["views"]
        return {"N": v["N"]} if self.passive else {h: v[h] for h in "NESW"}

    @staticmethod
    def describe(items: list[dict[str, Any]]) -> str:
        """The ``say`` texts of the items joined, or "Nothing in particular." if none."""
        return " ".join(it["say"] for it in items) if items else "Nothing in particular."

    def text(self) -> str:
        """Describe the viewpoint, the facing, the mode limits and what is seen around."""
        sp = self._require()
        facing = self._compass()
        lines = [f"You are at viewpoint {self.node}, facing {WORDS[facing]}."]
        if self.passive:
            lines.append("You can only look north from here; you cannot move or turn.")
        elif self.static:
            lines.append("You can look around but cannot move in this setting.")
        else:
            labels = self.labels()
            nbs = [f"{nb} ({WORDS[h]}, {labels[nb]}, about 40 m)" for nb, h in self.neighbors()]
            lines.append("Adjacent viewpoints: " + (", ".join(nbs) if nbs else "none") + ".")
        for h, items in self.views().items():
            rel = relative_word(angle_diff(HEADINGS[h], self.heading))
            lines.append(f"Looking {WORDS[h]} ({rel}): {self.describe(items)}")
        del sp
        return "\n".join(lines)

    def image(self, size: tuple[int, int] = (512, 512)) -> np.ndarray:
        """The rendered views at this viewpoint for the current facing."""
        from embodiedweb.worlds.geo.render import render_views

        self._require()
        return render_views(self.views(), self._compass(), size, seed=self.node)

    def semantic_state(self) -> dict[str, Any]:
        """Standpoint, node, heading, coordinates, visits, move/turn counts and mode flags."""
        sp = self._require()
        node = sp["nodes"][self.node]
        return {"standpoint": sp["id"], "node": self.node, "heading": round(self.heading, 2),
                "lat": node["lat"], "lng": node["lng"], "start": sp["start"], "visited": list(self.visited),
                "n_visited": len(set(self.visited)), "moves": self.moves, "turns": self.turns,
                "passive": self.passive, "static": self.static}

    def admissible_actions(self) -> list[str]:
        """Turns that lead somewhere plus ``move [node]`` per neighbour; none when static."""
        if self.sp is None or self.static:
            return []
        out = [a for a in ("forward", "left", "right") if self.choose(a) is not None]
        out += [f"move [{nb}]" for nb, _ in self.neighbors()]
        return out
