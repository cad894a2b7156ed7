"""Generate ``data/wiki/articles.json``: the wiki's articles, from ``data/places/places.json`` plus topics.

Run ``python -m embodiedweb.data_gen.wiki`` (after ``python -m embodiedweb.data_gen.places``). Deterministic.

Every article has ``slug``, ``title``, ``kind`` (``place``, ``neighborhood``, ``style``, ``architect``,
``topic``, ``list``), ``summary`` (plain text), ``lead`` and ``sections`` (``[{heading,
paragraphs}]``) whose text may hold internal links written ``[[slug|label]]``, ``infobox`` (``[[key,
value], ...]``), ``links`` (slugs linked from the text, all of which exist) and ``categories``. Place
articles also carry ``place_id``, ``coordinates`` and ``facts``: the place's fields as strings
(``year_built``, ``opened``, ``architect``, ``architectural_style``, ``height_m``, ``floors``,
``opening_hours``, ``address``, ``cross_streets``, ``neighborhood``, ``name``, ``category``), each of
which appears verbatim in the article's plain text (:func:`article_text`). Prose about the real place is
generated only from those facts and from the hand-written topic texts of ``data/tables/wiki_texts.json``
(written by the project from general knowledge); no real-world number is invented.

Place articles also carry ``world_facts`` and the "On site" section (after "Visiting") that states them,
one sentence each: details of this project's own world (a plaque, a restoration, a weekly walk, a
mosaic, a time capsule, an exhibition floor, a sculpture), drawn from :data:`WORLD_SEED` and the slug
(:func:`world_facts`). Traveling tasks ask about them, so the answer must be read, not remembered.

The geolocation cue articles (scripts, driving side, plates, countries) are generated separately by
:mod:`embodiedweb.data_gen.geo` into ``data/wiki/cues.json``; the wiki site serves both files.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from embodiedweb.paths import data_dir
from embodiedweb.tables import load_table
from embodiedweb.wikitext import LINK_RX, article_text, link_slugs, plain_text, slugify  # noqa: F401 (re-exported)
from embodiedweb.worlds.street.geo import haversine_m

_TABLE = load_table("wiki_texts")  # data/tables/wiki_texts.json
# name -> (lead, [paragraphs of the Overview section])
NEIGHBORHOODS: dict[str, tuple[str, list[str]]] = {k: tuple(v)  # type: ignore[misc]
                                                   for k, v in _TABLE["neighborhoods"].items()}
# style name (as in places.json) -> (slug, lead, paragraphs)
STYLES: dict[str, tuple[str, str, list[str]]] = {k: tuple(v)  # type: ignore[misc]
                                                 for k, v in _TABLE["styles"].items()}
# slug -> (title, aliases matched against places' ``architect`` field, lead, paragraphs)
ARCHITECTS: dict[str, tuple[str, tuple[str, ...], str, list[str]]] = {
    k: (title, tuple(aliases), lead, paras) for k, (title, aliases, lead, paras) in _TABLE["architects"].items()}
# slug -> (title, lead, paragraphs, categories)
TOPICS: dict[str, tuple[str, str, list[str], list[str]]] = {k: tuple(v)  # type: ignore[misc]
                                                            for k, v in _TABLE["topics"].items()}

# Every place article gets an "On site" section of details that exist only in this wiki's world (a
# plaque, a restoration, a weekly walk, a mosaic, a time capsule, an exhibition floor, a sculpture).
# They are drawn deterministically (seeded by WORLD_SEED and the article's slug), so no model can know
# them from the real building: an agent has to read the article. Each is stored in the article's
# ``world_facts`` as a typed record (see embodiedweb.domains.outdoor.answers) together with the one
# sentence of the section that states it; traveling tasks ask about them and their checker reads them.

WORLD_SEED = 13
GIVEN_NAMES: tuple[str, ...] = tuple(_TABLE["given_names"])
SURNAMES: tuple[str, ...] = tuple(_TABLE["surnames"])
PLAQUE_ROLES: tuple[str, ...] = tuple(_TABLE["plaque_roles"])
MOSAIC_SUBJECTS: tuple[str, ...] = tuple(_TABLE["mosaic_subjects"])
ANIMALS: tuple[str, ...] = tuple(_TABLE["animals"])
#: the order of the facts in the section (and the keys of ``world_facts``)
WORLD_FACT_KEYS = ("plaque_honoree", "restoration_leads", "tour_time", "mosaic_length", "capsule_year",
                   "exhibit_floor", "sculpture_animal")
EXHIBIT_MIN_FLOORS = 20


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _person(rng: random.Random, used: set[tuple[str, str]]) -> str:
    """A new person's name, sometimes with a middle initial. No two people of the wiki share a surname and an
    initial of a given name (as the answer judge reads names), so any form of a name means one person."""
    from embodiedweb.domains.outdoor.answers import person_keys  # the judge's own reading of names

    while True:
        given, surname = rng.choice(GIVEN_NAMES), rng.choice(SURNAMES)
        middle = rng.choice("ABCDEFGHJKLMNPRSTVW") if rng.random() < 0.4 else ""
        name = f"{given} {middle + '. ' if middle else ''}{surname}"
        keys = person_keys(name)
        if len(keys) == (2 if middle else 1) and not keys & used:
            used.update(keys)
            return name


def world_facts(p: dict[str, Any], used: set[tuple[str, str]]) -> dict[str, dict[str, Any]]:
    """The place's own details (see above): key -> ``{"kind", "value", ..., "text"}``; ``used`` holds the
    (first initial, surname) pairs of people already in the wiki and is updated."""
    rng = random.Random(f"{WORLD_SEED}:{p['place_id']}")
    out: dict[str, dict[str, Any]] = {}
    honoree = _person(rng, used)
    out["plaque_honoree"] = {"kind": "name", "value": honoree,
                             "text": f"A bronze plaque beside the main entrance honours {honoree}, "
                                     f"{rng.choice(PLAQUE_ROLES)}."}
    leads = f"{_person(rng, used)} and {_person(rng, used)}"
    out["restoration_leads"] = {"kind": "name", "value": leads,
                                "text": f"The most recent restoration of the site was led by the architects {leads}."}
    minutes = rng.randrange(8 * 60, 18 * 60, 5)
    h, m = divmod(minutes, 60)
    when = f"{(h - 1) % 12 + 1}:{m:02d} {'am' if h < 12 else 'pm'}"
    out["tour_time"] = {"kind": "time", "value": when,
                        "text": f"Free guided walks leave from the main entrance every Saturday at {when}."}
    length = rng.randrange(40, 401) / 10
    out["mosaic_length"] = {"kind": "number", "value": f"{length:.1f}", "unit": "m",
                            "tol": round(max(0.16, 0.01 * length), 2),  # half a foot: the feet are rounded
                            "text": f"A mosaic of {rng.choice(MOSAIC_SUBJECTS)} beside the main entrance is "
                                    f"{length:.1f} metres ({round(length / 0.3048)} feet) long."}
    year = rng.randrange(2030, 2150)
    out["capsule_year"] = {"kind": "number", "value": str(year), "unit": "year", "tol": 0,
                           "text": f"A time capsule is buried by the main entrance; it is to be opened in {year}."}
    if (p.get("floors") or 0) >= EXHIBIT_MIN_FLOORS:
        floor = rng.randrange(2, int(p["floors"]))
        out["exhibit_floor"] = {"kind": "number", "value": str(floor), "unit": "floor", "tol": 0,
                                "text": f"A permanent exhibition on the history of the site is on the "
                                        f"{_ordinal(floor)} floor."}
    animal = rng.choice(ANIMALS)
    out["sculpture_animal"] = {"kind": "choice", "value": animal, "choices": list(ANIMALS),
                               "text": f"A small bronze sculpture of {'an' if animal[0] in 'aeiou' else 'a'} {animal} "
                                       "stands beside the main entrance."}
    return out


# --- generation --------------------------------------------------------------------------------

# category -> (singular as in a lead, plural as a list's title)
CATEGORY_LABELS: dict[str, tuple[str, str]] = {k: tuple(v)  # type: ignore[misc]
                                               for k, v in _TABLE["category_labels"].items()}


def neighborhood_slug(name: str, place_ids: set[str]) -> str:
    if name == "Central Park":
        return "central-park"
    s = slugify(name)
    return f"{s}-neighborhood" if s in place_ids else s


def short_address(address: str) -> str:
    return re.sub(r",\s*New York,\s*NY\s*\d{5}$", "", address)


def with_article(label: str) -> str:
    """``label`` after its indefinite article: "an educational institution", "a museum" (by the first letter)."""
    return ("an " if label[:1].lower() in "aeiou" else "a ") + label


def _round_m(d: float) -> int:
    return int(round(d / 10.0) * 10)


def _architect_slugs(architect: str) -> list[str]:
    return [slug for slug, (_, aliases, _, _) in ARCHITECTS.items() if any(a in architect for a in aliases)]


def _style_slug(style: str) -> str | None:
    return STYLES[style][0] if style in STYLES else None


#: what every place article says about itself: the real place, except what this benchmark's world adds
PLACE_FOOTER = ("Opening hours are illustrative. The details under \"On site\" (plaques, walks, mosaics, time "
                "capsules, exhibitions, sculptures, restorations) belong to this benchmark's world, not to the real "
                "place; the rest describes the real place.")


def on_grid(places: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Places whose ``cross_streets`` say where the street world has them: the corner (``"1st Ave & E 43rd
    St"``) or the block (``"W 57th St between 7th Ave & Broadway"``) of the node the map, the street views
    and the checkers use for the place, so the wiki never sends a walker to another corner. Places beyond
    the street world keep their written cross streets."""
    from embodiedweb.worlds.street.city import build_city, streets_path

    city = build_city(json.loads(streets_path().read_text()))
    city.set_places(places)
    out = []
    for p in places:
        node = city.place_node(str(p.get("place_id")))
        out.append({**p, "cross_streets": city.intersection_name(node)} if node else dict(p))
    return out


def place_facts(p: dict[str, Any]) -> dict[str, str]:
    """Machine-readable facts of a place article (all values are strings, as they appear in the text)."""
    out = {"name": p["name"], "category": p["category"], "address": p["address"],
           "cross_streets": p["cross_streets"], "neighborhood": p["neighborhood"]}
    for key in ("year_built", "opened", "architect", "architectural_style", "height_m", "floors", "opening_hours"):
        if p.get(key) not in (None, ""):
            out[key] = str(p[key])
    return out


def _place_article(p: dict[str, Any], places: list[dict[str, Any]], ids: set[str]) -> dict[str, Any]:
    name, cat = p["name"], p["category"]
    label, list_title = CATEGORY_LABELS[cat]
    hood = p["neighborhood"]
    hslug = neighborhood_slug(hood, ids)
    addr = short_address(p["address"])
    year, opened = p.get("year_built"), p.get("opened")
    style, architect = p.get("architectural_style"), p.get("architect")
    sslug = _style_slug(style) if style else None
    style_link = f"[[{sslug}|{style}]]" if sslug else style
    arch_slugs = _architect_slugs(architect) if architect else []

    lead = f"{name} is {with_article(label)} in [[{hslug}|{hood}]], [[manhattan|Manhattan]], New York City, at {addr} ({p['cross_streets']})."
    bits = []
    if year:
        bits.append(f"It was completed in {year}")
    if architect:
        bits.append(("it was designed by " if not bits else "to a design by ") + architect)
    if style:
        bits.append(f"in the {style_link} style")
    if bits:
        s = bits[0] + (", " + " ".join(bits[1:]) if len(bits) > 1 and not bits[1].startswith("in the") else
                       (" " + " ".join(bits[1:]) if len(bits) > 1 else ""))
        lead += " " + s[0].upper() + s[1:] + "."
    if cat == "store":
        lead += (" It is one of the four stores of the [[list-of-stores-of-the-shop-website|shop website]], where "
                 "its products and prices can be compared.")

    history: list[str] = []
    if p.get("history"):
        history.append(p["history"])
    if year and opened and str(opened) != str(year):
        history.append(f"Construction was completed in {year}; it opened in {opened}.")
    elif year and opened:
        history.append(f"It was completed and opened in {year}.")
    elif year:
        history.append(f"Construction was completed in {year}.")
    elif opened:
        history.append(f"It opened in {opened}.")
    if not history:
        history.append(f"This wiki records no founding date for {name}.")

    arch: list[str] = []
    if architect:
        who = architect
        if arch_slugs:
            who += " (see " + ", ".join(f"[[{s}|{ARCHITECTS[s][0]}]]" for s in arch_slugs) + ")"
        arch.append(f"Architect: {who}.")
    if style:
        arch.append(f"Architectural style: {style_link}.")
    if p.get("height_m"):
        h = p["height_m"]
        arch.append(f"Height: {h} metres (about {round(h / 0.3048):,} feet).")
    if p.get("floors"):
        arch.append(f"Floors: {p['floors']}.")

    stations = [q for q in places if q["category"] == "station" and q["place_id"] != p["place_id"]]
    near_st = min(stations, key=lambda q: haversine_m(p["lat"], p["lng"], q["lat"], q["lng"]))
    d_st = _round_m(haversine_m(p["lat"], p["lng"], near_st["lat"], near_st["lng"]))
    others = sorted((q for q in places if q["place_id"] != p["place_id"]),
                    key=lambda q: (haversine_m(p["lat"], p["lng"], q["lat"], q["lng"]), q["place_id"]))[:4]
    visiting = [f"Address: {p['address']}.", f"On the street grid: {p['cross_streets']}."]
    if p.get("opening_hours"):
        visiting.append(f"Opening hours: {p['opening_hours']} (illustrative; check before visiting).")
    visiting.append(f"The nearest station listed in this wiki is [[{near_st['place_id']}|{near_st['name']}]], about "
                    f"{d_st} metres away in a straight line.")
    visiting.append("Nearby (straight-line distances): " + "; ".join(
        f"[[{q['place_id']}|{q['name']}]] ({_round_m(haversine_m(p['lat'], p['lng'], q['lat'], q['lng']))} m)"
        for q in others) + ".")

    sections = [{"heading": "History", "paragraphs": history},
                {"heading": "Architecture", "paragraphs": arch},
                {"heading": "Visiting", "paragraphs": visiting}]
    if p.get("notable_facts"):
        sections.append({"heading": "Notable facts", "paragraphs": list(p["notable_facts"])})
    rel = [r for r in p.get("related", []) if r != p["place_id"]]
    if rel:
        sections.append({"heading": "See also", "paragraphs": [", ".join(f"[[{r}]]" for r in rel)]})

    infobox = [["Type", label.capitalize()], ["Neighborhood", hood], ["Address", addr],
               ["Cross streets", p["cross_streets"]], ["Coordinates", f"{p['lat']:.4f}, {p['lng']:.4f}"]]
    if year:
        infobox.append(["Completed", str(year)])
    if opened:
        infobox.append(["Opened", str(opened)])
    if architect:
        infobox.append(["Architect", architect])
    if style:
        infobox.append(["Architectural style", style])
    if p.get("height_m"):
        infobox.append(["Height", f"{p['height_m']} m"])
    if p.get("floors"):
        infobox.append(["Floors", str(p["floors"])])
    if p.get("opening_hours"):
        infobox.append(["Opening hours", p["opening_hours"]])

    cats = [list_title, hood]
    if style:
        cats.append(f"{style} buildings")
    if year:
        cats.append(f"Built in the {int(year) // 10 * 10}s")
    return {"slug": p["place_id"], "title": name, "kind": "place", "place_id": p["place_id"], "lead": lead,
            "sections": sections, "infobox": infobox, "categories": cats, "facts": place_facts(p),
            "coordinates": [p["lat"], p["lng"]], "footer": PLACE_FOOTER}


def _list_section(places: list[dict[str, Any]], group_key: str) -> list[dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for p in places:
        groups.setdefault(p[group_key] if group_key != "category" else CATEGORY_LABELS[p["category"]][1],
                          []).append(p)
    out = []
    for g in sorted(groups):
        items = sorted(groups[g], key=lambda p: p["name"])
        out.append({"heading": g, "paragraphs": [
            f"[[{p['place_id']}|{p['name']}]]" + (f", completed {p['year_built']}" if p.get("year_built") else "")
            + f" - {short_address(p['address'])}" for p in items]})
    return out


def _topic(slug: str, title: str, kind: str, lead: str, paragraphs: list[str], categories: list[str],
           extra: list[dict[str, Any]] | None = None, infobox: list[list[str]] | None = None) -> dict[str, Any]:
    sections = [{"heading": "Overview", "paragraphs": paragraphs}] if paragraphs else []
    return {"slug": slug, "title": title, "kind": kind, "lead": lead, "sections": sections + (extra or []),
            "infobox": infobox or [], "categories": categories}


def build(places: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    if places is None:
        places = json.loads((data_dir() / "places" / "places.json").read_text(encoding="utf-8"))
    places = on_grid(places)
    ids = {p["place_id"] for p in places}
    arts: list[dict[str, Any]] = [_place_article(p, places, ids) for p in places]
    used: set[tuple[str, str]] = set()
    for p, a in sorted(zip(places, arts, strict=True), key=lambda pa: pa[0]["place_id"]):
        a["world_facts"] = world_facts(p, used)
        at = [s["heading"] for s in a["sections"]].index("Visiting") + 1
        a["sections"].insert(at, {"heading": "On site", "paragraphs": [
            a["world_facts"][k]["text"] for k in WORLD_FACT_KEYS if k in a["world_facts"]]})

    hoods = sorted({p["neighborhood"] for p in places})
    for h in hoods:
        slug = neighborhood_slug(h, ids)
        if slug in ids:
            continue
        lead, paras = NEIGHBORHOODS[h]
        members = [p for p in places if p["neighborhood"] == h]
        arts.append(_topic(slug, h if slug == slugify(h) else f"{h} (neighborhood)", "neighborhood", lead, paras,
                           ["Neighborhoods"], [{"heading": "Places in this wiki", "paragraphs": []}]
                           + _list_section(members, "category"),
                           [["Borough", "Manhattan"], ["Places in this wiki", str(len(members))]]))
        arts[-1]["sections"] = [s for s in arts[-1]["sections"] if s["paragraphs"]]

    for style, (slug, lead, paras) in STYLES.items():
        members = [p for p in places if p.get("architectural_style") == style]
        extra = [{"heading": "Examples in this wiki", "paragraphs": [
            f"[[{p['place_id']}|{p['name']}]]" + (f" ({p['year_built']})" if p.get("year_built") else "")
            for p in sorted(members, key=lambda p: (p.get("year_built") or 0, p["name"]))]}] if members else []
        arts.append(_topic(slug, style if style not in ("Georgian", "Federal", "Postmodern", "Neoclassical")
                           else {"Georgian": "Georgian architecture", "Federal": "Federal architecture",
                                 "Postmodern": "Postmodern architecture",
                                 "Neoclassical": "Neoclassical architecture"}[style],
                           "style", lead, paras, ["Architectural styles"], extra))

    for slug, (title, aliases, lead, paras) in ARCHITECTS.items():
        members = [p for p in places if p.get("architect") and any(a in p["architect"] for a in aliases)]
        extra = [{"heading": "Works in this wiki", "paragraphs": [
            f"[[{p['place_id']}|{p['name']}]]" + (f" ({p['year_built']})" if p.get("year_built") else "")
            for p in sorted(members, key=lambda p: (p.get("year_built") or 0, p["name"]))]}] if members else []
        arts.append(_topic(slug, title, "architect", lead, paras, ["Architects"], extra))

    for slug, (title, lead, paras, cats) in TOPICS.items():
        arts.append(_topic(slug, title, "topic", lead, paras, cats))

    for cat, (label, list_title) in CATEGORY_LABELS.items():
        members = [p for p in places if p["category"] == cat]
        if not members:
            continue
        slug = "list-of-" + slugify(list_title)
        arts.append(_topic(slug, f"List of {list_title[0].lower() + list_title[1:]}"
                           if cat != "store" else "List of stores of the shop website", "list",
                           f"This list gives the {len(members)} places of the type '{label}' described in this "
                           f"wiki, grouped by neighborhood.", [], ["Lists"],
                           _list_section(members, "neighborhood")))

    for a in arts:
        a["summary"] = plain_text(a["lead"])
        links: list[str] = []
        for text in [a["lead"]] + [t for s in a["sections"] for t in s["paragraphs"]]:
            for s in link_slugs(text):
                if s not in links:
                    links.append(s)
        a["links"] = links
    slugs = [a["slug"] for a in arts]
    dup = {s for s in slugs if slugs.count(s) > 1}
    if dup:
        raise ValueError(f"duplicate article slugs: {sorted(dup)}")
    known = set(slugs)
    titles = {a["slug"]: a["title"] for a in arts}
    bad = sorted({(a["slug"], s) for a in arts for s in a["links"] if s not in known})
    if bad:
        raise ValueError(f"unresolved links: {bad}")
    # give bare [[slug]] links their article title as label
    for a in arts:
        def fill(text: str) -> str:
            return LINK_RX.sub(lambda m: m.group(0) if m.group(2) else f"[[{m.group(1)}|{titles[m.group(1)]}]]", text)
        a["lead"] = fill(a["lead"])
        for s in a["sections"]:
            s["paragraphs"] = [fill(t) for t in s["paragraphs"]]
    return sorted(arts, key=lambda a: a["slug"])


def write(path: Path | None = None) -> Path:
    path = path or data_dir() / "wiki" / "articles.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    arts = build()
    lines = ["["]
    for i, a in enumerate(arts):
        lines.append("  " + json.dumps(a, sort_keys=True, ensure_ascii=False) + ("," if i < len(arts) - 1 else ""))
    lines.append("]")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    print(write())
