"""The places of the geolocation suite, written for this project: cities and the streets to stand on.

The rows are in ``data/tables/geo_places.json`` (``cities``, ``city_shop``, ``spots``); this module reads them.

``CITIES`` lists, per country code, the cities the wiki describes: every city with a standpoint, the
capital, and more cities of the same country that have no standpoint (so that no list on the wiki is
the set of answers). Each row is ``(name, lat, lng, local name, other names)``: the centre of the city
to about a kilometre, its name as written locally (``"script|transliteration"``, or ``""`` when it is
the same as ``name``) and the other names an answer may use (exonyms and older spellings such as
Lyons, Peking, Marseilles). The names of a city are unique in the table (no two cities share one).

``SPOTS`` lists the standpoints: ``(country code, city, street, street as signed locally, lat, lng,
street axis "NS"/"EW", overrides)``. The city must be a row of ``CITIES`` of that country. Overrides
change the country's defaults for one place (``shop`` words, ``plates``, ``continent``, ``continent_alt``,
``hotel``) and say what the street itself looks like where it differs from the country's typical street
(:func:`embodiedweb.data_gen.geo.scene_of`):

- ``pedestrian``: ``True`` for a pedestrian street (no cars, so no plates and no traffic side, no road
  lines, no roadside posts), or what still runs along it (``"trams"``, ``"buses"``);
- ``arch``: the building types along this street (keys of ``geo.ARCH``), e.g. Georgian stone terraces
  on Bristol's Park Street, art deco on Hollywood Boulevard, low modern buildings in Kisumu;
- ``veg``: its plants (``["none"]`` for a street without trees); ``pole``: its posts (``"plain"`` where
  cables run underground, as on the main streets of Japanese city centres); ``centre``, ``edge``,
  ``bollard``: its road lines and roadside posts (``None`` for none).

Every standpoint was reviewed against the real street; pedestrian streets are marked only where the
stretch at the standpoint is closed to cars.
"""

from __future__ import annotations

from typing import Any

from embodiedweb.tables import load_table

City = tuple[str, float, float, str, list[str]]


def words_as_tuples(row: dict[str, Any]) -> dict[str, Any]:
    """A country row or a standpoint's overrides with its word rows (``shop``, ``street_words``) and ``hotel``
    as tuples, as the generators hold them (JSON has lists only)."""
    out = dict(row)
    for key in ("shop", "street_words"):
        if key in out:
            out[key] = [tuple(w) for w in out[key]]
    if "hotel" in out:
        out["hotel"] = tuple(out["hotel"])
    return out

_TABLE = load_table("geo_places")
CITIES: dict[str, list[City]] = {code: [tuple(row) for row in rows]  # type: ignore[misc]
                                 for code, rows in _TABLE["cities"].items()}

#: shop words of cities whose signs are in another of the country's languages than the country's word list
#: mixes (``(code, city) -> [(word, transliteration, meaning)]``): shop signs and local chains use these, so
#: a French word never points a Zurich street towards Geneva, nor a Quebec word a Toronto one
CITY_SHOP: dict[tuple[str, str], list[tuple[str, str, str]]] = {
    (code, city): [tuple(w) for w in words] for code, city, words in _TABLE["city_shop"]}  # type: ignore[misc]

# Standpoints: (country code, city, street, street as signed locally, lat, lng, street axis, overrides)
SPOTS: list[tuple[Any, ...]] = [(*row[:7], words_as_tuples(row[7])) for row in _TABLE["spots"]]
