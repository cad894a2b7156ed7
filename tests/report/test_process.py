"""Process metrics: state replay, skills, coverage, GUI/semantic steps and the bifurcation step."""

from __future__ import annotations

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401
from baselines.registry import make_agent
from embodiedweb.evaluate import run_episode
from embodiedweb.report.process import (
    OracleTraces,
    Replayer,
    analyze,
    bifurcation,
    episode_process,
    flat_atoms,
)

COOKING = "EWA-Cooking-v0"


@pytest.fixture(scope="module")
def env():
    e = gym.make(COOKING, web_mode="text")
    yield e
    e.close()


def trace_of(env, agent: str, task_id: str, seed: int = 0) -> list[dict]:
    run_episode(env, make_agent(agent, seed=0), task_id, seed=seed)
    return [dict(r) for r in env.unwrapped.trace.records]


def task_ids(env, n: int) -> list[str]:
    return [t.task_id for t in env.unwrapped.tasks.tasks[:n]]


def test_flat_atoms_ids_appends_and_pose():
    old = {"objects": [{"objectId": "A|1", "isSliced": False, "position": [0, 0, 0]}], "log": [1]}
    new = {"objects": [{"objectId": "A|1", "isSliced": True, "position": [1, 0, 0]}], "log": [1, 2]}
    atoms = flat_atoms(old, new, ())
    assert (("objects", ("id", "A|1"), "isSliced"), "true") in atoms
    assert (("log", "+"), "2") in atoms
    rep = Replayer({"world": {"agent": {"x": 0}, **old}, "web": {}})
    got = rep.apply({"world": {"agent.x": 1.0, "objects": new["objects"], "log": [1, 2]}})
    assert got == {("world", ("objects", ("id", "A|1"), "isSliced"), "true"), ("world", ("log", "+"), "2")}
    assert rep.state["world"]["agent"]["x"] == 1.0  # replayed, but pose is not a semantic atom


def test_oracle_skills_on_the_web(env):
    an = analyze(trace_of(env, "oracle", task_ids(env, 1)[0]))
    web = [s.skill for s in an.steps if s.domain == "web"]
    assert web[:6] == ["navigate", "search", "filter", "filter", "inspect", "inspect"]
    assert an.steps[-1].skill == "commit"
    kinds = {s.skill for s in an.steps}
    assert {"move", "pick", "put", "slice", "cook", "switch"} <= kinds


def test_oracle_against_itself(env):
    for tid in task_ids(env, 3):
        t = trace_of(env, "oracle", tid)
        p = episode_process(t, t)
        assert p["bifurcation"] is None and p["coverage"] == 1.0 and p["skills"] == p["oracle_skills"]
        assert p["gui_per_semantic"] is not None and p["gui_per_semantic"] >= 1.0


def test_oracle_cache_reproduces_the_oracle(env, tmp_path):
    tid = task_ids(env, 1)[0]
    cache = OracleTraces(tmp_path)
    o = cache.get(COOKING, tid, 7)
    again = OracleTraces(tmp_path).get(COOKING, tid, 7)  # from disk
    cache.close()
    assert o is not None and o == again
    assert episode_process(trace_of(env, "oracle", tid, seed=7), o)["bifurcation"] is None


def test_perturbed_and_random_bifurcate(env):
    covs = []
    for tid in task_ids(env, 4):
        o = trace_of(env, "oracle", tid)
        p = episode_process(trace_of(env, "perturbed", tid), o)
        assert p["bifurcation"] is not None and 1 <= p["bifurcation"] <= p["steps"]
        covs.append(p["coverage"])
        r = episode_process(trace_of(env, "random", tid), o)
        assert r["bifurcation"] is not None and r["coverage"] < 1.0
    assert min(covs) < 1.0  # the wrong-recipe perturbation misses the goal's pages


def _an(steps):
    reset = {"event": "reset", "step": 0, "web_url": "http://x/", "web": {"n": 0}, "world": {}}
    recs = [reset]
    for i, (url, n) in enumerate(steps, 1):
        recs.append({"step": i, "action": f"a{i}", "parsed": {"name": "goto", "domain": "web", "args": {}},
                     "active": "web", "error": "", "web_url": url, "changes": {"web": {"n": n}} if n else {}})
    return analyze(recs)


def test_bifurcation_may_skip_oracle_pages_but_not_state_changes():
    oracle = _an([("http://x/a", 0), ("http://x/b", 0), ("http://x/c", 1), ("http://x/c", 2)])
    assert bifurcation(_an([("http://x/b", 0), ("http://x/c", 1), ("http://x/c", 2)]), oracle) is None
    assert bifurcation(_an([("http://x/a", 0), ("http://x/c", 2)]), oracle) == 2  # skipped the n=1 change
    assert bifurcation(_an([("http://x/a", 0), ("http://x/z", 0)]), oracle) == 2  # a page the oracle never saw
    assert bifurcation(_an([("http://x/a", 0), ("http://x/a", 0)]), oracle) is None  # no event: skipped


def test_coverage_counts_only_pages_seen_before_the_first_commit():
    """Mutation guard: pages the agent opens after it committed (added to the cart) do not count."""
    from embodiedweb.report.process import analyze, coverage

    def rec(i, url, changes=None, name="click"):
        return {"step": i, "action": f"{name} [1]", "parsed": {"name": name, "domain": "web", "args": {}},
                "active": "web", "error": "", "web_url": url, "changes": changes or {}}

    reset = {"event": "reset", "step": 0, "active": "web", "web_url": "http://x/", "web": {"shop": {"cart": []}},
             "world": {}}
    cart = {"web": {"shop": {"cart": [{"product_id": "p1", "qty": 1}]}}}
    oracle = [reset, rec(1, "http://x/shop/a"), rec(2, "http://x/shop/b"), rec(3, "http://x/shop/b", cart)]
    late = [reset, rec(1, "http://x/shop/a"), rec(2, "http://x/shop/a", cart), rec(3, "http://x/shop/b")]
    full = [reset, rec(1, "http://x/shop/b"), rec(2, "http://x/shop/a"), rec(3, "http://x/shop/a", cart)]
    o = analyze(oracle)
    assert o.first_commit() == 3
    assert coverage(analyze(late), o) == (0.5, 2)
    assert coverage(analyze(full), o) == (1.0, 2)
