"""Fast and real are both first-class: the same agent on the same task gives the same semantic trace
(byte for byte, timings aside) in text mode and in browser mode (real Chromium), for every env."""

from __future__ import annotations

import gymnasium as gym
import pytest

import embodiedweb
from baselines.heuristic import HeuristicAgent
from embodiedweb.evaluate import run_episode


@pytest.fixture(scope="module")
def browser_ok():
    from embodiedweb.web.browser_driver import BrowserUnavailable, get_browser

    try:
        get_browser()
    except BrowserUnavailable as e:
        pytest.skip(str(e))


@pytest.mark.parametrize("env_id", embodiedweb.registered_ids())
def test_same_trace_in_text_and_browser_mode(env_id, browser_ok):
    et, eb = gym.make(env_id, web_mode="text"), gym.make(env_id, web_mode="browser")
    tasks = et.unwrapped.tasks.tasks
    picks = [tasks[0], tasks[len(tasks) // 2]] + [t for t in tasks if t.goal.get("missing")][:1]
    for t in picks:
        for make_agent in (lambda t: et.unwrapped.domain.oracle(t), lambda t: HeuristicAgent()):
            rt = run_episode(et, make_agent(t), t.task_id, seed=4)
            rb = run_episode(eb, make_agent(t), t.task_id, seed=4)
            assert rb["metrics"] == rt["metrics"], (t.task_id, rt["metrics"], rb["metrics"])
            assert rb["trace_digest"] == rt["trace_digest"], t.task_id
        assert rt["agent"] == "heuristic"
    assert run_episode(eb, eb.unwrapped.domain.oracle(picks[0]), picks[0].task_id, seed=1)["metrics"]["overall"]
    et.close()
    eb.close()
