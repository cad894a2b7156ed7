"""PoolVectorEnv: several envs per worker process, with Gymnasium's vector-env semantics."""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import embodiedweb  # noqa: F401  (registers the ids)
from embodiedweb.vector_pool import PoolVectorEnv, make_pool_vec, worker_sizes

ENV = "EWA-Navigation-v0"
KW = {"split": "train", "max_steps": 4}  # episodes end within a few steps: autoresets happen


def _actions(infos: dict, n: int, rng: np.random.Generator) -> tuple[str, ...]:
    adm, ok = infos.get("admissible_actions"), infos.get("_admissible_actions")
    out = []
    for i in range(n):
        cands = list(adm[i]) if adm is not None and ok[i] else []
        out.append(cands[int(rng.integers(len(cands)))] if cands else "noop")
    return tuple(out)


def _play(envs: gym.vector.VectorEnv, steps: int) -> list:
    """The trajectory of random admissible actions (drawn from the infos: the same infos give the same
    actions) as comparable values."""
    rng = np.random.default_rng(0)
    obs, infos = envs.reset(seed=3)
    trace = [(dict(obs), sorted(infos))]
    for _ in range(steps):
        actions = _actions(infos, envs.num_envs, rng)
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        final = infos.get("final_obs")
        trace.append((actions, dict(obs), rewards.tolist(), terminated.tolist(), truncated.tolist(), sorted(infos),
                      None if final is None else [None if f is None else f["web_text"] for f in final]))
    envs.close()
    return trace


@contextmanager
def _pool(n: int) -> Iterator[PoolVectorEnv]:
    """A pool of ``n`` envs in 2 shares, reset with seed 0, closed afterwards."""
    envs = make_pool_vec(ENV, n, 2, **KW)
    try:
        envs.reset(seed=0)
        yield envs
    finally:
        envs.close()


def test_worker_sizes_split_envs_evenly():
    assert worker_sizes(8, 2) == [4, 4]
    assert worker_sizes(5, 2) == [3, 2]
    assert worker_sizes(3, 3) == [1, 1, 1]
    assert sum(worker_sizes(17, 4)) == 17


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize("shared_memory", [True, False])
def test_pool_plays_the_same_trajectories_as_the_sync_vector_env(mode, shared_memory):
    sync = _play(gym.make_vec(ENV, 5, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}, **KW), 12)
    pool = _play(make_pool_vec(ENV, 5, 2, vector_kwargs={"autoreset_mode": mode, "shared_memory": shared_memory},
                               **KW), 12)
    assert any(any(step[3]) or any(step[4]) for step in sync[1:])  # episodes ended: autoreset was exercised
    assert pool == sync


def test_reset_mask_resets_only_the_masked_envs():
    def run(envs: gym.vector.VectorEnv) -> list:
        envs.reset(seed=0)
        envs.step(("move_forward",) * 3)
        obs, infos = envs.reset(seed=[None, 7, None], options={"reset_mask": np.array([False, True, False])})
        out = [list(obs["embodied_text"]), list(infos["_task_id"])]
        envs.close()
        return out

    kw = {"vector_kwargs": {"autoreset_mode": AutoresetMode.DISABLED}, **KW}
    sync = run(gym.make_vec(ENV, 3, vectorization_mode="sync", **kw))
    assert run(make_pool_vec(ENV, 3, 2, **kw)) == sync
    assert sync[1] == [False, True, False]


def test_call_get_attr_and_set_attr_reach_every_env():
    envs = make_pool_vec(ENV, 3, 2, **KW)
    try:
        envs.reset(seed=0)
        assert [t.task_id for t in envs.get_attr("task")] == [t.task_id for t in envs.call("task")]
        envs.set_attr("probe", [1, 2, 3])
        assert envs.get_attr("probe") == (1, 2, 3)
        envs.set_attr("probe", "same")
        assert envs.get_attr("probe") == ("same",) * 3
        with pytest.raises(ValueError, match="num_envs=3"):
            envs.set_attr("probe", [1, 2])
    finally:
        envs.close()


def test_a_workers_error_is_raised_in_the_caller_and_the_envs_go_on():
    with _pool(2) as envs:
        with pytest.raises(AttributeError, match="no_such_attribute"):
            envs.get_attr("no_such_attribute")
        with pytest.raises(ValueError, match="expected 2 actions"):
            envs.step(("noop",))
        obs, rewards, *_ = envs.step(("not an action", "noop"))  # bad actions: an error in the observation
        assert all(obs["last_action_error"]) and rewards.shape == (2,)


def _step_both(envs: PoolVectorEnv) -> None:
    envs.step(("noop", "noop"))


def _send_and_recv(envs: PoolVectorEnv) -> None:
    envs.send(("noop",), [1])
    envs.recv()


@pytest.mark.parametrize("use", [_step_both, _send_and_recv])
def test_a_dead_worker_is_a_clear_error_not_a_hang(use):
    """Through the lock-step API and the asynchronous one."""
    with _pool(2) as envs:
        os.kill(envs._processes[-1].pid, signal.SIGKILL)
        envs._processes[-1].join(5)
        pid = envs._processes[-1].pid
        with pytest.raises(RuntimeError, match=rf"worker 1 \(envs 1-1, pid {pid}\) died"):
            use(envs)
    assert envs.closed and not any(p.is_alive() for p in envs._processes)


def test_bad_construction_is_refused():
    with pytest.raises(ValueError, match="num_envs"):
        make_pool_vec(ENV, 0)
    with pytest.raises(ValueError, match="at least one"):
        PoolVectorEnv([])


def test_spaces_are_batched_like_gymnasiums():
    envs = make_pool_vec(ENV, 4, 2, **KW)
    ref = gym.make_vec(ENV, 4, vectorization_mode="sync", **KW)
    try:
        assert envs.single_observation_space == ref.single_observation_space
        assert envs.observation_space == ref.observation_space
        assert envs.action_space == ref.action_space
        assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
        obs, _ = envs.reset(seed=0)
        assert envs.observation_space.contains(obs)
    finally:
        envs.close()
        ref.close()


class _OddError(Exception):
    """An exception that pickles but cannot be rebuilt (its ``__init__`` takes two arguments)."""

    def __init__(self, a: str, b: str) -> None:
        super().__init__(f"{a} {b}")


class _Odd(gym.Wrapper):
    def explode(self) -> None:
        """Raises in a worker process only (so the error must cross a pipe)."""
        if multiprocessing.current_process().name != "MainProcess":
            raise _OddError("a", "b")


def test_commands_while_a_step_is_pending_are_refused():
    envs = make_pool_vec(ENV, 3, 2, **KW)
    try:
        envs.reset(seed=0)
        envs.step_async(("noop",) * 3)
        for call in (lambda: envs.reset(seed=1), lambda: envs.step_async(("noop",) * 3),
                     lambda: envs.get_attr("task"), lambda: envs.set_attr("probe", 1)):
            with pytest.raises(gym.error.AlreadyPendingCallError):
                call()
        obs, *_ = envs.step_wait()  # the pending step is still whole
        assert len(obs["web_text"]) == 3
        with pytest.raises(gym.error.NoAsyncCallError):
            envs.step_wait()
    finally:
        envs.close()


def test_after_an_unreadable_answer_or_an_interrupted_read_every_answer_is_its_own():
    """A worker's answer that cannot be rebuilt is an error naming the worker; a read interrupted by Ctrl+C
    leaves answers unread. Either way the next commands get their own answers (not the previous step's):
    the trajectory goes on as a sync vector env's."""
    def play(envs, break_it: bool) -> list:
        rng = np.random.default_rng(0)
        obs, infos = envs.reset(seed=3)
        trace = []
        for k in range(8):
            if break_it and k == 3:
                with pytest.raises(RuntimeError, match=r"worker 1 \(envs 2-2, pid \d+\): its answer could not"):
                    envs.call("explode")
                real = envs._pipes[1].recv
                envs._pipes[1].recv = lambda: (_ for _ in ()).throw(KeyboardInterrupt)  # Ctrl+C while waiting
                with pytest.raises(KeyboardInterrupt):
                    envs.step(("noop",) * 3)
                envs._pipes[1].recv = real
                envs.step(("noop",) * 3)  # the interrupted step's twin, for the sync env below
            elif k == 3:
                envs.step(("noop",) * 3)
                envs.step(("noop",) * 3)
            actions = _actions(infos, 3, rng)
            obs, rewards, terminated, truncated, infos = envs.step(actions)
            trace.append((actions, dict(obs), rewards.tolist(), infos["step"].tolist()))
        envs.close()
        return trace

    sync = play(gym.make_vec(ENV, 3, vectorization_mode="sync", wrappers=[_Odd], **KW), False)
    assert play(make_pool_vec(ENV, 3, 2, wrappers=[_Odd], vector_kwargs={"context": "fork"}, **KW), True) == sync


def test_disabled_autoreset_with_masked_resets_plays_as_sync():
    """Autoreset DISABLED: the caller resets finished envs with ``reset_mask``; pool and sync agree."""
    def play(envs) -> list:
        rng = np.random.default_rng(1)
        obs, infos = envs.reset(seed=5)
        trace = []
        for _ in range(10):
            actions = _actions(infos, 3, rng)
            obs, rewards, terminated, truncated, infos = envs.step(actions)
            trace.append((actions, dict(obs), rewards.tolist(), terminated.tolist(), truncated.tolist()))
            done = terminated | truncated
            if done.any():
                obs, reset_infos = envs.reset(options={"reset_mask": done})
                infos = {**infos, **{k: v for k, v in reset_infos.items()}}
                trace.append(("reset", done.tolist(), dict(obs)))
        envs.close()
        return trace

    kw = {"vector_kwargs": {"autoreset_mode": AutoresetMode.DISABLED}, **KW}
    sync = play(gym.make_vec(ENV, 3, vectorization_mode="sync", **kw))
    assert any(step[0] == "reset" for step in sync)
    assert play(make_pool_vec(ENV, 3, 2, **kw)) == sync


def test_copy_false_returns_the_shared_observation_copy_true_a_copy():
    for copy in (True, False):
        envs = make_pool_vec(ENV, 2, 2, vector_kwargs={"copy": copy}, **KW)
        try:
            first, _ = envs.reset(seed=0)
            before = tuple(first["last_action"])
            envs.step(("move_forward", "turn_left"))
            assert (tuple(first["last_action"]) == before) is copy  # a view follows the buffer; a copy does not
        finally:
            envs.close()


class _GcProbe(gym.Wrapper):
    def frozen_objects(self) -> int:
        """How many objects this env's process has frozen (``gc.freeze``)."""
        import gc

        return gc.get_freeze_count()


@pytest.mark.parametrize("gc_freeze", [True, False])
def test_worker_processes_freeze_their_objects_after_the_first_reset_and_the_caller_is_never_frozen(gc_freeze):
    import gc

    mine = gc.get_freeze_count()
    envs = make_pool_vec(ENV, 4, 2, wrappers=[_GcProbe], vector_kwargs={"gc_freeze": gc_freeze}, **KW)
    try:
        before = envs.call("frozen_objects")
        envs.reset(seed=0)
        envs.step(("noop",) * 4)
        after = envs.call("frozen_objects")
    finally:
        envs.close()
    assert before == (mine,) * 4  # nothing frozen before the first reset: the envs are still being set up
    assert after[:2] == (mine,) * 2 and gc.get_freeze_count() == mine  # the main process's share: the caller's
    if gc_freeze:
        assert after[2] == after[3] > mine + 10_000  # the worker's envs, their data and the imports
    else:
        assert after[2:] == (mine,) * 2


# the asynchronous API (EnvPool's async_reset / send / recv) ----------------------------------------------------
def _single_play(i: int, steps: int) -> list:
    """Env ``i`` of a vector env played alone: reset with seed ``3 + i``, random admissible actions from its
    own generator, next-step autoreset (the step after an episode's end resets it, reward 0)."""
    env = gym.make(ENV, **KW)
    rng = np.random.default_rng(100 + i)
    obs, info = env.reset(seed=3 + i)
    trace, done = [(dict(obs), 0.0, False, False, info["task_id"])], False
    for _ in range(steps):
        action = _actions({"admissible_actions": [info["admissible_actions"]], "_admissible_actions": [True]}, 1,
                          rng)[0]
        if done:
            (obs, info), reward, terminated, truncated = env.reset(), 0.0, False, False
        else:
            obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        trace.append((dict(obs), float(reward), bool(terminated), bool(truncated), info["task_id"]))
    env.close()
    return trace


def _async_play(envs: PoolVectorEnv, steps: int, split: bool) -> list[list]:
    """Each env of ``envs`` played ``steps`` steps through ``recv``/``send``, in whatever order the shares
    answer; ``split``: each received batch is sent back in two parts, the second part's envs first."""
    n = envs.num_envs
    rngs = [np.random.default_rng(100 + i) for i in range(n)]
    traces: list[list] = [[] for _ in range(n)]
    envs.async_reset(seed=3)
    while any(len(t) <= steps for t in traces) or envs._busy.any():
        obs, rewards, terminated, truncated, infos = envs.recv()
        todo = []
        for k, i in enumerate(infos["env_id"].tolist()):
            one = {key: value[k] for key, value in obs.items()}
            traces[i].append((one, float(rewards[k]), bool(terminated[k]), bool(truncated[k]), infos["task_id"][k]))
            if len(traces[i]) <= steps:
                todo.append((i, _actions({"admissible_actions": [infos["admissible_actions"][k]],
                                          "_admissible_actions": [True]}, 1, rngs[i])[0]))
        parts = [todo[len(todo) // 2:], todo[:len(todo) // 2]] if split else [todo]
        for part in parts:
            if part:
                envs.send(tuple(a for _, a in part), np.array([i for i, _ in part]))
    return traces


@pytest.mark.parametrize("in_process", [True, False])
@pytest.mark.parametrize("shared_memory", [True, False])
def test_async_api_plays_each_env_as_it_plays_alone(in_process, shared_memory):
    steps = 10
    envs = make_pool_vec(ENV, 5, 2, vector_kwargs={"in_process": in_process, "shared_memory": shared_memory}, **KW)
    try:
        traces = _async_play(envs, steps, split=shared_memory)
    finally:
        envs.close()
    alone = [_single_play(i, steps) for i in range(5)]
    assert any(step[2] or step[3] for trace in alone for step in trace)  # episodes ended: autoreset exercised
    assert traces == alone


def test_async_batches_are_gymnasium_batches_of_the_envs_received():
    with _pool(4) as envs:
        envs.async_reset(seed=0)
        seen = []
        for _ in range(2):  # the two shares' resets
            obs, rewards, terminated, truncated, infos = envs.recv()
            ids = infos["env_id"]
            assert ids.dtype == np.int64 and len(ids) == 2
            assert rewards.tolist() == [0.0, 0.0] and not terminated.any() and not truncated.any()
            assert envs.single_observation_space.contains({k: v[0] for k, v in obs.items()})
            assert type(obs["web_text"]) is tuple and len(obs["web_text"]) == 2
            assert infos["_task_id"].tolist() == [True, True] and infos["_timings"].all()
            seen += ids.tolist()
        assert sorted(seen) == [0, 1, 2, 3]
        envs.send(("move_forward",), [3])
        obs, rewards, *_, infos = envs.recv()
        assert infos["env_id"].tolist() == [3] and obs["last_action"] == ("move_forward",)


def test_async_misuse_is_a_clear_error_and_the_envs_go_on():
    with _pool(3) as envs:
        with pytest.raises(gym.error.NoAsyncCallError):
            envs.recv()
        envs.send(("noop", "noop"), [0, 2])
        with pytest.raises(gym.error.AlreadyPendingCallError, match=r"envs \[2\] are waiting"):
            envs.send(("noop",), [2])
        for call in (lambda: envs.step(("noop",) * 3), lambda: envs.reset(seed=1), lambda: envs.async_reset(),
                     lambda: envs.get_attr("task")):
            with pytest.raises(gym.error.AlreadyPendingCallError, match="recv"):
                call()
        with pytest.raises(ValueError, match=r"env_id \[3\] out of range: this vector env has envs 0-2"):
            envs.send(("noop",), [3])
        with pytest.raises(ValueError, match="names an env twice"):
            envs.send(("noop", "noop"), [1, 1])
        with pytest.raises(TypeError, match="env indices"):
            envs.send(("noop",), [1.0])
        with pytest.raises(ValueError, match="expected 1 actions"):
            envs.send(("noop", "noop"), [1])
        got = sorted(i for _ in range(2) for i in envs.recv()[-1]["env_id"].tolist())
        assert got == [0, 2]
        obs, *_ = envs.step(("noop",) * 3)  # nothing pending: the lock-step API again
        assert len(obs["web_text"]) == 3


class _Boom(gym.Wrapper):
    def step(self, action):
        if action == "boom":
            raise RuntimeError("boom in the env")
        return self.env.step(action)


@pytest.mark.parametrize("env_id", [0, 2])
def test_an_envs_error_in_async_is_raised_by_recv_and_the_envs_go_on(env_id):
    envs = make_pool_vec(ENV, 3, 2, wrappers=[_Boom], **KW)
    try:
        envs.reset(seed=0)
        envs.send(("boom",), [env_id])
        with pytest.raises(RuntimeError, match="boom in the env") as raised:
            envs.recv()
        if env_id == 2:  # raised in the worker process: its traceback is the cause
            assert "Traceback" in str(raised.value.__cause__)
        envs.send(("noop",), [env_id])
        assert envs.recv()[-1]["env_id"].tolist() == [env_id]
    finally:
        envs.close()


def test_closing_with_results_not_received_neither_hangs_nor_leaks():
    envs = make_pool_vec(ENV, 4, 2, **KW)
    envs.async_reset(seed=0)
    envs.recv()
    envs.close()
    assert envs.closed and not any(p.is_alive() for p in envs._processes)


def _same(a, b) -> bool:
    """Two batched infos are equal: the same keys in the same order, arrays of the same dtype and values."""
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray):
        if not (isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape):
            return False
        if a.dtype == object:
            return all(_same(x, y) for x, y in zip(a.ravel(), b.ravel(), strict=True))
        return bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
    return type(a) is type(b) and (a == b if not isinstance(a, float) or a == a else b != b)


def test_batch_infos_is_gymnasiums_add_info():
    from embodiedweb.vector_pool import _gymnasium_batch, batch_infos

    rng = np.random.default_rng(0)
    values = [3, 2.5, True, np.int32(4), np.float32(1.5), np.bool_(True), "text", None, ["a", "b"], (1, 2),
              np.arange(3), np.ones((2, 2), dtype=np.float32), float("nan")]
    cases = []
    for _ in range(300):
        n = int(rng.integers(1, 6))
        infos = []
        for i in sorted(rng.choice(n, size=int(rng.integers(0, n + 1)), replace=False).tolist()):
            info = {}
            for key in rng.permutation(["a", "b", "c", "final_obs", "nested"])[:int(rng.integers(0, 5))]:
                if key == "nested":
                    info[key] = {"x": values[int(rng.integers(len(values)))], "y": {"z": int(rng.integers(9))}}
                elif key == "final_obs":
                    info[key] = {"web_text": "seen"} if rng.random() < 0.5 else None
                else:
                    info[key] = values[int(rng.integers(len(values)))]
            infos.append((i, info))
        cases.append((infos, n))
    cases.append(([(0, {"k": {"x": 1}}), (1, {"k": 2})], 2))  # a dict and a value under one key
    envs = gym.make_vec(ENV, 3, vectorization_mode="sync", vector_kwargs={"autoreset_mode": "SameStep"}, **KW)
    _, infos = envs.reset(seed=0)
    real = []
    for _ in range(8):
        _, _, _, _, batched = envs.step(_actions(infos, 3, rng))
        infos = batched
        real.append([(i, {k: v[i] for k, v in batched.items() if not k.startswith("_") and batched[f"_{k}"][i]
                          and not isinstance(v, dict)}) for i in range(3)])
    envs.close()
    cases += [(infos_, 3) for infos_ in real]
    errors = 0
    for infos, n in cases:
        try:
            expected = _gymnasium_batch(infos, n)
        except (TypeError, ValueError):  # e.g. None into an int array: an error from both (which one
            errors += 1  # depends on the element met first: env by env there, key by key here)
            with pytest.raises((TypeError, ValueError)):
                batch_infos(infos, n)
            continue
        assert _same(batch_infos(infos, n), expected), infos
    assert 0 < errors < len(cases) // 2


def test_the_async_rollouts_example_collects_whole_episodes():
    """``examples/async_rollouts.py``, tiny: every step is counted once as a transition (resets are not) and
    episodes end within the step limit."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "async_rollouts.py"
    spec = importlib.util.spec_from_file_location("async_rollouts", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    summary = example.main(["--envs", "4", "--steps", "120", "--max-steps", "5"])
    assert 120 <= summary["steps"] < 120 + 4 and summary["steps_per_s"] > 0
    assert summary["episodes"] >= 120 // 5 - 4  # at most 5 transitions an episode, 4 envs still playing
    assert 0.0 <= summary["success_rate"] <= 1.0


def test_a_recv_interrupted_while_waiting_leaves_the_answer_to_the_next_recv():
    """Ctrl+C while ``recv`` waits for a worker: that worker's answer is still to come, so its envs stay
    pending and the next ``recv`` returns it, not another command's."""
    envs = make_pool_vec(ENV, 3, 2, vector_kwargs={"in_process": False}, **KW)
    try:
        envs.reset(seed=0)
        envs.send(("move_forward",), [2])
        real = envs._pipes[1].recv
        envs._pipes[1].recv = lambda: (_ for _ in ()).throw(KeyboardInterrupt)
        with pytest.raises(KeyboardInterrupt):
            envs.recv()
        envs._pipes[1].recv = real
        with pytest.raises(gym.error.AlreadyPendingCallError):
            envs.send(("turn_left",), [2])
        obs, *_, infos = envs.recv()
        assert infos["env_id"].tolist() == [2] and obs["last_action"] == ("move_forward",)
        envs.send(("turn_left",), [2])
        obs, *_, infos = envs.recv()
        assert obs["last_action"] == ("turn_left",)
    finally:
        envs.close()


def test_after_an_interrupted_lock_step_the_asynchronous_api_gets_its_own_answers():
    envs = make_pool_vec(ENV, 3, 2, **KW)
    try:
        envs.reset(seed=0)
        real = envs._pipes[1].recv
        envs._pipes[1].recv = lambda: (_ for _ in ()).throw(KeyboardInterrupt)  # Ctrl+C while step waits
        with pytest.raises(KeyboardInterrupt):
            envs.step(("noop",) * 3)
        envs._pipes[1].recv = real
        envs.send(("turn_left", "turn_left", "turn_right"))
        got = {}
        for _ in range(2):
            obs, *_, infos = envs.recv()
            got.update(zip(infos["env_id"].tolist(), zip(obs["last_action"], infos["step"].tolist(), strict=True),
                           strict=True))
        # the interrupted step ran in every env (step 1); these are the answers of the actions sent (step 2)
        assert got == {0: ("turn_left", 2), 1: ("turn_left", 2), 2: ("turn_right", 2)}
        assert not envs._busy.any()
    finally:
        envs.close()
