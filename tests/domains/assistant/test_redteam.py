"""EWA-Assistant-v0's red team (``redteam.py``): every shortcut at most 2 % task success, and the turn it
changes judged wrong in every episode it carried out; every genuine alternative at least 98 %."""

from __future__ import annotations

import pytest

from tests.domains.assistant import redteam as rt
from tests.redteam import pool, run, suite

ENV = "EWA-Assistant-v0"
N = 60


@pytest.fixture(scope="module")
def tasks():
    return suite(ENV)


def _carried(cls, tasks):
    res = run(cls, ENV, pool(cls, tasks), N)
    assert not [r["agent_error"] for r in res if r["agent_error"]][:3]
    carried = [r for r in res if r["carried_out"]]
    assert len(carried) >= 10, (cls.__name__, len(carried), [r["errors"] for r in res][:3])
    return carried


def _changed_turns(cls, task_id, tasks):
    task = next(t for t in tasks if t.task_id == task_id)
    return [i for i, t in enumerate(task.goal["turns"]) if t["kind"] in cls.changes]


@pytest.mark.parametrize("cls", rt.SHORTCUTS, ids=lambda c: c.__name__)
def test_shortcut_fails(cls, tasks):
    carried = _carried(cls, tasks)
    rate = sum(r["metrics"]["overall"] for r in carried) / len(carried)
    assert rate <= 0.02, [r["task_id"] for r in carried if r["metrics"]["overall"]][:3]
    # the turn the idea changes is the one judged wrong (not a later consequence)
    for r in carried:
        idx = _changed_turns(cls, r["task_id"], tasks)
        assert not all(r["metrics"]["turns_ok"][i] for i in idx), (r["task_id"], r["metrics"]["turns_ok"])


@pytest.mark.parametrize("cls", rt.GENUINE, ids=lambda c: c.__name__)
def test_genuine_alternative_passes(cls, tasks):
    carried = _carried(cls, tasks)
    bad = [(r["task_id"], r["metrics"]["turns_ok"], r["errors"][:2]) for r in carried if not r["metrics"]["overall"]]
    assert len(bad) / len(carried) <= 0.02, bad[:3]
