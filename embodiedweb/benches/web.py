"""Web figures for ``ewa bench``: step and reset times of both drivers and the browser's memory."""

from __future__ import annotations

import statistics
import time
from typing import Any

from embodiedweb.benches.env_memory import measure_env_isolated
from embodiedweb.extras import require
from embodiedweb.registration import registered_ids
from embodiedweb.web.axtree import PageTree
from embodiedweb.web.browser_driver import BrowserDriver, shutdown_browser
from embodiedweb.web.driver import WebDriver
from embodiedweb.web.text_driver import TextDriver
from web_sites.registry import get_webapp


def _step_times(drv: WebDriver, n_steps: int) -> list[float]:
    """Milliseconds of: click a link that navigates + build the tree (home -> first site -> home ...)."""
    times = []
    for i in range(n_steps):
        target = _first_site_link(drv.tree()) if i % 2 == 0 else _home_link(drv.tree())
        t = time.perf_counter()
        err = drv.execute("click", {"id": target})
        drv.tree().text  # noqa: B018 - the observation is part of the step
        times.append((time.perf_counter() - t) * 1000)
        if err:
            raise RuntimeError(err)
    return times


def _cycle_median(times: list[float]) -> float:
    """Median over home -> site -> home cycles of the mean step in the cycle. The two pages differ in
    size, so single steps are bimodal and their median would sit anywhere in the gap between them."""
    pairs = [(a + b) / 2 for a, b in zip(times[0::2], times[1::2], strict=False)]
    return statistics.median(pairs or times)


def _step_ms(drv: WebDriver, n_steps: int) -> float:
    """:func:`_cycle_median` of :func:`_step_times`."""
    return _cycle_median(_step_times(drv, n_steps))


def _home_link(tree: PageTree) -> str:
    return next(n.bid for n in tree.nodes.values() if n.role == "link" and n.name == "Home")


def _first_site_link(tree: PageTree) -> str:
    return next(n.bid for n in tree.nodes.values() if n.role == "link" and n.name != "Home")


def _reset_ms(drv: WebDriver, n: int) -> float:
    app = get_webapp()
    times = []
    for _ in range(n):
        s = app.new_session_id()
        t = time.perf_counter()
        app.reset_session(s)
        drv.reset(s, "/")
        drv.tree().text  # noqa: B018
        times.append((time.perf_counter() - t) * 1000)
        app.drop_session(s)
    return statistics.median(times)


def bench_web(n_steps: int = 40, quick: bool = False) -> dict[str, Any]:
    """Step and reset times of both drivers (medians over ``n_steps`` navigating clicks + tree), and
    the memory of whole browser-mode envs (:mod:`embodiedweb.benches.env_memory`)."""
    if quick:
        n_steps = min(n_steps, 10)
    app = get_webapp()
    out: dict[str, Any] = {}
    text = TextDriver(app)
    text.reset(app.new_session_id(), "/")
    _step_ms(text, 10)
    # text steps take ~2 ms: many more of them give a median as steady as the browser's
    out["web_text_step_ms"] = round(_step_ms(text, max(100, n_steps * 6)), 3)
    out["reset_text_ms"] = round(_reset_ms(text, max(5, n_steps // 3)), 3)

    require("browser")  # a missing Playwright is one line naming the extra, in the figures' *_error
    browser = BrowserDriver(app)
    try:
        browser.reset(app.new_session_id(), "/")
        _step_ms(browser, 4)  # warm up
        times = _step_times(browser, n_steps)
        out["web_browser_step_ms"] = round(_cycle_median(times), 1)
        out["web_browser_step_mean_ms"] = round(statistics.fmean(times), 1)
        out["reset_browser_ms"] = round(_reset_ms(browser, max(5, n_steps // 3)), 1)
        out["web_text_vs_browser_step_ratio"] = round(out["web_browser_step_ms"] / max(out["web_text_step_ms"], 1e-6), 1)
    finally:
        browser.close()
        shutdown_browser()  # the memory figures come from fresh processes; nothing left running here

    # Memory: every env id in a fresh process (the oracle playing >= 100 steps), the largest reported.
    env_ids = registered_ids()[:1] if quick else registered_ids()
    per_env = {e: measure_env_isolated(e, min_steps=30 if quick else 100, extra=not quick) for e in env_ids}
    worst = max(per_env.values(), key=lambda r: r["pss_mb"])
    out["browser_pss_mb"] = worst["pss_mb"]
    out["browser_pss_mb_env"] = worst["env_id"]
    out["browser_pss_parts_mb"] = worst["pss_parts_mb"]
    out["browser_pss_mb_by_env"] = {e: r["pss_mb"] for e, r in per_env.items()}
    if not quick:
        out["browser_pss_mb_per_extra_env"] = max(r["pss_mb_per_extra_env"] for r in per_env.values())
    return out


if __name__ == "__main__":  # pragma: no cover
    import json

    print(json.dumps(bench_web(), indent=2))
