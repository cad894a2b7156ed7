"""RL figures of ``ewa bench`` (issue 16, item 5): vector-env throughput and the cost of the wrappers.

* ``vec_{sync,async}_{1,2,4}_sps``: env steps per second (summed over the envs) of
  ``gym.make_vec(VEC_ENV_ID, n, vectorization_mode=...)`` in text mode, random admissible actions,
  after the reset and :data:`VEC_WARMUP` untimed steps (making the envs, and the sites' and city's
  first-use loading in each process, are not timed); ``vec_sync_1_sps`` is the median of
  :data:`VEC_REPEATS` runs of :data:`ASYNC_ROUND_STEPS` steps, each on its own episodes (a run of a few
  hundred steps swings with the pages its episodes open). ``async{2,4}_speedup``: async n envs over sync n
  envs, the median of :data:`VEC_REPEATS` back-to-back pairs: the same tasks and the same actions (the
  random actions are drawn in env order from one seeded generator and the envs are deterministic), so
  both do the same work and only where it runs differs (a sync vector env steps its envs one after
  another in one process: one env's speed on that mix). ``async2_speedup_vs_sync1``: async 2 over
  sync 1, whose single env plays other episodes (the figure issue 16 names; the mix differs).
  ``async2_timeline``: where an async vector step of two envs goes, and the lock-step ceiling of
  its speedup (:func:`async_timeline`).
  ``vec_sync_2_tokenobs_sps``, ``vec_async_2_tokenobs_sps`` and ``async2_tokenobs_speedup``: the same
  with each env in ``TokenObservations``; ``async2_images_speedup``: the same with
  ``render_images=True`` (Cooking's first-person frame and the page's screenshot: a step of about
  10 ms). ``vec_pool_{8,16}_sps`` and ``pool{8,16}_speedup``: a
  :class:`~embodiedweb.vector_pool.PoolVectorEnv` of 8 or 16 envs in :data:`POOL_WORKERS` shares (the main
  process steps one, a worker process the other) over a sync vector env of as many envs, on the same
  episodes and actions (``pool*_speedup_vs_sync1``: over the single env, as ``async2_speedup_vs_sync1``).
  ``vec_pool_async_{16,32}_sps`` and ``pool{16,32}_async_speedup_vs_sync1``: a pool of 16 or 32 envs in
  :data:`POOL_WORKERS` worker processes driven through its asynchronous API (EnvPool's ``send``/``recv``:
  each share's actions go back as soon as its results come, so no share waits for another), over one sync
  env playing as many steps (:data:`ASYNC_ROUND_STEPS`) just before and just after it
  (:func:`pool_async_throughput`; the median of :data:`ASYNC_ROUNDS` rounds' ratios).
  ``load_avg``: the machine's 1-minute load average when the vector figures were taken (the
  async ones need idle cores: on a machine shared with other work they fall).
* ``wrapped_step_ms[env]``: the raw text-mode step (``gym.make``'s env) in ms, and
  ``wrapped_overhead_pct[env][stack]``: the time the wrappers add to that step, in % of it, for
  ``DiscreteActions``, ``ShapedReward(progress)``, ``TokenObservations`` (ids) and the three stacked: the
  median over :data:`WRAPPED_SEEDS` runs of random episodes (seeds 0, 1, ...). Each stack runs its own
  random episodes (after an untimed warm-up run); the inner step's time is measured
  inside the same episodes (its ``step`` is timed in place), so the figure is the wrappers' own time, not a
  difference of two noisy runs. Both are the main thread's CPU time (``time.thread_time``): a text-mode
  step is CPU work in this process, and CPU time does not count the time other processes take the core
  from it, so the ratio holds on a loaded machine. These runs start from new wrappers (their caches
  empty) and a random run keeps opening pages it has not seen: ``wrapped_overhead_steady_pct`` is the same
  figure timed after :data:`STEADY_WARMUP` untimed random steps of the same env and wrappers, what a long
  training run (one env, millions of steps) pays per step.
* ``wrapped_replay_overhead_pct[env][stack]`` (``DiscreteActions`` and the three stacked): the whole wrapped
  step over the bare env's step on the same trajectory, in % (:func:`replayed_overhead`): the wrapped env
  plays random steps and the bare env replays the action texts that reached it, in the same process, round
  after round. Unlike the figures above it counts what the wrapper costs the env's own step: the garbage
  collections its objects cause and what its work evicts from the processor's caches.
"""

from __future__ import annotations

import gc
import os
import time
from typing import Any

import gymnasium as gym
import numpy as np

VEC_ENV_ID = "EWA-Navigation-v0"
#: untimed steps of each vector env before its throughput is timed
VEC_WARMUP = 30
#: random episodes (seeds 0, 1, ...) per env and wrapper stack whose median is a ``wrapped_overhead_pct``: how
#: many new pages a run meets, and so the wrappers' cost, depends on its episodes
WRAPPED_SEEDS = 3
#: untimed random steps of the same env before ``wrapped_overhead_steady_pct`` is timed
STEADY_WARMUP = 2000
#: rounds of :func:`replayed_overhead` (their median ratio is a ``wrapped_replay_overhead_pct``), the untimed
#: and the timed steps of each round, and the stacks it times
REPLAY_ROUNDS = 5
REPLAY_STEPS = (300, 800)
REPLAY_STACKS = ("DiscreteActions", "all")
#: back-to-back (sync, async) pairs whose median ratio is an ``async*_speedup``
VEC_REPEATS = 3
#: worker processes of the ``pool`` figures (the machine the issue names has 2 cores), and envs per worker
POOL_WORKERS = 2
POOL_ENVS_PER_WORKER = (4, 8)
#: envs of the pools timed through the asynchronous API (in :data:`POOL_WORKERS` worker processes)
POOL_ASYNC_ENVS = (16, 32)
#: env steps of each run of an asynchronous pool's round (the pool's, and each of the single env's two), and
#: the rounds whose median ratio is a ``pool*_async_speedup_vs_sync1``
ASYNC_ROUND_STEPS = 4000
ASYNC_ROUNDS = 5
#: the env and options of ``async2_images_speedup``
IMAGES_ENV_ID = "EWA-Cooking-v0"
IMAGES_KWARGS = {"render_images": True, "embodied_view": "first_person"}


def _stacks() -> dict[str, Any]:
    from embodiedweb.wrappers import DiscreteActions, ShapedReward, TokenObservations

    return {
        "DiscreteActions": DiscreteActions,
        "ShapedReward": lambda e: ShapedReward(e, mode="progress"),
        "TokenObservations": TokenObservations,
        "all": lambda e: TokenObservations(DiscreteActions(ShapedReward(e, mode="progress")), candidates=True),
    }


def _random_action(env: Any, info: dict[str, Any], rng: np.random.Generator) -> Any:
    """A random action other than ``stop``: an index of a DiscreteActions, else an admissible action."""
    from embodiedweb.wrappers import find_discrete

    d = find_discrete(env)
    if d is not None:
        valid = [i for i in np.flatnonzero(info["action_mask"]) if not d.action_text(i).startswith("stop")]
        return int(rng.choice(valid)) if valid else 0
    adm = [a for a in info.get("admissible_actions") or [] if not a.startswith("stop")]
    return adm[int(rng.integers(len(adm)))] if adm else "noop"


def wrapped_cost(env_id: str, wrap: Any, steps: int, seed: int = 0, warmup: int = 0) -> tuple[float, float]:
    """(inner step ms, wrapper ms per step) over ``steps`` random steps of ``wrap(gym.make(env_id))``, timed
    after ``warmup`` untimed random steps of the same env (its caches and the wrappers' filled, as in a long
    training run)."""
    inner = gym.make(env_id)
    env = wrap(inner) if wrap is not None else inner
    spent = [0.0]
    step = inner.step
    clock = time.thread_time

    def timed(action: Any) -> Any:
        t0 = clock()
        out = step(action)
        spent[0] += clock() - t0
        return out

    inner.step = timed  # type: ignore[method-assign]
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    total = 0.0
    for i in range(warmup + steps):
        if i == warmup:
            spent[0] = total = 0.0
        action = _random_action(env, info, rng)
        t0 = clock()
        obs, _, terminated, truncated, info = env.step(action)
        total += clock() - t0
        if terminated or truncated:
            obs, info = env.reset(seed=seed + i + 1)
    env.close()
    return 1e3 * spent[0] / steps, 1e3 * (total - spent[0]) / steps


def replayed_overhead(env_id: str, wrap: Any, warmup: int, steps: int, rounds: int,
                      collecting_in_runs: bool = False) -> float:
    """The median over ``rounds`` of the whole step of ``wrap(gym.make(env_id))`` over the bare env's step, in
    %: in each round the wrapped env plays ``warmup`` and then ``steps`` random steps (reset with the round's
    seeds), and a bare env replays the action texts that reached the env under the wrappers; the ``steps``
    after the warm-up are timed in both (the main thread's CPU time; resets are not timed). The bare env must
    play what the wrapped one played (the same episode ends and trace digests): one that does not is an error,
    not a figure. Unless ``collecting_in_runs``, the garbage collector collects before each timed run and is off
    during it: a full collection (60-100 ms in a long run) lands in one run or the other and would swing a
    round's ratio by ten points, so the figure leaves the collector's time out (the wrappers keep what they
    cache out of its way: see :mod:`embodiedweb.wrappers`)."""
    from embodiedweb.wrappers import find_discrete

    ratios = []
    for r in range(rounds):
        env = wrap(gym.make(env_id))
        discrete = find_discrete(env)
        rng = np.random.default_rng(r)
        sent: list[Any] = []

        def choose(_i: int, info: dict[str, Any], env: Any = env, discrete: Any = discrete,
                   rng: np.random.Generator = rng, sent: list[Any] = sent) -> Any:
            action = _random_action(env, info, rng)
            sent.append(discrete.action_text(action) if discrete is not None else action)
            return action

        wrapped, ends = _timed_play(env, choose, warmup + steps, warmup, r, collecting_in_runs)
        raw, bare_ends = _timed_play(gym.make(env_id), lambda i, _info, sent=sent: sent[i], warmup + steps, warmup, r,
                                     collecting_in_runs)
        if bare_ends != ends:
            raise RuntimeError(f"{env_id}: the replay left the wrapped env's trajectory (episode ends and trace "
                               f"digests {bare_ends[:3]} against {ends[:3]})")
        ratios.append(100 * (wrapped / raw - 1))
    return round(float(np.median(ratios)), 1)


def _timed_play(env: Any, choose: Any, total: int, warmup: int, seed: int, collecting: bool
                ) -> tuple[float, list[tuple[int, str]]]:
    """Play ``total`` steps of ``env`` (``choose(i, info)`` gives step ``i``'s action; reset with ``seed``, and
    after an episode's end with ``seed + 1000 * (i + 1)``), then close it: (the main thread's CPU time of the
    steps after the first ``warmup``, where each episode ended with its trace's digest, and the last one's).
    Unless ``collecting``, the garbage collector collects before the timed steps and is off during them."""
    clock = time.thread_time
    was_on = gc.isenabled()
    spent = 0.0
    ends: list[tuple[int, str]] = []
    obs, info = env.reset(seed=seed)
    try:
        for i in range(total):
            if i == warmup and not collecting:
                gc.collect()
                gc.disable()
            action = choose(i, info)
            t0 = clock()
            obs, _, terminated, truncated, info = env.step(action)
            spent += clock() - t0 if i >= warmup else 0.0
            if terminated or truncated:
                ends.append((i, env.unwrapped.trace_digest()))
                obs, info = env.reset(seed=seed + 1000 * (i + 1))
        ends.append((-1, env.unwrapped.trace_digest()))
    finally:
        if was_on:
            gc.enable()
        env.close()
    return spent, ends


def _random_vector_actions(infos: dict[str, Any], n: int, rng: np.random.Generator) -> tuple[str, ...]:
    """A random admissible action other than ``stop`` for each of a vector env's ``n`` envs (drawn in env
    order: the same infos and generator give the same actions, sync or async)."""
    adm, ok = infos.get("admissible_actions"), infos.get("_admissible_actions")
    actions = []
    for i in range(n):
        cands = [a for a in adm[i] if not a.startswith("stop")] if adm is not None and ok[i] else []
        actions.append(cands[int(rng.integers(len(cands)))] if cands else "noop")
    return tuple(actions)


def vec_throughput(env_id: str, n: int, mode: str, steps: int, seed: int = 0, tokens: bool = False,
                   warmup: int = VEC_WARMUP, **kwargs: Any) -> float:
    """Env steps per second of ``gym.make_vec(env_id, n, vectorization_mode=mode, **kwargs)``, random
    admissible actions (``tokens``: each env wrapped in ``TokenObservations``), timed after ``warmup`` untimed
    steps. The actions are drawn in env order from one generator seeded with ``seed``, and the envs are reset
    with ``seed``: sync and async vector envs of the same ``n`` play the same episodes."""
    from embodiedweb.wrappers import TokenObservations

    wrappers = [TokenObservations] if tokens else None
    if mode == "pool":
        from embodiedweb.vector_pool import make_pool_vec

        envs = make_pool_vec(env_id, n, POOL_WORKERS, wrappers=wrappers, **kwargs)
    else:
        envs = gym.make_vec(env_id, num_envs=n, vectorization_mode=mode, wrappers=wrappers, **kwargs)
    try:
        rng = np.random.default_rng(seed)
        obs, infos = envs.reset(seed=seed)
        t0 = time.perf_counter()
        for k in range(warmup + steps):
            if k == warmup:
                t0 = time.perf_counter()
            obs, _, _, _, infos = envs.step(_random_vector_actions(infos, n, rng))
        return n * steps / (time.perf_counter() - t0)
    finally:
        envs.close()


def pool_async_throughput(env_id: str, n: int, steps: int, seed: int = 0, warmup: int = VEC_WARMUP,
                          in_process: bool = False, **kwargs: Any) -> float:
    """Env steps per second of a :class:`~embodiedweb.vector_pool.PoolVectorEnv` of ``n`` envs in
    :data:`POOL_WORKERS` worker processes driven through its asynchronous API (``recv`` one share's results,
    ``send`` its actions back while the other shares step): ``steps`` steps per env timed after ``warmup``,
    random admissible actions."""
    from embodiedweb.vector_pool import make_pool_vec

    envs = make_pool_vec(env_id, n, POOL_WORKERS, vector_kwargs={"in_process": in_process}, **kwargs)
    try:
        rng = np.random.default_rng(seed)
        envs.async_reset(seed=seed)
        done, t0 = 0, 0.0
        while done < n * (warmup + steps):
            _, _, _, _, infos = envs.recv()
            ids = infos["env_id"]
            envs.send(_random_vector_actions(infos, len(ids), rng), ids)
            done += len(ids)
            if not t0 and done >= n * warmup:
                t0, start = time.perf_counter(), done
        return (done - start) / (time.perf_counter() - t0)
    finally:
        envs.close()


def vec_speedup(env_id: str, n: int, steps: int, repeats: int = VEC_REPEATS, mode: str = "async", **kwargs: Any
                ) -> tuple[float, float, float]:
    """(sync sps, ``mode`` sps, ``mode`` / sync) of ``n`` envs on the same episodes and actions: medians over
    ``repeats`` back-to-back pairs (the ratio is the median of the pairs' ratios)."""
    pairs = [(vec_throughput(env_id, n, "sync", steps, **kwargs), vec_throughput(env_id, n, mode, steps, **kwargs))
             for _ in range(repeats)]
    return (float(np.median([p[0] for p in pairs])), float(np.median([p[1] for p in pairs])),
            float(np.median([p[1] / p[0] for p in pairs])))


class _StepClock(gym.Wrapper[Any, Any, Any, Any]):
    """Records when each ``step`` and ``reset`` of the env it wraps starts and ends (``time.perf_counter``:
    one clock for every process of the machine)."""

    def __init__(self, env: gym.Env[Any, Any]) -> None:
        super().__init__(env)
        self.stamps: list[tuple[float, float]] = []

    def step(self, action: Any) -> Any:
        t0 = time.perf_counter()
        out = self.env.step(action)
        self.stamps.append((t0, time.perf_counter()))
        return out

    def reset(self, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        out = self.env.reset(**kwargs)
        self.stamps.append((t0, time.perf_counter()))
        return out

    def clock_stamps(self) -> list[tuple[float, float]]:
        return self.stamps


def async_timeline(env_id: str, steps: int, n: int = 2, seed: int = 0, warmup: int = VEC_WARMUP,
                   **kwargs: Any) -> dict[str, float]:
    """Where the time of one step of an async vector env of ``n`` envs goes, in ms, as medians over ``steps``
    steps (robust to the odd slow step; medians need not add up): ``vector_step`` (``step`` called to
    returned) is ``to_worker`` (the call to the first worker's ``env.step`` starting: the actions sent) +
    ``workers`` (that start to the slowest worker's end) + ``from_worker`` (that end to the call's return: the
    worker's shared-memory write and pipe, and the main process's reading of them) at every step;
    ``env_step``: the slowest worker's ``env.step`` alone. ``lockstep_ceiling``: the speedup over stepping
    the same envs one after another that a lock-step vector env could reach with no cost of its own, the
    sum of all the workers' step times over the sum of each vector step's slowest (steps cost from a tenth
    of a millisecond, a street move, to a few, a reset: a vector step waits for its slowest env). Random
    admissible actions; timestamps from the workers and the main process on one clock."""
    envs = gym.make_vec(env_id, num_envs=n, vectorization_mode="async", wrappers=[_StepClock], **kwargs)
    try:
        rng = np.random.default_rng(seed)
        _, infos = envs.reset(seed=seed)
        calls = []
        for _ in range(warmup + steps):
            actions = _random_vector_actions(infos, n, rng)
            t0 = time.perf_counter()
            _, _, _, _, infos = envs.step(actions)
            calls.append((t0, time.perf_counter()))
        stamps = [np.array(s[1:]) for s in envs.call("clock_stamps")]  # s[0]: the first reset
    finally:
        envs.close()
    call = np.array(calls)[warmup:]
    work = np.stack([s[warmup:] for s in stamps])  # (env, step, start/end): one stamp per vector step
    first_start, slowest_end = work[:, :, 0].min(axis=0), work[:, :, 1].max(axis=0)

    def ms(x: np.ndarray) -> float:
        return round(1e3 * float(np.median(x)), 3)

    durations = work[:, :, 1] - work[:, :, 0]
    return {"vector_step": ms(call[:, 1] - call[:, 0]), "to_worker": ms(first_start - call[:, 0]),
            "workers": ms(slowest_end - first_start), "from_worker": ms(call[:, 1] - slowest_end),
            "env_step": ms(durations.max(axis=0)),
            "lockstep_ceiling": round(float(durations.sum() / durations.max(axis=0).sum()), 2)}


def bench_rl(quick: bool = False) -> dict[str, Any]:
    from embodiedweb.registration import registered_ids

    figures: dict[str, Any] = {}
    vec_steps = 60 if quick else 300
    repeats = 1 if quick else VEC_REPEATS
    # first use in this process: the sites, the city and the caches load as pages are first visited, and one
    # sync env timed after 300 such steps still ran 15-25 % below its later runs (which the ``*_vs_sync1``
    # figures divide by): 1,200 steps first; and a run of 300 steps swings with its episodes' pages (one env
    # measured 1,597 steps/s where a 16-env sync vector env, the same env 16 times, measured 2,000), so the
    # median of ``repeats`` runs of ASYNC_ROUND_STEPS steps, each its own episodes
    vec_throughput(VEC_ENV_ID, 1, "sync", 4 * vec_steps, seed=99)
    single_steps = 400 if quick else ASYNC_ROUND_STEPS
    figures["vec_sync_1_sps"] = round(float(np.median([vec_throughput(VEC_ENV_ID, 1, "sync", single_steps, seed=r)
                                                       for r in range(repeats)])), 1)
    figures["vec_async_1_sps"] = round(vec_throughput(VEC_ENV_ID, 1, "async", vec_steps), 1)
    for n in (2, 4):
        sync_sps, async_sps, ratio = vec_speedup(VEC_ENV_ID, n, vec_steps, repeats)
        figures[f"vec_sync_{n}_sps"], figures[f"vec_async_{n}_sps"] = round(sync_sps, 1), round(async_sps, 1)
        figures[f"async{n}_speedup"] = round(ratio, 2)
    figures["async2_speedup_vs_sync1"] = round(figures["vec_async_2_sps"] / figures["vec_sync_1_sps"], 2)
    # numeric observations: the async workers copy arrays into shared memory instead of texts
    sync_sps, async_sps, ratio = vec_speedup(VEC_ENV_ID, 2, vec_steps, repeats, tokens=True)
    figures["vec_sync_2_tokenobs_sps"], figures["vec_async_2_tokenobs_sps"] = round(sync_sps, 1), round(async_sps, 1)
    figures["async2_tokenobs_speedup"] = round(ratio, 2)
    # a step of about 10 ms (first-person frame and screenshot), where the workers' parallelism shows
    sync_sps, async_sps, ratio = vec_speedup(IMAGES_ENV_ID, 2, vec_steps // 3, repeats, **IMAGES_KWARGS)
    figures["vec_sync_2_images_sps"], figures["vec_async_2_images_sps"] = round(sync_sps, 1), round(async_sps, 1)
    figures["async2_images_speedup"] = round(ratio, 2)
    figures["async2_timeline"] = async_timeline(VEC_ENV_ID, vec_steps)
    # several envs per process (PoolVectorEnv): the step costs average out within each share
    for per_worker in POOL_ENVS_PER_WORKER:
        n = POOL_WORKERS * per_worker
        sync_sps, pool_sps, ratio = vec_speedup(VEC_ENV_ID, n, vec_steps, repeats, mode="pool")
        figures[f"vec_sync_{n}_sps"], figures[f"vec_pool_{n}_sps"] = round(sync_sps, 1), round(pool_sps, 1)
        figures[f"pool{n}_speedup"] = round(ratio, 2)
        figures[f"pool{n}_speedup_vs_sync1"] = round(pool_sps / figures["vec_sync_1_sps"], 2)
    # the pool through its asynchronous API, against one sync env playing as many steps just before and just
    # after it (one env's speed drifts by 10-30 % over minutes on this VM, and a run of a few hundred steps
    # depends on its episodes): the median of ASYNC_ROUNDS rounds
    round_steps = 400 if quick else ASYNC_ROUND_STEPS
    for n in POOL_ASYNC_ENVS:
        rounds = []
        for r in range(1 if quick else ASYNC_ROUNDS):
            before = vec_throughput(VEC_ENV_ID, 1, "sync", round_steps, seed=r)
            pool_sps = pool_async_throughput(VEC_ENV_ID, n, round_steps // n, seed=r)
            after = vec_throughput(VEC_ENV_ID, 1, "sync", round_steps, seed=r + 10)
            rounds.append((pool_sps, 2 * pool_sps / (before + after)))
        figures[f"vec_pool_async_{n}_sps"] = round(float(np.median([sps for sps, _ in rounds])), 1)
        figures[f"pool{n}_async_speedup_vs_sync1"] = round(float(np.median([ratio for _, ratio in rounds])), 2)
    figures["load_avg"] = round(os.getloadavg()[0], 2)
    figures["vec_env_id"] = VEC_ENV_ID
    steps = 80 if quick else 400
    seeds = range(1 if quick else WRAPPED_SEEDS)
    raw_ms: dict[str, float] = {}
    overhead: dict[str, dict[str, float]] = {}
    for env_id in registered_ids():
        overhead[env_id] = {}
        wrapped_cost(env_id, _stacks()["all"], 30, seed=99)  # first use: the sites, the city, the caches
        inner: list[float] = []
        for name, wrap in _stacks().items():
            runs = [wrapped_cost(env_id, wrap, steps, seed=seed) for seed in seeds]
            inner += [inner_ms for inner_ms, _ in runs]
            overhead[env_id][name] = round(float(np.median([100 * extra / inner_ms for inner_ms, extra in runs])), 1)
        raw_ms[env_id] = round(float(np.mean(inner)), 3)
    figures["wrapped_step_ms"] = raw_ms
    figures["wrapped_overhead_pct"] = overhead
    # the same after STEADY_WARMUP untimed steps of each env: what a long training run pays per step
    warm = 200 if quick else STEADY_WARMUP
    steady: dict[str, dict[str, float]] = {}
    for env_id in registered_ids():
        steady[env_id] = {}
        for name, wrap in _stacks().items():
            runs = [wrapped_cost(env_id, wrap, steps, seed=seed, warmup=warm) for seed in seeds]
            steady[env_id][name] = round(float(np.median([100 * extra / inner_ms for inner_ms, extra in runs])), 1)
    figures["wrapped_overhead_steady_pct"] = steady
    # the whole wrapped step over the bare env's, on the same trajectories (this process's caches warm)
    warmup, timed = (20, 60) if quick else REPLAY_STEPS
    stacks = _stacks()
    figures["wrapped_replay_overhead_pct"] = {
        env_id: {name: replayed_overhead(env_id, stacks[name], warmup, timed, 1 if quick else REPLAY_ROUNDS)
                 for name in REPLAY_STACKS} for env_id in registered_ids()}
    return figures
