"""The reference tables under ``data/tables/`` (places, countries, cities, cue texts, wiki texts).

They are written by hand (the project's own data, see each file's ``about``) and read by the generators in
:mod:`embodiedweb.data_gen`; the few runtime parts that need reference data (the geolocation oracle's
perturbed answers, the geolocation checker's regions) read it here, never from a generator module. JSON
keeps key order, floats round-trip exactly and text is UTF-8, so a generator reading a table writes the
same bytes as one holding it inline.
"""

from __future__ import annotations

import json
from typing import Any

from embodiedweb.paths import data_dir


def load_table(name: str) -> dict[str, Any]:
    """``data/tables/<name>.json`` as a dict (a fresh copy on every call: callers may change it)."""
    path = data_dir() / "tables" / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def geo_countries() -> dict[str, dict[str, Any]]:
    """Country code -> the country's row (name, continent, capital, ``capital_ll`` ...), in table order."""
    return {c["code"]: c for c in load_table("geo_countries")["countries"]}


def geo_cities() -> dict[str, list[list[Any]]]:
    """Country code -> its cities as ``[name, lat, lng, local name, other names]``."""
    return load_table("geo_places")["cities"]


def geo_regions() -> dict[str, list[list[Any]]]:
    """Country code -> its first-level regions (state, province, canton, prefecture, ...) that hold a city of
    :func:`geo_cities`, each as ``[name, other names, the cities in it]`` (a city may sit in two: Cebu City in
    Central Visayas and in Cebu province). The geolocation checker reads them: a city's own region named
    beside it is not a second city."""
    return load_table("geo_places").get("regions", {})
