"""Oracle demonstrations through the discrete actions, behaviour cloning, and the exact-match features that
let a cloned policy generalise to unseen tasks (``embodiedweb.imitation``, ``embodiedweb.sb3``)."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import embodiedweb  # noqa: F401  (registers the ids)
from baselines.registry import make_agent
from embodiedweb.imitation import Demonstration, candidate_index
from embodiedweb.imitation import demonstrations as _demonstrations
from embodiedweb.rl import make_rl_env

WRAP = {"reward": "progress", "encoding": "ids", "token_kwargs": {"candidates": True, "candidate_context": True}}


def demonstrations(env, task_ids, agent=None):
    return _demonstrations(env, task_ids, agent if agent is not None else make_agent("oracle"))


def nav_env(split: str = "train", **kwargs):
    return make_rl_env("EWA-Navigation-v0", split=split, curriculum=0, **WRAP, **kwargs)


def test_candidate_index_matches_canonical_forms():
    cands = ["click [4]", "switch_environment", "move [n12]", "stop"]
    assert candidate_index(cands, "move [n12]") == 2
    assert candidate_index(cands, "  move  [n12] ") == 2
    assert candidate_index(cands, "switch_environment [walk to n9]") == 1  # the note is dropped
    assert candidate_index(cands, "move [n13]") is None


def test_demonstrations_are_taken_by_index_and_replay_exactly():
    """Every expert step is a valid candidate index of its mask; the oracle succeeds through the indices;
    the recorded observations are what the wrapped env returns; replaying the indices gives the same
    rewards and metrics."""
    env = nav_env()
    ids = [t.task_id for t in env.unwrapped.tasks.tasks[:3]]
    demos = demonstrations(env, ids)
    assert [d.task_id for d in demos] == ids
    for n, demo in enumerate(demos):
        assert demo.success and demo.misses == [] and len(demo.actions) > 5
        assert all(mask[a] for mask, a in zip(demo.masks, demo.actions, strict=True))
        assert set(demo.observations[0]) == set(env.observation_space.spaces)
        obs, _ = env.reset(seed=n, options={"task_id": demo.task_id})
        rewards = []
        for i, a in enumerate(demo.actions):
            for k, v in demo.observations[i].items():
                assert np.array_equal(np.asarray(obs[k]), np.asarray(v)), (demo.task_id, i, k)
            obs, r, terminated, truncated, info = env.step(a)
            rewards.append(r)
        assert terminated and info["metrics"]["overall"] == demo.metrics["overall"]
        assert np.allclose(rewards, demo.rewards)
        assert demo.returns(1.0)[0] == pytest.approx(sum(demo.rewards))
    env.close()


def test_an_expert_action_outside_the_candidates_is_a_miss():
    class Wanderer:
        def reset(self, *args):
            pass

        def act(self, obs, info):
            return "fly [to the moon]"

    env = nav_env()
    demo = demonstrations(env, [env.unwrapped.tasks.tasks[0].task_id], agent=Wanderer())[0]
    assert demo.misses == ["fly [to the moon]"] and demo.actions == [] and not demo.success
    env.close()


def test_demonstrations_need_discrete_actions():
    import gymnasium as gym

    with pytest.raises(ValueError, match="DiscreteActions"):
        demonstrations(gym.make("EWA-Navigation-v0"), ["nav-000"])


# behaviour cloning and the match features (the rl extra) --------------------------------------------
def _model(env, match: bool = True):
    pytest.importorskip("sb3_contrib", reason="the rl extra is not installed")
    from sb3_contrib import MaskablePPO

    from embodiedweb.sb3 import CandidateFeatures, CandidatePolicy, candidate_policy_kwargs

    kwargs = candidate_policy_kwargs(dim=16, hidden=32)
    kwargs["features_extractor_kwargs"]["match"] = match
    model = MaskablePPO(CandidatePolicy, env, n_steps=32, batch_size=32, seed=0, verbose=0, policy_kwargs=kwargs)
    assert isinstance(model.policy.features_extractor, CandidateFeatures)
    return model


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_behaviour_cloning_fits_the_demonstrations_and_solves_a_train_task():
    from embodiedweb.imitation import behaviour_clone

    env = nav_env()
    task_id = env.unwrapped.tasks.tasks[1].task_id
    demos = demonstrations(env, [task_id])
    model = _model(env)
    history = behaviour_clone(model, demos, epochs=30, batch_size=16, learning_rate=3e-3)
    assert history[-1]["loss"] < history[0]["loss"] and history[-1]["accuracy"] >= 0.95
    obs, info = env.reset(seed=0, options={"task_id": task_id})
    done = False
    while not done:
        action = int(model.predict(obs, action_masks=info["action_mask"], deterministic=True)[0])
        obs, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert info["metrics"]["overall"]
    with pytest.raises(ValueError, match="successful"):
        behaviour_clone(model, [Demonstration("nav-x")])
    env.close()


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_match_features_see_which_tokens_occur_elsewhere_in_the_observation():
    """A candidate's features change when one of its tokens stops occurring in the page (and not without
    ``match``); the state's features change when a token at the head of the embodied view stops occurring
    in the page (``You are at n842``: is 842 on the page?)."""
    import torch

    env = nav_env()
    demo = demonstrations(env, [env.unwrapped.tasks.tasks[0].task_id])[0]
    obs = next(o for o in demo.observations if o["active"] == 0 and o["web_text"].any())  # the walk, page read
    page = set(obs["web_text"].tolist()) - {0}
    head = obs["embodied_text"][:24]
    shared = next(int(t) for t in head if int(t) in page)
    row = next(i for i in range(obs["candidates"].shape[0]) if shared in obs["candidates"][i].tolist())
    blanked = copy.deepcopy(obs)
    blanked["web_text"][blanked["web_text"] == shared] = 1  # the token no longer on the page
    for match in (True, False):
        model = _model(env, match)
        with torch.no_grad():
            for p in model.policy.features_extractor.parameters():  # untrained match tables are zero
                p.add_(torch.randn_like(p) * 0.1)
            fx = model.policy.features_extractor

            def feats(o, fx=fx, model=model):
                return fx(model.policy.obs_to_tensor(o)[0])[0].numpy()

            a, b = feats(obs), feats(blanked)
        state = fx.state_dim
        cand = slice(state + row * fx.dim, state + (row + 1) * fx.dim)
        web = fx.text_keys.index("web_text")
        text_part = slice(web * fx.dim, (web + 1) * fx.dim)  # the page's own embedding changes either way
        rest = np.ones(state, dtype=bool)
        rest[text_part] = False
        assert (not np.allclose(a[cand], b[cand])) == match
        assert (not np.allclose(a[:state][rest], b[:state][rest])) == match
    env.close()


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_candidate_features_of_a_batch_are_each_observations_own():
    """The extractor embeds only the rows up to the batch's last candidate and zero-pads the rest: a batch's
    features are row for row those of each observation alone (a web state with many candidates batched with
    a street state with few)."""
    import torch

    env = nav_env()
    demo = demonstrations(env, [env.unwrapped.tasks.tasks[0].task_id])[0]
    many = max(demo.observations, key=lambda o: int((o["candidates"] > 0).any(1).sum()))
    few = min(demo.observations, key=lambda o: int((o["candidates"] > 0).any(1).sum()))
    model = _model(env)
    policy = model.policy
    with torch.no_grad():
        for p in policy.features_extractor.parameters():
            p.add_(torch.randn_like(p) * 0.1)

        def feats(*obs):
            batch = {k: np.stack([o[k] for o in obs]) for k in obs[0]}
            return policy.features_extractor(policy.obs_to_tensor(batch)[0]).numpy()

        both = feats(many, few)
        assert np.allclose(both[0], feats(many)[0], atol=1e-6) and np.allclose(both[1], feats(few)[0], atol=1e-6)
    assert (few["candidates"] > 0).any(1).sum() < (many["candidates"] > 0).any(1).sum()
    env.close()
