"""Stop 39: an item of an answer's list that the judge cannot read is another value it cannot check
(:func:`embodiedweb.domains.outdoor.answers.unread_item`): "Astrid V. Halvorsen, Tomas leRoux" passed a question of
one person (the misspelt second name read as no one) until traveling checker version 13. Appositions, context,
sentences and a team's every name still pass."""

from __future__ import annotations

import pytest

from embodiedweb.domains.outdoor import answers
from embodiedweb.domains.outdoor.answers import Verdict, judge, list_items
from tests.domains.outdoor.test_answers_lists_and_denials import ANIMALS, WIKI, C
from tests.domains.outdoor.test_traveling_answers import N, P

OK = Verdict(True)
YEAR, FLOOR, HEIGHT = N("2092", "year"), N("15", "floor"), N("38", "m")
TIME = {"kind": "time", "value": "2:15 pm"}
NAME, TEAM = P("Astrid V. Halvorsen"), P("Astrid V. Halvorsen and Tomás le Roux")
BEAVER = C("beaver", ANIMALS)
PEOPLE = [*WIKI, "Tomás le Roux", "Amara H. Gutiérrez"]

#: (answer, fact): a second value the judge cannot read, listed beside the right one (each passed before stop 39)
LISTED = [
    ("Astrid V. Halvorsen, Tomas leRoux", NAME), ("Astrid V. Halvorsen; Tomas leRoux", NAME),
    ("Astrid V. Halvorsen & Tomas leRoux", NAME), ("Astrid V. Halvorsen and Tomas leRoux", NAME),
    ("Astrid V. Halvorsen\nTomas leRoux", NAME), ("Astrid V. Halvorsen (Tomas leRoux)", NAME),
    ('Astrid V. Halvorsen "Tomas leRoux"', NAME), ("Astrid V. Halvorsen - Tomas leRoux", NAME),
    ("Astrid V. Halvorsen \u2014 Tomas leRoux", NAME), ("Astrid V. Halvorsen, the architect Tomas leRoux", NAME),
    ("Tomas leRoux, Astrid V. Halvorsen", NAME), ("Astrid V. Halvorsen, T. leRoux", NAME),
    # part 2 of stop 39: a colon, a condition without a comma, a team word, a second sentence
    ("Astrid V. Halvorsen: Tomas leRoux", NAME), ("Astrid V. Halvorsen if not Tomas leRoux", NAME),
    ("Astrid V. Halvorsen with Tomas leRoux", NAME), ("Astrid V. Halvorsen. Perhaps Tomas leRoux.", NAME),
    ("Astrid V. Halvorsen (also Tomas leRoux)", NAME),
    ("2092, the year after", YEAR), ("2092 - the next year", YEAR), ("2092; later", YEAR),
    ("15th floor, top floor", FLOOR), ("15th floor; ground floor", FLOOR), ("15th & top floor", FLOOR),
    ("15th (top)", FLOOR), ("15th floor: top floor", FLOOR), ("15th floor... the top", FLOOR),
    ("the 15th floor unless the top", FLOOR), ("15th floor, one above", FLOOR), ("38 m, a little more", HEIGHT),
    ("a beaver, a fox", BEAVER), ("a beaver; an oter", BEAVER), ("beaver and fox", BEAVER), ("a beaver (oter)", BEAVER),
    ("a beaver: an oter", BEAVER), ("beaver unless oter", BEAVER),
    # time answers (stop 38's alternative rule did not judge them)
    ("2:15 pm or later", TIME), ("2:15 pm, or thereabouts", TIME), ("2:15 pm, the next one", TIME),
    ("2:15 pm; quarter past", TIME),
]

#: appositions, context, sentences and teams: no item is a value of its own
GENUINE = [
    ("Astrid V. Halvorsen, the architect", NAME), ("Astrid V. Halvorsen, architect", NAME),
    ("Astrid V. Halvorsen, a Norwegian architect", NAME), ("designed by Astrid V. Halvorsen, in 2090", NAME),
    ("Halvorsen, Astrid V.", NAME), ("A. V. Halvorsen", NAME), ("Astrid V. Halvorsen, not Tomas leRoux", NAME),
    ("Astrid V. Halvorsen, who also designed the annex.", NAME), ("It was Astrid V. Halvorsen. I read it on the wiki.", NAME),
    ("Astrid V. Halvorsen, 405 Lexington Avenue, New York", NAME), ("Astrid V. Halvorsen, with her team", NAME),
    ("Astrid V. Halvorsen and Tomás le Roux", TEAM), ("Astrid V. Halvorsen & Tomas le Roux", TEAM),
    ("2092, the year it opened", YEAR), ("in 2092, as the article says", YEAR), ("2092. That is what the wiki says.", YEAR),
    ("15th floor, of 39", FLOOR), ("15th floor, 405 Lexington Avenue, New York", FLOOR),
    ("It is on the 15th floor, near the elevators.", FLOOR), ("The 15th floor, I think.", FLOOR),
    ("fifteenth floor, 15th", FLOOR), ("38 m, as the wiki says", HEIGHT), ("a beaver, the state animal", BEAVER),
    ("It shows a beaver, carved in oak.", BEAVER), ("2:15 pm, on platform 4", TIME),
    ("It leaves at 2:15 pm, from platform 4.", TIME),
]


def _judge(answer: str, fact: dict) -> Verdict:
    return judge(answer, fact, others=PEOPLE, known={"floors": 39})


@pytest.mark.parametrize(("answer", "fact"), LISTED, ids=[a for a, _f in LISTED])
def test_an_item_read_as_no_value_is_a_hedge(answer: str, fact: dict) -> None:
    v = _judge(answer, fact)
    assert not v.ok and ("beside the value" in v.reason or "as an alternative" in v.reason
                         or "another person's name" in v.reason), v


@pytest.mark.parametrize(("answer", "fact"), GENUINE, ids=[a for a, _f in GENUINE])
def test_apposition_context_and_teams_pass(answer: str, fact: dict) -> None:
    assert _judge(answer, fact) == OK


def test_items() -> None:
    """An initial's or an abbreviation's dot cuts nothing; a sentence's end, "and", a colon before a space do; "with"
    cuts a name answer only."""
    text = "astrid v. halvorsen, st. regis and dr. reid. tomas: x 14:15"
    assert [text[a:b] for a, b in list_items(text)] == ["astrid v. halvorsen", "st. regis", "dr. reid", "tomas",
                                                        "x 14:15"]
    assert len(list_items("a with b")) == 1 and len(list_items("a with b", "name")) == 2


def test_the_rule_broken_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the list rule the listed hedges pass again (those with "or", "if", "unless", "perhaps" aside: the
    alternative rule of stop 38 reads them; and those the merge rule of stop 35 reads); with every item read as a
    value, the appositions fail."""
    monkeypatch.setattr(answers, "unread_item", lambda *_a, **_k: None)
    assert sum(_judge(a, f).ok for a, f in LISTED) >= 30
    monkeypatch.undo()
    monkeypatch.setattr(answers, "offers_value", lambda *_a, **_k: True)
    assert sum(_judge(a, f).ok for a, f in GENUINE) <= 10
