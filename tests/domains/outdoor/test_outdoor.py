"""EWA-Navigation/Shopping/Traveling-v0: suites, oracle on every task, negative controls, checkers."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401
from baselines.perturbed import PerturbedOracle
from baselines.random_agent import RandomAgent
from embodiedweb.evaluate import run_episode
from embodiedweb.tasks import TaskError, load_tasks

SIZES = {"EWA-Navigation-v0": 144, "EWA-Shopping-v0": 216, "EWA-Traveling-v0": 110}


@pytest.fixture(scope="module", params=list(SIZES))
def env(request):
    e = gym.make(request.param)
    yield e
    e.close()


def test_suite_sizes(env):
    assert len(env.unwrapped.tasks) >= SIZES[env.unwrapped.env_id]
    assert {t.split for t in env.unwrapped.tasks} == {"train", "test"}


def test_oracle_solves_every_task(env):
    base = env.unwrapped
    bad = []
    for t in base.tasks:
        rec = run_episode(env, base.domain.oracle(t), t.task_id, seed=2)
        if not rec["metrics"]["overall"] or rec.get("agent_errors"):
            bad.append((t.task_id, rec["metrics"], rec.get("agent_errors")))
    assert not bad, bad[:3]


def test_negative_controls(env):
    tasks = env.unwrapped.tasks.tasks[::4]
    pert = [run_episode(env, PerturbedOracle(seed=5), t.task_id, seed=0)["metrics"] for t in tasks]
    rand = [run_episode(env, RandomAgent(seed=5), t.task_id, seed=0)["metrics"] for t in tasks]
    assert sum(m["overall"] for m in pert) / len(pert) <= 0.05
    assert sum(m["overall"] for m in rand) / len(rand) <= 0.02
    assert sum(m["completion"] for m in pert) / len(pert) > 0.4


def _metrics(env_id, plan):
    e = gym.make(env_id)
    t = e.unwrapped.tasks.tasks[0]
    oracle = e.unwrapped.domain.oracle(t)
    oracle.plan = lambda: plan(oracle, t)
    m = run_episode(e, oracle, t.task_id, seed=0)["metrics"]
    e.close()
    return m


def test_navigation_checker_needs_directions_and_the_exact_node():
    def walk_only(o, t):
        yield from o.walk_to(t.goal["dest_node"])
        yield "stop"

    def short(o, t):
        yield from o.ask_directions(t.goal["dest_name"])
        yield from o.walk_to(t.goal["dest_node"], drop_last=True)
        yield "stop"

    def no_stop(o, t):
        yield from o.ask_directions(t.goal["dest_name"])
        yield from o.walk_to(t.goal["dest_node"])
        while True:
            yield "switch_environment"

    m = _metrics("EWA-Navigation-v0", walk_only)
    assert m["embodied"] and not m["web"] and not m["overall"]
    m = _metrics("EWA-Navigation-v0", short)
    assert m["web"] and not m["embodied"] and 0 < m["completion"] < 1
    m = _metrics("EWA-Navigation-v0", no_stop)  # truncated at the destination: no stop, no success
    assert not m["embodied"]


def test_shopping_checker_needs_pickup_at_the_rule_store():
    from web_sites.shop import catalog

    e = gym.make("EWA-Shopping-v0")
    t = next(t for t in e.unwrapped.tasks if t.meta["rule"] == "nearest")
    other = next(s for s in catalog.stores_selling(t.goal["product_id"]) if s != t.goal["store_id"])
    oracle = e.unwrapped.domain.oracle(t)
    real_plan = oracle.plan

    def wrong_store_right_walk():
        t.goal["store_id"], keep = other, t.goal["store_id"]
        gen = real_plan()
        first = next(gen)
        t.goal["store_id"] = keep
        yield first
        yield from gen

    oracle.plan = wrong_store_right_walk
    m = run_episode(e, oracle, t.task_id, seed=0)["metrics"]
    assert not m["web"] and m["embodied"] and not m["overall"]
    e.close()


def test_traveling_checker_needs_the_article_the_landmark_and_the_right_answer():
    def run(read, walk, answer):
        def plan(o, t):
            if read:
                yield "switch_environment"
                yield f"goto [/wiki/article/{t.goal['slug']}]"
            if walk:
                yield from o.walk_to(t.goal["place_node"])
            yield f"stop [{answer(t)}]"
        return _metrics("EWA-Traveling-v0", plan)

    def right(t):
        return t.goal["answer"]

    m = run(True, True, right)
    assert m["overall"] and m["web"] and m["embodied"] and m["completion"] == 1
    m = run(False, True, right)  # answered from memory (even rightly): no web, no overall
    assert m["answer_right"] and not m["article_viewed"] and not m["web"] and not m["overall"]
    assert abs(m["completion"] - 2 / 3) < 1e-9
    m = run(True, False, right)  # read but never walked
    assert m["web"] and not m["embodied"] and not m["overall"]
    m = run(True, True, lambda t: "I do not know")
    assert m["embodied"] and not m["web"] and not m["overall"] and m["answer_error"]


def test_bad_task_files_name_task_and_field(tmp_path):
    from embodiedweb.domains.outdoor import NavigationDomain, ShoppingDomain

    nav = json.loads(open(embodiedweb.paths.data_dir() / "navigation" / "tasks.jsonl").readline())
    for patch, field in [({"embodied": {"start": "n999999"}}, "embodied.start"),
                         ({"goal": {**nav["goal"], "dest_node": "x"}}, "goal.dest_node")]:
        p = tmp_path / "t.jsonl"
        p.write_text(json.dumps({**nav, **patch}) + "\n")
        with pytest.raises(TaskError, match=field.replace(".", r"\.")):
            load_tasks(p, NavigationDomain().validate_task)
    shop = json.loads(open(embodiedweb.paths.data_dir() / "shopping" / "tasks.jsonl").readline())
    p = tmp_path / "s.jsonl"
    p.write_text(json.dumps({**shop, "goal": {**shop["goal"], "product_id": "p9999"}}) + "\n")
    with pytest.raises(TaskError, match=r"goal\.product_id"):
        load_tasks(p, ShoppingDomain().validate_task)


def test_heuristic_reads_only_observations_and_beats_random(env):
    from baselines.heuristic import HeuristicAgent

    tasks = env.unwrapped.tasks.tasks[::12]
    ms = [run_episode(env, HeuristicAgent(), t.task_id, seed=0)["metrics"] for t in tasks]
    assert sum(m["overall"] for m in ms) / len(ms) >= 0.3
    assert sum(m["completion"] for m in ms) / len(ms) >= 0.5


def test_navigation_instruction_names_the_corner_as_the_map_and_the_views_do():
    """A destination whose address is a corner was named by its address ("5th Ave & E 53rd St") while the map's
    place page, the wiki's cross streets and the view at its node say "5th Ave & W 53rd St": the instruction
    names that corner as they do (``city.intersection_name``); street addresses, and the address of a place whose
    node is no corner, stay as they are (what the map's directions resolve, ``tests/web_sites/map``)."""
    import re

    from embodiedweb.paths import data_dir
    from embodiedweb.worlds.street import StreetWorld, load_city
    from embodiedweb.worlds.street.city import read_places

    city = load_city()
    places = {p["place_id"]: p for p in read_places()}
    corners = 0
    for t in load_tasks(data_dir() / "navigation" / "tasks.jsonl"):
        said = re.search(r"Walk to .+ \(([^()]+)\) and stop there", t.instruction).group(1)
        address = places[t.goal["dest_place"]]["address"].split(", New York")[0]
        if " & " not in address:
            assert said == address, (t.task_id, said)
            continue
        where = city.intersection_name(t.goal["dest_node"])
        found = city.locate(where)
        if found is None or found.node_id != t.goal["dest_node"]:  # no corner (Central Park: mid-block)
            assert said == address and " between " in where, (t.task_id, said, where)
            continue
        corners += 1
        assert said == where, (t.task_id, said, where)
        w = StreetWorld(city)
        w.reset({"start": t.goal["dest_node"]}, 0)
        assert f": {where} (" in w.text().splitlines()[0]
    assert corners >= 10
    e = gym.make("EWA-Navigation-v0", web_mode="text", render_images=False)
    try:  # the map's place page of the reported station says the instruction's corner
        t = next(t for t in load_tasks(data_dir() / "navigation" / "tasks.jsonl") if t.goal["dest_place"] == "5-av-53-st-station")
        obs, _ = e.reset(seed=0, options={"task_id": t.task_id})
        assert "(5th Ave & W 53rd St)" in obs["instruction"]
        if obs["active"] != "web":
            obs, *_ = e.step("switch_environment")
        obs, *_ = e.step("goto [/map/place/5-av-53-st-station]")
        assert "5th Ave & W 53rd St" in obs["web_text"].split("Nearest street point", 1)[1], obs["web_text"]
    finally:
        e.close()
