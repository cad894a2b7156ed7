"""The places data (``data/places/places.json``) and the wiki articles generated from it."""

from __future__ import annotations

import json
import re

import pytest

from embodiedweb.data_gen import places as places_gen
from embodiedweb.data_gen import wiki as wiki_gen
from embodiedweb.paths import data_dir

REQUIRED = ("place_id", "name", "category", "lat", "lng", "address", "cross_streets", "neighborhood",
            "notable_facts", "related")


@pytest.fixture(scope="module")
def places():
    return json.loads((data_dir() / "places" / "places.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def articles():
    return json.loads((data_dir() / "wiki" / "articles.json").read_text(encoding="utf-8"))


def test_places_count_fields_and_bounds(places):
    assert len(places) >= 150
    for p in places:
        for k in REQUIRED:
            assert k in p and p[k] not in (None, ""), (p["place_id"], k)
        assert 40.695 <= p["lat"] <= 40.775 and -74.025 <= p["lng"] <= -73.955, p["place_id"]
        assert p["category"] in places_gen.CATEGORIES
        assert p["neighborhood"] in places_gen.NEIGHBORHOODS, p["neighborhood"]
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", p["place_id"])
        assert re.search(r"&", p["cross_streets"]), p["place_id"]
        if "year_built" in p:
            assert 1700 <= int(p["year_built"]) <= 2025
    assert len({p["place_id"] for p in places}) == len(places)
    assert len({p["name"] for p in places}) == len(places)
    assert len({p["category"] for p in places}) >= 12
    midtown = [p for p in places if 40.733 <= p["lat"] <= 40.770]
    assert len(midtown) >= 120  # most places lie in the street graph's extent (14th to 59th Street)


def test_the_four_shop_stores_are_places(places):
    path = data_dir() / "shop" / "stores.json"
    stores = json.loads(path.read_text()) if path.exists() else places_gen.FALLBACK_STORES
    assert len(stores) == 4
    by_id = {p["place_id"]: p for p in places}
    for s in stores:
        p = by_id[f"{s['store_id']}-store"]
        assert p["category"] == "store" and p["name"] == s["name"] and p["store_id"] == s["store_id"]
        assert (p["lat"], p["lng"]) == (s["lat"], s["lng"])
    assert sum(p["category"] == "store" for p in places) == 4


def test_places_file_is_reproducible(places):
    assert places_gen.build() == places


def test_article_count_and_links(articles, places):
    assert len(articles) >= 300
    slugs = {a["slug"] for a in articles}
    assert len(slugs) == len(articles)
    for a in articles:
        for k in ("slug", "title", "summary", "sections", "infobox", "links", "categories"):
            assert k in a
        assert a["summary"] and a["categories"]
        texts = [a["lead"]] + [t for s in a["sections"] for t in s["paragraphs"]]
        found = {s for t in texts for s in wiki_gen.link_slugs(t)}
        assert found == set(a["links"])
        assert set(a["links"]) <= slugs, (a["slug"], set(a["links"]) - slugs)
    for p in places:
        assert set(p["related"]) <= slugs, p["place_id"]
    kinds = {a["kind"] for a in articles}
    assert {"place", "neighborhood", "style", "architect", "topic", "list"} <= kinds


def test_every_place_has_an_article_holding_its_facts(articles, places):
    by_slug = {a["slug"]: a for a in articles}
    for p in places:
        a = by_slug[p["place_id"]]
        assert a["kind"] == "place" and a["title"] == p["name"]
        text = wiki_gen.article_text(a)
        for key, value in a["facts"].items():
            if key == "category":
                continue
            assert value in text, (p["place_id"], key, value)
        for key in ("year_built", "architect", "architectural_style", "opening_hours", "height_m", "floors"):
            if key in p:
                assert a["facts"][key] == str(p[key])
        for fact in p["notable_facts"]:
            assert fact in text
        headings = [s["heading"] for s in a["sections"]]
        assert headings[:3] == ["History", "Architecture", "Visiting"]
        assert dict(a["infobox"])["Address"]


def test_articles_file_is_reproducible(articles):
    assert wiki_gen.build() == articles


def test_no_unresolved_markup(articles):
    for a in articles:
        for t in [a["lead"]] + [t for s in a["sections"] for t in s["paragraphs"]]:
            assert "[[" not in wiki_gen.plain_text(t) and "]]" not in wiki_gen.plain_text(t)


def test_wiki_puts_each_place_where_the_map_and_checkers_do(articles):
    """One truth per location: a place article's cross streets are the corner or block of the street node
    the map, the street views and the checkers use for that place (a walker who goes where the wiki says
    finds the place announced "Here")."""
    from embodiedweb.worlds.street.city import load_city

    city = load_city()
    by_slug = {a["slug"]: a for a in articles}
    checked = 0
    for pid, place in city.places.items():
        a = by_slug.get(pid)
        if a is None:
            continue
        where = city.intersection_name(place.node_id)
        assert dict(a["infobox"])["Cross streets"] == where, (pid, where)
        assert a["facts"]["cross_streets"] == where and f"({where})" in a["lead"], pid
        assert a["footer"] == wiki_gen.PLACE_FOOTER
        checked += 1
    assert checked >= 140
    # the only statements of the kind "this wiki records nothing" are gone (they contradicted the history)
    assert not any("This wiki records no architect" in wiki_gen.article_text(a) for a in articles)


def test_a_lead_sentence_takes_the_right_article(articles):
    """"is an educational institution", "is a museum" (stop 35: five place articles said "is a educational
    institution"); the article follows the label's first letter (:func:`wiki_gen.with_article`)."""
    leads = [a["lead"] for a in articles if a.get("kind") == "place"]
    assert not [x for x in leads if re.search(r"\bis a [aeiouAEIOU]", x)]
    assert sum(" is an educational institution " in x for x in leads) == 5
    assert wiki_gen.with_article("educational institution") == "an educational institution"
    assert wiki_gen.with_article("museum") == "a museum"
