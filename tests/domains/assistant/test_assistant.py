"""EWA-Assistant-v0: turns delivered one at a time, judged at ``done``, teacher forcing, the suite's shape."""

from __future__ import annotations

import random

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401  (registers the envs)
from embodiedweb.episodes import run_episode
from tests.redteam import suite

ENV = "EWA-Assistant-v0"


@pytest.fixture(scope="module")
def tasks():
    return suite(ENV)


@pytest.fixture()
def env():
    e = gym.make(ENV, max_steps=600)
    yield e
    e.close()


def _oracle(env, task, perturb=None):
    agent = env.unwrapped.domain.oracle(task, perturb)
    obs, info = env.reset(seed=0, options={"task_id": task.task_id})
    agent.reset(env, obs, info)
    seen = [obs]
    while True:
        obs, _, term, trunc, info = env.step(agent.act(obs, info))
        seen.append(obs)
        if term or trunc:
            return agent, seen, info


def test_the_suite_has_the_issue_s_shape(tasks):
    assert len(tasks) >= 300
    assert {t.split for t in tasks} == {"train", "test"}
    n = [len(t.goal["turns"]) for t in tasks]
    assert min(n) >= 4 and max(n) <= 12
    assert sum(any(x["refers"] for x in t.goal["turns"]) for t in tasks) >= len(tasks) / 2
    assert sum(any(x["grounded"] for x in t.goal["turns"]) for t in tasks) >= len(tasks) / 3


def test_the_generator_gives_the_shipped_file():
    from embodiedweb.data_gen import assistant_tasks
    from embodiedweb.paths import data_dir

    assert assistant_tasks.render(assistant_tasks.generate()) == \
        (data_dir() / "assistant" / "tasks.jsonl").read_text(encoding="utf-8")


def test_instructions_come_one_at_a_time(env, tasks):
    task = tasks[0]
    agent, seen, info = _oracle(env, task)
    texts = [t["text"] for t in task.goal["turns"]]
    assert seen[0]["instruction"] == texts[0]
    assert texts[1] not in seen[0]["dialogue"]  # later turns are not shown early
    shown = [o["instruction"] for o in seen]
    assert [t for i, t in enumerate(shown) if i == 0 or t != shown[i - 1]] == texts
    last = seen[-1]["dialogue"]
    assert all(t in last for t in texts) and last.count("You: done") == len(texts)
    assert "dialogue" in env.observation_space.spaces and env.observation_space.contains(seen[-1])
    m = info["metrics"]
    assert m["overall"] and m["turn_success"] == 1.0 and m["completion"] == 1.0 and m["turns_done"] == len(texts)


def test_stop_ends_early_and_the_rest_counts_as_wrong(env, tasks):
    task = tasks[0]
    env.reset(seed=0, options={"task_id": task.task_id})
    _, _, term, _, info = env.step("stop")
    assert term and not info["metrics"]["overall"] and info["metrics"]["turns_done"] == 0
    assert info["metrics"]["errors"]["domain"] + info["metrics"]["errors"]["reference"] + \
        info["metrics"]["errors"]["grounding"] == len(task.goal["turns"])


def test_done_is_refused_where_instructions_do_not_come_in_turns():
    e = gym.make("EWA-Navigation-v0")
    try:
        e.reset(seed=0)
        obs, *_ = e.step("done [x]")
        assert "not available in this environment" in obs["last_action_error"]
        assert "dialogue" not in obs
    finally:
        e.close()
    with pytest.raises(gym.error.Error, match="teacher_forcing"):
        gym.make("EWA-Cooking-v0", teacher_forcing=True)


@pytest.mark.parametrize("forcing", [True, False])
def test_teacher_forcing_scores_every_other_turn(tasks, forcing):
    """A perturbed oracle sabotages one turn per episode. With teacher forcing exactly the other turns
    score (the restore gives the next turns what a correct agent would have); without it, some episodes
    lose later turns too (their turns lean on the sabotaged one)."""
    e = gym.make(ENV, teacher_forcing=forcing, max_steps=600)
    rng = random.Random(5)
    sample = [t for t in tasks if t.split == "test"][:40]
    exact = later_lost = 0
    try:
        for task in sample:
            agent, _, info = _oracle(e, task, random.Random(rng.random()))
            ok = info["metrics"]["turns_ok"]
            k = agent.sabotaged
            want = [i != k for i in range(len(ok))]
            exact += ok == want
            later_lost += any(not v for i, v in enumerate(ok) if i > k)
    finally:
        e.close()
    if forcing:
        assert exact == len(sample)
    else:
        assert later_lost > 0


def test_same_seed_same_actions_same_trace(tasks):
    task = tasks[3]
    digests = []
    for _ in range(2):
        e = gym.make(ENV, teacher_forcing=True)
        try:
            _oracle(e, task, random.Random(1))
            digests.append(e.unwrapped.trace_digest())
        finally:
            e.close()
    assert digests[0] == digests[1]


def test_oracle_solves_every_task_and_random_none(tasks):
    from embodiedweb.registration import load_specs

    spec = next(s for s in load_specs() if s.id == ENV)
    e = gym.make(ENV)
    try:
        ok = 0
        for task in tasks:
            agent = spec.load_domain().oracle(task)
            ok += bool(run_episode(e, agent, task.task_id, seed=0)["metrics"]["overall"])
    finally:
        e.close()
    assert ok == len(tasks)


def test_a_bad_turn_names_the_field(tasks):
    from embodiedweb.domains.assistant import AssistantDomain
    from embodiedweb.tasks import TaskError

    bad = tasks[0].__class__(**{**tasks[0].__dict__, "goal": {"turns": [{"kind": "fly", "text": "x"}]}})
    with pytest.raises(TaskError, match=r"goal.turns\[0\].kind"):
        AssistantDomain().validate_task(bad)


@pytest.mark.parametrize("view", ["auto", "both"])
def test_first_person_view_where_the_episode_has_a_camera(tasks, view):
    """A kitchen episode shows the camera; an outing (the street has none) shows the top-down view in the
    same keys and shapes, with empty depth and masks, and never fails."""
    e = gym.make(ENV, render_images=True, embodied_view=view, embodied_depth=True, embodied_masks=True)
    try:
        home = next(t for t in tasks if t.embodied.get("world", "kitchen") == "kitchen")
        out = next(t for t in tasks if t.embodied.get("world") == "street")
        obs_home, _ = e.reset(seed=0, options={"task_id": home.task_id})
        assert obs_home["embodied_masks"].any() and obs_home["embodied_depth"].max() > 0
        obs_out, _ = e.reset(seed=0, options={"task_id": out.task_id})
        assert not obs_out["embodied_masks"].any() and obs_out["embodied_depth"].max() == 0
        assert e.observation_space.contains(obs_home) and e.observation_space.contains(obs_out)
        world = e.unwrapped.world
        assert (obs_out["embodied_image"] == e.unwrapped._fit(world.image((300, 300)), (300, 300))).all()
        obs_out, *_ = e.step("forward")
        assert e.observation_space.contains(obs_out)
    finally:
        e.close()
