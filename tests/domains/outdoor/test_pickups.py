"""A pickup order's collection is one fact for the shop's pages and the checkers (stop 37,
:mod:`embodiedweb.domains.outdoor.pickups`).

Scripted walks through the env (text mode) on standard shopping tasks: the oracle, ordering at the store's door,
walking past the store before ordering, a cancelled order, never reaching the store (stopping at its door). Before
the stop each reads the shop's Orders page; the status it shows ("Collected at <store>" or not) must be the
errands checker's verdict on a purchase of that order (:func:`~embodiedweb.domains.outdoor.errands.check_errands`:
bought right and its store reached once ordered) and the baskets checker's rule for the order
(:func:`~embodiedweb.domains.outdoor.common.there_since` from the step it was placed), and the step recorded in
the trace.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401  (registers the envs)
from embodiedweb.agents.script import find_bid
from embodiedweb.domains.base import Episode
from embodiedweb.domains.outdoor.baskets import store_nodes
from embodiedweb.domains.outdoor.common import city, near, there_since
from embodiedweb.domains.outdoor.errands import check_errands
from embodiedweb.domains.outdoor.pickups import collected_step
from embodiedweb.domains.outdoor.shopping import ShoppingOracle
from web_sites.shop import catalog

SHOP = "EWA-Shopping-v0"
HOWS = ("oracle", "at_the_door", "walk_past_first", "cancelled", "never_reached")
#: what each walk leaves on the Orders page
COLLECTED = {"oracle": True, "at_the_door": True, "walk_past_first": False, "cancelled": False,
             "never_reached": False}


class Pickup(ShoppingOracle):
    """The task's item ordered right for pickup at its store, walked in one of :data:`HOWS`; the Orders page is
    read just before the stop (``page``)."""

    def __init__(self, task: Any, how: str) -> None:
        super().__init__(task)
        self.how = how
        self.page = ""

    def door(self, node: str) -> list[str]:
        """The route from here to ``node`` up to its last node outside the arrival radius."""
        path = city().route(self.here(), node)
        inside = next((k for k, n in enumerate(path) if near(n, node)), len(path))
        return path[:max(inside, 1)]

    def walk(self, path: list[str]) -> Any:
        if self.obs["active"] != "embodied":
            yield "switch_environment"
        for nxt in path[1:]:
            yield f"move [{nxt}]"

    def plan(self) -> Any:
        g = self.task.goal
        node = g["store_node"]
        if self.how == "at_the_door":
            yield from self.walk_to(node)
        if self.how == "walk_past_first":  # into the store's radius and back out, then the order, far off
            start = self.here()
            yield from self.walk_to(node)
            yield from self.walk(city().route(self.here(), start))
        yield from self.order_at(g["store_id"], "pickup", g.get("options"))
        oid = re.search(r"ORD-\d+", self.obs["web_url"]).group(0)
        if self.how == "cancelled":
            yield f"click [{find_bid(self.obs['web_text'], 'button', f'Cancel order {oid}')}]"
            assert "is cancelled" in self.obs["web_text"], self.obs["web_text"]
        if self.how in ("oracle", "cancelled"):
            yield from self.walk_to(node)
        if self.how == "never_reached":
            yield from self.walk(self.door(node))
        if self.obs["active"] != "web":
            yield "switch_environment"
        yield "goto [/shop/orders]"
        self.page = self.obs["web_text"]
        yield "stop"


@pytest.fixture(scope="module")
def env():
    e = gym.make(SHOP, web_mode="text")
    yield e
    e.close()


def _tasks(env: Any) -> list[Any]:
    """Three standard tasks whose start is outside every store's radius (so the door and the walk past differ), of
    the shortest walks (there and back fits the step limit), each at another store when there are such."""
    tasks = sorted((t for t in env.unwrapped.tasks.tasks if not any(near(t.embodied["start"], n)
                                                                     for n in store_nodes().values())),
                   key=lambda t: (len(city().route(t.embodied["start"], t.goal["store_node"])), t.task_id))
    picked: list[Any] = []
    for t in tasks:
        if len(picked) < 3 and t.goal["store_id"] not in {p.goal["store_id"] for p in picked}:
            picked.append(t)
    return picked


@pytest.mark.parametrize("how", HOWS)
def test_the_orders_page_and_the_checkers_agree_on_the_pickup(env, how):
    for task in _tasks(env):
        agent = Pickup(task, how)
        obs, info = env.reset(seed=0, options={"task_id": task.task_id})
        agent.reset(env, obs, info)
        done = False
        while not done:
            obs, _, term, trunc, info = env.step(agent.act(obs, info))
            done = term or trunc
        u = env.unwrapped
        world, web = u.world.semantic_state(), u.webapp.snapshot(u.session)
        [order] = web["shop"]["orders"]
        name = catalog.store(task.goal["store_id"])["name"]
        shown = f"Collected at {name}" in agent.page
        assert shown == COLLECTED[how] == (order["status"] == "collected"), (task.task_id, how, agent.page)
        # the errands checker: this order as one purchase errand, bought right and its store reached once ordered
        errand = {"kind": "buy", **{k: task.goal[k] for k in ("product_id", "store_id", "store_node")},
                  "options": task.goal.get("options") or {}}
        ep = Episode(dataclasses.replace(task, goal={"errands": [errand]}), world, web, "", u.steps, u.switches)
        assert bool(check_errands(ep)["errands_done"]) == shown, (task.task_id, how)
        # the baskets checker's rule for a live order (a cancelled one is none)
        live = catalog.live_orders(web["shop"]["orders"])
        assert any(there_since(world, store_nodes()[o["store_id"]], o["at"]) for o in live) == shown
        assert order["collected_at"] == collected_step(world, order)
        # the trace records the change like any site change: on the step it happened at
        if shown:
            step = next(r for r in u.history if "'collected'" in str(r.get("changes", {}).get("web", "")))
            assert step["step"] == order["collected_at"], (task.task_id, how)


def test_browser_mode_shows_the_same_collected_order(env):
    """Text and browser mode render the Orders page from the same site state: the same page text, the same trace."""
    from embodiedweb.web.browser_driver import BrowserUnavailable, get_browser

    try:
        get_browser()
    except BrowserUnavailable as e:
        pytest.skip(str(e))
    task = _tasks(env)[0]
    seen = []
    for mode in ("text", "browser"):
        e = env if mode == "text" else gym.make(SHOP, web_mode="browser")
        agent = Pickup(task, "oracle")
        obs, info = e.reset(seed=0, options={"task_id": task.task_id})
        agent.reset(e, obs, info)
        done = False
        while not done:
            obs, _, term, trunc, info = e.step(agent.act(obs, info))
            done = term or trunc
        seen.append((agent.page, e.unwrapped.trace_digest()))
        if e is not env:
            e.close()
    assert seen[1] == seen[0] and "Collected at" in seen[0][0]


def test_the_sync_reads_the_walk_only():
    """:func:`pickups.walk_of` hands the pickup rule the walker's own ``path``/``path_at`` lists (not the world's
    whole semantic state, which the sync would compute at every step), and a world that keeps no such lists its
    semantic state (found by stop 37's mutation run)."""
    from embodiedweb.domains.outdoor.pickups import walk_of

    env = gym.make("EWA-Shopping-v0", web_mode="text")
    env.reset(seed=0)
    world = env.unwrapped.world
    walk = walk_of(world)
    assert set(walk) == {"path", "path_at"} and walk["path"] == world.semantic_state()["path"]
    env.close()

    class Listless:
        def semantic_state(self) -> dict[str, Any]:
            return {"path": ["n1"], "path_at": [0], "node": "n1"}

    assert walk_of(Listless()) == {"path": ["n1"], "path_at": [0], "node": "n1"}
