"""Another person's surname said alone as a list item of a name answer (stop 35's mutation run: the rule had no
test among the judge's focused files). It names that person, unless a right person has that surname too."""

from __future__ import annotations

import pytest

from embodiedweb.domains.outdoor.answers import Verdict, judge
from tests.domains.outdoor.test_traveling_answers import P

WIKI = ["Tariq Szabó", "Leila Tanaka", "Yusuf F. Boateng", "Yusuf Szabó"]


@pytest.mark.parametrize(("answer", "gold", "verdict"), [
    ("Omar Reid, or perhaps Tanaka", "Omar Reid", Verdict(False, "also names Leila Tanaka")),
    ("Omar Reid; Szabó", "Omar Reid", Verdict(False, "also names Tariq Szabó")),
    ("Omar Reid (not Tanaka)", "Omar Reid", Verdict(True)),  # denied: no one named
    ("Omar Reid", "Omar Reid", Verdict(True)),
    # the right person's own surname said alone names no one else, though another person of the wiki has it
    ("Tariq Szabó, or just Szabó", "Tariq Szabó", Verdict(True)),
    ("Szabó, Tariq", "Tariq Szabó", Verdict(True)),
])
def test_another_surname_said_alone_names_that_person(answer: str, gold: str, verdict: Verdict) -> None:
    assert judge(answer, P(gold), others=[w for w in WIKI if w != gold]) == verdict


#: stop 36: a person with an initial among the given names, and another person of the wiki
THORNE, BHATT = "Søren B. Thorne", "Ruth Bhatt"


@pytest.mark.parametrize("answer", ["not Ruth Bhatt but Thorne", "not Ruth Bhatt, but Thorne", "because Thorne",
                                    "surely Thorne", "since Thorne", "so Thorne", "Thorne", "Dr. Thorne"])
def test_a_word_before_the_right_surname_is_no_initial(answer: str) -> None:
    """A word that is never a given name ("but", "because", "surely", :data:`NOT_NAMES`) does not stand for the B. of
    Søren B. Thorne: "not Ruth Bhatt, but Thorne" named him by the surname alone (stop 36), and "not Ruth Bhatt but
    Thorne" failed as "written with 'bhatt'". The right person's surname said alone names no one (572 of the wiki's
    582 people share a surname), and the reason says so."""
    assert judge(answer, P(THORNE), others=[BHATT]) == Verdict(
        False, "does not name Søren B. Thorne: a surname said alone, without a given name or an initial, names no one "
               "(the wiki's people share surnames)")


@pytest.mark.parametrize("answer", ["not Ruth Bhatt but Søren B. Thorne", "not Ruth Bhatt, but S. Thorne",
                                    "Søren Thorne, not Bhatt", "Sören Björn Thorne", "surely Søren Thorne"])
def test_the_right_person_named_beside_those_words_passes(answer: str) -> None:
    assert judge(answer, P(THORNE), others=[BHATT]) == Verdict(True)


def test_a_whole_name_still_stands_for_an_initial() -> None:
    """"Ieoh Ming Pei" names I. M. Pei: only the words of :data:`NOT_NAMES` are never names."""
    assert judge("Ieoh Ming Pei", P("I. M. Pei"), others=[BHATT]) == Verdict(True)
