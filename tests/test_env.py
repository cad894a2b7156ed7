"""The env core: spaces, switching, stop/truncation, errors, metrics, determinism."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from baselines.base import Agent
from embodiedweb.evaluate import run_episode
from tests.fixtures.lineworld import LineDomain, make_line_env


@pytest.fixture
def env():
    e = make_line_env(max_steps=30)
    yield e
    e.close()


def test_check_env_passes_without_warnings():
    for images in (False, True):
        e = make_line_env(render_images=images)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(e, skip_render_check=True)
        e.close()


def test_observation_keys_and_types(env):
    obs, info = env.reset(seed=1, options={"task_id": "line-0"})
    for k in ("active", "instruction", "web_url", "web_text", "embodied_text", "last_action", "last_action_error"):
        assert isinstance(obs[k], str)
    assert obs["active"] == "web" and obs["web_url"] == "http://ewa.local/"
    assert obs["last_action_error"] == ""
    assert "[3] link 'Home'" in obs["web_text"]
    assert set(info["timings"]) >= {"reset_ms", "obs_ms"}
    assert "switch_environment" in info["admissible_actions"]
    assert env.observation_space.contains(obs)


def test_switch_carries_message_and_domains_are_enforced(env):
    env.reset(seed=0, options={"task_id": "line-0"})
    obs, *_ = env.step("forward")
    assert obs["last_action_error"] == ("'forward' is an embodied action, but you are in the web. "
                                        "Use switch_environment to go to the embodied environment first.")
    obs, _, term, trunc, info = env.step("switch_environment [go to n1 next]")
    assert obs["active"] == "embodied" and obs["message"] == "go to n1 next"
    assert not term and not trunc
    assert "forward" in info["admissible_actions"] and not any(a.startswith("click") for a in info["admissible_actions"])
    obs, *_ = env.step("click [3]")
    assert obs["last_action_error"] == ("'click' is a web action, but you are in the embodied environment. "
                                        "Use switch_environment to go to the web environment first.")
    obs, *_ = env.step("forward")
    assert obs["last_action_error"] == "" and obs["message"] == ""
    assert "at n1" in obs["embodied_text"]
    assert set(info["timings"]) == {"action_ms", "obs_ms"}


def test_bad_actions_are_answered_not_raised(env):
    env.reset(seed=0, options={"task_id": "line-0"})
    for bad in ["", "   ", "clik [3]", "click", "click [999]", "type [3]", "goto [http://example.com/]",
                "tab_focus [7]", "close_tab", "go_forward", "scroll [sideways]", "press [Hyper+Q]", None, 42,
                "move [n9]", "stop [", "switch_environment [[[", "\x00\x01", "click [" + "9" * 40 + "]"]:
        obs, _, term, trunc, info = env.step(bad)
        if term:
            env.reset(seed=0, options={"task_id": "line-0"})
            continue
        if bad not in ("switch_environment [[[",):
            assert obs["last_action_error"], f"no error for {bad!r}"
        if obs["active"] == "embodied":
            env.step("switch_environment")
    obs, *_ = env.step("clik [3]")
    assert "Did you mean 'click'?" in obs["last_action_error"]
    obs, *_ = env.step("goto [http://example.com/]")
    assert "refused" in obs["last_action_error"] and obs["web_url"].startswith("http://ewa.local/")


def test_stop_terminates_with_metrics_and_truncation():
    e = make_line_env(max_steps=3)
    e.reset(seed=0, options={"task_id": "line-0"})
    *_, term, trunc, info = e.step("stop [n1]")
    assert term and not trunc
    m = info["metrics"]
    assert m["answer"] == "n1" and m["steps"] == 1 and m["overall"] is False and 0 <= m["completion"] <= 1
    obs, *_ = e.step("click [3]")
    assert "episode has ended" in obs["last_action_error"]
    e.reset(seed=0, options={"task_id": "line-0"})
    for _ in range(3):
        _, _, term, trunc, info = e.step("scroll [down]")
    assert trunc and not term and "metrics" in info
    e.close()


class _Scripted(Agent):
    name = "scripted"

    def __init__(self, actions):
        self.actions, self.i = list(actions), 0

    def act(self, obs, info):
        self.i += 1
        return self.actions[self.i - 1] if self.i <= len(self.actions) else "stop"


def test_oracle_solves_and_perturbed_fails_and_checker_discriminates():
    import random

    e = make_line_env(max_steps=40)
    dom = e.unwrapped.domain
    for t in e.unwrapped.tasks:
        rec = run_episode(e, dom.oracle(t), t.task_id, seed=3)
        assert rec["metrics"]["overall"], rec
        bad = dom.oracle(t, perturb=random.Random(t.task_id))
        rec = run_episode(e, bad, t.task_id, seed=3)
        assert not rec["metrics"]["overall"] and rec["metrics"]["completion"] == 0.5
    e.close()


def test_same_seed_same_actions_same_trace_digest():
    e1, e2 = make_line_env(), make_line_env()
    digests = []
    for e in (e1, e2):
        t = e.unwrapped.tasks.get("line-1")
        run_episode(e, LineDomain().oracle(t), "line-1", seed=11)
        digests.append(e.trace_digest())
    assert digests[0] == digests[1]
    run_episode(e1, _Scripted(["scroll [down]"]), "line-1", seed=11)
    assert e1.trace_digest() != digests[0]
    e1.close()
    e2.close()


def test_trace_records_semantic_changes(tmp_path):
    path = tmp_path / "trace.jsonl"
    e = make_line_env(trace_path=str(path))
    t = e.unwrapped.tasks.get("line-0")
    run_episode(e, LineDomain().oracle(t), "line-0", seed=1)
    lines = path.read_text().splitlines()
    import json

    recs = [json.loads(x) for x in lines]
    assert recs[0]["event"] == "reset"
    web_changes = [r for r in recs if r.get("changes", {}).get("web")]
    assert any("formlab.cart" in k for r in web_changes for k in r["changes"]["web"])
    world_changes = [r for r in recs if r.get("changes", {}).get("world")]
    assert world_changes and all("action_ms" in r["timings"] for r in recs[1:])
    e.close()


def test_sessions_are_isolated():
    a, b = make_line_env(), make_line_env()
    a.reset(seed=0, options={"task_id": "line-0"})
    b.reset(seed=0, options={"task_id": "line-0"})
    run_episode(a, LineDomain().oracle(a.unwrapped.tasks.get("line-0")), "line-0", seed=0)
    assert a.unwrapped.webapp.snapshot(a.unwrapped.session)["formlab"]["cart"]
    assert b.unwrapped.webapp.snapshot(b.unwrapped.session)["formlab"]["cart"] == []
    a.close()
    b.close()


def test_images_when_enabled():
    e = make_line_env(render_images=True, image_size=(64, 48), viewport=(320, 200))
    obs, _ = e.reset(seed=0)
    assert obs["embodied_image"].shape == (48, 64, 3) and obs["embodied_image"].dtype == np.uint8
    assert obs["web_screenshot"].shape == (200, 320, 3)
    e.close()


def test_hostile_action_strings_are_answered_and_recorded(tmp_path):
    """A lone surrogate (an LLM can emit one) is replaced, not a crash in the trace, digest or JSONL; an
    over-long action is refused and stored cut; error messages stay short enough for the observation."""
    import json

    import gymnasium as gym

    from baselines.base import Agent
    from embodiedweb.env import MAX_ACTION_CHARS
    from embodiedweb.evaluate import run_episode

    env = gym.make("EWA-Cooking-v0")
    env.reset(seed=0)
    obs, _, term, _, info = env.step("stop [caf\ud800]")
    assert term and obs["last_action"] == "stop [caf\ufffd]" and env.unwrapped.trace_digest()
    assert json.dumps(env.unwrapped.trace.records, ensure_ascii=False).encode("utf-8")
    env.reset(seed=0)
    obs, *_ = env.step("x" * 1_000_000)
    assert obs["last_action_error"] == f"Action too long (1,000,000 characters; at most {MAX_ACTION_CHARS:,})."
    assert len(obs["last_action"]) <= MAX_ACTION_CHARS and obs["last_action"].endswith("(1,000,000 characters in all)")
    obs, *_ = env.step("y" * 40_000)
    assert obs["last_action_error"].startswith("Unknown action 'yyy") and len(obs["last_action_error"]) <= 2_000
    assert env.observation_space.contains(obs)

    class Surrogates(Agent):
        name = "surrogates"

        def reset(self, env, obs, info):
            pass

        def act(self, obs, info):
            return "stop [\udcff\ud800]"

    rec = run_episode(env, Surrogates(), env.unwrapped.tasks.tasks[0].task_id, seed=0,
                      steps_path=tmp_path / "s.jsonl")
    (tmp_path / "r.jsonl").write_text(json.dumps(rec, ensure_ascii=False) + "\n", encoding="utf-8")
    assert (tmp_path / "s.trace.jsonl").read_text(encoding="utf-8").count("\ufffd") >= 2
    env.close()
