"""Spaces that vector envs and RL libraries accept (issue 16, item 1).

Text observations are plain Gymnasium ``Text`` spaces over a finite charset with realistic lengths, and
every observation is inside them (long text cut with a marker, unknown characters shown as U+FFFD);
``make_vec`` works in async (shared memory) and sync mode; ``spec.max_episode_steps`` is the env's limit
and ``info["metrics"]`` is there on truncation whichever wrapper truncates; ``render()`` frames keep one
size for the whole episode.
"""

from __future__ import annotations

import copy
import importlib.util
import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.spaces.utils import _flatten_text, flatdim, flatten, unflatten
from gymnasium.vector.utils import create_shared_memory

import embodiedweb  # noqa: F401  (registers the ids)
from baselines.oracle import OracleAgent
from embodiedweb.env import OBS_TEXT_KEYS
from embodiedweb.registration import load_specs, registered_ids
from embodiedweb.spaces import (
    OBS_CHARSET,
    OBS_TEXT_MAX,
    REPLACEMENT,
    ObsText,
    SharedTexts,
    data_chars,
    fit_text,
    obs_text_space,
)
from embodiedweb.turns import DIALOGUE_MAX

IDS = registered_ids()
#: what one env's text observation may take in shared memory (int32 per character): well under 1 MB
MAX_SHARED_BYTES = 1_000_000


def _in_space(space: spaces.Dict, obs: dict) -> None:
    """``obs`` is in ``space`` by Gymnasium's own rules, and goes through flatten/unflatten (the path of
    shared memory and ``FlattenObservation``) unchanged."""
    for key, sub in space.spaces.items():
        assert isinstance(sub, spaces.Text), (key, type(sub))
        assert sub.contains(obs[key]), (key, len(obs[key]), sorted(set(obs[key]) - sub.character_set)[:5])
        assert unflatten(sub, flatten(sub, obs[key])) == obs[key]
        assert np.array_equal(flatten(sub, obs[key]), _flatten_text(sub, obs[key]))  # Gymnasium's own
    assert space.contains(obs)


def test_charset_covers_the_shipped_data() -> None:
    assert data_chars() <= set(OBS_CHARSET)
    assert REPLACEMENT in OBS_CHARSET and "…" in OBS_CHARSET


def test_fit_text_cuts_with_a_marker_and_replaces_unknown_characters() -> None:
    assert fit_text("naïve “q” 中", 100) == "naïve “q” 中"
    assert fit_text("a🙂b\ud800", 100) == f"a{REPLACEMENT}b{REPLACEMENT}"
    long = fit_text("x" * 5_000, 2_048)
    assert len(long) <= 2_048 and long.endswith("… (5,000 characters in all)")
    assert fit_text("embodied-and-more", 8) == "embodied"


@pytest.mark.parametrize("env_id", IDS)
def test_spaces_are_plain_text_of_realistic_size(env_id: str) -> None:
    env = gym.make(env_id)
    space = env.observation_space
    multi = env.unwrapped.multi_turn  # instructions one at a time: the conversation too
    assert set(space.spaces) == set(OBS_TEXT_KEYS) | ({"dialogue"} if multi else set())
    # Gymnasium Text spaces (ObsText only adds fast, correct shared-memory hooks)
    assert all(isinstance(s, spaces.Text) and type(s) is ObsText for s in space.spaces.values())
    shared = create_shared_memory(space, n=1)
    nbytes = sum(len(a) * 4 for a in shared.values())
    lengths = sum(OBS_TEXT_MAX.values()) + (DIALOGUE_MAX if multi else 0)
    # each field: its length, its version, its text
    assert nbytes == 4 * (lengths + 2 * len(space.spaces)) <= MAX_SHARED_BYTES
    flat = gym.wrappers.FlattenObservation(env)
    assert flatdim(space) == lengths
    obs, info = flat.reset(seed=0)
    assert flat.observation_space.contains(obs)
    obs, *_ = flat.step(info["admissible_actions"][0])
    assert flat.observation_space.contains(obs)
    env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_oracle_observations_are_inside_the_space(env_id: str) -> None:
    env = gym.make(env_id)
    base = env.unwrapped
    for task in base.tasks.tasks[:2]:
        obs, info = env.reset(seed=0, options={"task_id": task.task_id})
        _in_space(env.observation_space, obs)
        agent = OracleAgent()
        agent.reset(env, obs, info)
        for _ in range(base.episode_limit):
            obs, _, term, trunc, info = env.step(agent.act(obs, info))
            _in_space(env.observation_space, obs)
            if term or trunc:
                break
        assert "metrics" in info
    env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_typed_text_outside_the_charset_and_long_text_stay_inside_the_space(env_id: str) -> None:
    env = gym.make(env_id)
    env.reset(seed=0)
    action = "switch_environment [naïve “quote” 🙂 \U0001f355]"
    obs, *_ = env.step(action)
    _in_space(env.observation_space, obs)
    assert obs["last_action"] == f"switch_environment [naïve “quote” {REPLACEMENT} {REPLACEMENT}]"
    assert env.unwrapped.history[-1]["action"] == action  # the trace keeps the real text
    obs, *_ = env.step("type [1] [" + "y" * 20_000 + "]")
    _in_space(env.observation_space, obs)
    assert obs["last_action"].endswith("(20,011 characters in all)")
    env.close()


def _admissible(infos: dict, n: int, t: int) -> tuple[str, ...]:
    acts = []
    for i in range(n):
        cand = [a for a in infos["admissible_actions"][i] if a != "stop"]
        acts.append(cand[t % len(cand)])
    return tuple(acts)


@pytest.mark.parametrize("mode", ["async", "sync"])
@pytest.mark.parametrize("env_id", IDS)
def test_make_vec(env_id: str, mode: str) -> None:
    envs = gym.make_vec(env_id, 2, vectorization_mode=mode)
    try:
        single = envs.single_observation_space
        obs, infos = envs.reset(seed=[0, 1])
        for t in range(4):
            for i in range(2):
                one = {k: obs[k][i] for k in single.spaces}
                assert single.contains(one)
            assert obs["instruction"][0] and obs["web_text"][0] + obs["embodied_text"][0]
            obs, rewards, term, trunc, infos = envs.step(_admissible(infos, 2, t))
        assert rewards.shape == (2,)
        assert all(isinstance(s, spaces.Text) for s in single.spaces.values())
        assert flatdim(single) * 4 <= MAX_SHARED_BYTES  # per env, in shared memory (async) or flattened
    finally:
        envs.close()


@pytest.mark.parametrize("env_id", ["EWA-Navigation-v0", "EWA-Cooking-v0"])
def test_async_observations_are_the_sync_ones(env_id: str) -> None:
    """The async vector env (shared memory) gives every step's text observations, the same as the sync one
    (Gymnasium's own Text hooks gave the first, empty read of the buffer at every step)."""
    vecs = [gym.make_vec(env_id, 2, vectorization_mode=mode) for mode in ("async", "sync")]
    try:
        (a_obs, a_infos), (s_obs, _) = (v.reset(seed=[0, 1]) for v in vecs)
        for t in range(6):
            assert {k: tuple(v) for k, v in a_obs.items()} == {k: tuple(v) for k, v in s_obs.items()}
            assert type(a_obs["web_text"]) is tuple  # copied out of the buffer (copy=True, the default)
            actions = _admissible(a_infos, 2, t)
            a_obs, *_, a_infos = vecs[0].step(actions)
            s_obs, *_ = vecs[1].step(actions)
        assert a_obs["last_action"] == actions
    finally:
        for v in vecs:
            v.close()


def test_obs_text_flattens_and_shares_like_gymnasium_text() -> None:
    from gymnasium.vector.utils import read_from_shared_memory, write_to_shared_memory

    space = ObsText(64)
    plain = spaces.Text(64, min_length=0, charset=OBS_CHARSET)
    assert space == plain
    rng = np.random.default_rng(0)
    for n in (0, 1, 17, 64):
        text = "".join(rng.choice(list(OBS_CHARSET), n))
        assert np.array_equal(flatten(space, text), _flatten_text(plain, text))
        assert unflatten(space, flatten(space, text)) == text
    for bad in ("a\U0001f355", "b\ud800"):
        with pytest.raises(KeyError):
            flatten(space, bad)
    with pytest.raises(IndexError):
        flatten(space, "x" * 65)
    shared = create_shared_memory(space, n=2)
    view = read_from_shared_memory(space, shared, n=2)
    assert isinstance(view, SharedTexts) and len(view) == 2
    write_to_shared_memory(space, 0, "", shared)
    write_to_shared_memory(space, 1, "naïve “q” 中", shared)
    assert tuple(view) == ("", "naïve “q” 中") and view[1] == "naïve “q” 中"  # the view follows the buffer
    write_to_shared_memory(space, 1, "ab", shared)  # a shorter text over a longer one
    assert tuple(view) == ("", "ab")
    write_to_shared_memory(space, 1, "naïve “q” 中", shared)
    for bad, error in (("a\U0001f355", KeyError), ("b\ud800", KeyError), ("x" * 65, IndexError)):
        with pytest.raises(error):  # refused as flatten refuses it, and the buffer is left as it was
            write_to_shared_memory(space, 0, bad, shared)
    assert tuple(view) == ("", "naïve “q” 中")
    assert copy.deepcopy(view) == ("", "naïve “q” 中") and type(copy.deepcopy(view)) is tuple
    assert pickle.loads(pickle.dumps(view)) == ("", "naïve “q” 中")


def test_shared_texts_decode_a_row_once_per_text_written() -> None:
    """A reader decodes a row once per text written to it (its version), so unchanged fields cost no
    decoding; every write of a new text, even one the row held before, is read."""
    from gymnasium.vector.utils import read_from_shared_memory, write_to_shared_memory

    space = ObsText(16)
    shared = create_shared_memory(space, n=2)
    view = read_from_shared_memory(space, shared, n=2)
    write_to_shared_memory(space, 1, "first", shared)
    assert view[1] == "first" and view[-1] == "first" and view[0] == ""
    raw = np.frombuffer(shared.get_obj(), dtype=np.int32).reshape(2, -1)
    raw[1, 2] = ord("F")  # the buffer changed behind the version's back: the text decoded before is kept
    assert view[1] == "first" and tuple(view) == ("", "first")
    assert read_from_shared_memory(space, shared, n=2)[1] == "First"  # a new reader decodes the buffer
    for text in ("second", "first", "first", ""):  # "first" again after another text: a new version
        write_to_shared_memory(space, 1, text, shared)
        assert view[1] == text and tuple(view) == ("", text)
    with pytest.raises(IndexError):
        view[2]


@pytest.mark.parametrize("env_id", IDS)
def test_spec_max_episode_steps_is_the_env_limit(env_id: str) -> None:
    spec = next(s for s in load_specs() if s.id == env_id)
    env = gym.make(env_id)
    assert env.spec.max_episode_steps == spec.max_steps == env.unwrapped.max_steps
    assert env.unwrapped.step_limit == spec.max_steps
    env.close()
    env = gym.make(env_id, max_episode_steps=-1)  # no TimeLimit: the env's own limit
    assert env.unwrapped.step_limit == spec.max_steps
    env.close()
    env = gym.make(env_id, max_steps=7)  # the env's own option sets both
    assert env.spec.max_episode_steps == env.unwrapped.step_limit == 7
    env.close()
    env = gym.make(env_id, max_episode_steps=500, max_steps=5)  # a larger TimeLimit leaves the env's
    assert env.unwrapped.step_limit == 5
    env.reset(seed=0)
    for _ in range(5):
        *_, trunc, info = env.step("scroll [down]")
    assert trunc and "metrics" in info
    env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_metrics_on_truncation_by_time_limit(env_id: str) -> None:
    env = gym.make(env_id, max_episode_steps=3)
    env.reset(seed=0)
    for t in range(3):
        obs, reward, term, trunc, info = env.step("scroll [down]")
        assert not term
        assert trunc == (t == 2)
    assert "metrics" in info and info["metrics"]["steps"] == 3
    assert env.spec.max_episode_steps == 3 and env.unwrapped.step_limit == 3
    assert env.unwrapped.done
    # a copy keeps the limit
    copy = pickle.loads(pickle.dumps(env))
    copy.reset(seed=0)
    assert copy.unwrapped.step_limit == 3
    copy.close()
    env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_render_frames_keep_one_size(env_id: str) -> None:
    env = gym.make(env_id, render_mode="rgb_array")
    base = env.unwrapped
    obs, info = env.reset(seed=0)
    frames = [env.render()]
    actives = {base.active}
    agent = OracleAgent()
    agent.reset(env, obs, info)
    for _ in range(12):
        obs, _, term, trunc, info = env.step(agent.act(obs, info))
        frames.append(env.render())
        actives.add(base.active)
        if term or trunc:
            break
    if base.domain.web_enabled:
        env.reset(seed=1)
        env.step("switch_environment")
        frames.append(env.render())
        actives.add(base.active)
        assert actives == {"web", "embodied"}
    # RecordVideo's precondition: every frame of an episode has the first frame's shape
    assert len({f.shape for f in frames}) == 1, {f.shape for f in frames}
    assert frames[0].shape == base.frame_shape
    assert all(f.dtype == np.uint8 for f in frames)
    env.close()


@pytest.mark.skipif(importlib.util.find_spec("moviepy") is None, reason="the 'video' extra (moviepy) is not installed")
def test_record_video(tmp_path) -> None:  # pragma: no cover - needs the video extra
    env = gym.wrappers.RecordVideo(gym.make("EWA-Navigation-v0", render_mode="rgb_array"), str(tmp_path),
                                   episode_trigger=lambda _: True)
    env.reset(seed=0)
    env.step("switch_environment")
    env.step("switch_environment")
    env.close()
    assert list(tmp_path.glob("*.mp4"))


def test_an_unchanged_text_is_not_rewritten_but_every_buffer_and_row_gets_its_own() -> None:
    """A process skips writing the text it wrote last to the same row of the same buffer (it is there);
    another buffer, another row, or a changed text is written."""
    from gymnasium.vector.utils import read_from_shared_memory, write_to_shared_memory

    space = obs_text_space(16)
    first, second = create_shared_memory(space, n=2), create_shared_memory(space, n=2)
    write_to_shared_memory(space, 0, "same", first)
    write_to_shared_memory(space, 0, "same", first)  # skipped: the row holds it
    write_to_shared_memory(space, 0, "same", second)  # another buffer: written
    write_to_shared_memory(space, 1, "same", first)  # another row: written
    assert tuple(read_from_shared_memory(space, first, n=2)) == ("same", "same")
    assert tuple(read_from_shared_memory(space, second, n=2)) == ("same", "")
    write_to_shared_memory(space, 0, "new", first)
    write_to_shared_memory(space, 0, "same", first)  # back to an earlier text: written
    assert tuple(read_from_shared_memory(space, first, n=2)) == ("same", "same")
    with pytest.raises(IndexError):
        write_to_shared_memory(space, 0, "x" * 17, first)
    write_to_shared_memory(space, 0, "same", first)  # a refused write changed nothing, nor what was last
    assert read_from_shared_memory(space, first, n=2)[0] == "same"
