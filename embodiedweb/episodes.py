"""One episode and its record: what every way of running an evaluation shares (serial, worker processes,
Ray actors): running an episode, its JSONL record and step files, resuming from a results file, which
tasks are selected, the summary table, and the stop signals. :mod:`embodiedweb.evaluate` runs them;
:mod:`embodiedweb.ray_eval` runs them on Ray."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import gymnasium as gym

from embodiedweb.env import clean_action
from embodiedweb.runs import run_dir, run_id, run_identity
from embodiedweb.versions import __version__

METRIC_KEYS = ("overall", "web", "embodied", "completion")


#: signals that stop a run cleanly (what Ctrl-C, ``timeout`` and batch schedulers send)
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Stopped(KeyboardInterrupt):
    """``ewa eval`` was stopped by SIGTERM or SIGINT. Every episode finished before is in ``out``, so
    the same command resumes; ``finished``: episodes this run completed (when known)."""

    def __init__(self, signum: int, finished: int | None = None) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        self.finished = finished

    @property
    def exit_code(self) -> int:
        """The shell's convention for a process ended by this signal: 143 for SIGTERM, 130 for SIGINT."""
        return 128 + self.signum


class EvalFailed(RuntimeError):
    """A parallel run stopped because a worker died or an episode raised; ``detail``: the worker's traceback."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail


class StopSignals:
    """While a run lasts, SIGTERM and SIGINT stop it: with ``raising`` they raise :class:`Stopped` in the
    main thread, otherwise they are only noted in ``signum`` (the parallel parent polls it, so that a
    record is never half read). Signals someone else handles or ignores (``nohup``, a background job's
    SIGINT) are left alone; the previous handlers come back at the end. Outside the main thread nothing
    is installed (Python runs handlers there only)."""

    def __init__(self, raising: bool = True) -> None:
        self.raising = raising
        self.signum: int | None = None
        self._old: dict[int, Any] = {}

    def _handle(self, signum: int, frame: Any) -> None:
        first = self.signum is None
        if first:
            self.signum = signum
        if first and self.raising:
            raise Stopped(signum)

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            for sig in STOP_SIGNALS:
                default = signal.default_int_handler if sig == signal.SIGINT else signal.SIG_DFL
                if signal.getsignal(sig) is default:
                    self._old[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc: Any) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)


def episode_key(rec: dict[str, Any]) -> tuple[str, str, str]:
    """(env, task, run id): an episode of one run (records without a run id: the run ``agent:<name>``)."""
    return rec["env_id"], rec["task_id"], run_id(rec)


def is_error(rec: dict[str, Any]) -> bool:
    """The episode ended by an agent or endpoint exception (not a failure of the agent at the task)."""
    return rec.get("status") == "error"


def load_done(path: Path | None) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Records already in ``path`` (so a killed run resumes without repeating episodes)."""
    done: dict[tuple[str, str, str], dict[str, Any]] = {}
    if path is None or not path.exists():
        return done
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                rec = json.loads(line)
                done[episode_key(rec)] = rec
            except (json.JSONDecodeError, KeyError):
                continue  # a line cut by a kill: that episode runs again
    return done


def versions_of(env: Any) -> dict[str, str]:
    """The versions every result record carries: the package's and the env's suite version."""
    return {"package_version": __version__, "suite_version": env.unwrapped.suite_version}


def is_done(done: dict[tuple[str, str, str], dict[str, Any]], key: tuple[str, str, str], suite: str,
            retry_errors: bool = False) -> bool:
    """An episode counts as done only when a record of the same run (``key`` holds the run id) was
    measured on the same suite version: a rerun after the tasks, world or rules changed measures it
    again (the new line wins in ``ewa report``). With ``retry_errors`` an episode that ended in an
    error runs again too."""
    rec = done.get(key)
    return rec is not None and rec.get("suite_version") == suite and not (retry_errors and is_error(rec))


def step_view(step: int, action: str | None, obs: dict[str, Any], trace_record: dict[str, Any] | None,
              thumb: int = 160) -> dict[str, Any]:
    """What the trajectory viewer shows for one step: action, error, the active domain's text, thumbnails."""
    text = obs["web_text"] if obs["active"] == "web" else obs["embodied_text"]
    view: dict[str, Any] = {"step": step, "action": action, "active": obs["active"], "web_url": obs["web_url"],
                            "error": obs["last_action_error"], "message": obs.get("message", ""),
                            "text": text[:6000], "changes": (trace_record or {}).get("changes", {})}
    for key in ("web_screenshot", "embodied_image"):
        if key in obs:
            view[key] = _thumbnail(obs[key], thumb)
    return view


def _thumbnail(img: Any, width: int) -> str:
    import base64
    import io

    from PIL import Image

    im = Image.fromarray(img)
    im.thumbnail((width, width * 2))
    buf = io.BytesIO()
    im.save(buf, format="PNG", optimize=True)
    return base64.b64encode(buf.getvalue()).decode()


def write_steps(steps_path: Path, views: list[dict[str, Any]], trace: list[dict[str, Any]]) -> None:
    """Write an episode's step views (``<task>.jsonl``) and semantic trace (``<task>.trace.jsonl``)."""
    steps_path.parent.mkdir(parents=True, exist_ok=True)
    with open(steps_path, "w", encoding="utf-8") as f:
        for v in views:
            f.write(json.dumps(v, ensure_ascii=False) + "\n")
    with open(steps_path.with_suffix(".trace.jsonl"), "w", encoding="utf-8") as f:
        for r in trace:
            f.write(json.dumps(r, ensure_ascii=False, sort_keys=True, default=str) + "\n")


def run_episode(env: Any, agent: Any, task_id: str, seed: int, max_wall_s: float = 600.0,
                steps_path: Path | None = None, run: dict[str, Any] | None = None) -> dict[str, Any]:
    """One episode of ``agent`` on ``task_id``; returns the per-episode record.

    ``run``: the run identity (:func:`embodiedweb.runs.run_identity`; default: the agent's, in the env's
    web mode). An exception from the agent ends the episode with ``status: "error"`` and ``error``
    (its text); otherwise ``status`` is ``"ok"``. With ``steps_path`` every step's :func:`step_view`
    is written there as JSONL (for ``ewa report``), with the agent's side of the step under ``agent``
    when it has one (:func:`agent_step_info`).
    """
    t0 = time.perf_counter()
    obs, info = env.reset(seed=seed, options={"task_id": task_id})
    agent.reset(env, obs, info)
    views: list[dict[str, Any]] = []
    if steps_path is not None:
        views.append(step_view(0, None, obs, None))
    terminated = truncated = False
    metrics: dict[str, Any] = {}
    n = 0
    while not (terminated or truncated):
        try:
            action = clean_action(agent.act(obs, info))  # as the env records it (no lone surrogates)
        except Exception as e:  # an agent bug ends its episode, not the run
            action = "stop"
            metrics["agent_error"] = f"{type(e).__name__}: {e}"
        obs, _, terminated, truncated, info = env.step(action)
        n += 1
        if steps_path is not None:
            views.append(step_view(n, action, obs, env.unwrapped.trace.records[-1]))
            if "agent_error" not in metrics:
                side = agent_step_info(agent)
                if side:
                    views[-1]["agent"] = side
        if time.perf_counter() - t0 > max_wall_s and not (terminated or truncated):
            obs, _, terminated, truncated, info = env.step("stop")
    metrics = {**info.get("metrics", {}), **metrics}
    base = env.unwrapped
    if steps_path is not None:
        write_steps(steps_path, views, base.trace.records)
    if run is None:
        run = run_identity(agent, web_mode=base.web_mode)
    status = {"status": "error", "error": metrics["agent_error"]} if "agent_error" in metrics else {"status": "ok"}
    return {"env_id": base.env_id, "task_id": task_id, "agent": agent.name, **run, **status, "seed": seed,
            **versions_of(base),
            "web_mode": base.web_mode, "split": base.task.split, "level": getattr(base, "level", "standard"),
            "metrics": metrics,
            "steps": metrics.get("steps", n), "trace_digest": base.trace_digest(),
            "duration_s": round(time.perf_counter() - t0, 4), **_episode_extra(agent)}


def agent_step_info(agent: Any) -> dict[str, Any]:
    """The agent's side of the step it just took (``last_step_info()``, see
    :class:`embodiedweb.agents.base.AgentProtocol`), made JSON-safe; empty when the agent has no such hook."""
    hook = getattr(agent, "last_step_info", None)
    info = hook() if callable(hook) else None
    if not isinstance(info, dict) or not info:
        return {}
    return json.loads(json.dumps(info, ensure_ascii=False, default=str))


def _episode_extra(agent: Any) -> dict[str, Any]:
    hook = getattr(agent, "episode_record", None)
    extra = hook() if callable(hook) else None
    return extra if isinstance(extra, dict) else {}


def close_agent(agent: Any) -> None:
    """``agent.close()`` when it has one (plug-ins may hold clients or processes)."""
    if callable(getattr(agent, "close", None)):
        agent.close()


def select_tasks(env: Any, limit: int | None, split: str | None, subset: str | None = None, seed: int = 0) -> list[str]:
    """The task ids an evaluation of ``env`` runs (:func:`embodiedweb.sampling.select`): the ``split``
    (``all``/None: every split), the named ``subset``, and ``limit`` as a seeded sample spread over the
    env's strata, in file order."""
    from embodiedweb.sampling import select

    base = env.unwrapped
    return select(base.domain, base.tasks.tasks, split=split, limit=limit, subset_name=subset, seed=seed)


def summarize(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per env: episodes, episodes that ended in an error (``errors``, not in ``episodes``) and the mean
    of each metric over the other episodes (rates in 0..1; None when every episode is an error)."""
    out: dict[str, dict[str, Any]] = {}
    for r in records:
        s = out.setdefault(r["env_id"], {"episodes": 0, "errors": 0, **{k: 0.0 for k in METRIC_KEYS}})
        if is_error(r):
            s["errors"] += 1
            continue
        s["episodes"] += 1
        for k in METRIC_KEYS:
            s[k] += float(r["metrics"].get(k, 0.0))
    for s in out.values():
        for k in METRIC_KEYS:
            s[k] = round(s[k] / s["episodes"], 4) if s["episodes"] else None  # only errors: no rate
    return out


def steps_path_for(out: Path | None, env_id: str, rdir: str, task_id: str) -> Path | None:
    """``<out stem>.steps/<env_id>/<rdir>/<task_id>.jsonl``; ``rdir``: :func:`embodiedweb.runs.run_dir`."""
    return (out.parent / f"{out.stem}.steps" / env_id / rdir / f"{task_id}.jsonl") if out else None


def open_append(path: Path) -> Any:
    """``path`` opened for appending; a last line cut by a kill is ended first, so that the next
    record starts on its own line (the cut line is skipped by :func:`load_done`)."""
    if path.exists() and path.stat().st_size:
        with open(path, "rb") as f:
            f.seek(-1, 2)
            cut = f.read(1) != b"\n"
        if cut:
            with open(path, "a", encoding="utf-8") as f:
                f.write("\n")
    return open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by the caller


def plan_jobs(env_ids: list[str], *, limit: int | None, split: str | None, out: Path | None, seed: int,
              env_kwargs: dict[str, Any] | None, save_steps: bool, run: dict[str, Any], retry_errors: bool,
              done: dict[tuple[str, str, str], dict[str, Any]]) -> tuple[dict[tuple[str, str, str], int], list[tuple[str, str, int, str | None]]]:
    """(task order of every selected episode, the episodes still to run): as the parallel path lists them."""
    rdir = run_dir(run["run_settings"]["agent"], run["run_id"])
    order: dict[tuple[str, str, str], int] = {}
    jobs: list[tuple[str, str, int, str | None]] = []
    for env_id in env_ids:
        env = gym.make(env_id, web_mode="text", **{k: v for k, v in (env_kwargs or {}).items()
                                                    if k not in ("render_images",)})
        ids = select_tasks(env, limit, split, run.get("selection", {}).get("subset"), seed)
        suite = env.unwrapped.suite_version
        env.close()
        for i, task_id in enumerate(ids):
            key = (env_id, task_id, run["run_id"])
            order[key] = len(order)
            if not is_done(done, key, suite, retry_errors):
                steps = steps_path_for(out, env_id, rdir, task_id) if save_steps else None
                jobs.append((env_id, task_id, seed * 100_003 + i, str(steps) if steps else None))
    return order, jobs


def rewrite_sorted(out: Path, keys: set[tuple[str, str, str]], order: dict[tuple[str, str, str], int]) -> None:
    """Rewrite ``out``: earlier lines as they were (cut lines dropped), then the records of ``keys``
    in task order; via a temporary file and an atomic rename, so a kill leaves either file whole."""

    keep: list[str] = []
    mine: dict[tuple[str, str, str], str] = {}
    with open(out, encoding="utf-8") as f:
        for line in f:
            try:
                key = episode_key(json.loads(line))
            except (json.JSONDecodeError, KeyError, TypeError):
                continue
            if key in keys:
                mine[key] = line if line.endswith("\n") else line + "\n"
            else:
                keep.append(line if line.endswith("\n") else line + "\n")
    tmp = out.with_name(out.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.writelines(keep)
        f.writelines(mine[k] for k in sorted(mine, key=lambda k: order.get(k, len(order))))
    os.replace(tmp, out)


def print_table(summary: dict[str, dict[str, Any]], title: str = "Results", stderr: bool = False) -> None:
    """Print a summary (env -> rates) as a rich table, to stdout or ``stderr``."""
    from rich.console import Console
    from rich.table import Table

    t = Table(title=title, caption="errors: episodes ended by an agent or endpoint error, not in the other columns")
    for col in ("env", "episodes", "errors", "overall %", "web %", "embodied %", "completion %"):
        t.add_column(col, justify="right" if col != "env" else "left")
    for env_id, s in summary.items():
        t.add_row(env_id, str(s["episodes"]), str(s.get("errors", 0)), *("–" if s[k] is None else f"{100 * s[k]:.1f}" for k in METRIC_KEYS))
    Console(stderr=stderr).print(t)
