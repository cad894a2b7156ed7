"""The memory figures of ``ewa bench``: a whole env in browser mode, split by process kind."""

from __future__ import annotations

from embodiedweb.benches.env_memory import measure_env_isolated
from tests.web.test_parity import browser_or_skip


def test_env_memory_is_measured_in_a_fresh_process_and_split_by_kind():
    browser_or_skip().close()
    r = measure_env_isolated("EWA-Navigation-v0", min_steps=10, extra=False)
    parts = r["pss_parts_mb"]
    assert r["env_id"] == "EWA-Navigation-v0" and r["steps"] >= 10
    # every kind of process is there, and the parts add up to the reading
    assert parts["python"] > 20 and parts["driver"] > 20 and parts["chromium"] > 50
    assert abs(sum(parts.values()) - r["pss_mb"]) < 1.0
