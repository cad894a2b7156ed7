"""The RL wrappers of :mod:`embodiedweb.wrappers` (issue 16, item 2)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import embodiedweb  # noqa: F401  (registers the ids)
from baselines.oracle import OracleAgent
from embodiedweb.registration import registered_ids
from embodiedweb.wrappers import ShapedReward, completion_now

IDS = registered_ids()


def oracle_episode(env, task_id, seed=0):
    """(infos, rewards) of the oracle's episode on ``task_id`` through ``env``."""
    agent = OracleAgent()
    obs, info = env.reset(seed=seed, options={"task_id": task_id})
    agent.reset(env, obs, info)
    infos, rewards = [info], []
    done = False
    while not done:
        obs, r, terminated, truncated, info = env.step(agent.act(obs, info))
        infos.append(info)
        rewards.append(float(r))
        done = terminated or truncated
    return infos, rewards


@pytest.mark.filterwarnings("ignore:.*different from the unwrapped")
@pytest.mark.parametrize("env_id", IDS)
def test_shaped_reward_check_env(env_id):
    env = ShapedReward(gym.make(env_id), mode="progress")
    check_env(env.unwrapped)
    check_env(env, skip_render_check=True)
    env.close()


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("terminal", ["completion", "zero"])
def test_progress_reward_telescopes_on_oracle_episode(env_id, terminal):
    """Potential-based: with gamma=1 the shaping terms sum to Phi(final) - Phi(initial), so the progress
    return is the sparse return plus that difference; the potential climbs through the episode."""
    env = ShapedReward(gym.make(env_id), mode="progress", gamma=1.0, terminal_potential=terminal)
    task = env.unwrapped.tasks.tasks[0]
    infos, rewards = oracle_episode(env, task.task_id)
    sparse = sum(i["sparse_reward"] for i in infos[1:])
    shaping = [i["shaping"] for i in infos[1:]]
    phi0, phi_t = infos[0]["potential"], infos[-1]["potential"]
    assert sparse == 1.0  # the oracle succeeds
    assert sum(shaping) == pytest.approx(phi_t - phi0)
    assert sum(rewards) == pytest.approx(sparse + phi_t - phi0)
    assert phi_t == (1.0 if terminal == "completion" else 0.0)
    # the shaping is dense: some step before the last earns progress (geolocation's completion counts the
    # answer's fields: it moves at stop only)
    if env_id != "EWA-Geolocation-v0":
        assert any(s > 0 for s in shaping[:-1])
    # each term is gamma * Phi(s') - Phi(s) of the potentials reported
    pots = [i["potential"] for i in infos]
    assert np.allclose(shaping, np.diff(pots))
    env.close()


def test_progress_reward_discounted_terms():
    env = ShapedReward(gym.make("EWA-Cooking-v0"), mode="progress", gamma=0.9, terminal_potential="completion")
    infos, rewards = oracle_episode(env, env.unwrapped.tasks.tasks[0].task_id)
    pots = [i["potential"] for i in infos]
    expect = [0.9 * b - a for a, b in zip(pots, pots[1:], strict=False)]
    assert np.allclose([i["shaping"] for i in infos[1:]], expect)
    assert np.allclose(rewards, [i["sparse_reward"] + e for i, e in zip(infos[1:], expect, strict=True)])
    env.close()


def test_potential_is_the_checkers_completion():
    env = ShapedReward(gym.make("EWA-Cooking-v0"), mode="progress", gamma=1.0, terminal_potential="completion")
    infos, _ = oracle_episode(env, env.unwrapped.tasks.tasks[0].task_id)
    assert infos[-1]["potential"] == infos[-1]["metrics"]["completion"]
    assert completion_now(env.unwrapped) == infos[-1]["metrics"]["completion"]
    env.close()


def test_sparse_mode_is_the_env_reward():
    env = ShapedReward(gym.make("EWA-Navigation-v0"), mode="sparse")
    infos, rewards = oracle_episode(env, env.unwrapped.tasks.tasks[0].task_id)
    assert rewards == [i["sparse_reward"] for i in infos[1:]]
    assert sum(rewards) == 1.0 and all(i["shaping"] == 0.0 for i in infos)
    env.close()


def test_shaped_reward_rejects_bad_options():
    with pytest.raises(ValueError):
        ShapedReward(gym.make("EWA-Cooking-v0"), mode="dense")
    with pytest.raises(ValueError):
        ShapedReward(gym.make("EWA-Cooking-v0"), gamma=1.5)
