"""Answer parsing and scoring for EWA-Geolocation-v0.

Answer grammar (the argument of ``stop``)::

    stop [lat, lng; continent; country; city; street]
    e.g. stop [52.5170, 13.3889; Europe; Germany; Berlin; Friedrichstraße]

Parsing is lenient:

* parts are separated by ``;`` (when there is no ``;`` at all, by ``,`` or ``|``); surrounding spaces,
  brackets and quotes are ignored; case and accents do not matter (``Zurich`` = ``Zürich``, ß = ss);
* the coordinates come first as ``lat, lng`` in decimal degrees (``N``/``S``/``E``/``W`` suffixes and a
  ``°`` are accepted); they may be left out (``stop [; Europe; Germany; Berlin; ]`` or
  ``stop [Europe; Germany; Berlin]``);
* with fewer than four named parts, parts that name a continent or a known country are recognised as
  such wherever they stand, and the rest are read as city then street;
* country aliases are accepted (``USA``, ``United States of America``, ``UK``, ``Czechia``, ...), and
  street names match when their distinctive words match (``Friedrichstrasse``, ``Nevsky Prospekt`` vs
  ``Nevsky``, ``St`` vs ``Street``); a street may also be given as written on its sign.

An answer that yields nothing (empty, or no part recognisable) is scored 0 everywhere and the reason is
put in ``metrics["answer_error"]``.

Metrics: ``continent``, ``country``, ``city``, ``street`` (bools), ``distance_km`` (haversine from the
given coordinates to the true place; ``None`` without coordinates), ``geoguessr_score``
(``round(5000 * exp(-d / 1492.7))``, 0 without coordinates), ``completion`` (fraction of the four levels
correct), ``overall`` (= city correct), ``web`` (the agent read at least one wiki article) and
``embodied`` (the agent moved to another viewpoint or turned).

Why ``overall`` is the city: the country can often be named from one strong cue (a plate colour, a
script) and would make the task too easy to be the headline number, while the street depends on
spelling and transliteration conventions and on reading one particular sign, so it would mostly
measure luck in where the agent looked. The city is the level at which geolocation benchmarks usually
report success (city-level accuracy, 25 km) and it needs the research the task is about: combining cues
to a country, then a hint or the wiki to a city.

Why ``embodied`` is "moved or turned": the embodied part of this task is exploring the place; every
step to another viewpoint (turning is done by walking to the neighbour on that side) reveals views the
start does not show. In the passive setting it is always false.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from embodiedweb.worlds.street.geo import haversine_km

CONTINENT_ALIASES = {
    "africa": "Africa", "asia": "Asia", "europe": "Europe", "north america": "North America",
    "northamerica": "North America", "n america": "North America", "central america": "Central America",
    "south america": "South America", "southamerica": "South America", "s america": "South America",
    "oceania": "Oceania", "australia and oceania": "Oceania", "australasia": "Oceania",
    "australia oceania": "Oceania", "antarctica": "Antarctica", "eurasia": "Eurasia",
}
COUNTRY_ALIASES = {
    "United States": ["USA", "US", "U.S.", "U.S.A.", "United States of America", "America", "the US",
                      "the United States"],
    "United Kingdom": ["UK", "U.K.", "Great Britain", "Britain", "England", "Scotland", "Wales",
                       "United Kingdom of Great Britain and Northern Ireland", "GB"],
    "Czech Republic": ["Czechia"], "South Korea": ["Korea", "Republic of Korea", "Korea, South", "ROK"],
    "United Arab Emirates": ["UAE", "U.A.E.", "Emirates"], "Netherlands": ["Holland", "The Netherlands"],
    "Russia": ["Russian Federation"], "Taiwan": ["Republic of China", "ROC"],
    "China": ["People's Republic of China", "PRC", "Mainland China"], "Turkey": ["Türkiye", "Turkiye"],
    "Vietnam": ["Viet Nam"], "Ireland": ["Republic of Ireland", "Eire", "Éire"], "New Zealand": ["Aotearoa"],
    "Philippines": ["The Philippines"], "Ivory Coast": ["Côte d'Ivoire"],
}
STREET_GENERIC = {
    "street", "st", "road", "rd", "avenue", "ave", "av", "boulevard", "blvd", "bd", "lane", "way", "quay",
    "calle", "c", "rua", "r", "rue", "via", "viale", "corso", "ulica", "ul", "ulitsa", "vulytsia", "vul",
    "strasse", "str", "gasse", "straat", "gracht", "jalan", "jl", "lebuh", "carrera", "cra", "kr", "cr",
    "jiron", "jr", "avenida", "paseo", "passeig", "carrer", "prospekt", "prospect", "pr", "caddesi", "cad",
    "cd", "sokak", "sk", "bulvari", "katu", "gatan", "gata", "gate", "gade", "utca", "u", "ut", "strada",
    "calea", "bulevardul", "bulevard", "bul", "odos", "leoforos", "dori", "daero", "ro", "gil",
    "lu", "dajie", "jie", "donglu", "thanon", "marg", "pho", "duong", "rechov", "sderot", "shari",
    "the", "de", "del", "la", "las", "los", "di", "dei", "da", "do", "dos", "das", "du", "des", "le", "of",
    "y", "e", "na", "al", "el", "n", "s", "w", "north", "south", "east", "west", "nord", "norte",
    "poghots", "poghota", "gamziri", "kucha", "menged", "godana", "yilu", "dong",
}
_COORD = r"([-+]?\d{1,3}(?:\.\d+)?)\s*°?\s*([NSEWnsew])?"


def norm(s: str) -> str:
    """Casefold, ß -> ss, strip accents and punctuation, collapse spaces."""
    s = (s or "").replace("ß", "ss").replace("ẞ", "ss").replace("ı", "i").replace("İ", "I").replace("ł", "l")
    s = s.replace("Ł", "L").replace("đ", "d").replace("Đ", "D").replace("ø", "o").replace("Ø", "O")
    s = s.replace("æ", "ae").replace("Æ", "AE").replace("œ", "oe")
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c)).casefold()
    s = re.sub(r"[^\w]+", " ", s)
    return " ".join(s.split())


def _country_table(extra: dict[str, list[str]] | None = None) -> dict[str, str]:
    table: dict[str, str] = {}
    for canon, aliases in {**COUNTRY_ALIASES, **(extra or {})}.items():
        for a in [canon, *aliases]:
            table[norm(a)] = canon
            if norm(a).startswith("the "):
                table[norm(a)[4:]] = canon
    return table


@dataclass
class ParsedAnswer:
    """What an answer says (``None`` where it says nothing) and why it could not be read."""

    lat: float | None = None
    lng: float | None = None
    continent: str | None = None
    country: str | None = None
    city: str | None = None
    street: str | None = None
    error: str = ""
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"lat": self.lat, "lng": self.lng, "continent": self.continent, "country": self.country,
                "city": self.city, "street": self.street}


def _parse_coord(text: str) -> tuple[float, float] | None:
    m = re.fullmatch(rf"\s*\(?\s*{_COORD}\s*[,/ ]\s*{_COORD}\s*\)?\s*", text)
    if not m:
        return None
    a, ha, b, hb = m.group(1), m.group(2), m.group(3), m.group(4)
    lat, lng = float(a), float(b)
    ha, hb = (ha or "").upper(), (hb or "").upper()
    if ha in ("E", "W") and hb in ("N", "S", ""):  # "2.35 E, 48.85 N"
        lat, lng, ha, hb = lng, lat, hb, ha
    if ha == "S":
        lat = -abs(lat)
    if hb == "W":
        lng = -abs(lng)
    return lat, lng


def parse_answer(answer: str | None, countries: list[str] | None = None) -> ParsedAnswer:
    """Parse ``lat, lng; continent; country; city; street`` leniently (see module docstring)."""
    out = ParsedAnswer()
    if answer is None or not str(answer).strip():
        out.error = "no answer given: end with stop [lat, lng; continent; country; city; street]"
        return out
    s = str(answer).strip().strip("`").strip()
    if s.startswith("[") and s.endswith("]"):
        s = s[1:-1]
    s = s.replace("\n", ";")
    if ";" in s:
        parts = [p.strip().strip("\"'").strip() for p in s.split(";")]
    elif "|" in s:
        parts = [p.strip() for p in s.split("|")]
    else:
        parts = [p.strip() for p in s.split(",")]
        if len(parts) >= 2 and _parse_coord(f"{parts[0]}, {parts[1]}"):
            parts = [f"{parts[0]}, {parts[1]}", *parts[2:]]
    if parts and (c := _parse_coord(parts[0])) is not None:
        out.lat, out.lng = c
        parts = parts[1:]
        if not (-90 <= out.lat <= 90 and -180 <= out.lng <= 180):
            out.notes.append(f"coordinates out of range ({out.lat}, {out.lng}); ignored")
            out.lat = out.lng = None
    elif parts and re.search(r"\d+\.\d+", parts[0]) and len(parts) >= 5:
        out.notes.append(f"could not read coordinates {parts[0][:40]!r}; use decimal degrees 'lat, lng'")
        parts = parts[1:]
    elif len(parts) >= 5 and not parts[0]:
        parts = parts[1:]
    parts = parts[:4] if len(parts) > 4 else parts
    table = _country_table({c: [] for c in (countries or [])})
    named = [p for p in parts if p and norm(p) not in ("", "unknown", "none", "n a", "na")]
    if len(parts) == 4:
        cont, country, city, street = (p if p and norm(p) not in ("unknown", "none", "n a", "na") else None
                                       for p in parts)
        out.continent, out.country, out.city, out.street = cont, country, city, street
    else:
        rest = []
        for p in named:
            if out.continent is None and norm(p) in CONTINENT_ALIASES:
                out.continent = p
            elif out.country is None and norm(p) in table:
                out.country = p
            else:
                rest.append(p)
        if rest:
            out.city = rest[0]
        if len(rest) > 1:
            out.street = rest[1]
    if out.lat is None and not any((out.continent, out.country, out.city, out.street)):
        out.error = (f"could not read the answer {str(answer)[:80]!r}: use "
                     "stop [lat, lng; continent; country; city; street]")
    return out


def geoguessr_score(d_km: float | None) -> int:
    return 0 if d_km is None else int(round(5000 * math.exp(-d_km / 1492.7)))


def street_core(s: str) -> set[str]:
    return {t for t in norm(s).split() if t not in STREET_GENERIC}


def same_street(answer: str | None, names: list[str]) -> bool:
    if not answer:
        return False
    a = norm(answer)
    for n in names:
        if not n:
            continue
        if a == norm(n) or a.replace(" ", "") == norm(n).replace(" ", ""):
            return True
        ca, cn = street_core(answer), street_core(n)
        if ca and ca == cn:
            return True
    return False


def check_answer(goal: dict[str, Any], answer: str | None, countries: list[str] | None = None) -> dict[str, Any]:
    """Per-level correctness, distance and score of ``answer`` against a task's ``goal``."""
    p = parse_answer(answer, countries)
    table = _country_table({c: [] for c in (countries or [])})
    cont_ok = bool(p.continent) and CONTINENT_ALIASES.get(norm(p.continent or "")) in (
        [goal["continent"], *goal.get("continent_alt", [])])
    country_ok = bool(p.country) and (table.get(norm(p.country or "")) == goal["country"]
                                      or norm(p.country or "") == norm(goal["country"]))
    city_names = [goal["city"], *goal.get("city_aliases", [])]
    city_ok = bool(p.city) and norm(p.city or "") in {norm(c) for c in city_names}
    street_ok = same_street(p.street, [goal["street"], *goal.get("street_aliases", [])])
    d = None
    if p.lat is not None and p.lng is not None:
        d = round(haversine_km(p.lat, p.lng, goal["lat"], goal["lng"]), 3)
    levels = [cont_ok, country_ok, city_ok, street_ok]
    m: dict[str, Any] = {"continent": bool(cont_ok), "country": bool(country_ok), "city": bool(city_ok),
                         "street": bool(street_ok), "distance_km": d, "geoguessr_score": geoguessr_score(d),
                         "completion": sum(levels) / 4, "overall": bool(city_ok), "parsed_answer": p.to_json()}
    if p.error:
        m["answer_error"] = p.error
    if p.notes:
        m["answer_notes"] = p.notes
    return m


def check_geolocation(goal: dict[str, Any], answer: str | None, world: dict[str, Any], web: dict[str, Any],
                      countries: list[str] | None = None) -> dict[str, Any]:
    m = check_answer(goal, answer, countries)
    wiki = web.get("wiki", {}) if isinstance(web, dict) else {}
    m["web"] = bool(wiki.get("views"))
    m["embodied"] = bool(world.get("moves", 0) > 0 or world.get("turns", 0) > 0)
    m["viewpoints_visited"] = int(world.get("n_visited", 1))
    m["wiki_articles_read"] = len(wiki.get("views", []) or [])
    return m
