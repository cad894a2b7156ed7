"""Every registered env pickles, cloudpickles and deep-copies, before reset and mid-episode (issue 15 item 6).

A copy is an independent env with the same configuration and its own web session; mid-episode it
replays the episode, so it is in the original's state: same trace digest, same next observation.
"""

from __future__ import annotations

import copy
import multiprocessing
import os
import pickle
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import cloudpickle
import gymnasium as gym
import pytest

import embodiedweb
from embodiedweb.env import EmbodiedWebEnv
from tests.fixtures.formlab import install
from tests.fixtures.lineworld import make_line_env
from web_sites.registry import get_webapp

ENV_IDS = embodiedweb.registered_ids()
COPIES: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda env: pickle.loads(pickle.dumps(env)),
    "deepcopy": copy.deepcopy,
    "cloudpickle": lambda env: cloudpickle.loads(cloudpickle.dumps(env)),
}
SEED = 7
_plans: dict[tuple[str, ...], tuple[str, list[str], str]] = {}


@pytest.fixture(autouse=True)
def _replay_must_not_diverge() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        yield


def plan(env_id: str) -> tuple[str, list[str], str]:
    """(task id, the oracle's actions, the episode's trace digest) for the first task of ``env_id``
    (with the sites this process has now: tests add some at run time, which changes the pages)."""
    key = (env_id, *(site.name for site in get_webapp().sites))
    if key not in _plans:
        env = gym.make(env_id)
        base = env.unwrapped
        task = base.tasks.tasks[0]
        obs, info = env.reset(seed=SEED, options={"task_id": task.task_id})
        agent = base.domain.oracle(task)
        agent.reset(env, obs, info)
        actions: list[str] = []
        done = False
        while not done:
            actions.append(agent.act(obs, info))
            obs, _, term, trunc, info = env.step(actions[-1])
            done = term or trunc
        assert len(actions) >= 4, f"{env_id}: the oracle's episode is too short for this test"
        _plans[key] = (task.task_id, actions, base.trace_digest())
        env.close()
    return _plans[key]


def states(env: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """(web state of the env's session, world state)."""
    base = env.unwrapped
    return base.webapp.snapshot(base.session), base.world.semantic_state()


def run(env: Any, actions: list[str]) -> Any:
    out = None
    for a in actions:
        out = env.step(a)
    return out


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_copy_before_reset_is_the_same_env_with_its_own_session(env_id: str, how: str) -> None:
    task_id, actions, digest = plan(env_id)
    env = gym.make(env_id, max_steps=90, split="test")
    twin = COPIES[how](env)
    a, b = env.unwrapped, twin.unwrapped
    assert isinstance(b, EmbodiedWebEnv) and b is not a
    assert (b.env_id, b.max_steps, b.split, b.web_mode) == (env_id, 90, "test", "text")
    assert [t.task_id for t in b.tasks.tasks] == [t.task_id for t in a.tasks.tasks]
    assert b.suite_version == a.suite_version and b.spec == a.spec
    assert b.session != a.session and b.world is not a.world
    # unseeded resets draw the same task and seed from the copied RNG
    assert env.reset()[1]["task_id"] == twin.reset()[1]["task_id"]
    assert a.episode_seed == b.episode_seed
    assert a.trace_digest() == b.trace_digest()
    env.close()
    twin.close()
    # the copy runs the oracle's episode to the same trace as the original env would
    env = gym.make(env_id)
    twin = COPIES[how](env)
    env.close()
    twin.reset(seed=SEED, options={"task_id": task_id})
    run(twin, actions)
    assert twin.unwrapped.trace_digest() == digest
    twin.close()


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_copy_mid_episode_replays_to_the_same_state_and_then_is_independent(env_id: str, how: str) -> None:
    task_id, actions, digest = plan(env_id)
    k = len(actions) // 2
    env = gym.make(env_id)
    env.reset(seed=SEED, options={"task_id": task_id})
    run(env, actions[:k])
    before = states(env)
    twin = COPIES[how](env)
    a, b = env.unwrapped, twin.unwrapped
    assert b.session != a.session
    assert b.trace_digest() == a.trace_digest() and b.steps == a.steps == k
    assert states(twin) == before and b.history[-1]["action"] == actions[k - 1]
    # the next step answers the same in both
    o1, o2 = env.step(actions[k]), twin.step(actions[k])
    assert o1[:4] == o2[:4] and o1[4]["admissible_actions"] == o2[4]["admissible_actions"]
    before = states(env)
    # the copy finishes the episode: its state moves on, the original's does not
    final = run(twin, actions[k + 1:])
    assert states(twin) != before
    assert states(env) == before and a.steps == k + 1
    assert b.trace_digest() == digest
    # the original finishes the same way: same digest, same metrics
    assert run(env, actions[k + 1:])[4]["metrics"] == final[4]["metrics"]
    assert a.trace_digest() == digest
    env.close()
    twin.close()


@pytest.mark.parametrize("how", COPIES)
def test_copy_after_the_episode_ended_keeps_the_rng(how: str) -> None:
    task_id, actions, digest = plan("EWA-Navigation-v0")
    env = gym.make("EWA-Navigation-v0")
    env.reset(seed=SEED, options={"task_id": task_id})
    run(env, actions)
    twin = COPIES[how](env)
    assert twin.unwrapped.done and twin.unwrapped.trace_digest() == digest
    assert env.reset()[1]["task_id"] == twin.reset()[1]["task_id"]
    assert env.unwrapped.trace_digest() == twin.unwrapped.trace_digest()
    env.close()
    twin.close()


@pytest.mark.parametrize("how", COPIES)
def test_domain_options_and_env_options_are_carried_over(how: str) -> None:
    env = gym.make("EWA-Geolocation-v0", passive=True, render_images=True, image_size=(64, 48), watchdog_s=3.0)
    twin = COPIES[how](env)
    a, b = env.unwrapped, twin.unwrapped
    assert b.domain.passive and not b.domain.web_enabled and b.domains == a.domains
    assert (b.render_images, b.image_size, b.watchdog_s) == (True, (64, 48), 3.0)
    assert b.observation_space == a.observation_space and b.suite_version == a.suite_version
    env.close()
    twin.close()


def test_trace_path_is_not_carried_over(tmp_path) -> None:
    path = tmp_path / "trace.jsonl"
    env = make_line_env(trace_path=str(path))
    env.reset(seed=1, options={"task_id": "line-0"})
    env.step("click [3]")
    lines = path.read_text().count("\n")
    twin = copy.deepcopy(env)
    assert twin.trace_path is None and twin.trace_digest() == env.trace_digest()
    twin.step("switch_environment")
    assert path.read_text().count("\n") == lines
    env.close()
    twin.close()


def test_a_replay_that_diverges_warns() -> None:
    env = make_line_env()
    env.reset(seed=1, options={"task_id": "line-0"})
    env.step("click [3]")
    state = env.__getstate__()
    state["episode"]["digest"] = "not the digest"
    twin = EmbodiedWebEnv.__new__(EmbodiedWebEnv)
    with pytest.warns(RuntimeWarning, match="another trace digest"):
        twin.__setstate__(state)
    env.close()
    twin.close()


def test_a_site_missing_in_the_copys_process_warns() -> None:
    env = gym.make("EWA-Navigation-v0")
    state = env.unwrapped.__getstate__()
    state["sites"].append("no-such-site")
    twin = EmbodiedWebEnv.__new__(EmbodiedWebEnv)
    with pytest.warns(RuntimeWarning, match=r"sites this process lacks \(no-such-site\)"):
        twin.__setstate__(state)
    env.close()
    twin.close()


def test_browser_mode_copy_replays_in_its_own_browser() -> None:
    if not os.path.exists("/usr/bin/chromium"):
        pytest.skip("Chromium is not installed at /usr/bin/chromium")
    task_id, actions, digest = plan("EWA-Shopping-v0")
    k = min(6, len(actions) - 1)
    try:
        env = gym.make("EWA-Shopping-v0", web_mode="browser")
        env.reset(seed=SEED, options={"task_id": task_id})
    except Exception as e:  # pragma: no cover - depends on the machine
        pytest.skip(f"Playwright could not launch Chromium: {e}")
    run(env, actions[:k])
    twin = copy.deepcopy(env)
    assert twin.unwrapped.driver is not env.unwrapped.driver
    assert twin.unwrapped.trace_digest() == env.unwrapped.trace_digest()
    assert env.step(actions[k])[0] == twin.step(actions[k])[0]
    assert twin.unwrapped.trace_digest() == env.unwrapped.trace_digest()
    env.close()
    twin.close()


def _finish(env: Any, actions: list[str]) -> tuple[str, dict[str, Any]]:
    """Run in a spawned process: finish the episode of the env sent there."""
    metrics = run(env, actions)[4]["metrics"]
    env.close()
    return env.unwrapped.trace_digest(), metrics


def test_an_env_sent_to_a_spawned_process_finishes_its_episode_there() -> None:
    """What multiprocessing spawn, Ray and SubprocVecEnv do: the env is pickled into another process."""
    task_id, actions, digest = plan("EWA-Cooking-v0")
    k = len(actions) // 2
    env = gym.make("EWA-Cooking-v0")
    env.reset(seed=SEED, options={"task_id": task_id})
    run(env, actions[:k])
    # the test's own sites (tests/fixtures/formlab) are added at run time: the worker adds them too
    extra = install if get_webapp().site("formlab") is not None else None
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=extra) as pool:
        remote_digest, remote_metrics = pool.submit(_finish, env, actions[k:]).result(timeout=120)
    assert remote_digest == digest
    assert run(env, actions[k:])[4]["metrics"] == remote_metrics
    env.close()


def test_an_overlong_action_is_kept_for_replay_as_its_head_and_length() -> None:
    env = gym.make("EWA-Shopping-v0")
    env.reset(seed=2)
    env.step("x" * 2_000_000)
    env.step("scroll [down]")
    kept = env.unwrapped._actions[0]
    assert len(pickle.dumps(kept)) < 60_000  # not the 2 MB the agent sent
    copy_ = pickle.loads(pickle.dumps(env))
    assert copy_.unwrapped.trace_digest() == env.unwrapped.trace_digest()
    assert copy_.unwrapped.trace.records[1]["action"] == env.unwrapped.trace.records[1]["action"]
    copy_.close()
    env.close()
