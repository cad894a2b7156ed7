"""Train sb3-contrib's MaskablePPO on an EmbodiedWeb env and plot its learning curve against random play.

The env is wrapped for RL (:func:`embodiedweb.rl.make_rl_env`: shaped reward, masked discrete actions over
the candidate actions, hashed bag-of-words observations) and vectorised with Gymnasium's ``make_vec``
(:func:`embodiedweb.rl.make_rl_vec`, sync, async or pool) behind :class:`embodiedweb.sb3.SB3VecEnv`. Training
uses the ``train`` tasks; every ``--eval-every`` steps the greedy policy plays the held-back ``test`` tasks
of the same curriculum level, and a masked uniform-random policy plays the same tasks once as the baseline.

    python examples/train_maskable_ppo.py --env EWA-Navigation-v0 --curriculum 0 --timesteps 50000

``--bc level|all`` first behaviour-clones the oracle's demonstrations on the train tasks (of the level, or of
every level) through the same discrete actions (:mod:`embodiedweb.imitation`), then PPO fine-tunes: the
usual warm start when an episode is too long for random exploration ever to finish it.

Writes ``<out>/curve.jsonl`` (one line per evaluation), ``<out>/summary.json`` and ``<out>/curve.png``
(with matplotlib). Needs the ``rl`` extra (``make torch-cpu && pip install -e ".[rl]"``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

import embodiedweb  # noqa: F401  (registers the ids)
from embodiedweb.rl import make_rl_env, make_rl_vec


def play(env: Any, task_ids: list[str], policy: Any, seed: int = 0) -> dict[str, float]:
    """Success rate and mean completion of ``policy(obs, mask) -> action`` on ``task_ids`` (one episode each)."""
    wins, completion, steps = 0, 0.0, 0
    for n, task_id in enumerate(task_ids):
        obs, info = env.reset(seed=seed + n, options={"task_id": task_id})
        done = False
        while not done:
            obs, _r, terminated, truncated, info = env.step(policy(obs, env.get_wrapper_attr("action_masks")()))
            done = terminated or truncated
            steps += 1
        metrics = info.get("metrics", {})
        wins += bool(metrics.get("skill_success", metrics.get("overall", False)))  # a skill variant's own success
        completion += float(metrics.get("completion", 0.0))
    k = max(1, len(task_ids))
    return {"success": wins / k, "completion": completion / k, "steps": steps / k, "episodes": len(task_ids)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--env", default="EWA-Navigation-v0")
    ap.add_argument("--curriculum", type=int, default=None, help="curriculum level (0 = easiest); all tasks if unset")
    ap.add_argument("--skill", choices=["web", "embodied"], default=None, help="a single-domain skill variant")
    ap.add_argument("--reward", choices=["sparse", "progress", "subgoal", "distance"], default="progress")
    ap.add_argument("--timesteps", type=int, default=20_000)
    ap.add_argument("--n-envs", type=int, default=2)
    ap.add_argument("--vec", choices=["sync", "async", "pool"], default="async")
    ap.add_argument("--n-steps", type=int, default=256, help="PPO rollout length per env")
    ap.add_argument("--max-actions", type=int, default=512)
    ap.add_argument("--max-steps", type=int, default=None, help="episode step limit (the spec's if unset)")
    ap.add_argument("--eval-every", type=int, default=5_000)
    ap.add_argument("--eval-tasks", type=int, default=50, help="test tasks evaluated (all of the level if fewer)")
    ap.add_argument("--policy", choices=["candidate", "mlp"], default="candidate",
                    help="candidate: score each candidate action by its text (token ids); mlp: bag-of-words MLP over indices")
    ap.add_argument("--no-context", action="store_true",
                    help="candidate policy: score the candidate's own tokens only, not the observation line its "
                         "argument names (TokenObservations' candidate_context)")
    ap.add_argument("--eval-sampled", action="store_true",
                    help="also evaluate the policy sampling its actions (not only greedy)")
    ap.add_argument("--bc", choices=["none", "level", "all"], default="none",
                    help="warm start: behaviour-clone the oracle's demonstrations (through the discrete actions) on "
                         "the train tasks of the curriculum level ('level') or of every level ('all') before PPO")
    ap.add_argument("--bc-epochs", type=int, default=8)
    ap.add_argument("--bc-tasks", type=int, default=None, help="demonstrations of the first N train tasks only")
    ap.add_argument("--learning-rate", type=float, default=3e-4)
    ap.add_argument("--ent-coef", type=float, default=0.01)
    ap.add_argument("--n-epochs", type=int, default=10, help="PPO epochs per rollout")
    ap.add_argument("--clip-range", type=float, default=0.2)
    ap.add_argument("--target-kl", type=float, default=None,
                    help="stop a rollout's PPO epochs once the policy moved this far (KL) from the one that acted")
    ap.add_argument("--max-minutes", type=float, default=None, help="stop training after this wall time")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="results/rl")
    args = ap.parse_args(argv)

    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import VecMonitor

    from embodiedweb.sb3 import SB3VecEnv

    options: dict[str, Any] = {}
    if args.curriculum is not None:
        options["curriculum"] = args.curriculum
    if args.skill:
        options["skill"] = args.skill
    if args.max_steps:
        options["max_steps"] = args.max_steps
    wrap: dict[str, Any] = {"reward": args.reward, "max_actions": args.max_actions}
    if args.policy == "candidate":
        wrap.update(encoding="ids", token_kwargs={"candidates": True, "candidate_context": not args.no_context})
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    venv = VecMonitor(SB3VecEnv(make_rl_vec(args.env, args.n_envs, args.vec, split="train", **wrap, **options)))
    eval_env = make_rl_env(args.env, split="test", **wrap, **options)
    test_ids = [t.task_id for t in eval_env.unwrapped.tasks.tasks]
    rng = np.random.default_rng(args.seed)
    test_ids = sorted(rng.choice(test_ids, size=min(args.eval_tasks, len(test_ids)), replace=False).tolist())

    def random_policy(_obs: Any, mask: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    random_score = play(eval_env, test_ids, random_policy, seed=args.seed)
    from embodiedweb.sb3 import CandidatePolicy, candidate_policy_kwargs

    policy: Any = (CandidatePolicy, candidate_policy_kwargs()) if args.policy == "candidate" else ("MultiInputPolicy", None)
    model = MaskablePPO(policy[0], venv, n_steps=args.n_steps, batch_size=min(256, args.n_steps * args.n_envs),
                        gamma=0.99, ent_coef=args.ent_coef, learning_rate=args.learning_rate, seed=args.seed,
                        n_epochs=args.n_epochs, clip_range=args.clip_range, target_kl=args.target_kl,
                        verbose=0, policy_kwargs=policy[1])
    curve: list[dict[str, Any]] = []
    started = time.time()
    bc: dict[str, Any] = {}
    if args.bc != "none":
        from baselines.registry import make_agent
        from embodiedweb.imitation import behaviour_clone, demonstrations

        # the oracle plays whole episodes (no --max-steps cut), on the level's train tasks or on all of them
        drop = {"max_steps", "curriculum"} if args.bc == "all" else {"max_steps"}
        demo_env = make_rl_env(args.env, split="train", **wrap, **{k: v for k, v in options.items() if k not in drop})
        demo_ids = [t.task_id for t in demo_env.unwrapped.tasks.tasks][: args.bc_tasks]
        demos = demonstrations(demo_env, demo_ids, make_agent("oracle"), seed=args.seed)
        history = behaviour_clone(model, demos, epochs=args.bc_epochs, seed=args.seed)
        bc = {"tasks": len(demos), "steps": sum(len(d.actions) for d in demos), "epochs": args.bc_epochs,
              "train_accuracy": round(history[-1]["accuracy"], 4), "seconds": round(time.time() - started, 1)}
        print(json.dumps({"behaviour_cloning": bc}), flush=True)
        demo_env.close()

    def evaluate() -> None:
        def greedy(obs: Any, mask: np.ndarray) -> int:
            return int(model.predict(obs, action_masks=mask, deterministic=True)[0])

        def sampled(obs: Any, mask: np.ndarray) -> int:
            return int(model.predict(obs, action_masks=mask, deterministic=False)[0])

        score = play(eval_env, test_ids, greedy, seed=args.seed)
        row = {"timesteps": model.num_timesteps, "seconds": round(time.time() - started, 1), **score,
               "random_success": random_score["success"], "random_completion": random_score["completion"]}
        if args.eval_sampled:  # the policy's own distribution (a greedy policy can loop where sampling does not)
            s = play(eval_env, test_ids, sampled, seed=args.seed)
            row.update(sampled_success=s["success"], sampled_completion=s["completion"], sampled_steps=s["steps"])
        infos = list(model.ep_info_buffer or [])
        if infos:  # the training episodes lately finished (VecMonitor): return and length
            row.update(train_return=round(float(np.mean([e["r"] for e in infos])), 3),
                       train_length=round(float(np.mean([e["l"] for e in infos])), 1))
        curve.append(row)
        with open(out / "curve.jsonl", "a") as f:
            f.write(json.dumps(row) + "\n")
        print(json.dumps(row), flush=True)

    class EvalEvery(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.next = args.eval_every

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next:
                self.next += args.eval_every
                evaluate()
            return args.max_minutes is None or time.time() - started < 60 * args.max_minutes

    (out / "curve.jsonl").write_text("")
    evaluate()
    model.learn(args.timesteps, callback=EvalEvery())
    if not curve or curve[-1]["timesteps"] != model.num_timesteps:
        evaluate()
    venv.close()
    summary = {"env": args.env, "curriculum": args.curriculum, "skill": args.skill, "reward": args.reward,
               "policy": args.policy, "n_envs": args.n_envs, "vec": args.vec,
               "timesteps": model.num_timesteps, "test_tasks": len(test_ids), "behaviour_cloning": bc,
               "final": curve[-1], "best": max(curve, key=lambda r: r["success"]), "random": random_score,
               "seconds": round(time.time() - started, 1), "args": vars(args)}
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    model.save(out / "model.zip")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6, 3.5))
        label = "MaskablePPO (greedy)" + (", oracle-cloned at 0" if bc else "")
        ax.plot([r["timesteps"] for r in curve], [r["success"] for r in curve], marker="o", label=label)
        ax.plot([r["timesteps"] for r in curve], [r["completion"] for r in curve], ls="--", label="PPO completion")
        ax.axhline(random_score["success"], color="grey", ls=":", label="random (masked)")
        ax.set_xlabel("environment steps")
        ax.set_ylabel(f"test success ({len(test_ids)} tasks)")
        ax.set_ylim(-0.02, 1.02)
        ax.set_title(f"{args.env}" + (f", level {args.curriculum}" if args.curriculum is not None else "")
                     + (f", skill {args.skill}" if args.skill else ""))
        ax.legend(loc="best", fontsize=8)
        fig.tight_layout()
        fig.savefig(out / "curve.png", dpi=110)
    except ImportError:
        pass
    print(json.dumps(summary["final"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
