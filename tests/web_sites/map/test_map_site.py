"""The map site through the text driver: search, directions, bad input, session state."""

from __future__ import annotations

import pytest

from baselines.script import find_bid
from embodiedweb.worlds.street import load_city

from .conftest import map_driver, map_snapshot


@pytest.fixture
def driver():
    with map_driver() as d:
        yield d


_snap = map_snapshot


def test_directions_through_forms(driver):
    city = load_city()
    text = driver.tree().text
    assert driver.execute("type", {"id": find_bid(text, "textbox", "From"), "text": "350 5th Ave"}) == ""
    assert driver.execute("type", {"id": find_bid(driver.tree().text, "textbox", "To"),
                                   "text": "Broadway & W 42nd St", "enter": True}) == ""
    assert "/map/directions?from=350+5th+Ave&to=" in driver.url
    text = driver.tree().text
    a = city.parse_address("350 5th Ave").node_id
    b = city.intersection_node("Broadway", "W 42nd St")
    assert f"Start: {a} at " in text and f"End: {b} at Broadway & W 42nd St" in text
    assert "listitem 'Head north on 5th Ave (towards n" in text and f"Arrive at Broadway & W 42nd St ({b})" in text
    assert "img 'Map of the walking route from 350 5th Ave to Broadway & W 42nd St" in text
    length = city.route_length(city.route(a, b))
    assert f"Total distance: {round(length)} m" in text
    snap = _snap(driver)
    assert snap["directions"] == [{"from": "350 5th Ave", "to": "Broadway & W 42nd St", "from_node": a,
                                   "to_node": b, "length_m": round(length, 1), "at": 0}]  # no env: step 0
    url = driver.url  # revisit by URL gives the same page
    assert driver.execute("goto", {"url": url}) == "" and f"End: {b}" in driver.tree().text


@pytest.mark.parametrize("frm,to,msg", [
    ("Nowhere Place 123", "5th Ave & W 42nd St", "could not find the starting point"),
    ("5th Ave & W 42nd St", "<script>alert(1)</script>", "could not find the destination"),
    ("5th Ave & W 42nd St", "Fifth Avenue and 42nd Street", "are the same place"),
    ("", "5th Ave & W 42nd St", "Enter a starting point"),
    ("%00%01", "%%%", "could not find"),
])
def test_directions_bad_input(driver, frm, to, msg):
    from urllib.parse import urlencode

    assert driver.execute("goto", {"url": "/map/directions?" + urlencode({"from": frm, "to": to})}) == ""
    text = driver.tree().text
    assert "alert '" in text and msg in text
    assert _snap(driver).get("directions", []) == []


def test_search_places_and_intersections(driver):
    city = load_city()
    box = find_bid(driver.tree().text, "searchbox", "Search places and addresses")
    assert driver.execute("type", {"id": box, "text": "8th Ave & W 34th St", "enter": True}) == ""
    text = driver.tree().text
    nid = city.intersection_node("8th Ave", "W 34th St")
    assert f"(node {nid})" in text
    assert driver.execute("goto", {"url": "/map/search?q=%E2%98%83%3C%3E"}) == ""
    assert "No match for" in driver.tree().text
    snap = _snap(driver)
    assert [s["results"] for s in snap["searches"]] == [1, 0]
    if city.places:
        p = sorted(city.places.values(), key=lambda p: p.place_id)[0]
        assert driver.execute("goto", {"url": f"/map/place/{p.place_id}"}) == ""
        text = driver.tree().text
        assert p.name in text and p.node_id in text
        assert driver.execute("click", {"id": find_bid(text, "link", "Directions to here")}) == ""
        assert "Enter a starting point" in driver.tree().text
    assert driver.execute("goto", {"url": "/map/place/nope"}) == "" and "Place not found" in driver.tree().text


def test_directions_page_turn_words_are_the_street_labels(driver):
    import re

    from embodiedweb.worlds.street import StreetWorld
    from embodiedweb.worlds.street.city import TURN_VERBS

    city = load_city()
    assert driver.execute("goto", {"url": "/map/directions?from=5th+Ave+%26+W+40th+St&to=6th+Ave+%26+W+50th+St"}) == ""
    text = driver.tree().text
    assert "the direction word the street view shows there" in text and "(29 deg)" in text
    path = city.route(city.intersection_node("5th Ave", "W 40th St"), city.intersection_node("6th Ave", "W 50th St"))
    turns = re.findall(r"listitem '(.+?) onto (.+?) \(([\w -]+) at (n\d+)\) and walk", text)
    assert turns
    w = StreetWorld(city)
    for verb, _street, label, node in turns:
        i = path.index(node)
        w.reset({"start": node, "heading": city.edge(path[i - 1], node)[1]}, 0)
        assert verb == TURN_VERBS[label]
        assert re.search(rf"^- {path[i + 1]}: {label} \(heading", w.text(), re.M)


@pytest.mark.parametrize("place", ["empire-state-building", "one-times-square", "waldorf-astoria"])
def test_the_map_around_a_place_draws_exactly_the_streets_that_reach_into_it(place):
    """The vectorised box test picks the same segments, in the same order, as testing each one."""
    import re

    from embodiedweb.worlds.street.geo import to_xy
    from web_sites.map.site import _street_segments, route_svg

    city = load_city()
    p = city.places[place]
    svg = route_svg(city, [p.node_id], "m", size=(480, 360), margin_m=120.0)
    drawn = re.search(r'<path d="([^"]*)"', svg).group(1).count("M")
    x, y = to_xy(city.nodes[p.node_id].lat, city.nodes[p.node_id].lng)
    scale = min(480 / 240, 360 / 240)
    half_w, half_h = 480 / scale / 2, 360 / scale / 2
    want = sum(1 for (ax, ay), (bx, by), _ in _street_segments(city)[0]
               if not (max(ax, bx) < x - half_w or min(ax, bx) > x + half_w or max(ay, by) < y - half_h
                       or min(ay, by) > y + half_h))
    assert drawn == want > 10
