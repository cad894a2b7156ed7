"""Error taxonomy rules on small hand-made traces, and on the oracle's trace (no category)."""

from __future__ import annotations

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401
from baselines.registry import make_agent
from embodiedweb.evaluate import run_episode
from embodiedweb.report.taxonomy import CATEGORIES, classify_episode, shares

WORLD = {"agent": {"x": 0.0, "z": 0.0}, "held": None,
         "objects": [{"objectId": "Apple|1", "objectType": "Apple", "isSliced": False},
                     {"objectId": "Tomato|1", "objectType": "Tomato", "isSliced": False}]}
EMB = "kitchen"


def step(action, name, domain, active, url="http://x/", error="", changes=None, **args):
    return {"action": action, "parsed": {"name": name, "domain": domain, "args": args} if name else None,
            "active": active, "error": error, "web_url": url, "changes": changes or {}}


def trace(*steps, start="web"):
    recs = [{"event": "reset", "step": 0, "active": start, "web_url": "http://x/", "web": {}, "world": WORLD}]
    for i, s in enumerate(steps, 1):
        recs.append({"step": i, **s})
    return recs


def web(url, action="click [1]", **kw):
    return step(action, action.split()[0], "web", "web", url=url, **kw)


def emb(action, error="", changes=None, url="http://x/"):
    return step(action, action.split()[0], EMB, "embodied", url=url, error=error, changes=changes)


def switch(to, url="http://x/"):
    return step("switch_environment", "switch_environment", "meta", to, url=url)


def stop(active="web", url="http://x/"):
    return step("stop", "stop", "meta", active, url=url)


SLICE_APPLE = {"world": {"objects": [{"objectId": "Apple|1", "objectType": "Apple", "isSliced": True},
                                     {"objectId": "Tomato|1", "objectType": "Tomato", "isSliced": False}]}}
SLICE_TOMATO = {"world": {"objects": [{"objectId": "Apple|1", "objectType": "Apple", "isSliced": False},
                                      {"objectId": "Tomato|1", "objectType": "Tomato", "isSliced": True}]}}
R1 = "http://x/recipes/recipe/r001"
ORACLE = trace(web("http://x/recipes/"), web(R1), switch("embodied", R1),
               emb("SliceObject [Apple|1]", changes=SLICE_APPLE, url=R1), stop("embodied", R1))


def cats(t, **kw):
    return classify_episode(t, ORACLE, **kw)


def test_oracle_trace_has_no_category():
    assert cats(ORACLE) == {"categories": {}, "primary": "other"}
    assert classify_episode(ORACLE) == {"categories": {}, "primary": "other"}


def test_stuck_in_embodied_domain():
    t = trace(switch("embodied"), emb("MoveAhead"), emb("RotateLeft"), emb("MoveAhead"), stop("embodied"))
    assert "stuck_embodied" in cats(t)["categories"]
    # the tail rule: acted on the web, then 10 embodied steps without progress
    t = trace(web("http://x/recipes/"), switch("embodied"), *[emb(a) for a in ["MoveAhead", "MoveBack"] * 5])
    c = cats(t)["categories"]
    assert "stuck_embodied" in c and c["stuck_embodied"]["step"] == 2  # from the switch on


def test_stuck_in_web_domain():
    t = trace(web("http://x/recipes/"), web("http://x/recipes/?page=2"), web("http://x/about"), stop())
    assert "stuck_web" in cats(t)["categories"]
    assert "stuck_web" not in cats(t, needs_embodied=False)["categories"]


def test_switching_without_acting():
    t = trace(web("http://x/recipes/"), switch("embodied"), switch("web"), stop())
    c = cats(t)
    assert c["categories"]["switching_without_acting"]["step"] == 3


def test_instruction_action_misalignment_page_and_object():
    t = trace(web("http://x/recipes/"), web("http://x/recipes/recipe/r002"), stop())
    c = cats(t)
    assert c["categories"]["instruction_action_misalignment"]["step"] == 2
    assert c["primary"] == "instruction_action_misalignment"
    t = trace(web("http://x/recipes/"), web(R1), switch("embodied", R1),
              emb("SliceObject [Tomato|1]", changes=SLICE_TOMATO, url=R1), stop("embodied", R1))
    c = cats(t)
    assert "Tomato" in c["categories"]["instruction_action_misalignment"]["evidence"]
    assert classify_episode(t)["categories"] == {}  # the rule needs the oracle's trace


def test_web_page_loops():
    t = trace(web("http://x/a"), web("http://x/b"), web("http://x/a"), web("http://x/b"), web("http://x/a"))
    c = cats(t, needs_embodied=False)["categories"]
    assert c["web_page_loops"]["step"] == 5
    # a state change in between resets the count
    t = trace(web("http://x/a"), web("http://x/b", changes={"web": {"cart": [1]}}), web("http://x/a"),
              web("http://x/b"), web("http://x/a"))
    assert "web_page_loops" not in cats(t, needs_embodied=False)["categories"]


def test_repeated_actions():
    t = trace(web("http://x/a", "scroll [down]"), web("http://x/a", "scroll [down]"),
              web("http://x/a", "scroll [down]"))
    assert cats(t, needs_embodied=False)["categories"]["repeated_actions"]["step"] == 3
    t = trace(web("http://x/a", "click [9]", error="no element 9"), web("http://x/a", "click [9]", error="no element 9"))
    assert cats(t, needs_embodied=False)["categories"]["repeated_actions"]["step"] == 2


def test_failed_navigation_to_objects():
    t = trace(web(R1), switch("embodied", R1),
              emb("PickupObject [Apple|1]", error="Apple|1 is not visible from the agent's current view", url=R1),
              emb("SliceObject [Apple|1]", changes=SLICE_APPLE, url=R1), stop("embodied", R1))
    c = cats(t)
    assert list(c["categories"]) == ["failed_navigation_to_objects"] and c["primary"] == "failed_navigation_to_objects"
    t = trace(switch("embodied"), emb("PickupObject [Spoon]",
                                      error="Object ID appears to be invalid: no object named 'Spoon' in this kitchen"))
    assert "failed_navigation_to_objects" in cats(t)["categories"]


def test_primary_is_the_earliest_and_shares_sum_to_one():
    t = trace(web("http://x/recipes/recipe/r002"), switch("embodied"), switch("web"))
    c = cats(t)
    assert {"instruction_action_misalignment", "switching_without_acting"} <= set(c["categories"])
    assert c["primary"] == "instruction_action_misalignment"
    res = [c, cats(trace(web("http://x/a", "scroll [up]"), web("http://x/a", "scroll [up]"),
                         web("http://x/a", "scroll [up]")), needs_embodied=False), {"categories": {}, "primary": "other"}]
    s = shares(res)
    assert s["failures"] == 3 and sum(s["primary"].values()) == pytest.approx(1.0)
    assert round(100 * sum(s["primary"].values()), 1) == 100.0
    assert s["primary"]["other"] == pytest.approx(0.333, abs=1e-3)
    assert s["any"]["switching_without_acting"] == pytest.approx(1 / 3, abs=1e-4)
    assert set(s["any"]) == set(CATEGORIES)


def test_real_oracle_traces_have_no_category():
    env = gym.make("EWA-Cooking-v0", web_mode="text")
    try:
        for t in env.unwrapped.tasks.tasks[:5]:
            run_episode(env, make_agent("oracle"), t.task_id, seed=3)
            tr = [dict(r) for r in env.unwrapped.trace.records]
            assert classify_episode(tr, tr)["categories"] == {}
    finally:
        env.close()


def test_stuck_tail_counts_from_exactly_the_threshold():
    """Mutation guard: a run of exactly ``tail`` steps without progress is stuck, one fewer is not."""
    def run(n):  # a web step, then the switch and n - 1 embodied steps: a run of n
        return trace(web("http://x/recipes/"), switch("embodied"), *[emb("MoveAhead")] * (n - 1))
    assert "stuck_embodied" in cats(run(10), tail=10)["categories"]
    assert "stuck_embodied" not in cats(run(9), tail=10)["categories"]


def _street(*moves, start=(40.0, -74.0)):
    recs = [{"event": "reset", "step": 0, "active": "embodied", "web_url": "http://x/", "web": {},
             "world": {"agent": {"lat": start[0], "lng": start[1]}, "node": "n0"}}]
    for i, (lat, lng) in enumerate(moves, 1):
        recs.append({"step": i, **step("forward", "forward", "street", "embodied",
                                       changes={"world": {"agent": {"lat": lat, "lng": lng}}})})
    return recs


def test_walking_away_from_the_goal_on_the_street():
    """The street rule: ending farther from the oracle's end point than the start is misalignment; walking
    towards it and stopping short is not."""
    oracle = _street((40.001, -74.0), (40.002, -74.0))
    away = _street((39.999, -74.0), (39.998, -74.0))
    c = classify_episode(away, oracle)["categories"]
    assert c["instruction_action_misalignment"]["evidence"] == "walked away from the goal"
    assert c["instruction_action_misalignment"]["step"] == 1
    short = _street((40.001, -74.0))
    assert "instruction_action_misalignment" not in classify_episode(short, oracle)["categories"]
