"""Memory of whole browser-mode envs for ``ewa bench``: PSS of the process tree while the oracle plays.

Each env id is measured in a fresh Python process (``python -m embodiedweb.benches.env_memory ENV_ID``),
so one env's leftovers never count for the next. The figure is everything the env costs: this Python
process with its site server, world and tasks, Playwright's node driver and Chromium.

* ``pss_mb``: the highest of the settled readings taken after each oracle episode, once at least
  ``min_steps`` steps were played (a renderer grows until V8's next full GC, so one reading right
  after reset would flatter it).
* ``pss_mb_per_extra_env``: three more envs of the same id made in the same process, each played for
  one episode and kept open, then (reading - reading before them) / 3.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import Any

import gymnasium as gym

import embodiedweb  # noqa: F401 - registers the env ids
from baselines.registry import make_agent
from embodiedweb.benches.memory import process_tree_pss_mb, pss_breakdown_mb, settle
from embodiedweb.evaluate import run_episode

EXTRA_ENVS = 3


def _play(env: Any, task_ids: list[str], min_steps: int) -> tuple[int, list[tuple[float, dict[str, float]]]]:
    steps, readings = 0, []
    for i, tid in enumerate(task_ids):
        run_episode(env, make_agent("oracle", seed=0), tid, seed=i)
        steps += env.unwrapped.steps
        if steps >= min_steps or i == len(task_ids) - 1:
            settle(1)
            parts = pss_breakdown_mb()
            readings.append((sum(parts.values()), {k: round(v, 1) for k, v in parts.items()}))
        if steps >= 2 * min_steps:
            break
    return steps, readings


def measure_env(env_id: str, min_steps: int = 100, extra: bool = True) -> dict[str, Any]:
    """The memory figures of one env id, measured in this process (see the module docstring)."""
    env = gym.make(env_id, web_mode="browser")
    envs = [env]
    try:
        tasks = [t.task_id for t in env.unwrapped.tasks.tasks]
        steps, readings = _play(env, tasks[:40], min_steps)
        peak, parts = max(readings, key=lambda r: r[0])
        out: dict[str, Any] = {"env_id": env_id, "steps": steps, "pss_mb": round(peak, 1), "pss_parts_mb": parts}
        if extra:
            before = readings[-1][0]
            for k in range(EXTRA_ENVS):
                e = gym.make(env_id, web_mode="browser")
                envs.append(e)
                _play(e, tasks[k + 1:k + 2], 0)
            settle(len(envs))
            out["pss_mb_per_extra_env"] = round((process_tree_pss_mb() - before) / EXTRA_ENVS, 1)
        return out
    finally:
        for e in envs:
            e.close()


def measure_env_isolated(env_id: str, min_steps: int = 100, extra: bool = True,
                         timeout_s: float = 600.0) -> dict[str, Any]:
    """:func:`measure_env` in a fresh Python process."""
    cmd = [sys.executable, "-m", "embodiedweb.benches.env_memory", env_id, "--min-steps", str(min_steps)]
    if not extra:
        cmd.append("--no-extra")
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s, check=False)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"memory bench of {env_id} failed: {proc.stderr.strip()[-500:]}")
    return json.loads(lines[-1])


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("env_id")
    p.add_argument("--min-steps", type=int, default=100)
    p.add_argument("--no-extra", action="store_true")
    a = p.parse_args(argv)
    print(json.dumps(measure_env(a.env_id, a.min_steps, extra=not a.no_extra)))


if __name__ == "__main__":
    main()
