"""Approximate house-number geocoding for Manhattan (the classic Manhattan address rules).

On an avenue, the cross street is about ``house_number / 20 + key`` (drop the last digit, halve, add the
avenue's key); on a numbered street, numbers start at 5th Ave and grow by 100 per long block west
(6th Ave 100, 7th Ave 200, ...) and east (Madison 50, Park 100, Lexington 140, 3rd Ave 200, 2nd Ave 300,
1st Ave 400). Positions between two known points are interpolated. Accuracy is a block or so: enough to
find the right stretch of street, not the exact door.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .city import City

# avenue (normalised) -> list of (first number, last number, key); cross street = number / 20 + key
AVENUE_KEYS: dict[str, list[tuple[int, int, float]]] = {
    "1st ave": [(1, 99999, 3)], "2nd ave": [(1, 99999, 3)], "3rd ave": [(1, 99999, 10)],
    "lexington ave": [(1, 99999, 22)], "park ave": [(1, 99999, 35)], "park ave s": [(1, 99999, 8)],
    "madison ave": [(1, 99999, 26)],
    "5th ave": [(1, 200, 13), (201, 400, 16), (401, 600, 18), (601, 775, 20)],
    "6th ave": [(1, 99999, -12)], "7th ave": [(1, 99999, 12)], "8th ave": [(1, 99999, 10)],
    "9th ave": [(1, 99999, 13)], "10th ave": [(1, 99999, 14)], "11th ave": [(1, 99999, 15)],
    "broadway": [(754, 858, -29), (859, 999, -25), (1000, 1999, -31)],
}
# house number at each avenue crossing of a numbered street, west and east of 5th Ave
WEST_NUMBERS = [(0, "5th ave"), (100, "6th ave"), (200, "7th ave"), (300, "8th ave"), (400, "9th ave"),
                (500, "10th ave"), (600, "11th ave"), (700, "12th ave")]
EAST_NUMBERS = [(0, "5th ave"), (50, "madison ave"), (100, "park ave"), (140, "lexington ave"), (200, "3rd ave"),
                (300, "2nd ave"), (400, "1st ave"), (500, "york ave")]


def ordinal(n: int) -> str:
    """1 -> "1st", 12 -> "12th", 42 -> "42nd"."""
    suf = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suf}"


def street_key(norm: str) -> str:
    """Name without the E/W prefix ("w 42nd st" -> "42nd st")."""
    return re.sub(r"^[ew] ", "", norm)


def _lerp(a: tuple[float, float], b: tuple[float, float], f: float) -> tuple[float, float]:
    return a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f


def _ll(city: City, nid: str | None) -> tuple[float, float] | None:
    if nid is None:
        return None
    n = city.nodes[nid]
    return n.lat, n.lng


def geocode_number(city: City, number: int, street: str) -> tuple[float, float] | None:
    """lat/lng of house ``number`` on normalised ``street``, or ``None`` when the rules do not cover it."""
    if street in AVENUE_KEYS:
        key = next((k for lo, hi, k in AVENUE_KEYS[street] if lo <= number <= hi), None)
        if key is None:
            return None
        cross = (number // 10) / 2 + key
        n0 = int(cross)
        pts = []
        for n in (n0, n0 + 1):
            ll = _ll(city, city.intersection_node(street, f"{ordinal(n)} st")) if n > 0 else None
            pts.append(ll)
        if pts[0] and pts[1]:
            return _lerp(pts[0], pts[1], cross - n0)
        return pts[0] or pts[1]
    import re

    m = re.fullmatch(r"([ew]) (\d+(?:st|nd|rd|th) st)", street)
    if not m:
        return None
    table = WEST_NUMBERS if m.group(1) == "w" else EAST_NUMBERS
    known = []
    for num, ave in table:
        ll = _ll(city, city.intersection_node(ave, street) or city.intersection_node(ave, street_key(street)))
        if ll is not None:
            known.append((num, ll))
    if not known:
        return None
    if number <= known[0][0]:
        return known[0][1]
    for (n0, a), (n1, b) in zip(known, known[1:], strict=False):
        if n0 <= number <= n1:
            return _lerp(a, b, (number - n0) / max(1, n1 - n0))
    return known[-1][1]
