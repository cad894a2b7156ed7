"""Browser faults never end a run (issue 14 items 1-3): Playwright's driver, Chromium or a renderer
killed or stopped (SIGSTOP) mid-episode. The next step answers quickly with a message naming the
fault, the tabs are back at their last pages, the sites' state is what the agent made it (reopening a
page logs nothing), and the episode can finish. Faults are injected into the test's own processes."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401 - registers the env ids
from embodiedweb.web import browser_driver as bd

WATCHDOG_S = 2.0
ANSWER_S = 5.0  # after a crash the next step answers within this; after a stall, within the watchdog + this


@pytest.fixture(scope="module")
def env() -> Iterator[gym.Env]:
    try:
        bd.get_browser()
    except bd.BrowserUnavailable as e:
        pytest.skip(str(e))
    e = gym.make("EWA-Shopping-v0", web_mode="browser", watchdog_s=WATCHDOG_S)
    yield e
    e.close()


def _signal(role: str, sig: int) -> Callable[[], None]:
    def inject() -> None:
        pids = bd.stack_pids()[role]
        assert pids, f"no {role} process to signal"
        for pid in pids:
            os.kill(pid, sig)
    return inject


def _left_behind() -> list[str]:
    """Stopped or zombie processes among this process's descendants."""
    out = []
    for pid in bd.child_pids(os.getpid()):
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if state in (b"T", b"t", b"Z"):
            out.append(f"{pid} {state.decode()} {bd._argv(pid)[:1]}")
    return out


def _mid_episode(env: gym.Env) -> tuple[str, dict]:
    env.reset(seed=0)
    env.step("goto [http://ewa.local/map/search?q=station]")  # logged by the map site
    obs, *_ = env.step("new_tab")
    obs, *_ = env.step("goto [http://ewa.local/shop/search?q=milk]")  # logged by the shop
    assert obs["last_action_error"] == "" and obs["web_url"].startswith("http://ewa.local/shop/search")
    u = env.unwrapped
    return obs["web_tabs"], u.webapp.snapshot(u.session)


FAULTS = {
    # (how, words the message must hold, seconds the next step may take)
    "driver killed": (_signal("driver", signal.SIGKILL), "driver process died", ANSWER_S),
    "chromium killed": (_signal("chromium", signal.SIGKILL), "Chromium process died", ANSWER_S),
    "renderer killed": (_signal("renderer", signal.SIGKILL), "renderer process crashed", ANSWER_S),
    "driver stopped": (_signal("driver", signal.SIGSTOP), f"did not answer within {WATCHDOG_S:g} s",
                       WATCHDOG_S + ANSWER_S),
    "chromium stopped": (_signal("chromium", signal.SIGSTOP), f"did not answer within {WATCHDOG_S:g} s",
                         WATCHDOG_S + ANSWER_S),
    "renderer stopped": (_signal("renderer", signal.SIGSTOP), f"did not answer within {WATCHDOG_S:g} s",
                         WATCHDOG_S + ANSWER_S),
}


@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_fault_mid_episode_is_recovered_with_the_tabs_and_state_kept(env, fault) -> None:
    inject, words, limit = FAULTS[fault]
    tabs, state = _mid_episode(env)
    inject()
    t0 = time.monotonic()
    obs, _, term, trunc, info = env.step("scroll [down]")
    took = time.monotonic() - t0
    assert took < limit, f"{fault}: the next step took {took:.1f} s"
    assert words in obs["last_action_error"] and "tab(s) were reopened" in obs["last_action_error"], obs
    assert obs["web_tabs"] == tabs  # both tabs, at their last pages, the second one active
    u = env.unwrapped
    assert u.webapp.snapshot(u.session) == state  # reopening the pages logged nothing
    assert "searchbox" in obs["web_text"] and info["admissible_actions"]
    obs, *_ = env.step("goto [http://ewa.local/shop/cart]")
    assert obs["last_action_error"] == "" and obs["web_url"] == "http://ewa.local/shop/cart"
    *_, term, _, info = env.step("stop [done]")
    assert term and "metrics" in info
    assert not _left_behind(), _left_behind()


def test_a_new_env_works_after_the_driver_was_killed(env) -> None:
    _mid_episode(env)
    _signal("driver", signal.SIGKILL)()
    time.sleep(0.2)
    other = gym.make("EWA-Cooking-v0", web_mode="browser", watchdog_s=WATCHDOG_S)
    try:
        obs, _ = other.reset(seed=0)
        assert obs["web_text"] and obs["last_action_error"] == ""
        obs, *_ = other.step("goto [http://ewa.local/wiki/]")
        assert obs["last_action_error"] == "" and obs["web_url"] == "http://ewa.local/wiki/"
    finally:
        other.close()
    obs, *_ = env.step("scroll [down]")  # the first env's context went down with the old browser
    assert "tab(s) were reopened" in obs["last_action_error"]


def test_chromium_killed_while_the_observation_is_read(env, monkeypatch) -> None:
    _mid_episode(env)
    drv = env.unwrapped.driver
    real, calls = drv._snap, []

    def snap_after_a_kill(page):
        if not calls:
            calls.append(1)
            _signal("chromium", signal.SIGKILL)()
            time.sleep(0.2)
        return real(page)

    monkeypatch.setattr(drv, "_snap", snap_after_a_kill)
    obs, *_ = env.step("goto [http://ewa.local/shop/cart]")
    assert calls and "Chromium process died" in obs["last_action_error"]
    assert obs["web_url"] == "http://ewa.local/shop/cart" and "Cart" in obs["web_text"]


def test_a_reset_after_a_fault_starts_clean(env) -> None:
    _mid_episode(env)
    _signal("renderer", signal.SIGKILL)()
    obs, info = env.reset(seed=1)
    assert obs["last_action_error"] == "" and obs["web_tabs"].count("Tab ") == 1
    obs, *_ = env.step("goto [http://ewa.local/recipes/]")
    assert obs["last_action_error"] == ""
