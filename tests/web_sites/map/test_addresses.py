"""One address, one place: every address that appears anywhere (an instruction, a store page, a wiki
infobox, a place page) resolves through the map site to the node the checkers use."""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

import pytest

from embodiedweb.domains.outdoor.common import near
from embodiedweb.paths import data_dir
from embodiedweb.web.text_driver import TextDriver
from embodiedweb.worlds.street import load_city
from web_sites.shop import catalog as shop
from web_sites.wiki import catalog as wiki

from .conftest import map_driver


@pytest.fixture(scope="module")
def driver():
    with map_driver() as d:
        yield d


def _tasks(name: str) -> list[dict]:
    return [json.loads(x) for x in (data_dir() / name / "tasks.jsonl").read_text(encoding="utf-8").splitlines()]


def _end(driver: TextDriver, start: str, address: str) -> str | None:
    """The node the map's directions from ``start`` to ``address`` end at (None: not found)."""
    driver.execute("goto", {"url": "/map/directions?" + urlencode({"from": start, "to": address})})
    m = re.search(r"End: (n\d+) at", driver.tree().text)
    return m.group(1) if m else None


def _addresses() -> list[tuple[str, str, str, str]]:
    """(where it appears, address, start node, the checker's node) for every task."""
    out = []
    for t in _tasks("navigation"):
        out.append((t["task_id"], re.search(r"\(([^()]+)\) and stop there", t["instruction"]).group(1), t["embodied"]["start"],
                    t["goal"]["dest_node"]))
    for t in _tasks("shopping"):
        out.append((t["task_id"], shop.store(t["goal"]["store_id"])["address"], t["embodied"]["start"],
                    t["goal"]["store_node"]))
    for t in _tasks("traveling"):
        infobox = dict(wiki.get(t["goal"]["slug"])["infobox"])
        out.append((t["task_id"], infobox["Address"], t["embodied"]["start"], t["goal"]["place_node"]))
    return out


def test_every_address_of_every_task_leads_to_the_checkers_node(driver):
    wrong = [(where, address, end, goal) for where, address, start, goal in _addresses()
             if (end := _end(driver, start, address)) != goal]
    assert not wrong, wrong[:5]


def test_every_place_address_in_any_form_resolves_to_its_node(driver):
    city = load_city()
    wrong = []
    for p in city.places.values():
        if not p.address:
            continue
        short = p.address.split(", New York")[0]
        spelled = re.sub(r"\bAve\b", "Avenue", re.sub(r"\bSt\b", "Street", short))
        for form in (p.address, short, spelled, short.upper()):
            start = next(nb for nb, *_ in city.neighbors(p.node_id))
            if _end(driver, start, form) != p.node_id:
                wrong.append((p.place_id, form))
    assert not wrong, wrong[:5]


def test_interpolated_addresses_stay_on_their_street_and_unknown_ones_get_suggestions(driver):
    city = load_city()
    loc = city.parse_address("400 5th Ave")  # no place there: interpolated between 36th and 37th St
    assert loc is not None and loc.kind == "address" and "5th Ave" in city.nodes[loc.node_id].streets
    for bad in ("99999 5th Ave", "12 Nowhere Street, New York, NY 10001"):
        assert city.parse_address(bad) is None
        driver.execute("goto", {"url": "/map/search?" + urlencode({"q": bad})})
        text = driver.tree().text
        assert "No match for" in text and "list 'Suggestions'" in text, text[-600:]
    driver.execute("goto", {"url": "/map/directions?" + urlencode({"from": "5th Ave & W 42nd St", "to": "351 5th Av"})})
    text = driver.tree().text
    assert "End: " in text  # a house number near a known one is interpolated on the street, not refused
    driver.execute("goto", {"url": "/map/directions?" + urlencode({"from": "5th Ave & W 42nd St",
                                                                    "to": "Empire Stat Bilding"})})
    text = driver.tree().text
    assert "could not find the destination" in text and "Empire State Building" in text


def test_the_goal_radius_is_twenty_metres_along_the_street():
    city = load_city()
    goal = city.places["empire-state-building"].node_id
    inside = [nb for nb, _h, d, _s in city.neighbors(goal) if d <= 20]
    assert inside and all(near(n, goal) for n in inside)
    far = city.route(goal, city.intersection_node("5th Ave", "W 42nd St"))[4]
    assert city.shortest_length(far, goal) > 20 and not near(far, goal)
