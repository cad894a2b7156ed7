"""Generate the geolocation data: ``python -m embodiedweb.data_gen.geo``.

Writes, deterministically and from the tables ``data/tables/geo_countries.json``, ``geo_cues.json`` and
``geo_places.json`` (written for this project) and the names made up by :mod:`embodiedweb.data_gen.geo_cues`:

- ``data/geo/standpoints.json``: real places (a real street in a real city, lat/lng to within about a
  kilometre), each a small street graph (the start viewpoint and two or three more on each side along
  the street, 40 m apart) whose four views per viewpoint (N/E/S/W) carry the cues of the place: driving
  side, road lines, licence plates, bollards, utility poles, vegetation, architecture, the sun's side of
  the sky, and signs in the local script and language. Some signs are *hints* (a street-name sign, a
  web address with the country's domain, a phone number with the country's prefix); two or three are
  *distinguishing cues* (a local chain's shop sign, a transport operator's emblem, a dish on a menu
  board) that only the wiki ties to the city, placed two or more viewpoints from the start and listed in the
  standpoint's ``distinguishing`` (cue, viewpoint, view, the articles that explain it, the names a
  search may use). No sign names the city. Ids are keyed hashes (:func:`geo_cues.opaque_id`).
- ``data/geo/tasks.jsonl``: one task per standpoint (``geo-NNN`` in the order of the opaque ids; the
  test split takes 30 % of the capital and 30 % of the other standpoints).
- ``data/geo/places.json``: the gazetteer the checker reads (countries and their other names, every
  city with its centre and names, every city's made-up cue names).
- ``data/wiki/cues.json``: wiki articles on the country-level cues (driving side, writing systems,
  licence plates, road markings, bollards, poles, the sun, codes, words on signs), one per country, one
  per city, and one per city's chain, emblem and dish.

**True facts only.** Every real-world statement written here comes from a table of real values (the
countries' table: prefixes, domains, driving side, capitals; the cities of
:mod:`embodiedweb.data_gen.geo_places`: centres and names) or is not written: no area codes, no
rankings the tables do not hold. What is made up (chains, emblems, dishes) is said to be local to one
city by its own article and is found nowhere else. The scene of a standpoint is the country's by
default and the place's where it differs: a standpoint's overrides (``pedestrian``, ``arch``, ``veg``,
``pole``, ...) say what that street really looks like, e.g. a pedestrian street shows no cars and no road
lines.

View sentences never name a country, city, language or script; only sign texts carry names. The wiki
articles describe each cue with the same words a person would use for what they see (e.g. "The rear
licence plate is yellow with black characters"), followed by the countries where it is seen, so that a
reader can go from a view to a short list of countries, and from a distinguishing cue to its city.
"""

from __future__ import annotations

import json
import math
import random
import re
import unicodedata
from typing import Any

from embodiedweb.data_gen import geo_cues
from embodiedweb.data_gen.geo_places import CITIES, CITY_SHOP, SPOTS, words_as_tuples
from embodiedweb.paths import data_dir
from embodiedweb.tables import load_table

TROPIC = 23.44

# --------------------------------------------------------------------------------------------- cue phrases
# Sentences a view may contain, and the same wording used by the wiki's cue lists.
_CUES_TABLE = load_table("geo_cues")  # data/tables/geo_cues.json
TRAFFIC: dict[str, str] = _CUES_TABLE["traffic"]
CENTRE: dict[str, str] = _CUES_TABLE["centre"]  # {d}: "dashed" or "solid"
EDGE: dict[str, str] = _CUES_TABLE["edge"]
PLATE: dict[str, str] = _CUES_TABLE["plate"]
# (background, characters) colours for drawing a plate style
PLATE_COLOURS: dict[str, tuple[str, str]] = {k: tuple(v) for k, v in _CUES_TABLE["plate_colours"].items()}
BOLLARD: dict[str, str] = _CUES_TABLE["bollard"]
POLE: dict[str, str] = _CUES_TABLE["pole"]
VEG: dict[str, str] = _CUES_TABLE["veg"]
ARCH: dict[str, str] = _CUES_TABLE["arch"]
#: what the along-views of a pedestrian street say instead of the road, its lines and its traffic
PEDESTRIAN = "The street continues in this direction: it is a pedestrian street, closed to cars."
PEDESTRIAN_TRANSIT: dict[str, str] = _CUES_TABLE["pedestrian_transit"]
SUN: dict[str, str] = _CUES_TABLE["sun"]
SCRIPT_NAMES: dict[str, str] = _CUES_TABLE["script_names"]

CONTINENTS = ["Africa", "Asia", "Europe", "North America", "Oceania", "South America"]


# data/tables/geo_countries.json: one country a row (name, code, continent, capital and ``capital_ll``,
# driving side, languages, scripts, shop and street words as (word as written, Latin transliteration or
# "", meaning), hotel word, plate styles, road lines, phone prefix, domain, plants, building types ...)
_COUNTRY_TABLE = load_table("geo_countries")
COUNTRIES: list[dict[str, Any]] = [words_as_tuples(c) for c in _COUNTRY_TABLE["countries"]]
BY_CODE = {c["code"]: c for c in COUNTRIES}
# names of countries in their own languages (accepted in answers)
ENDONYMS: dict[str, list[str]] = _COUNTRY_TABLE["endonyms"]
for _c in COUNTRIES:
    _c["endonyms"] = ENDONYMS.get(_c["code"], [])

# --------------------------------------------------------------------------------------------- helpers
def slugify(name: str) -> str:
    s = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-")


def ascii_word(s: str) -> str:
    s = s.replace("ß", "ss").replace("ł", "l").replace("đ", "d").replace("ı", "i")
    s = unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "", s)


def split_local(text: str) -> tuple[str, str]:
    """``"Москва|Moskva"`` -> (``Москва``, ``Moskva``); Latin text has no transliteration."""
    a, _, b = text.partition("|")
    return a, b


def offset(lat: float, lng: float, heading: str, metres: float) -> tuple[float, float]:
    dlat = {"N": 1, "S": -1}.get(heading, 0) * metres / 111_320
    dlng = {"E": 1, "W": -1}.get(heading, 0) * metres / (111_320 * math.cos(math.radians(lat)))
    return round(lat + dlat, 6), round(lng + dlng, 6)


def join_names(names: list[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


OPP = {"N": "S", "S": "N", "E": "W", "W": "E"}



# --------------------------------------------------------------------------------------------- places
def city_rows() -> dict[tuple[str, str], tuple[Any, ...]]:
    """``(country code, city) -> (name, lat, lng, local, other names)`` for every city of the wiki."""
    return {(code, row[0]): row for code, rows in CITIES.items() for row in rows}


def is_capital(code: str, city: str) -> bool:
    return BY_CODE[code]["capital"] == city


def city_names(code: str, city: str) -> list[str]:
    """Every name an answer may use for a city: the name, its local name (and transliteration), other names."""
    name, _lat, _lng, local, other = city_rows()[(code, city)]
    loc, tr = split_local(local)
    out = [name, *([loc] if loc else []), *([tr] if tr else []), *other]
    return list(dict.fromkeys(out))


def gazetteer() -> dict[str, Any]:
    """The places an answer may name (``data/geo/places.json``): countries with their other names and
    continents, every city of the wiki with its centre and all its names, and the names of every city's
    made-up cues (``[term, country code, city]``: chain, transport emblem, dish) for judging searches."""
    countries = [{"name": c["name"], "code": c["code"], "continent": c["continent"],
                  "aliases": sorted(set(c["aliases"]) | set(c.get("endonyms", [])))} for c in COUNTRIES]
    cities = []
    for (code, city), row in city_rows().items():
        cities.append({"name": city, "country": BY_CODE[code]["name"], "country_code": code, "lat": row[1],
                       "lng": row[2], "names": city_names(code, city), "capital": is_capital(code, city),
                       "slug": city_slug(code, city)})
    terms = sorted([cc["chain"]["name"], code, city] for (code, city) in city_rows() for cc in [cues_of(code, city)])
    terms += sorted([cues_of(code, city)["transit"]["name"], code, city] for (code, city) in city_rows())
    terms += sorted([cues_of(code, city)["speciality"]["word"], code, city] for (code, city) in city_rows())
    return {"countries": countries, "cities": sorted(cities, key=lambda c: (c["country_code"], c["name"])),
            "cue_terms": terms}


def _reserved_words() -> set[str]:
    words = {c["name"] for c in COUNTRIES} | {a for c in COUNTRIES for a in c["aliases"]}
    words |= {n for code, city in city_rows() for n in city_names(code, city)}
    words |= {w for c in COUNTRIES for w, _tr, _m in c["shop"] + c["street_words"]}
    words |= {w for c in COUNTRIES for w in c["languages"]}
    arts = data_dir() / "wiki" / "articles.json"
    if arts.exists():
        for a in json.loads(arts.read_text(encoding="utf-8")):
            words |= {a["slug"], a["title"]}
    return words


_CUES: dict[tuple[str, str], dict[str, Any]] = {}


def cues_of(code: str, city: str) -> dict[str, Any]:
    """The city's generated cues (see :mod:`embodiedweb.data_gen.geo_cues`)."""
    if not _CUES:
        _CUES.update(geo_cues.city_cues(BY_CODE, CITIES, _reserved_words(), city_shop_words()))
    return _CUES[(code, city)]


def city_slug(code: str, city: str) -> str:
    """The slug of a city's article (a country of the same name keeps the plain slug)."""
    s = slugify(city)
    return f"{s}-city" if s in {slugify(c["name"]) for c in COUNTRIES} else s


def cue_slugs(code: str, city: str) -> dict[str, str]:
    cc = cues_of(code, city)
    return {"chain": slugify(cc["chain"]["name"]), "transit": slugify(cc["transit"]["name"]),
            "menu": slugify(cc["speciality"]["word"])}


# --------------------------------------------------------------------------------------------- standpoints
def _sign(role: str, text: str, translit: str = "", hint: bool = False, say: str = "") -> dict[str, Any]:
    say = say or {"shop": f'A shop sign reads "{text}".', "street": f'A street-name sign reads "{text}".',
                  "phone": f'A sign in a shop window gives the phone number "{text}".',
                  "domain": f'An advertisement shows the web address "{text}".'}[role]
    d = {"kind": "sign", "role": role, "text": text, "say": say, "hint": hint}
    if translit:
        d["translit"] = translit
    return d


def city_shop_words() -> dict[tuple[str, str], list[tuple[str, str, str]]]:
    """The shop words of each city whose signs differ from the country's list: a standpoint's own words
    (its ``shop`` override), else :data:`~embodiedweb.data_gen.geo_places.CITY_SHOP`. A local chain's sign
    uses them too, so it reads like the street's other shops."""
    out = dict(CITY_SHOP)
    for code, city, *_rest, over in SPOTS:
        if over.get("shop"):
            out[(code, city)] = list(over["shop"])
    return out


def distinguishing_item(kind: str, code: str, city: str, rng: random.Random,
                        scene: dict[str, Any] | None = None) -> dict[str, Any]:
    """A sign that only the wiki ties to the city (a chain, a transport emblem, a dish)."""
    cc = cues_of(code, city)
    if kind == "chain":
        ch = cc["chain"]
        tl = f"{ch['translit']} {ch['name']}" if ch["translit"] else ""
        item = _sign("shop", ch["sign"], tl, hint=True)
        item["role"] = "chain"
        lookup = [ch["name"]]
    elif kind == "transit":
        t = cc["transit"]
        item = _sign("transit", t["name"], hint=True,
                     say=f'{_stop_sign(scene or {"pedestrian": None})} shows line {rng.randint(1, t["lines"])} and the emblem "{t["name"]}".')
        lookup = [t["name"]]
    else:
        w = cc["speciality"]["word"]
        item = _sign("menu", w, hint=True, say=f"A café's menu board offers \"{w}\".")
        lookup = [w]
    item["distinguishing"] = True
    item["cue"] = kind
    return {"item": item, "cue": kind, "articles": [cue_slugs(code, city)[kind]], "lookup": lookup}


DISTINGUISHING = ("chain", "transit", "menu")


def _stop_sign(scene: dict[str, Any]) -> str:
    """The transit stop a street has: a bus stop where cars (or buses) run, a tram stop on a pedestrian
    street with trams, else a sign pointing to the nearest stop."""
    ped = scene["pedestrian"]
    if ped is None or ped == "buses":
        return "A bus stop sign"
    if ped == "trams":
        return "A tram stop sign"
    return "A sign pointing to the nearest stop"


#: the scene keys a standpoint's overrides may set (see :func:`scene_of`)
SCENE_KEYS = ("pedestrian", "arch", "veg", "pole", "centre", "edge", "bollard")


def scene_of(spot: tuple[Any, ...]) -> dict[str, Any]:
    """What the street of a standpoint looks like: the country's defaults where the place's overrides say
    nothing. ``pedestrian`` is ``None`` for a street with traffic, else what runs along the pedestrian
    street (``""``, ``"trams"`` or ``"buses"``); a pedestrian street has no centre or edge lines, no
    roadside posts, no cars (so no plates and no traffic side) and, unless it says otherwise, plain lamp
    posts rather than the country's utility poles."""
    code, _city, _street, _sign, _lat, _lng, _axis, over = spot
    c = BY_CODE[code]
    ped = over.get("pedestrian")
    pedestrian = None if ped is None or ped is False else ("" if ped is True else str(ped))
    on_road = pedestrian is None
    return {"pedestrian": pedestrian,
            "arch": list(over.get("arch", c["arch"])),
            "veg": list(over.get("veg", c["veg"])),
            "pole": over.get("pole", (c["pole"] or "plain") if on_road else "plain"),
            "centre": over.get("centre", c["centre"]) if on_road else None,
            "edge": over.get("edge", c["edge"]) if on_road else None,
            "bollard": over.get("bollard", c["bollard"]) if on_road else None}


def build_standpoint(spot: tuple[Any, ...]) -> dict[str, Any]:
    code, city, street, street_sign, lat, lng, axis, over = spot
    c = BY_CODE[code]
    sid = geo_cues.opaque_id("s", code, city, street)
    rng = random.Random(f"geo:{code}:{city}:{street}")
    shop = over.get("shop") or city_shop_words().get((code, city), c["shop"])
    plates = over.get("plates", c["plates"])
    continent = over.get("continent", c["continent"])
    # a place counted in another continent than its country's (Novosibirsk, in Asia) keeps the continents the wiki
    # gives the country as right answers too: "Russia ... lies in Europe (also counted in Asia)" is what an agent
    # reads (stop 39: Europe was refused, and the alternatives held Asia twice)
    country_continents = [c["continent"], *c["continent_alt"]]
    continent_alt = over.get("continent_alt", [k for k in dict.fromkeys(country_continents) if k != continent])
    scene = scene_of(spot)
    veg = scene["veg"]

    # graph: viewpoints 40 m apart along the street, two or three on each side of the start
    along = ("N", "S") if axis == "NS" else ("E", "W")
    ahead, behind = rng.choice([2, 3]), rng.choice([2, 3])
    steps = [0] + [k for d in range(1, max(ahead, behind) + 1) for k in (d, -d) if -behind <= k <= ahead]
    ids = [geo_cues.opaque_id("v", sid, str(k)) for k in steps]
    at = dict(zip(steps, ids, strict=True))
    dist = {at[k]: abs(k) for k in steps}
    pos = {at[k]: offset(lat, lng, along[0] if k >= 0 else along[1], 40 * abs(k)) for k in steps}
    edges = [(at[k - 1], at[k], along[0]) for k in steps if k > 0] + \
            [(at[k + 1], at[k], along[1]) for k in steps if k < 0]
    neighbors: dict[str, dict[str, str]] = {i: {} for i in ids}
    for a, b, h in edges:
        neighbors[a][h] = b
        neighbors[b][OPP[h]] = a
    views: dict[str, dict[str, list[dict[str, Any]]]] = {i: {h: [] for h in "NESW"} for i in ids}
    side = [h for h in "NESW" if h not in along]

    # road cues: every along-view shows the road and its centre line (a pedestrian street: neither)
    dashed = rng.choice(["dashed", "solid"])
    pedestrian = scene["pedestrian"]
    for i in ids:
        for h in along:
            # the street goes on, but at the last viewpoint the walkable part ends: the view says so
            end = "" if h in neighbors[i] else " You cannot walk further this way: the explorable area ends here."
            if pedestrian is not None:
                views[i][h].append({"kind": "road", "pedestrian": True, "transit": pedestrian, "centre": None,
                                    "dashed": False, "edge": None,
                                    "say": PEDESTRIAN + PEDESTRIAN_TRANSIT.get(pedestrian, "") + end})
                continue
            road = {"kind": "road", "centre": scene["centre"], "dashed": dashed == "dashed", "edge": scene["edge"],
                    "say": "The street continues in this direction." + end}
            views[i][h].append(road)
            if scene["centre"]:
                views[i][h].append({"kind": "centre", "colour": scene["centre"],
                                    "say": CENTRE[scene["centre"]].format(d=dashed)})
    slots_along = [(i, h) for i in ids for h in along if not (i == ids[0] and h == "N")]
    slots_side = [(i, h) for i in ids for h in side]
    slots_any = slots_along + slots_side
    rng.shuffle(slots_along)
    rng.shuffle(slots_side)
    rng.shuffle(slots_any)

    def put(slots: list[tuple[str, str]], item: dict[str, Any], k: int = 0) -> None:
        i, h = slots[k % len(slots)]
        views[i][h].append(item)

    # traffic side, plates, edge lines and roadside posts: only where cars drive (the traffic side is seen
    # in two along views, never only from the start's north view)
    if pedestrian is None:
        for k in range(2):
            put(slots_along, {"kind": "traffic", "side": c["drive"], "say": TRAFFIC[c["drive"]]}, k)
        if scene["edge"]:
            put(slots_along, {"kind": "edge", "colour": scene["edge"], "say": EDGE[scene["edge"]]}, 2)
        for k, p in enumerate(plates):
            bg, fg = PLATE_COLOURS.get(p, ("white", "black"))
            put(slots_along, {"kind": "plate", "style": p, "bg": bg, "fg": fg, "say": PLATE[p]}, 3 + k)
        if scene["bollard"]:
            put(slots_along, {"kind": "bollard", "style": scene["bollard"], "say": BOLLARD[scene["bollard"]]}, 1)
    pole = scene["pole"]
    put(slots_side, {"kind": "pole", "style": pole, "say": POLE[pole]}, 0)
    for k, v in enumerate(veg[:2]):
        put(slots_any, {"kind": "vegetation", "style": v, "say": VEG[v]}, k)
    arch = scene["arch"]
    for k, a in enumerate(arch[:2]):
        put(slots_side, {"kind": "building", "style": a, "say": ARCH[a]}, 1 + k)
    # the start's north view shows the road and one building-or-vegetation cue (once: on an east-west street the
    # start's north view is a side slot, which may already hold that building; stop 38, it was said twice)
    first = {"kind": "building", "style": arch[0], "say": ARCH[arch[0]]}
    if first not in views[ids[0]]["N"]:
        views[ids[0]]["N"].append(first)
    # the sun: in the view that faces it, at every viewpoint (outside the tropics)
    if abs(lat) > TROPIC:
        sun_dir = "S" if lat > 0 else "N"
        for i in ids:
            views[i][sun_dir].append({"kind": "sun", "side": "south" if lat > 0 else "north",
                                      "say": SUN["south" if lat > 0 else "north"]})
    # shop signs (local words)
    words = list(shop)
    rng.shuffle(words)
    for k, (w, tr, _m) in enumerate(words[:3]):
        put(slots_side, _sign("shop", w, tr), 3 + k)
    # country-level hints: a web address with the country's domain, the street's name sign
    hints: list[str] = []
    hint_slots = [s for s in slots_any if s != (ids[0], "N")]
    rng.shuffle(hint_slots)
    if rng.random() < 0.6:
        w, tr, _m = words[0]
        base = ascii_word(tr or w) or "info"
        rng.randint(2, 99)  # drawn, not shown: a number in a French address reads as a département (a false cue)
        views[hint_slots[0][0]][hint_slots[0][1]].append(_sign(
            "domain", f"www.{base}{c['tld'] if c['tld'] != '.uk' else '.co.uk'}", hint=True))
        hints.append("domain")
    if rng.random() < 0.7:
        local, tr = split_local(street_sign)
        views[hint_slots[1][0]][hint_slots[1][1]].append(_sign("street", local, tr, hint=True))
        hints.append("street")
    if rng.random() < 0.5:  # a shop's phone number: the country's real prefix, no area code
        views[hint_slots[2][0]][hint_slots[2][1]].append(_sign("phone", geo_cues.phone_number(c, rng), hint=True))
        hints.append("phone")
    # distinguishing cues: two or three, two or more viewpoints from the start (a walk is needed to see
    # one), each explained by a wiki article that names the city
    kinds = list(DISTINGUISHING)
    rng.shuffle(kinds)
    distinguishing = []
    far = [i for i in ids if dist[i] >= 2]
    for kind in kinds[:rng.choice([2, 3])]:
        d = distinguishing_item(kind, code, city, rng, scene)
        node, view = rng.choice(far), rng.choice("NESW")
        views[node][view].append(d.pop("item"))
        distinguishing.append({**d, "node": node, "view": view})

    nodes = {}
    for i in ids:
        nodes[i] = {"lat": pos[i][0], "lng": pos[i][1], "street": street, "neighbors": neighbors[i], "views": views[i]}
    local_street, street_tr = split_local(street_sign)
    street_aliases = sorted({street, *[p.strip() for p in local_street.split(" / ")], *([street_tr] if street_tr else [])})
    row = city_rows()[(code, city)]
    return {"id": sid, "country": c["name"], "country_code": code, "continent": continent,
            "continent_alt": continent_alt, "city": city, "city_aliases": city_names(code, city)[1:],
            "city_centre": [row[1], row[2]], "capital": is_capital(code, city),
            "street": street, "street_aliases": street_aliases, "lat": lat, "lng": lng, "start": ids[0],
            "heading": 0, "nodes": nodes, "hints": hints, "distinguishing": distinguishing}


def standpoints() -> list[dict[str, Any]]:
    """Every standpoint, ordered by its opaque id (so that neither ids nor order follow countries)."""
    return sorted((build_standpoint(s) for s in SPOTS), key=lambda sp: sp["id"])


# --------------------------------------------------------------------------------------------- tasks
INSTRUCTION = (
    "You are standing somewhere in the world. Look around (the four views show all around you; forward, "
    "left, right and move walk to adjacent viewpoints) "
    "and research what you see on the wiki. Then say where you are with "
    "stop [lat, lng; continent; country; city; street], for example "
    "stop [48.8606, 2.3376; Europe; France; Paris; Rue de Rivoli]. Leave out parts you do not know "
    "but keep the semicolons, e.g. stop [; Europe; France; Paris; ].")
TEST_SHARE = 0.3


def street_signed(sp: dict[str, Any]) -> bool:
    """Whether some view of the standpoint shows the street's name (else the street cannot be known)."""
    return any(it.get("kind") == "sign" and it.get("role") == "street"
               for node in sp["nodes"].values() for items in node["views"].values() for it in items)


def tasks(sps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One task per standpoint (``geo-NNN`` in the order of the opaque ids). The test split takes the same
    share (30 %) of capital and of non-capital standpoints, chosen by a keyed hash; the two cities of a
    two-city chain (:func:`~embodiedweb.data_gen.geo_cues.pair_chains`) are of one split (a pair the hash split
    goes to whichever split keeps the capital and other shares nearest 30 %): the chain's article names both, so with one of them a train answer, ruling it out left
    the other (a red-team agent passed 16 of the 18 test tasks whose chain named two cities)."""
    split: dict[str, str] = {}
    order = {sp["id"]: geo_cues.opaque_id("t", sp["id"]) for sp in sps}
    capital = {sp["id"]: sp["capital"] for sp in sps}
    quota: dict[bool, int] = {}
    for cap in (True, False):
        group = sorted((sp for sp in sps if sp["capital"] == cap), key=lambda sp: order[sp["id"]])
        quota[cap] = n_test = round(TEST_SHARE * len(group))
        split.update({sp["id"]: ("test" if k < n_test else "train") for k, sp in enumerate(group)})
    by_city = {(sp["country_code"], sp["city"]): sp["id"] for sp in sps}
    mixed = sorted({tuple(sorted((sp["id"], partner), key=lambda i: order[i])) for sp in sps
                    if (partner := by_city.get((sp["country_code"],
                                                cues_of(sp["country_code"], sp["city"])["chain"]["also"])))
                    and split[partner] != split[sp["id"]]}, key=lambda pair: order[pair[0]])
    for k, (a, b) in enumerate(mixed):  # to whichever split keeps each share nearest its quota (else in turn)
        def off(part: str, a: str = a, b: str = b) -> int:
            test = {i: (part == "test") if i in (a, b) else split[i] == "test" for i in split}
            # the capitals' share first: "the capital" is the likeliest guess, its rate is the capitals' share
            return sum((2 if cap else 1) * abs(sum(v for i, v in test.items() if capital[i] == cap) - quota[cap])
                       for cap in quota)

        split[a] = split[b] = min(("test", "train")[::1 if k % 2 == 0 else -1], key=off)
    out = []
    for k, sp in enumerate(sps):
        out.append({"task_id": f"geo-{k + 1:03d}", "env_id": "EWA-Geolocation-v0", "instruction": INSTRUCTION,
                    "embodied": {"standpoint": sp["id"]}, "web": {"start_url": "/wiki/"},
                    "goal": {"lat": sp["lat"], "lng": sp["lng"], "continent": sp["continent"],
                             "continent_alt": sp["continent_alt"], "country": sp["country"],
                             "city": sp["city"], "city_aliases": sp["city_aliases"],
                             "city_centre": sp["city_centre"], "street": sp["street"],
                             "street_aliases": sp["street_aliases"], "street_signed": street_signed(sp)},
                    "split": split[sp["id"]], "start": "embodied",
                    "meta": {"standpoint": sp["id"], "country_code": sp["country_code"], "hints": sp["hints"],
                             "capital": sp["capital"], "distinguishing": [d["cue"] for d in sp["distinguishing"]]}})
    return out



# --------------------------------------------------------------------------------------------- wiki
def article(slug: str, title: str, summary: str, sections: list[tuple[str, list[str]]],
            infobox: list[tuple[str, str]] | None = None, links: list[str] | None = None,
            categories: list[str] | None = None) -> dict[str, Any]:
    """A wiki article; ``links`` (its "See also") also lists every ``[[slug|label]]`` link of its text."""
    in_text = re.findall(r"\[\[([^\]|]+)", " ".join([summary, *(p for _h, ps in sections for p in ps)]))
    return {"slug": slug, "title": title, "summary": summary,
            "sections": [{"heading": h, "paragraphs": ps} for h, ps in sections],
            "infobox": [[k, v] for k, v in (infobox or [])], "links": list(dict.fromkeys([*(links or []), *in_text])),
            "categories": categories or ["Geolocation cues"]}


def _entry(key: str, countries: list[str], note: str = "") -> str:
    names = sorted(set(countries))
    return f"{key}: {join_names(names)}{f' ({note})' if note else ''}."


def _countries_with(sps: list[dict[str, Any]], pred: Any) -> list[str]:
    return sorted({sp["country"] for sp in sps if pred(sp)})


def _items(sp: dict[str, Any]) -> list[dict[str, Any]]:
    return [it for n in sp["nodes"].values() for v in n["views"].values() for it in v]


def wiki_articles(sps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    arts: list[dict[str, Any]] = []
    names = [c["name"] for c in COUNTRIES]
    country_slugs = [slugify(n) for n in names]
    cue_links = ["driving-side-by-country", "vehicle-registration-plates-by-country", "road-markings-by-country",
                 "writing-systems", "words-on-signs", "telephone-country-codes", "country-code-top-level-domains",
                 "list-of-countries-by-continent", "roadside-bollards", "utility-poles", "position-of-the-sun",
                 "major-cities-by-country"]

    # continents
    by_cont: dict[str, list[str]] = {k: [] for k in CONTINENTS}
    for c in COUNTRIES:
        by_cont[c["continent"]].append(c["name"])
    cont_entries = [_entry(k, v) for k, v in by_cont.items() if v]
    trans = [c for c in COUNTRIES if c["continent_alt"]]
    arts.append(article(
        "list-of-countries-by-continent", "List of countries by continent",
        "The countries described on this wiki, grouped by the continent they are usually counted in.",
        [("Countries", cont_entries),
         ("Transcontinental countries", [
             f"{c['name']} is usually counted in {c['continent']} but is also counted in "
             f"{join_names(c['continent_alt'])}." for c in trans])],
        [("Continents", str(len([v for v in by_cont.values() if v]))), ("Countries", str(len(COUNTRIES)))],
        country_slugs[:20] + cue_links, ["Geography", "Lists"]))

    # driving side
    left = [c["name"] for c in COUNTRIES if c["drive"] == "left"]
    right = [c["name"] for c in COUNTRIES if c["drive"] == "right"]
    arts.append(article(
        "driving-side-by-country", "Driving side by country",
        "Traffic keeps either to the left or to the right side of the road. About a third of the world's "
        "people live in countries with left-hand traffic, mostly former parts of the British Empire and Japan.",
        [("Lists", [_entry(TRAFFIC["left"].rstrip("."), left, "left-hand traffic"),
                    _entry(TRAFFIC["right"].rstrip("."), right, "right-hand traffic")]),
         ("How to tell", ["Look at which side of the road moving cars use, and at which side of the car the "
                          "driver sits: in left-hand traffic the steering wheel is on the right.",
                          "Sweden switched from left to right in 1967 (Dagen H); Samoa switched from right to "
                          "left in 2009."])],
        [("Left-hand traffic", f"{len(left)} countries on this wiki"),
         ("Right-hand traffic", f"{len(right)} countries on this wiki")],
        ["vehicle-registration-plates-by-country", "road-markings-by-country"], ["Road transport"]))

    # plates
    plate_entries = []
    for key, phrase in PLATE.items():
        cs = _countries_with(sps, lambda sp, key=key: any(it["kind"] == "plate" and it["style"] == key
                                                           for it in _items(sp)))
        if cs:
            note = {"eu": "the European Union band, with the country's code letters under the stars",
                    "rear_only": "in some states or provinces", "graphics": "designs differ by state",
                    "top_blue": "the common plate of the Mercosur countries, or a similar national design",
                    "right_blue": "a regional or provincial code", "small_line": "a county or province name"}.get(key, "")
            plate_entries.append(_entry(phrase.rstrip("."), cs, note))
    arts.append(article(
        "vehicle-registration-plates-by-country", "Vehicle registration plates by country",
        "Licence plates differ in colour, shape and the bands or emblems printed on them, which makes them "
        "one of the best clues to the country a car is registered in.",
        [("Styles", plate_entries),
         ("Notes", ["Most European Union countries use a white plate with black characters and a blue band "
                    "at the left end that carries a ring of twelve yellow stars and the country code.",
                    "In the United Kingdom, Kenya and a few other countries the front plate is white and the "
                    "rear plate yellow; in the Netherlands, Israel and Colombia both plates are yellow.",
                    "Japanese private cars have white plates with green characters; small kei cars have "
                    "yellow plates."])],
        [("Also called", "licence plate, number plate, registration plate")],
        ["driving-side-by-country"], ["Road transport"]))

    # road markings
    centre_entries = []
    for col in ("white", "yellow"):
        cs = [c["name"] for c in COUNTRIES if c["centre"] == col]
        centre_entries.append(_entry(CENTRE[col].format(d="").replace("  ", " ").rstrip("."), cs,
                                     f"{col} centre lines"))
    edge_entries = [_entry(EDGE[e].rstrip("."), [c["name"] for c in COUNTRIES if c["edge"] == e],
                           {"double_yellow": "no waiting at any time", "yellow": "yellow edge lines"}[e])
                    for e in EDGE]
    arts.append(article(
        "road-markings-by-country", "Road markings by country",
        "Lines painted on roads follow national rules. The colour of the line down the middle of a two-way "
        "road is a strong clue: most of the Americas, South Korea, China, Taiwan, Norway and Finland use "
        "yellow, while most of Europe, Africa, Oceania and much of Asia use white.",
        [("Centre lines", centre_entries), ("Edge lines", edge_entries),
         ("Notes", ["Where no centre line is listed, city streets are often unmarked or the colours vary.",
                    "Pedestrian streets, closed to cars, have no road markings at all.",
                    "Yellow lines in Japan mark sections where overtaking is forbidden; ordinary centre "
                    "lines are white."])],
        [("Yellow centre lines", "the Americas, South Korea, China, Taiwan, Norway, Finland")],
        ["driving-side-by-country"], ["Road transport"]))

    # writing systems
    script_entries = []
    for key, title in SCRIPT_NAMES.items():
        cs = [c["name"] for c in COUNTRIES if key in c["scripts"]]
        if cs:
            script_entries.append(_entry(title, cs))
    letter_entries = []
    letters: dict[str, list[str]] = {}
    for c in COUNTRIES:
        for ch in c["letters"]:
            letters.setdefault(ch, []).append(c["name"])
    for ch in sorted(letters):
        if ch in "áéíóú" or ch == "j" or ch == "i":
            continue
        letter_entries.append(_entry(f"Letter {ch}", letters[ch]))
    arts.append(article(
        "writing-systems", "Writing systems",
        "The script on signs narrows down a place quickly: Cyrillic, Greek, Hebrew, Arabic, Thai, Hangul, "
        "Japanese kana, Georgian and Armenian are each used in few countries. Within the Latin alphabet, "
        "letters with diacritics tell languages apart.",
        [("Scripts", script_entries), ("Letters that tell languages apart", letter_entries),
         ("Notes", ["German writes ß (sharp s), which Switzerland replaces by ss.",
                    "Spanish uses ñ; Portuguese uses ã and õ; Polish uses ł, ą and ę; Hungarian uses the "
                    "double acute ő and ű; Turkish uses ş, ğ and the dotless ı; Czech uses ř and ů; "
                    "Romanian uses ș and ț; Vietnamese stacks tone marks on letters such as ơ and ư and "
                    "writes đ; Danish and Norwegian use æ and ø; Swedish and Finnish use ä and ö.",
                    "Russian uses ы and э, which Ukrainian lacks; Ukrainian uses і, ї, є and ґ; Bulgarian "
                    "uses ъ as a full vowel.",
                    "Japanese mixes Chinese characters (kanji) with the kana syllabaries; Chinese in mainland "
                    "China uses simplified characters (药, 银, 门, 东), while Taiwan uses traditional ones "
                    "(藥, 銀, 門, 東)."])],
        [("Scripts covered", str(len(script_entries)))],
        ["latin-alphabet", "cyrillic-script", "greek-alphabet", "arabic-script", "hebrew-alphabet",
         "devanagari", "thai-script", "hangul", "japanese-writing-system", "chinese-characters",
         "georgian-script", "armenian-alphabet", "geez-script", "words-on-signs"], ["Writing systems"]))
    for key, slug, extra in [
        ("latin", "latin-alphabet", "The most widely used alphabet. Languages add letters with diacritics "
                                    "(ß, ñ, ł, ő, ş, ř, ø, ã, ș, đ)."),
        ("cyrillic", "cyrillic-script", "Used for Russian, Ukrainian, Bulgarian and other Slavic languages. "
                                        "Ы and Э point to Russian; І, Ї and Є to Ukrainian."),
        ("greek", "greek-alphabet", "Used for Greek; letters such as Ω, Σ, Λ and Φ stand out on signs."),
        ("arabic", "arabic-script", "Written right to left; used for Arabic in North Africa and western Asia."),
        ("hebrew", "hebrew-alphabet", "Written right to left; used for Hebrew in Israel."),
        ("devanagari", "devanagari", "An abugida with a horizontal head line, used for Hindi and Marathi in India "
                                     "and for Nepali."),
        ("thai", "thai-script", "An abugida with looped letters and no spaces between words, used for Thai."),
        ("hangul", "hangul", "The Korean alphabet, whose letters are grouped into square syllable blocks."),
        ("kana", "japanese-writing-system", "Japanese mixes kanji with hiragana (rounded) and katakana (angular)."),
        ("hanzi", "chinese-characters", "Logographic characters: simplified in mainland China, traditional in "
                                        "Taiwan; also used as kanji in Japan."),
        ("georgian", "georgian-script", "The rounded Mkhedruli letters of Georgian, a unique script."),
        ("armenian", "armenian-alphabet", "The alphabet created by Mesrop Mashtots, used only for Armenian."),
        ("geez", "geez-script", "An abugida used for Amharic in Ethiopia."),
    ]:
        cs = [c["name"] for c in COUNTRIES if key in c["scripts"]]
        arts.append(article(slug, SCRIPT_NAMES[key], extra, [("Where it is used", [_entry(SCRIPT_NAMES[key], cs)])],
                            [("Type", "writing system")], ["writing-systems"], ["Writing systems"]))

    # words on signs
    word_countries: dict[str, set[str]] = {}
    word_meaning: dict[str, str] = {}
    for c in COUNTRIES:
        for w, tr, m in c["shop"] + c["street_words"] + [(c["hotel"][0], c["hotel"][1], "hotel")]:
            word_countries.setdefault(w, set()).add(c["name"])
            word_meaning.setdefault(w, m if not tr else f"{tr}, {m}")
    for spot in SPOTS:
        for w, tr, m in spot[7].get("shop", []):
            word_countries.setdefault(w, set()).add(BY_CODE[spot[0]]["name"])
            word_meaning.setdefault(w, m if not tr else f"{tr}, {m}")
    word_entries = [_entry(w, sorted(cs), word_meaning[w]) for w, cs in sorted(word_countries.items())]
    arts.append(article(
        "words-on-signs", "Words on shop and street signs",
        "Common words on shop fronts and street-name signs, with the countries where they are seen. The "
        "word for pharmacy alone often narrows a place down to a language.",
        [("Words", word_entries)], [("Entries", str(len(word_entries)))],
        ["writing-systems"], ["Languages"]))

    # codes
    phone_entries: dict[str, list[str]] = {}
    for c in COUNTRIES:
        phone_entries.setdefault(c["phone"], []).append(c["name"])
    arts.append(article(
        "telephone-country-codes", "Telephone country codes",
        "International phone numbers begin with + and a country code. Shop signs and adverts often print it.",
        [("Codes", [_entry(k, v) for k, v in sorted(phone_entries.items(), key=lambda kv: kv[0])])],
        [("Standard", "ITU-T E.164")], ["country-code-top-level-domains"], ["Codes"]))
    arts.append(article(
        "country-code-top-level-domains", "Country code top-level domains",
        "Web addresses often end in a two-letter country code top-level domain (ccTLD).",
        [("Domains", [_entry(c["tld"], [c["name"]]) for c in sorted(COUNTRIES, key=lambda c: c["tld"])]),
         ("Notes", ["Addresses in the United Kingdom usually end in .co.uk or .org.uk.",
                    "Many businesses in the United States use .com rather than .us."])],
        [("Managed by", "IANA")], ["telephone-country-codes"], ["Codes"]))

    # bollards, poles, sun
    arts.append(article(
        "roadside-bollards", "Roadside bollards",
        "Roadside posts (bollards or delineators) mark the edge of the road and carry reflectors. Their design "
        "is national and often recognisable.",
        [("Styles", [_entry(BOLLARD[k].rstrip("."), [c["name"] for c in COUNTRIES if c["bollard"] == k])
                     for k in BOLLARD]),
         ("Notes", ["German and Austrian posts are white with a black band that slopes down towards the road.",
                    "Australian guide posts are white and carry a red reflector."])],
        [("Also called", "delineator, guide post")], ["road-markings-by-country"], ["Road transport"]))
    arts.append(article(
        "utility-poles", "Utility poles",
        "Electricity and telephone poles differ between countries in material and fittings.",
        [("Styles", [_entry(POLE[k].rstrip("."), [c["name"] for c in COUNTRIES if c["pole"] == k])
                     for k in POLE if any(c["pole"] == k for c in COUNTRIES)])],
        [("Material", "wood, concrete or steel")], ["roadside-bollards"], ["Infrastructure"]))
    north = sorted({sp["country"] for sp in sps if sp["lat"] > TROPIC})
    south = sorted({sp["country"] for sp in sps if sp["lat"] < -TROPIC})
    arts.append(article(
        "position-of-the-sun", "Position of the Sun",
        "Outside the tropics the midday sun is always towards the equator: in the southern part of the sky "
        "in the Northern Hemisphere and in the northern part of the sky in the Southern Hemisphere.",
        [("Hemispheres", [_entry(SUN["south"].replace("stands in this direction, in", "is in").rstrip("."), north,
                                 "Northern Hemisphere, north of the Tropic of Cancer"),
                          _entry(SUN["north"].replace("stands in this direction, in", "is in").rstrip("."), south,
                                 "Southern Hemisphere, south of the Tropic of Capricorn")]),
         ("Tropics", ["Between the tropics the sun can be north or south of the zenith depending on the season."])],
        [("Tropic of Cancer", "23.44° N"), ("Tropic of Capricorn", "23.44° S")], [], ["Astronomy"]))

    # cities
    city_entries = []
    for c in COUNTRIES:
        items = []
        for name, *_r in sorted(CITIES[c["code"]]):  # alphabetical: the standpoints' cities were listed first
            loc, _tr = split_local(city_rows()[(c["code"], name)][3])
            items.append(name + (f" ({loc})" if loc and loc != name else ""))
        city_entries.append(f"{c['name']}: {', '.join(items)}.")
    arts.append(article(
        "major-cities-by-country", "Major cities by country",
        "Major cities of the countries on this wiki, with their names as written locally. Each city has an "
        "article with its coordinates.",
        [("Cities", city_entries)], [("Countries", str(len(COUNTRIES)))], country_slugs, ["Geography", "Lists"]))
    arts[-1]["links"] += [city_slug(code, r[0]) for code in CITIES for r in sorted(CITIES[code])
                          if city_slug(code, r[0]) != slugify(BY_CODE[code]["name"])]

    # one article per country, per city, per local chain, emblem and dish
    for c in COUNTRIES:
        arts.append(country_article(c))
        for name, *_r in CITIES[c["code"]]:
            if city_slug(c["code"], name) != slugify(c["name"]):
                arts.append(city_article(c, name))
            arts.extend(city_cue_articles(c, name))
    return arts


def _city_link(code: str, city: str) -> str:
    """A city named in running text (its article is linked under "See also", so the text reads whole)."""
    return city


#: Countries whose territory lies on both sides of the Equator (the capital's latitude would say one side).
HEMISPHERE = {k: "on both sides of the Equator" for k in ("KE", "UG", "SO", "CD", "CG", "GA", "ST", "ID", "EC",
                                                          "CO", "BR", "KI", "MV")}


def country_article(c: dict[str, Any]) -> dict[str, Any]:
    name = c["name"]
    code = c["code"]
    cap_lat, cap_lng = c["capital_ll"]
    city_lines = [f"The capital is {_city_link(code, c['capital'])} ({cap_lat:.3f}, {cap_lng:.3f})."]
    for city, lat, lng, local, _other in sorted(CITIES[code]):  # alphabetical (see major-cities-by-country)
        if city == c["capital"]:
            continue
        loc, _tr = split_local(local)
        shown = f"{_city_link(code, city)} ({loc}; {lat:.3f}, {lng:.3f})" if loc and loc != city else \
            f"{_city_link(code, city)} ({lat:.3f}, {lng:.3f})"
        city_lines.append(f"{shown} is a major city of {name}.")
    scripts = join_names([SCRIPT_NAMES[s] for s in c["scripts"]])
    shop = "; ".join(f"{w}{f' ({tr})' if tr else ''}: {m}" for w, tr, m in c["shop"])
    street_words = "; ".join(f"{w}{f' ({tr})' if tr else ''}: {m}" for w, tr, m in c["street_words"])
    road = [TRAFFIC[c["drive"]]]
    if c["centre"]:
        road.append(CENTRE[c["centre"]].format(d="").replace("  ", " "))
    if c["edge"]:
        road.append(EDGE[c["edge"]])
    plates = list(dict.fromkeys(c["plates"] + [p for s in SPOTS if s[0] == code for p in s[7].get("plates", [])]))
    road += [PLATE[p] for p in plates]
    if c["bollard"]:
        road.append(BOLLARD[c["bollard"]])
    if c["pole"]:
        road.append(POLE[c["pole"]])
    hemi = HEMISPHERE.get(code) or ("Northern" if cap_lat > 0 else "Southern")
    hotel = f"{c['hotel'][0]} ({c['hotel'][1]})" if c["hotel"][1] else c["hotel"][0]
    sights = [VEG[v] for v in c["veg"]] + [ARCH[a] for a in c["arch"]]
    sections = [
        ("Geography", [f"{name} is {c['about']}. It lies in {c['continent']}"
                       f"{' (also counted in ' + join_names(c['continent_alt']) + ')' if c['continent_alt'] else ''}"
                       + (f", in the {hemi} Hemisphere." if hemi in ("Northern", "Southern") else f", {hemi}."),
                       "Typical street scenes: " + " ".join(sights)]),
        ("Cities", city_lines),
        ("Languages and writing", [f"Languages: {join_names(c['languages'])}. Script: {scripts}."
                                   + (f" Letters seen on signs include {' '.join(c['letters'])}." if c["letters"] else ""),
                                   f"Words on shop signs: {shop}.", f"Street words: {street_words}.",
                                   f"Hotel: {hotel}."]),
        ("On the road", road),
        ("Codes", [f"The international telephone prefix is {c['phone']}. The country code top-level domain is "
                   f"{c['tld']}."]),
    ]
    info = [("Continent", c["continent"]), ("Capital", c["capital"]), ("Coordinates", f"{cap_lat:.3f}, {cap_lng:.3f}"),
            # all of them (the first four read as "not the others" to a playthrough), by "; ": "Washington, D.C."
            ("Major cities", "; ".join(r[0] for r in sorted(CITIES[code]))),
            ("Languages", ", ".join(c["languages"])),
            ("Script", scripts), ("Drives on the", c["drive"]),
            ("Centre line", c["centre"] or "varies"), ("Phone prefix", c["phone"]), ("Web domain", c["tld"])]
    if c["aliases"]:
        info.append(("Also called", ", ".join(c["aliases"])))
    cities = [city_slug(code, r[0]) for r in sorted(CITIES[code]) if city_slug(code, r[0]) != slugify(name)]
    return article(slugify(name), name, f"{name} is {c['about']}. Its capital is {c['capital']}.", sections, info,
                   ["list-of-countries-by-continent", "driving-side-by-country", "vehicle-registration-plates-by-country",
                    "writing-systems", "telephone-country-codes", "major-cities-by-country", *cities],
                   ["Countries", c["continent"]])


def city_article(c: dict[str, Any], city: str) -> dict[str, Any]:
    code = c["code"]
    _name, lat, lng, local, _other = city_rows()[(code, city)]
    names = city_names(code, city)
    loc, tr = split_local(local)
    lead = f"{city} is {'the capital and ' if is_capital(code, city) else ''}a city of {c['name']}."
    para = [f"The centre of {city} is at {lat:.3f}, {lng:.3f}."]
    if loc and loc != city:
        para.append(f"Written locally: {loc}{f' ({tr})' if tr and tr != city else ''}.")
    others = [n for n in names if n not in (city, loc, tr)]
    if others:
        para.append(f"Also known as {join_names(others)}.")
    return article(city_slug(code, city), city, lead, [("Overview", para)],
                   [("Country", c["name"]), ("Coordinates", f"{lat:.3f}, {lng:.3f}")],
                   [slugify(c["name"]), "major-cities-by-country"], ["Cities", f"Cities of {c['name']}"])


def city_cue_articles(c: dict[str, Any], city: str) -> list[dict[str, Any]]:
    """The articles on a city's chain, transport emblem and speciality: each names the city."""
    code, country = c["code"], c["name"]
    cc = cues_of(code, city)
    slugs = cue_slugs(code, city)
    here = f"{_city_link(code, city)}, {country}"
    ch = cc["chain"]
    word = f"{ch['word']} ({ch['translit']})" if ch["translit"] else ch["word"]
    # a chain with shops in two cities names them in alphabetical order and is based in either (drawn per city,
    # apart from the cues' own draws): were it always based in the city of its standpoint, or named first,
    # "based in" would decide between the two and the second cue would never be needed
    two = sorted([city, ch["also"]]) if ch["also"] else [city]
    hq = random.Random(f"geo-chain-hq:{code}:{city}").choice(two)
    shops = (f"All of its {ch['shops']} shops are in {_city_link(code, city)}." if not ch["also"] else
             f"Its {ch['shops']} shops are in {_city_link(code, two[0])} and {_city_link(code, two[1])}.")
    links = [city_slug(code, name) for name in two if name == city or city_slug(code, name) != slugify(country)]
    t = cc["transit"]
    sp = cc["speciality"]
    return [
        article(slugs["chain"], ch["name"],
                f"{ch['name']} is a local chain based in {_city_link(code, hq)}, {country}, founded in "
                f"{ch['founded']}; its signs read “{ch['sign']}” ({word}: {ch['meaning']}).",
                [("Shops", [shops, "The chain is not found elsewhere."])],
                [("Type", "local chain"), ("Founded", str(ch["founded"])), ("Headquarters", hq)],
                [*links, slugify(country)], ["Companies", f"Companies of {country}"]),
        article(slugs["transit"], t["name"],
                f"{t['name']} is the public transport operator of {here}. Its emblem, the letters {t['name']} on a "
                f"{t['colour']} disc, marks every bus stop of the city.",
                [("Network", [f"{t['name']} runs {t['lines']} public transport lines, all within {city} and its "
                              "suburbs.", "Other cities have their own operators and emblems."])],
                [("Type", "public transport operator"), ("Area served", city), ("Lines", str(t["lines"]))],
                [city_slug(code, city), slugify(country)], ["Public transport", f"Transport in {country}"]),
        article(slugs["menu"], sp["word"].capitalize(),
                f"{sp['word'].capitalize()} is a {sp['dish']} that is a speciality of {here}.",
                [("Where to find it", [f"Cafés and bakeries in {city} write “{sp['word']}” on their menu boards; "
                                       f"elsewhere in {country} it is rarely found and goes by other names."])],
                [("Type", sp["dish"]), ("Place of origin", city)],
                [city_slug(code, city), slugify(country)], ["Local dishes", f"Cuisine of {country}"]),
    ]


# --------------------------------------------------------------------------------------------- main
def main() -> None:
    sps = standpoints()
    out = data_dir() / "geo"
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "standpoints.json", "w", encoding="utf-8") as f:
        json.dump({"version": 2, "standpoints": sps}, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")
    with open(out / "places.json", "w", encoding="utf-8") as f:
        json.dump(gazetteer(), f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")
    with open(out / "tasks.jsonl", "w", encoding="utf-8") as f:
        for t in tasks(sps):
            f.write(json.dumps(t, ensure_ascii=False, sort_keys=True) + "\n")
    wiki = data_dir() / "wiki"
    wiki.mkdir(parents=True, exist_ok=True)
    with open(wiki / "cues.json", "w", encoding="utf-8") as f:
        json.dump(wiki_articles(sps), f, ensure_ascii=False, indent=1)
        f.write("\n")
    countries = {sp["country"] for sp in sps}
    continents = {sp["continent"] for sp in sps}
    caps = sum(sp["capital"] for sp in sps)
    print(f"{len(sps)} standpoints ({caps} in capitals), {len(countries)} countries, {len(continents)} continents, "
          f"{sum(len(v) for v in CITIES.values())} cities")


if __name__ == "__main__":
    main()
