"""Soak runs for issue 14's targets (``make soak``; not part of ``make test``): figures as JSON.

* ``fuzz``: random action strings (junk, malformed, hostile, admissible) through each env in text mode:
  exceptions (must be 0), how many were answered with an error, RSS growth, actions per second.
* ``browser``: random admissible actions in browser mode: wall time of every step (none may pass the
  watchdog), browser faults met, and the PSS of the whole process tree (Python, Playwright's driver,
  Chromium) sampled along the way.
"""

from __future__ import annotations

import gc
import json
import random
import string
import sys
import time
import traceback
from typing import Any

from rich.progress import Progress

from embodiedweb.actions import REGISTRY

HOSTILE = ["click [", "type [1] [", "]]]][[[", "goto [javascript:alert(1)]", "goto [file:///etc/passwd]",
           "goto [http://169.254.169.254/]", "press [Control+Alt+Delete]", "tab_focus [-1]",
           "type [1] [" + "x" * 20000 + "]", "move [../../etc]", "Teleport [" + "|" * 50 + "]",
           "click [0]", "new_tab", "close_tab", "go_back", "go_forward", "\x00", "switch_environment",
           "stop [caf\ud800]", "type [1] [\udfff]", "x" * 60_000]


def junk(rng: random.Random, n: int) -> str:
    """Up to ``n`` random characters (printable ASCII plus a few non-ASCII ones): a junk action."""
    alphabet = string.printable + "éß中→\u200b\U0001f600"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, n)))


def random_action(rng: random.Random, info: dict[str, Any], stop_rate: float = 0.1) -> str:
    """A random action: a quarter admissible, the rest malformed or hostile (``stop`` kept rare)."""
    r = rng.random()
    if r < 0.25 and info.get("admissible_actions"):
        return rng.choice(info["admissible_actions"])
    if r < 0.6:
        name = rng.choice(list(REGISTRY.specs))
        if name.lower() == "stop" and rng.random() >= stop_rate:
            name = "scroll"
        return name + "".join(f" [{junk(rng, 12)}]" for _ in range(rng.randint(0, 3)))
    if r < 0.8:
        return junk(rng, 40)
    return rng.choice(HOSTILE)


def _rss_mb() -> float:
    gc.collect()
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def fuzz_env(env_id: str, n: int, seed: int = 0, progress: Progress | None = None) -> dict[str, Any]:
    """``n`` random actions through ``env_id`` (text mode), resetting when an episode ends."""
    import gymnasium as gym

    env = gym.make(env_id, max_steps=400)
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    rss0, errors, exceptions, episodes, first = _rss_mb(), 0, 0, 1, None
    job = progress.add_task(f"fuzz {env_id}", total=n) if progress else None
    t0 = time.perf_counter()
    for i in range(n):
        try:
            obs, _, term, trunc, info = env.step(random_action(rng, info))
            errors += bool(obs["last_action_error"])
            if term or trunc:
                obs, info = env.reset(seed=rng.randint(0, 10**6))
                episodes += 1
        except Exception:
            exceptions += 1
            first = first or traceback.format_exc(limit=3)
            obs, info = env.reset(seed=rng.randint(0, 10**6))
        if progress and i % 500 == 0:
            progress.update(job, completed=i)
    dt = time.perf_counter() - t0
    env.close()
    out = {"env_id": env_id, "actions": n, "exceptions": exceptions, "answered_with_error": errors,
           "episodes": episodes, "actions_per_s": round(n / dt), "rss_growth_mb": round(_rss_mb() - rss0, 1)}
    if first:
        out["first_exception"] = first
    return out


def browser_soak(env_id: str, n: int, seed: int = 0, progress: Progress | None = None) -> dict[str, Any]:
    """``n`` random steps in browser mode, mostly admissible actions (the pages really change)."""
    import gymnasium as gym

    from embodiedweb.benches.memory import process_tree_pss_mb
    from embodiedweb.web.browser_driver import WATCHDOG_S

    env = gym.make(env_id, web_mode="browser", max_steps=200)
    watchdog = env.unwrapped.watchdog_s or WATCHDOG_S
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    times, pss, faults, exceptions, slowest = [], [], 0, 0, (0.0, "")
    job = progress.add_task(f"browser {env_id}", total=n) if progress else None
    for i in range(n):
        acts = [a for a in info.get("admissible_actions", []) if not a.startswith(("stop", "switch"))]
        if obs["active"] != "web":
            action = "switch_environment"  # this soak is about the browser
        else:
            action = rng.choice(acts) if acts and rng.random() < 0.9 else random_action(rng, info, stop_rate=0.0)
        t0 = time.perf_counter()
        try:
            obs, _, term, trunc, info = env.step(action)
            faults += "The browser failed" in obs["last_action_error"]
            if term or trunc:
                obs, info = env.reset(seed=rng.randint(0, 10**6))
        except Exception:
            exceptions += 1
            obs, info = env.reset(seed=rng.randint(0, 10**6))
        times.append(time.perf_counter() - t0)
        slowest = max(slowest, (times[-1], action[:80]))
        if i % 250 == 0 or i == n - 1:
            pss.append((round(process_tree_pss_mb(), 1), obs["web_tabs"].count("\n") + 1))
        if progress:
            progress.update(job, completed=i + 1)
    env.close()
    ts = sorted(times)
    return {"env_id": env_id, "steps": n, "exceptions": exceptions, "browser_faults": faults,
            "step_ms_median": round(1e3 * ts[len(ts) // 2], 1), "step_ms_p99": round(1e3 * ts[int(len(ts) * 0.99)], 1),
            "step_ms_max": round(1e3 * ts[-1], 1), "slowest_action": slowest[1], "watchdog_s": watchdog,
            "steps_over_watchdog": sum(t > watchdog for t in times),
            "steps_over_5s": sum(t > 5 for t in times),
            "pss_mb_and_open_tabs": pss, "pss_mb_first": pss[0][0], "pss_mb_max": max(p for p, _ in pss),
            "pss_mb_last": pss[-1][0]}


def main(argv: list[str] | None = None) -> int:
    """The soak command line (``make soak``): run the soaks and print their figures as JSON."""
    import argparse

    import embodiedweb

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--fuzz-actions", type=int, default=100_000, help="random actions per env (0: skip)")
    p.add_argument("--browser-steps", type=int, default=2_000, help="browser-mode steps (0: skip)")
    p.add_argument("--browser-env", default="EWA-Shopping-v0")
    p.add_argument("--env", action="append", help="env ids to fuzz (default: all)")
    a = p.parse_args(argv)
    results: dict[str, Any] = {"fuzz": [], "browser": None}
    with Progress(transient=True, disable=not sys.stderr.isatty()) as bar:
        for env_id in (a.env or embodiedweb.registered_ids()) if a.fuzz_actions else []:
            results["fuzz"].append(fuzz_env(env_id, a.fuzz_actions, progress=bar))
            print(json.dumps(results["fuzz"][-1]), file=sys.stderr)
        if a.browser_steps:
            results["browser"] = browser_soak(a.browser_env, a.browser_steps, progress=bar)
    print(json.dumps(results, indent=1))
    bad = any(r["exceptions"] for r in results["fuzz"]) or (
        results["browser"] is not None and (results["browser"]["exceptions"] or results["browser"]["steps_over_watchdog"]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
