"""Stop 38: an answer that offers alternatives names one value only if the judge reads every alternative as a value
(:func:`embodiedweb.domains.outdoor.answers.unread_alternative`); an alternative it cannot read is another value, so
the answer is a hedge. Numbers of an address, and the building's floor count after "of", are context."""

from __future__ import annotations

import pytest

from embodiedweb.domains.outdoor import answers
from embodiedweb.domains.outdoor.answers import Verdict, judge
from tests.domains.outdoor.test_answers_lists_and_denials import ANIMALS, WIKI, C
from tests.domains.outdoor.test_traveling_answers import N, P

OK = Verdict(True)
YEAR, FLOOR = N("2092", "year"), N("15", "floor")
NAME = P("Astrid V. Halvorsen")
PEOPLE = [*WIKI, "Tomás le Roux", "Amara H. Gutiérrez"]

#: (answer, fact): the black-box cheaters' hedges (stop 38, reward 1.0 on each before)
HEDGES = [
    ("one-nine-one-four or 2092", YEAR), ("2092 or two-oh-five-oh", YEAR),
    ("two-oh-nine-one, two-oh-nine-three or 2092", YEAR), ("2092 or later", YEAR), ("2092 or the year after", YEAR),
    ("2092 or a decade later", YEAR), ("2092 or never", YEAR), ("2092 (possibly a century earlier)", YEAR),
    ("2092, or maybe the next century", YEAR), ("2092 or thereabouts", YEAR), ("2092 and later", YEAR),
    ("2092 onwards", YEAR), ("2092 and beyond", YEAR),
    ("15th or ground floor", FLOOR), ("15th or top floor", FLOOR), ("15th floor or the basement", FLOOR),
    ("ground, 15th or top floor", FLOOR), ("15th floor or thirty-ninth (top) floor", FLOOR),
    ("15th floor or 16th St", FLOOR),  # an address is no floor read: the alternative offers none
    ("Astrid V. Halvorsen or Tomás", NAME), ("Astrid V. Halvorsen or Amara", NAME),
    ("Astrid V. Halvorsen or Roux", NAME), ("Astrid V. Halvorsen or anyone else", NAME),
    ("Astrid V. Halvorsen or Tomas leRoux", NAME), ("Tomas leRoux, Amara Gutierez or Astrid V. Halvorsen", NAME),
    ("a beaver or something else", C("beaver", ANIMALS)), ("beaver / some other animal", C("beaver", ANIMALS)),
]

#: restatements and context: every alternative reads as the same value, or there is none
GENUINE = [
    ("15th floor, or the fifteenth", FLOOR), ("2092 (twenty ninety-two)", YEAR), ("2092 / twenty ninety-two", YEAR),
    ("15th floor of 39", FLOOR), ("the 15th of 39 floors", FLOOR), ("15th floor on 1st Ave & E 43rd St", FLOOR),
    ("15th floor at 350 5th Avenue", FLOOR), ("either 2092 or 2092", YEAR), ("2092 or so", YEAR),
    ("Astrid V. Halvorsen, not Tomás le Roux", NAME), ("Astrid V. Halvorsen, or just Halvorsen", NAME),
    ("A. V. Halvorsen or Astrid V. Halvorsen", NAME), ("a beaver, not an otter", C("beaver", ANIMALS)),
]


def _judge(answer: str, fact: dict) -> Verdict:
    return judge(answer, fact, others=PEOPLE, known={"floors": 39})


@pytest.mark.parametrize(("answer", "fact"), HEDGES, ids=[a for a, _f in HEDGES])
def test_an_alternative_read_as_no_value_is_a_hedge(answer: str, fact: dict) -> None:
    v = _judge(answer, fact)
    assert not v.ok and ("as an alternative" in v.reason or "is not" in v.reason), v


@pytest.mark.parametrize(("answer", "fact"), GENUINE, ids=[a for a, _f in GENUINE])
def test_a_restatement_or_context_is_one_value(answer: str, fact: dict) -> None:
    assert _judge(answer, fact) == OK


def test_the_rules_broken_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the rule the cheaters' hedges pass again (24 of the 27; stop 39's list rule, which cuts at "or" too,
    set aside as well); without the context rule the floor count and the address fail."""
    monkeypatch.setattr(answers, "unread_alternative", lambda *_a, **_k: None)
    monkeypatch.setattr(answers, "unread_item", lambda *_a, **_k: None)
    assert sum(_judge(a, f).ok for a, f in HEDGES) >= 23
    monkeypatch.undo()
    monkeypatch.setattr(answers, "_context_number", lambda *_a, **_k: False)
    assert not _judge("15th floor of 39", FLOOR).ok
    assert not _judge("15th floor on 1st Ave & E 43rd St", FLOOR).ok
    assert not judge("the 14th floor of the 70-storey tower", N("14", "floor"), known={"floors": 39}).ok


TIME = {"kind": "time", "value": "11:40 am"}


@pytest.mark.parametrize("answer", [
    # stop 39's black-box cheater (shop-hard-181, reward 1.0 on each before): a second time glued to a word or label,
    # written without its colon, or spelled so that the judge did not read it as a time
    "11:40 am (alt:1:45 pm)", "11:40 am or at1:45 pm", "11:40 am or x1:45 pm", "11:40 am or 1145",
    "11:40 am or twelve-thirty",
])
def test_a_time_alternative_read_as_no_time_is_another_value(answer):
    assert not judge(answer, TIME).ok, answer


@pytest.mark.parametrize("answer", [
    "11:40 am", "11:40 am or 11.40", "11:40 am (or 1140 hrs)", "eleven forty or 11:40 am", "11:40 am, from platform 3",
    "Saturdays at 11:40 am", "11:40:00 am", "11:40 am (11:40)", "eleven forty am",
])
def test_the_same_time_written_twice_is_no_hedge(answer):
    assert judge(answer, TIME).ok, answer
