"""Collect rollouts through the pool's asynchronous API (EnvPool's ``async_reset``/``send``/``recv``).

A lock-step vector env waits at every step for its slowest env. Here each ``recv()`` returns whichever
share of envs is ready first, the policy acts on those envs only, and ``send`` hands their actions back
while the other share keeps stepping, the pattern of CleanRL's and Sample Factory's asynchronous rollouts.
Transitions are kept per env (an on-policy learner needs each env's steps in order). The policy here is
uniform over the masked discrete actions of :func:`embodiedweb.rl.rl_wrappers`; put your own in
``policy``.

    python examples/async_rollouts.py --env EWA-Navigation-v0 --envs 32 --steps 20000

Prints the throughput, the episodes finished, their mean return and success rate, as JSON.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

import embodiedweb  # noqa: F401  (registers the ids)
from embodiedweb.rl import rl_wrappers
from embodiedweb.vector_pool import make_pool_vec


def policy(obs: Any, masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per env of the batch: uniform over each env's valid actions."""
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in masks], dtype=np.int64)


def collect(env_id: str, num_envs: int, steps: int, num_workers: int = 2, seed: int = 0,
            **make_kwargs: Any) -> dict[str, Any]:
    """Play ``steps`` env steps in all (at least) through the asynchronous API; per-env transitions."""
    envs = make_pool_vec(env_id, num_envs, num_workers, wrappers=rl_wrappers(),
                         vector_kwargs={"in_process": False}, **make_kwargs)
    rng = np.random.default_rng(seed)
    rollouts: list[list[tuple[int, float, bool]]] = [[] for _ in range(num_envs)]  # (action, reward, done)
    last_action = np.zeros(num_envs, dtype=np.int64)
    # the next result of env i is a reset's, not a transition: its first, and the one after an episode's
    # end (next-step autoreset: the action sent after a final result is ignored and the env resets)
    fresh = np.ones(num_envs, dtype=bool)
    returns, successes, running = [], [], np.zeros(num_envs)
    done_steps = 0
    t0 = time.perf_counter()
    try:
        envs.async_reset(seed=seed)
        while done_steps < steps:
            obs, rewards, terminated, truncated, infos = envs.recv()
            ids = infos["env_id"]
            ended = terminated | truncated
            for k, i in enumerate(ids):
                if not fresh[i]:
                    rollouts[i].append((int(last_action[i]), float(rewards[k]), bool(ended[k])))
                    running[i] += rewards[k]
                    done_steps += 1
                    if ended[k]:
                        returns.append(float(running[i]))
                        successes.append(bool(infos["metrics"]["overall"][k]))
                        running[i] = 0.0
                fresh[i] = ended[k]
            actions = policy(obs, infos["action_mask"], rng)
            last_action[ids] = actions
            envs.send(actions, ids)
        while envs._busy.any():  # the results still in flight, so the pool closes idle
            envs.recv()
    finally:
        envs.close()
    seconds = time.perf_counter() - t0
    return {"env": env_id, "envs": num_envs, "steps": done_steps, "steps_per_s": round(done_steps / seconds, 1),
            "episodes": len(returns), "mean_return": round(float(np.mean(returns)), 4) if returns else None,
            "success_rate": round(float(np.mean(successes)), 4) if successes else None}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", default="EWA-Navigation-v0")
    parser.add_argument("--envs", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--split", default="train")
    parser.add_argument("--max-steps", type=int, default=None, help="the env's step limit (default: its own)")
    args = parser.parse_args(argv)
    kwargs: dict[str, Any] = {"split": args.split}
    if args.max_steps:
        kwargs["max_steps"] = args.max_steps
    summary = collect(args.env, args.envs, args.steps, args.workers, args.seed, **kwargs)
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()
