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
