"""Stable-Baselines3 on the wrapped envs (issue 16, item 4): SB3's ``check_env`` on every env, and a few
hundred (Maskable)PPO steps on every env through Gymnasium's ``make_vec``, sync and async."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import embodiedweb  # noqa: F401  (registers the ids)
from embodiedweb.registration import registered_ids
from embodiedweb.rl import make_rl_env, make_rl_vec, unbatch_info

pytest.importorskip("stable_baselines3", reason="the rl extra is not installed")
pytest.importorskip("sb3_contrib", reason="the rl extra is not installed")

from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3 import PPO  # noqa: E402
from stable_baselines3.common.env_checker import check_env  # noqa: E402
from stable_baselines3.common.vec_env import VecMonitor  # noqa: E402

from embodiedweb.sb3 import SB3VecEnv  # noqa: E402

IDS = registered_ids()


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("env_id", IDS)
def test_sb3_check_env_passes_on_the_wrapped_env(env_id):
    env = make_rl_env(env_id, split="train")
    check_env(env, warn=True)
    env.close()


def test_sb3_check_env_fails_on_the_raw_env():
    """The reason for the wrappers: SB3 refuses the raw env's Text observations."""
    env = gym.make("EWA-Navigation-v0")
    with pytest.raises((AssertionError, ValueError)):
        check_env(env, warn=False)
    env.close()


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("env_id", "mode"), [(e, m) for e in IDS for m in ("sync", "async")]
                         + [("EWA-Cooking-v0", "pool"), ("EWA-Navigation-v0", "pool")])
def test_maskable_ppo_trains_through_make_vec(env_id, mode):
    venv = VecMonitor(SB3VecEnv(make_rl_vec(env_id, 2 if mode != "pool" else 4, mode, split="train", max_steps=20)))
    try:
        model = MaskablePPO("MultiInputPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0, verbose=0,
                            policy_kwargs={"net_arch": [32]})
        model.learn(256)
        assert model.num_timesteps >= 256
        # episodes ended within the rollouts (max_steps=20) and SB3 saw them
        assert len(model.ep_info_buffer) >= 256 // 20 // 2
        # only unmasked actions were taken: every step's action was a candidate (no "noop" errors)
        obs = venv.reset()
        masks = np.stack(venv.env_method("action_masks"))
        actions, _ = model.predict(obs, action_masks=masks)
        assert all(masks[i, a] for i, a in enumerate(actions))
    finally:
        venv.close()


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_plain_ppo_trains_on_the_wrapped_env():
    venv = SB3VecEnv(make_rl_vec("EWA-Cooking-v0", 2, "sync", split="train", max_steps=20))
    try:
        PPO("MultiInputPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0, verbose=0).learn(128)
    finally:
        venv.close()


def test_adapter_reports_episode_ends_the_sb3_way():
    """A step that ends an episode: done, the last observation under ``terminal_observation``, the next
    episode's first observation returned, ``TimeLimit.truncated`` set on truncation, and the mask is the
    new episode's."""
    venv = SB3VecEnv(make_rl_vec("EWA-Navigation-v0", 2, "sync", split="train", max_steps=3))
    try:
        venv.reset()
        for _ in range(2):
            assert not venv.step(np.zeros(2, dtype=np.int64))[2].any()
        obs, rewards, dones, infos = venv.step(np.zeros(2, dtype=np.int64))
        assert dones.all()
        for info in infos:
            assert info["TimeLimit.truncated"] is True
            assert venv.observation_space.contains(info["terminal_observation"])
            assert "metrics" in info
        masks = venv.env_method("action_masks")
        assert len(masks) == 2 and all(m.dtype == bool and m.any() for m in masks)
    finally:
        venv.close()


def test_unbatch_info_keeps_each_envs_own_keys():
    info = {"a": np.array([1, 2]), "_a": np.array([True, False]),
            "m": {"x": np.array([0.5, 0.25]), "_x": np.array([True, True])}, "_m": np.array([True, True])}
    assert unbatch_info(info, 0) == {"a": 1, "m": {"x": 0.5}}
    assert unbatch_info(info, 1) == {"m": {"x": 0.25}}


def test_adapter_refuses_next_step_autoreset():
    venv = gym.make_vec("EWA-Navigation-v0", 1, vectorization_mode="sync")
    with pytest.raises(ValueError, match="same-step"):
        SB3VecEnv(venv)
    venv.close()


@pytest.mark.parametrize("env_id", IDS)
def test_vector_env_batches_infos_of_good_and_malformed_actions(env_id):
    """Gymnasium batches each info key across envs, so a key must keep one kind of value (a dict stays a
    dict) whether the action parsed or not: one env sends malformed actions, the other admissible ones."""
    venv = gym.make_vec(env_id, 2, vectorization_mode="sync", max_steps=12)
    try:
        _obs, info = venv.reset(seed=0)
        rng = np.random.default_rng(0)
        for t in range(24):
            good = unbatch_info(info, 1).get("admissible_actions") or ["stop"]
            actions = ["]]not an action[[" if t % 2 else "noop", str(good[int(rng.integers(len(good)))])]
            _obs, _r, _te, _tr, info = venv.step(actions)
    finally:
        venv.close()


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_candidate_policy_scores_actions_by_their_text():
    """CandidatePolicy: trains through make_vec, and an action's logit follows its candidate's text: the
    same candidates in another order give the same logits in that order."""
    import torch

    from embodiedweb.sb3 import CandidatePolicy, candidate_policy_kwargs

    venv = SB3VecEnv(make_rl_vec("EWA-Cooking-v0", 2, "sync", split="train", max_steps=20, encoding="ids",
                                 token_kwargs={"candidates": True}))
    try:
        model = MaskablePPO(CandidatePolicy, venv, n_steps=32, batch_size=64, n_epochs=1, seed=0, verbose=0,
                            policy_kwargs=candidate_policy_kwargs(dim=16, hidden=32))
        model.learn(64)
        obs = venv.reset()
        n = int(venv.env_method("action_masks")[0].sum())
        assert n > 3
        perm = np.arange(obs["candidates"].shape[1])
        perm[:n] = np.random.default_rng(0).permutation(n)
        shuffled = {k: v.copy() for k, v in obs.items()}
        shuffled["candidates"] = obs["candidates"][:, perm]
        policy = model.policy
        with torch.no_grad():
            def logits(o):
                tensor = policy.obs_to_tensor(o)[0]
                return policy.mlp_extractor(policy.extract_features(tensor))[0].numpy()

            a, b = logits(obs), logits(shuffled)
        assert np.allclose(a[:, perm][:, :n], b[:, :n], atol=1e-5)
        assert not np.allclose(a[0, :n], a[0, 0])  # candidates get different scores
    finally:
        venv.close()


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_the_maskable_ppo_example_trains_evaluates_and_writes_its_curve(tmp_path):
    """``examples/train_maskable_ppo.py`` end to end, tiny: it trains, evaluates greedy and random play on
    held-back test tasks and writes the curve, the summary and the model (the README's figures come from it)."""
    import importlib.util
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "train_maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    out = tmp_path / "run"
    assert example.main(["--env", "EWA-Navigation-v0", "--curriculum", "0", "--timesteps", "64", "--n-steps", "32",
                         "--vec", "sync", "--eval-every", "64", "--eval-tasks", "2", "--max-steps", "8",
                         "--out", str(out)]) == 0
    curve = [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
    assert [r["timesteps"] for r in curve][0] == 0 and curve[-1]["timesteps"] >= 64
    assert all(r["episodes"] == 2 and r["steps"] <= 8 for r in curve)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["test_tasks"] == 2 and summary["curriculum"] == 0 and (out / "model.zip").exists()
    # with a behaviour-cloning warm start from the oracle's demonstrations (whole episodes, not cut at 8 steps)
    out = tmp_path / "bc"
    assert example.main(["--env", "EWA-Navigation-v0", "--curriculum", "0", "--timesteps", "32", "--n-steps", "32",
                         "--vec", "sync", "--eval-every", "64", "--eval-tasks", "1", "--max-steps", "8",
                         "--bc", "level", "--bc-tasks", "2", "--bc-epochs", "2", "--out", str(out)]) == 0
    bc = json.loads((out / "summary.json").read_text())["behaviour_cloning"]
    assert bc["tasks"] == 2 and bc["steps"] > 16 and bc["epochs"] == 2 and 0 < bc["train_accuracy"] <= 1
