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


def planned_cap(rule: str) -> int:
    """The most tasks of ``rule`` in one split a rule-blind pick may answer: the generator's cap on half the
    rule's planned share (when a rule stalls the fallback draws other rules, so a rule may end with fewer)."""
    from embodiedweb.data_gen.outdoor_tasks import N_SHOP, SHOP_RULES, rule_cap

    planned = round(SHOP_RULES[rule] * N_SHOP) + (N_SHOP - sum(round(v * N_SHOP) for v in SHOP_RULES.values())
                                                   if rule == "under_price" else 0)
    return round(rule_cap(rule) * planned / 2)


def test_no_rule_blind_pick_answers_much_of_one_rule():
    """Per store rule and split, no rule-blind pick but the rule's own definition (the cheapest for "the cheapest")
    answers more than the generator's cap of the rule's tasks; so a pick learnt per rule from train (the rule is
    in the wording) passes about a guess among the stores on test. Until stop 31 each task's condition always
    ruled out what a simpler rule picks: the learnt picks passed 104 of the 120 test tasks."""
    from embodiedweb.data_gen.outdoor_tasks import CONDITION_READINGS, DEFINITIONAL
    from tests.domains.outdoor.rank_prior import learnt_picks, pick_shares

    tasks = suite("EWA-Shopping-v0")
    for split in ("train", "test"):
        for (_errand, rule), (counter, n) in pick_shares(tasks, split).items():
            own = DEFINITIONAL.get(rule, ()) + (("place nearest #1", "place available nearest #1") if rule == "near_place" else ())
            worst = max((k for k in counter if k not in own and not (rule in DEFINITIONAL and k.endswith(CONDITION_READINGS))),
                        key=counter.__getitem__)
            assert counter[worst] <= planned_cap(rule), (split, rule, worst, counter[worst], n)
    learnt = learnt_picks(tasks, ("place nearest #1", "place available nearest #1"))  # (near_place's definition)
    conditional = [v for (_e, rule), v in learnt.items() if rule not in DEFINITIONAL]
    # half: 40 of the 82 test tasks with a condition at stop 32, the picks learnt among the readings of a
    # condition without its number and the named place's own ranks too (36 of 90 at stop 31 among the ranks only)
    assert sum(right for _p, right, _n in conditional) <= 0.5 * sum(n for *_x, n in conditional), conditional


def test_a_condition_read_without_its_number_answers_at_most_half_of_its_rule():
    """A radius, a price limit or a place's radius read as "not the farthest / not the dearest store", or as "one
    of the two nearest / cheapest" (the condition's number never read), answers at most half of its rule's tasks
    in each split, and so does a pick by the named place alone (the store nearest to it ...). Until stop 32 a
    condition always left two of three stores: "the nearest but the dearest" passed 13 of 15 price-limit test
    tasks, "the cheapest but the farthest" 13 of 15 radius ones."""
    from embodiedweb.data_gen.outdoor_tasks import CONDITION_RULES
    from tests.domains.outdoor.rank_prior import pick_shares

    tasks = suite("EWA-Shopping-v0")
    for split in ("train", "test"):
        for (_errand, rule), (counter, n) in pick_shares(tasks, split).items():
            if rule not in CONDITION_RULES:
                continue
            readings = {k: v for k, v in counter.items() if "but the" in k or "of the two" in k or k.startswith("place ")}
            worst = max(readings, key=readings.__getitem__)
            assert readings[worst] <= planned_cap(rule), (split, rule, worst, readings[worst], n)


def test_no_place_a_rule_names_in_test_is_named_in_train():
    """The places the store rules name are split like the navigation tasks' places, in both tiers: the store
    learnt per place from train (the nearest to it) passed 24 of 38 "nearest to a place" test tasks until stop 32
    (the hard tier's single purchases named any place until stop 33)."""
    from embodiedweb.domains.outdoor.shopping import ShoppingDomain
    from embodiedweb.registration import spec_for
    from embodiedweb.tasks import load_tasks
    from tests.domains.outdoor.rank_prior import buys

    hard = load_tasks(spec_for("EWA-Shopping-v0").level_tasks_path("hard"), ShoppingDomain().validate_task)
    errands = [t for t in hard if "errands" in t.goal]
    singles = [t for t in hard if "errands" not in t.goal and "basket" not in t.goal]  # (split so since stop 33)
    for tasks in (suite("EWA-Shopping-v0"), errands, singles, [*suite("EWA-Shopping-v0"), *hard]):
        named = {sp: {e["place"] for t, e in buys(tasks) if t.split == sp and e.get("place")} for sp in ("train", "test")}
        assert named["test"] and named["train"] and not named["test"] & named["train"]


def test_ordering_everywhere_then_cancelling_is_the_rule_blind_pick_it_keeps(tasks):
    """Orders at every store, a walk to the nearest and the other orders cancelled there passes exactly the test
    tasks the nearest store alone passes (the cancelled orders prove nothing, and ordering told nothing); what
    it keeps is a pick like :class:`AlwaysNearest`'s."""
    test_split = [t for t in tasks["EWA-Shopping-v0"] if t.split == "test"]
    kept = run(rt.OrderEverywhereKeepNearest, "EWA-Shopping-v0", test_split)
    nearest = run(rt.AlwaysNearest, "EWA-Shopping-v0", test_split)
    assert all(r["carried_out"] for r in kept)
    assert [bool(r["metrics"]["overall"]) for r in kept] == [bool(r["metrics"]["overall"]) for r in nearest]
