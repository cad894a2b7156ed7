"""Small geodesy helpers: a local metric projection, distances and bearings (degrees from north)."""

from __future__ import annotations

import math
from collections.abc import Iterable

LAT0 = 40.75  # reference latitude of the local projection (midtown Manhattan)
LNG0 = -73.98
# metres per degree at LAT0 (WGS84 ellipsoid series)
M_PER_DEG_LAT = 111132.95 - 559.82 * math.cos(2 * math.radians(LAT0)) + 1.175 * math.cos(4 * math.radians(LAT0))
M_PER_DEG_LNG = (111412.84 * math.cos(math.radians(LAT0)) - 93.5 * math.cos(3 * math.radians(LAT0))
                 + 0.118 * math.cos(5 * math.radians(LAT0)))


def to_xy(lat: float, lng: float) -> tuple[float, float]:
    """Local east/north metres from (LAT0, LNG0); accurate to well under 1 % across Manhattan."""
    return (lng - LNG0) * M_PER_DEG_LNG, (lat - LAT0) * M_PER_DEG_LAT


def to_latlng(x: float, y: float) -> tuple[float, float]:
    return LAT0 + y / M_PER_DEG_LAT, LNG0 + x / M_PER_DEG_LNG


def haversine_m(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Great-circle distance in metres (mean Earth radius)."""
    r = 6371008.8
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(min(1.0, math.sqrt(a)))


def haversine_km(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Great-circle distance in kilometres."""
    return haversine_m(lat1, lng1, lat2, lng2) / 1000.0


def bearing_deg(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Initial great-circle bearing from point 1 to point 2, degrees clockwise from north in [0, 360)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians(lng2 - lng1)
    y = math.sin(dl) * math.cos(p2)
    x = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return math.degrees(math.atan2(y, x)) % 360.0


def angle_diff(a: float, b: float) -> float:
    """Signed smallest difference ``a - b`` in (-180, 180]."""
    d = (a - b) % 360.0
    return d - 360.0 if d > 180.0 else d


AHEAD_DEG = 15.0  # left/right ignore neighbours this close to straight ahead


def pick_neighbor(action: str, heading: float, options: Iterable[tuple[str, float]]) -> str | None:
    """The neighbour ``forward``/``left``/``right`` walks to (as in the paper: the one whose heading is
    closest to that direction relative to ``heading``), from ``(node id, absolute heading)`` pairs."""
    best: tuple[float, str] | None = None
    for nb, h in options:
        rel = angle_diff(h, heading)
        if action == "forward":
            if abs(rel) >= 90.0:
                continue
            cost = abs(rel)
        else:
            if abs(rel) < AHEAD_DEG:
                continue
            cost = abs(angle_diff(rel, -90.0 if action == "left" else 90.0))
            if cost > 90.0 + 1e-9:
                continue
        if best is None or (cost, nb) < best:
            best = (cost, nb)
    return best[1] if best else None


COMPASS8 = ("north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest")
COMPASS4 = ("north", "east", "south", "west")


def compass8(heading: float) -> str:
    return COMPASS8[int(((heading % 360) + 22.5) // 45) % 8]


def compass4(heading: float) -> str:
    return COMPASS4[int(((heading % 360) + 45) // 90) % 4]
