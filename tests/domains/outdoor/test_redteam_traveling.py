"""The traveling red-team suite: every shortcut agent scores at most 2 % overall (and is caught by the metric
meant to catch it), every genuine alternative at least 98 %, each on at least 100 episodes that really
carried its idea out (test split first; see ``redteam_traveling.py``)."""

from __future__ import annotations

import pytest

from tests.domains.outdoor import redteam_traveling as rt

WANT = 100
MAX_SHORTCUT = 0.02
MIN_GENUINE = 0.98


@pytest.fixture(scope="module")
def tasks():
    return rt.all_tasks()


def _fmt(rows):
    return [(r["task_id"], r["metrics"].get("answer"), r["metrics"].get("answer_error"), r["errors"][:2])
            for r in rows[:3]]


def _carried(cls, tasks):
    want = getattr(cls, "want", WANT)  # an idea only some kinds of question allow says how many it has
    res = rt.run(cls, rt.pool(cls, tasks), want)
    assert not [r["agent_error"] for r in res if r["agent_error"]][:3]
    carried = [r for r in res if r["carried_out"]]
    assert len(carried) >= want, (len(carried), _fmt([r for r in res if not r["carried_out"]]))
    # the whole test split first (an idea that only some tasks allow, such as a snippet stating the fact, says so)
    assert sum(r["split"] == "test" for r in carried) >= getattr(cls, "min_test", 70)
    return carried


@pytest.mark.parametrize("cls", rt.SHORTCUTS, ids=lambda c: c.__name__)
def test_shortcut_fails(cls, tasks):
    carried = _carried(cls, tasks)
    passed = [r for r in carried if r["metrics"]["overall"]]
    assert len(passed) <= MAX_SHORTCUT * len(carried), _fmt(passed)
    escaped = [r for r in carried if r["metrics"][cls.caught_by]]
    assert len(escaped) <= MAX_SHORTCUT * len(carried), (cls.caught_by, _fmt(escaped))


@pytest.mark.parametrize("cls", rt.GENUINE, ids=lambda c: c.__name__)
def test_genuine_alternative_passes(cls, tasks):
    carried = _carried(cls, tasks)
    failed = [r for r in carried if not r["metrics"]["overall"]]
    assert len(failed) <= (1 - MIN_GENUINE) * len(carried), _fmt(failed)


def test_memory_cannot_answer(tasks):
    """Beyond failing overall (no article viewed), the answer from memory is itself almost never right."""
    carried = _carried(rt.MemoryAnswer, tasks)
    assert rt.rates(carried)["answer_right"] <= MAX_SHORTCUT


def test_shortcut_agents_are_real_shortcuts(tasks):
    """Each shortcut differs from the oracle in one idea: the same agent with that idea removed passes, and the
    idea alone makes it fail on the same task."""
    t = next(t for t in rt.pool(rt.WebOnly, tasks) if t.split == "test")
    honest = rt.run(rt.RedTeamAgent, [t])[0]
    assert honest["carried_out"] and honest["metrics"]["overall"]
    for cls in rt.SHORTCUTS:
        r = rt.run(cls, [t])[0]
        assert r["carried_out"] and not r["metrics"]["overall"], cls.__name__


HARD_NAME_AGENTS = (rt.NameMergedWithAnother, rt.NameHedgeBesideADenial, rt.NameInContext, rt.NameDeniesAnother)


@pytest.fixture(scope="module")
def hard_tasks():
    return rt.hard_tasks()


@pytest.mark.parametrize("cls", HARD_NAME_AGENTS, ids=lambda c: c.__name__)
def test_name_agents_on_the_hard_tier(cls, hard_tasks):
    """Stop 35's name agents on every name task of the hard tier too (40: 21 test, 19 train): the shortcuts fail,
    the genuine forms pass (before traveling checker version 10: NameMergedWithAnother 40 of 40,
    NameHedgeBesideADenial 3 of 40, NameDeniesAnother 0 of 40, NameInContext 40 of 40)."""
    res = rt.run(cls, rt.pool(cls, hard_tasks))
    assert not [r["agent_error"] for r in res if r["agent_error"]][:3]
    carried = [r for r in res if r["carried_out"]]
    assert len(carried) == 40 and sum(r["split"] == "test" for r in carried) == 21
    wrong = [r for r in carried if r["metrics"]["overall"] != (cls.kind == "genuine")]
    assert len(wrong) <= MAX_SHORTCUT * len(carried), _fmt(wrong)
