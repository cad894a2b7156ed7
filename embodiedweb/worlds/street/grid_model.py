"""The project's own description of Manhattan's street grid; writes ``data/city/streets.json``.

Everything here is written from general knowledge of the 1811 Commissioners' Plan and of the streets as
they are today (no external data set is read):

* the grid is rotated so that the avenues run ``GRID_BEARING`` degrees east of true north ("Manhattan
  north", uptown);
* numbered streets are 60 ft wide with 200 ft blocks between them; the wide crosstown streets (14th,
  23rd, 34th, 42nd, 57th, 59th) are 100 ft wide, so street centre lines are 260 ft apart, 280 ft next to a
  wide street;
* the avenues' centre-line offsets east of Fifth Avenue are listed in ``AVENUES`` (long blocks of about
  800 ft on the West Side, 920 ft between 5th and 6th, the short blocks of Madison, Park and Lexington);
* Broadway cuts the grid diagonally through Columbus Circle (8th Ave, 59th St), Times Square (crosses
  7th Ave at 45th/46th St), Herald Square (6th Ave at 34th/35th St), Madison Square (5th Ave at 23rd St)
  and Union Square (17th-14th St);
* streets are interrupted where blocks are built over (Union Square, Madison Square Park, Bryant Park,
  Grand Central, Penn Station and Madison Square Garden, the Port Authority Bus Terminal, the Hudson Yards
  and the Javits Center).

Coordinates were checked against the real-street fit measurement (``tests/worlds/street/test_city_fit.py``)
and a few hand-set constants (anchor, avenue offsets, Broadway's waypoints) corrected by hand.

Run ``python -m embodiedweb.worlds.street.grid_model`` to rewrite the data file.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from .geo import M_PER_DEG_LAT, M_PER_DEG_LNG

FT = 0.3048
GRID_BEARING = 29.0  # avenues' uptown direction, degrees east of true north
ANCHOR = (40.75349, -73.98089)  # centre of the intersection 5th Ave & 42nd St
WIDE_STREETS = {14, 23, 34, 42, 57, 59}
# centre-to-centre distance of two ordinary streets (200 ft block + 60 ft street), as surveyed: the
# blocks run a little short south of 42nd St and a little long north of it
BLOCK_FT_SOUTH = 257.5
BLOCK_FT_NORTH = 260.7
FIRST_STREET, LAST_STREET = 14, 59

# avenue -> centre-line offset east of 5th Ave (m), first and last street it runs between
AVENUES: dict[str, tuple[float, float, float]] = {
    "11th Ave": (-1683.0, 22, 59),
    "10th Ave": (-1408.0, 14, 59),
    "9th Ave": (-1136.0, 14, 59),
    "8th Ave": (-859.0, 14, 59),
    "7th Ave": (-585.0, 14, 59),
    "6th Ave": (-311.0, 14, 59),
    "5th Ave": (0.0, 14, 59),
    "Madison Ave": (155.0, 23, 59),
    "Park Ave": (308.0, 32, 59),
    "Lexington Ave": (467.0, 21, 59),
    "3rd Ave": (622.0, 14, 59),
    "2nd Ave": (838.0, 14, 59),
    "1st Ave": (1068.0, 14, 59),
}
# avenues that change name along one centre line: (name, from street, to street)
AVENUE_PARTS: dict[str, list[tuple[str, float, float]]] = {
    "Park Ave": [("Union Sq E", 14, 17), ("Park Ave S", 17, 32), ("Park Ave", 32, 40), ("Park Ave", 46, 59)],
    "Lexington Ave": [("Irving Pl", 14, 20), ("Lexington Ave", 21, 59)],
}
# Broadway's waypoints in grid terms (street number, offset east of 5th Ave in m) from Columbus Circle to
# Union Square: it crosses 7th Ave near 45th St, 6th Ave at 34th/35th St, 5th Ave at 24th/25th St (Madison
# Square, the Flatiron Building sits between the two at 22nd-23rd St) and runs along Union Square West.
BROADWAY_GRID = [(59.0, -859.0), (55.0, -707.0), (48.0, -651.0), (46.0, -612.0), (42.0, -534.0), (38.0, -445.0),
                 (34.0, -330.0), (25.0, -48.0), (24.0, 15.0), (23.0, 45.0), (18.0, 164.0), (14.0, 195.0)]

# street number -> list of (from, to) avenues between which the street is absent ("" = its west end)
GAPS: dict[int, list[tuple[str, str]]] = {
    15: [("Broadway", "Park Ave")], 16: [("Broadway", "Park Ave")],  # Union Square
    24: [("5th Ave", "Madison Ave")], 25: [("5th Ave", "Madison Ave")],  # Madison Square Park
    31: [("", "10th Ave")],  # Hudson Yards
    32: [("", "7th Ave")],  # Hudson Yards, rail yards, Farley Building, Penn Station / Madison Square Garden
    33: [("", "10th Ave")],
    41: [("6th Ave", "5th Ave"), ("9th Ave", "8th Ave")],  # Bryant Park, Port Authority Bus Terminal
    43: [("Madison Ave", "Lexington Ave")], 44: [("Madison Ave", "Lexington Ave")],  # Grand Central Terminal
}


def avenue_t(name: str, n: float) -> float:
    """Offset east of 5th Ave (m) of avenue ``name`` (or Broadway) at street ``n``."""
    if name == "Broadway":
        pts = sorted(BROADWAY_GRID)
        for (n0, t0), (n1, t1) in zip(pts, pts[1:], strict=False):
            if n0 <= n <= n1:
                return t0 + (t1 - t0) * (n - n0) / (n1 - n0) if n1 > n0 else t0
        return pts[0][1] if n < pts[0][0] else pts[-1][1]
    return AVENUES[name][0]


def street_s(n: float) -> float:
    """Distance (m) along the avenues from 42nd St's centre line to street ``n`` (fractions interpolate)."""

    def gap(k: int) -> float:  # centre-to-centre distance between street k and k+1 in feet
        base = BLOCK_FT_SOUTH if k < 42 else BLOCK_FT_NORTH
        return base + 20.0 * (k in WIDE_STREETS) + 20.0 * (k + 1 in WIDE_STREETS)

    lo = math.floor(n)
    s = 0.0
    if lo >= 42:
        for k in range(42, lo):
            s += gap(k)
    else:
        for k in range(lo, 42):
            s -= gap(k)
    s += (n - lo) * gap(lo)
    return s * FT


def grid_point(n: float, t: float) -> tuple[float, float]:
    """lat/lng of the point on street ``n`` at ``t`` metres east of 5th Ave."""
    b = math.radians(GRID_BEARING)
    s = street_s(n)
    ux, uy = math.sin(b), math.cos(b)  # uptown unit vector (east, north)
    ex, ey = math.cos(b), -math.sin(b)  # east-side unit vector
    x, y = s * ux + t * ex, s * uy + t * ey
    return round(ANCHOR[0] + y / M_PER_DEG_LAT, 6), round(ANCHOR[1] + x / M_PER_DEG_LNG, 6)


def ordinal(n: int) -> str:
    """``n`` with its English ordinal suffix (``1st``, ``12th``, ``23rd``)."""
    suf = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suf}"


def _avenue_span(n: int) -> tuple[float, float]:
    """West and east ends of street ``n`` (offsets east of 5th Ave)."""
    west = [t for t, a, b in AVENUES.values() if a <= n <= b]
    return min(west), AVENUES["1st Ave"][0]


def build_streets() -> list[dict]:
    """Every street of the model (avenues, streets, Broadway) as ``{name, kind, district, points}`` records."""
    out: list[dict] = []
    for name, (t, a, b) in AVENUES.items():
        for part, pa, pb in AVENUE_PARTS.get(name, [(name, a, b)]):
            out.append({"name": part, "kind": "avenue", "district": "midtown",
                        "points": [list(grid_point(pa, t)), list(grid_point(pb, t))]})
    out.append({"name": "Broadway", "kind": "broadway", "district": "midtown",
                "points": [list(grid_point(n, t)) for n, t in BROADWAY_GRID]})
    for n in range(FIRST_STREET, LAST_STREET + 1):
        west, east = _avenue_span(n)
        cuts = sorted(tuple(sorted((west if a == "" else avenue_t(a, n), avenue_t(b, n)))) for a, b in GAPS.get(n, []))
        ranges: list[tuple[float, float]] = []
        cur = west
        for g0, g1 in cuts:
            if g0 > cur:
                ranges.append((cur, g0))
            cur = max(cur, g1)
        ranges.append((cur, east))
        for lo, hi in ranges:
            for side, s0, s1 in (("W", lo, min(hi, 0.0)), ("E", max(lo, 0.0), hi)):
                if s1 - s0 < 1.0:
                    continue
                # streets are listed from east to west, as their house numbers grow away from 5th Ave
                a, b = (s0, s1) if side == "E" else (s1, s0)
                out.append({"name": f"{side} {ordinal(n)} St", "kind": "street", "district": "midtown",
                            "points": [list(grid_point(n, a)), list(grid_point(n, b))]})
    return out


def write(path: Path | None = None) -> Path:
    """Write the streets file (default ``data/city/streets.json``); returns its path."""
    from embodiedweb.paths import data_dir

    path = path or data_dir() / "city" / "streets.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"description": "Manhattan streets written by the embodiedweb project (see grid_model.py); "
                          "points are [lat, lng] (WGS84) along each street's centre line.",
           "grid_bearing_deg": GRID_BEARING, "streets": build_streets()}
    lines = ['{', f'  "description": {json.dumps(doc["description"])},',
             f'  "grid_bearing_deg": {GRID_BEARING},', '  "streets": [']
    for i, s in enumerate(doc["streets"]):
        lines.append("    " + json.dumps(s) + ("," if i < len(doc["streets"]) - 1 else ""))
    lines += ["  ]", "}"]
    path.write_text("\n".join(lines) + "\n")
    return path


if __name__ == "__main__":
    print(write())
