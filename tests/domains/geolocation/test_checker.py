"""The geolocation checker's parts on hand-made answers, goals and episodes (fast; mutation-tested by
`make mutate`): name normalisation, coordinate parsing, the lenient answer parser, the levels, and what
the episode must show (research)."""

from __future__ import annotations

import math

import pytest

from embodiedweb.domains.geolocation import checker as ck
from embodiedweb.domains.geolocation.checker import (
    Gazetteer,
    ParsedAnswer,
    check_answer,
    check_geolocation,
    load_gazetteer,
    norm,
    parse_answer,
    parse_coord,
    place_norm,
)

BERLIN = {"lat": 52.517, "lng": 13.3889, "continent": "Europe", "continent_alt": [], "country": "Germany",
          "city": "Berlin", "city_aliases": [], "city_centre": [52.520, 13.405], "street": "Friedrichstraße",
          "street_aliases": ["Friedrichstraße"]}
MANILA = {"lat": 14.599, "lng": 120.984, "continent": "Asia", "country": "Philippines", "city": "Manila",
          "street": "Roxas Boulevard"}


@pytest.fixture(scope="module")
def gz():
    return load_gazetteer()


@pytest.fixture(autouse=True)
def _fresh_term_cache(monkeypatch):
    """Each test computes the other places' cue terms afresh: a value cached by an earlier test (or, under
    ``make mutate``, by an earlier mutant's run in the same process) would hide the code that makes it."""
    monkeypatch.setattr(ck, "_OTHER_TERMS", {})


def fields(p: ParsedAnswer):
    return (p.lat, p.lng, p.continent, p.country, p.city, p.street)


# ------------------------------------------------------------------------------------------ names
@pytest.mark.parametrize("raw,want", [
    ("Friedrichstraße", "friedrichstrasse"), ("FRIEDRICHSTRAẞE", "friedrichstrasse"), ("Kırıkkale", "kirikkale"),
    ("İstanbul", "istanbul"), ("Łódź", "lodz"), ("łódź", "lodz"), ("Đakovo", "dakovo"), ("đakovo", "dakovo"),
    ("Ørestad", "orestad"), ("østerbro", "osterbro"), ("Æbeltoft", "aebeltoft"), ("cæsar", "caesar"),
    ("œuvre", "oeuvre"), ("  Rue   de  l'Église—Saint! ", "rue de l eglise saint"), ("", ""), (None, ""),
])
def test_norm(raw, want):
    assert norm(raw) == want


def test_place_norm():
    assert place_norm("St. Petersburg") == "saint petersburg"
    assert place_norm("Ste-Foy") == "sainte foy"
    assert place_norm("Mt Hagen") == "mount hagen" and place_norm("Ft. Worth") == "fort worth"
    assert place_norm("The Hague") == "hague" and place_norm("Bath the") == "bath the"
    assert place_norm("the") == ""


def test_country_table_and_find_countries(gz):
    t = ck._country_table({"Narnia": ["The Kingdom of Narnia", "NA-R"]})
    assert t["narnia"] == t["the kingdom of narnia"] == t["kingdom of narnia"] == t["na r"] == "Narnia"
    assert t["usa"] == "United States" and t["united states"] == "United States"
    assert gz.find_countries("Germany and Austria, germany") == ["Germany", "Austria"]
    assert gz.find_countries("United States of America") == ["United States"]
    # the longest alias (8 words) is found whole
    assert gz.find_countries("the United Kingdom of Great Britain and Northern Ireland") == ["United Kingdom"]
    assert gz.find_countries("nowhere") == [] and gz.find_countries("") == []


def test_scan_takes_the_longest_name_first():
    idx = {"a b": (0,), "a": (1,), "b": (2,), "c": (0, 3)}
    assert ck._scan(["a", "b", "a", "x", "c", "b"], idx, 2) == [0, 1, 3, 2]
    assert ck._scan(["a", "b"], idx, 1) == [1, 2]
    assert ck._scan([], idx, 2) == []
    assert ck._strip_city("cebu city") == "cebu" and ck._strip_city(" city") == " city"
    assert ck._strip_city("city") == "city" and ck._strip_city("cebu") == "cebu"


def test_gazetteer_city_lookups(gz):
    berlin, hamburg = gz.exact_city("Berlin"), gz.exact_city("Hamburg")
    assert len(berlin) == 1 and gz.cities[berlin[0]]["name"] == "Berlin"
    assert gz.exact_city("berlin!") == berlin and gz.exact_city("Berlin Hamburg") == []
    assert gz.find_cities("from Berlin to Hamburg and back to berlin") == berlin + hamburg
    assert gz.exact_city("Cebu") == gz.exact_city("Cebu City") != []
    assert gz.exact_city("Mexico") == []  # the country, not Mexico City


def test_region_phrases():
    names = (("rio", "grande", "do", "sul"), ("zurich",))
    span = ck._region_span
    assert span("canton of zurich x".split(), 0, names) == 3 and span("the canton of zurich".split(), 0, names) == 4
    assert span("zurich canton".split(), 0, names) == 2 and span("kanton zurich".split(), 0, names) == 2
    assert span("rio grande do sul state".split(), 0, names) == 5 and span("estado do rio grande do sul".split(), 0,
                                                                           names) == 6
    assert span("zurich".split(), 0, names) == 1 and span("x zurich".split(), 1, names) == 1
    assert span("rio".split(), 0, names) == 0 and span("canton".split(), 0, names) == 0
    assert span("canton of".split(), 0, names) == 0 and span("zurich".split(), 0, ()) == 0
    assert span("the zurich".split(), 0, names) == 0  # "the" only before a region word
    assert ck._region_word("metropolitan city of x".split(), 0) == 2 and ck._region_word(["x"], 0) == 0
    idx = {"zurich": (0,), "canton": (1,), "rio": (2,), "geneva": (3,)}

    def at(toks):
        return lambda i: ck._match(toks, i, idx, 1)

    toks = "geneva canton of zurich".split()
    assert ck._beside_regions(toks, names, at(toks)) == [3] and ck._scan(toks, idx, 1) == [3, 1, 0]
    toks = "geneva rio grande do sul".split()  # the longer reading wins: the region, not "rio"
    assert ck._beside_regions(toks, names, at(toks)) == [3] and ck._scan(toks, idx, 1) == [3, 2]
    toks = "canton of geneva".split()  # not a region of these names: read as before
    assert ck._beside_regions(toks, names, at(toks)) == [1, 3]
    toks = "zurich zurich".split()  # as long: the region reading wins
    assert ck._beside_regions(toks, names, at(toks)) == []


def test_a_citys_own_region_is_not_a_second_city(gz):
    def names(text):
        return [gz.cities[i]["name"] for i in gz.named_cities(text)]

    assert names("Zurich, Canton of Zurich") == ["Zurich"] and names("Seattle, Washington") == ["Seattle"]
    assert names("Washington State, Seattle") == ["Seattle"] and names("Montreal, Quebec") == ["Montreal"]
    assert names("Quebec, Montreal") == ["Montreal"] and names("Quebec City, Quebec") == ["Quebec City"]
    assert names("Porto Alegre, Rio Grande do Sul") == ["Porto Alegre"]
    assert names("Mar del Plata, Buenos Aires Province") == ["Mar del Plata"]
    assert names("Makati, Metro Manila") == ["Makati"] and names("Fez, Fès-Meknès") == ["Fez"]
    # a region that does not hold the city, or one city's region holding both: two cities as before
    assert names("Zurich, Geneva") == ["Zurich", "Geneva"] and names("Rosario, Buenos Aires") == ["Rosario", "Buenos Aires"]
    assert names("Boston, Washington") == ["Boston", "Washington, D.C."]
    assert names("Quebec City, Montreal, Quebec") == ["Quebec City", "Montreal"]
    assert names("Fès-Meknès") == ["Fez", "Meknes"]  # the region alone: both read it, so neither
    assert names("Washington") == ["Washington, D.C."] and names("Canton of Vaud") == ["Guangzhou"]
    bare = ck.replace(gz, regions=())
    assert [bare.cities[i]["name"] for i in bare.named_cities("Seattle, Washington")] == ["Seattle", "Washington, D.C."]
    seattle = gz.regions[gz.exact_city("Seattle")[0]]
    assert ("washington",) in seattle and ("washington", "state") in seattle and seattle == tuple(
        sorted(seattle, key=lambda k: (-len(k), k)))
    assert gz.regions[gz.exact_city("Washington DC")[0]] == (("district", "of", "columbia"),)


def test_a_countrys_region_is_not_a_second_country(gz):
    bare = ck.replace(gz, country_places={})  # without the places that hold a country's name
    assert bare.find_countries("New South Wales, Australia") == ["United Kingdom", "Australia"]
    assert bare.named_countries("New South Wales, Australia") == ["Australia"]
    assert gz.named_countries("Wales") == ["United Kingdom"] and gz.named_countries("Australia") == ["Australia"]
    assert gz.named_countries("Wales, Australia") == ["United Kingdom", "Australia"]
    assert gz.named_countries("Northern Ireland, UK") == ["United Kingdom"]
    assert ck.replace(bare, regions=()).named_countries("New South Wales, Australia") == ["United Kingdom", "Australia"]
    m = check_answer({**BERLIN, "country": "Australia", "city": "Sydney"}, "Sydney, New South Wales, Australia")
    assert m["country"] and m["city"]


def test_a_city_name_split_at_its_comma_is_one_part(gz):
    assert ck._spans(gz, "Seattle or Washington", " D.C.") and ck._spans(gz, "Washington", "DC")
    assert not ck._spans(gz, "Washington", "USA") and not ck._spans(gz, "Seattle", "Washington")
    assert not ck._spans(gz, "", "Berlin") and not ck._spans(gz, "Berlin", "")
    assert parse_answer("Seattle, Washington, D.C., USA").city == "Seattle, Washington, D.C."
    p = parse_answer("Pennsylvania Avenue, Washington, D.C., USA")
    assert (p.city, p.street, p.country) == ("Washington, D.C.", "Pennsylvania Avenue", "USA")
    dc = {**BERLIN, "country": "United States", "city": "Washington, D.C.", "city_aliases": ["Washington"]}
    assert check_answer(dc, "Washington, D.C., USA")["city"]
    assert not check_answer({**dc, "city": "Seattle"}, "Seattle, Washington, D.C., USA")["city"]


# ------------------------------------------------------------------------------------- coordinates
def test_hemispheres_and_numbers():
    assert ck._hemi(5.0, "s", "N", "S") == -5.0 and ck._hemi(-5.0, "N", "N", "S") == 5.0
    assert ck._hemi(-5.0, "", "N", "S") == -5.0 and ck._hemi(5.0, None, "E", "W") == 5.0
    assert ck._parse_number(" 48.86 ° n ") == (48.86, "N")
    assert ck._parse_number("48,86") == (48.86, "") and ck._parse_number("-12.5°w") == (-12.5, "W")
    assert ck._parse_number("+5") == (5.0, "")
    for bad in ("1234", "abc", "4 8", "", None, "48.86 NE"):
        assert ck._parse_number(bad) is None, bad


@pytest.mark.parametrize("text,want", [
    ("48.86, 2.34", (48.86, 2.34)), ("(48.86, 2.34)", (48.86, 2.34)), ("48.86 2.34", (48.86, 2.34)),
    ("48.86/2.34", (48.86, 2.34)), ("48.86;2.34", (48.86, 2.34)), ("48,86 2,34", (48.86, 2.34)),
    ("48.86N 2.34W", (48.86, -2.34)), ("33.87 S, 151.21 E", (-33.87, 151.21)),
    ("2.34 E, 48.86 N", (48.86, 2.34)), ("2.34 W, 48.86 S", (-48.86, -2.34)), ("13.389 E, 52.517", (52.517, 13.389)),
    ("48.86 N, 2.34", (48.86, 2.34)), ("-48.86, -2.34", (-48.86, -2.34)),
    ("-48.86 N, -2.34 E", (48.86, 2.34)), ("-2.34 E, -48.86 N", (48.86, 2.34)),  # the letter decides the sign
    ("Paris", None), ("48.86", None), ("48.86, 2.34, 5.1", None), (None, None),
])
def test_parse_coord(text, want):
    got = parse_coord(text)
    assert got == (pytest.approx(want) if want else None)


def test_parse_dms():
    lat, lng = ck._parse_dms("48°51′38″N 2°20′15″E")
    assert lat == pytest.approx(48 + 51 / 60 + 38 / 3600) and lng == pytest.approx(2 + 20 / 60 + 15 / 3600)
    assert ck._parse_dms("33°52'S, 151°12'E") == pytest.approx((-(33 + 52 / 60), 151 + 12 / 60))
    assert ck._parse_dms("151°12'E 33°52'S") == pytest.approx((-(33 + 52 / 60), 151 + 12 / 60))
    assert ck._parse_dms("48°51'38\"N 2°20'15\"W") == pytest.approx((48 + 51 / 60 + 38 / 3600, -(2 + 20 / 60 + 15 / 3600)))
    assert ck._parse_dms("48°N") is None and ck._parse_dms("48°N 2°E 3°W") is None
    assert ck._parse_dms("48°N 2°E near Paris") is None


def test_looks_like_coords():
    for t in ("48.8x, 2.3", "lat 48 lng 2", "48°N", "x1", "52.5.1, 13.4.2", "Latitude: 4"):
        assert ck.looks_like_coords(t), t
    for t in ("", None, "Paris", "Paris 75001", "ab1", "Route 66"):
        assert not ck.looks_like_coords(t), t


def test_junk():
    for t in (None, "", "N/A", "Unknown", " x ", "not sure", "na", "unsure", "none"):
        assert ck._junk(t), t
    assert not ck._junk("Paris") and not ck._junk("y")


def test_take_coords():
    def take(parts):
        out = ParsedAnswer()
        rest = ck._take_coords(out, parts)
        return rest, (out.lat, out.lng), out.coord_errors

    assert take([]) == ([], (None, None), [])
    assert take(["48,86", "2,34", "Paris"]) == (["Paris"], (48.86, 2.34), [])
    assert take(["48,86 S", "2,34 W"]) == ([], (-48.86, -2.34), [])
    assert take(["2,34 E", "48,86 N", "x"]) == (["x"], (48.86, 2.34), [])
    assert take(["48.86, 2.34", "Paris", "x"]) == (["Paris", "x"], (48.86, 2.34), [])
    assert take(["48.86", "2.34", "Paris"]) == (["Paris"], (48.86, 2.34), [])
    assert take(["Paris", "48.86"]) == (["Paris", "48.86"], (None, None), [])
    assert take(["48.86"]) == ([], (None, None), ["could not read the coordinates '48.86': give decimal degrees "
                                                  "'lat, lng' (e.g. 48.8606, 2.3376)"])
    assert take(["48.8x", "Paris"])[0] == ["Paris"]


# --------------------------------------------------------------------------------------- the parser
def test_is_street_and_labels():
    for s in ("Friedrichstraße", "Main St", "Karl Johans gate", "Drottninggatan", "Rue de Rivoli", "Nevsky Prospekt",
              "Nanjing Donglu", "Huaihai Zhonglu", "Yan'an Xilu"):  # Chinese road names end in -lu with a direction
        assert ck.is_street(s), s
    for s in ("Berlin", "Stuttgart", "", "Gatestone", "Honolulu"):
        assert not ck.is_street(s), s
    assert ck._labelled("no labels here") is None and ck._labelled("velocity: 3") is None
    assert ck._labelled("city: Paris, country: France;") == [("", ""), ("city", "Paris"), ("country", "France")]
    assert ck._labelled("near here LAT=1; Longitude = 2") == [("", "near here"), ("lat", "1"), ("lng", "2")]
    assert ck._labelled("(town: Ulm | address: Hauptstr. 1)") == [("", "("), ("city", "Ulm"),
                                                                    ("free", "Hauptstr. 1)")]


def test_positional_ok(gz):
    ok = ck._positional_ok
    assert ok(["Europe", "Germany", "Berlin", "Friedrichstraße"], gz) and ok(["", "", "", ""], gz)
    assert ok(["", "", "", "Berlin"], gz)  # a street may share a city's name
    assert not ok(["Germany", "", "", ""], gz) and not ok(["Berlin", "", "", ""], gz)
    assert not ok(["", "Europe", "", ""], gz) and not ok(["", "Berlin", "", ""], gz)
    assert not ok(["", "", "Europe", ""], gz) and not ok(["", "", "Germany", ""], gz)
    assert not ok(["", "", "", "Europe"], gz) and not ok(["", "", "", "Germany"], gz)


@pytest.mark.parametrize("answer,want", [
    ("52.517, 13.389; Europe; Germany; Berlin; Friedrichstraße",
     (52.517, 13.389, "Europe", "Germany", "Berlin", "Friedrichstraße")),
    ("[; Europe; Germany; Berlin; ]", (None, None, "Europe", "Germany", "Berlin", None)),
    ("`Europe | Germany | Berlin | Unter den Linden`", (None, None, "Europe", "Germany", "Berlin", "Unter den Linden")),
    ("Europe; Germany; Berlin; 'Unter den Linden'", (None, None, "Europe", "Germany", "Berlin", "Unter den Linden")),
    ("Europe; N/A; Berlin; unknown", (None, None, "Europe", None, "Berlin", None)),
    ("Rue de Rivoli, Paris, France", (None, None, None, "France", "Paris", "Rue de Rivoli")),
    ("Berlin, somewhere in Germany", (None, None, None, "somewhere in Germany", "Berlin", None)),
    ("Germany, Austria", (None, None, None, "Germany, Austria", None, None)),
    ("Paris / Lyon, France", (None, None, None, "France", "Paris / Lyon", None)),
    ("Paris, Lyon", (None, None, None, None, "Paris, Lyon", None)),
    ("Ruritania, Strelsau", (None, None, None, None, "Ruritania", "Strelsau")),
    ("Ruritania, Strelsau, Zenda", (None, None, None, None, "Ruritania", "Strelsau")),
    ("Europe, Hauptstraße, Ruritania", (None, None, "Europe", None, "Ruritania", "Hauptstraße")),
    ("Berlin", (None, None, None, None, "Berlin", None)),
    ("unknown, Paris, France", (None, None, None, "France", "Paris", None)),
    ("\"Paris\", 'France', Xanadu", (None, None, None, "France", "Paris", "Xanadu")),
    ("St. Petersburg, Russia", (None, None, None, "Russia", "St. Petersburg", None)),  # "St" is no street here
    ("Singapore", (None, None, None, None, "Singapore", None)),  # a city first when it is both
    ("Paris, near Lyon", (None, None, None, None, "Paris, near Lyon", None)),
    ("Paris address: Rue de Rivoli", (None, None, None, None, "Paris", "Rue de Rivoli")),
    ("city: Paris, location: Rue de Rivoli, France", (None, None, None, "France", "Paris", "Rue de Rivoli")),
    ("country: France, country: Spain, city: unknown, city: Lyon", (None, None, None, "France", "Lyon", None)),
    ("lat: 48.86 S, lng: 2.34 W, street: Rue X", (-48.86, -2.34, None, None, None, "Rue X")),
    ("coordinates: 48.86, 2.34; city: Paris", (48.86, 2.34, None, None, "Paris", None)),
    ("gps: 48.86 2.34, lat: 10, lng: 20", (48.86, 2.34, None, None, None, None)),
    ("48.86, 2.34", (48.86, 2.34, None, None, None, None)),
    ("48.86 | 2.34 | Europe | France | Paris | Rue de Rivoli", (48.86, 2.34, "Europe", "France", "Paris", "Rue de Rivoli")),
    ("Europe; France; Rue de Rivoli; Paris", (None, None, "Europe", "France", "Rue de Rivoli", "Paris")),  # by position
])
def test_parse_answer_fields(answer, want):
    p = parse_answer(answer)
    assert fields(p) == want, fields(p)
    assert p.error == "" and p.coord_errors == []


@pytest.mark.parametrize("answer,error", [
    (None, "no answer given: end with stop [lat, lng; continent; country; city; street]"),
    (" \n ", "no answer given: end with stop [lat, lng; continent; country; city; street]"),
    ("???", "could not read the answer '???': use stop [lat, lng; continent; country; city; street]"),
    ("lat: 1", "only one of lat and lng was given"),
    ("lng: 1, city: Paris", "only one of lat and lng was given; the names were scored alone"),
    ("lat: north, lng: 2, city: Paris", "could not read the lat 'north': give decimal degrees; only one of lat and "
                                        "lng was given; the names were scored alone"),
    ("coordinates: 48.8x, 2.3, city: Paris", "could not read the coordinates '48.8x, 2.3': give decimal degrees "
                                              "'lat, lng' (e.g. 48.8606, 2.3376); the names were scored alone"),
    ("coordinates: Paris 48, city: Paris", "could not read the coordinates 'Paris 48'; the names were scored alone"),
    ("95.1, 13.4; Europe", "coordinates out of range (95.1, 13.4): latitude is -90..90, longitude -180..180; "
                           "the names were scored alone"),
    ("45.1, 190.4", "coordinates out of range (45.1, 190.4): latitude is -90..90, longitude -180..180"),
    ("48.86, 2.34; 45.76, 4.84; France", "more than one coordinate pair: give one place; the names were scored alone"),
    ("48.86 2.34 | 45 4 | France", "more than one coordinate pair ('45 4'): give one place; the names were scored "
                                   "alone"),
])
def test_parse_answer_errors(answer, error):
    p = parse_answer(answer)
    assert p.error == error
    assert p.lat is None and p.lng is None


def test_parse_answer_extra_countries_and_long_input(gz):
    assert parse_answer("Ruritania, Strelsau").country is None
    p = parse_answer("Ruritania, Strelsau", ["Ruritania"], gz)
    assert (p.country, p.city) == ("Ruritania", "Strelsau")
    assert parse_answer("Germany", ["Ruritania"]).country == "Germany"
    p = parse_answer("x" * 1995 + "; Berlin")
    assert "Berlin" not in str(p.to_json())  # input is cut at 2000 characters
    assert parse_answer("x" * 1980 + "; Berlin").city == "Berlin"
    assert parse_answer("Europe\nGermany\r\nBerlin\nHauptstraße").to_json() == {
        "lat": None, "lng": None, "continent": "Europe", "country": "Germany", "city": "Berlin",
        "street": "Hauptstraße"}


# ---------------------------------------------------------------------------------------- scoring
def test_geoguessr_score():
    assert ck.geoguessr_score(None) == 0 and ck.geoguessr_score(0) == 5000
    assert ck.geoguessr_score(1492.7) == round(5000 / math.e) == 1839
    assert ck.geoguessr_score(5000) == 175


def test_same_street():
    s = ck.same_street
    assert s("Friedrich Strasse", ["Friedrichstraße"]) and s("friedrichstrasse", ["x", "Friedrichstraße"])
    assert s("Rivoli", ["Rue de Rivoli"]) and s("rue de rivoli", ["", "Rue de Rivoli"])
    assert not s("Rue", ["Rue de Rivoli"]) and not s(None, ["Rue"]) and not s("", [""])
    assert not s("Rue de Rivoli", ["Rue de la Paix"]) and not s("Rivoli", [])
    assert ck.street_core("Rue de la Paix") == {"paix"}


def test_judge_city(gz):
    j = ck.judge_city
    assert ck._goal_city_names({"city": "Cebu City", "city_aliases": ["Sugbo"]}, gz) == {"cebu city", "cebu", "sugbo"}
    assert j(BERLIN, parse_answer("Berlin"), gz) == (True, "")
    assert j(BERLIN, parse_answer("Hamburg"), gz) == (False, "")
    assert j(BERLIN, parse_answer("Berlin, Hamburg"), gz) == (False, "the answer names 2 cities (Berlin, Hamburg): "
                                                                     "name one place")
    assert j({**BERLIN, "city": "Atlantis"}, parse_answer("; ; ; Atlantis; "), gz) == (True, "")
    assert j({**BERLIN, "city": "Atlantis City"}, parse_answer("; ; ; Atlantis; "), gz) == (True, "")
    assert j({**BERLIN, "city": "Atlantis"}, parse_answer("; ; ; Atlantis City; "), gz) == (True, "")
    assert j({**BERLIN, "city": "Atlantis"}, parse_answer("; ; ; Lemuria; "), gz) == (False, "")
    assert j(BERLIN, parse_answer("; ; ; ; Hauptstraße"), gz) == (False, "")
    near = (True, "city judged by the coordinates (within 25 km of its centre)")
    assert j(BERLIN, parse_answer("52.52, 13.40"), gz) == near
    assert j(BERLIN, parse_answer("52.40, 13.40"), gz) == near  # ~13 km
    assert j(BERLIN, parse_answer("52.75, 13.40"), gz) == (False, "")  # ~26 km
    # without a centre, the goal's own point is the centre
    assert j({**MANILA, "city_centre": None}, parse_answer("14.60, 120.98"), gz) == near
    assert j(MANILA, parse_answer("14.555, 121.024"), gz) == (False, "the coordinates are nearer to Makati than to "
                                                                   "the city's centre")
    p = ParsedAnswer(lat=52.52)
    assert j(BERLIN, p, gz) == (False, "")


def test_check_answer_metrics():
    m = check_answer(BERLIN, "52.517, 13.3889; Europe; Germany; Berlin; Friedrichstrasse")
    assert m == {"continent": True, "country": True, "city": True, "street": True, "distance_km": 0.0,
                 "geoguessr_score": 5000, "completion": 1.0, "overall": True,
                 "parsed_answer": {"lat": 52.517, "lng": 13.3889, "continent": "Europe", "country": "Germany",
                                   "city": "Berlin", "street": "Friedrichstrasse"}}
    m = check_answer(BERLIN, "48.8566, 2.3522; Asia; France; Paris; Rue de Rivoli")
    assert m["distance_km"] == pytest.approx(876.332) and m["geoguessr_score"] == 2780
    assert (m["continent"], m["country"], m["city"], m["street"], m["completion"], m["overall"]) == \
        (False, False, False, False, 0.0, False)
    assert "answer_error" not in m and "answer_notes" not in m
    m = check_answer(BERLIN, "; Europe; Germany, Austria; Berlin / Hamburg; ")
    assert m["answer_notes"] == ["the answer names 2 countries (Germany, Austria): name one",
                                 "the answer names 2 cities (Berlin, Hamburg): name one place"]
    assert (m["continent"], m["country"], m["city"], m["completion"]) == (True, False, False, 0.25)
    m = check_answer(BERLIN, "52.52, 13.40")
    assert m["answer_notes"] == ["city judged by the coordinates (within 25 km of its centre)"] and m["city"]
    m = check_answer(BERLIN, "???")
    assert m["answer_error"].startswith("could not read the answer") and m["completion"] == 0


def test_check_answer_levels():
    assert check_answer(BERLIN, "; europe; deutschland; ; ")["country"]
    assert not check_answer(BERLIN, "; Eurasia; ; ; ")["continent"]
    assert check_answer({**BERLIN, "continent": "Asia", "continent_alt": ["Europe"]}, "; Europe; ; ; ")["continent"]
    assert check_answer({**BERLIN, "continent_alt": ["Eurasia"]}, "; eurasia; ; ; ")["continent"]
    assert not check_answer(BERLIN, "Europa; ; ; ")["continent"]
    us = {**BERLIN, "country": "USA"}  # a goal may spell the country by an alias
    assert check_answer(us, "; ; United States; ; ")["country"] and check_answer(us, "; ; America; ; ")["country"]
    atl = {**BERLIN, "country": "Atlantis"}  # a country outside the gazetteer: compared by name
    assert check_answer(atl, "; Europe; ATLANTIS; Berlin; ")["country"]
    assert not check_answer(atl, "; Europe; Lemuria; Berlin; ")["country"]
    rur = {**BERLIN, "country": "Ruritania", "city": "Strelsau", "city_centre": None}
    assert check_answer(rur, "Ruritania, Strelsau", ["Ruritania"])["country"]
    # the street counts only where a view shows its name
    m = check_answer({**BERLIN, "street_signed": False}, "; Europe; Germany; Hamburg; Friedrichstraße")
    assert m["street"] is None and m["completion"] == 2 / 3
    m = check_answer(BERLIN, "; ; ; ; Friedrich Strasse", None)
    assert m["street"] and m["completion"] == 0.25
    m = check_answer({**BERLIN, "street": "Hauptstraße", "street_aliases": ["Friedrichstraße"]}, "; ; ; ; Friedrichstrasse")
    assert m["street"]


# ---------------------------------------------------------------------------------------- research
CUE = {"cue": "chain", "node": "n2", "view": 0, "articles": ["spati-max"], "lookup": ["Späti Max"]}
SP = {"id": "sp1", "country_code": "DE", "city": "Berlin", "start": "n1",
      "distinguishing": [CUE, {"cue": "dish", "node": "n3", "view": 1, "articles": ["currywurst-x", "dish-y"]}]}
GZ = Gazetteer((), {}, {}, 1, (("Späti Max", "DE", "Berlin"), ("Hafen Brot", "DE", "Hamburg"),
                               ("Boulangerie Zed", "FR", "Paris")))


def test_research():
    assert ck.distinguishing({}) == [] and ck.distinguishing(SP) == SP["distinguishing"]
    assert ck._mentions("where is SPÄTI-MAX?", "Späti Max") and not ck._mentions("spätimax", "Späti Max")
    assert not ck._mentions("anything", "") and not ck._mentions("späti maxi", "Späti Max")
    world = {"visited": ["n1", "n3", "n2", "n3", "n9"]}
    wiki = {"views": ["berlin", "dish-y", "spati-max", "dish-y"],
            "searches": ["späti max", "what is Späti Max", "späti max or hafen brot", "boulangerie zed späti max",
                         "späti", "currywurst"]}
    assert ck.research(SP, world, wiki, GZ) == {"seen": ["n2", "n3"], "read": ["dish-y", "spati-max"],
                                                "searched": ["späti max", "what is Späti Max"], "told": [],
                                                "both": ["chain", "dish"]}
    assert ck.research(SP, {}, {"views": None, "searches": None}, GZ) == {"seen": [], "read": [], "searched": [],
                                                                          "told": [], "both": []}
    # a term of this same place is no other city's cue, wherever it is listed
    assert ck.research({**SP, "city": "Hamburg"}, {}, {"searches": ["späti max"]}, GZ)["searched"] == []


def test_research_in_the_hard_tier_counts_other_regional_chains_as_other_places_cues(monkeypatch):
    """Hard tier: every regional chain but this place's own is another place's cue, so a search naming one of
    them is not this place's research; other gazetteers answer with their own terms (nothing cached across)."""
    monkeypatch.setattr(ck, "_chain_names", lambda: frozenset({"Späti Max", "Nord Kette"}))
    hard = {**SP, "tier": "hard"}
    wiki = {"searches": ["späti max", "späti max or nord kette", "späti max or hafen brot"]}
    assert ck.research(hard, {}, wiki, GZ)["searched"] == ["späti max"]
    assert ck.research(SP, {}, wiki, GZ)["searched"] == ["späti max", "späti max or nord kette"]  # standard tier
    other = Gazetteer((), {}, {}, 1, (("Späti Max", "DE", "Berlin"),))  # no Hafen Brot
    assert ck.research(hard, {}, wiki, other)["searched"] == ["späti max", "späti max or hafen brot"]
    assert ck.research(hard, {}, wiki, GZ)["searched"] == ["späti max"]


def test_check_geolocation_flags_and_counts():
    ans = "52.517, 13.3889; Europe; Germany; Berlin; Friedrichstraße"
    world = {"standpoint": "sp1", "visited": ["n1", "n2", "n2"], "n_visited": 2}
    web = {"wiki": {"views": ["berlin", "spati-max", "germany"], "searches": ["what is späti max"]}}
    m = check_geolocation(BERLIN, ans, world, web, standpoint=SP)
    assert {k: m[k] for k in ("embodied", "web", "overall", "distinguishing_viewpoints_seen", "cue_articles_read",
                              "cue_searches", "viewpoints_visited", "wiki_articles_read")} == {
        "embodied": True, "web": True, "overall": True, "distinguishing_viewpoints_seen": 1,
        "cue_articles_read": ["spati-max"], "cue_searches": 1, "viewpoints_visited": 2, "wiki_articles_read": 3}
    assert m["city"] and m["completion"] == 1.0
    # a search alone is no research (checker 11); a snippet of the cue's article naming the city is; a wrong city
    # is never overall
    m = check_geolocation(BERLIN, ans, world, {"wiki": {"searches": ["späti max"]}}, standpoint=SP)
    assert m["web"] and not m["overall"] and m["cue_articles_read"] == [] and m["wiki_articles_read"] == 0
    told = {"searches": ["späti max"], "shown": [{"slug": "spati-max", "snippet": "Späti Max is a chain of Berlin"}]}
    m = check_geolocation(BERLIN, ans, world, {"wiki": told}, standpoint=SP)
    assert m["overall"] and m["cue_articles_read"] == []
    m = check_geolocation({**BERLIN, "country": "Ruritania"}, "Ruritania, Berlin", world, web, ["Ruritania"], SP)
    assert m["country"] and m["parsed_answer"]["country"] == "Ruritania"
    m = check_geolocation(BERLIN, "; Europe; Germany; Hamburg; ", world, web, standpoint=SP)
    assert m["web"] and m["embodied"] and not m["overall"]
    m = check_geolocation(BERLIN, ans, {"visited": ["n1"]}, web, standpoint=SP)
    assert not m["embodied"] and m["web"] and not m["overall"] and m["viewpoints_visited"] == 1
    m = check_geolocation(BERLIN, ans, world, {"wiki": {"views": ["berlin"]}}, standpoint=SP)
    assert m["embodied"] and not m["web"] and not m["overall"]
    for web in (None, "x", {"wiki": "x"}, {}, {"wiki": {"views": None}}):
        m = check_geolocation(BERLIN, ans, world, web, standpoint=SP)
        assert not m["web"] and m["wiki_articles_read"] == 0 and m["embodied"]


def test_research_counts_a_cue_seen_and_researched_not_one_seen_and_another_read():
    """Stop 38: the cue researched must be one the agent stood in view of. Seeing the dish (n3) and reading the
    chain's article (n2, never visited) is no research of what was seen; either order of one cue is."""
    ans = "52.517, 13.3889; Europe; Germany; Berlin; Friedrichstraße"
    dish_seen = {"visited": ["n1", "n3"]}
    m = check_geolocation(BERLIN, ans, dish_seen, {"wiki": {"views": ["spati-max"]}}, standpoint=SP)
    assert m["embodied"] and m["web"] and not m["overall"] and m["cues_seen_and_researched"] == 0
    m = check_geolocation(BERLIN, ans, dish_seen, {"wiki": {"searches": ["späti max"]}}, standpoint=SP)
    assert m["embodied"] and m["web"] and not m["overall"]
    m = check_geolocation(BERLIN, ans, dish_seen, {"wiki": {"views": ["spati-max", "dish-y"]}}, standpoint=SP)
    assert m["overall"] and m["cues_seen_and_researched"] == 1
    shown = [{"slug": "spati-max", "snippet": "… a local chain based in Berlin, Germany …"}]
    m = check_geolocation(BERLIN, ans, {"visited": ["n2"]}, {"wiki": {"searches": ["what is späti max"], "shown": shown}},
                          standpoint=SP)
    assert m["overall"] and ck.research(SP, {"visited": ["n2"]}, {"searches": ["späti max"], "shown": shown},
                                        GZ)["both"] == ["chain"]


def test_coordinates_that_point_to_another_city_contradict_the_city_and_country_named():
    """Stop 38: "Graz" with Vienna's coordinates names two places (the city level fails), and so does "Austria"
    with Budapest's (the country level fails); rough coordinates of the right city, tens of km off, do not."""
    gz = load_gazetteer()
    city = {c["name"]: c for c in gz.cities}
    graz, vienna, budapest = city["Graz"], city["Vienna"], city["Budapest"]
    goal = {"continent": "Europe", "country": "Austria", "city": "Graz", "lat": graz["lat"], "lng": graz["lng"],
            "city_centre": [graz["lat"], graz["lng"]], "street": "Herrengasse"}
    m = check_answer(goal, f"{vienna['lat']}, {vienna['lng']}; Europe; Austria; Graz; ")
    assert not m["city"] and m["country"] and "point to Vienna" in m["answer_notes"][0]
    m = check_answer(goal, f"{budapest['lat']}, {budapest['lng']}; Europe; Austria; Graz; ")
    assert not m["city"] and not m["country"]
    for dlat, dlng in ((0.3, 0.0), (0.0, -0.45), (-0.25, 0.3)):  # 33, 34, 37 km off: rough, not contradicting
        m = check_answer(goal, f"{graz['lat'] + dlat:.3f}, {graz['lng'] + dlng:.3f}; Europe; Austria; Graz; ")
        assert m["city"] and m["country"] and not m.get("answer_notes"), (dlat, dlng, m.get("answer_notes"))
    assert check_answer(goal, "; Europe; Austria; Graz; ")["city"]
    # far from every city (mid-ocean, a swapped hemisphere): coordinates point nowhere and contradict nothing
    m = check_answer(goal, f"{graz['lat']}, {-graz['lng']}; Europe; Austria; Graz; ")
    assert m["city"] and m["country"]


def test_check_geolocation_loads_the_standpoint():
    from embodiedweb.worlds.geo import load_standpoints

    sp = next(s for s in load_standpoints().values() if s["city"] == "Berlin")
    cue = sp["distinguishing"][0]
    ans = "52.517, 13.3889; Europe; Germany; Berlin; Friedrichstraße"
    m = check_geolocation(BERLIN, ans, {"standpoint": sp["id"], "visited": [cue["node"]]},
                          {"wiki": {"views": [cue["articles"][0]]}})
    assert m["embodied"] and m["web"] and m["overall"]
    # an unknown standpoint has no distinguishing cue: nothing counts, nothing breaks
    m = check_geolocation(BERLIN, ans, {"standpoint": "nope", "visited": [cue["node"]]},
                          {"wiki": {"views": [cue["articles"][0]]}})
    assert not m["embodied"] and not m["web"] and not m["overall"] and m["city"]


# ------------------------------------------------------------------ streets with their city, street names
def city_of(answer: str, gz) -> str:
    return ", ".join(gz.cities[i]["name"] for i in gz.named_cities(parse_answer(answer).city or ""))


@pytest.mark.parametrize("answer,street,city", [
    ("Portage Avenue in Winnipeg, Canada", "Portage Avenue", "Winnipeg"),
    ("Newbury Street Boston, United States", "Newbury Street", "Boston"),
    ("Newbury St. in downtown Boston", "Newbury St.", "Boston"),  # after "in", the words name the city
    ("Rue de Rivoli à Paris", "Rue de Rivoli", "Paris"),
    ("Rue de Rivoli (Paris), France", "Rue de Rivoli", "Paris"),
    ("Via del Corso Rome, Italy", "Via del Corso", "Rome"),  # street words only, but more than one
    ("The Mall London", "The Mall", "London"),
    ("Nevsky Prospekt St. Petersburg", "Nevsky Prospekt", "Saint Petersburg"),
    ("Main Street New York", "Main Street", "New York"),
    ("Via in Selci in Rome", "Via in Selci", "Rome"),  # an "in" before no city is the street's
    ("Zeil in Frankfurt, Germany", "Zeil", "Frankfurt"),  # no street word: the place before "in"
    # dashes between spaces separate parts like commas; a hyphen does not
    ("Portage Avenue - Winnipeg - Canada", "Portage Avenue", "Winnipeg"),
    ("Portage Avenue – Winnipeg — Canada", "Portage Avenue", "Winnipeg"),
    ("Khreshchatyk - Kyiv - Ukraine", "Khreshchatyk", "Kyiv"),
    ("Sejong-daero, Seoul", "Sejong-daero", "Seoul"),
])
def test_a_street_part_may_end_with_its_city(gz, answer, street, city):
    p = parse_answer(answer)
    assert p.street == street and city_of(answer, gz) == city, p.to_json()


def test_a_street_part_names_no_second_city(gz):
    """The city after a street is judged with the city part: an answer still names one city, and a city in the
    street's own name is none."""
    lyon = {**BERLIN, "country": "France", "city": "Lyon", "city_centre": [45.76, 4.84]}
    paris = {**lyon, "city": "Paris", "city_centre": [48.857, 2.352]}
    for hedge in ("Main Street in Paris, Lyon", "Main Street Paris, Lyon", "Main Street Paris Lyon",
                  "Main Street in Paris or Lyon", "Main Street in Paris in Lyon", "Main Street - Paris - Lyon"):
        for goal in (lyon, paris):
            m = check_answer(goal, hedge)
            assert not m["city"] and m["answer_notes"] == ["the answer names 2 cities (Paris, Lyon): name one place"], hedge
    # a street named after a city before the city names the city after it alone
    for answer in ("Rue de Paris, Lyon", "Rue de Paris Lyon", "Rue de Paris in Lyon", "Paris Street Lyon",
                   "Paris Street in Lyon", "Via Roma Lyon"):
        assert check_answer(lyon, answer)["city"] and not check_answer(paris, answer)["city"], answer
    assert city_of("Avenue de New Delhi, Jaipur", gz) == "Jaipur"  # no city's name is cut: no "Delhi"
    # a street alone that holds a city's name names no city
    for street in ("Avenue de Paris", "Paris Street", "Rue de Paris", "Via Paris", "Avenue de New York", "Rua Augusta"):
        p = parse_answer(street)
        assert (p.street, p.city) == (street, None), p.to_json()
    assert ck.street_and_cities("Main Street Paris Lyon", gz) == ("Main Street", ["Paris", "Lyon"])
    assert ck.street_and_cities("Avenue de Paris", gz) == ("Avenue de Paris", [])
    assert ck.street_and_cities("Main Street in front of the station", gz) == ("Main Street in front of the station", [])
    assert ck._located("Paris in Lyon", gz) is None and ck._located("Zeil in Frankfurt", gz) == ("Zeil", "Frankfurt")
    assert ck._cuts_a_city(gz, "Avenue de New Delhi".split(), 3) and not ck._cuts_a_city(gz, "Main St Delhi".split(), 2)


def test_a_streets_directions_and_ordinals_must_match():
    s = ck.same_street
    east = ["Nanjing Road East", "Nanjing Donglu", "南京东路"]
    for a in ("Nanjing Donglu", "Nanjing Dong Lu", "East Nanjing Road", "Nanjing East Rd", "Nanjing Rd E", "Nanjing"
              " Road East"):
        assert s(a, east), a
    for a in ("Nanjing West Road", "Nanjing Road West", "Nanjing Xilu", "Nanjing Road", "Nanjing Road North"):
        assert not s(a, east), a
    assert s("Zhongxiao E Rd", ["Zhongxiao East Road"]) and not s("Zhongxiao West Road", ["Zhongxiao East Road"])
    first = ["Zhongshan 1st Road", "Zhongshan Yilu"]
    for a in ("Zhongshan Yilu", "Zhongshan Yi Lu", "Zhongshan First Road", "Zhongshan 1st Rd"):
        assert s(a, first), a
    for a in ("Zhongshan Road", "Zhongshan 2nd Road", "Zhongshan Erlu", "Zhongshan 1st Road East"):
        assert not s(a, first), a
    assert s("East St", ["East Street", "Dong Dajie"]) and s("Dong Street", ["East Street"])
    assert not s("West Street", ["East Street"]) and not s("Street", ["East Street"])
    assert s("E St", ["E Street"]) and not s("E St", ["East Street"])  # a letter alone is the name
    assert s("North Michigan Avenue", ["Michigan Avenue", "N Michigan Ave"])
    assert not s("S Michigan Ave", ["Michigan Avenue", "N Michigan Ave"])
    assert s("Fifth Avenue", ["5th Avenue"]) and s("16 Street", ["16th Street"])
    assert s("Av. 6 N", ["Avenida 6 Norte"]) and not s("Avenida 6", ["Avenida 6 Norte"])
    assert s("Avenida Sexta Norte", ["Avenida 6 Norte"]) and s("Carrera 7", ["Carrera Séptima"])
    assert ck.street_core("Rua Direita e Nova") == {"direita", "nova"}  # "e" inside the name is "and"
    assert ck.street_core("St Patrick's Street") == ck.street_core("St Patrick Street") == {"saint", "patrick"}
    assert ck.street_core("Huaihai Zhonglu") == ck.street_core("Middle Huaihai Road") == {"huaihai", "central"}


# ------------------------------------------------------------------ continents, "St." cities, city before street
BOGOTA = {"lat": 4.598, "lng": -74.076, "continent": "South America", "country": "Colombia", "city": "Bogotá",
          "city_centre": [4.711, -74.072], "street": "Carrera Séptima"}
SPB = {"lat": 59.935, "lng": 30.325, "continent": "Europe", "country": "Russia", "city": "Saint Petersburg",
       "city_centre": [59.939, 30.316], "street": "Nevsky Prospekt"}
WINNIPEG = {"lat": 49.895, "lng": -97.138, "continent": "North America", "country": "Canada", "city": "Winnipeg",
            "city_centre": [49.895, -97.138], "street": "Portage Avenue"}


def test_a_continent_is_no_country(gz):
    for answer in ("Bogotá, Colombia (South America)", "Colombia (South America)", "Bogotá, Colombia, Latin America",
                   "Colombia, Central America", "Bogotá, Colombia - North America", "Colombia (Latin America)"):
        assert check_answer(BOGOTA, answer)["country"], answer
    assert gz.find_countries("Colombia South America") == ["Colombia"] and gz.find_countries("Latin America") == []
    assert gz.named_countries("South America, Colombia") == ["Colombia"]
    assert gz.find_countries("United States of America") == ["United States"] == gz.find_countries("America")
    m = check_answer(BOGOTA, "Bogotá, Colombia (South America)")
    assert m["continent"] and m["parsed_answer"]["continent"] == "South America"
    # two countries are still two, and two continents give none
    assert not check_answer(BOGOTA, "Bogotá, Colombia or America (South America)")["country"]
    assert not check_answer(BOGOTA, "Bogotá, Colombia (South America or Europe)")["continent"]
    assert ck._continents_in("South America or Europe") == ["South America", "Europe"]
    assert ck._continent_at("latin america x".split(), 0) == 2 and ck._continent_at(["america"], 0) == 0


@pytest.mark.parametrize("answer", [
    "Nevsky Prospekt, central St. Petersburg, Russia", "St. Petersburg Russia", "Nevsky Prospekt, St Petersburg (Russia)",
    "Nevsky Prospekt, downtown St Petersburg, Russia", "St. Petersburg city centre, Russia", "St Petersburg",
])
def test_a_city_name_beginning_with_a_street_word_is_the_city(answer):
    m = check_answer(SPB, answer)
    assert m["city"] and m["country"], m["parsed_answer"]  # the one city implies its country


def test_a_st_city_is_still_one_place(gz):
    for hedge in ("St. Petersburg or Moscow, Russia", "Nevsky Prospekt, St. Petersburg Moscow", "St Petersburg Moscow Russia"):
        assert not check_answer(SPB, hedge)["city"], hedge
    assert not check_answer(SPB, "St. Petersburg Russia or Ukraine")["country"]
    assert ck._names_a_street("St Petersburg Street", gz) and ck._names_a_street("Main St", gz)
    assert not ck._names_a_street("central St. Petersburg", gz) and not ck._names_a_street("St. Petersburg Russia", gz)
    assert ck._beyond_cities(gz, "St. Petersburg (Russia)") == "russia"
    assert ck._beyond_cities(gz, "Winnipeg Manitoba") == ""  # the city's own region is no country's mention


@pytest.mark.parametrize("answer,street", [
    ("Winnipeg's Portage Avenue, Canada", "Portage Avenue"),
    ("Winnipeg Portage Avenue, Canada", "Portage Avenue"),
    ("Near Winnipeg's Portage Avenue", "Portage Avenue"),
    ("Portage Avenue Winnipeg Manitoba, Canada", "Portage Avenue"),  # the city's region after it
    ("Portage Avenue, Winnipeg Manitoba, Canada", "Portage Avenue"),
    ("Winnipeg Portage Avenue in Winnipeg", "Portage Avenue"),
])
def test_a_street_part_may_begin_with_its_city(answer, street):
    m = check_answer(WINNIPEG, answer)
    assert m["city"] and m["street"] and m["parsed_answer"]["street"] == street, m["parsed_answer"]


def test_a_city_before_a_street_is_one_place(gz):
    paris = {**BERLIN, "country": "France", "city": "Paris", "city_centre": [48.857, 2.352], "street": "Rue de Rivoli"}
    lyon = {**paris, "city": "Lyon", "city_centre": [45.76, 4.84]}
    for hedge in ("Paris Rue de Rivoli, Lyon", "Paris's Rue de Rivoli, Lyon, France", "Lyon Rue de Rivoli, Paris",
                  "Rue de Rivoli Paris Lyon", "Paris Rue de Rivoli Lyon"):
        for goal in (paris, lyon):
            assert not check_answer(goal, hedge)["city"], hedge
    # no city, or no city of the street's own name
    for answer, city in (("Paris or Lyon Rue de Rivoli", None), ("Paris and Lyon Rue de Rivoli", None),
                         ("Paris Lyon Rue de Rivoli", None), ("Paris Street", None), ("Nanjing East Road", None),
                         ("Nanjing Donglu", None), ("Paris Avenue de Lyon", "Paris"),
                         ("Shanghai Nanjing Road East", "Shanghai"), ("Rome Via del Corso", "Rome"),
                         ("Nanjing Road East, Shanghai", "Shanghai")):
        assert parse_answer(answer).city == city, answer
    assert ck._city_first("Winnipeg's Portage Avenue", gz) == ("Winnipeg", "Portage Avenue")
    assert ck._city_first("Paris Street", gz) is None and ck._city_first("New York Fifth Avenue", gz) == (
        "New York", "Fifth Avenue")
    assert ck._city_with_region(gz, "Winnipeg Manitoba") and not ck._city_with_region(gz, "Winnipeg Ontario")
    assert not ck._city_with_region(gz, "Winnipeg")  # the city alone is the exact name's case
    assert ck.street_and_cities("Portage Avenue Winnipeg Manitoba", gz) == ("Portage Avenue", ["Winnipeg Manitoba"])


@pytest.mark.parametrize("answer", ["Near Calle Córdoba in Rosario, Argentina", "On Calle Córdoba in Rosario, Argentina",
                                    "At Calle Córdoba, Rosario", "along Calle Córdoba in Rosario"])
def test_a_leading_near_or_on_is_no_street_word(answer):
    rosario = {"lat": -32.947, "lng": -60.639, "continent": "South America", "country": "Argentina", "city": "Rosario",
               "city_centre": [-32.947, -60.639], "street": "Calle Córdoba"}
    m = check_answer(rosario, answer)
    assert m["city"] and m["street"] and m["parsed_answer"]["street"] == "Calle Córdoba", m["parsed_answer"]


def test_leading_words_keep_the_street_rules(gz):
    assert ck._unlead("Near Calle Córdoba") == "Calle Córdoba" and ck._unlead("near") == "near"
    assert ck.street_and_cities("Near Calle Córdoba", gz) == ("Near Calle Córdoba", [])  # "Near Calle" is no street
    p = parse_answer("Near Avenue de Paris")
    assert (p.street, p.city) == ("Avenue de Paris", None)
    assert not check_answer({**BERLIN, "city": "Rosario", "country": "Argentina"},
                            "Near Calle Córdoba in Rosario or Córdoba")["city"]


def test_a_named_country_or_city_implies_its_continent_and_country():
    """Free text that names the city and country but no continent ("Marseille, Provence-Alpes-Côte d'Azur,
    France") lost the continent level, so its completion was 2/3 (a helper's playthrough); a country implies
    its continent, and a city named alone (one city) implies its country and continent. A hedge implies
    nothing, and a continent the answer names is judged as named."""
    import json

    from embodiedweb.domains.geolocation import check_answer
    from embodiedweb.paths import data_dir

    tasks = {t["task_id"]: t for t in map(json.loads, (data_dir() / "geo" / "tasks.jsonl").read_text("utf-8").splitlines())}
    goal = tasks["geo-002"]["goal"]  # Marseille, France
    levels = ("continent", "country", "city")

    def got(answer):
        m = check_answer(goal, answer)
        return tuple(m[k] for k in levels)

    assert got("Marseille, Provence-Alpes-Côte d'Azur, France") == (True, True, True)
    assert got("Marseille") == (True, True, True)
    assert got("Lyon") == (True, True, False) and got("Madrid, Spain") == (True, False, False)
    assert got("Tokyo") == (False, False, False) and got("Marseille or Lyon") == (False, False, False)
    assert got("43.3, 5.4; Asia; France; Marseille; ") == (False, True, True)


def test_a_second_country_in_a_part_of_its_own_counts():
    """The country level refuses an answer naming two countries wherever the second stands ("Kyiv, Ukraine, or
    Argentina" was read as Ukraine on every task: a part holding a country was dropped once one was read); a
    part that repeats the same country, or a region of it, is no second one."""
    import json

    from embodiedweb.domains.geolocation import check_answer
    from embodiedweb.paths import data_dir

    for line in (data_dir() / "geo" / "tasks.jsonl").read_text("utf-8").splitlines()[:60]:
        g = json.loads(line)["goal"]
        other = "Argentina" if g["country"] != "Argentina" else "Chile"
        assert not check_answer(g, f"{g['city']}, {g['country']}, or {other}")["country"], g["city"]
        assert not check_answer(g, f"{g['city']}, {g['country']}, maybe {other}")["country"], g["city"]
        assert check_answer(g, f"{g['city']}, capital region of {g['country']}")["country"], g["city"]


# ------------------------------------------------------------------ red-team review 3 (checker_version 6)
KYIV = {"lat": 50.4475, "lng": 30.5215, "continent": "Europe", "country": "Ukraine", "city": "Kyiv",
        "city_centre": [50.45, 30.523], "street": "Khreshchatyk", "street_aliases": ["Khreshchatyk"]}
SEOUL = {"lat": 37.57, "lng": 126.98, "continent": "Asia", "country": "South Korea", "city": "Seoul",
         "street": "Jongno", "street_signed": False}
DUBLIN = {"lat": 53.35, "lng": -6.26, "continent": "Europe", "country": "Ireland", "city": "Dublin",
          "street": "Grafton Street", "street_signed": False}
MONTERREY = {"lat": 25.686, "lng": -100.316, "continent": "North America", "country": "Mexico", "city": "Monterrey",
             "street": "Calle Morelos", "street_signed": False}
SYDNEY = {"lat": -33.87, "lng": 151.21, "continent": "Oceania", "country": "Australia", "city": "Sydney",
          "street": "George Street"}
AUCKLAND = {"lat": -36.85, "lng": 174.76, "continent": "Oceania", "country": "New Zealand", "city": "Auckland",
            "street": "Queen Street"}


def levels(goal, answer, *keys):
    m = check_answer(goal, answer)
    return tuple(m[k] for k in keys)


def test_us_in_prose_and_adjectives_are_no_country(gz):
    for answer in ("Kyiv, Ukraine, as the wiki told us", "Kyiv, Ukraine (the signs told us)", "Let us say Kyiv",
                   "Kyiv, Ukraine (no Thai script)"):
        assert levels(KYIV, answer, "continent", "country") == (True, True), answer
    assert gz.find_countries("as the wiki told us") == [] and gz.find_countries("Thai script") == []
    # "US" written so, or a part of its own, is the country: a second one beside Ukraine
    for answer in ("Kyiv, Ukraine or US", "Kyiv, Ukraine, us", "Kyiv, Ukraine, U.S.", "; Europe; Ukraine, us; Kyiv; ",
                   "Kyiv, Ukraine or us"):
        assert not check_answer(KYIV, answer)["country"], answer
    assert gz.named_countries("us") == ["United States"] and gz.find_countries("Made in the US") == ["United States"]


def test_a_continent_with_modifiers_or_in_prose(gz):
    for answer in ("Kyiv, Ukraine, Eastern Europe", "Kyiv, Ukraine, in Europe", "Europe / Ukraine / Kyiv",
                   "Europe > Ukraine > Kyiv", "; Eastern Europe; Ukraine; Kyiv; ", "continent: Central Europe, city: Kyiv",
                   "Kyiv (Europe)"):
        assert check_answer(KYIV, answer)["continent"], answer
    assert check_answer(SEOUL, "; East Asia; South Korea; Seoul; ")["continent"]
    # a wrong part of the world is wrong, and two continents are none
    for answer in ("Kyiv, Ukraine, East Asia", "; Eastern Europe or East Asia; Ukraine; Kyiv; ", "Kyiv, Europe, Asia",
                   "Kyiv, Ukraine, Europe (Asia)", "Europe / Asia / Kyiv", "Kyiv, Ukraine, in Europe or Asia"):
        assert not check_answer(KYIV, answer)["continent"], answer
    assert ck._continents_in("South Africa", gz) == [] and ck._continents_in("Sub-Saharan Africa", gz) == ["Africa"]


def test_a_continent_slot_is_no_country():
    winnipeg = {"lat": 49.895, "lng": -97.138, "continent": "North America", "country": "Canada", "city": "Winnipeg",
                "street": "Portage Avenue"}
    m = check_answer(winnipeg, "; America; Canada; Winnipeg; Portage Avenue")
    assert m["country"] and m["city"] and m["street"] and not m["continent"]  # "America" is two continents
    assert levels(AUCKLAND, "; Australia; New Zealand; Auckland; Queen Street", "continent", "country") == (True, True)
    # "Australia" or "America" in the continent slot with no country after it is still read as before
    assert check_answer(SYDNEY, "; Australia; Sydney; George Street")["country"]
    assert not check_answer(AUCKLAND, "; Australia; Auckland; Queen Street")["country"]


def test_mexico_and_a_part_starting_with_city_are_no_mexico_city(gz):
    for answer in ("Monterrey, Mexico, city centre", "Monterrey, Mexico (city center)", "Country - Mexico, City - Monterrey"):
        assert levels(MONTERREY, answer, "country", "city") == (True, True), answer
    montreal = {"lat": 45.5, "lng": -73.57, "continent": "North America", "country": "Canada", "city": "Montreal",
                "street": "Rue Sainte-Catherine"}
    assert check_answer(montreal, "Montreal, Quebec, city centre")["city"]
    assert not ck._spans(gz, "Mexico", "city centre") and ck._spans(gz, "Washington", "D.C.")
    # "Mexico City" is still Mexico City, and two cities still two
    cdmx = {**MONTERREY, "city": "Mexico City", "lat": 19.433, "lng": -99.133}
    assert check_answer(cdmx, "Mexico City, Mexico")["city"]
    assert not check_answer(MONTERREY, "Monterrey (Mexico City)")["city"]


def test_a_place_naming_a_country_is_its_own_country(gz):
    assert levels(SYDNEY, "Sydney, New South Wales", "continent", "country", "city") == (True, True, True)
    assert gz.find_countries("New South Wales") == ["Australia"]
    assert gz.find_countries("Northern Ireland") == ["United Kingdom"] and gz.find_countries("New Mexico") == [
        "United States"]
    for goal, answer in ((SEOUL, "Seoul, North Korea"), (SEOUL, "; Asia; North or South Korea; Seoul; "),
                         (SEOUL, "Seoul, Democratic People's Republic of Korea"), (DUBLIN, "Dublin, Northern Ireland"),
                         (DUBLIN, "; Europe; Ireland or Northern Ireland; Dublin; "), (MONTERREY, "Monterrey, New Mexico"),
                         (MONTERREY, "; North America; Mexico or New Mexico; Monterrey; "), (SEOUL, "Seoul, North/South Korea")):
        assert not check_answer(goal, answer)["country"], answer
    assert check_answer(SEOUL, "Seoul, South Korea")["country"] and check_answer(DUBLIN, "Dublin, Ireland")["country"]


def test_a_country_outside_the_table_is_a_second_country(gz):
    for answer in ("; Europe; Ukraine or Belarus; Kyiv; ", "Kyiv, Ukraine, or Belarus", "Kyiv, Ukraine/Moldova",
                   "country: Ukraine or Belarus, city: Kyiv"):
        assert not check_answer(KYIV, answer)["country"], answer
    assert gz.find_countries("Belarus") == ["Belarus"] and gz.continent_of["Belarus"] == "Europe"
    # a region of the table is no other country ("Macedonia" is Greek Macedonia there)
    thessaloniki = {"lat": 40.63, "lng": 22.94, "continent": "Europe", "country": "Greece", "city": "Thessaloniki",
                    "street": "Tsimiski Street"}
    assert levels(thessaloniki, "Thessaloniki, Macedonia", "country", "city") == (True, True)


def test_coordinates_anywhere_in_the_answer():
    for answer in ("Khreshchatyk, Kyiv, Ukraine, 50.4475, 30.5215", "Kyiv, Ukraine (50.4475, 30.5215)",
                   "Europe; Ukraine; Kyiv; Khreshchatyk; 50.4475, 30.5215", "Ukraine, 50.4475, 30.5215",
                   "N 50.4475, E 30.5215; ; ; ; ", "50.4475 North, 30.5215 East; ; ; ; ",
                   "Latitude 50.4475, Longitude 30.5215, Kyiv, Ukraine", "Lat/Lng: 50.4475, 30.5215; City: Kyiv",
                   "Coordinates (approx.): 50.4475, 30.5215; City: Kyiv",
                   "50.4475, 30.5215; Europe; Ukraine; Kyiv; Khreshchatyk (about 0.5 km from the centre)",
                   "Kyiv 50.4475 30.5215 Ukraine"):
        m = check_answer(KYIV, answer)
        assert m["distance_km"] is not None and m["distance_km"] < 1 and m["city"], answer
    p = parse_answer("Ukraine, 50.4475 S, 30.5215 W")
    assert (p.lat, p.lng) == (-50.4475, -30.5215)
    # two different pairs, or a third number beside a pair, read no coordinates
    for answer in ("Kyiv, Ukraine (50.4475, 30.5215) or (48.85, 2.35)", "50.4475 30.5215 48.85 2.35",
                   "Kyiv, 50.4475, 30.5215, 30.60", "Latitude 50.4475, Longitude 30.5215; coordinates: 49.84, 24.03"):
        m = check_answer(KYIV, answer)
        assert m["distance_km"] is None, answer
    assert not check_answer(KYIV, "Ukraine, 50.4475, 30.5215 or 49.84, 24.03")["city"]
    assert check_answer(KYIV, "50.4475, 30.5215; Europe; Kyiv (50.4475, 30.5215)")["distance_km"] is not None  # twice


def test_an_unknown_label_ends_the_field_before_it():
    m = check_answer(KYIV, "City: Kyiv, Country: Ukraine, Continent: Europe, Street: Khreshchatyk, Confidence: high")
    assert m["street"] and m["city"] and m["country"] and m["continent"]
    m = check_answer(KYIV, "Street name: Khreshchatyk, City name: Kyiv, Country name: Ukraine")
    assert m["street"] and m["city"] and m["country"]
    # the value of an unknown label is free text: a second city there is still a second city
    assert not check_answer(KYIV, "Country: Ukraine, Guess: Kyiv or Lviv")["city"]
    assert check_answer(KYIV, "Country: Ukraine, Guess: Kyiv")["city"]


@pytest.mark.parametrize("answer,names,want", [
    ("Aleksanterinkatu / Alexandersgatan", ["Aleksanterinkatu", "Alexandersgatan"], True),
    ("شارع حمدان / Hamdan Street", ["Hamdan Street", "شارع حمدان"], True),
    ("Aleksanterinkatu / Mannerheimintie", ["Aleksanterinkatu", "Alexandersgatan"], False),  # two streets
    ("Rue St-Jean", ["Rue Saint-Jean"], True), ("Rue Ste-Catherine", ["Rue Sainte-Catherine"], True),
    ("Saint Patrick's Street", ["St Patrick's Street"], True), ("Main St N", ["Main Street North"], True),
    ("Friedrichstr.", ["Friedrichstraße"], True), ("Kalverstr.", ["Kalverstraat"], True),
    ("Friedrichstr.", ["Friedenstraße"], False),
    ("Moenckebergstrasse", ["Mönckebergstraße"], True), ("Soendergade", ["Søndergade"], True),
    ("Portage Avenue 12", ["Portage Avenue"], True), ("12 Portage Avenue", ["Portage Avenue"], True),
    ("Calle 60 62", ["Calle 60"], False), ("Calle 62", ["Calle 60"], False), ("12 Calle 8", ["Calle 7"], False),
    ("V. dei Calzaiuoli", ["Via dei Calzaiuoli"], True), ("V. Roma", ["Via Dante"], False),
])
def test_street_spellings(answer, names, want):
    assert ck.same_street(answer, names) is want


def test_the_street_slot_may_hold_a_countrys_name():
    salto = {"lat": -31.39, "lng": -57.96, "continent": "South America", "country": "Uruguay", "city": "Salto",
             "street": "Calle Uruguay", "street_aliases": ["Calle Uruguay", "Uruguay"]}
    m = check_answer(salto, "; South America; Uruguay; Salto; Uruguay")
    assert m["street"] and m["country"] and m["city"]
    # another country in the street slot is still a second country
    assert not check_answer(salto, "; South America; Uruguay; Salto; Argentina")["country"]
    assert not check_answer(salto, "; South America; Uruguay; Salto; Paraguay")["country"]


def test_a_region_or_country_beside_the_city_that_does_not_hold_it(gz):
    paris = {"lat": 48.857, "lng": 2.352, "continent": "Europe", "country": "France", "city": "Paris",
             "street": "Rue de Rivoli"}
    durban = {"lat": -29.86, "lng": 31.03, "continent": "Africa", "country": "South Africa", "city": "Durban",
              "street": "West Street"}
    for goal, answer in ((paris, "Paris, Texas"), (paris, "Paris Texas"), (paris, "; North America; ; Paris, Texas; "),
                         (durban, "Durban, France"), (paris, "Paris, the State of Florida")):
        assert not check_answer(goal, answer)["city"], answer
    # the city's own region, its country, or no country keep it
    for goal, answer in ((paris, "Paris, Île-de-France, France"), (paris, "Paris"), (SYDNEY, "Sydney, NSW"),
                         (durban, "Durban, South Africa"), (paris, "Rue de Rivoli, Paris, France"),
                         (AUCKLAND, "Oceania / New Zealand / Auckland")):  # no Danish Zealand in New Zealand
        assert check_answer(goal, answer)["city"], answer


def test_a_few_abbreviations(gz):
    sf = {"lat": 37.77, "lng": -122.42, "continent": "North America", "country": "United States",
          "city": "San Francisco", "street": "Market Street", "street_signed": False}
    assert levels(sf, "SF, USA", "country", "city") == (True, True) and check_answer(sf, "; ; ; SF; ")["city"]
    assert levels(AUCKLAND, "Auckland, NZ", "country", "city") == (True, True)
    assert check_answer(AUCKLAND, "; Oceania; NZ; Auckland; ")["country"]
    assert gz.find_countries("Czech Rep.") == ["Czech Republic"]
    assert not gz.exact_city("la") and not check_answer(sf, "SF / NOLA")["city"]  # "la" is a word; two cities


def test_two_continents_in_prose_name_none():
    """A continent read from each of two parts of the same kind (a city, a country, a remark) is two: the answer
    names no continent, whichever part came last; one part alone names its continent."""
    for two, one in [("Kyiv in Europe, Lima in South America", "Kyiv in Europe"),
                     ("Ukraine in Europe, Peru in South America", "Ukraine in Europe"),
                     ("somewhere in Europe, somewhere in South America", "somewhere in Europe"),
                     ("a market town of Europe, a harbour of South America", "a market town of Europe")]:
        assert ck.parse_answer(two).continent is None, two
        assert ck.parse_answer(one).continent == "Europe", one


def test_a_contradicted_city_is_judged_by_the_answers_own_words(gz):
    """``_city_contradicted``: the city's own country counts as itself when the alias table lacks it, and a region
    no table holder matches is no contradiction (nothing is known against the city)."""
    x = next(i for i, c in enumerate(gz.cities) if c["name"] == "Paris")
    assert ck._city_contradicted(ck.ParsedAnswer(city="Paris", country="France"), x, gz, {}) == ""
    assert "not in Spain" in ck._city_contradicted(ck.ParsedAnswer(city="Paris", country="Spain"), x, gz, {})
    assert ck._city_contradicted(ck.ParsedAnswer(city="Paris", regions=["Atlantis"]), x, gz, {}) == ""


# ------------------------------------------------------- stop 33: punctuated and short city names (checker 8)
def _goal_of(gz, city):
    c = next(c for c in gz.cities if c["name"] == city)
    return {"lat": c["lat"], "lng": c["lng"], "continent": "x", "country": c["country"], "city": city,
            "street": "Nowhere Street", "street_signed": False}


#: genuine answers that named no city until checker version 8 (punctuation inside a name; "LA" was no city)
SHORT_AND_PUNCTUATED = [
    ("Johannesburg", "Jo'burg, South Africa"), ("Johannesburg", "Jo’burg"), ("Johannesburg", "Jo'burg's Commissioner Street"),
    ("Lviv", "L'viv, Ukraine"), ("Lviv", "; Europe; Ukraine; L’viv; "), ("Los Angeles", "L.A., USA"),
    ("Los Angeles", "LA, California"), ("Los Angeles", "Hollywood Boulevard, LA"), ("Los Angeles", "city: LA"),
    ("Los Angeles", "; North America; United States; LA; Hollywood Blvd"), ("Los Angeles", "; ; ; la; "),
    ("Los Angeles", "l.a."), ("San Francisco", "S.F., USA"), ("New Orleans", "N.O.L.A."), ("Kuala Lumpur", "K.L., Malaysia"),
    ("New York", "N.Y.C."),
]
#: forms read as before ("LA" inside a word or in an answer all in capitals is no city)
AS_BEFORE = [
    ("Lviv", "Lviv", True), ("San Francisco", "sf", True), ("New Orleans", "NOLA", True), ("Xi'an", "Xi'an, China", True),
    ("Xi'an", "Xian", True), ("Saint Petersburg", "St.Petersburg", True), ("Washington, D.C.", "Washington, D.C.", True),
    ("Paris", "Rue de la Paix, Paris", True), ("Paris", "RUE DE LA PAIX, PARIS", True), ("La Plata", "LA PLATA", True),
    ("La Plata", "La Plata, Argentina", True), ("Los Angeles", "Rue de la Paix", False), ("Los Angeles", "LAX", False),
    ("Los Angeles", "Plaza Mayor, Lagos", False), ("Los Angeles", "La Plata", False),
]
#: a second city by a short or punctuated form is a second city (the first three passed until checker version 8)
TWO_CITIES = [("Paris", "Paris or LA"), ("Paris", "Paris or la"), ("Paris", "Paris / L.A."), ("Los Angeles", "LA or SF"),
              ("Los Angeles", "LA/SF"), ("Johannesburg", "Jo'burg or Durban"), ("Lviv", "L'viv or Kyiv")]


@pytest.mark.parametrize(("city", "answer"), SHORT_AND_PUNCTUATED, ids=[a for _c, a in SHORT_AND_PUNCTUATED])
def test_a_short_or_punctuated_city_name(gz, city, answer):
    assert check_answer(_goal_of(gz, city), answer, gz=gz)["city"]


@pytest.mark.parametrize(("city", "answer", "want"), AS_BEFORE, ids=[f"{c}-{a}" for c, a, _w in AS_BEFORE])
def test_names_read_as_before(gz, city, answer, want):
    assert check_answer(_goal_of(gz, city), answer, gz=gz)["city"] is want


@pytest.mark.parametrize(("city", "answer"), TWO_CITIES, ids=[a for _c, a in TWO_CITIES])
def test_a_second_city_by_a_short_form_is_a_second_city(gz, city, answer):
    m = check_answer(_goal_of(gz, city), answer, gz=gz)
    assert not m["city"] and "2 cities" in " ".join(m.get("answer_notes", [])), m


def test_every_alias_is_the_data_s_and_names_one_city(gz):
    """A city's names, abbreviations included, come from its row of ``data/tables/geo_places.json`` alone (the
    checker holds none); each names one city as written and without its punctuation; an abbreviation read in any
    case is no word of another city's name, a country's, a region's, a street of the suite or a wiki article's
    title, nor any name's letters written with dots ("D.C." of "Bogotá D.C."), and "LA", which is a word ("La
    Plata", "Rue de la Paix"), is read only as written; respelling changes no wiki title or street of the suite."""
    import json
    import re

    from embodiedweb.data_gen.geo import city_names
    from embodiedweb.paths import data_dir
    from embodiedweb.tables import geo_cities

    assert not hasattr(ck, "CITY_ABBREVIATIONS")
    rows = geo_cities()
    for c in gz.cities:
        assert c["names"] == city_names(c["country_code"], c["name"]) and c["name"] in [r[0] for r in rows[c["country_code"]]]
    for index in (gz.city_index, gz.squashed):
        assert all(len(v) == 1 for v in index.values()), [k for k, v in index.items() if len(v) > 1]
    assert all(gz.city_index.get(k, v) == v for k, v in gz.squashed.items())
    titles = [a["title"] for f in ("articles.json", "cues.json")
              for a in json.loads((data_dir() / "wiki" / f).read_text("utf-8"))]
    sps = json.loads((data_dir() / "geo" / "standpoints.json").read_text("utf-8"))["standpoints"]
    streets = sorted({s for sp in sps for s in [sp["street"], *sp.get("street_aliases", [])]})
    words = {w for t in titles + streets for w in norm(t).split()}
    abbreviations = {place_norm(n): k for k, c in enumerate(gz.cities) for n in c["names"]
                     if ck._ABBREVIATION_RX.fullmatch(n)}
    assert {"la", "sf", "nola", "kl", "nyc"} <= set(abbreviations)
    # nor is any a name's letters written with dots ("Bogotá D.C.": a "DC" for Washington would make it two cities)
    dotted = {"".join(m.group(0).split()) for t in titles + streets + [n for r in ck._region_rows().values()
              for name, others, _in in r for n in [name, *others]] for m in re.finditer(r"\b(?:\w )+\w\b", place_norm(t))}
    assert not dotted & set(abbreviations), dotted & set(abbreviations)
    for key, k in abbreviations.items():
        if key in gz.word_abbreviations:
            assert key not in gz.city_index
        else:
            assert gz.city_index[key] == (k,) and key not in words, key
    assert set(gz.word_abbreviations) == {"la"}
    assert not [t for t in titles + streets if ck.respell(t, gz) != t]


def test_every_city_has_a_name_in_its_countrys_first_script(gz):
    """A city is named by its name as its country's signs write it: every city of a country whose signs' first
    script is not Latin has a name in that script among its names (until checker version 9 the cities of Morocco
    and Tunisia had none in Arabic and four of India's none in Devanagari, so "الدار البيضاء" failed Casablanca)."""
    from embodiedweb.data_gen.geo import BY_CODE
    from tests.domains.geolocation.redteam import _in_script

    missing = [(c["name"], BY_CODE[c["country_code"]]["scripts"][0]) for c in gz.cities
               if BY_CODE[c["country_code"]]["scripts"][0] != "latin"
               and not any(_in_script(n, BY_CODE[c["country_code"]]["scripts"][0]) for n in c["names"])]
    assert not missing, missing


@pytest.mark.parametrize(("city", "answer"), [("Casablanca", "الدار البيضاء"), ("Tunis", "تونس"), ("Kolkata", "कोलकाता"),
                                              ("Casablanca", "; Africa; Morocco; الدار البيضاء; "),
                                              ("Bengaluru", "MG Road, बेंगलुरु, India")])
def test_a_city_in_its_countrys_script(gz, city, answer):
    assert check_answer(_goal_of(gz, city), answer, gz=gz)["city"]


def test_every_continent_the_wiki_gives_a_country_is_right_for_its_places(gz):
    """One truth per fact: the wiki's country article says where the country lies ("Russia ... lies in Europe (also
    counted in Asia)"), so an answer naming either continent is right for any of its places, standard and hard, even
    where the place itself is counted in the other (Novosibirsk: stop 39, "Europe" was refused)."""
    import json
    import re

    from embodiedweb.paths import data_dir

    lies = {}
    for art in json.loads((data_dir() / "wiki" / "cues.json").read_text(encoding="utf-8")):
        for sec in art.get("sections", []):
            for par in sec.get("paragraphs", []):
                m = re.match(r"(.+?) is .*?\. It lies in ([A-Z][a-z]+(?: [A-Z][a-z]+)?)(?: \(also counted in (.+?)\))?[,.]",
                             par)
                if m and sec.get("heading") == "Geography":
                    also = re.split(r", | and ", m.group(3)) if m.group(3) else []
                    lies[art["title"]] = [m.group(2), *also]
    tasks = [json.loads(line) for name in ("tasks.jsonl", "hard.jsonl")
             for line in (data_dir() / "geo" / name).read_text(encoding="utf-8").splitlines()]
    checked = 0
    for t in tasks:
        g = t["goal"]
        for cont in lies[g["country"]]:
            answer = f"{g['lat']}, {g['lng']}; {cont}; {g['country']}; {g['city']}; "
            assert ck.check_answer(g, answer, gz=gz)["continent"], (t["task_id"], cont)
            checked += 1
    assert checked > len(tasks) and {"Europe", "Asia"} <= set(lies["Russia"])


# ------------------------------------------------------- stop 39: research needs the fact; hedges (checker 11)
def test_a_cue_is_researched_only_when_shown_what_it_tells():
    """Stop 39: a search for the cue whose results snippet stops before the fact ("a chain of shops in 4 cities of
    4 countries") is no research; a snippet of the cue's article naming the city is, and so is the article read.
    A snippet of another article, or of the cue's naming another city, is not."""
    seen = {"visited": ["n1", "n2"]}

    def both(wiki):
        return ck.research(SP, seen, wiki, GZ)["both"]

    assert both({"searches": ["späti max"]}) == []
    assert both({"searches": ["späti max"], "shown": [{"slug": "spati-max", "snippet": "Späti Max is a chain of shops"}]}) == []
    told = [{"slug": "spati-max", "snippet": "Späti Max is a chain based in Berlin"}]
    assert both({"searches": ["späti max"], "shown": told}) == ["chain"]
    assert both({"shown": told}) == []  # shown for no look-up of the cue
    assert both({"searches": ["späti max hafen brot"], "shown": told}) == []  # a query naming many cues
    assert both({"searches": ["späti max"], "shown": [{"slug": "berlin", "snippet": "Berlin is the capital"}]}) == []
    assert both({"searches": ["späti max"], "shown": [{"slug": "spati-max", "snippet": "based in Hamburg"}]}) == []
    assert both({"searches": ["späti max"], "shown": ["x", None, {"slug": "spati-max"}]}) == []  # bad records: no crash, nothing told
    assert both({"views": ["spati-max"]}) == ["chain"]


#: (answer, city right) for Tainan, Taiwan: alternatives must all read as the city (stop 39's cheater's hedges)
TAINAN_HEDGES = [
    ("; Asia; Taiwan; Tainan or somewhere in Korea; ", False), ("; Asia; Taiwan or China; Tainan;", False),
    ("; Asia or Europe; Taiwan; Tainan;", False), ("; Asia; Taiwan, China, Japan or Korea; Tainan;", False),
    ("; Asia; Taiwan; Tainan or the Hehua city in Turkey;", False), ("Tainan or Busan", False),
    ("Tainan, or possibly a smaller town nearby", False), ("Tainan / Kaohsiung, Taiwan", False),
    ("Tainan, Taiwan", True), ("maybe Tainan, Taiwan", True), ("; Asia; Taiwan; Tainan or 臺南;", True),
    ("Tainan (or Tainan City), Taiwan", True), ("臺南市", True), ("; Asia; Taiwan; Tainan; Minzu Road", True),
    ("Probably Tainan, in Taiwan", True), ("22.99, 120.2; Asia; Taiwan; Tainan", True),
]


@pytest.mark.parametrize(("answer", "right"), TAINAN_HEDGES)
def test_an_answer_offering_alternatives_names_its_city_only_if_all_read_as_it(gz, answer, right):
    goal = {**_goal_of(gz, "Tainan"), "continent": "Asia"}
    m = check_answer(goal, answer, None, gz)
    assert m["city"] == right, m.get("answer_notes")
    if not right and "or" in answer and m.get("answer_notes"):
        assert any("hedge" in n or "countries" in n or "cities" in n for n in m["answer_notes"])


def test_an_unread_alternative_is_another_place(gz):
    """Tromsø-ish, possibly Bodø: Bodø has no wiki article, so the judge cannot read it as Tromsø."""
    goal = {**_goal_of(gz, "Tromsø"), "continent": "Europe"}
    assert check_answer(goal, "Tromso", None, gz)["city"]
    m = check_answer(goal, "Tromsø-ish, possibly Bodø", None, gz)
    assert not m["city"] and "hedge" in " ".join(m["answer_notes"])
