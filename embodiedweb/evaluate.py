"""Run agents on envs and write one JSONL record per episode plus a summary table."""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import gymnasium as gym

from embodiedweb.episodes import (  # noqa: F401  (re-exported: the public names of evaluation)
    METRIC_KEYS,
    STOP_SIGNALS,
    EvalFailed,
    Stopped,
    StopSignals,
    agent_step_info,
    close_agent,
    episode_key,
    is_done,
    is_error,
    load_done,
    open_append,
    plan_jobs,
    print_table,
    rewrite_sorted,
    run_episode,
    select_tasks,
    step_view,
    steps_path_for,
    summarize,
    versions_of,
    write_steps,
)
from embodiedweb.runs import run_dir, run_identity

#: the old private names, kept for callers
_StopSignals = StopSignals


def evaluate(env_ids: list[str], agent_name: str, *, limit: int | None = None, split: str | None = "test",
             subset: str | None = None, web_mode: str = "text", out: Path | None = None, seed: int = 0, progress: bool = True,
             env_kwargs: dict[str, Any] | None = None, agent_kwargs: dict[str, Any] | None = None,
             save_steps: bool = False, workers: int = 1, retry_errors: bool = False, run_label: str | None = None,
             ray_address: str | None = None) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """Evaluate ``agent_name`` (a built-in name or a plug-in ``module:Class``, see
    :func:`baselines.registry.make_agent`) on ``env_ids``; append records to ``out``; return (summary, records).

    Every record carries the run's identity (:func:`embodiedweb.runs.run_identity`; ``run_label``
    replaces the readable label). Records of the same run already in ``out`` are kept and not run again,
    except, with ``retry_errors``, those that ended in an error.

    With ``workers > 1`` episodes run in that many processes (see :func:`_evaluate_parallel`); an
    episode's seed is ``seed * 100_003 + i`` for the ``i``-th selected task of its env either way, so
    results do not depend on the number of workers.

    With ``ray_address`` (``""``: a local Ray instance) episodes run in Ray actors instead
    (:mod:`embodiedweb.ray_eval`; ``workers > 1``: that many actors, else one per CPU of the cluster).
    """
    from baselines.registry import make_agent

    probe = make_agent(agent_name, seed=seed, **(agent_kwargs or {}))  # a bad plug-in spec fails here, once
    run = run_identity(probe, web_mode=web_mode, env_kwargs=env_kwargs, seed=seed, label=run_label)
    # what was selected (not part of the run id: a record is one episode whatever chose it)
    run["selection"] = {"split": split or "all", "subset": subset, "limit": limit,
                        "curriculum": (env_kwargs or {}).get("curriculum"),
                        "level": (env_kwargs or {}).get("level", "standard")}
    skipped = {e: note for e in env_ids if (note := skip_note(probe, e))}
    close_agent(probe)
    for note in skipped.values():
        print(f"note: {note}", file=sys.stderr)
    env_ids = [e for e in env_ids if e not in skipped]
    summary, records = _evaluate_runs(env_ids, agent_name, ray_address=ray_address, workers=workers, limit=limit,
                                      split=split, web_mode=web_mode, out=out, seed=seed, progress=progress,
                                      env_kwargs=env_kwargs, agent_kwargs=agent_kwargs, save_steps=save_steps,
                                      run=run, retry_errors=retry_errors) if env_ids else ({}, [])
    for e, note in skipped.items():  # in the table and the --json summary: no episodes, no rates, the note
        summary[e] = {"episodes": 0, "errors": 0, **dict.fromkeys(METRIC_KEYS), "skipped": note}
    return summary, records


def skip_note(agent: Any, env_id: str) -> str | None:
    """The agent's reason not to run on ``env_id`` (its optional ``skip_note(env_id)`` hook, e.g. the
    heuristic agent on a domain that declares no heuristic), else ``None``."""
    hook = getattr(agent, "skip_note", None)
    note = hook(env_id) if callable(hook) else None
    return str(note) if note else None


def _evaluate_runs(env_ids: list[str], agent_name: str, *, ray_address: str | None, workers: int, limit: int | None,
                   split: str | None, web_mode: str, out: Path | None, seed: int, progress: bool,
                   env_kwargs: dict[str, Any] | None, agent_kwargs: dict[str, Any] | None, save_steps: bool,
                   run: dict[str, Any], retry_errors: bool) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    kw = {"limit": limit, "split": split, "web_mode": web_mode, "out": out, "seed": seed, "progress": progress,
          "env_kwargs": env_kwargs, "agent_kwargs": agent_kwargs, "save_steps": save_steps, "run": run,
          "retry_errors": retry_errors}
    if ray_address is not None:
        from embodiedweb.ray_eval import evaluate_ray

        return evaluate_ray(env_ids, agent_name, address=ray_address or None, workers=workers, **kw)
    if workers > 1:
        with StopSignals() as stops:
            return _evaluate_parallel(env_ids, agent_name, workers=workers, stops=stops, **kw)
    with StopSignals():
        return _evaluate_serial(env_ids, agent_name, **kw)


def _evaluate_serial(env_ids: list[str], agent_name: str, *, limit: int | None, split: str | None, web_mode: str,
                     out: Path | None, seed: int, progress: bool, env_kwargs: dict[str, Any] | None,
                     agent_kwargs: dict[str, Any] | None, save_steps: bool, run: dict[str, Any], retry_errors: bool
                     ) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from baselines.registry import make_agent

    done = load_done(out)
    records: list[dict[str, Any]] = []
    finished = 0
    fh = open_append(out) if out else None
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      disable=not progress, transient=False) as bar:
            for env_id in env_ids:
                env = gym.make(env_id, web_mode=web_mode, **(env_kwargs or {}))
                agent = make_agent(agent_name, seed=seed, **(agent_kwargs or {}))
                ids = select_tasks(env, limit, split, run["selection"]["subset"], seed)
                job = bar.add_task(f"{env_id} · {agent_name}", total=len(ids))
                rdir = run_dir(agent.name, run["run_id"])
                for i, task_id in enumerate(ids):
                    key = (env_id, task_id, run["run_id"])
                    if is_done(done, key, env.unwrapped.suite_version, retry_errors):
                        records.append(done[key])
                    else:
                        steps_path = steps_path_for(out, env_id, rdir, task_id) if save_steps else None
                        rec = run_episode(env, agent, task_id, seed=seed * 100_003 + i, steps_path=steps_path,
                                          run=run)
                        records.append(rec)
                        if fh:
                            fh.write(json.dumps(rec, sort_keys=True) + "\n")
                            fh.flush()
                        finished += 1
                    bar.advance(job)
                env.close()
                close_agent(agent)
    except Stopped as e:
        e.finished = finished
        raise
    finally:
        if fh:
            fh.close()
    return summarize(records), records


# ------------------------------------------------------------------------------------------ parallel
def _worker_main(wid: int, jobs: list[tuple[str, str, int, str | None]], config: dict[str, Any], conn: Any,
                 eval_pid: int) -> None:
    """One worker process: builds its own envs (one per env id) and agent, runs its share of ``jobs`` in
    order and sends ``("ok", wid, key, record)`` per episode (``("error", wid, key, traceback)`` when one
    raises, which ends the worker), then ``("done", wid, None, None)``, through ``conn``: the write end
    of its own pipe, whose read end only the parent holds.

    Stopping is the parent's business: SIGINT (Ctrl-C reaches the whole process group) is ignored;
    SIGTERM (the parent's stop) closes the envs and exits. When the eval process dies, even by SIGKILL,
    the worker ends by itself (:func:`_exit_with_parent`), and a send that nobody reads any more fails
    (the pipe has no reader left) instead of blocking.
    """
    import traceback

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_on_signal)
    _exit_with_parent(eval_pid)

    import embodiedweb  # noqa: F401 - registers the env ids
    from baselines.registry import make_agent

    envs: dict[str, Any] = {}
    agent: Any = None
    try:
        key: tuple[str, str] | None = None
        try:
            agent = make_agent(config["agent_name"], seed=config["seed"], **config["agent_kwargs"])
            for env_id, task_id, ep_seed, steps in jobs:
                key = (env_id, task_id)
                env = envs.get(env_id)
                if env is None:
                    env = envs[env_id] = gym.make(env_id, web_mode=config["web_mode"], **config["env_kwargs"])
                rec = run_episode(env, agent, task_id, seed=ep_seed, steps_path=Path(steps) if steps else None,
                                  run=config["run"])
                conn.send(("ok", wid, key, rec))
        except (BrokenPipeError, ConnectionResetError):
            return  # the parent is gone: nobody reads
        except Exception:  # reported to the parent, which stops the run
            conn.send(("error", wid, key, traceback.format_exc()))
            return
        conn.send(("done", wid, None, None))
    except (BrokenPipeError, ConnectionResetError):
        return
    finally:
        for env in envs.values():
            env.close()
        if agent is not None:
            close_agent(agent)


def _exit_on_signal(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)  # unwinds: the worker's envs (a browser, say) are closed on the way out


def _exit_with_parent(eval_pid: int) -> None:
    """Make this worker end when the eval process ends, even by SIGKILL (which no handler of it sees).

    * Linux: ``prctl(PR_SET_PDEATHSIG, SIGTERM)``, the kernel's SIGTERM when the worker's parent exits. A
      forkserver worker's parent is the forkserver, which exits as soon as the eval process is gone.
    * Everywhere: a thread waits on ``multiprocessing.parent_process().sentinel`` (a pipe the eval
      process holds open, so at EOF once it is gone however it died; ``eval_pid`` is polled where there
      is none), then sends SIGTERM to the worker's main thread, and ``os._exit`` 5 s later if that did
      not end it.
    """
    import multiprocessing as mp
    import sys

    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM))  # 1 = PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    parent = mp.parent_process()
    sentinel = getattr(parent, "sentinel", None)
    if sentinel is None and os.name != "posix":
        return

    def watch() -> None:
        if sentinel is not None:
            from multiprocessing.connection import wait

            while not wait([sentinel]):
                pass
        else:
            while _pid_alive(eval_pid):
                time.sleep(0.5)
        main = threading.main_thread().ident
        if hasattr(signal, "pthread_kill") and main is not None:
            signal.pthread_kill(main, signal.SIGTERM)  # to the main thread: it may be blocked in a read
        else:
            os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5.0)
        os._exit(128 + signal.SIGTERM)

    threading.Thread(target=watch, name="ewa-parent-watch", daemon=True).start()


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a dead parent its own parent has not reaped yet is a zombie: gone for us
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def _mp_context() -> Any:
    import multiprocessing as mp

    methods = mp.get_all_start_methods()
    return mp.get_context("forkserver" if "forkserver" in methods else "spawn")


def _evaluate_parallel(env_ids: list[str], agent_name: str, *, limit: int | None, split: str | None, web_mode: str,
                       out: Path | None, seed: int, progress: bool, env_kwargs: dict[str, Any] | None,
                       agent_kwargs: dict[str, Any] | None, save_steps: bool, workers: int, stops: StopSignals,
                       run: dict[str, Any], retry_errors: bool) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """:func:`evaluate` with ``workers`` processes (forkserver, else spawn).

    The parent lists the tasks (same order and seeds as the serial run), skips keys already in
    ``out``, and deals the remaining episodes round-robin to the workers (job ``k`` goes to worker
    ``k % workers``: deterministic). Each finished record is appended to ``out`` and flushed as it
    arrives, so a killed run resumes with no episode counted twice or lost. At the end the records
    of this run are rewritten after the earlier lines in task order (atomically), and the returned
    records are sorted by (env order, task order).

    Stopping: on SIGTERM or SIGINT (noted by ``stops``), a worker that dies or an episode that raises,
    the parent stops every worker (SIGTERM, SIGKILL after :data:`STOP_GRACE_S`), keeps the records
    they had sent, and raises :class:`Stopped` or :class:`EvalFailed`.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    done = load_done(out)
    order, jobs = plan_jobs(env_ids, limit=limit, split=split, out=out, seed=seed, env_kwargs=env_kwargs,
                            save_steps=save_steps, run=run, retry_errors=retry_errors, done=done)
    new: dict[tuple[str, str, str], dict[str, Any]] = {}
    n_workers = max(1, min(workers, len(jobs)))
    config = {"agent_name": agent_name, "seed": seed, "web_mode": web_mode, "env_kwargs": env_kwargs or {},
              "agent_kwargs": agent_kwargs or {}, "run": run}
    fh = open_append(out) if out else None

    def keep(rec: dict[str, Any]) -> None:
        if fh:
            fh.write(json.dumps(rec, sort_keys=True) + "\n")
            fh.flush()
        new[episode_key(rec)] = rec

    procs: list[Any] = []
    conns: list[Any] = []
    stopped: Stopped | None = None
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      disable=not progress, transient=False) as bar:
            job = bar.add_task(f"{', '.join(env_ids)} · {agent_name} · {n_workers} workers", total=len(order))
            bar.advance(job, len(order) - len(jobs))
            if jobs:
                stops.raising = False  # from here on a stop is noted and acted on between two records
                ctx = _mp_context()
                for w in range(n_workers):
                    reader, writer = ctx.Pipe(duplex=False)
                    p = ctx.Process(target=_worker_main, args=(w, jobs[w::n_workers], config, writer, os.getpid()),
                                    daemon=True)
                    p.start()
                    writer.close()  # the worker holds the only write end: its death is an EOF here, not a hang
                    procs.append(p)
                    conns.append(reader)
                _collect(procs, conns, stops, keep, lambda: bar.advance(job))
                for p in procs:
                    p.join(STOP_GRACE_S)
    except Stopped as e:
        stopped = e
        raise
    finally:
        stops.raising = False  # a second Ctrl-C does not cut the clean-up short
        _stop_workers(procs, conns, keep)
        if fh:
            fh.close()
        if stopped is not None:
            stopped.finished = len(new)  # with the records the stopped workers still sent
    if out and new:
        rewrite_sorted(out, set(new), order)
    records = [new.get(k) or done[k] for k in sorted(order, key=order.__getitem__)]
    return summarize(records), records


#: seconds a stopped worker has to close its envs before it is killed
STOP_GRACE_S = 3.0


def _collect(procs: list[Any], conns: list[Any], stops: StopSignals, keep: Any, advance: Any) -> None:
    """Read the workers' messages until every worker has sent ``done`` and ended; raise :class:`Stopped`
    once a stop signal came, :class:`EvalFailed` when a worker dies or an episode raises."""
    from multiprocessing.connection import wait

    live = {c: w for w, c in enumerate(conns)}
    finished: set[int] = set()
    while live:
        if stops.signum is not None:
            raise Stopped(stops.signum)
        for c in wait(list(live), timeout=0.2):
            w = live[c]
            try:
                kind, _, key, payload = c.recv()
            except (EOFError, OSError):  # the worker ended (a message it was cut in is lost with it)
                del live[c]
                c.close()
                if w not in finished:
                    procs[w].join(0.5)  # its exit code; a stop signal sent to the whole group lands meanwhile
                    if stops.signum is not None:
                        raise Stopped(stops.signum) from None
                    raise EvalFailed(f"worker {w} died ({_exit_reason(procs[w].exitcode)})") from None
                continue
            if kind == "done":
                finished.add(w)
            elif kind == "error":
                what = f"episode {key[0]} {key[1]}" if key else "the agent"
                last = payload.strip().splitlines()[-1] if payload.strip() else "error"
                raise EvalFailed(f"{what} failed in worker {w}: {last}", payload)
            else:
                keep(payload)
                advance()


def _exit_reason(code: int | None) -> str:
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def _stop_workers(procs: list[Any], conns: list[Any], keep: Any) -> None:
    """Stop every worker still running (SIGTERM, then SIGKILL after :data:`STOP_GRACE_S`), then keep
    the records they had sent: with every writer gone, reading the pipes cannot block (a message a
    worker was cut in ends in EOF and is dropped)."""
    for p in procs:
        if p.is_alive():
            p.terminate()
    deadline = time.monotonic() + STOP_GRACE_S
    for p in procs:
        p.join(max(0.0, deadline - time.monotonic()))
        if p.is_alive():
            p.kill()
            p.join(1.0)
    for c in conns:
        try:
            while not c.closed and c.poll(0):
                kind, _, _, payload = c.recv()
                if kind == "ok":
                    keep(payload)
        except (EOFError, OSError):
            pass
        c.close()
