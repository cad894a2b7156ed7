"""Browser mode in forked processes: an async vector env's workers, forked from a process whose own browser
stack is live, start their own Playwright and Chromium and leave the parent's alone."""

from __future__ import annotations

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401 - registers the env ids
from embodiedweb.web import browser_driver as bd


def test_forked_async_workers_start_their_own_browser_and_leave_the_parents() -> None:
    try:
        bd.get_browser()
    except bd.BrowserUnavailable as e:
        pytest.skip(str(e))
    parent = gym.make("EWA-Shopping-v0", web_mode="browser")
    parent.reset(seed=0)  # the parent's browser stack is live when the workers are forked
    envs = gym.make_vec("EWA-Shopping-v0", 2, vectorization_mode="async", web_mode="browser",
                        vector_kwargs={"context": "fork"})
    try:
        envs.reset(seed=0)
        obs, *_ = envs.step(("scroll [down]", "goto [/shop/]"))
        assert tuple(obs["last_action_error"]) == ("", "")
        assert obs["web_url"][1].rstrip("/").endswith("/shop")
        obs, *_ = envs.step(("goto [/shop/]", "go_back"))
        assert tuple(obs["last_action_error"]) == ("", "")
    finally:
        envs.close()
    obs, *_ = parent.step("goto [/shop/]")  # the parent's stack still answers
    assert obs["last_action_error"] == "" and obs["web_url"].rstrip("/").endswith("/shop")
    parent.close()


def test_a_pool_steps_browser_envs_in_the_main_process_and_a_worker() -> None:
    """PoolVectorEnv in browser mode: the main process's share drives the main process's browser, the
    forked worker's share its own; both answer, and the pool closes cleanly."""
    from embodiedweb.vector_pool import make_pool_vec

    try:
        bd.get_browser()
    except bd.BrowserUnavailable as e:
        pytest.skip(str(e))
    envs = make_pool_vec("EWA-Shopping-v0", 4, 2, web_mode="browser", vector_kwargs={"context": "fork"})
    try:
        envs.reset(seed=0)
        obs, *_ = envs.step(("goto [/shop/]", "scroll [down]", "goto [/shop/]", "goto [/shop/cart]"))
        assert tuple(obs["last_action_error"]) == ("",) * 4
        assert obs["web_url"][2].rstrip("/").endswith("/shop") and "/cart" in obs["web_url"][3]
    finally:
        envs.close()
