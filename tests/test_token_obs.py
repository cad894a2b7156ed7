"""TokenObservations of :mod:`embodiedweb.wrappers` (issue 16, item 2: numeric observations)."""

from __future__ import annotations

import os
import subprocess
import sys
import zlib
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import embodiedweb  # noqa: F401  (registers the ids)
from baselines.oracle import OracleAgent
from embodiedweb.env import clean_action
from embodiedweb.registration import registered_ids
from embodiedweb.wrappers import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_TOKEN_KEYS,
    PAD,
    TRUNC,
    UNK,
    DiscreteActions,
    ShapedReward,
    TokenObservations,
    canonical_action,
    token_id,
    tokenize,
)

IDS = registered_ids()
ROOT = Path(__file__).resolve().parents[1]


class KeepText(gym.Wrapper):
    """Keeps the last text observation (what the oracle reads under TokenObservations)."""

    def reset(self, **kw):
        self.text, info = self.env.reset(**kw)
        return self.text, info

    def step(self, action):
        self.text, *rest = self.env.step(action)
        return (self.text, *rest)


def make(env_id, discrete=True, **kw):
    keep = KeepText(gym.make(env_id))
    inner = DiscreteActions(keep) if discrete else keep
    return keep, TokenObservations(inner, **kw)


def oracle_observations(env_id, n_tasks=2, **kw):
    """(wrapped env, [(token obs, text obs, info)]) of the oracle's episodes on ``n_tasks`` tasks of
    ``env_id`` through TokenObservations(DiscreteActions(...)): each oracle action is taken by its candidate
    index, or as text under the wrappers when no candidate holds it (geolocation's answer)."""
    keep, env = make(env_id, **kw)
    d = env.env
    tasks = env.unwrapped.tasks.tasks
    out = []
    for task in tasks[:: max(1, len(tasks) // n_tasks)][:n_tasks]:
        agent = OracleAgent()
        obs, info = env.reset(seed=0, options={"task_id": task.task_id})
        agent.reset(env, keep.text, info)
        out.append((obs, keep.text, info))
        done = False
        while not done:
            action = clean_action(agent.act(keep.text, info))
            index = {canonical_action(c, drop_note=True): i
                     for i, c in reversed(list(enumerate(info["candidate_actions"])))}
            key = canonical_action(action, drop_note=True)
            if key in index:
                obs, _, terminated, truncated, info = env.step(index[key])
            else:
                text, _, terminated, truncated, info = d.env.step(action)
                d._refresh(text, info)
                obs = env.observation(text)
            out.append((obs, keep.text, info))
            done = terminated or truncated
    return env, out


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("encoding", ["ids", "bow"])
def test_space_contains_every_oracle_observation(env_id, encoding):
    """Fixed shapes, inside the space, at every step of sampled oracle episodes of every env; the ids are
    the tokens of the text (truncated with TRUNC), the bag of words their counts; the candidates' rows are
    the ids of the candidate actions."""
    env, steps = oracle_observations(env_id, encoding=encoding, candidates=True)
    space = env.observation_space
    assert set(space.spaces) == set(DEFAULT_TOKEN_KEYS) | {"candidates"}
    for obs, text, info in steps:
        assert space.contains(obs), [k for k in space.spaces if not space[k].contains(obs[k])]
        assert obs["active"] == (text["active"] == "web")
        ids = env.text_ids(text["web_text"])
        if encoding == "ids":
            field = obs["web_text"]
            n = DEFAULT_MAX_TOKENS["web_text"]
            assert field.shape == (n,) and field.dtype == np.int32
            if len(ids) <= n:
                assert np.array_equal(field[: len(ids)], ids) and not field[len(ids):].any()
            else:
                assert np.array_equal(field[: n - 1], ids[: n - 1]) and field[-1] == TRUNC
        else:
            field = obs["web_text"]
            assert field.shape == (env.vocab_size,) and field.dtype == np.float32
            assert np.allclose(np.expm1(field).sum(), len(ids), rtol=1e-4)
        cands = info["candidate_actions"]
        mat = obs["candidates"]
        assert mat.shape == (env.env.max_actions, env.candidate_tokens)
        assert (mat[: len(cands)] != PAD).any(axis=1).all() and not mat[len(cands):].any()
        n = env.candidate_tokens
        for i in (0, len(cands) // 2, len(cands) - 1):
            want = [token_id(t, env.vocab_size) for t in tokenize(cands[i])]
            want = want + [PAD] * (n - len(want)) if len(want) <= n else want[: n - 1] + [TRUNC]
            assert mat[i].tolist() == want, cands[i]
    env.close()


#: texts whose lines the per-chunk token cache must read as their whole: Unicode spaces (str.split and the
#: tokenizer's \\S agree on them), a final sigma (cased by its word), dotted capitals, ligatures, numbers
ODD_TEXTS = ["ΟΔΟΣ ΣΟΦΟΚΛΕΟΥΣ Σ. ΣΑΣ", "İstanbul\u00a0Straße\u2003x\u3000y", "a\x1cb\x1fc\x85d", "ﬁ ǅ ﬀ",
             "[12] link 'x'\n\t[13] StaticText ','\n\t[14] StaticText ','", "1,000.5:30 12:00 v2.0 -0.35|+0.77",
             "", "\n\n", "tab\tsep  double  space ", " lead", "\ufffd x\ufffdy", "a\u200bb c\u2028d"]


def test_text_ids_are_the_ids_of_the_texts_tokens():
    """The ids of a text, joined from cached lines and chunks, are the ids of its tokens, afresh and from the
    caches, on odd texts and on every text of random episodes of every env."""
    env = TokenObservations(gym.make("EWA-Assistant-v0"))
    texts = list(ODD_TEXTS)
    for env_id in IDS:
        probe = gym.make(env_id)
        obs, info = probe.reset(seed=3)
        rng = np.random.default_rng(3)
        for _ in range(12):
            texts += [str(obs[k]) for k in DEFAULT_TOKEN_KEYS if k != "active"]
            adm = info["admissible_actions"]
            obs, _, term, trunc, info = probe.step(adm[int(rng.integers(len(adm)))])
            if term or trunc:
                break
        probe.close()
    for rounds in range(2):
        for text in texts if rounds == 0 else reversed(texts):
            want = [token_id(t, env.vocab_size) for t in tokenize(text)]
            assert env.text_ids(text).tolist() == want, text[:200]
            assert env._line_bytes(text.replace("\n", " ")) == np.array(want, dtype=np.int32).tobytes()
    env.close()


#: token_id("walk", 4096), pinned: the ids must not change between releases (saved policies use them)
WALK_4096 = 2712


def test_tokenizer_and_ids():
    assert tokenize("Walk to Strand Bookstore (828 Broadway), 40.735699!") == \
        ["walk", "to", "strand", "bookstore", "(", "828", "broadway", ")", ",", "40.735699", "!"]
    assert token_id("\ufffd", 4096) == UNK
    # a stable hash: these values are CRC-32's, the same in every process and Python version
    assert token_id("walk", 4096) == zlib.crc32(b"walk") % 4093 + 3 == WALK_4096
    ids = [token_id(t, 64) for t in ["walk", "broadway", "40.7", ",", "the"]]
    assert all(3 <= i < 64 for i in ids)


def test_deterministic_across_processes():
    """Two processes with different PYTHONHASHSEED give the same arrays."""
    code = (
        "import gymnasium as gym, numpy as np, embodiedweb, hashlib\n"
        "from embodiedweb.wrappers import TokenObservations, DiscreteActions\n"
        "env = TokenObservations(DiscreteActions(gym.make('EWA-Shopping-v0')), candidates=True)\n"
        "obs, info = env.reset(seed=3)\n"
        "obs, *_ = env.step(1)\n"
        "h = hashlib.sha256()\n"
        "for k in sorted(obs): h.update(k.encode()); h.update(np.ascontiguousarray(obs[k]).tobytes())\n"
        "print(h.hexdigest())\n"
    )
    outs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
        assert r.returncode == 0, r.stderr
        outs.append(r.stdout.split()[-1])
    assert outs[0] == outs[1]


@pytest.mark.parametrize("encoding", ["ids", "bow"])
def test_async_make_vec_with_shared_memory(encoding):
    envs = gym.make_vec("EWA-Navigation-v0", 2, vectorization_mode="async",
                        wrappers=[lambda e: TokenObservations(DiscreteActions(e), encoding=encoding, candidates=True)])
    try:
        obs, infos = envs.reset(seed=0)
        assert envs.observation_space.contains(obs)
        for _ in range(3):
            obs, *_ = envs.step(np.zeros(2, dtype=np.int64))
            assert envs.observation_space.contains(obs)
        assert obs["instruction"].shape[0] == 2 and obs["candidates"].shape == (2, 512, 24)
        assert obs["instruction"].any()
    finally:
        envs.close()


@pytest.mark.filterwarnings("ignore:.*different from the unwrapped")
def test_check_env_passes():
    from gymnasium.utils.env_checker import check_env

    env = TokenObservations(ShapedReward(gym.make("EWA-Cooking-v0")), encoding="bow")
    check_env(env, skip_render_check=True)
    env.close()


def test_keys_max_tokens_and_truncation():
    keep, env = make("EWA-Navigation-v0", discrete=False, keys=("instruction", "active"),
                     max_tokens={"instruction": 5}, vocab_size=1000)
    obs, _ = env.reset(seed=0)
    assert set(obs) == {"instruction", "active"} and obs["instruction"].shape == (5,)
    want = [token_id(t, 1000) for t in tokenize(keep.text["instruction"])]
    assert list(obs["instruction"][:4]) == want[:4] and obs["instruction"][4] == TRUNC
    assert env.observation_space["instruction"].high.max() == 999


def test_images_pass_through():
    env = TokenObservations(gym.make("EWA-Cooking-v0", render_images=True), images=True)
    obs, _ = env.reset(seed=0)
    assert obs["embodied_image"].dtype == np.uint8 and obs["embodied_image"].ndim == 3
    assert env.observation_space.contains(obs)
    env.close()


def test_bad_arguments_raise_clear_errors():
    base = gym.make("EWA-Cooking-v0")
    with pytest.raises(ValueError, match="encoding"):
        TokenObservations(base, encoding="onehot")
    with pytest.raises(ValueError, match="vocab_size"):
        TokenObservations(base, vocab_size=3)
    with pytest.raises(ValueError, match="keys"):
        TokenObservations(base, keys=("nonsense",))
    with pytest.raises(ValueError, match="max_tokens"):
        TokenObservations(base, max_tokens={"web_text": 0})
    with pytest.raises(ValueError, match="max_tokens"):
        TokenObservations(base, max_tokens={"page": 10})
    with pytest.raises(ValueError, match="render_images"):
        TokenObservations(base, images=True)
    with pytest.raises(ValueError, match="DiscreteActions"):
        TokenObservations(base, candidates=True)
    with pytest.raises(ValueError, match="candidate_tokens"):
        TokenObservations(DiscreteActions(base), candidates=True, candidate_tokens=0)
    with pytest.raises(ValueError, match="outermost"):
        TokenObservations(TokenObservations(base))
    with pytest.raises(ValueError, match="candidate_context"):
        TokenObservations(DiscreteActions(base), candidate_context=True)


@pytest.mark.parametrize("env_id, first", [("EWA-Navigation-v0", "move ["), ("EWA-Shopping-v0", "click [")])
def test_candidate_context_appends_the_line_an_id_names(env_id, first):
    """With ``candidate_context`` a candidate that names a node or a bid carries the words of that line (two
    moves along different streets differ by more than their hashed ids); a plain ``stop`` carries the line
    saying where the agent is; another naming nothing is unchanged."""
    from embodiedweb.wrappers import CONTEXT_SEP, DEFAULT_CONTEXT_TOKENS, tokenize

    plain = TokenObservations(DiscreteActions(gym.make(env_id)), candidates=True)
    ctx = TokenObservations(DiscreteActions(gym.make(env_id)), candidates=True, candidate_context=True)
    assert ctx.candidate_tokens == DEFAULT_CONTEXT_TOKENS
    obs_p, info = plain.reset(seed=3)
    obs_c, _ = ctx.reset(seed=3)
    cands = info["candidate_actions"]
    raw = ctx.unwrapped._observation()
    text = raw["embodied_text"] if first == "move [" else raw["web_text"]
    sep = ctx.text_ids(CONTEXT_SEP)[0]
    checked = 0
    for i, c in enumerate(cands):
        row, row_plain = obs_c["candidates"][i], obs_p["candidates"][i]
        own = len(tokenize(c))
        if own >= plain.candidate_tokens - 1:  # cut in the plain matrix (a long type action)
            continue
        assert np.array_equal(row[:own], row_plain[:own])  # the candidate's own tokens first
        if c.startswith(first):
            arg = c[len(first):].split("]")[0]
            line = next(ln for ln in text.split("\n") if f"[{arg}] " in ln or ln.lstrip("- ").startswith(f"{arg}:"))
            words = tokenize(line)[-3:]  # the end of the line: the street, the element's name
            assert row[own] == sep
            assert set(ctx.text_ids(" ".join(words))) <= set(row[own + 1:].tolist()), (c, line)
            checked += 1
        elif c == "stop":  # ends the episode where the agent is: the embodied view's first line
            here = raw["embodied_text"].split("\n", 1)[0]
            assert row[own] == sep and set(ctx.text_ids(here)) <= set(row[own + 1:].tolist()), here
        elif "[" not in c:
            assert row[own] == 0
    assert checked >= 2


def test_rl_bench_figures(monkeypatch):
    """``ewa bench`` runs the RL figures: real measurements are positive; the JSON keys are all there."""
    from embodiedweb import bench
    from embodiedweb.benches import rl as rl_bench

    assert ("rl", rl_bench.bench_rl) in bench.BENCHES
    inner, extra = rl_bench.wrapped_cost("EWA-Navigation-v0", DiscreteActions, 15)
    assert inner > 0 and extra > 0
    assert rl_bench.vec_throughput("EWA-Navigation-v0", 2, "sync", 5, tokens=True) > 0
    monkeypatch.setattr(rl_bench, "vec_throughput", lambda *a, **k: 100.0)
    monkeypatch.setattr(rl_bench, "wrapped_cost", lambda *a, **k: (1.0, 0.1))
    figures = rl_bench.bench_rl(quick=True)
    for key in ("vec_sync_1_sps", "vec_sync_4_sps", "vec_async_2_sps", "async2_speedup", "async4_speedup",
                "async2_speedup_vs_sync1", "vec_sync_2_tokenobs_sps", "vec_async_2_tokenobs_sps",
                "async2_tokenobs_speedup", "vec_sync_2_images_sps", "async2_images_speedup",
                "vec_pool_8_sps", "pool8_speedup", "vec_sync_16_sps", "pool16_speedup", "pool16_speedup_vs_sync1"):
        assert key in figures
    assert figures["async2_speedup"] == 1.0  # a ratio of the measured throughputs
    for n in rl_bench.POOL_ASYNC_ENVS:  # the asynchronous pool, measured for real, over the (fake) single env
        assert figures[f"vec_pool_async_{n}_sps"] > 0
        assert figures[f"pool{n}_async_speedup_vs_sync1"] == pytest.approx(figures[f"vec_pool_async_{n}_sps"] / 100,
                                                                           abs=0.006)
    timeline = figures["async2_timeline"]  # measured for real
    assert set(timeline) == {"vector_step", "to_worker", "workers", "from_worker", "env_step", "lockstep_ceiling"}
    assert all(v > 0 for v in timeline.values())
    assert 1.0 <= timeline["lockstep_ceiling"] <= 2.0  # two envs: between their slowest and their sum
    # each holds at every step, so it holds for the medians: a worker's step lies inside the workers' span,
    # which lies inside the vector step
    assert timeline["env_step"] <= timeline["workers"] <= timeline["vector_step"]
    assert set(figures["wrapped_overhead_pct"]) == set(IDS)
    assert figures["wrapped_overhead_pct"]["EWA-Cooking-v0"] == {
        "DiscreteActions": 10.0, "ShapedReward": 10.0, "TokenObservations": 10.0, "all": 10.0}
    assert figures["wrapped_step_ms"]["EWA-Cooking-v0"] == 1.0
    assert figures["wrapped_overhead_steady_pct"]["EWA-Cooking-v0"] == {
        "DiscreteActions": 10.0, "ShapedReward": 10.0, "TokenObservations": 10.0, "all": 10.0}
    # measured for real (1 short round): every env, the two stacks
    assert set(figures["wrapped_replay_overhead_pct"]) == set(IDS)
    assert all(set(by_stack) == set(rl_bench.REPLAY_STACKS) and all(isinstance(v, float) for v in by_stack.values())
               for by_stack in figures["wrapped_replay_overhead_pct"].values())


class _SendsNoop(gym.ActionWrapper):
    """Sends ``noop`` whatever the action: a wrapper whose env does not play what it was given."""

    def action(self, action):
        return "noop"


def test_the_replayed_overhead_replays_the_wrapped_trajectory():
    """The bare env replays what reached the env under the wrappers; a replay that leaves that trajectory is an
    error, not a figure."""
    from embodiedweb.benches import rl as rl_bench

    assert isinstance(rl_bench.replayed_overhead("EWA-Navigation-v0", DiscreteActions, 5, 30, 1), float)
    with pytest.raises(RuntimeError, match="left the wrapped env's trajectory"):
        rl_bench.replayed_overhead("EWA-Navigation-v0", _SendsNoop, 0, 30, 1)


def test_wrapped_cost_times_only_the_steps_after_the_warmup(monkeypatch):
    """With a clock that ticks once per reading, every timed step reads it four times (the wrapped step's
    start and end, the inner step's start and end): one tick inside the inner step, two outside. Only the
    steps after the warm-up count, however long it is."""
    from embodiedweb.benches import rl as rl_bench

    ticks = iter(range(10**9))
    monkeypatch.setattr(rl_bench.time, "thread_time", lambda: float(next(ticks)))
    for warmup in (0, 25):
        inner_ms, extra_ms = rl_bench.wrapped_cost("EWA-Navigation-v0", DiscreteActions, 10, seed=0, warmup=warmup)
        assert (inner_ms, extra_ms) == (1e3, 2e3)


def test_vec_speedup_compares_the_same_episodes(monkeypatch):
    """Sync and async vector envs of the same size play the same episodes with the same actions (the
    speedup compares equal work), and the images variant passes its options to the envs."""
    from embodiedweb.benches import rl as rl_bench
    from embodiedweb.vector_pool import make_pool_vec

    def record(env_id, n, mode, steps, **kwargs):
        if mode == "pool":
            envs = make_pool_vec(env_id, n, rl_bench.POOL_WORKERS, **kwargs)
        else:
            envs = gym.make_vec(env_id, num_envs=n, vectorization_mode=mode, **kwargs)
        rng = np.random.default_rng(0)
        obs, infos = envs.reset(seed=0)
        trace = []
        for _ in range(steps):
            actions = tuple(str(rng.choice([a for a in infos["admissible_actions"][i] if not a.startswith("stop")]))
                            for i in range(n))
            obs, *_, infos = envs.step(actions)
            trace.append((actions, tuple(obs["embodied_text"])))
        envs.close()
        return trace

    assert record("EWA-Navigation-v0", 2, "sync", 12) == record("EWA-Navigation-v0", 2, "async", 12)
    assert record("EWA-Navigation-v0", 5, "sync", 12) == record("EWA-Navigation-v0", 5, "pool", 12)
    calls: list[tuple] = []

    def fake(env_id, n, mode, steps, **kw):
        calls.append((env_id, n, mode, kw))
        return 200.0 if mode == "async" else 100.0

    monkeypatch.setattr(rl_bench, "vec_throughput", fake)
    assert rl_bench.vec_speedup("EWA-Cooking-v0", 2, 5, 3, **rl_bench.IMAGES_KWARGS) == (100.0, 200.0, 2.0)
    assert [c[2] for c in calls] == ["sync", "async"] * 3
    assert all(c[3] == rl_bench.IMAGES_KWARGS for c in calls)


def test_wrapped_overhead_is_the_median_over_seeds(monkeypatch):
    """``wrapped_overhead_pct`` is the median over ``WRAPPED_SEEDS`` runs of different episodes (seeds 0, 1,
    ...), not one run's figure nor their mean."""
    from embodiedweb.benches import rl as rl_bench

    seeds: list[int] = []
    extra = {0: 0.1, 1: 0.5, 2: 0.2}  # % of a 1 ms step: 10, 50, 20 -> median 20 (mean 26.7)

    def fake_cost(env_id, wrap, steps, seed=0, warmup=0):
        if steps >= 80:  # not the warm-up run
            seeds.append(seed)
        return 1.0, extra.get(seed, 0.0)

    monkeypatch.setattr(rl_bench, "wrapped_cost", fake_cost)
    monkeypatch.setattr(rl_bench, "vec_throughput", lambda *a, **k: 100.0)
    monkeypatch.setattr(rl_bench, "async_timeline", lambda *a, **k: {})
    monkeypatch.setattr(rl_bench, "pool_async_throughput", lambda *a, **k: 150.0)
    replays: list[tuple] = []
    monkeypatch.setattr(rl_bench, "replayed_overhead", lambda *a, **k: replays.append(a[2:]) or 1.0)
    figures = rl_bench.bench_rl(quick=False)
    assert set(replays) == {(*rl_bench.REPLAY_STEPS, rl_bench.REPLAY_ROUNDS)}
    assert rl_bench.WRAPPED_SEEDS == 3 and sorted(set(seeds)) == [0, 1, 2]
    assert figures["wrapped_overhead_pct"]["EWA-Cooking-v0"]["all"] == 20.0
