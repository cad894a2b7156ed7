"""The Assistant's comparison turns read a comparison (stop 36): the other recipe named as the one the answer sets
its choice against ("X beats Y", "X is quicker than Y", "X over Y", "X, since Y takes longer") is no second answer;
the relation said the wrong way round and a hedge still fail. Fast (a real turn of the suite, no episode), so it is
in ``make mutate``'s focused list; the whole suite's comparison turns are counted by ``test_every_comparison_turn``."""

from __future__ import annotations

from typing import Any

import pytest

from embodiedweb.domains.assistant import checks
from embodiedweb.domains.outdoor import answers

#: a compare turn of the shipped suite: Bowery Feast Plate takes less time than Bowery Bistro Plate
COMPARE = {"measure": "time", "name": "Bowery Feast Plate", "others": ["Bowery Bistro Plate"]}
RECALL = {"name": "Russet Potato", "others": ["Drain Cleaner Gel, 32 oz"]}

GENUINE = ["{x}: it beats {y}", "{x} is quicker than {y}", "{x} is cheaper than {y}", "{x}, since {y} takes longer",
           "{x} over {y}", "{x}, because {y} has more steps", "Compared with {y}, {x} takes less time.",
           "{x} takes less time to make than {y}", "{x}, ahead of {y}", "{x} rather than {y}", "{x}, not {y}"]
WRONG_WAY = ["{y} is cheaper than {x}", "{y} is slower than {x}", "{y} over {x}", "{y}: it beats {x}",
             "{y}, since {x} takes longer"]
HEDGES = ["{x} or {y}", "either {x} or {y}", "{x}, or maybe {y}", "{x} loses to {y}",
          "{x} beats {y}, or {y} beats {x}", "{x}, if it is quicker than {y}", "{x} over {y}, or {y}",
          "{x} or {y}, whichever is quicker", "{x}, or maybe {y}, since {y} is quicker", "{x}; {y} beats it",
          "{x} is quicker than {y}, or the reverse", "{x} beats {y}, or maybe the other way round",
          "{x}, not {y}, or vice versa"]


def _judge(kind: str, e: dict[str, Any], form: str) -> dict[str, Any]:
    return checks.CHECKS[kind](e, {}, {}, form.format(x=e["name"], y=e["others"][0]))


@pytest.mark.parametrize("form", GENUINE)
def test_a_comparison_that_names_both_passes(form: str) -> None:
    assert _judge("compare", COMPARE, form) == {"ok": True, "why": ""}


@pytest.mark.parametrize("form", WRONG_WAY)
def test_the_relation_said_the_wrong_way_round_fails(form: str) -> None:
    """The name said first is the one given: "Y is slower than X" gives Y (fails, though it means X: the judge
    reads no adjective), with a reason that says the right one was set against another."""
    r = _judge("compare", COMPARE, form)
    assert not r["ok"]
    assert r["why"].startswith(("answer gives another over 'Bowery Feast Plate'", "answer also names")), r


@pytest.mark.parametrize("form", HEDGES)
def test_a_hedge_around_a_comparison_fails(form: str) -> None:
    r = _judge("compare", COMPARE, form)
    assert not r["ok"] and "Bowery Bistro Plate" in r["why"], r


def test_the_other_said_as_a_subject_still_counts() -> None:
    """A limit, kept on purpose: the other named as a subject anywhere is given ("X beats Y and Y is slower"), as
    the judge cannot tell a restatement from a second answer without reading the adjectives."""
    r = _judge("compare", COMPARE, "{x} beats {y} and {y} is slower")
    assert r == {"ok": False, "why": "answer also names ['Bowery Bistro Plate']"}


def test_only_the_comparison_turn_reads_comparisons() -> None:
    """A recall or place turn asks no comparison: "X over Y" still names two there."""
    assert not _judge("recall", RECALL, "{x} over {y}")["ok"]
    assert not _judge("recall", RECALL, "{x}, since {y} is not it")["ok"]
    assert _judge("recall", RECALL, "{x}, not {y}")["ok"]


@pytest.mark.parametrize(("text", "expected"), [
    ("x beats y", True), ("x is quicker than the y", True), ("x over y", True), ("x since y", True),
    ("x because y", True), ("compared with y", True), ("x, ahead of y", True),
    ("x if it is quicker than y", False), ("x or maybe quicker than y", False), ("x and y", False),
    ("x, not y", False),
])
def test_compared_against_reads_the_cue_and_its_clause(text: str, expected: bool) -> None:
    """:func:`answers.compared_against`: a comparison's cue right before the name (the last "y"), no hedge word in
    its clause."""
    assert answers.compared_against(text, text.rindex("y")) is expected


def test_every_comparison_turn() -> None:
    """Over every comparison turn of the suite: each genuine form passes, each wrong-way form and hedge fails."""
    from tests.redteam import suite

    turns = [t["expect"] for task in suite("EWA-Assistant-v0") for t in task.goal["turns"] if t["kind"] == "compare"]
    assert len(turns) == 450  # (452 until stop 38 regenerated the outings, two with a recipes block fewer)
    for form in GENUINE[:5]:
        assert all(_judge("compare", e, form)["ok"] for e in turns), form
    for form in WRONG_WAY[:2] + HEDGES[:5]:
        assert not any(_judge("compare", e, form)["ok"] for e in turns), form


def test_a_third_recipe_of_the_site_is_still_a_second_answer() -> None:
    """The comparison is judged against every recipe of the site, not only the two compared (a third one said beside
    a comparison is a hedge)."""
    r = _judge("compare", COMPARE, "{x}: it beats {y}, or Bowery Breakfast Plate")
    assert r == {"ok": False, "why": "answer also names ['Bowery Breakfast Plate']"}
    assert _judge("compare", COMPARE, "{x} is quicker than {y} and Bowery Breakfast Plate")["ok"] is False


# ------------------------------------------------------------------------------ stop 38: reversals in other words
#: a comparison or denial taken back in other words than "or vice versa" / "or the other way round": both offered
REVERSED = ["{x} beats {y}, or the other way", "{x} over {y}, or the converse", "{x}, not {y}, either way",
            "{x} is quicker than {y}, or swapped", "{x} beats {y}, or vice-versa", "{x} over {y}, or it's reversed",
            "{x} beats {y}, or the other way about"]
#: the reverse firmly ruled out: one offered
FIRM = ["{x} beats {y}, not vice versa", "{x} is quicker than {y}, and not the other way round",
        "{x} over {y}, not the reverse"]


@pytest.mark.parametrize("form", REVERSED)
def test_a_reversal_in_other_words_offers_both(form: str) -> None:
    """Until assistant checker version 10 (traveling 12) each passed: 60 of 60 episodes of ``ReversedInOtherWords``."""
    r = _judge("compare", COMPARE, form)
    assert not r["ok"] and "Bowery Bistro Plate" in r["why"], r
    assert not _judge("recall", RECALL, form.replace("beats", ", not").replace("over", ", not"))["ok"]


@pytest.mark.parametrize("form", FIRM)
def test_the_reverse_ruled_out_is_no_reversal(form: str) -> None:
    """"X beats Y, not vice versa" failed until assistant checker version 10 (35 of 60 ``ComparesFirmly`` episodes)."""
    assert _judge("compare", COMPARE, form) == {"ok": True, "why": ""}


def test_the_reversal_rule_broken(monkeypatch: pytest.MonkeyPatch) -> None:
    """The judge reads reversals by ``answers._REVERSAL``: with stop 36's pattern back, the new forms pass."""
    assert not _judge("compare", COMPARE, "{x} beats {y}, or the other way")["ok"]
    old = answers.re.compile(r"\b(?:vice\s+versa|conversely|or\s+(?:maybe\s+|perhaps\s+)?(?:the\s+)?(?:reverse"
                             r"|opposite|other\s+way\s+(?:round|around)))\b", answers.re.I)
    monkeypatch.setattr(answers, "_REVERSAL", old)
    # (stop 38: "the other way" is an alternative naming no candidate too; that rule is set aside here)
    monkeypatch.setattr(checks, "unread_name", lambda *_a, **_k: None)
    assert _judge("compare", COMPARE, "{x} beats {y}, or the other way")["ok"]
    assert not _judge("compare", COMPARE, "{x} beats {y}, not vice versa")["ok"]
