"""Stop 34's answer-judge rules (traveling checker version 9, shopping 10), from the review's findings T1-T3:

- T1: a name's words stay within one item of a list: only spaces and initials' dots stand between them, and one
  comma after a surname said first, which does not take given names that begin another person named forwards
  ("Tariq Szabó & Yusuf F. Boateng" does not also name Yusuf Szabó; "Szabó, Tariq" names Tariq Szabó);
- T2: a hyphenated surname may be written with a space, an en dash, a non-breaking hyphen or a minus sign;
- T3: a choice's option firmly denied is no option named (the number judge's ``_denied``, shared).

Each rule is checked case by case on hand-made facts and, at the judge, on every task it applies to (standard and
hard traveling, the shopping errands' questions); the episodes through the public action interface are the red-team
agents ``TwoNamesWithPunctuation``, ``HyphenWritten``, ``ChoiceDeniesAnother`` and ``ChoiceHedgeBesideADenial``
(``redteam_traveling.py``).
"""

from __future__ import annotations

import json

import pytest

from embodiedweb.domains.outdoor import answers
from embodiedweb.domains.outdoor.answers import Verdict, judge
from embodiedweb.domains.outdoor.traveling import fact_of, judge_answer
from embodiedweb.paths import data_dir
from tests.domains.outdoor.test_traveling_answers import N, P

OK = Verdict(True)


#: stop 36: the reason when the right person's surname is said with no given name or initial beside it
ALONE = ": a surname said alone, without a given name or an initial, names no one (the wiki's people share surnames)"


def no(reason):
    return Verdict(False, reason)


def C(value, choices):  # noqa: N802
    return {"kind": "choice", "value": value, "choices": list(choices)}


TWO = P("Tariq Szabó and Yusuf F. Boateng")
#: people of the wiki whose names the two leads' words make up across a list mark
WIKI = ["Yusuf Szabó", "Tariq Boateng", "Inès V. Papadakis", "Leila Tanaka-Reid"]
SEPARATORS = [" & ", ", ", "; ", " / ", "\n", ",", " + ", " | ", " – ", " — ", "—", " - "]


# ---------------------------------------------------------------------------------------------- T1: lists
@pytest.mark.parametrize("sep", SEPARATORS, ids=repr)
def test_two_people_listed_with_any_mark_name_no_third(sep):
    assert judge(f"Tariq Szabó{sep}Yusuf F. Boateng", TWO, others=WIKI) == OK
    assert judge(f"Yusuf F. Boateng{sep}Tariq Szabó", TWO, others=WIKI) == OK


@pytest.mark.parametrize("answer", [
    "Szabó, Tariq", "Szabó, Tariq and Boateng, Yusuf F.", "Boateng, Yusuf F.; Szabó, Tariq",
    "Szabó, Tariq & Boateng, Yusuf", "Tariq Szabó, Boateng, Yusuf F.", "Szabó,Tariq and Yusuf F. Boateng",
])
def test_a_surname_said_first_takes_its_given_names_across_a_comma(answer):
    fact = TWO if "Boateng" in answer else P("Tariq Szabó")
    assert judge(answer, fact, others=WIKI) == OK


def test_papadakis_comma_ines_still_names_her():
    assert judge("Papadakis, Inès V.", P("Inès V. Papadakis"), others=WIKI) == OK
    assert judge("Papadakis, Inès V. was the architect", P("Inès V. Papadakis"), others=WIKI) == OK


@pytest.mark.parametrize(("answer", "verdict"), [
    ("Tariq Szabó and Szabó, Yusuf", no("also names Yusuf Szabó")),  # a surname said first, by itself: a person
    ("Tariq Szabó; Szabó, Yusuf", no("also names Yusuf Szabó")),
    ("Tariq Szabó, or Szabó, Yusuf maybe", no("also names Yusuf Szabó")),
    ("Tariq Szabó & Yusuf Szabó", no("also names Yusuf Szabó")),
    ("Szabó, Yusuf", no("does not name Tariq Szabó")),
    ("Tariq & Szabó", no("does not name Tariq Szabó" + ALONE)),  # a name's words do not span a list mark
    ("Tariq; Szabó", no("does not name Tariq Szabó" + ALONE)),
    ("Szabó; Tariq", no("does not name Tariq Szabó" + ALONE)),
    ("Szabó / Tariq", no("does not name Tariq Szabó" + ALONE)),
    ("Szabó, Yusuf Boateng", no("does not name Tariq Szabó")),  # Yusuf is Boateng's, Szabó no one's
])
def test_a_third_person_or_a_broken_name_still_fails(answer, verdict):
    assert judge(answer, P("Tariq Szabó"), others=WIKI) == verdict


def test_the_rule_is_the_gaps_and_the_listed_people(monkeypatch):
    """Broken once each: without the gaps a list mark joins two people's words (T1 back); without the forward
    readings a comma does; without the comma after a surname said first, "Papadakis, Inès V." is no one."""
    spans = answers.name_spans  # (names_person until stop 35, which made the judge read where each name stands)
    monkeypatch.setattr(answers, "name_spans", lambda tokens, p, gaps=None, listed=frozenset(): spans(tokens, p))
    assert judge("Tariq Szabó & Yusuf F. Boateng", TWO, others=WIKI) == no("also names Yusuf Szabó")
    monkeypatch.setattr(answers, "name_spans", lambda tokens, p, gaps=None, listed=frozenset(): spans(tokens, p, gaps))
    assert judge("Tariq Szabó & Yusuf F. Boateng", TWO, others=WIKI) == OK
    assert judge("Tariq Szabó, Yusuf F. Boateng", TWO, others=WIKI) == no("also names Yusuf Szabó")
    monkeypatch.undo()
    monkeypatch.setattr(answers, "_AFTER_SURNAME", answers._IN_NAME)
    assert judge("Papadakis, Inès V.", P("Inès V. Papadakis"), others=WIKI) == no("does not name Inès V. Papadakis" + ALONE)


# ---------------------------------------------------------------------------------------------- T2: hyphens
@pytest.mark.parametrize("dash", ["-", " ", "\u2013", "\u2011", "\u2212", "\u2010", "\u2012", "\u00ad"], ids=repr)
def test_a_hyphenated_surname_with_a_space_or_another_dash(dash):
    assert judge(f"Elena Takahashi and Leila Tanaka{dash}Reid", P("Elena Takahashi and Leila Tanaka-Reid"),
                 others=WIKI) == OK
    assert judge(f"Tanaka{dash}Reid, Leila", P("Leila Tanaka-Reid"), others=WIKI) == OK


@pytest.mark.parametrize(("answer", "verdict"), [
    ("Leila Tanaka", no("does not name Leila Tanaka-Reid")),  # a part is not the surname
    ("Leila Reid", no("does not name Leila Tanaka-Reid")),
    ("Leila Tanaka, Reid", no("does not name Leila Tanaka-Reid")),  # the parts joined by a space only
    ("Leila Tanaka / Reid", no("does not name Leila Tanaka-Reid")),
    ("Leila Tanaka — Reid", no("does not name Leila Tanaka-Reid")),  # an em dash is between words
    ("Leila TanakaReid", OK),  # (as before: the parts written together)
])
def test_a_hyphenated_surname_is_its_parts_in_one_name(answer, verdict):
    assert judge(answer, P("Leila Tanaka-Reid"), others=WIKI) == verdict


def test_the_hyphen_rule_broken(monkeypatch):
    monkeypatch.setattr(answers, "_HYPHENS", "-")
    monkeypatch.setattr(answers, "_NAME_WORD", answers.re.compile(r"[a-z0-9]+(?:(?<=[a-z])-(?=[a-z])[a-z0-9]+)*"))
    answers.parse_names.cache_clear()
    try:
        assert judge("Leila Tanaka\u2013Reid", P("Leila Tanaka-Reid")) == no("does not name Leila Tanaka-Reid")
    finally:
        monkeypatch.undo()
        answers.parse_names.cache_clear()
    monkeypatch.setattr(answers, "_surname_at", lambda tokens, gaps, j, p: j + 1 if tokens[j] == p.surname else -1)
    assert judge("Leila Tanaka Reid", P("Leila Tanaka-Reid")) == no("does not name Leila Tanaka-Reid")


# ---------------------------------------------------------------------------------------------- T3: denials
ANIMALS = ["beaver", "otter", "heron", "owl"]
STYLES = ["Art Deco", "Beaux-Arts", "Gothic Revival", "Georgian", "Georgian Revival", "International Style"]


@pytest.mark.parametrize(("answer", "verdict"), [
    ("a beaver, not an otter", OK),
    ("It shows a beaver (not an otter)", OK),
    ("not an otter but a beaver", OK),
    ("It isn't an otter; it is a beaver.", OK),
    ("a beaver rather than an otter", OK),
    ("beavers, not otters or herons", OK),  # "not X or Y" denies both (neither); until stop 34's review only X
    ("not an otter or a beaver", no("the answer denies beaver")),  # neither: passed all 37 choice tasks before
    ("not an otter, nor a beaver", no("the answer denies beaver")),
    ("not otter or heron; a beaver", OK),
    ("beaver, if not otter", no("names 2 options (beaver, otter); give one")),  # hedges, both orders
    ("otter, if not beaver", no("names 2 options (beaver, otter); give one")),
    ("beaver or maybe otter", no("names 2 options (beaver, otter); give one")),
    ("beaver or not otter", no("names 2 options (beaver, otter); give one")),
    ("either beaver or not otter", no("names 2 options (beaver, otter); give one")),
    ("beaver, not sure, maybe otter", no("names 2 options (beaver, otter); give one")),
    ("beaver, I think not otter", no("names 2 options (beaver, otter); give one")),
    ("beaver, not otter, or otter", no("names 2 options (beaver, otter); give one")),
    ("beaver, not otter, or vice-versa", no("names 2 options (beaver, otter); give one")),  # stop 38: reversals
    ("a beaver, not an otter, or the other way", no("names 2 options (beaver, otter); give one")),
    ("a beaver (not an otter), or the converse", no("names 2 options (beaver, otter); give one")),
    ("a beaver, not an otter, either way", no("names 2 options (beaver, otter); give one")),
    ("a beaver, not an otter, or maybe it's reversed", no("names 2 options (beaver, otter); give one")),
    ("a beaver, not an otter, and not vice versa", OK),
    ("not otter", no("the answer only denies options: give one")),
    ("not a beaver", no("the answer denies beaver")),  # passed every choice task until stop 34
    ("an otter, not a beaver", no("the answer denies beaver")),
    ("a beaver, not a beaver", no("the answer denies beaver")),
])
def test_a_choice_denied_is_no_option_named(answer, verdict):
    assert judge(answer, C("beaver", ANIMALS)) == verdict


def test_a_longer_option_denied_hides_its_words():
    assert judge("Georgian Revival, not Georgian", C("Georgian Revival", STYLES)) == OK
    assert judge("Georgian, not Georgian Revival", C("Georgian", STYLES)) == OK
    assert judge("not Georgian Revival but Georgian", C("Georgian Revival", STYLES)) == \
        no("the answer denies Georgian Revival")


def test_numbers_and_choices_share_the_denial_rule(monkeypatch):
    """One rule for both judges: with ``_denied`` broken, a denial is an option named and a value offered again."""
    assert judge("38 m, not 43 m", N("38", "m")) == OK
    assert judge("a beaver, not an otter", C("beaver", ANIMALS)) == OK
    assert judge("38 m, not a 43 m one", N("38", "m")) == OK  # an article after "not" (stop 34) for numbers too
    monkeypatch.setattr(answers, "_denied", lambda text, start: False)
    assert judge("38 m, not 43 m", N("38", "m")) == no("43 is not 38 m")
    assert judge("a beaver, not an otter", C("beaver", ANIMALS)) == no("names 2 options (beaver, otter); give one")
    assert judge("not a beaver", C("beaver", ANIMALS)) == OK


def test_a_reversal_in_other_words_takes_the_denial_back(monkeypatch):
    """Stop 38 (traveling checker version 12): "or vice-versa", "or the other way", "or the converse", "either way"
    take a denial back as "or vice versa" did (``ReversedInOtherWords`` passed 50 of 60 episodes before); broken once
    with stop 36's pattern back."""
    for answer, fact in [("38 m, not 43 m, or the other way", N("38", "m")),
                         ("a beaver, not an otter, or vice-versa", C("beaver", ANIMALS))]:
        assert not judge(answer, fact).ok
    old = answers.re.compile(r"\b(?:vice\s+versa|conversely|or\s+(?:maybe\s+|perhaps\s+)?(?:the\s+)?(?:reverse"
                             r"|opposite|other\s+way\s+(?:round|around)))\b", answers.re.I)
    monkeypatch.setattr(answers, "_REVERSAL", old)
    # (stop 38: "the other way" is an alternative the judge reads as no value too; that rule is set aside here, and
    # stop 39's list rule, "other" pointing to another value)
    monkeypatch.setattr(answers, "unread_alternative", lambda *_a, **_k: None)
    monkeypatch.setattr(answers, "unread_item", lambda *_a, **_k: None)
    assert judge("38 m, not 43 m, or the other way", N("38", "m")) == OK
    assert judge("a beaver, not an otter, or vice-versa", C("beaver", ANIMALS)) == OK


# ---------------------------------------------------------------------------------------------- every task
def _goals():
    """(tier, task id, goal) of every traveling task (standard, hard) and every shopping errand with a question."""
    out = []
    for path, tier in [("traveling/tasks.jsonl", "traveling"), ("traveling/hard.jsonl", "traveling-hard"),
                       ("shopping/tasks.jsonl", "shopping"), ("shopping/hard.jsonl", "shopping-hard")]:
        for line in (data_dir() / path).read_text(encoding="utf-8").splitlines():
            t = json.loads(line)
            for g in t["goal"].get("errands") or [t["goal"]]:
                if "fact" in g:
                    out.append((tier, t["task_id"], g))
    return out


GOALS = _goals()


def _of(kind, test):
    return [(tier, tid, g, f) for tier, tid, g in GOALS if (f := fact_of(g))["kind"] == kind and test(f)]


def test_the_tasks_the_rules_apply_to():
    """How many tasks each rule is measured on (the counts the README and the CHANGELOG give)."""
    count = {}
    for kind, test, key in [("name", lambda f: " and " in f["value"], "two"), ("name", lambda f: "-" in f["value"],
                            "hyphen"), ("choice", lambda f: True, "choice")]:
        for tier, *_ in _of(kind, test):
            count[key, tier] = count.get((key, tier), 0) + 1
    assert count == {("two", "traveling"): 23, ("two", "traveling-hard"): 23, ("two", "shopping-hard"): 2,
                     ("hyphen", "traveling"): 3, ("hyphen", "traveling-hard"): 2,
                     ("choice", "traveling"): 20, ("choice", "traveling-hard"): 17, ("choice", "shopping-hard"): 2}


@pytest.mark.parametrize("sep", [" & ", ", ", "; ", " / ", "\n", ","], ids=repr)
def test_every_two_person_task_with_a_list_mark(sep):
    wrong = []
    for _tier, tid, g, f in _of("name", lambda f: " and " in f["value"]):
        a, b = f["value"].split(" and ")
        wrong += [(tid, ans, v.reason) for ans in (f"{a}{sep}{b}", f"{b}{sep}{a}") if not (v := judge_answer(ans, g))]
    assert not wrong


def test_every_hyphenated_surname_written_otherwise():
    wrong = [(tid, ans, v.reason) for _tier, tid, g, f in _of("name", lambda f: "-" in f["value"])
             for dash in (" ", "\u2013", "\u2011", "\u2212") if not (v := judge_answer(ans := f["value"].replace("-", dash), g))]
    assert not wrong


def _an(word):
    return ("an " if word[0].lower() in "aeiou" else "a ") + word


def test_every_choice_task_with_another_option_denied_and_its_hedges():
    wrong = []
    for _tier, tid, g, f in _of("choice", lambda f: True):
        v = f["value"]
        for w in (c for c in f["choices"] if c != v):
            for ans in (f"{_an(v)}, not {_an(w)}", f"It shows {_an(v)} (not {_an(w)})", f"not {_an(w)} but {_an(v)}"):
                if not judge_answer(ans, g):
                    wrong.append((tid, ans, "fails"))
            for ans in (f"{v}, if not {w}", f"{w}, if not {v}", f"{v} or maybe {w}", f"{w} or maybe {v}", f"not {w}",
                        f"not {_an(v)}", f"{v}, not {w}, or {w}", f"{_an(w)}, not {_an(v)}", f"{v} or not {w}",
                        f"{w} (not {v})", f"either {v} or {w}", f"{v}, not sure, maybe {w}"):
                if judge_answer(ans, g):
                    wrong.append((tid, ans, "passes"))
    assert not wrong
