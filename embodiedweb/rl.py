"""RL training helpers: the wrapped env in one call, and Gymnasium's vector envs for Stable-Baselines3.

* :func:`make_rl_env` - ``gym.make(id)`` wrapped for RL: reward shaping (:class:`~embodiedweb.wrappers.ShapedReward`),
  a masked ``Discrete(K)`` action space (:class:`~embodiedweb.wrappers.DiscreteActions`) and numeric
  observations (:class:`~embodiedweb.wrappers.TokenObservations`). SB3's ``check_env`` passes on it.
* :func:`rl_wrappers` - the same wrappers as a list for ``gym.make_vec(id, n, wrappers=...)``.
* :func:`make_rl_vec` - ``gym.make_vec`` (``"sync"`` or ``"async"`` with shared memory) of the wrapped env,
  or a :class:`~embodiedweb.vector_pool.PoolVectorEnv` (``"pool"``: several envs per worker process, the
  fast one on few cores), with Gymnasium's same-step autoreset (the convention SB3 expects).
* :class:`~embodiedweb.sb3.SB3VecEnv` (also as ``embodiedweb.rl.SB3VecEnv``) - an SB3 ``VecEnv`` over such a Gymnasium vector env, so SB3 and sb3-contrib
  (``MaskablePPO``: ``action_masks`` come from each env's last ``info["action_mask"]``) train on it.

Stable-Baselines3 is the ``rl`` extra (``pip install "embodiedweb[rl]"``; install PyTorch's CPU build
first when there is no GPU: ``make torch-cpu``). Only ``SB3VecEnv`` needs it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym

from embodiedweb.wrappers import (
    DEFAULT_MAX_ACTIONS,
    DiscreteActions,
    ShapedReward,
    TokenObservations,
    unbatch_info,
)

__all__ = ["make_rl_env", "rl_wrappers", "make_rl_vec", "unbatch_info"]


def __getattr__(name: str) -> Any:
    if name == "SB3VecEnv":  # needs the rl extra: imported on first use
        from embodiedweb.sb3 import SB3VecEnv

        return SB3VecEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def rl_wrappers(reward: str = "progress", gamma: float = 0.99, max_actions: int = DEFAULT_MAX_ACTIONS,
                encoding: str = "bow", bonus: float = 0.5, **token_kwargs: Any) -> list[Callable[[gym.Env], gym.Env]]:
    """The RL wrappers, innermost first: :class:`ShapedReward` (``reward``: ``sparse``, ``progress``,
    ``subgoal`` or ``distance``), :class:`DiscreteActions` (``max_actions``), :class:`TokenObservations` (``encoding``:
    ``bow`` for MLP policies, ``ids`` for sequence models; other keyword arguments go to it)."""
    return [
        lambda env: ShapedReward(env, mode=reward, gamma=gamma, bonus=bonus),
        lambda env: DiscreteActions(env, max_actions=max_actions),
        lambda env: TokenObservations(env, encoding=encoding, **token_kwargs),
    ]


def make_rl_env(env_id: str, *, reward: str = "progress", gamma: float = 0.99,
                max_actions: int = DEFAULT_MAX_ACTIONS, encoding: str = "bow", bonus: float = 0.5,
                token_kwargs: dict[str, Any] | None = None, **make_kwargs: Any) -> gym.Env:
    """``gym.make(env_id, **make_kwargs)`` with :func:`rl_wrappers` over it.

    ``make_kwargs`` are the env's own options (``split="train"``, ``curriculum=0``, ``web_mode`` ...).

    Example:
        >>> from embodiedweb.rl import make_rl_env
        >>> env = make_rl_env("EWA-Navigation-v0", split="train")
        >>> obs, info = env.reset(seed=0)
        >>> env.action_space, info["action_mask"].sum() > 0
        (Discrete(512), True)
    """
    env = gym.make(env_id, **make_kwargs)
    for wrap in rl_wrappers(reward, gamma, max_actions, encoding, bonus, **(token_kwargs or {})):
        env = wrap(env)
    return env


def make_rl_vec(env_id: str, num_envs: int, vectorization_mode: str = "sync", *, reward: str = "progress",
                gamma: float = 0.99, max_actions: int = DEFAULT_MAX_ACTIONS, encoding: str = "bow",
                bonus: float = 0.5, token_kwargs: dict[str, Any] | None = None, num_workers: int | None = None,
                **make_kwargs: Any) -> gym.vector.VectorEnv:
    """``gym.make_vec`` of the wrapped env (``"sync"``; ``"async"``: one process per env, observations
    through shared memory; ``"pool"``: ``num_envs`` envs in ``num_workers`` processes, default one per
    core, see :class:`~embodiedweb.vector_pool.PoolVectorEnv`), with same-step autoreset: a step that ends
    an episode returns the next episode's first observation and puts the last one in ``info["final_obs"]``."""
    if vectorization_mode not in ("sync", "async", "pool"):
        raise ValueError(f"vectorization_mode must be 'sync', 'async' or 'pool', got {vectorization_mode!r}")
    if num_workers is not None and vectorization_mode != "pool":
        raise ValueError("num_workers is for vectorization_mode='pool'")
    wrappers = rl_wrappers(reward, gamma, max_actions, encoding, bonus, **(token_kwargs or {}))
    vector_kwargs = {"autoreset_mode": gym.vector.AutoresetMode.SAME_STEP}
    if vectorization_mode == "pool":
        from embodiedweb.vector_pool import make_pool_vec

        return make_pool_vec(env_id, num_envs, num_workers, wrappers=wrappers, vector_kwargs=vector_kwargs,
                             **make_kwargs)
    return gym.make_vec(env_id, num_envs, vectorization_mode=vectorization_mode, vector_kwargs=vector_kwargs,
                        wrappers=wrappers, **make_kwargs)
