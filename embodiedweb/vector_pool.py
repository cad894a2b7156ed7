"""A vector env whose worker processes each step several envs: throughput on few cores.

Gymnasium's ``AsyncVectorEnv`` runs one process per env and steps them in lock step: every vector step
waits for its slowest env and pays a round trip to each process. Text-mode steps here cost from a tenth
of a millisecond (a street move) to a few (a reset), so two such envs in two processes are barely faster
than one env (``ewa bench``'s ``async2_timeline``: a lock-step ceiling of 1.2-1.4x). :class:`PoolVectorEnv`
puts ``num_envs`` envs in ``num_workers`` processes instead (RLlib's ``num_envs_per_env_runner``,
EnvPool's ``batch_size``): each worker steps its envs one after another, so their step costs average out
and a round trip carries several steps. On a 2-core machine, 16 Navigation envs in 2 shares ran 1.40-1.46x
a sync vector env of 16 envs on the same work (``ewa bench``'s ``pool16_speedup``), and 1.17-1.38x one env.

It is a :class:`gymnasium.vector.VectorEnv` with the same semantics as Gymnasium's sync and async ones:
``reset(seed=int)`` seeds env ``i`` with ``seed + i``, the three autoreset modes, ``options["reset_mask"]``,
infos batched with ``_key`` masks, ``call``/``get_attr``/``set_attr``; and observations through shared
memory (``shared_memory=True``, the default). The same seeds and actions give the same trajectories as
``gym.make_vec(..., vectorization_mode="sync")`` (a test checks it).
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from copy import deepcopy
from multiprocessing.connection import Connection, wait
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import (
    CloudpickleWrapper,
    batch_space,
    concatenate,
    create_empty_array,
    create_shared_memory,
    iterate,
    read_from_shared_memory,
    write_to_shared_memory,
)

__all__ = ["PoolVectorEnv", "batch_infos", "make_pool_vec", "worker_sizes"]


#: seconds to wait for a worker's answer to a command whose reading was interrupted
DRAIN_TIMEOUT = 60.0


def worker_sizes(num_envs: int, num_workers: int) -> list[int]:
    """How many envs each worker holds: as even as possible, the first workers taking one more."""
    return [num_envs // num_workers + (j < num_envs % num_workers) for j in range(num_workers)]


class _WorkerError(RuntimeError):
    """An exception raised in a worker process that could not be sent back as itself."""


class PoolVectorEnv(VectorEnv):
    """``num_envs`` envs in ``num_workers`` processes, each worker stepping its share one after another.

    Args:
        env_fns: one function per env that makes it (``num_envs = len(env_fns)``).
        num_workers: how many shares the envs are split into, each stepped by one process (default: the
            machine's cores, at most ``num_envs``).
        in_process: the main process steps the first share itself while the worker processes step theirs
            (``num_workers - 1`` processes: the main process would otherwise wait idle on a core); else
            ``num_workers`` processes.
        shared_memory: observations go through shared memory (else through the pipes, pickled).
        copy: ``reset`` and ``step`` return a copy of the observations (else views of the shared memory
            that the next step overwrites).
        context: the ``multiprocessing`` start method (default: the platform's).
        autoreset_mode: as Gymnasium's vector envs (``NEXT_STEP``, ``SAME_STEP`` or ``DISABLED``).
        gc_freeze: each worker process, after its first reset, collects its garbage and freezes what is left
            (:func:`gc.freeze`): its envs' data loaded by then (the city, the catalogs, the sessions) is skipped
            by every later collection. A full collection of a worker holding 8 envs took 59-77 ms, a pause
            the other shares wait for at that vector step; frozen, at most 22 ms (16 Navigation envs: 9 %
            faster in all). The main process is never frozen: it is the caller's (``gc.freeze()`` after
            the first reset in a training script gained about 5 % more).

    Example:
        >>> from embodiedweb.vector_pool import make_pool_vec
        >>> envs = make_pool_vec("EWA-Navigation-v0", num_envs=8, num_workers=2)
        >>> obs, infos = envs.reset(seed=0)
        >>> len(obs["web_text"]), envs.worker_sizes
        (8, [4, 4])
        >>> envs.close()
    """

    def __init__(self, env_fns: Sequence[Callable[[], gym.Env[Any, Any]]], num_workers: int | None = None, *,
                 in_process: bool = True, shared_memory: bool = True, copy: bool = True, context: str | None = None,
                 autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP, gc_freeze: bool = True) -> None:
        if not env_fns:
            raise ValueError("PoolVectorEnv needs at least one env function")
        self.num_envs = len(env_fns)
        if num_workers is not None and int(num_workers) < 1:
            raise ValueError(f"num_workers must be at least 1, got {num_workers!r}")
        workers = min(self.num_envs, num_workers or os.cpu_count() or 1)
        self.autoreset_mode = autoreset_mode if isinstance(autoreset_mode, AutoresetMode) \
            else AutoresetMode(autoreset_mode)
        self.shared_memory, self.copy = shared_memory, copy
        self.worker_sizes = worker_sizes(self.num_envs, workers)
        starts = np.cumsum([0] + self.worker_sizes)
        #: the global indices of each worker's envs
        self.worker_envs = [range(int(a), int(b)) for a, b in zip(starts, starts[1:], strict=False)]
        ctx = multiprocessing.get_context(context)
        self._pipes: list[Any] = []
        #: pipes sent a command whose answer is not read yet (between a send and its read; after an
        #: interrupted read, until :meth:`_drain`)
        self._unread: list[Any] = []
        self._processes: list[Any] = []
        self.closed = False
        # the spaces from an env of the main process: shared memory must exist before the workers start,
        # which inherit it. With ``in_process`` that env is the first of the main process's share; else a
        # dummy closed at once (as Gymnasium's AsyncVectorEnv)
        local = [env_fns[i]() for i in self.worker_envs[0]] if in_process else [env_fns[0]()]
        first = local[0]
        spaces = (first.observation_space, first.action_space)
        self.single_observation_space, self.single_action_space = spaces
        self.metadata, self.render_mode, self.spec = dict(first.metadata or {}), first.render_mode, first.spec
        self.metadata["autoreset_mode"] = self.autoreset_mode
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._shm: Any = None
        if shared_memory:
            self._shm = create_shared_memory(self.single_observation_space, n=self.num_envs, ctx=ctx)
            self._observations = read_from_shared_memory(self.single_observation_space, self._shm, n=self.num_envs)
        else:
            self._observations = create_empty_array(self.single_observation_space, n=self.num_envs, fn=np.zeros)
        #: without shared memory: each env's last observation (as Gymnasium's SyncVectorEnv keeps them)
        self._single_obs: list[Any] = [None] * self.num_envs
        if in_process:
            self._pipes.append(_InProcess(_Envs(local, 0, self._shm, self.autoreset_mode)))
        else:
            first.close()
        mine = [(env.observation_space, env.action_space) for env in local] if in_process else []
        del local, first
        try:
            for j, envs in enumerate(self.worker_envs[1 if in_process else 0:], start=1 if in_process else 0):
                parent, child = ctx.Pipe()
                fns = [CloudpickleWrapper(env_fns[i]) for i in envs]
                process = ctx.Process(target=_worker, name=f"PoolVectorEnv-{j}", daemon=True,
                                      args=(fns, envs.start, child, parent, self._shm, self.autoreset_mode,
                                            gc_freeze))
                process.start()
                child.close()
                self._pipes.append(parent)
                self._processes.append(process)
            answers = self._receive_all(self._pipes[1 if in_process else 0:])
        except BaseException:
            self._terminate()
            raise
        if any(each != spaces for each in mine) or any(each != spaces for answer in answers for each in answer):
            self._terminate()
            raise ValueError("the envs of a PoolVectorEnv must all have the same observation and action spaces")
        self._waiting_step = False
        #: each share's commands of the asynchronous API whose answers are not received yet, oldest first:
        #: ``(kind, env indices)``
        self._async: dict[Any, deque[tuple[str, list[int]]]] = {}
        #: the envs sent an action (or a reset) by the asynchronous API whose result is not received yet
        self._busy = np.zeros(self.num_envs, dtype=np.bool_)
        #: the action space of a batch of each size the asynchronous API was sent
        self._action_spaces: dict[int, gym.Space[Any]] = {self.num_envs: self.action_space}

    # the gym.vector API ------------------------------------------------------------------------------
    def reset(self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        """Reset the envs (all, or those of ``options["reset_mask"]``); seeds as Gymnasium's vector envs."""
        self._check_idle("reset")
        seeds = self._seeds(seed)
        options = dict(options) if options is not None else None
        mask = np.ones(self.num_envs, dtype=bool)
        if options is not None and "reset_mask" in options:
            mask = options.pop("reset_mask")
            if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_:
                raise TypeError(f"options['reset_mask'] must be a numpy array of dtype bool, got {mask!r}")
            if mask.shape != (self.num_envs,):
                raise ValueError(f"options['reset_mask'] must have shape ({self.num_envs},), got {mask.shape}")
            if not mask.any():
                raise ValueError("options['reset_mask'] must have at least one True value")
        sent = self._send_all([(pipe, ("reset", todo)) for pipe, envs in zip(self._pipes, self.worker_envs, strict=True)
                               if (todo := [(i, {"seed": seeds[i], "options": options}) for i in envs if mask[i]])])
        infos = []
        for answer in self._receive_all(sent):
            for i, obs, info in answer:
                self._store(i, obs)
                infos.append((i, info))
        return self._observed(), batch_infos(infos, self.num_envs)

    def step_async(self, actions: Any) -> None:
        """Send each worker its envs' actions (collect the results with :meth:`step_wait`)."""
        self._check_idle("step_async")
        each = list(iterate(self.action_space, actions))
        if len(each) != self.num_envs:
            raise ValueError(f"expected {self.num_envs} actions, got {len(each)}")
        self._send_all([(pipe, ("step", [each[i] for i in envs]))
                        for pipe, envs in zip(self._pipes, self.worker_envs, strict=True)])
        self._waiting_step = True

    def step_wait(self) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """The batched ``(observations, rewards, terminations, truncations, infos)`` of the pending step."""
        if not self._waiting_step:
            raise gym.error.NoAsyncCallError("Calling `step_wait` without any prior call to `step_async`.", "step")
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminations = np.zeros(self.num_envs, dtype=np.bool_)
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        infos = []
        try:
            results = self._receive_all(self._pipes)
        finally:  # every answer read, or the rest left to _drain (an interrupted read): no step is pending
            self._waiting_step = False
        for i, (obs, reward, terminated, truncated, info) in _numbered(results, self.worker_envs):
            self._store(i, obs)
            rewards[i], terminations[i], truncations[i] = reward, terminated, truncated
            infos.append((i, info))
        return self._observed(), rewards, terminations, truncations, batch_infos(infos, self.num_envs)

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every env with its action (in each worker, one env after another)."""
        self.step_async(actions)
        return self.step_wait()

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call ``name(*args, **kwargs)`` on every env (or read the attribute): one result per env."""
        self._check_idle("call")
        if name in ("reset", "step", "close"):
            raise ValueError(f"Trying to call function `{name}` with `call`, use `{name}` directly instead.")
        self._send_all([(pipe, ("call", (name, args, kwargs))) for pipe in self._pipes])
        return tuple(v for answer in self._receive_all(self._pipes) for v in answer)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """The attribute ``name`` of every env."""
        return self.call(name)

    def set_attr(self, name: str, values: list[Any] | tuple[Any, ...] | Any) -> None:
        """Set ``name`` on every env: one value each (a list or tuple of ``num_envs``) or the same value."""
        self._check_idle("set_attr")
        if not isinstance(values, list | tuple):
            values = [values] * self.num_envs
        if len(values) != self.num_envs:
            raise ValueError(f"values must have length num_envs={self.num_envs}, got {len(values)}")
        self._send_all([(pipe, ("setattr", (name, [values[i] for i in envs])))
                        for pipe, envs in zip(self._pipes, self.worker_envs, strict=True)])
        self._receive_all(self._pipes)

    def render(self) -> tuple[Any, ...] | None:
        """Each env's ``render()`` (``None`` without a render mode)."""
        return None if self.render_mode is None else self.call("render")

    def close_extras(self, timeout: float | None = None, terminate: bool = False, **kwargs: Any) -> None:
        """Stop the workers, each closing its envs (``terminate``: kill the worker processes at once)."""
        if terminate:
            self._terminate()
            return
        if self._waiting_step:
            try:
                self.step_wait()
            except Exception:  # noqa: BLE001 - closing: a step's error no longer matters
                pass
        try:
            self._drain(timeout)
            self._drain_async(timeout)
        except RuntimeError:  # a worker that does not answer is killed below
            pass
        for pipe in self._pipes:
            try:
                pipe.send(("close", None))
            except (BrokenPipeError, OSError):
                pass
        for pipe in self._pipes:
            try:
                if pipe.poll(10):
                    pipe.recv()
            except (EOFError, OSError):
                pass
        self._terminate()

    # the asynchronous API (EnvPool's) ------------------------------------------------------------------
    def async_reset(self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
                    ) -> None:
        """Start resetting every env (seeds as :meth:`reset`); the first observations come from :meth:`recv`,
        one share at a time (EnvPool's ``async_reset``)."""
        self._check_idle("async_reset")
        seeds = self._seeds(seed)
        self._send_ids("reset", [(i, {"seed": seeds[i], "options": options}) for i in range(self.num_envs)])

    def send(self, actions: Any, env_id: Any = None) -> None:
        """Start stepping the envs ``env_id`` (default: all) with ``actions``, one each, in the order of
        ``env_id``; their results come from :meth:`recv`. Only envs whose last result was received can be
        sent an action (EnvPool's ``send``)."""
        self._check_open()
        if self._waiting_step:
            raise gym.error.AlreadyPendingCallError(
                "Calling `send` while waiting for a pending call to `step` to complete", "step")
        ids = self._env_ids(env_id)
        if len(ids) not in self._action_spaces:  # batch_space deep-copies the space: once per batch size
            self._action_spaces[len(ids)] = batch_space(self.single_action_space, len(ids))
        each = list(iterate(self._action_spaces[len(ids)], actions))
        if len(each) != len(ids):
            raise ValueError(f"expected {len(ids)} actions (one per env_id), got {len(each)}")
        self._send_ids("step", list(zip(ids, each, strict=True)))

    def recv(self) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """The results of one share's pending :meth:`send` (or :meth:`async_reset`), whichever is ready first:
        ``(observations, rewards, terminations, truncations, infos)`` batched over those envs only, with
        ``infos["env_id"]`` their indices (EnvPool's ``recv``). A reset's rewards are 0 and its flags False.
        A worker's error is raised here, and its envs can be sent actions again."""
        self._check_open()
        if not any(self._async.values()):
            raise gym.error.NoAsyncCallError("Calling `recv` without any prior call to `send` or `async_reset`.",
                                             "recv")
        pipe = self._ready()
        kind, ids = self._async[pipe][0]
        try:
            (answer,) = self._receive_all([pipe])
        except KeyboardInterrupt:  # Ctrl+C while waiting: a worker's answer is still to come, and the next
            if isinstance(pipe, _InProcess):  # recv() reads it; the main process's own share ran (in part)
                self._spent(pipe, ids)
            raise
        except BaseException:  # read (an error in the envs), or the worker is gone
            self._spent(pipe, ids)
            raise
        self._spent(pipe, ids)
        m = len(ids)
        rewards = np.zeros(m, dtype=np.float64)
        terminations = np.zeros(m, dtype=np.bool_)
        truncations = np.zeros(m, dtype=np.bool_)
        batched = []
        for k, item in enumerate(answer):
            i, obs, info = item[0], item[1], item[-1]
            self._store(i, obs)
            if kind == "step":
                rewards[k], terminations[k], truncations[k] = item[2:5]
            batched.append((k, info))
        infos = batch_infos(batched, m)
        infos["env_id"] = np.asarray(ids, dtype=np.int64)
        return self._rows(ids), rewards, terminations, truncations, infos

    # internals ------------------------------------------------------------------------------------
    def _seeds(self, seed: int | list[int | None] | None) -> list[int | None]:
        """One seed per env, as Gymnasium's vector envs: ``seed + i``, or a list of ``num_envs``."""
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, int):
            return [seed + i for i in range(self.num_envs)]
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"If seeds are passed as a list the length must match num_envs={self.num_envs} "
                             f"but got length={len(seeds)}.")
        return seeds

    def _env_ids(self, env_id: Any) -> list[int]:
        """``env_id`` as a list of env indices, each valid, once, and not waiting for a result."""
        ids = np.arange(self.num_envs) if env_id is None else np.asarray(env_id).reshape(-1)
        if ids.size and not np.issubdtype(ids.dtype, np.integer):
            raise TypeError(f"env_id must hold env indices (integers), got {env_id!r}")
        ids = ids.astype(np.int64)
        if ((ids < 0) | (ids >= self.num_envs)).any():
            raise ValueError(f"env_id {ids[(ids < 0) | (ids >= self.num_envs)].tolist()} out of range: "
                             f"this vector env has envs 0-{self.num_envs - 1}")
        if len(np.unique(ids)) != len(ids):
            raise ValueError(f"env_id names an env twice: {ids.tolist()}")
        if self._busy[ids].any():
            raise gym.error.AlreadyPendingCallError(
                f"envs {ids[self._busy[ids]].tolist()} are waiting for a result: recv() it before sending "
                f"them another action", "send")
        return ids.tolist()

    def _send_ids(self, kind: str, todo: list[tuple[int, Any]]) -> None:
        """Send each share its part of ``todo`` (``(env index, action or reset arguments)``), remembered as
        pending until :meth:`recv` reads the answer. Answers a lock-step call left unread (an interrupted wait)
        are dropped first, so :meth:`recv` never takes one for its own."""
        self._drain()
        for pipe, envs in zip(self._pipes, self.worker_envs, strict=True):
            mine = [(i, x) for i, x in todo if envs.start <= i < envs.stop]
            if not mine:
                continue
            try:
                pipe.send((f"{kind}_ids", mine))
            except (BrokenPipeError, OSError):
                raise self._dead(pipe, "its pipe is closed") from None
            ids = [i for i, _ in mine]
            self._async.setdefault(pipe, deque()).append((kind, ids))
            self._busy[ids] = True

    def _ready(self) -> Any:
        """A share with a pending answer: a worker process's that has come, else the main process's own
        (stepped now, while the workers step theirs), else the first worker's to come."""
        pending = [pipe for pipe in self._pipes if self._async.get(pipe)]
        workers = [pipe for pipe in pending if not isinstance(pipe, _InProcess)]
        ready = wait(workers, timeout=0) if workers else []
        if ready:
            return ready[0]
        if len(workers) < len(pending):
            return next(pipe for pipe in pending if isinstance(pipe, _InProcess))
        return wait(workers)[0]

    def _spent(self, pipe: Any, ids: list[int]) -> None:
        """The oldest pending command of ``pipe`` (for the envs ``ids``) is answered: they can be sent again."""
        self._async[pipe].popleft()
        self._busy[ids] = False

    def _rows(self, ids: list[int]) -> Any:
        """The observations of the envs ``ids``, batched (a copy: the rows are rewritten by their next step)."""
        if not self.shared_memory:
            return concatenate(self.single_observation_space, [self._single_obs[i] for i in ids],
                               create_empty_array(self.single_observation_space, n=len(ids), fn=np.zeros))
        return _rows(self._observations, ids)

    def _check_open(self) -> None:
        if self.closed:
            raise RuntimeError("the PoolVectorEnv is closed")

    def _check_idle(self, name: str) -> None:
        """Refuse a command while a step is pending (as Gymnasium's AsyncVectorEnv), or a :meth:`send`'s or
        :meth:`async_reset`'s results are not all received."""
        self._check_open()
        if self._waiting_step:
            raise gym.error.AlreadyPendingCallError(
                f"Calling `{name}` while waiting for a pending call to `step` to complete", "step")
        if self._busy.any():
            raise gym.error.AlreadyPendingCallError(
                f"Calling `{name}` while envs {np.flatnonzero(self._busy).tolist()} wait for their results: "
                f"recv() them first", "send")

    def _drain(self, timeout: float | None = None) -> None:
        """Read and drop the answers an interrupted read left (a ``KeyboardInterrupt`` while waiting): the
        next command's answers must be its own. Each worker has its answer after finishing the command, so
        its shared-memory rows are whole again too. Each answer is waited for ``timeout`` seconds (None or
        0: :data:`DRAIN_TIMEOUT`)."""
        for pipe in list(self._unread):
            if not pipe.poll(timeout or DRAIN_TIMEOUT):
                raise RuntimeError(f"{self._dead(pipe, 'no answer to an interrupted command')}; close() this "
                                   f"vector env and make a new one")
            try:
                pipe.recv()
            except Exception:  # noqa: BLE001 - an answer nobody waits for any more
                pass
            self._unread.remove(pipe)

    def _drain_async(self, timeout: float | None = None) -> None:
        """Read and drop the answers the asynchronous API is still waiting for (closing)."""
        for pipe, pending in self._async.items():
            while pending:
                if isinstance(pipe, _InProcess):
                    pipe.discard()
                elif not pipe.poll(timeout or DRAIN_TIMEOUT):
                    raise self._dead(pipe, "no answer to a pending send")
                else:
                    try:
                        pipe.recv()
                    except Exception:  # noqa: BLE001 - an answer nobody waits for any more
                        pass
                self._busy[pending.popleft()[1]] = False

    def _send_all(self, messages: list[tuple[Connection, Any]]) -> list[Connection]:
        """Send each pipe its command; the pipes sent to. A worker that is gone is an error, raised once the
        other workers' answers are read."""
        self._drain()
        sent: list[Connection] = []
        dead: RuntimeError | None = None
        for pipe, message in messages:
            try:
                pipe.send(message)
                sent.append(pipe)
                self._unread.append(pipe)
            except (BrokenPipeError, OSError):
                dead = dead or self._dead(pipe, "its pipe is closed")
        if dead:
            try:
                self._receive_all(sent)
            finally:
                raise dead
        return sent

    def _name(self, pipe: Any) -> str:
        """A worker's name for errors: its index, its envs and its process."""
        j = self._pipes.index(pipe)
        envs = self.worker_envs[j]
        k = j - (len(self._pipes) - len(self._processes))  # its process (the main process's share has none)
        pid = f", pid {self._processes[k].pid}" if k >= 0 else ""
        return f"PoolVectorEnv worker {j} (envs {envs.start}-{envs.stop - 1}{pid})"

    def _dead(self, pipe: Any, why: str) -> RuntimeError:
        """The error of a worker that is gone."""
        return RuntimeError(f"{self._name(pipe)} died: {why}")

    def _receive_all(self, pipes: list[Connection]) -> list[Any]:
        """Every pipe's answer, in order; the first error is raised after all are read (an unread answer
        would be taken for the next command's)."""
        answers, errors = [], []
        for pipe in pipes:
            try:
                ok, payload = pipe.recv()
            except (EOFError, OSError):
                ok, payload = False, (self._dead(pipe, "its process ended without an answer"), "")
            except Exception as exc:  # noqa: BLE001 - an answer that came but cannot be rebuilt here
                ok, payload = False, (RuntimeError(f"{self._name(pipe)}: its answer could not be read: "
                                                   f"{type(exc).__name__}: {exc}"), "")
            if pipe in self._unread:  # read (a KeyboardInterrupt above leaves it to _drain)
                self._unread.remove(pipe)
            answers.append(payload if ok else None)
            if not ok:
                error, text = payload
                if isinstance(error, BaseException):
                    if text:
                        error.__cause__ = _WorkerError(text)
                    errors.append(error)
                else:
                    errors.append(_WorkerError(text))
        if errors:
            raise errors[0]
        return answers

    def _store(self, i: int, obs: Any) -> None:
        if not self.shared_memory:
            self._single_obs[i] = obs

    def _observed(self) -> Any:
        if not self.shared_memory:
            self._observations = concatenate(self.single_observation_space, self._single_obs, self._observations)
        return _copy(self._observations) if self.copy else self._observations

    def _terminate(self) -> None:
        self.closed = True
        for pipe in self._pipes:
            pipe.close()
        for process in self._processes:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
                process.join()


def _copy(value: Any) -> Any:
    """A copy of a batched observation that shares nothing mutable with it: arrays copied, tuples of
    strings (a batch of texts) kept as they are (immutable), anything else deep-copied."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, tuple) and all(type(v) is str for v in value):
        return value
    return deepcopy(value)


class _Batch:
    """What :meth:`VectorEnv._add_info` needs of a vector env to batch ``num_envs`` infos."""

    _add_info = VectorEnv._add_info

    def __init__(self, num_envs: int) -> None:
        self.num_envs = num_envs


def batch_infos(infos: Sequence[tuple[int, dict[str, Any]]], n: int) -> dict[str, Any]:
    """The infos ``(env index, info)`` of a batch of ``n`` envs batched as Gymnasium's vector envs do (each
    key an array of ``n``, paired with its ``_key`` mask; dicts batched recursively; ``final_obs`` an object
    array): the same result as :meth:`VectorEnv._add_info` applied to each in turn, built key by key
    instead of env by env (which allocates a mask per env and key: 0.3 ms for 16 envs' infos). An info
    that mixes a dict and another value under one key is left to Gymnasium's own code."""
    by_key: dict[str, list[tuple[int, Any]]] = {}
    for i, info in infos:
        for key, value in info.items():
            by_key.setdefault(key, []).append((i, value))
    out: dict[str, Any] = {}
    for key, items in by_key.items():
        first = items[0][1]
        if key == "final_obs":
            array: Any = np.full(n, fill_value=None, dtype=object)
        elif isinstance(first, dict):
            if not all(isinstance(v, dict) for _, v in items):
                return _gymnasium_batch(infos, n)
            array = batch_infos(items, n)
        elif any(isinstance(v, dict) for _, v in items):
            return _gymnasium_batch(infos, n)
        elif type(first) in (int, float, bool) or issubclass(type(first), np.number):
            array = np.zeros(n, dtype=type(first))
        elif isinstance(first, np.ndarray):
            array = np.zeros((n, *first.shape), dtype=first.dtype)
        else:
            array = np.full(n, fill_value=None, dtype=object)
        mask = np.zeros(n, dtype=np.bool_)
        if not isinstance(array, dict):
            for i, value in items:
                array[i] = value
        mask[[i for i, _ in items]] = True
        out[key], out[f"_{key}"] = array, mask
    return out


def _gymnasium_batch(infos: Sequence[tuple[int, dict[str, Any]]], n: int) -> dict[str, Any]:
    """``infos`` batched by Gymnasium's :meth:`VectorEnv._add_info` itself."""
    batch, out = _Batch(n), {}
    for i, info in infos:
        out = batch._add_info(out, info, i)
    return out


def _rows(value: Any, ids: list[int]) -> Any:
    """The rows ``ids`` of a batched observation, as a batch that shares nothing mutable with it."""
    if isinstance(value, dict):
        return {k: _rows(v, ids) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return value[ids]  # indexing by a list copies
    if isinstance(value, tuple) and not all(type(v) is str for v in value):
        return tuple(_rows(v, ids) for v in value)  # a Tuple space's batch
    return tuple(value[i] for i in ids)  # texts (decoded from shared memory) or objects


def _numbered(results: list[list[Any]], worker_envs: list[range]) -> Iterator[tuple[int, Any]]:
    """(global env index, that env's result) over every worker's results."""
    for envs, result in zip(worker_envs, results, strict=True):
        yield from zip(envs, result, strict=True)


class _Envs:
    """One worker's envs and the commands of the main process on them (``handle`` answers ``(ok, payload)``);
    the same code runs in a worker process and for the main process's own share."""

    def __init__(self, envs: list[gym.Env[Any, Any]], first: int, shm: Any, autoreset_mode: AutoresetMode,
                 gc_freeze: bool = False) -> None:
        self.envs, self.first, self.shm, self.mode = envs, first, shm, autoreset_mode
        self.space = envs[0].observation_space
        self.autoreset = [False] * len(envs)
        #: freeze the garbage collector's objects after the first reset (a worker process's own share)
        self.gc_freeze = gc_freeze

    def handle(self, command: str, data: Any) -> tuple[bool, Any]:
        try:
            return True, getattr(self, f"_{command}")(data)
        except BaseException as exc:  # noqa: BLE001 - reported to the main process, the worker goes on
            return False, (exc, "".join(traceback.format_exception(exc)))

    def _step(self, actions: list[Any]) -> list[tuple[Any, ...]]:
        return [item[1:] for item in self._step_ids(list(enumerate(actions, start=self.first)))]

    def _step_ids(self, todo: list[tuple[int, Any]]) -> list[tuple[Any, ...]]:
        """Step env ``i`` (a global index) with its action, for each ``(i, action)``: ``(i, obs, reward,
        terminated, truncated, info)`` each, the observation left in shared memory (``None``) if there is any."""
        out = [(i, *_step(self.envs[i - self.first], action, self.autoreset, i - self.first, self.mode))
               for i, action in todo]
        if self.shm is None:
            return out
        for item in out:
            write_to_shared_memory(self.space, item[0], item[1], self.shm)
        return [(item[0], None, *item[2:]) for item in out]

    def _reset(self, todo: list[tuple[int, dict[str, Any]]]) -> list[tuple[int, Any, dict[str, Any]]]:
        answers = []
        for i, kwargs in todo:
            obs, info = self.envs[i - self.first].reset(**kwargs)
            self.autoreset[i - self.first] = False
            if self.shm is not None:
                write_to_shared_memory(self.space, i, obs, self.shm)
                obs = None
            answers.append((i, obs, info))
        if self.gc_freeze:
            self.gc_freeze = False
            gc.collect()  # the garbage first: what is frozen is never collected
            gc.freeze()
        return answers

    _reset_ids = _reset  # the asynchronous API's reset: the same answer

    def _call(self, data: tuple[str, tuple[Any, ...], dict[str, Any]]) -> list[Any]:
        name, args, kwargs = data
        values = []
        for env in self.envs:
            attr = env.get_wrapper_attr(name)
            values.append(attr(*args, **kwargs) if callable(attr) else attr)
        return values

    def _setattr(self, data: tuple[str, list[Any]]) -> None:
        name, values = data
        for env, value in zip(self.envs, values, strict=True):
            env.set_wrapper_attr(name, value)

    def _close(self, _data: Any) -> None:
        for env in self.envs:
            try:
                env.close()
            except Exception:  # noqa: BLE001 - closing anyway
                pass
        self.envs = []


class _InProcess:
    """The main process's own share of the envs, behind a pipe's ``send``/``recv``/``poll``/``close``: a
    command is run when its answer is read, so it runs while the worker processes run theirs."""

    def __init__(self, envs: _Envs) -> None:
        self.envs = envs
        #: commands sent and not run yet, oldest first (the asynchronous API may send several)
        self._pending: deque[tuple[str, Any]] = deque()
        self.closed = False

    def send(self, message: tuple[str, Any]) -> None:
        if self.closed:
            raise OSError("handle is closed")
        self._pending.append(message)

    def recv(self) -> tuple[bool, Any]:
        if not self._pending:
            raise EOFError
        return self.envs.handle(*self._pending.popleft())

    def poll(self, _timeout: float | None = None) -> bool:
        return bool(self._pending)

    def discard(self) -> None:
        """Drop the oldest command without running it."""
        self._pending.popleft()

    def close(self) -> None:
        if not self.closed and self.envs.envs:
            self.envs.handle("close", None)
        self.closed = True


def _worker(env_fns: list[CloudpickleWrapper], first: int, pipe: Connection, parent: Connection, shm: Any,
            autoreset_mode: AutoresetMode, gc_freeze: bool) -> None:
    """A worker's loop: make its envs, then answer the main process's commands until ``close``."""
    parent.close()
    try:
        envs = [fn() for fn in env_fns]
        pipe.send((True, [(env.observation_space, env.action_space) for env in envs]))
    except BaseException as exc:  # noqa: BLE001 - reported to the main process
        text = "".join(traceback.format_exception(exc))
        try:
            pipe.send((False, (exc, text)))
        except Exception:  # noqa: BLE001 - the exception does not pickle: its text does
            _send_text(pipe, text)
        return
    share = _Envs(envs, first, shm, autoreset_mode, gc_freeze=gc_freeze)
    while True:
        try:
            command, data = pipe.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            break
        answer = share.handle(command, data)
        try:
            pipe.send(answer)
        except (BrokenPipeError, OSError):
            break
        except Exception as exc:  # noqa: BLE001 - an answer that does not pickle: its error's text instead
            _send_text(pipe, answer[1][1] if not answer[0] else "".join(traceback.format_exception(exc)))
        if command == "close":
            break
    share.handle("close", None)


def _step(env: gym.Env[Any, Any], action: Any, autoreset: list[bool], k: int, mode: AutoresetMode) -> tuple[Any, ...]:
    """One env's step under Gymnasium's autoreset ``mode`` (``autoreset[k]``: its episode ended last step)."""
    if mode == AutoresetMode.NEXT_STEP:
        if autoreset[k]:
            obs, info = env.reset()
            reward, terminated, truncated = 0.0, False, False
        else:
            obs, reward, terminated, truncated, info = env.step(action)
        autoreset[k] = bool(terminated or truncated)
    elif mode == AutoresetMode.SAME_STEP:
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            final_obs, final_info = obs, info
            obs, reset_info = env.reset()
            info = {"final_info": final_info, "final_obs": final_obs, **reset_info}
    else:
        obs, reward, terminated, truncated, info = env.step(action)
    return obs, reward, terminated, truncated, info


def _send_text(pipe: Connection, text: str) -> None:
    """Send the main process an error as its text only."""
    try:
        pipe.send((False, (None, text)))
    except (BrokenPipeError, OSError):  # the main process has gone: nobody to tell
        pass


def make_pool_vec(env_id: str, num_envs: int, num_workers: int | None = None, *,
                  wrappers: Sequence[Callable[[gym.Env[Any, Any]], gym.Env[Any, Any]]] | None = None,
                  vector_kwargs: dict[str, Any] | None = None, **kwargs: Any) -> PoolVectorEnv:
    """``gym.make_vec``'s counterpart for :class:`PoolVectorEnv`: ``num_envs`` copies of
    ``gym.make(env_id, **kwargs)``, each in ``wrappers`` (applied in order), in ``num_workers`` processes.
    ``vector_kwargs`` go to :class:`PoolVectorEnv` (``autoreset_mode``, ``shared_memory``, ...)."""
    if int(num_envs) < 1:
        raise ValueError(f"num_envs must be at least 1, got {num_envs!r}")
    chain = list(wrappers or [])

    def make_one() -> gym.Env[Any, Any]:
        env = gym.make(env_id, **kwargs)
        for wrap in chain:
            env = wrap(env)
        return env

    return PoolVectorEnv([make_one] * int(num_envs), num_workers, **(vector_kwargs or {}))
