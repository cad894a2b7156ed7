"""``ewa eval --ray [ADDRESS]``: episodes run in Ray actors (issue 15 item 7).

Same bookkeeping as the parallel path of :mod:`embodiedweb.evaluate`: the driver lists the tasks (same
order, same seed ``seed * 100_003 + i`` for the ``i``-th selected task of an env), skips the episodes of
this run already in ``out`` (:func:`~embodiedweb.evaluate.is_done`, ``retry_errors``), appends every
record to ``out`` and flushes it as it arrives, and at the end rewrites this run's records after the
earlier lines in task order. An agent or endpoint exception is a ``status: "error"`` record (as in
:func:`~embodiedweb.evaluate.run_episode`); an episode whose env raises, or an actor that dies, stops the
run with :class:`~embodiedweb.evaluate.EvalFailed`; SIGTERM or SIGINT stop it with
:class:`~embodiedweb.evaluate.Stopped`. Either way the actors are killed (``ray.kill``) and the records
already finished are kept, so the same command resumes.

Each actor builds its own agent and, lazily, one env per env id (from the id and the env kwargs; envs are
never shipped). The driver keeps :data:`IN_FLIGHT` episodes queued per actor and hands the next episode
to whichever actor finishes first; the results do not depend on which actor ran an episode.

Without an address a new local Ray instance is started (``ray.init(address="local")``, even when a cluster
started by ``ray start`` runs on this machine; ``num_cpus`` = ``--workers`` when more than 1) and shut down
at the end; with one (``auto``, ``HOST:PORT``, ``ray://HOST:PORT``) the driver
connects to that cluster, whose nodes need the same ``embodiedweb`` installed. A Ray already initialized
in this process (a notebook, a test) is used as it is. Actors: ``--workers`` when more than 1, else the
cluster's CPUs; never more than the cluster's CPUs (an actor holds one) or the episodes to run. A cluster
that cannot be started or reached is an :class:`~embodiedweb.evaluate.EvalFailed`. Step files (``--save-steps``) are written on the
actor's node in a temporary folder and sent back with the record, so they land beside ``out`` on the
driver's machine even on a remote cluster.
"""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import tempfile
from pathlib import Path
from typing import Any

import gymnasium as gym

from embodiedweb.episodes import (
    STOP_SIGNALS,
    EvalFailed,
    Stopped,
    StopSignals,
    close_agent,
    episode_key,
    load_done,
    open_append,
    plan_jobs,
    rewrite_sorted,
    run_episode,
    summarize,
)
from embodiedweb.extras import require

#: episodes queued per actor (one running, the next ready, so an actor never waits for the driver)
IN_FLIGHT = 2
#: object store of a local Ray instance started here (records are small; Ray's minimum is 75 MB)
LOCAL_OBJECT_STORE_BYTES = 128 * 2**20

Job = tuple[str, str, int, str | None]  # env id, task id, episode seed, steps path (or None)


class EpisodeActor:
    """One Ray actor: its own agent and one env per env id, built from the id and ``config``."""

    def __init__(self, config: dict[str, Any]) -> None:
        import embodiedweb  # noqa: F401 - registers the env ids in the actor's process
        from baselines.registry import make_agent

        self.config = config
        self.envs: dict[str, Any] = {}
        self.agent = make_agent(config["agent_name"], seed=config["seed"], **config["agent_kwargs"])

    def run(self, env_id: str, task_id: str, ep_seed: int, with_steps: bool) -> tuple[dict[str, Any], dict[str, str]]:
        """One episode: (its record, its step files by suffix: ``.jsonl`` and ``.trace.jsonl``, when asked)."""
        env = self.envs.get(env_id)
        if env is None:
            env = self.envs[env_id] = gym.make(env_id, web_mode=self.config["web_mode"], **self.config["env_kwargs"])
        if not with_steps:
            return run_episode(env, self.agent, task_id, seed=ep_seed, run=self.config["run"]), {}
        with tempfile.TemporaryDirectory(prefix="ewa-ray-steps-") as tmp:
            path = Path(tmp) / "steps.jsonl"
            rec = run_episode(env, self.agent, task_id, seed=ep_seed, steps_path=path, run=self.config["run"])
            files = {".jsonl": path.read_text(encoding="utf-8"),
                     ".trace.jsonl": path.with_suffix(".trace.jsonl").read_text(encoding="utf-8")}
        return rec, files

    def close(self) -> None:
        """Close every cached env, forget them, and close the agent."""
        for env in self.envs.values():
            env.close()
        self.envs.clear()
        close_agent(self.agent)


def connect(address: str | None, workers: int) -> None:
    """``ray.init``: a local instance (``num_cpus`` = ``workers`` when more than 1), or the cluster at ``address``."""
    import ray

    common = {"log_to_driver": False, "logging_level": logging.WARNING}
    try:
        if address:
            ray.init(address=address, **common)
        else:  # a private instance for this run: no usage report from it unless the user opted in
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
            ray.init(address="local", num_cpus=workers if workers > 1 else None,
                     object_store_memory=LOCAL_OBJECT_STORE_BYTES, include_dashboard=False, **common)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as e:
        where = f"the Ray cluster at {address}" if address else "a local Ray instance"
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise EvalFailed(f"could not start or reach {where}: {first}", str(e)) from None


def evaluate_ray(env_ids: list[str], agent_name: str, *, address: str | None, limit: int | None, split: str | None,
                 web_mode: str, out: Path | None, seed: int, progress: bool, env_kwargs: dict[str, Any] | None,
                 agent_kwargs: dict[str, Any] | None, save_steps: bool, workers: int, run: dict[str, Any],
                 retry_errors: bool) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """:func:`embodiedweb.evaluate.evaluate` on Ray (see the module docstring)."""
    require("ray")
    done = load_done(out)
    order, jobs = plan_jobs(env_ids, limit=limit, split=split, out=out, seed=seed, env_kwargs=env_kwargs,
                            save_steps=save_steps, run=run, retry_errors=retry_errors, done=done)
    new: dict[tuple[str, str, str], dict[str, Any]] = {}
    config = {"agent_name": agent_name, "seed": seed, "web_mode": web_mode, "env_kwargs": env_kwargs or {},
              "agent_kwargs": agent_kwargs or {}, "run": run}
    stopped: Stopped | None = None
    fh = open_append(out) if out and jobs else None

    def keep(rec: dict[str, Any], files: dict[str, str], steps: str | None) -> None:
        if steps and files:
            path = Path(steps)
            path.parent.mkdir(parents=True, exist_ok=True)
            for suffix, text in files.items():
                path.with_suffix(suffix).write_text(text, encoding="utf-8")
        if fh:
            fh.write(json.dumps(rec, sort_keys=True) + "\n")
            fh.flush()
        new[episode_key(rec)] = rec

    with StopSignals(raising=False) as stops:
        try:
            if jobs:
                _run_on_ray(jobs, config, address=address, workers=workers, stops=stops, keep=keep,
                            progress=progress, total=len(order),
                            title=f"{', '.join(env_ids)} · {agent_name} · ray")
        except Stopped as e:
            stopped = e
            raise
        finally:
            if fh:
                fh.close()
            if stopped is not None:
                stopped.finished = len(new)
    if out and new:
        rewrite_sorted(out, set(new), order)
    records = [new.get(k) or done[k] for k in sorted(order, key=order.__getitem__)]
    return summarize(records), records


def _run_on_ray(jobs: list[Job], config: dict[str, Any], *, address: str | None, workers: int, stops: StopSignals,
                keep: Any, progress: bool, total: int, title: str) -> None:
    import ray
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    owned = not ray.is_initialized()  # then this run starts or connects Ray, and shuts it down at the end
    actors: list[Any] = []
    pending: dict[Any, tuple[int, Job]] = {}  # object ref -> (actor index, job)
    try:
        if owned:
            stops.raising = True  # a stop while Ray starts (or retries an unreachable address) ends it at once
            connect(address, workers)
        _take_stop_signals(stops)  # ray.init installs its own SIGTERM handler (sys.exit): ours comes first
        stops.raising = False  # from here on a stop is noted and acted on between two records
        if stops.signum is not None:
            raise Stopped(stops.signum)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        n = max(1, min(workers if workers > 1 else cpus, cpus, len(jobs)))  # an actor holds a CPU
        remote = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(EpisodeActor)
        actors = [remote.remote(config) for _ in range(n)]
        queue = list(reversed(jobs))  # popped from the end: task order

        def submit(a: int) -> None:
            job = queue.pop()
            ref = actors[a].run.remote(job[0], job[1], job[2], job[3] is not None)
            pending[ref] = (a, job)

        for a in range(n):
            for _ in range(IN_FLIGHT):
                if queue:
                    submit(a)
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      disable=not progress, transient=False) as bar:
            job_bar = bar.add_task(f"{title} · {n} actors", total=total)
            bar.advance(job_bar, total - len(jobs))
            while pending:
                if stops.signum is not None:
                    raise Stopped(stops.signum)
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.2)
                for ref in ready:
                    a, job = pending.pop(ref)
                    rec, files = _result(ray, ref, a, job)
                    keep(rec, files, job[3])
                    bar.advance(job_bar)
                    if queue:
                        submit(a)
        for actor in actors:  # a clean end: the actors close their envs (a browser, say)
            try:
                ray.get(actor.close.remote(), timeout=10)
            except Exception:  # noqa: BLE001 - killed below anyway
                pass
    finally:
        stops.raising = False
        _keep_finished(ray, pending, keep)
        for actor in actors:
            ray.kill(actor, no_restart=True)
        if owned and ray.is_initialized():
            ray.shutdown()


def _result(ray: Any, ref: Any, a: int, job: Job) -> tuple[dict[str, Any], dict[str, str]]:
    """The actor's (record, step files), or :class:`EvalFailed` when the episode raised or the actor died."""
    from ray.exceptions import RayActorError, RayTaskError

    try:
        return ray.get(ref)
    except RayActorError as e:
        raise EvalFailed(f"ray actor {a} died during episode {job[0]} {job[1]}", _plain(str(e))) from None
    except RayTaskError as e:
        detail = _plain(str(e))
        last = detail.strip().splitlines()[-1] if detail.strip() else "error"
        raise EvalFailed(f"episode {job[0]} {job[1]} failed in ray actor {a}: {last}", detail) from None


def _plain(text: str) -> str:
    """Ray's error text without its terminal colours."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def _keep_finished(ray: Any, pending: dict[Any, tuple[int, Job]], keep: Any) -> None:
    """On a stop or a failure: keep the records already finished but not yet read, drop the rest."""
    if not pending:
        return
    try:
        ready, _ = ray.wait(list(pending), num_returns=len(pending), timeout=0)
    except Exception:  # noqa: BLE001 - Ray itself is going away
        return
    for ref in ready:
        _, job = pending.pop(ref)
        try:
            rec, files = ray.get(ref, timeout=1)
        except Exception:  # noqa: BLE001 - that episode raised: it runs again next time
            continue
        keep(rec, files, job[3])
    pending.clear()


def _take_stop_signals(stops: StopSignals) -> None:
    """After ``ray.init``: SIGTERM and SIGINT are noted by ``stops`` again where they were stops' before
    (or were Ray's: its driver handler exits at once, which would lose the records in flight)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return
    for sig in STOP_SIGNALS:
        current = signal.getsignal(sig)
        if sig in stops._old and current is not stops._handle:
            signal.signal(sig, stops._handle)
        elif sig not in stops._old and getattr(current, "__qualname__", "").endswith("sigterm_handler"):
            stops._old[sig] = signal.signal(sig, stops._handle)  # Ray's (from ray.init): back at the end
