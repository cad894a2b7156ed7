"""The hard shopping tier's walker views and plain map (stop 38, issue 22 item 1), as hard navigation's: every hard
shopping task (single purchases, errands, baskets) starts at a corner the instruction does not name, shows the
walker's street view (street signs, storefront signs with house numbers, no "Here" line, no distances to places)
and a plain map that takes a store's name or street address; the oracle solves every task so and sees no leak."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401  (registers the envs)
from embodiedweb.domains.outdoor.common import DIRECTIONS_NEAR_M, city
from embodiedweb.domains.outdoor.shopping import ShoppingDomain
from embodiedweb.registration import spec_for
from embodiedweb.tasks import Task, load_tasks
from embodiedweb.worlds.street.world import StreetWorld
from tests.domains.outdoor.test_hard_navigation import LEAKS, leaks_in, play
from web_sites.shop import catalog

SHOP = "EWA-Shopping-v0"


@pytest.fixture(scope="module")
def env():
    e = gym.make(SHOP, level="hard")
    yield e
    e.close()


@pytest.fixture(scope="module")
def hard_tasks() -> list[Task]:
    """Every hard shopping task: single purchases, errands (purchases, a purchase and a question), baskets."""
    return load_tasks(spec_for(SHOP).level_tasks_path("hard"), ShoppingDomain().validate_task)


def corner_signs(text: str) -> str | None:
    """The corner the street view's signs name, as a walker types it into the map ("6th Ave & W 49th St")."""
    m = re.match(r"Street signs at this corner: (.+)\.$", text.split("\n", 1)[0])
    return " & ".join(m.group(1).split(" / ")) if m else None


def test_every_hard_task_has_the_walker_view_and_the_plain_map_and_an_unnamed_start(hard_tasks):
    """All 214 (120 single purchases, 80 errands, 14 baskets): ``embodied.view = "walker"``, ``web.sites.map.plain``,
    the instruction names no corner of the start ("You are at ..." until stop 38), the walker's view at the start
    shows its corner's street signs, and the plain map finds that corner within ``DIRECTIONS_NEAR_M`` of the start
    (directions from there guide the walk; one start, n1111 of shop-hard-031, reads "7th Ave / Broadway / W 45th St",
    a name the map places at the "7th Ave & Broadway" node 33 m away)."""
    assert len(hard_tasks) == 214
    bad = []
    for t in hard_tasks:
        start = t.embodied["start"]
        w = StreetWorld(city())
        w.reset({"start": start, "heading": 0, "view": "walker"}, 0)
        corner = corner_signs(w.text())
        found = city().locate(corner) if corner else None
        if (t.embodied.get("view") != "walker" or t.web["sites"]["map"] != {"plain": True}
                or "You are at" in t.instruction or city().intersection_name(start) in t.instruction
                or not t.instruction.startswith("You start at the street corner whose signs you see")
                or found is None or city().shortest_length(found.node_id, start) > DIRECTIONS_NEAR_M):
            bad.append(t.task_id)
    assert bad == []


def test_standard_tasks_keep_the_map_view():
    """The standard tier is untouched: no walker view, no plain map."""
    std = load_tasks(spec_for(SHOP).tasks_path, ShoppingDomain().validate_task)
    assert std and not any(t.embodied.get("view", "map") != "map" or "map" in (t.web.get("sites") or {}) for t in std)


def test_a_store_is_a_sign_a_walker_sees_and_a_place_the_plain_map_takes(env, hard_tasks):
    """At each store's node the walker's view has its storefront sign beside the walker with the house number of its
    street address on the shop's store page; the plain map gives directions to its name and to its address from a
    corner's name, without a node id, and refuses a node id."""
    t = next(t for t in hard_tasks if "basket" in t.goal)
    obs, _ = env.reset(seed=0, options={"task_id": t.task_id})
    corner = corner_signs(obs["embodied_text"])
    assert corner and obs["active"] == "web"
    for s in catalog.stores():
        node = city().locate(s["address"]).node_id
        w = StreetWorld(city())
        w.reset({"start": node, "heading": 0, "view": "walker"}, 0)
        beside = w.text().split("Beside you: ", 1)[1]
        assert f"{s['name']} (no. {s['address'].split(' ', 1)[0]})" in beside, (s["store_id"], beside)
        page = env.step(f"goto [/shop/stores/{s['store_id']}]")[0]["web_text"]
        assert s["address"] in page
        for to in (s["name"], s["address"]):
            text = env.step("goto [/map/directions?" + urlencode({"from": corner, "to": to}) + "]")[0]["web_text"]
            assert "End: " in text and not LEAKS["node id"].search(text), (to, text[-400:])
        text = env.step("goto [/map/directions?" + urlencode({"from": t.embodied["start"], "to": s["name"]})
                        + "]")[0]["web_text"]
        assert "could not find the starting point" in text


def test_the_oracle_solves_every_hard_task_as_a_walker_and_sees_no_leak(env, hard_tasks):
    """The oracle (public actions: the shop, the plain map's directions from the corner's name, the walk) passes all
    214; no street view it is shown has a node id outside the neighbour lines, coordinates, a "Here" list or a
    distance to a place, and no page a node id."""
    failed, leaks = [], set()
    for t in hard_tasks:
        seen: list[tuple[str, str]] = []
        if not play(env, ShoppingDomain().oracle(t), t.task_id, seen)["overall"]:
            failed.append(t.task_id)
        leaks |= {(t.task_id, what) for side, text in seen for what in leaks_in(side, text)}
    assert not failed and not leaks, (failed[:5], sorted(leaks)[:5])
