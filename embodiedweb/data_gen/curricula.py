"""Difficulty records of every task (``data/curricula/<domain>.json``) for the curricula.

For each registered env and each task, the domain's oracle plays the task once through the public action
interface (``gym.make(id)``, text mode, seed 0) and the record keeps what the oracle needed (steps,
switches, web and world actions) together with the task's own measures (route length, checkpoints,
recipe steps, geolocation's cues); :func:`embodiedweb.curricula.assign_levels` then adds the score and the level. The output is
deterministic (sorted keys, fixed seed): a rerun writes the same bytes. Regenerate after any change to
tasks, worlds, sites or oracles::

    python -m embodiedweb.data_gen.curricula            # all envs
    python -m embodiedweb.data_gen.curricula --check    # compare with the shipped files, write nothing
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from embodiedweb.curricula import FORMAT_VERSION, action_kind, assign_levels, difficulty_path

#: the seed of the oracle's run (the oracles and the tasks' worlds do not depend on it, but it is fixed)
SEED = 0


def oracle_run(env: Any, task: Any, seed: int = SEED) -> dict[str, Any]:
    """The oracle's play of ``task`` in ``env`` (a ``gym.make`` env): counts of its actions by kind, and
    whether it succeeded."""
    base = env.unwrapped
    obs, info = env.reset(seed=seed, options={"task_id": task.task_id})
    agent = base.domain.oracle(task)
    agent.reset(env, obs, info)
    kinds = {"web": 0, "world": 0, "switch": 0}
    done = False
    n = 0
    while not done:
        action = agent.act(obs, info)
        kind = action_kind(base, action)
        if kind in kinds:
            kinds[kind] += 1
        obs, _, term, trunc, info = env.step(action)
        n += 1
        done = term or trunc
    m = info["metrics"]
    return {"oracle_steps": n, "oracle_switches": kinds["switch"], "oracle_web_steps": kinds["web"],
            "oracle_world_steps": kinds["world"], "oracle_success": bool(m["overall"])}


def task_record(env: Any, task: Any) -> dict[str, Any]:
    """Measures, oracle counts and split of one task (without score and level)."""
    return {"split": task.split, **env.unwrapped.domain.task_measures(task), **oracle_run(env, task)}


def generate_env(env_id: str, task_ids: list[str] | None = None) -> tuple[str, dict[str, dict[str, Any]]]:
    """(domain name, records by task id) of ``env_id``: all tasks, or only ``task_ids`` (no levels then)."""
    import gymnasium as gym

    import embodiedweb  # noqa: F401 - registers the envs

    env = gym.make(env_id, record_trace=False)
    try:
        base = env.unwrapped
        tasks = base.tasks.tasks if task_ids is None else [base.tasks.get(t) for t in task_ids]
        return base.domain.name, {t.task_id: task_record(env, t) for t in tasks}
    finally:
        env.close()


def render(env_id: str, domain: str, records: dict[str, dict[str, Any]]) -> str:
    """The file's text: records with levels (scored on the env's domain's measures), sorted keys, one task a line."""
    from embodiedweb.registration import load_specs

    spec = next(s for s in load_specs() if s.id == env_id)
    leveled = assign_levels(spec.load_domain(), records)
    lines = [f"  {json.dumps(tid)}: {json.dumps(leveled[tid], sort_keys=True)}" for tid in sorted(leveled)]
    head = json.dumps({"domain": domain, "env_id": env_id, "format": FORMAT_VERSION, "seed": SEED}, sort_keys=True)
    return head[:-1] + ', "tasks": {\n' + ",\n".join(lines) + "\n}}\n"


def main(argv: list[str] | None = None) -> int:
    from embodiedweb.registration import registered_ids

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("envs", nargs="*", help="env ids (default: all)")
    p.add_argument("--check", action="store_true", help="compare with the shipped files; write nothing")
    a = p.parse_args(argv)
    stale = 0
    for env_id in a.envs or registered_ids():
        t0 = time.perf_counter()
        domain, records = generate_env(env_id)
        text = render(env_id, domain, records)
        path = difficulty_path(domain)
        failed = sum(not r["oracle_success"] for r in records.values())
        took = time.perf_counter() - t0
        if a.check:
            same = path.exists() and path.read_text(encoding="utf-8") == text
            stale += not same
            print(f"{env_id}: {'up to date' if same else 'STALE'} ({len(records)} tasks, {took:.1f} s)")
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path} ({len(records)} tasks, oracle failed {failed}, {took:.1f} s)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
