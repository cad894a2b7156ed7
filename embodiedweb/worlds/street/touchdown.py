"""Load a Touchdown-format panorama graph into a :class:`~embodiedweb.worlds.street.city.City`.

Files (plain or ``.gz``): ``nodes.txt`` with ``panoid,pano_yaw_angle,lat,lng`` and ``links.txt`` with
``start_panoid,heading,end_panoid`` (directed links; the graph is used undirected, keeping the recorded
heading of each direction that has one). Node ids are the panorama ids; street names are not part of the
format, so every edge is named ``""`` and :meth:`City.intersection_name` falls back to the node id.
"""

from __future__ import annotations

import gzip
from pathlib import Path

from .city import City, Node
from .geo import haversine_m


def _open(path: Path):
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def _find(folder: Path, stem: str) -> Path:
    for name in (f"{stem}.txt", f"{stem}.txt.gz"):
        if (folder / name).is_file():
            return folder / name
    raise FileNotFoundError(f"no {stem}.txt or {stem}.txt.gz in {folder}")


def load_touchdown(folder: str | Path, compass_offset: float = 0.0) -> City:
    """Read ``nodes.txt[.gz]`` and ``links.txt[.gz]`` from ``folder`` (bad lines are skipped)."""
    folder = Path(folder)
    nodes: dict[str, Node] = {}
    yaw: dict[str, float] = {}
    with _open(_find(folder, "nodes")) as f:
        for line in f:
            parts = line.strip().split(",")
            if len(parts) < 4:
                continue
            try:
                pid, y, lat, lng = parts[0], float(parts[1]), float(parts[2]), float(parts[3])
            except ValueError:
                continue
            nodes[pid] = Node(pid, lat, lng, ())
            yaw[pid] = y
    edges: list[tuple[str, str, float, str]] = []
    headings: dict[tuple[str, str], float] = {}
    with _open(_find(folder, "links")) as f:
        for line in f:
            parts = line.strip().split(",")
            if len(parts) < 3:
                continue
            a, h, b = parts[0], parts[1], parts[2]
            if a not in nodes or b not in nodes or a == b:
                continue
            try:
                headings[(a, b)] = float(h) % 360.0
            except ValueError:
                pass
            na, nb = nodes[a], nodes[b]
            edges.append((a, b, haversine_m(na.lat, na.lng, nb.lat, nb.lng), ""))
    city = City(nodes, edges, name=f"touchdown:{folder}", compass_offset=compass_offset, headings=headings)
    city.pano_yaw = yaw  # type: ignore[attr-defined]
    return city
