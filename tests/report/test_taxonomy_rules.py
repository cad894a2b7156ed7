"""The taxonomy rules one by one, on small hand-made traces: the exact category, step and evidence string
``ewa report`` prints for each failure, the rule's boundaries, and the shares table."""

from __future__ import annotations

import pytest

from embodiedweb.report.process import analyze
from embodiedweb.report.taxonomy import _distance, _kind, _position, classify_episode, misalignment, shares
from tests.report.test_taxonomy import EMB as EMB_KIND
from tests.report.test_taxonomy import (
    ORACLE,
    R1,
    SLICE_APPLE,
    SLICE_TOMATO,
    emb,
    step,
    stop,
    switch,
    trace,
    web,
)


def cats(t, oracle=ORACLE, **kw):
    return classify_episode(t, oracle, **kw)["categories"]


def found(t, category, oracle=ORACLE, **kw):
    c = cats(t, oracle, **kw).get(category)
    return None if c is None else (c["step"], c["evidence"])


WORLD_H = trace()[0]["world"]
WEB_ONLY = trace(web("http://x/recipes/"), stop())  # an oracle that never acts in the world
EMB_ONLY = trace(switch("embodied"), emb("MoveAhead"), stop("embodied"))  # an oracle that never acts on the web


# ------------------------------------------------------------------------------------------ stuck
def test_stuck_embodied_when_the_web_was_needed_but_never_used():
    t = trace(switch("embodied"), emb("MoveAhead"), emb("RotateLeft"), stop("embodied"))
    assert found(t, "stuck_embodied") == (4, "never completed an action in the web")
    # without an oracle the web is assumed needed; an oracle that never used the web does not need it
    assert found(t, "stuck_embodied", None) == (4, "never completed an action in the web")
    assert found(t, "stuck_embodied", EMB_ONLY) is None
    assert found(t, "stuck_embodied", needs_web=False) is None
    # a failed web action is not a completed one
    t = trace(web("http://x/recipes/", error="no element 1"), switch("embodied"), emb("MoveAhead"))
    assert found(t, "stuck_embodied") == (3, "never completed an action in the web")
    # nothing done in the world at all (only switches and failures there): not stuck in it
    t = trace(switch("embodied"), emb("MoveAhead", error="blocked"), stop("embodied"))
    assert found(t, "stuck_embodied") is None


def test_stuck_web_when_the_world_was_needed_but_never_used():
    t = trace(web("http://x/recipes/"), web(R1), stop())
    assert found(t, "stuck_web") == (3, "never completed an action in the embodied world")
    assert found(t, "stuck_web", WEB_ONLY) is None
    assert found(t, "stuck_web", None) == (3, "never completed an action in the embodied world")
    # a failed embodied action does not count as acting there
    t = trace(web("http://x/recipes/"), switch("embodied"), emb("MoveAhead", error="blocked"), switch("web"))
    assert found(t, "stuck_web") == (4, "never completed an action in the embodied world")
    t = trace(web("http://x/recipes/"), switch("embodied"), emb("MoveAhead"), switch("web"))
    assert found(t, "stuck_web") is None


def test_stuck_tail_starts_at_the_first_step_without_progress_and_skips_the_final_stop():
    slice_ = emb("SliceObject [Apple|1]", changes=SLICE_APPLE)
    t = trace(web("http://x/recipes/"), switch("embodied"), slice_, *[emb("MoveAhead")] * 4, stop("embodied"))
    assert found(t, "stuck_embodied", tail=4) == (4, "last 4 steps in the embodied domain without progress")
    assert found(t, "stuck_embodied", tail=5) is None  # the slice was progress: the run is 4 long
    # a slice that failed is no progress, even with changes recorded
    t = trace(web("http://x/recipes/"), switch("embodied"), emb("SliceObject [Apple|1]", error="too far",
                                                                 changes=SLICE_APPLE), *[emb("MoveAhead")] * 3)
    assert found(t, "stuck_embodied", tail=5) == (2, "last 5 steps in the embodied domain without progress")
    # a stop that is not the last step ends the run like any other step in the other domain
    t = trace(web("http://x/recipes/"), switch("embodied"), *[emb("MoveAhead")] * 3, stop("web"), emb("MoveAhead"))
    assert found(t, "stuck_embodied", tail=2) is None


def test_default_tail_is_ten_steps():
    t = trace(web("http://x/recipes/"), switch("embodied"), *[emb("MoveAhead")] * 9)
    assert found(t, "stuck_embodied") == (2, "last 10 steps in the embodied domain without progress")
    t = trace(web("http://x/recipes/"), switch("embodied"), *[emb("MoveAhead")] * 8)
    assert found(t, "stuck_embodied") is None


def test_stuck_web_tail_new_pages_are_progress():
    t = trace(switch("embodied"), emb("MoveAhead"), switch("web"), web("http://x/a"),
              *[web("http://x/a", "scroll [down]")] * 3, stop())
    # the first visit of /a is progress; the scrolls after it are not
    assert found(t, "stuck_web", tail=3) == (5, "last 3 steps in the web domain without progress")
    assert found(t, "stuck_web", tail=4) is None
    # a web state change is progress, unless the step failed
    t = trace(switch("embodied"), emb("MoveAhead"), switch("web"), web("http://x/a"),
              web("http://x/a", "click [3]", changes={"web": {"cart": [1]}}), web("http://x/a", "scroll [down]"))
    assert found(t, "stuck_web", tail=2) is None
    t = trace(switch("embodied"), emb("MoveAhead"), switch("web"),
              web("http://x/a", changes={"web": {"cart": [1]}}, error="out of stock"), web("http://x/a", "scroll [down]"))
    assert found(t, "stuck_web", tail=2) == (3, "last 3 steps in the web domain without progress")


# ------------------------------------------------------------------------------------------ switching
def test_switching_without_acting_evidence_and_what_counts_as_acting():
    t = trace(web("http://x/recipes/"), switch("embodied"), switch("web"))
    assert found(t, "switching_without_acting") == (3, "switched at steps 2 and 3 with no action between")
    # a failed action between the switches is no action
    t = trace(switch("embodied"), emb("MoveAhead", error="blocked"), switch("web"))
    assert found(t, "switching_without_acting") == (3, "switched at steps 1 and 3 with no action between")
    # a successful one is
    t = trace(switch("embodied"), emb("MoveAhead"), switch("web"), web("http://x/a"), switch("embodied"))
    assert found(t, "switching_without_acting") is None
    # a switch that failed is no switch
    t = trace(switch("embodied"), step("switch_environment", "switch_environment", "meta", "embodied",
                                       error="already in the embodied world"), emb("MoveAhead"))
    assert found(t, "switching_without_acting") is None
    # the rule reports the first pair only
    t = trace(switch("embodied"), emb("MoveAhead"), switch("web"), switch("embodied"), switch("web"))
    assert found(t, "switching_without_acting") == (4, "switched at steps 3 and 4 with no action between")


# ------------------------------------------------------------------------------------------ misalignment
def test_misalignment_on_another_detail_page_of_the_same_kind():
    t = trace(web("http://x/recipes/"), web("http://x/recipes/recipe/r002"), web("http://x/recipes/recipe/r003"))
    assert found(t, "instruction_action_misalignment") == (2, "opened /recipes/recipe/r002, not the goal's page")
    # the goal's own page, a page of a kind the oracle never opened, or a listing: not misaligned
    assert found(trace(web(R1), stop()), "instruction_action_misalignment") is None
    assert found(trace(web("http://x/product/p7")), "instruction_action_misalignment") is None
    assert found(trace(web("http://x/recipes/")), "instruction_action_misalignment") is None
    # a second visit of a wrong page is not a new finding: the step is the first arrival
    t = trace(web("http://x/recipes/recipe/r002"), web("http://x/recipes/"), web("http://x/recipes/recipe/r002"))
    assert found(t, "instruction_action_misalignment") == (1, "opened /recipes/recipe/r002, not the goal's page")


def test_misalignment_page_kind_masks_segments_with_digits_only():
    oracle = trace(web("http://x/recipes/recipe/r001"), web("http://x/recipes/recipe/r001/step2"), stop())
    # /recipes/recipe/r002/step2 has the kind /recipes/recipe/*/* of the oracle's step page
    t = trace(web("http://x/recipes/recipe/r001"), web("http://x/recipes/recipe/r002/step2"))
    assert found(t, "instruction_action_misalignment", oracle) == (2, "opened /recipes/recipe/r002/step2, not the goal's page")
    # a digit-free segment is kept: /recipe/tomato is not of the kind /recipes/recipe/*
    t = trace(web("http://x/recipes/recipe/tomato"))
    assert found(t, "instruction_action_misalignment", oracle) is None
    # a page the oracle only started on counts as visited by it
    o = [dict(r) for r in oracle]
    o[0] = {**o[0], "web_url": "http://x/recipes/recipe/r009"}
    t = [dict(r) for r in trace(web("http://x/recipes/recipe/r009"))]
    t[0] = {**t[0], "web_url": "http://x/"}
    assert found(t, "instruction_action_misalignment", o) is None


def test_misalignment_on_an_object_type_the_oracle_never_changed():
    t = trace(web(R1), switch("embodied", R1), emb("SliceObject [Tomato|1]", changes=SLICE_TOMATO, url=R1))
    assert found(t, "instruction_action_misalignment") == (3, "acted on Tomato, unrelated to the goal")
    # picking up (the held object) counts as acting on it
    t = trace(web(R1), switch("embodied", R1), emb("PickupObject [Tomato|1]", changes={"world": {"held": "Tomato|1"}},
                                                     url=R1))
    assert found(t, "instruction_action_misalignment") == (3, "acted on Tomato, unrelated to the goal")
    # putting it down again (held -> null) names no object
    t = trace(web(R1), switch("embodied", R1), emb("PickupObject [Apple|1]", changes={"world": {"held": "Apple|1"}},
                                                     url=R1), emb("PutObject [Sink]", changes={"world": {"held": None}}, url=R1))
    assert found(t, "instruction_action_misalignment") is None
    # a world change that names no object (a light, an appended log line) is no object type
    t = trace(web(R1), switch("embodied", R1), emb("ToggleObjectOn [LightSwitch]", changes={"world": {"lights": True}},
                                                     url=R1), emb("Say [hi]", changes={"world": {"log": ["hi"]}}, url=R1),
              emb("Say [ho]", changes={"world": {"log": ["hi", "ho"]}}, url=R1))
    assert found(t, "instruction_action_misalignment") is None
    # a held record naming the object, and types starting with X, are read whole
    o = [dict(r) for r in ORACLE]
    o[0] = {**o[0], "world": {**WORLD_H, "held": {"objectId": "Bowl|1"}}}
    o[4] = {**o[4], "changes": {"world": {"held": {"objectId": "Apple|1"}}}}
    t = [dict(r) for r in trace(web(R1), switch("embodied", R1), emb("PickupObject [Xbox|1]", url=R1,
                                                                      changes={"world": {"held": {"objectId": "Xbox|1"}}}))]
    t[0] = {**t[0], "world": {**WORLD_H, "held": {"objectId": "Bowl|1"}}}
    assert found(t, "instruction_action_misalignment", o) == (3, "acted on Xbox, unrelated to the goal")
    # the first unrelated type in step order, after related actions
    t = trace(web(R1), switch("embodied", R1), emb("SliceObject [Apple|1]", changes=SLICE_APPLE, url=R1),
              emb("SliceObject [Tomato|1]", changes=SLICE_TOMATO, url=R1),
              emb("PickupObject [Bread|1]", changes={"world": {"held": "Bread|1"}}, url=R1))
    assert found(t, "instruction_action_misalignment") == (4, "acted on Tomato, unrelated to the goal")
    # an oracle that changed no object cannot tell related from unrelated
    t = trace(web(R1), switch("embodied", R1), emb("SliceObject [Tomato|1]", changes=SLICE_TOMATO, url=R1))
    assert found(t, "instruction_action_misalignment", trace(web(R1), stop())) is None


def test_misalignment_street_rule_only_without_objects_and_with_both_traces():
    # in a kitchen (a world with an object list) walking away from the oracle's end point is no evidence
    t = trace(web(R1), switch("embodied", R1), emb("MoveAhead", changes={"world": {"agent": {"x": 2.0, "z": 0.0}}},
                                                     url=R1), stop("embodied", R1))
    assert found(t, "instruction_action_misalignment") is None
    # called with the analyses only (no traces, or the agent's alone) the street rule cannot apply
    oracle = _street((40.001, -74.0), (40.002, -74.0))
    away = _street((39.999, -74.0), (39.998, -74.0))
    assert misalignment(analyze(away), analyze(oracle)) is None
    assert misalignment(analyze(away), analyze(oracle), away) is None
    assert misalignment(analyze(away), analyze(oracle), away, oracle).evidence == "walked away from the goal"


def test_misalignment_reports_the_earliest_evidence():
    t = trace(web(R1), switch("embodied", R1), emb("SliceObject [Tomato|1]", changes=SLICE_TOMATO, url=R1),
              switch("web", R1), web("http://x/recipes/recipe/r002"))
    assert found(t, "instruction_action_misalignment") == (3, "acted on Tomato, unrelated to the goal")


def _street(*moves, start=(40.0, -74.0), key="lng", action="forward", error=""):
    recs = [{"event": "reset", "step": 0, "active": "embodied", "web_url": "http://x/", "web": {},
             "world": {"agent": {"lat": start[0], key: start[1]}, "node": "n0"}}]
    for i, (lat, lng) in enumerate(moves, 1):
        recs.append({"step": i, **step(action, action, "street", "embodied", error=error,
                                       changes={"world": {"agent": {"lat": lat, key: lng}}})})
    return recs


def test_walking_away_from_the_goal_compares_great_circle_distances():
    oracle = _street((40.001, -74.0), (40.002, -74.0))
    # the step is the first move, the evidence the same whichever way the coordinates are named
    away = _street((40.0, -74.001), (39.999, -74.0))
    assert found(away, "instruction_action_misalignment", oracle) == (1, "walked away from the goal")
    away = _street((39.999, -74.0), start=(40.0, -74.0), key="lon")
    assert found(away, "instruction_action_misalignment", _street((40.001, -74.0), key="lon")) == \
        (1, "walked away from the goal")
    # back where it started: not farther than at the start
    assert found(_street((39.999, -74.0), (40.0, -74.0)), "instruction_action_misalignment", oracle) is None
    # a failed move, or a move that is not one, does not count as walking away
    assert found(_street((39.999, -74.0), error="no such node"), "instruction_action_misalignment", oracle) is None
    assert found(_street((39.999, -74.0), action="look"), "instruction_action_misalignment", oracle) is None
    # on a longitude line near the pole a degree of longitude is short: great-circle, not degrees, decide
    polar_oracle = _street((80.0, -73.0), start=(80.0, -74.0))
    t = _street((80.0, -75.5), start=(80.0, -74.0))
    assert found(t, "instruction_action_misalignment", polar_oracle) == (1, "walked away from the goal")


def test_walking_away_in_a_world_with_x_z_positions():
    def walk(*pts):
        recs = [{"event": "reset", "step": 0, "active": "embodied", "web_url": "http://x/", "web": {},
                 "world": {"x": 0, "z": 0}}]
        for i, (x, z) in enumerate(pts, 1):
            recs.append({"step": i, **step("move", "move", "street", "embodied", changes={"world": {"x": x, "z": z}})})
        return recs
    oracle = walk((3, 4))
    assert found(walk((0, -1)), "instruction_action_misalignment", oracle) == (1, "walked away from the goal")
    assert found(walk((4, 3)), "instruction_action_misalignment", oracle) is None  # as far as the start: 5 m
    assert found(walk((3, 0)), "instruction_action_misalignment", oracle) is None
    # a step that moves along one axis keeps the other coordinate of the start
    one_axis = walk((3, 4))[:1] + [{"step": 1, **step("move", "move", "street", "embodied",
                                                      changes={"world": {"x": -1}})}]
    assert found(one_axis, "instruction_action_misalignment", oracle) == (1, "walked away from the goal")
    # float noise: ending 1e-9 farther is not walking away
    start = walk((0, 0))[:1]
    start[0] = {**start[0], "world": {"x": -1.0, "z": 0}}
    goal = start + [{"step": 1, **step("move", "move", "street", "embodied", changes={"world": {"x": 0.0}})}]
    noise = start + [{"step": 1, **step("move", "move", "street", "embodied", changes={"world": {"x": 1.0 + 1e-9}})}]
    assert found(noise, "instruction_action_misalignment", goal) is None


def test_position_and_distance():
    assert _position({"agent": {"lat": 1, "lng": 2.5}}) == (1.0, 2.5, True)
    assert _position({"agent": {"x": 1, "z": 2}, "lat": 5, "lng": 6}) == (1.0, 2.0, False)
    assert _position({"lat": 5.0, "lon": 6.0}) == (5.0, 6.0, True)
    assert _position({"agent": {"lat": "5", "lng": 6}}) is None
    assert _position({"agent": {"x": 1}}) is None
    assert _position({}) is None
    # kilometres on the earth's sphere (radius 6371 km) for lat/lng, plain euclidean for x/z
    assert _distance((0.0, 0.0, True), (1.0, 0.0, True)) == pytest.approx(111.195, abs=1e-3)
    assert _distance((0.0, 0.0, True), (0.0, 1.0, True)) == pytest.approx(111.195, abs=1e-3)
    assert _distance((60.0, 0.0, True), (60.0, 1.0, True)) == pytest.approx(55.597, abs=1e-3)
    assert _distance((0.0, 0.0, True), (0.0, 180.0, True)) == pytest.approx(6371 * 3.141592653589793, abs=1e-6)
    assert _distance((0.0, 10.0, True), (0.0, 11.0, True)) == pytest.approx(111.195, abs=1e-3)
    # antipodes whose haversine term rounds above 1: half the circumference, no math domain error
    assert _distance((-11.056008330198168, -90.24960879264873, True), (11.056008330198168, 89.75039120735127, True)) \
        == pytest.approx(6371 * 3.141592653589793, abs=1e-6)
    assert _distance((1.0, 2.0, False), (4.0, 6.0, False)) == 5.0


def test_page_kind_masks_segments_with_digits():
    assert _kind("/recipes/recipe/r001") == "/recipes/recipe/*"
    assert _kind("/shop/product/p7/reviews") == "/shop/product/*/reviews"
    assert _kind("/about") == "/about"


# ------------------------------------------------------------------------------------------ web loops
def test_web_page_loops_counts_the_start_page_and_query():
    t = trace(web("http://x/a"), web("http://x/"), web("http://x/a"), web("http://x/"))
    assert found(t, "web_page_loops") == (4, "arrived at / 3 times without a state change")
    # another query is another page; staying on a page is no new arrival
    t = trace(web("http://x/a?q=1"), web("http://x/a?q=2"), web("http://x/a?q=1"), web("http://x/a?q=1"),
              web("http://x/a?q=2"))
    assert found(t, "web_page_loops") is None
    t = trace(web("http://x/a?q=1"), web("http://x/b"), web("http://x/a?q=1"), web("http://x/b"), web("http://x/a?q=1"))
    assert found(t, "web_page_loops") == (5, "arrived at /a?q=1 3 times without a state change")


def _from(start, *steps):
    t = trace(*steps)
    t[0] = {k: v for k, v in t[0].items() if k != "web_url"}
    if start is not None:
        t[0]["web_url"] = start
    return t


def test_web_page_loops_start_page_other_than_the_root():
    # scrolling on the start page is no new arrival there
    t = _from("http://x/recipes/", web("http://x/recipes/", "scroll [down]"), web("http://x/a", "click [1]"),
              web("http://x/recipes/", "click [2]"))
    assert found(t, "web_page_loops") is None
    t = _from("http://x/recipes/", web("http://x/a", "click [1]"), web("http://x/recipes/", "click [2]"),
              web("http://x/a", "click [1]"), web("http://x/recipes/", "click [2]"))
    assert found(t, "web_page_loops") == (4, "arrived at /recipes/ 3 times without a state change")
    # a reset without a web page starts at /
    t = _from(None, web("http://x/", "scroll [down]"), web("http://x/a", "click [1]"), web("http://x/", "click [2]"),
              web("http://x/a", "click [1]"), web("http://x/", "click [2]"))
    assert found(t, "web_page_loops") == (5, "arrived at / 3 times without a state change")


def test_web_page_loops_state_change_restarts_the_count():
    # the change at step 2 clears the counts (the start page's too)
    t = trace(web("http://x/a"), web("http://x/b", changes={"web": {"cart": [1]}}), web("http://x/"),
              web("http://x/b"), web("http://x/"), web("http://x/b"))
    assert found(t, "web_page_loops") == (6, "arrived at /b 3 times without a state change")


# ------------------------------------------------------------------------------------------ repeats
def test_repeated_actions_evidence():
    t = trace(web("http://x/a", "scroll [down]"), web("http://x/a", "scroll [up]"), web("http://x/a", "scroll [down]"),
              web("http://x/a", "scroll [down]"), web("http://x/a", "scroll [down]"))
    assert found(t, "repeated_actions") == (5, "'scroll [down]' 3 times in a row")
    t = trace(web("http://x/a", "click [9]", error="no element 9"), web("http://x/a", "click [9]", error="no element 9"))
    assert found(t, "repeated_actions") == (2, "'click [9]' repeated after failing")
    # twice in a row with only one failure, or two different failing actions: not repeated
    t = trace(web("http://x/a", "click [9]", error="no element 9"), web("http://x/a", "click [9]"))
    assert found(t, "repeated_actions") is None
    t = trace(web("http://x/a", "click [9]"), web("http://x/a", "click [9]", error="no element 9"))
    assert found(t, "repeated_actions") is None
    t = trace(web("http://x/a", "click [8]", error="no element 8"), web("http://x/a", "click [9]", error="no element 9"))
    assert found(t, "repeated_actions") is None


def test_repeated_actions_do_not_wrap_around_the_trace():
    # the first step is not "after" the last one
    t = trace(web("http://x/a", "click [9]", error="no element 9"), web("http://x/a", "scroll [down]"),
              web("http://x/a", "click [9]", error="no element 9"))
    assert found(t, "repeated_actions") is None
    t = trace(web("http://x/a", "scroll [down]"), web("http://x/a", "scroll [down]"), web("http://x/a", "click [2]"),
              web("http://x/b", "scroll [down]"))
    assert found(t, "repeated_actions") is None


# ------------------------------------------------------------------------------------------ navigation
@pytest.mark.parametrize("error", [
    "Apple|1 is not visible", "Fridge|1 is NOT INTERACTABLE", "the object is too far", "Apple|1 is 2.4 m away",
    "no reachable position next to Sink|1", "Object ID appears to be invalid", "no object named 'Spoon'",
    "'Saucepan' is no object type or id of a kitchen",
    "unknown object Spoon", "invalid object id", "unknown node n99", "no such node n99", "n3 is not a neighbor",
    "n3 is not a neighbour", "n3 is not reachable"])
def test_failed_navigation_messages(error):
    t = trace(web(R1), switch("embodied", R1), emb("PickupObject [Apple|1]", error=error, url=R1))
    assert found(t, "failed_navigation_to_objects") == (3, error)


def test_failed_navigation_only_in_the_embodied_world_and_evidence_cut_at_160():
    t = trace(web(R1), switch("embodied", R1), emb("MoveAhead", error="blocked by a wall", url=R1),
              emb("PickupObject [Apple|1]", error="Apple|1 is not visible " + "x" * 200, url=R1))
    assert found(t, "failed_navigation_to_objects") == (4, ("Apple|1 is not visible " + "x" * 200)[:160])
    assert len(found(t, "failed_navigation_to_objects")[1]) == 160
    # "m away" only as words
    assert found(trace(switch("embodied"), emb("PickupObject [Apple|1]", error="farm awayday")),
                 "failed_navigation_to_objects") is None
    # web errors, meta errors, and world actions attempted while the web is active do not count
    assert found(trace(web("http://x/a", error="element not visible")), "failed_navigation_to_objects") is None
    assert found(trace(switch("embodied"), step("click [5]", "click", "web", "embodied", error="element 5 not visible")),
                 "failed_navigation_to_objects") is None
    assert found(trace(step("stop", "stop", "meta", "embodied", error="not visible")),
                 "failed_navigation_to_objects") is None
    assert found(trace(step("PickupObject [Apple|1]", "PickupObject", EMB_KIND, "web", error="not visible")),
                 "failed_navigation_to_objects") is None
    # an unparsed action (no domain) in the world does
    assert found(trace(step("pick the apple", None, None, "embodied", error="unknown object apple")),
                 "failed_navigation_to_objects") == (1, "unknown object apple")


# ------------------------------------------------------------------------------------------ episode
def test_primary_tie_goes_to_the_earlier_category():
    # a failing pickup retried, the object now out of view: repeated_actions and failed navigation both at 3
    t = trace(switch("embodied"), emb("PickupObject [Apple|1]", error="hands full"),
              emb("PickupObject [Apple|1]", error="not visible"))
    c = classify_episode(t, ORACLE)
    assert c["categories"]["repeated_actions"]["step"] == 3
    assert c["categories"]["failed_navigation_to_objects"]["step"] == 3
    assert c["primary"] == "repeated_actions"
    # the second switch lands on the start page a third time: switching and the loop both at 4
    t = trace(web("http://x/a", "click [1]"), web("http://x/", "click [2]"), switch("embodied", "http://x/a"),
              switch("web", "http://x/"))
    c = classify_episode(t, ORACLE, needs_embodied=False)
    assert c["categories"] == {
        "switching_without_acting": {"step": 4, "evidence": "switched at steps 3 and 4 with no action between"},
        "web_page_loops": {"step": 4, "evidence": "arrived at / 3 times without a state change"}}
    assert c["primary"] == "switching_without_acting"


# ------------------------------------------------------------------------------------------ shares
def _r(*categories, primary):
    return {"categories": {c: {"step": 1, "evidence": ""} for c in categories}, "primary": primary}


def test_shares_exact_table():
    res = [_r("stuck_web", "web_page_loops", primary="stuck_web"), _r("web_page_loops", primary="web_page_loops"),
           _r(primary="other")]
    s = shares(res)
    assert s["failures"] == 3
    assert s["any"] == {"stuck_embodied": 0.0, "stuck_web": 0.3333, "switching_without_acting": 0.0,
                        "instruction_action_misalignment": 0.0, "web_page_loops": 0.6667, "repeated_actions": 0.0,
                        "failed_navigation_to_objects": 0.0}
    # 1/3 each: the 0.1 % left over goes to the first key in alphabetical order
    assert s["primary"] == {"stuck_embodied": 0.0, "stuck_web": 0.333, "switching_without_acting": 0.0,
                            "instruction_action_misalignment": 0.0, "web_page_loops": 0.333, "repeated_actions": 0.0,
                            "failed_navigation_to_objects": 0.0, "other": 0.334}
    assert s["primary_counts"] == {"stuck_embodied": 0, "stuck_web": 1, "switching_without_acting": 0,
                                   "instruction_action_misalignment": 0, "web_page_loops": 1, "repeated_actions": 0,
                                   "failed_navigation_to_objects": 0, "other": 1}
    assert list(s) == ["failures", "any", "primary", "primary_counts"]


def test_shares_largest_remainder_and_no_failures():
    res = [_r(primary="stuck_web")] + [_r(primary="repeated_actions")] * 2 + [_r(primary="other")] * 4
    p = shares(res)["primary"]
    # 142.857, 285.714, 571.429 per mille: the two largest remainders get the two units left over
    assert (p["stuck_web"], p["repeated_actions"], p["other"]) == (0.143, 0.286, 0.571)
    assert sum(v * 1000 for v in p.values()) == pytest.approx(1000)
    res = [_r(primary="stuck_web")] * 2 + [_r(primary="other")] * 4
    p = shares(res)["primary"]  # 333.33 + 666.67: the larger remainder (other) gets the unit
    assert (p["stuck_web"], p["other"]) == (0.333, 0.667)
    s = shares([])
    assert s["failures"] == 0
    assert set(s["any"].values()) == {0.0} and len(s["any"]) == 7
    assert set(s["primary"].values()) == {0.0} and len(s["primary"]) == 8
    assert set(s["primary_counts"].values()) == {0}
