"""EWA-Shopping-v0's single purchases against the stop-37 red team (:mod:`tests.domains.outdoor.redteam_shopping`):
ordering standing at the store's door, the units in two orders at the one store, the nearest store the shop accepts
the order at, an unrelated item in the order pass; the units cancelled after the pickup, or some of them delivered
to the kitchen, fail. None of these found a hole (measured on 60 episodes each in stop 37); they stay as guards."""

from __future__ import annotations

import pytest

from tests.domains.outdoor import redteam_shopping as rs
from tests.redteam import assert_verdicts, failures, pool, run, suite

#: episodes that carried the idea out, per agent and tier (60 each in stop 37's measurement)
WANT = 20
CASES = [("standard", c) for c in rs.STANDARD] + [("hard", c) for c in rs.HARD]


@pytest.fixture(scope="module")
def tasks():
    return {"standard": suite(rs.SHOP), "hard": rs.hard_singles()}


@pytest.mark.parametrize("tier,cls", CASES, ids=[f"{t}-{c.__name__}" for t, c in CASES])
def test_shopping_red_team_agent(tier, cls, tasks):
    candidates = pool(cls, tasks[tier])
    res = run(cls, rs.SHOP, candidates, WANT)
    assert not [r["agent_error"] for r in res if r["agent_error"]][:3]
    carried = [r for r in res if r["carried_out"]]
    assert len(carried) >= min(WANT, int(0.9 * len(candidates))), (len(carried), failures(res))
    assert_verdicts(cls, carried)
