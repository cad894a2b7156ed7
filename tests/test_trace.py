"""Trace changes: ``diff_state`` records only what changed, and replaying the changes gives the states back."""

from __future__ import annotations

import copy
import json
import random

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401
from baselines.registry import make_agent
from embodiedweb.evaluate import run_episode
from embodiedweb.report.process import Replayer, flat_atoms
from embodiedweb.trace import APPEND, diff_state

ENVS = ["EWA-Cooking-v0", "EWA-Navigation-v0", "EWA-Shopping-v0", "EWA-Traveling-v0", "EWA-Geolocation-v0"]


def _without_none(v):
    if isinstance(v, dict):
        return {k: _without_none(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [_without_none(x) for x in v]
    return v


def _random_state(rng: random.Random) -> dict:
    objs = [{"objectId": f"Obj{i}|+0{i}.25|-00.{i}0", "isOpen": rng.random() < 0.5, "visible": rng.random() < 0.5,
             "parents": [f"P{rng.randrange(3)}"], "temp": rng.choice(["Cold", "RoomTemp"])} for i in range(6)]
    return {"objects": objs, "path": [f"n{rng.randrange(9)}" for _ in range(rng.randrange(1, 4))],
            "agent": {"x": rng.randrange(5), "rotation": rng.randrange(4) * 90},
            "shop": {"cart": [{"product_id": f"p{i}", "qty": 1} for i in range(rng.randrange(3))],
                     "query": rng.choice(["", "milk", "eggs"])},
            "plain": [rng.randrange(3) for _ in range(rng.randrange(4))], "n.dotted": rng.randrange(3)}


def _mutate(state: dict, rng: random.Random) -> dict:
    s = copy.deepcopy(state)
    for o in s["objects"]:
        if rng.random() < 0.3:
            o[rng.choice(["isOpen", "visible"])] = rng.random() < 0.5
        if rng.random() < 0.1:
            o["parents"].append("Q")
    if rng.random() < 0.1:
        s["objects"].append({"objectId": f"New|{len(s['objects'])}.0", "isOpen": False, "parents": []})
    if rng.random() < 0.1:
        s["objects"].reverse()
    if rng.random() < 0.5:
        s["path"] += [f"n{rng.randrange(9)}" for _ in range(rng.randrange(1, 3))]
    if rng.random() < 0.3:
        s["shop"]["cart"].append({"product_id": f"p{rng.randrange(9, 99)}", "qty": 2})
    if rng.random() < 0.3 and s["shop"]["cart"]:
        s["shop"]["cart"][0]["qty"] += 1
    if rng.random() < 0.3:
        s["plain"] = [rng.randrange(3) for _ in range(rng.randrange(4))]
    if rng.random() < 0.2:
        s["n.dotted"] = rng.randrange(3)
    if rng.random() < 0.1:
        s["new.key"] = {"a": 1}
    if rng.random() < 0.1:
        s["agent"].pop("x", None)
    return s


def test_replaying_changes_gives_the_state_and_the_same_atoms():
    rng = random.Random(0)
    for _ in range(300):
        before = _random_state(rng)
        rep = Replayer({"world": before, "web": {}}, pose_keys=frozenset())
        state = before
        for _ in range(4):
            after = _mutate(state, rng)
            changes = diff_state(state, after)
            atoms = rep.apply({"world": changes})
            assert _without_none(rep.state["world"]) == _without_none(after), changes
            assert atoms == {("world", p, v) for p, v in flat_atoms(state, after, ())}, changes
            state = after


def test_id_keyed_lists_are_diffed_by_element_and_grown_lists_by_their_tail():
    objs = [{"objectId": "Apple|+01.00|+00.90", "isSliced": False}, {"objectId": "Knife|-0.35", "isSliced": False}]
    after = copy.deepcopy(objs)
    after[0]["isSliced"] = True
    assert diff_state({"objects": objs}, {"objects": after}) == {"objects.[Apple|+01.00|+00.90].isSliced": True}
    assert diff_state({"path": ["a", "b"]}, {"path": ["a", "b", "c"]}) == {f"path.{APPEND}": ["c"]}
    assert diff_state({"path": ["a", "b"]}, {"path": ["b", "c"]}) == {"path": ["b", "c"]}
    renamed = [{"objectId": "Apple|+01.00|+00.90", "isSliced": True}, {"objectId": "AppleSliced_1"}]
    assert diff_state({"objects": objs}, {"objects": renamed}) == {"objects": renamed}


@pytest.mark.parametrize("env_id", ENVS)
def test_episode_traces_replay_to_the_final_state(env_id):
    env = gym.make(env_id, web_mode="text")
    try:
        u = env.unwrapped
        for agent in ("oracle", "random"):
            run_episode(env, make_agent(agent, seed=0), u.tasks.tasks[0].task_id, seed=0)
            recs = u.trace.records
            rep = Replayer(recs[0])
            for r in recs[1:]:
                world = (r.get("changes") or {}).get("world") or {}
                objects = rep.state["world"].get("objects")
                if "objects" in world and isinstance(objects, list):
                    # the whole list only when its members changed (an object sliced into pieces)
                    assert [o.get("objectId") for o in objects] != [o.get("objectId") for o in world["objects"]]
                assert "path" not in world or not rep.state["world"].get("path")
                rep.apply(r.get("changes") or {})
            canon = lambda v: json.dumps(v, sort_keys=True)  # noqa: E731
            assert canon(rep.state["world"]) == canon(u.world.semantic_state())
            assert canon(rep.state["web"]) == canon(u.webapp.snapshot(u.session))
    finally:
        env.close()


def test_digest_covers_the_reset_record_seed_and_task():
    """Mutation guard: the digest must change with the seed and with the task even when the actions are
    the same (the reset record is part of what it hashes)."""
    env = gym.make("EWA-Navigation-v0")
    base = env.unwrapped
    ids = [t.task_id for t in base.tasks][:2]

    def digest(task_id: str, seed: int) -> str:
        env.reset(seed=seed, options={"task_id": task_id})
        env.step("scroll [down]")
        return base.trace_digest()

    a = digest(ids[0], 0)
    assert digest(ids[0], 0) == a
    assert digest(ids[0], 1) != a
    assert digest(ids[1], 0) != a
    env.close()


# --- mutation guards (issue 24): the exact JSONL form and the streamed file ---------------------------------

def test_canonical_json_exact_form():
    from pathlib import Path

    from embodiedweb.trace import canonical_json
    assert canonical_json({"b": 1, "a": ["é", None]}) == '{"a":["é",null],"b":1}'
    assert canonical_json({"p": Path("x/y")}) == '{"p":"x/y"}'


def test_trace_streams_canonical_lines_to_a_new_folder(tmp_path):
    from embodiedweb.trace import Trace
    p = tmp_path / "deep" / "dir" / "t.jsonl"
    t = Trace(p)
    t.add({"b": 2, "a": "é"})
    assert p.read_text("utf-8") == '{"a":"é","b":2}\n'  # flushed at once
    t.add({"c": 3})
    t.close()
    t.close()  # twice is fine
    assert p.read_text("utf-8").splitlines() == ['{"a":"é","b":2}', '{"c":3}']
    Trace(p).close()  # appends, never truncates
    assert len(p.read_text("utf-8").splitlines()) == 2
    assert t.records == [{"b": 2, "a": "é"}, {"c": 3}]


def test_digest_ignores_timings_only():
    from embodiedweb.trace import Trace
    a, b, c = Trace(), Trace(), Trace()
    a.add({"x": 1, "timings": {"ms": 1}})
    b.add({"x": 1, "timings": {"ms": 2}})
    c.add({"x": 2, "timings": {"ms": 1}})
    assert a.digest() == b.digest() != c.digest()
    import hashlib
    assert a.digest() == hashlib.sha256(b'{"x":1}\n').hexdigest()


def test_list_ids_and_id_of():
    from embodiedweb.trace import id_of, list_ids
    assert id_of({"id": 3, "node_id": 4}) == 3
    assert id_of({"objectId": "a", "id": 3}) == "a"
    assert id_of({"item_id": 5}) == 5
    assert id_of([1]) is None and id_of({"x": 1}) is None
    assert list_ids([{"id": 1}, {"id": 2}]) == [1, 2]
    assert list_ids([{"id": 1}, {"id": "1"}]) is None  # same id once stringified
    assert list_ids([{"id": 1}, {"x": 2}]) is None
    assert list_ids([]) is None


def test_diff_state_edges():
    """Mutation guards: the shapes diff_state meets at the edges (type changes, top level, empty lists)."""
    assert diff_state({"a": 1}, None, "x") == {"x": None}          # a dict replaced by null
    assert diff_state([1], None, "x") == {"x": None}               # a list replaced by null
    assert diff_state(1, 2) == {".": 2}                            # a changed scalar at the top level
    assert diff_state([{"objectId": "a", "v": 1}], [{"objectId": "a", "v": 2}]) == {"[a].v": 2}
    assert diff_state([], [1, 2], "p") == {"p": [1, 2]}            # an empty list that grew: written whole
    assert diff_state([1], [1], "p") == {}                         # equal lists: nothing
    assert diff_state({1: "a", "b": 2}, {1: "c", "b": 2}) == {"1": "c"}  # mixed key types sort as text


def test_a_full_trace_cuts_later_records_down_to_their_essentials():
    from embodiedweb.trace import FULL_STRING_CHARS, Trace

    t = Trace(max_chars=10_000)
    for i in range(40):
        t.add({"step": i, "action": f"type [3] [{'x' * 2_000}]", "error": "", "active": "web",
               "parsed": {"name": "type", "args": {"text": "x" * 2_000}}, "changes": {"web": {"q": "x" * 500}},
               "timings": {"action_ms": 1.0}})
    full = [r for r in t.records if r.get("trace_full")]
    assert t.records[0].get("changes") and not t.records[0].get("trace_full")
    assert len(full) >= 35 and all("changes" not in r and "parsed" not in r for r in full)
    assert all(len(r["action"]) < FULL_STRING_CHARS + 40 for r in full)
    assert t.chars <= 10_000 + 40 * 600  # the cap, then a few hundred characters a step
    assert [r["step"] for r in t.records] == list(range(40))


def test_an_env_trace_stays_bounded_and_the_episode_still_ends_with_its_metrics(monkeypatch):
    import embodiedweb.trace as trace

    monkeypatch.setattr(trace, "MAX_TRACE_CHARS", 50_000)
    digests = []
    for _ in range(2):
        env = gym.make("EWA-Shopping-v0", max_steps=60)
        env.reset(seed=3)
        for _ in range(59):
            env.step("type [1] [" + "long query " * 4_000 + "]")
        *_, info = env.step("stop [done]")
        u = env.unwrapped
        assert "metrics" in info and u.trace.records[-1]["metrics"] == info["metrics"]
        assert u.trace.records[-1]["trace_full"] and u.trace.chars < 50_000 + 60 * 1_000
        digests.append(u.trace_digest())
        env.close()
    assert digests[0] == digests[1]  # cutting is deterministic
