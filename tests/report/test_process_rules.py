"""Process metrics on small hand-made traces (no rollouts): URL helpers, state replay, the skill rules,
events and the bifurcation step, coverage, aggregation and the oracle-trace cache (mutation guards, issue 24)."""

from __future__ import annotations

import json

import pytest

from embodiedweb.report import process as P
from embodiedweb.report.process import (
    OracleTraces,
    Replayer,
    aggregate,
    analyze,
    bifurcation,
    classify,
    coverage,
    episode_process,
    flat_atoms,
    gui_per_semantic,
    load_trace,
)

RESET = {"event": "reset", "step": 0, "web_url": "http://x/", "web": {"shop": {"cart": []}, "n": 0},
         "world": {"objects": [{"objectId": "Egg|1", "isCooked": False}], "agent": {"x": 0}}}


def rec(i, url="http://x/", name="click", domain="web", args=None, changes=None, error="", parsed=True):
    return {"step": i, "action": f"{name} ...", "active": "web" if domain == "web" else "kitchen",
            "parsed": {"name": name, "domain": domain, "args": args or {}} if parsed else None,
            "error": error, "web_url": url, "changes": changes or {}}


def skills(*recs, reset=RESET):
    return [s.skill for s in analyze([reset, *recs]).steps]


# ------------------------------------------------------------------ helpers
def test_url_helpers():
    assert P.url_path("http://x/a/b?q=1") == "/a/b" and P.url_path("") == "/" and P.url_path("http://x") == "/"
    assert P.url_key("http://x/a?q=1&p=2") == "/a?q=1&p=2" and P.url_key("http://x") == "/"
    assert P.url_key("http://x/a") == "/a"
    assert P._params("http://x/?q=egg&cat=&page=2") == {"q": "egg", "page": "2"}


def test_load_trace_skips_blank_and_broken_lines(tmp_path):
    f = tmp_path / "t.trace.jsonl"
    f.write_text('{"event": "reset"}\n\n  \nnot json\n{"step": 1}\n', "utf-8")
    assert load_trace(f) == [{"event": "reset"}, {"step": 1}]


def test_a_trace_must_start_with_its_reset_record():
    with pytest.raises(ValueError, match="starts with its reset record"):
        analyze([rec(1)])
    with pytest.raises(ValueError, match="starts with its reset record"):
        analyze([])


# ------------------------------------------------------------------ state replay
def test_flat_atoms_rules():
    assert flat_atoms({"a": 1, "b": 2}, {"a": 1, "b": 3}, ("r",)) == [(("r", "b"), "3")]
    assert flat_atoms({"a": 1}, {"a": 1, "c": {"d": True}}, ()) == [(("c",), '{"d":true}')]
    assert flat_atoms({"a": 1}, {}, ()) == [(("a",), "null")]
    assert flat_atoms([1, 2], [1, 2, 3, 4], ("l",)) == [(("l", "+"), "3"), (("l", "+"), "4")]
    assert flat_atoms([1, 2], [2, 1], ("l",)) == [(("l",), "[2,1]")]  # not an append: the whole list
    assert flat_atoms([], [{"id": 5, "v": 1}], ("l",)) == [(("l", ("id", 5)), '{"id":5,"v":1}')]
    assert flat_atoms([{"id": 1, "v": 1}, {"id": 2, "v": 1}], [{"id": 2, "v": 1}], ()) == [((("id", 1),), "null")]
    assert flat_atoms(3, 3, ()) == [] and flat_atoms([], [], ()) == []


def test_replayer_paths_appends_and_new_keys():
    rep = Replayer({"web": {"shop": {"cart": [{"product_id": "p1", "qty": 1}]}, "a.b": {"c": 1}},
                    "world": {"objects": [{"objectId": "Egg|1", "isCooked": False}]}})
    got = rep.apply({"web": {"shop.cart.[p1].qty": 2, "a.b.c": 5, "shop.new": "v"},
                     "world": {"objects.[Egg|1].isCooked": True}})
    assert got == {("web", ("shop", "cart", ("id", "p1"), "qty"), "2"), ("web", ("a.b", "c"), "5"),
                   ("web", ("shop", "new"), '"v"'), ("world", ("objects", ("id", "Egg|1"), "isCooked"), "true")}
    assert rep.state["web"]["shop"]["cart"] == [{"product_id": "p1", "qty": 2}] and rep.state["web"]["a.b"] == {"c": 5}
    got = rep.apply({"web": {"shop.cart.[+]": [{"product_id": "p2", "qty": 1}]}})
    assert got == {("web", ("shop", "cart", ("id", "p2")), '{"product_id":"p2","qty":1}')}  # matched by id
    assert [x["product_id"] for x in rep.state["web"]["shop"]["cart"]] == ["p1", "p2"]
    assert rep.apply({"web": {"shop.cart.[p2].qty": 1}}) == frozenset()  # unchanged value: no atom
    rep.state["web"]["log"] = ["a"]
    assert rep.apply({"web": {"log.[+]": ["b", "c"]}}) == {("web", ("log", "+"), '"b"'), ("web", ("log", "+"), '"c"')}
    assert rep.state["web"]["log"] == ["a", "b", "c"]
    got = rep.apply({"web": {"": {"fresh": 1}}})  # the whole state replaced
    assert ("web", ("fresh",), "1") in got and rep.state["web"] == {"fresh": 1}
    assert rep.apply({}) == frozenset() and rep.apply(None) == frozenset()


def test_replayer_drops_pose_atoms_only():
    rep = Replayer({"world": {"agent": {"x": 0, "held": None}}, "web": {}})
    got = rep.apply({"world": {"agent": {"x": 1, "held": "Egg|1"}}})
    assert got == frozenset()  # everything under "agent" is pose
    rep = Replayer({"world": {"o": {"position": [0], "isOpen": False}}, "web": {}}, pose_keys=frozenset({"isOpen"}))
    assert rep.apply({"world": {"o": {"position": [1], "isOpen": True}}}) == {("world", ("o", "position"), "[1]")}


# ------------------------------------------------------------------ skills
def test_web_skills():
    assert skills(rec(1, "http://x/shop/product/7")) == ["inspect"]
    assert skills(rec(1, "http://x/shop/")) == ["navigate"]
    assert skills(rec(1, "http://x/shop/", name="scroll")) == ["other_web"]  # changed path, not a nav action
    assert skills(rec(1, name="hover")) == ["other_web"]
    assert skills(rec(1, "http://x/?q=egg")) == ["search"]
    assert skills(rec(1, "http://x/?q=")) == ["other_web"]  # an empty search term is no search
    assert skills(rec(1, "http://x/s?query=egg")) == ["search"]
    assert skills(rec(1, name="type", args={"enter": True})) == ["search"]
    assert skills(rec(1, name="type", args={"enter": True}, error="no such field")) == ["other_web"]
    assert skills(rec(1, name="type", args={"enter": False})) == ["other_web"]
    assert skills(rec(1, "http://x/?cat=veg")) == ["filter"]
    assert skills(rec(1, "http://x/?page=2")) == ["other_web"]  # paging is not filtering
    assert skills(rec(1, "http://x/list/?cat=veg")) == ["filter"]  # a new page with a filter
    assert skills(rec(1, "http://x/?q=egg"), rec(2, "http://x/list/?q=egg")) == ["search", "navigate"]
    assert skills(rec(1, "http://x/?cat=veg"), rec(2, "http://x/")) == ["filter", "filter"]  # filter removed
    cart = {"web": {"shop.cart.[+]": [{"product_id": "p1", "qty": 1}]}}
    assert skills(rec(1, changes=cart)) == ["commit"]
    assert skills(rec(1, changes={"web": {"n": 3}})) == ["other_web"]
    assert skills(rec(1, name="stop", domain="meta")) == ["commit"]
    assert skills(rec(1, name="switch_environment", domain="meta")) == ["switch"]
    assert skills(rec(1, parsed=False)) == ["invalid"]


def test_effectless_clicks_and_typing_before_a_filter_belong_to_it():
    steps = skills(rec(1, name="hover"), rec(2), rec(3, name="type"), rec(4, "http://x/?cat=veg"))
    assert steps == ["other_web", "filter", "filter", "filter"]
    assert skills(rec(1), rec(2, "http://x/?cat=veg")) == ["filter", "filter"]  # the very first step too
    # a click that moved the page is not part of the filter
    assert skills(rec(1, "http://x/a"), rec(2, "http://x/a?cat=veg")) == ["navigate", "filter"]
    assert skills(rec(1, domain="meta", name="click"), rec(2, "http://x/?cat=veg"))[0] == "other_embodied"


def test_embodied_skills():
    k = {"domain": "kitchen"}
    assert skills(rec(1, name="MoveAhead", **k), rec(2, name="Teleport", **k), rec(3, name="PickupObject", **k),
                  rec(4, name="PutObject", **k), rec(5, name="SliceObject", **k), rec(6, name="OpenObject", **k),
                  rec(7, name="CloseObject", **k), rec(8, name="ToggleObjectOff", args={"obj": "StoveKnob|1"}, **k),
                  rec(9, name="move", domain="street")) == \
        ["move", "move", "pick", "put", "slice", "open", "open", "other_embodied", "move"]
    assert skills(rec(1, name="ToggleObjectOn", args={"obj": "StoveKnob|+0.5|+0.8"}, **k),
                  rec(2, name="ToggleObjectOn", args={"obj": "Microwave"}, **k),
                  rec(3, name="ToggleObjectOn", args={"obj": "Faucet|1"}, **k),
                  rec(4, name="ToggleObjectOn", args={}, **k)) == ["cook", "cook", "other_embodied", "other_embodied"]


# ------------------------------------------------------------------ events, bifurcation, coverage
def test_events_and_step_fields():
    an = analyze([RESET, rec(1, "http://x/a", changes={"web": {"n": 1}}), rec(2, "http://x/a"),
                  rec(3, "http://x/", name="stop", domain="meta"),
                  {"step": 4, "action": "stop", "parsed": {"name": "stop", "domain": "meta"}, "error": "refused"}])
    ev = an.events()
    assert ev == [(1, ("nav", "/a")), (1, ("state", frozenset({("web", ("n",), "1")}))), (3, ("stop",))]
    s = an.steps[3]
    assert s.error == "refused" and not s.ok and s.url == "http://x/" and s.action == "stop" and s.args == {}
    assert an.steps[0].ok and an.steps[0].changed and not an.steps[1].changed and an.steps[0].active == "web"
    assert an.steps[0].web_atoms == [("web", ("n",), "1")] and an.steps[0].world_atoms == []
    assert an.start_path == "/" and an.first_commit() == 3 and an.paths_before(3) == {"/a"}
    assert an.paths_before(None) == {"/a"}
    assert an.skill_counts()["commit"] == 2


def test_step_numbers_default_to_their_position():
    r = rec(1)
    del r["step"]
    an = analyze([RESET, r, r])
    assert [s.step for s in an.steps] == [1, 2]


def test_bifurcation_on_state_and_stop_events():
    state = {"world": {"objects.[Egg|1].isCooked": True}}
    oracle = analyze([RESET, rec(1, "http://x/a"), rec(2, "http://x/a", "PickupObject", "kitchen", changes=state),
                      rec(3, "http://x/a", "stop", "meta")])
    agent = analyze([RESET, rec(1, "http://x/a"), rec(2, "http://x/a", "stop", "meta")])
    assert bifurcation(agent, oracle) == 2  # stopped before the state change
    assert bifurcation(oracle, oracle) is None
    longer = analyze([RESET, rec(1, "http://x/a"), rec(2, "http://x/a", "PickupObject", "kitchen", changes=state),
                      rec(3, "http://x/a", "stop", "meta"), rec(4, "http://x/b")])
    assert bifurcation(longer, oracle) == 4  # an event after the oracle's last one
    assert bifurcation(analyze([RESET]), oracle) is None


def test_coverage_and_gui_per_semantic():
    oracle = analyze([RESET, rec(1, "http://x/a"), rec(2, "http://x/b"), rec(3, "http://x/c"),
                      rec(4, "http://x/c", "stop", "meta")])
    agent = analyze([RESET, rec(1, "http://x/a"), rec(2, "http://x/", changes={"web": {"n": 1}})])
    assert coverage(agent, oracle) == (0.3333, 3)  # never committed: the whole episode counts
    assert coverage(agent, analyze([RESET, rec(1)])) == (1.0, 0)
    assert gui_per_semantic(agent) == 2.0 and gui_per_semantic(oracle) is None
    three = analyze([RESET, rec(1, changes={"web": {"n": 1}}), rec(2), rec(3, changes={"web": {"n": 2}})])
    assert gui_per_semantic(three) == 1.5


def test_episode_process_and_aggregate():
    o = [RESET, rec(1, "http://x/a"), rec(2, "http://x/a", changes={"web": {"n": 1}}), rec(3, "http://x/a", "stop",
                                                                                          "meta")]
    a = [RESET, rec(1, "http://x/b"), rec(2, "http://x/b", changes={"web": {"n": 1}}), rec(3, "http://x/b", "stop",
                                                                                          "meta")]
    p = episode_process(a, o)
    assert p == {"steps": 3, "semantic_steps": 1, "gui_per_semantic": 3.0,
                 "skills": {"navigate": 1, "other_web": 1, "commit": 1}, "first_commit": 3,
                 "oracle_skills": {"navigate": 1, "other_web": 1, "commit": 1}, "oracle_steps": 3,
                 "coverage": 0.0, "required": 1, "bifurcation": 1, "has_oracle": True}
    q = episode_process(a, None)
    assert q["has_oracle"] is False and q["coverage"] is None and q["bifurcation"] is None
    assert q["oracle_skills"] is None and q["steps"] == 3
    same = episode_process(o, o)
    agg = aggregate([p, same, q])
    assert agg["episodes"] == 3 and agg["with_oracle"] == 2
    assert agg["coverage"] == 0.5 and agg["gui_per_semantic"] == 3.0
    assert agg["bifurcation_rate"] == 0.5 and agg["bifurcation_step"] == 1.0
    assert agg["skills"] == {"navigate": 3, "commit": 3, "other_web": 3}
    assert agg["oracle_skills"] == {"navigate": 2, "commit": 2, "other_web": 2}
    assert agg["skill_ratio"] == {"navigate": 1.5, "commit": 1.5, "other_web": 1.5}
    none = aggregate([q])
    assert none["with_oracle"] == 0 and none["coverage"] is None and none["bifurcation_rate"] is None
    assert none["bifurcation_step"] is None and none["skill_ratio"]["commit"] is None
    steps = [dict(p, bifurcation=b) for b in (1, 2, 4)]
    assert aggregate(steps)["bifurcation_step"] == 2.33 and aggregate(steps)["bifurcation_rate"] == 1.0
    assert aggregate([])["gui_per_semantic"] is None


# ------------------------------------------------------------------ files and the oracle cache
def test_steps_and_trace_files(tmp_path):
    src = tmp_path / "out.jsonl"
    d = tmp_path / "out.steps" / "EWA-X-v0" / "oracle"
    d.mkdir(parents=True)
    (d / "t1.jsonl").write_text("{}\n")
    (d / "t1.trace.jsonl").write_text("{}\n")
    r = {"_source": str(src), "env_id": "EWA-X-v0", "agent": "oracle", "task_id": "t1"}
    assert P.steps_dir(src) == tmp_path / "out.steps"
    assert P.steps_file(r) == d / "t1.jsonl" and P.trace_file(r) == d / "t1.trace.jsonl"
    assert P.steps_file(dict(r, task_id="t2")) is None and P.trace_file(dict(r, task_id="t2")) is None
    assert P.steps_file({"env_id": "E"}) is None and P.trace_file({"env_id": "E"}) is None


ORACLE = ({"event": "reset"}, {"step": 1, "x": [1]})


class _Stub(OracleTraces):
    """The oracle cache with a stand-in for the rollout (``recs`` None: no oracle for the domain)."""

    def __init__(self, cache_dir=None, recs=ORACLE):
        super().__init__(cache_dir)
        self.calls: list[tuple] = []
        self.recs = recs

    def _run(self, env_id, task_id, seed):
        self.calls.append((env_id, task_id, seed))
        return None if self.recs is None else [dict(r) for r in self.recs]


def test_oracle_traces_cache_on_disk_and_in_memory(tmp_path):
    o = _Stub(tmp_path)
    recs = o.get("EWA-X-v0", "t1", None)
    assert recs == [{"event": "reset"}, {"step": 1, "x": [1]}] and o.calls == [("EWA-X-v0", "t1", 0)]
    assert o.get("EWA-X-v0", "t1", 0) is recs and len(o.calls) == 1  # memory: seed None is seed 0
    f = tmp_path / "EWA-X-v0" / "t1.seed0.trace.jsonl"
    assert [json.loads(x) for x in f.read_text().splitlines()] == recs
    again = _Stub(tmp_path)
    assert again.get("EWA-X-v0", "t1", 0) == recs and again.calls == []  # read back from disk
    assert again.get("EWA-X-v0", "t1", 3) == recs and again.calls == [("EWA-X-v0", "t1", 3)]
    assert (tmp_path / "EWA-X-v0" / "t1.seed3.trace.jsonl").exists()


def test_oracle_traces_without_cache_dir_or_oracle(tmp_path):
    o = _Stub()
    assert o.cache_dir is None and o.get("E", "t", 1) is not None and o.get("E", "t", 1) is not None
    assert o.calls == [("E", "t", 1)]
    none = _Stub(tmp_path, recs=None)
    assert none.get("E", "t", 0) is None and none.get("E", "t", 0) is None and len(none.calls) == 1
    assert not (tmp_path / "E").exists()  # nothing cached on disk when there is no oracle
    assert classify([]) is None
