"""The red-team suite: every shortcut agent scores 0 % overall and every genuine alternative 100 %, each on
at least 100 episodes that really carried its idea out (test split first; see ``redteam.py``)."""

from __future__ import annotations

import pytest

from tests.domains.cooking import redteam as rt

WANT = 100


@pytest.fixture(scope="module")
def tasks():
    return rt.all_tasks()


def _fmt(rows):
    return [(r["task_id"], [c for c, ok in r["metrics"].get("conditions", {}).items() if not ok][:3], r["errors"][:2])
            for r in rows[:3]]


@pytest.mark.parametrize("cls", rt.SHORTCUTS, ids=lambda c: c.__name__)
def test_shortcut_scores_zero(cls, tasks):
    res = rt.run(cls, rt.pool(cls, tasks), WANT)
    assert not [r["agent_error"] for r in res if r["agent_error"]][:3]
    carried = [r for r in res if r["carried_out"]]
    assert len(carried) >= WANT, (len(carried), _fmt([r for r in res if not r["carried_out"]]))
    passed = [r for r in carried if r["metrics"]["overall"]]
    assert not passed, _fmt(passed)


@pytest.mark.parametrize("cls", rt.GENUINE, ids=lambda c: c.__name__)
def test_genuine_alternative_scores_full(cls, tasks):
    res = rt.run(cls, rt.pool(cls, tasks), WANT)
    assert not [r["agent_error"] for r in res if r["agent_error"]][:3]
    carried = [r for r in res if r["carried_out"]]
    assert len(carried) >= WANT, (len(carried), _fmt([r for r in res if not r["carried_out"]]))
    failed = [r for r in carried if not r["metrics"]["overall"]]
    assert not failed, _fmt(failed)


def test_shortcut_agents_are_real_shortcuts(tasks):
    """Each shortcut differs from the oracle in one idea: the same agent with that idea removed passes."""
    t = next(t for t in rt.pool(rt.HeatOff, tasks) if t.split == "test")
    honest = rt.run(rt.RedTeamAgent, [t])[0]
    assert honest["carried_out"] and honest["metrics"]["overall"]
