"""Memory of this process tree (PSS from ``/proc``): this Python process, Playwright's driver, Chromium."""

from __future__ import annotations

import os
import time

from embodiedweb.web.browser_driver import child_pids


def pss_mb(pids: list[int]) -> float:
    """Sum of the proportional set size of these processes, in MB (``/proc/<pid>/smaps_rollup``)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            continue
    return total / 1024


def pss_breakdown_mb() -> dict[str, float]:
    """PSS of this process tree split into ``python`` (this process), ``driver`` (Playwright's node
    process) and ``chromium`` (all of Chromium's processes), in MB."""
    me = os.getpid()
    parts = {"python": pss_mb([me]), "driver": 0.0, "chromium": 0.0}
    for pid in child_pids(me, recursive=True):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                exe = os.path.basename(f.read().split(b"\0")[0].decode(errors="replace"))
        except OSError:
            continue
        parts["driver" if exe == "node" else "chromium"] += pss_mb([pid])
    return parts


def process_tree_pss_mb() -> float:
    """PSS of this Python process plus all its descendants (Playwright's driver, Chromium)."""
    return sum(pss_breakdown_mb().values())


def _renderer_count() -> int:
    n = 0
    for pid in child_pids(os.getpid(), recursive=True):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                n += b"--type=renderer" in f.read()
        except OSError:
            continue
    return n


def settle(live_contexts: int, timeout_s: float = 3.0) -> None:
    """Wait until the renderers of contexts closed by earlier resets have exited (Chromium reaps them
    asynchronously), so the figure is the memory of the envs that exist, not of ones being torn down."""
    deadline = time.monotonic() + timeout_s
    while _renderer_count() > live_contexts and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.2)
