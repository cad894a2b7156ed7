"""Stop 35's name rules (traveling checker version 10, shopping 11), from the stop 34 review's open items:

- N1: one name written with a word of another person's name ("Omar Reid Tanaka", "Yusuf Tariq Szabó", every
  candidate's surname appended) names neither: the wiki gives no middle names, so the third word is another
  person's (:func:`answers._merged`). Until now each such hedge passed 89-90 of the 90 name tasks;
- N2: a surname said first without a comma ("Szabó Tariq") is a genuine form and stays; it opened no hedge beyond
  N1's ("Szabó Tariq Boateng" is closed by N1), and no name of the wiki is another's reversed (pinned below);
- N3: a person firmly denied is no person named, by the number and choice judges' rule (``_denied``): "Omar Reid
  (not Tariq Szabó)" passes (it failed every name task), "not Omar Reid" fails (it passed every name task), hedges
  beside a denial still name two.

Each rule is checked case by case on hand-made facts, broken once by monkeypatching, and at the judge on every name
task (standard and hard traveling, the shopping errands' questions); the episodes through the public action
interface are the red-team agents ``NameMergedWithAnother``, ``NameDeniesAnother``, ``NameHedgeBesideADenial`` and
``NameInContext`` (``redteam_traveling.py``).
"""

from __future__ import annotations

import pytest

from embodiedweb.domains.outdoor import answers
from embodiedweb.domains.outdoor.answers import Verdict, judge, parse_names
from embodiedweb.domains.outdoor.traveling import fact_of, judge_answer, known_people
from tests.domains.outdoor import measure_answer_forms as forms
from tests.domains.outdoor.test_answers_lists_and_denials import GOALS
from tests.domains.outdoor.test_traveling_answers import P

OK = Verdict(True)
#: people of a hand-made wiki: Omar Reid's answer is hedged with their words
WIKI = ["Tariq Szabó", "Leila Tanaka", "Yusuf F. Boateng", "Ada J. Fenwick", "Yusuf Szabó"]
REID = P("Omar Reid")


def no(reason):
    return Verdict(False, reason)


def merged(person, word):
    return no(f"{person} is written with {word!r}, a word of another person's name: one name of two people's words "
              f"names neither")


# ---------------------------------------------------------------------------------------------- N1: merged names
@pytest.mark.parametrize(("answer", "word"), [
    ("Omar Reid Tanaka", "tanaka"),  # another person's surname appended: passed until stop 35
    ("Tariq Omar Reid", "tariq"),  # another person's first name before
    ("Tariq Omar Reid Szabó", "tariq"),  # both first names, both surnames
    ("Omar Reid Tanaka Szabó Boateng", "tanaka"),  # every candidate's surname
    ("Reid Omar Tanaka", "tanaka"),  # surname first, another's surname after
    ("Reid, Omar Tanaka", "tanaka"),
    ("Omar Reid da Tanaka", "tanaka"),  # a particle between does not part them
    ("not Szabó but Omar Reid Tanaka", "tanaka"),
])
def test_a_name_with_another_persons_word_names_neither(answer, word):
    assert judge(answer, REID, others=WIKI) == merged("Omar Reid", word)


@pytest.mark.parametrize(("answer", "verdict"), [
    ("Yusuf Fenwick Boateng", merged("Yusuf F. Boateng", "fenwick")),  # another's surname standing for the initial
    ("Tariq F. Boateng", merged("Yusuf F. Boateng", "tariq")),  # another's first name before the initial
    ("Boateng Yusuf F. Fenwick", merged("Yusuf F. Boateng", "fenwick")),  # all given names said after the surname
    ("Yusuf F. Boateng", OK), ("Boateng Yusuf F.", OK), ("Boateng, Yusuf F.", OK), ("Y. F. Boateng", OK),
])
def test_initials_and_given_names_after_the_surname(answer, verdict):
    assert judge(answer, P("Yusuf F. Boateng"), others=WIKI) == verdict


@pytest.mark.parametrize("answer", [
    "Omar Reid", "Dr. Omar Reid led it", "architect Omar Reid, in 1990", "The plaque honours Omar Reid alone.",
    "Omar Reid's", "OMAR REID", "It was Omar Reid and his team.", "Omar Reid led a Tanaka-free team",
])
def test_a_name_among_other_words_still_names_the_person(answer):
    assert judge(answer, REID, others=WIKI) == OK


def test_two_right_people_side_by_side_are_no_merge():
    two = P("Tariq Szabó and Yusuf F. Boateng")
    assert judge("Tariq Szabó and Yusuf F. Boateng", two, others=WIKI) == OK
    assert judge("Tariq Szabó and Yusuf F. Boateng Tanaka", two, others=WIKI) == merged("Yusuf F. Boateng", "tanaka")


def test_the_merge_rule_broken(monkeypatch):
    """Without :func:`answers._merged` the hedges pass again (as until stop 35)."""
    monkeypatch.setattr(answers, "_merged", lambda tokens, gaps, span, foreign: None)
    assert judge("Omar Reid Tanaka", REID, others=WIKI) == OK
    assert judge("Tariq Omar Reid", REID, others=WIKI) == OK
    assert judge("Yusuf Fenwick Boateng", P("Yusuf F. Boateng"), others=WIKI) == OK


# ---------------------------------------------------------------------------------------------- N2: surname first
@pytest.mark.parametrize(("answer", "verdict"), [
    ("Reid Omar", OK), ("Reid, Omar", OK), ("REID OMAR", OK),
    ("Reid Omar Tanaka", merged("Omar Reid", "tanaka")),
    ("Szabó Tariq", no("does not name Omar Reid")),
])
def test_a_surname_said_first_without_a_comma(answer, verdict):
    assert judge(answer, REID, others=WIKI) == verdict


def test_papadakis_ines_v_without_a_comma():
    assert judge("Papadakis Inès V.", P("Inès V. Papadakis"), others=WIKI) == OK


def test_no_name_of_the_wiki_is_another_reversed():
    """A surname said first without a comma could only be read two ways if one person's given name were another's
    surname ("Omar Reid" and "Reid Omar"): the wiki has no such pair, so "Reid Omar" is never a hedge. (Were there one,
    the answer would name both people and fail: a false rejection, never a pass.)"""
    people = {p for v in known_people() for p in parse_names(v)}
    given = {g for p in people for g in p.given if len(g) > 1}
    surnames = {p.surname for p in people} | {x for p in people for x in p.parts}
    assert len(people) >= 500 and not given & surnames
    assert judge("Omar Reid", P("Omar Reid"), others=["Reid Omar"]) == no("also names Reid Omar")


# ---------------------------------------------------------------------------------------------- N3: denials
@pytest.mark.parametrize(("answer", "verdict"), [
    ("Omar Reid (not Tariq Szabó)", OK),  # failed until stop 35 ("also names Tariq Szabó")
    ("Omar Reid, not Tariq Szabó", OK),
    ("not Tariq Szabó but Omar Reid", OK),
    ("Omar Reid rather than Tariq Szabó", OK),
    ("Omar Reid instead of Tariq Szabó", OK),
    ("It isn't Tariq Szabó; it is Omar Reid.", OK),
    ("Omar Reid (not Szabó)", OK),  # a surname said alone, denied
    ("Omar Reid, not Tariq Szabó or Leila Tanaka", OK),  # "not X or Y" denies both
    ("Omar Reid or Tariq Szabó", no("also names Tariq Szabó")),  # hedges
    ("Omar Reid, maybe Tariq Szabó", no("also names Tariq Szabó")),
    ("Omar Reid, if not Tariq Szabó", no("also names Tariq Szabó")),
    ("Tariq Szabó, if not Omar Reid", no("also names Tariq Szabó")),
    ("Omar Reid or not Tariq Szabó", no("also names Tariq Szabó")),
    ("either Omar Reid or Tariq Szabó", no("also names Tariq Szabó")),
    ("Omar Reid, not sure, maybe Tariq Szabó", no("also names Tariq Szabó")),
    ("Omar Reid, I think not Tariq Szabó", no("also names Tariq Szabó")),
    ("Omar Reid, not Tariq Szabó, or Tariq Szabó", no("also names Tariq Szabó")),
    ("Omar Reid, not Tariq Szabó but Leila Tanaka", no("also names Leila Tanaka")),
    ("Omar Reid, not Tariq Szabó, or vice versa", no("also names Tariq Szabó")),  # stop 36: a reversal offers both
    ("Omar Reid rather than Tariq Szabó, or the other way round", no("also names Tariq Szabó")),
    ("Omar Reid, not Tariq Szabó, or vice-versa", no("also names Tariq Szabó")),  # stop 38: in other words too
    ("Omar Reid, not Tariq Szabó, or the other way", no("also names Tariq Szabó")),
    ("Omar Reid (not Tariq Szabó), or the converse", no("also names Tariq Szabó")),
    ("Omar Reid, not Tariq Szabó, either way", no("also names Tariq Szabó")),
    ("Omar Reid rather than Tariq Szabó, or swapped", no("also names Tariq Szabó")),
    ("Omar Reid, not Tariq Szabó, and not vice versa", OK),  # the reverse ruled out too
    ("Omar Reid, not Tariq Szabó and Leila Tanaka", OK),  # stop 38: a denied team, no comma between
    ("Omar Reid (not Tariq Szabó & Leila Tanaka)", OK),
    ("Omar Reid, not Tariq Szabó, and Leila Tanaka", no("also names Leila Tanaka")),  # after a comma: named
    ("not Tariq Szabó and Omar Reid", no("the answer denies Omar Reid")),  # the right one in the denied team
    ("not Omar Reid", no("the answer denies Omar Reid")),  # passed every name task until stop 35
    ("Tariq Szabó (not Omar Reid)", no("the answer denies Omar Reid")),
    ("not Tariq Szabó or Omar Reid", no("the answer denies Omar Reid")),  # neither
    ("not Tariq Szabó, nor Omar Reid", no("the answer denies Omar Reid")),
    ("not Tariq Szabó", no("does not name Omar Reid")),
])
def test_a_person_denied_is_no_person_named(answer, verdict):
    assert judge(answer, REID, others=WIKI) == verdict


def test_the_denial_rules_broken(monkeypatch):
    """The names judge reads denials with the number and choice judges' ``_denied``, and carries a denial over "or"
    by the choice judge's ``_OR_NEXT``: broken once each."""
    assert judge("not Omar Reid", REID, others=WIKI) == no("the answer denies Omar Reid")
    monkeypatch.setattr(answers, "_denied", lambda text, start: False)
    assert judge("Omar Reid (not Tariq Szabó)", REID, others=WIKI) == no("also names Tariq Szabó")
    assert judge("not Omar Reid", REID, others=WIKI) == OK
    monkeypatch.undo()
    monkeypatch.setattr(answers, "_OR_NEXT", answers.re.compile(r"(?!)"))
    assert judge("not Tariq Szabó or Omar Reid", REID, others=WIKI) == OK
    monkeypatch.setattr(answers, "_AND_NEXT", answers.re.compile(r"(?!)"))  # stop 38: a denied team
    assert judge("Omar Reid, not Tariq Szabó and Leila Tanaka", REID, others=WIKI) == no("also names Leila Tanaka")


# ---------------------------------------------------------------------------------------------- every task
NAME_GOALS = [(tier, tid, g) for tier, tid, g in GOALS if fact_of(g)["kind"] == "name"]


def test_the_name_tasks():
    """The name tasks the rules are measured on (the counts the README and the CHANGELOG give)."""
    count: dict[str, int] = {}
    for tier, _tid, _g in NAME_GOALS:
        count[tier] = count.get(tier, 0) + 1
    assert count == {"traveling": 45, "traveling-hard": 40, "shopping-hard": 5}


@pytest.mark.parametrize("cat", ["N1", "N1N2", "N3", "hedge-name-deny"])
def test_every_name_task_in_each_form(cat):
    """``measure_answer_forms.py``'s stop 35 forms on every name task: the hedges fail, the genuine forms pass."""
    wrong = []
    for _tier, tid, g in NAME_GOALS:
        for c, form, answer, genuine in forms.name_forms(g, str(fact_of(g)["value"])):
            if c == cat and judge_answer(answer, g).ok != genuine:
                wrong.append((tid, form, answer, judge_answer(answer, g).reason))
    assert not wrong


@pytest.mark.parametrize("answer", ["Omar Reid/Tariq Szabó", "Omar Reid (or Tariq Szabó)", "either Omar Reid or Tariq Szabó",
                                    "Omar Reid and/or Tariq Szabó", "Omar Reid, unless it was Tariq Szabó"])
def test_hedges_in_other_words_name_two(answer: str) -> None:
    """Stop 35's closing probe: hedges no agent of the suite writes (a slash, "and/or", "either ... or", "unless")
    still name two people."""
    assert judge(answer, REID, others=WIKI) == Verdict(False, "also names Tariq Szabó")


@pytest.mark.parametrize("answer", ["It was Omar Reid's design.", "Architect Omar Reid.", "\u201cOmar Reid\u201d",
                                    "Mr. Reid (Omar Reid) designed it.", "OMAR REID"])
def test_the_right_name_in_other_words(answer: str) -> None:
    """Stop 35's closing probe: the right person in wordings no agent of the suite writes (a possessive, a title,
    curly quotes, the surname and the name again, capitals) is named."""
    assert judge(answer, REID, others=WIKI) == OK
