"""The Assistant's answer judge rule by rule, on a few real turns (fast: no episode, no whole suite), for
``make mutate``: the whole-suite tests of ``test_answer_denials_and_years.py`` take about 50 s each and are
deselected there. Each rule here was left untested by a mutant that survived the stop 35 sampled run."""

from __future__ import annotations

from typing import Any

import pytest

from embodiedweb.domains.assistant import checks

#: a compare turn and a recall turn of the shipped suite (the recipe site's and the shop's own names)
COMPARE = {"measure": "time", "name": "Bowery Feast Plate", "others": ["Bowery Bistro Plate"]}
RECALL = {"name": "Russet Potato", "others": ["Drain Cleaner Gel, 32 oz"]}


def _judge(kind: str, e: dict[str, Any], answer: str) -> dict[str, Any]:
    return checks.CHECKS[kind](e, {}, {}, answer)


@pytest.mark.parametrize(("kind", "e"), [("compare", COMPARE), ("recall", RECALL)])
def test_a_denial_by_isn_t_and_a_denial_carried_by_or(kind: str, e: dict[str, Any]) -> None:
    """"isn't" denies as "is not" does ("It's X; it isn't Y" names X only), and a denial reaches the name joined to
    it by "or" ("not Y or X" names neither, so it denies the right one), but not across a comma."""
    x, y = e["name"], e["others"][0]
    assert _judge(kind, e, f"It's {x}; it isn't {y}.")["ok"]
    assert _judge(kind, e, f"It's {x}; it isn’t {y}.")["ok"]  # a typographic apostrophe
    assert _judge(kind, e, f"{x}, not {y}")["ok"]
    r = _judge(kind, e, f"It isn't {x}, it's {y}.")
    assert not r["ok"] and r["why"] == f"answer denies {x!r}"
    r = _judge(kind, e, f"not {y} or {x}")
    assert not r["ok"] and r["why"] == f"answer denies {x!r}"
    assert not _judge(kind, e, f"not {y} nor {x}")["ok"]
    r = _judge(kind, e, f"{x}, not {y}, or {y}")
    assert not r["ok"] and y in r["why"]
    assert not _judge(kind, e, f"{y}, if not {x}")["ok"]


def test_a_hedge_s_message_names_the_other_candidates() -> None:
    """The observation tells which other candidates the answer named, the turn's own first."""
    r = _judge("compare", COMPARE, "Bowery Feast Plate or Bowery Bistro Plate")
    assert not r["ok"] and r["why"] == "answer also names ['Bowery Bistro Plate']"
    r = _judge("recall", RECALL, "Russet Potatoes, or Drain Cleaner Gel, 32 oz")
    assert not r["ok"] and r["why"] == "answer also names ['Drain Cleaner Gel, 32 oz']"
    assert _judge("recall", RECALL, "Russet Potatoes")["why"] == ""


@pytest.mark.parametrize(("plural", "singular"), [
    ("potatoes", "potato"), ("berries", "berry"), ("strawberries", "strawberry"), ("pies", "pie"),
    ("ties", "tie"), ("peaches", "peach"), ("sandwiches", "sandwich"), ("dishes", "dish"), ("boxes", "box"),
    ("apples", "apple"), ("eggs", "egg"),
])
def test_a_word_and_its_plural_give_the_same(plural: str, singular: str) -> None:
    """:func:`checks.number_free`'s plural endings: -ies (but a four-letter "-ies" word is "-ie" + s), -es after
    o, ch, sh, x, ss, z, and -s."""
    assert checks.number_free(plural) == checks.number_free(singular) == singular


@pytest.mark.parametrize("word", ["hummus", "citrus", "glass", "analysis", "bus", "gas", "milk"])
def test_words_that_are_not_plurals_stay(word: str) -> None:
    assert checks.number_free(word) == word


def test_a_product_named_in_the_other_number_is_named() -> None:
    """The shop's "Strawberries, 1 lb" is named by "Strawberry, 1 lb", its "Blueberries, 6 oz" by "blueberry, 6 oz"."""
    assert _judge("recall", {"name": "Strawberries, 1 lb", "others": []}, "The strawberry, 1 lb.")["ok"]
    assert _judge("recall", {"name": "Blueberries, 6 oz", "others": []}, "blueberry, 6 oz")["ok"]
    assert not _judge("recall", {"name": "Blueberries, 6 oz", "others": []}, "Strawberries, 1 lb")["ok"]


def test_a_name_outside_the_candidates_is_read_as_written_and_in_the_other_number() -> None:
    """:meth:`Candidates.named` of a name that is none of its candidates: as written, or in the other number."""
    c = checks.Candidates(["Whole Milk"])
    assert c.named("two Russet Potatoes", "Russet Potatoes") and c.named("two Russet Potatoes", "Russet Potato")
    assert not c.named("two Russet Potatoes", "Sweet Potato")
    assert c.mentions(checks.norm("two Russet Potatoes"), "Russet Potato") == [(4, 19)]


def test_a_person_alone_with_a_short_name_is_named_by_it() -> None:
    """A person whose short form (first and last name) no other candidate has is named by it, wherever the
    candidates come from (``test_assistant.py`` checks it on the wiki's architects)."""
    c = checks.Candidates(["Herbert J. Krapp", "Raymond Hood", "Emery Roth"], people=True)
    assert c.named("Herbert Krapp", "Herbert J. Krapp") and c.named("It was Herbert Krapp.", "Herbert J. Krapp")
    assert c.others_named("Herbert Krapp or Emery Roth", "Herbert J. Krapp") == ["Emery Roth"]
    pair = checks.Candidates(["Frederick Law Olmsted and Calvert Vaux", "Calvert Vaux"], people=True)
    assert pair.named("Frederick Olmsted and Calvert Vaux", "Frederick Law Olmsted and Calvert Vaux")


#: a year turn of the shipped suite (Union Square station, 1904), and one whose place opened in another year
YEAR = {"place": "14-st-union-sq-station", "year": 1904}
MORGAN = {"place": "morgan-library", "year": 1906}  # opened 1924


def _year(e: dict[str, Any], answer: str) -> dict[str, Any]:
    return checks.answer_year(e, {}, {"web": {"wiki": {"views": [e["place"]]}}}, answer)


@pytest.mark.parametrize("answer", ["nineteen oh four", "It was built in nineteen oh four.", "MCMIV",
                                    "1904 (not 1905)", "1904, not nineteen oh five", "It isn't 1903; it's 1904."])
def test_a_year_in_words_or_roman_numerals_or_beside_a_denial_passes(answer: str) -> None:
    """Stop 36 (assistant checker 9): years in words and Roman numerals are read as the traveling judge reads them,
    and a denied year is no year given (0 of 77 year turns passed each form before)."""
    assert _year(YEAR, answer) == {"ok": True, "why": ""}


@pytest.mark.parametrize(("answer", "why"), [
    ("1904 or nineteen oh five", "answer gives the years ['1904', '1905'], asked 1904"),
    ("1904, or maybe MCMV", "answer gives the years ['1904', '1905'], asked 1904"),
    ("nineteen oh four, or 1905", "answer gives the years ['1904', '1905'], asked 1904"),
    ("1904, if not 1905", "answer gives the years ['1904', '1905'], asked 1904"),
    ("1904, not 1905, or 1905", "answer gives the years ['1904', '1905'], asked 1904"),
    ("not 1904", "answer denies 1904"), ("not MCMIV but 1905", "answer denies 1904"),
    ("MM", "answer gives the years [], asked 1904"),  # two Roman letters stay a word, as in the traveling judge
])
def test_a_second_year_in_words_or_roman_numerals_is_a_hedge(answer: str, why: str) -> None:
    """A second year in words or Roman numerals passed every year turn (77 of 77) until assistant checker 9."""
    assert _year(YEAR, answer) == {"ok": False, "why": why}


def test_the_opening_year_in_words_is_no_second_answer() -> None:
    assert _year(MORGAN, "Built in nineteen oh six; it opened in nineteen twenty-four.")["ok"]
    assert not _year(MORGAN, "nineteen oh six or nineteen twenty-four")["ok"]


def test_the_right_name_only_inside_another_denied_answer() -> None:
    """The right place said only inside another place's name, beside a denial: it is not named on its own, and the
    message says the answer only denies names (stop 36's sampled mutation run)."""
    r = checks.answer_place({"name": "Columbus Circle", "others": []}, {}, {},
                            "59th Street-Columbus Circle station, not Central Park")
    assert r == {"ok": False, "why": "answer does not name 'Columbus Circle' (only denies names)"}
