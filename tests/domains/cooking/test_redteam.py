"""The red-team suite: every shortcut agent scores 0 % overall and every genuine alternative 100 %, each on
at least 100 episodes that really carried its idea out (test split first; see ``redteam.py``)."""

from __future__ import annotations

import pytest

from tests.domains.cooking import redteam as rt
from tests.redteam import broken_parts, failures, pool

WANT = 100


@pytest.fixture(scope="module")
def tasks():
    return rt.all_tasks()


@pytest.mark.parametrize("cls", rt.SHORTCUTS, ids=lambda c: c.__name__)
def test_shortcut_scores_zero(cls, tasks):
    res = rt.run_agent(cls, pool(cls, tasks), WANT)
    assert not [r["agent_error"] for r in res if r["agent_error"]][:3]
    carried = [r for r in res if r["carried_out"]]
    assert len(carried) >= WANT, (len(carried), failures([r for r in res if not r["carried_out"]]))
    passed = [r for r in carried if r["metrics"]["overall"]]
    assert not passed, failures(passed)
    assert not broken_parts(cls, carried), failures(broken_parts(cls, carried))


@pytest.mark.parametrize("cls", rt.GENUINE, ids=lambda c: c.__name__)
def test_genuine_alternative_scores_full(cls, tasks):
    res = rt.run_agent(cls, pool(cls, tasks), WANT)
    assert not [r["agent_error"] for r in res if r["agent_error"]][:3]
    carried = [r for r in res if r["carried_out"]]
    assert len(carried) >= WANT, (len(carried), failures([r for r in res if not r["carried_out"]]))
    failed = [r for r in carried if not r["metrics"]["overall"]]
    assert not failed, failures(failed)


def test_shortcut_agents_are_real_shortcuts(tasks):
    """Each shortcut differs from the oracle in one idea: the same agent with that idea removed passes."""
    t = next(t for t in pool(rt.HeatOff, tasks) if t.split == "test")
    honest = rt.run_agent(rt.RedTeamAgent, [t])[0]
    assert honest["carried_out"] and honest["metrics"]["overall"]
