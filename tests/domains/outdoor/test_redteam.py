"""Navigation and shopping red-team suites: shortcuts fail, genuine alternatives pass, each on up to 100
episodes that carried the agent's idea out (test split first; see ``redteam.py``). A rule-blind store
choice is judged on the whole test split: it may pass at most as often as the suite's balance allows
(45 %; no pick more than 40 % of one rule's tasks; 30 % and 34 % over the suite until stop 31)."""

from __future__ import annotations

import pytest

from tests.domains.outdoor import redteam as rt
from tests.redteam import broken_parts, failures, pool, run, suite

WANT = 100
CASES = [(env_id, cls) for env_id, classes in rt.SUITES.items() for cls in classes]


@pytest.fixture(scope="module")
def tasks():
    return {env_id: suite(env_id) for env_id in rt.SUITES}


@pytest.mark.parametrize("env_id,cls", CASES, ids=[f"{e.split('-')[1]}-{c.__name__}" for e, c in CASES])
def test_red_team_agent(env_id, cls, tasks):
    allowed = getattr(cls, "allowed", 0.0)
    if allowed:
        test_split = [t for t in tasks[env_id] if t.split == "test"]
        res = run(cls, env_id, test_split)
        passed = [r for r in res if r["carried_out"] and r["metrics"]["overall"]]
        assert len(passed) <= allowed * len(test_split), (len(passed), len(test_split))
        return
    candidates = pool(cls, tasks[env_id])
    res = run(cls, env_id, candidates, WANT)
    assert not [r["agent_error"] for r in res if r["agent_error"]][:3]
    carried = [r for r in res if r["carried_out"]]
    assert len(carried) >= min(WANT, int(0.9 * len(candidates))), (len(carried), failures(
        [r for r in res if not r["carried_out"]]))
    passed = [r for r in carried if r["metrics"]["overall"]]
    if cls.kind == "genuine":
        assert len(passed) >= 0.98 * len(carried), failures([r for r in carried if not r["metrics"]["overall"]])
    else:
        assert len(passed) <= 0.02 * len(carried), (len(passed), len(carried), failures(passed))
        assert not broken_parts(cls, carried), failures(broken_parts(cls, carried))


def test_no_rule_blind_pick_answers_much_of_one_rule():
    """Per store rule and split, no rule-blind pick but the rule's own definition (the cheapest for "the cheapest")
    answers more than the generator's cap of the rule's tasks; so a pick learnt per rule from train (the rule is
    in the wording) passes about a guess among the stores on test. Until stop 31 each task's condition always
    ruled out what a simpler rule picks: the learnt picks passed 104 of the 120 test tasks."""
    from embodiedweb.data_gen.outdoor_tasks import DEFINITIONAL, RULE_BLIND_CAP
    from tests.domains.outdoor.rank_prior import learnt_picks, pick_shares

    tasks = suite("EWA-Shopping-v0")
    for split in ("train", "test"):
        for (_errand, rule), (counter, n) in pick_shares(tasks, split).items():
            worst = max((k for k in counter if k not in DEFINITIONAL.get(rule, ())), key=counter.__getitem__)
            assert counter[worst] <= max(3, round(RULE_BLIND_CAP * n) + 1), (split, rule, worst, counter[worst], n)
    learnt = learnt_picks(tasks)
    conditional = [v for (_e, rule), v in learnt.items() if rule not in DEFINITIONAL]
    assert sum(right for _p, right, _n in conditional) <= 0.45 * sum(n for *_x, n in conditional), conditional


def test_ordering_everywhere_then_cancelling_is_the_rule_blind_pick_it_keeps(tasks):
    """Orders at every store, a walk to the nearest and the other orders cancelled there passes exactly the test
    tasks the nearest store alone passes (the cancelled orders prove nothing, and ordering told nothing); what
    it keeps is a pick like :class:`AlwaysNearest`'s."""
    test_split = [t for t in tasks["EWA-Shopping-v0"] if t.split == "test"]
    kept = run(rt.OrderEverywhereKeepNearest, "EWA-Shopping-v0", test_split)
    nearest = run(rt.AlwaysNearest, "EWA-Shopping-v0", test_split)
    assert all(r["carried_out"] for r in kept)
    assert [bool(r["metrics"]["overall"]) for r in kept] == [bool(r["metrics"]["overall"]) for r in nearest]
