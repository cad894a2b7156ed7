"""Generate ``data/places/places.json``: real places in Manhattan with facts for the wiki.

Run ``python -m embodiedweb.data_gen.places``. The places are in ``data/tables/places.json``, written
by the project from general knowledge (no external data set is read); the output is deterministic
(places sorted by id, sorted keys).

Every place has ``place_id``, ``name``, ``category``, ``lat``/``lng`` (WGS84, to about 50 m),
``address``, ``cross_streets``, ``neighborhood`` and where known ``year_built`` (completion or
dedication), ``opened``, ``architect``, ``architectural_style``, ``height_m``, ``floors``,
``opening_hours`` (illustrative, not authoritative), ``notable_facts`` (short true statements),
``history`` (one or two sentences) and ``related`` (ids of related places or wiki topics). Fields that
are not known with confidence are left out rather than guessed. The four shop stores
(``data/shop/stores.json``) are included as category ``store`` with the same coordinates.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from embodiedweb.paths import data_dir
from embodiedweb.tables import load_table

CATEGORIES = ("landmark", "skyscraper", "museum", "theater", "venue", "station", "park", "square", "church",
              "library", "hotel", "market", "retail", "university", "memorial", "civic", "bridge", "store")

NEIGHBORHOODS = ("Midtown", "Midtown East", "Midtown South", "Theater District", "Hell's Kitchen",
                 "Garment District", "Koreatown", "Murray Hill", "Turtle Bay", "Hudson Yards", "Chelsea",
                 "Flatiron District", "NoMad", "Gramercy Park", "Union Square", "Greenwich Village",
                 "West Village", "Meatpacking District", "East Village", "NoHo", "SoHo", "Little Italy",
                 "Lower East Side", "Civic Center", "Financial District", "Battery Park City", "Central Park")


def P(place_id: str, name: str, category: str, lat: float, lng: float, address: str, cross: str, hood: str,
      **kw: Any) -> dict[str, Any]:
    """One place; keyword names map to the JSON fields (``year`` -> ``year_built``, ``style`` ...)."""
    rename = {"year": "year_built", "style": "architectural_style", "hours": "opening_hours",
              "facts": "notable_facts"}
    out: dict[str, Any] = {"place_id": place_id, "name": name, "category": category, "lat": lat, "lng": lng,
                           "address": address, "cross_streets": cross, "neighborhood": hood}
    for k, v in kw.items():
        out[rename.get(k, k)] = v
    out.setdefault("related", [])
    out.setdefault("notable_facts", [])
    return out


_TABLE = load_table("places")
#: the places (``data/tables/places.json``: one a line, fields as in the output)
PLACES: list[dict[str, Any]] = _TABLE["places"]
# Stores of the shop site (``data/shop/stores.json``); used when that file is absent. Coordinates match.
FALLBACK_STORES: list[dict[str, Any]] = _TABLE["fallback_stores"]
STORE_CROSS: dict[str, str] = _TABLE["store_cross"]


def _days(hours: dict[str, str]) -> str:
    order = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
    names = {"mon": "Mon", "tue": "Tue", "wed": "Wed", "thu": "Thu", "fri": "Fri", "sat": "Sat", "sun": "Sun"}
    groups: list[list[str]] = []
    for d in order:
        if groups and hours.get(groups[-1][-1]) == hours.get(d):
            groups[-1].append(d)
        else:
            groups.append([d])
    parts = []
    for g in groups:
        span = names[g[0]] if len(g) == 1 else f"{names[g[0]]}-{names[g[-1]]}"
        h = hours.get(g[0], "closed")
        parts.append(f"{span} {h}" if h != "closed" else f"{span} closed")
    return "; ".join(parts)


def store_places(stores: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The shop's stores as places (category ``store``), from ``data/shop/stores.json`` when present."""
    if stores is None:
        path = data_dir() / "shop" / "stores.json"
        stores = json.loads(path.read_text(encoding="utf-8")) if path.exists() else FALLBACK_STORES
    out = []
    for s in stores:
        sid = s["store_id"]
        p = P(f"{sid}-store", s["name"], "store", s["lat"], s["lng"], s["address"], STORE_CROSS.get(sid, ""),
              s.get("neighborhood", ""), store_id=sid,
              facts=[f"It is one of the four grocery stores of the local shop website, with the store id {sid}."],
              related=[])
        if s.get("hours"):
            p["opening_hours"] = _days(s["hours"])
        out.append(p)
    return out


def build() -> list[dict[str, Any]]:
    places = [dict(p) for p in PLACES] + store_places()
    ids = [p["place_id"] for p in places]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise ValueError(f"duplicate place ids: {sorted(dup)}")
    for p in places:
        if p["category"] not in CATEGORIES:
            raise ValueError(f"{p['place_id']}: unknown category {p['category']!r}")
    return sorted(places, key=lambda p: p["place_id"])


def write(path: Path | None = None) -> Path:
    path = path or data_dir() / "places" / "places.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    places = build()
    lines = ["["]
    for i, p in enumerate(places):
        lines.append("  " + json.dumps(p, sort_keys=True, ensure_ascii=False) + ("," if i < len(places) - 1 else ""))
    lines.append("]")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    print(write())
