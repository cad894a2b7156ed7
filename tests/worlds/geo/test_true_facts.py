"""Issue 21 (geolocation): a world that tells the truth and fair observations.

- No generated sign or page states a telephone area code; the codes that are stated (international
  prefixes, web domains) are the real ones.
- Scene text is per place: a standpoint's overrides (pedestrian street, building types, plants, posts)
  are what its views show; a pedestrian street shows no cars and no road lines.
- The geolocation world labels neighbours with the street world's function (one word per neighbour)
  and its forward/left/right walk to the neighbour their descriptions name.
"""

from __future__ import annotations

import json
import re

import pytest

from embodiedweb.actions.registry import REGISTRY
from embodiedweb.data_gen import geo as gen
from embodiedweb.data_gen.geo_cues import PHONE_DIGITS
from embodiedweb.data_gen.geo_places import SPOTS
from embodiedweb.paths import data_dir
from embodiedweb.worlds.geo import GeoWorld, load_standpoints
from embodiedweb.worlds.geo.world import HEADINGS
from embodiedweb.worlds.street.geo import angle_diff, neighbour_labels

SPS = load_standpoints()
# the standard tier's standpoint of each place (the hard tier's, of the same places, are tested with it:
# tests/domains/geolocation/test_hard_geolocation.py)
BY_PLACE = {(s["country_code"], s["city"], s["street"]): s for s in SPS.values() if s.get("tier") != "hard"}
ARTICLES = json.loads((data_dir() / "wiki" / "cues.json").read_text(encoding="utf-8"))

# The real international prefixes (ITU-T E.164) and country-code top-level domains (IANA) of the
# countries on the wiki, written out here independently of the generator's table.
REAL_CODES = {
    "GB": ("+44", ".uk"), "IE": ("+353", ".ie"), "FR": ("+33", ".fr"), "DE": ("+49", ".de"), "AT": ("+43", ".at"),
    "CH": ("+41", ".ch"), "ES": ("+34", ".es"), "PT": ("+351", ".pt"), "IT": ("+39", ".it"), "NL": ("+31", ".nl"),
    "PL": ("+48", ".pl"), "CZ": ("+420", ".cz"), "HU": ("+36", ".hu"), "SE": ("+46", ".se"), "NO": ("+47", ".no"),
    "FI": ("+358", ".fi"), "DK": ("+45", ".dk"), "GR": ("+30", ".gr"), "RU": ("+7", ".ru"), "UA": ("+380", ".ua"),
    "RO": ("+40", ".ro"), "BG": ("+359", ".bg"), "TR": ("+90", ".tr"), "GE": ("+995", ".ge"), "AM": ("+374", ".am"),
    "JP": ("+81", ".jp"), "KR": ("+82", ".kr"), "CN": ("+86", ".cn"), "TW": ("+886", ".tw"), "TH": ("+66", ".th"),
    "IN": ("+91", ".in"), "ID": ("+62", ".id"), "MY": ("+60", ".my"), "SG": ("+65", ".sg"), "PH": ("+63", ".ph"),
    "VN": ("+84", ".vn"), "IL": ("+972", ".il"), "AE": ("+971", ".ae"), "ZA": ("+27", ".za"), "KE": ("+254", ".ke"),
    "NG": ("+234", ".ng"), "GH": ("+233", ".gh"), "EG": ("+20", ".eg"), "MA": ("+212", ".ma"), "TN": ("+216", ".tn"),
    "SN": ("+221", ".sn"), "ET": ("+251", ".et"), "US": ("+1", ".us"), "CA": ("+1", ".ca"), "MX": ("+52", ".mx"),
    "CR": ("+506", ".cr"), "BR": ("+55", ".br"), "AR": ("+54", ".ar"), "CL": ("+56", ".cl"), "CO": ("+57", ".co"),
    "PE": ("+51", ".pe"), "UY": ("+598", ".uy"), "AU": ("+61", ".au"), "NZ": ("+64", ".nz"),
}
ROAD_KINDS = {"traffic", "plate", "centre", "edge", "bollard"}


def _items(s):
    return [(n, h, it) for n, node in s["nodes"].items() for h, v in node["views"].items() for it in v]


def _article_lines(a):
    return [a["title"], a["summary"], *(p for s in a["sections"] for p in s["paragraphs"]),
            *(f"{k}: {v}" for k, v in a["infobox"])]


# ------------------------------------------------------------------ codes
def test_phone_numbers_state_only_the_real_country_prefix():
    """A phone number on a sign is the country's prefix and one block of digits of the same length in
    every country: no group that could be read as an area code, and never a distinguishing cue."""
    seen = 0
    for s in SPS.values():
        prefix = REAL_CODES[s["country_code"]][0]
        for _n, _h, it in _items(s):
            if it.get("role") != "phone":
                continue
            seen += 1
            assert re.fullmatch(rf"{re.escape(prefix)} [1-9]\d{{{PHONE_DIGITS - 1}}}", it["text"]), (s["id"], it)
            assert not it.get("distinguishing") and it.get("hint")
        assert all(c["cue"] != "phone" for c in s["distinguishing"])
    assert seen >= 100  # the prefix is still a country-level cue (about half of the standpoints show one)


def test_no_page_states_an_area_code():
    for a in ARTICLES:
        assert not a["slug"].startswith("telephone-numbers-in-"), a["slug"]
        for line in _article_lines(a):
            assert not re.search(r"area.code", line, re.I), (a["slug"], line)


def test_stated_codes_match_the_real_values():
    assert {c["code"] for c in gen.COUNTRIES} == set(REAL_CODES)
    for c in gen.COUNTRIES:
        assert (c["phone"], c["tld"]) == REAL_CODES[c["code"]], c["name"]
    arts = {a["slug"]: a for a in ARTICLES}
    for c in gen.COUNTRIES:
        info = dict(arts[gen.slugify(c["name"])]["infobox"])
        assert (info["Phone prefix"], info["Web domain"]) == REAL_CODES[c["code"]], c["name"]
    codes = [p for s in arts["telephone-country-codes"]["sections"] for p in s["paragraphs"]]
    for c in gen.COUNTRIES:
        assert any(p.startswith(f"{c['phone']}: ") and c["name"] in p for p in codes), c["name"]
    for s in SPS.values():
        tld = REAL_CODES[s["country_code"]][1]
        for _n, _h, it in _items(s):
            if it.get("role") == "domain":
                assert it["text"].endswith(tld if tld != ".uk" else ".co.uk"), (s["id"], it["text"])


# ------------------------------------------------------------------ scenes per place
def _spot(code, city):
    return next(sp for sp in SPOTS if sp[0] == code and sp[1] == city)


def test_overrides_use_known_keys_and_values():
    allowed = {"shop", "plates", "continent", "continent_alt", "hotel", *gen.SCENE_KEYS}
    for sp in SPOTS:
        over = sp[7]
        assert set(over) <= allowed, (sp[1], set(over) - allowed)
        assert set(over.get("arch", [])) <= set(gen.ARCH), sp[1]
        assert set(over.get("veg", [])) <= set(gen.VEG), sp[1]
        assert over.get("pole", "plain") in gen.POLE, sp[1]
        assert over.get("pedestrian", True) in (True, "trams", "buses"), sp[1]


def test_scene_overrides_appear_in_the_views():
    """Every building, plant and post a standpoint shows is of the kinds its scene says (the place's
    overrides, else the country's defaults); the start's north view shows its first building type."""
    for sp in SPOTS:
        s = BY_PLACE[(sp[0], sp[1], sp[2])]
        scene = gen.scene_of(sp)
        items = [it for _n, _h, it in _items(s)]
        arch = {it["style"] for it in items if it["kind"] == "building"}
        assert arch == set(scene["arch"][:2]), (sp[1], arch, scene["arch"])
        assert {it["style"] for it in items if it["kind"] == "vegetation"} == set(scene["veg"][:2]), sp[1]
        assert {it["style"] for it in items if it["kind"] == "pole"} == {scene["pole"]}, sp[1]
        north = s["nodes"][s["start"]]["views"]["N"]
        assert any(it["kind"] == "building" and it["style"] == scene["arch"][0] for it in north), sp[1]


@pytest.mark.parametrize("code,city,wrong", [
    ("US", "Los Angeles", "brick_terrace"), ("KE", "Kisumu", "colonial"), ("DE", "Munich", "plattenbau"),
    ("JP", "Tokyo", "jp_stripe"), ("US", "Boston", "palm"), ("US", "Chicago", "wood_transformer"),
])
def test_review_examples_are_gone(code, city, wrong):
    s = next(s for s in SPS.values() if s["country_code"] == code and s["city"] == city)
    assert all(it.get("style") != wrong for _n, _h, it in _items(s)), (city, wrong)


def test_pedestrian_streets_show_no_cars_and_no_road_lines():
    pedestrian = [sp for sp in SPOTS if gen.scene_of(sp)["pedestrian"] is not None]
    assert len(pedestrian) >= 60
    named = {(sp[1], sp[2]) for sp in pedestrian}
    assert {("Florence", "Via dei Calzaiuoli"), ("Szeged", "Kárász utca"), ("Budapest", "Váci utca"),
            ("Glasgow", "Buchanan Street"), ("Adelaide", "Rundle Mall")} <= named
    w = GeoWorld()
    for sp in pedestrian:
        s = BY_PLACE[(sp[0], sp[1], sp[2])]
        kinds = {it["kind"] for _n, _h, it in _items(s)}
        assert not kinds & ROAD_KINDS, (sp[1], kinds & ROAD_KINDS)
        roads = [it for _n, _h, it in _items(s) if it["kind"] == "road"]
        assert roads and all(r["pedestrian"] and r["centre"] is None and r["edge"] is None for r in roads)
        for node in s["nodes"]:
            w.reset({"standpoint": s["id"]}, 0)
            w.node = node
            text = w.text()
            assert "pedestrian street, closed to cars" in text, (sp[1], text)
            for phrase in ("Cars keep", "down the middle of the road", "licence plate", "along the kerb",
                           "edge of the road", "Roadside posts"):
                assert phrase not in text, (sp[1], phrase)
    # streets with traffic still show it
    for sp in SPOTS:
        if gen.scene_of(sp)["pedestrian"] is None:
            s = BY_PLACE[(sp[0], sp[1], sp[2])]
            assert sum(it["kind"] == "traffic" for _n, _h, it in _items(s)) == 2, sp[1]


def test_pedestrian_street_is_drawn_paved_without_cars():
    import numpy as np

    from embodiedweb.worlds.geo.render import render_panel

    def colours(items):
        return {tuple(c) for c in np.asarray(render_panel(items, 160, 120, "x")).reshape(-1, 3)}

    s = BY_PLACE[("IT", "Florence", "Via dei Calzaiuoli")]
    along = s["nodes"][s["start"]]["views"]["S"]
    got = colours(along)
    assert (175, 165, 150) in got and (70, 70, 75) not in got  # paving, no asphalt
    road = BY_PLACE[("FR", "Paris", "Rue de Rivoli")]
    assert (70, 70, 75) in colours(road["nodes"][road["start"]]["views"]["E"])


# ------------------------------------------------------------------ labels and actions
def _described_label(action: str) -> str:
    m = re.search(r"labelled ([\w-]+)", REGISTRY.specs[action].description)
    assert m, REGISTRY.specs[action].description
    return m.group(1)


def test_no_geo_node_has_two_neighbours_under_one_label_and_actions_walk_there():
    w = GeoWorld()
    checked = 0
    for sid, s in SPS.items():
        w.reset({"standpoint": sid}, 0)
        for nid, node in s["nodes"].items():
            arrivals = [float(HEADINGS[h]) for h in node["neighbors"]] + [0.0, 90.0, 180.0, 270.0]
            for heading in arrivals:
                w.node, w.heading = nid, heading
                labels = w.labels()
                opts = [(nb, float(HEADINGS[h])) for h, nb in node["neighbors"].items()]
                assert labels == neighbour_labels(heading, opts)
                assert len(set(labels.values())) == len(labels), (sid, nid, heading, labels)
                line = next(x for x in w.text().splitlines() if x.startswith("Adjacent viewpoints"))
                shown = dict(re.findall(r"(v[0-9a-f]{10}) \(\w+, ([\w-]+), about", line))
                assert shown == labels, (line, labels)
                for a in ("forward", "left", "right"):
                    want = [nb for nb, lb in labels.items() if lb == _described_label(a)]
                    w.node, w.heading = nid, heading
                    before = w.semantic_state()["moves"]
                    msg = w.execute(a, {})
                    if want:
                        assert msg == "" and w.node == want[0], (sid, nid, heading, a, msg)
                        assert w.heading == float(HEADINGS[[h for h, nb in node["neighbors"].items()
                                                            if nb == want[0]][0]])
                        checked += 1
                    elif msg == "":  # no neighbour has the word: a walk to one on that side or behind
                        assert w.semantic_state()["moves"] == before + 1 and w.node in node["neighbors"].values()
                        rel = angle_diff(float(HEADINGS[[h for h, nb in node["neighbors"].items()
                                                         if nb == w.node][0]]), heading)
                        assert a != "forward" and (abs(rel) >= 90 or (rel < 0) == (a == "left")), (a, rel)
                    w.reset({"standpoint": sid}, 0)
    assert checked > 2000


def test_world_docstring_says_actions_walk():
    from embodiedweb.worlds.geo import world

    doc = world.__doc__ or ""
    assert "turn to face" not in doc and "neighbour_labels" in doc and "walk to the neighbour labelled" in doc


def test_road_views_say_where_the_walkable_street_ends():
    """A view along the street says "you cannot walk further" exactly where there is no viewpoint that way."""
    ends = 0
    for sp in SPS.values():
        for nid, node in sp["nodes"].items():
            for h, items in node["views"].items():
                for it in items:
                    if it["kind"] != "road":
                        continue
                    says_end = "cannot walk further" in it["say"]
                    assert says_end == (h not in node["neighbors"]), (sp["id"], nid, h, it["say"])
                    ends += says_end
    assert ends >= 2 * len(SPS)  # both ends of every street


def test_transit_stops_match_the_street_and_shop_words_the_city():
    """A bus stop only where buses can run (a tram stop on a tram-only pedestrian street); shop signs use
    the words of the city's own language (no French pharmacy on a Zurich street, no Quebec word in Toronto)."""
    from embodiedweb.data_gen.geo_places import CITY_SHOP

    for spot in SPOTS:
        code, city, street = spot[:3]
        sp, scene = BY_PLACE[(code, city, street)], gen.scene_of(spot)
        says = [it["say"] for node in sp["nodes"].values() for items in node["views"].values() for it in items
                if it.get("say")]
        if scene["pedestrian"] not in (None, "buses"):
            assert not any("bus stop" in s for s in says), (city, street)
        words = {w for w, _tr, _m in spot[7].get("shop", CITY_SHOP.get((code, city), []))}
        if words:
            shops = [it for node in sp["nodes"].values() for items in node["views"].values() for it in items
                     if it["kind"] == "sign" and it.get("role") in ("shop", "chain")]
            for it in shops:
                assert any(w in it["text"] for w in words), (city, street, it["text"], sorted(words))
