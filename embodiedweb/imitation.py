"""Expert demonstrations through the discrete RL interface, and behaviour cloning of a MaskablePPO policy.

* :func:`demonstrations` plays an agent (the oracle: ``baselines.registry.make_agent("oracle")``) on tasks of an env wrapped for RL
  (:func:`embodiedweb.rl.make_rl_env`): each of its text actions is looked up among the candidate actions
  of :class:`~embodiedweb.wrappers.DiscreteActions` and taken *by its index*, so a demonstration is what the
  policy itself could have done: its numeric observation, action mask, index and shaped reward per step.
* :func:`behaviour_clone` fits a ``MaskablePPO`` policy to demonstrations (cross-entropy of the expert's
  index under the masked policy, and the value head regressed on the discounted shaped return), the usual
  warm start before reinforcement learning on tasks too long for random exploration to finish
  (ALFWorld's, MineRL's and VPT's practice).

Only the demonstrations' train tasks are played; evaluation tasks are never seen. :func:`behaviour_clone`
needs the ``rl`` extra.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from embodiedweb.env import clean_action
from embodiedweb.wrappers import canonical_action, find_discrete

__all__ = ["Demonstration", "candidate_index", "demonstrations", "behaviour_clone"]


@dataclass
class Demonstration:
    """One expert episode through the discrete interface: per step the wrapped observation (the policy's
    input), the action mask, the index taken and the shaped reward received; ``metrics`` of the episode's
    end and ``misses`` (expert actions that were not candidates: the episode is then cut there)."""

    task_id: str
    observations: list[dict[str, np.ndarray]] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)
    misses: list[str] = field(default_factory=list)

    @property
    def success(self) -> bool:
        """Whether the episode ended with the task solved and every expert action was a candidate."""
        return bool(self.metrics.get("overall")) and not self.misses

    def returns(self, gamma: float) -> np.ndarray:
        """The discounted return from each step (the value head's target)."""
        out = np.zeros(len(self.rewards), dtype=np.float32)
        acc = 0.0
        for i in range(len(self.rewards) - 1, -1, -1):
            acc = self.rewards[i] + gamma * acc
            out[i] = acc
        return out


def candidate_index(candidates: list[str], action: str) -> int | None:
    """The index of ``action`` among ``candidates`` (compared in canonical form, a ``switch_environment``
    note dropped; the first equal candidate), or None."""
    key = canonical_action(clean_action(action), drop_note=True)
    for i, cand in enumerate(candidates):
        if canonical_action(cand, drop_note=True) == key:
            return i
    return None


def demonstrations(env: Any, task_ids: Iterable[str], agent: Any, seed: int = 0) -> list[Demonstration]:
    """Play ``agent`` (``reset(env, obs, info)`` and ``act(obs, info)`` on the raw text observation, e.g.
    ``baselines.registry.make_agent("oracle")``) on each task of
    ``env`` (a :func:`~embodiedweb.rl.make_rl_env` env: a ``DiscreteActions`` under numeric observations)
    and record what the policy sees and the index of each expert action.

    The agent reads the raw observation under the numeric wrapper; its action is taken by index through the
    wrapper chain, so rewards are the shaped ones the policy will get. An expert action that is not a
    candidate ends the demonstration there (recorded in ``misses``; the suite's oracle has none)."""
    discrete = find_discrete(env)
    if discrete is None:
        raise ValueError("demonstrations need an env with DiscreteActions (embodiedweb.rl.make_rl_env)")
    out = []
    for n, task_id in enumerate(task_ids):
        demo = Demonstration(task_id)
        raw, info = discrete.reset(seed=seed + n, options={"task_id": task_id})
        agent.reset(discrete, raw, info)
        obs = env.observation(raw) if env is not discrete else raw
        done = False
        while not done:
            action = agent.act(raw, info)
            index = candidate_index(info["candidate_actions"], action)
            if index is None:
                demo.misses.append(str(action))
                break
            demo.observations.append(obs)
            demo.masks.append(np.asarray(info["action_mask"], dtype=bool).copy())
            demo.actions.append(index)
            raw, reward, terminated, truncated, info = discrete.step(index)
            obs = env.observation(raw) if env is not discrete else raw
            demo.rewards.append(float(reward))
            done = terminated or truncated
        demo.metrics = dict(info.get("metrics", {}))
        out.append(demo)
    return out


def behaviour_clone(model: Any, demos: list[Demonstration], epochs: int = 20, batch_size: int = 64,
                    learning_rate: float = 1e-3, value_coef: float = 0.5, gamma: float | None = None,
                    seed: int = 0) -> list[dict[str, float]]:
    """Fit ``model.policy`` (a ``MaskablePPO``'s) to the successful demonstrations: minimise
    ``-log pi(expert index | obs, mask) + value_coef * (V(obs) - G)^2`` with ``G`` the discounted shaped
    return (``gamma`` defaults to the model's). Returns one row per epoch (mean loss, accuracy of the
    policy's greedy index on the demonstrations)."""
    import torch as th

    demos = [d for d in demos if d.success and d.actions]
    if not demos:
        raise ValueError("behaviour_clone needs at least one successful demonstration")
    gamma = float(model.gamma if gamma is None else gamma)
    keys = list(demos[0].observations[0])
    obs = {k: np.stack([o[k] for d in demos for o in d.observations]) for k in keys}
    masks = np.stack([m for d in demos for m in d.masks])
    actions = np.array([a for d in demos for a in d.actions], dtype=np.int64)
    returns = np.concatenate([d.returns(gamma) for d in demos])
    policy = model.policy
    policy.set_training_mode(True)
    optimizer = th.optim.Adam(policy.parameters(), lr=learning_rate)
    rng = np.random.default_rng(seed)
    history = []
    for _ in range(epochs):
        order = rng.permutation(len(actions))
        losses, correct = [], 0
        for start in range(0, len(order), batch_size):
            idx = order[start: start + batch_size]
            batch, _ = policy.obs_to_tensor({k: v[idx] for k, v in obs.items()})
            acts = th.as_tensor(actions[idx], device=policy.device)
            values, log_prob, _ = policy.evaluate_actions(batch, acts, action_masks=masks[idx])
            target = th.as_tensor(returns[idx], device=policy.device)
            loss = -log_prob.mean() + value_coef * ((values.flatten() - target) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            losses.append(loss.item())
            with th.no_grad():
                dist = policy.get_distribution(batch, action_masks=masks[idx])
                correct += int((dist.distribution.probs.argmax(-1) == acts).sum())
        history.append({"loss": float(np.mean(losses)), "accuracy": correct / len(actions)})
    policy.set_training_mode(False)
    return history
