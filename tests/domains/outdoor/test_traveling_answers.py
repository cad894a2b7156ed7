"""Traveling's answers: the judge by type (answers.py), the wiki's world facts it judges, and the suite."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from embodiedweb.data_gen import wiki as wiki_gen
from embodiedweb.data_gen.outdoor_tasks import QUESTIONS
from embodiedweb.domains.outdoor.answers import MAX_WORDS, judge, parse_names
from embodiedweb.domains.outdoor.traveling import judge_answer, known_people
from embodiedweb.paths import data_dir
from web_sites.wiki import catalog


def N(value, unit, tol=0.0):  # noqa: N802 - a fact-record constructor
    return {"kind": "number", "value": value, "unit": unit, "tol": tol}


def T(value):  # noqa: N802
    return {"kind": "time", "value": value}


def P(value, **kw):  # noqa: N802
    return {"kind": "name", "value": value, **kw}


STYLES = ["Art Deco", "Beaux-Arts", "Gothic Revival", "Georgian", "Georgian Revival", "International Style"]


def C(value, choices=STYLES):  # noqa: N802
    return {"kind": "choice", "value": value, "choices": list(choices)}


RIGHT = [
    ("191 metres (about 627 feet)", N("191", "m", 1.91)), ("191", N("191", "m", 1.91)),
    ("627 ft", N("191", "m", 1.91)), ("about 630 feet", N("191", "m", 1.91)), ("0.191 km", N("191", "m", 1.91)),
    ("14.6m", N("14.6", "m", 0.15)), ("48 feet", N("14.6", "m", 0.15)), ("48'", N("14.6", "m", 0.15)),
    ("It is 14.6 metres long.", N("14.6", "m", 0.15)), ("1,460 cm", N("14.6", "m", 0.15)),
    ("14.6 meters long", N("14.6", "m", 0.15)),
    ("14th floor", N("14", "floor")), ("floor 14", N("14", "floor")), ("the 14th", N("14", "floor")),
    ("On level 14.", N("14", "floor")), ("2064", N("2064", "year")), ("in the year 2064", N("2064", "year")),
    ("9:30 am", T("9:30 am")), ("09:30", T("9:30 am")), ("9.30 a.m.", T("9:30 am")), ("9:30AM", T("9:30 am")),
    ("14:15", T("2:15 pm")), ("2:15", T("2:15 pm")), ("2.15 p.m.", T("2:15 pm")), ("2 pm", T("2:00 pm")),
    ("noon", T("12:00 pm")), ("They leave at 2:15 pm, 3 or 4 times a month.", T("2:15 pm")),
    ("I. M. Pei", P("I. M. Pei & Partners")), ("Ieoh Ming Pei", P("I. M. Pei")), ("I.M. Pei", P("Ieoh Ming Pei")),
    ("Pei, I. M.", P("I. M. Pei")), ("Mies van der Rohe and Philip Johnson",
                                      P("Ludwig Mies van der Rohe and Philip Johnson")),
    ("Henry J. Hardenbergh", P("Henry Janeway Hardenbergh")), ("H. J. Hardenbergh", P("Henry Janeway Hardenbergh")),
    ("shreve, lamb and harmon", P("Shreve, Lamb & Harmon")), ("Carrere & Hastings", P("Carrère and Hastings")),
    ("Reed and Stem with Warren and Wetmore", P("Reed and Stem; Warren and Wetmore")),
    ("Tomas Vega and ANA WHITFIELD", P("Ana K. Whitfield and Tomás de la Vega")),
    ("Leila Tanaka-Reid", P("Leila Tanaka-Reid")), ("James Renwick", P("James Renwick Jr.")),
    ("Emery Roth, Pietro Belluschi and Walter Gropius", P("Emery Roth & Sons, Pietro Belluschi and Walter Gropius")),
    ("The plaque honours Ana K. Whitfield, a local historian.", P("Ana K. Whitfield")),
    ("Corbusier", P("Le Corbusier")), ("X", P("Mies", aliases=["X"])),
    ("Beaux-Arts", C("Beaux-Arts")), ("beaux arts style", C("Beaux-Arts")), ("BEAUX ARTS", C("Beaux-Arts")),
    ("Georgian Revival", C("Georgian Revival")), ("wolves", C("wolf", ["wolf", "owl"])),
    ("A small bronze sculpture of a fox.", C("fox", ["fox", "owl"])),
]
WRONG = [
    ("about 200 m", N("191", "m", 1.91), "200 is not 191 m"), ("180 or 191", N("191", "m", 1.91), "180"),
    ("15 m", N("14.6", "m", 0.15), "15 is not"), ("14 feet", N("14", "floor"), "is a length, not a floor"),
    # the right digits in the wrong unit: the unit is read, not only the number
    ("14.6 feet", N("14.6", "m", 0.15), "(4.45 m) is not"), ("14.6 cm", N("14.6", "m", 0.15), "(0.15 m) is not"),
    ("on the 14th floor of the 70-storey tower", N("14", "floor"), "70"), ("2063 or 2064", N("2064", "year"), "2063"),
    ("the sixties", N("2064", "year"), "no number"), ("9:30 pm", T("9:30 am"), "9:30 pm is not"),
    ("2:15 or 2:20", T("2:15 pm"), "2:20"), ("at 2", T("2:15 pm"), "2:00 is not 2:15 pm"), ("25:15", T("2:15 pm"), "25:15"),
    ("Pei", P("Ieoh Ming Pei"), "does not name"), ("Gilbert", P("Cass Gilbert"), "does not name"),
    ("Mies van der Rohe", P("Ludwig Mies van der Rohe and Philip Johnson"), "Philip Johnson"),
    ("Ben Whitfield", P("Ana K. Whitfield"), "does not name"),
    ("Ana Whitfield or Ben Okafor", P("Ana K. Whitfield"), "also names Ben Okafor"),
    ("Art Deco, Beaux-Arts, Gothic Revival", C("Beaux-Arts"), "names 3 options"),
    ("Georgian", C("Georgian Revival"), "Georgian is not"), ("Baroque", C("Beaux-Arts"), "names none"),
    ("", C("Beaux-Arts"), "no answer"), (None, T("2:15 pm"), "no answer"),
    (" ".join(["Beaux-Arts"] + ["very"] * MAX_WORDS), C("Beaux-Arts"), "too long"),
]


@pytest.mark.parametrize(("answer", "fact"), RIGHT, ids=[a for a, _ in RIGHT])
def test_right_answers_in_their_forms(answer, fact):
    v = judge(answer, fact, others=["Ben Okafor", "Nadia Whitfield"])
    assert v.ok, v.reason


@pytest.mark.parametrize(("answer", "fact", "why"), WRONG, ids=[str(a)[:40] for a, _, _ in WRONG])
def test_wrong_answers_fail_with_a_reason(answer, fact, why):
    v = judge(answer, fact, others=["Ben Okafor"])
    assert not v.ok and why in v.reason, v.reason


def test_the_landmarks_own_name_is_not_part_of_the_answer():
    fact = N("14.6", "m", 0.15)
    said = "The mosaic at 30 Rockefeller Plaza is 14.6 m long"
    assert not judge(said, fact).ok
    assert judge(said, fact, ignore=["30 Rockefeller Plaza"]).ok
    assert judge("An owl at the Swan Hotel", C("owl", ["owl", "swan"]), ignore=["Swan Hotel"]).ok


@pytest.mark.parametrize("odd", ["]", "[[x]]", "\x00", "🙂" * 10, "9:99", "99999999999999999999 m", "-", "a.m.",
                                 "1e400", "nan", "; DROP TABLE", "\\", "p.m. p.m. 12"])
@pytest.mark.parametrize("fact", [N("14.6", "m", 0.15), T("2:15 pm"), P("Ana K. Whitfield"), C("owl", ["owl"])])
def test_odd_answers_get_a_verdict_not_an_error(odd, fact):
    assert not judge(odd, fact).ok


@pytest.mark.parametrize("fact", [{}, {"kind": "colour", "value": "red"}, {"kind": "number", "value": "x"},
                                  {"kind": "time", "value": "soon"}, {"kind": "choice", "value": "a"},
                                  {"kind": "name", "value": "&"}, None])
def test_malformed_facts_give_a_reason(fact):
    v = judge("anything 12", fact)
    assert not v.ok and "unjudgeable" in v.reason


def test_name_lists_parse_people_and_firms():
    assert [str(p) for p in parse_names("Ludwig Mies van der Rohe and Philip Johnson")] == \
        ["Ludwig Mies van der Rohe", "Philip Johnson"]
    assert [p.surname for p in parse_names("Emery Roth & Sons, Pietro Belluschi and Walter Gropius")] == \
        ["roth", "belluschi", "gropius"]
    assert [(p.given, p.particles, p.surname) for p in parse_names("Tomás de la Vega")] == \
        [(("tomas",), ("de", "la"), "vega")]


# ---------------------------------------------------------------------------- the wiki's world facts
def _place_articles():
    return [a for a in catalog.articles() if a.get("kind") == "place"]


def test_every_place_article_states_each_world_fact_in_one_sentence():
    arts = _place_articles()
    assert len(arts) >= 190
    for a in arts:
        facts = a["world_facts"]
        assert set(facts) <= set(wiki_gen.WORLD_FACT_KEYS) and len(facts) >= 6, a["slug"]
        section = next(s for s in a["sections"] if s["heading"] == "On site")
        assert list(section["paragraphs"]) == [facts[k]["text"] for k in wiki_gen.WORLD_FACT_KEYS if k in facts]
        text = wiki_gen.article_text(a)
        for key, f in facts.items():
            assert f["text"] in text and f["value"] in f["text"], (a["slug"], key)
            # the fact's own sentence answers its question, and no other sentence of the section does
            assert judge(f["text"], f, others=known_people()).ok, (a["slug"], key, f["text"])
            for k2, f2 in facts.items():
                if k2 != key:
                    assert not judge(f2["text"], f, others=known_people()).ok, (a["slug"], key, k2)


def test_world_facts_are_drawn_so_that_memory_and_copying_fail():
    arts = _place_articles()
    people = [p for a in arts for f in a["world_facts"].values() if f["kind"] == "name" for p in parse_names(f["value"])]
    keys = Counter((i, p.surname) for p in people for i in {g[0] for g in p.given})
    assert max(keys.values()) == 1  # one surname with one initial = one person
    for key in wiki_gen.WORLD_FACT_KEYS:
        values = Counter(a["world_facts"][key]["value"] for a in arts if key in a["world_facts"])
        if key == "sculpture_animal":
            assert set(values) == set(wiki_gen.ANIMALS) and len(wiki_gen.ANIMALS) >= 30
        elif key != "exhibit_floor":  # floors: between the 2nd and the top floor of each tower
            assert len(values) >= 0.5 * sum(values.values()), (key, values.most_common(3))
    # the facts come from the seed, not from the real building: regenerating gives the same wiki
    assert [a["world_facts"] for a in wiki_gen.build() if a.get("kind") == "place"] == json.loads(json.dumps([a["world_facts"] for a in arts]))


def test_wiki_keeps_titles_slugs_and_addresses():
    """Adding the world facts changed no title, slug, infobox or place fact the map and other suites use."""
    for a in _place_articles():
        assert dict(a["infobox"])["Address"] == wiki_gen.short_address(a["facts"]["address"])
        assert [s["heading"] for s in a["sections"]][:4] == ["History", "Architecture", "Visiting", "On site"]


# ----------------------------------------------------------------------------------------- the suite
def test_each_task_asks_one_world_fact_the_article_holds():
    tasks = [json.loads(line) for line in open(data_dir() / "traveling" / "tasks.jsonl", encoding="utf-8")]
    kinds = Counter(t["goal"]["fact"] for t in tasks)
    assert set(kinds) == set(QUESTIONS) and max(kinds.values()) - min(kinds.values()) <= 4
    for t in tasks:
        g = t["goal"]
        fact = catalog.get(g["slug"])["world_facts"][g["fact"]]
        assert g["answer"] == fact["value"] and g["kind"] == fact["kind"]
        name = re.search(r"Walk to (.+?) and stop there", t["instruction"]).group(1)
        assert QUESTIONS[g["fact"]].format(name=name) in t["instruction"]
        assert judge_answer(g["answer"], g).ok and not judge_answer("I do not know", g).ok
    assert len({(t["goal"]["slug"], t["goal"]["fact"]) for t in tasks}) == len(tasks)


@pytest.mark.parametrize(("patch", "field"), [({"slug": "no-such-article"}, "goal.slug"),
                                              ({"fact": "height_m"}, "goal.fact"),
                                              ({"answer": "nobody"}, "goal.answer"),
                                              ({"kind": "choice"}, "goal.answer")])
def test_a_task_that_disagrees_with_the_wiki_is_refused(tmp_path, patch, field):
    from embodiedweb.domains.outdoor import TravelingDomain
    from embodiedweb.tasks import TaskError, load_tasks

    t = json.loads(open(data_dir() / "traveling" / "tasks.jsonl", encoding="utf-8").readline())
    p = tmp_path / "t.jsonl"
    p.write_text(json.dumps({**t, "goal": {**t["goal"], **patch}}) + "\n")
    with pytest.raises(TaskError, match=re.escape(t["task_id"]) + ".*" + re.escape(field)):
        load_tasks(p, TravelingDomain().validate_task)


_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
         "seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()


def _words(n: int) -> str:
    """``n`` (0-999) in words, as people write it ("forty-one", "one hundred and two")."""
    if n >= 100:
        return f"{_ONES[n // 100]} hundred" + (f" and {_words(n % 100)}" if n % 100 else "")
    return _ONES[n] if n < 20 else _TENS[n // 10 - 2] + (f"-{_ONES[n % 10]}" if n % 10 else "")


def _ordinal(n: int) -> str:
    """``n`` (1-999) as an ordinal in words ("forty-first", "one hundredth")."""
    odd = {"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth", "nine": "ninth",
           "twelve": "twelfth"}
    w = _words(n)
    cut = max(w.rfind("-"), w.rfind(" "))
    head, last = w[:cut + 1], w[cut + 1:]
    return head + odd.get(last, last[:-1] + "ieth" if last.endswith("y") else last + "th")


def _year(y: int) -> str:
    """A year as it is said: "nineteen sixty-three", "twenty oh five", "nineteen hundred"."""
    hi, lo = divmod(y, 100)
    return f"{_words(hi)} " + ("hundred" if lo == 0 else f"oh {_words(lo)}" if lo < 10 else _words(lo))


def _suite_facts() -> list[dict]:
    goals = [json.loads(line)["goal"] for name in ("tasks.jsonl", "hard.jsonl")
             for line in (data_dir() / "traveling" / name).read_text("utf-8").splitlines()]
    return [g for g in goals if g["fact"] in ("exhibit_floor", "capsule_year")]


def test_numbers_in_words_are_judged_on_every_floor_and_year_task():
    """Every floor and year question of both tiers: the value in words passes ("the forty-first floor", "in
    nineteen sixty-three"), and the value with a second one in words fails as the hedge it is (both were
    judged on the digits alone: the words answer failed, the words hedge passed)."""
    goals = _suite_facts()
    assert len(goals) >= 70
    for g in goals:
        v = int(float(g["answer"]))
        if g["fact"] == "exhibit_floor":
            right, hedge = f"the {_ordinal(v)} floor", f"the {v}th floor, or maybe the {_ordinal(v + 1)}"
        else:
            right, hedge = f"in {_year(v)}", f"{v}, or possibly {_year(v + 1)}"
        assert judge_answer(right, g).ok, (g, right, judge_answer(right, g))
        assert not judge_answer(hedge, g).ok, (g, hedge)


def test_clock_times_in_words_are_judged_on_every_time_task():
    """Every walk-time question of both tiers: the time said in words passes ("ten minutes to four in the
    afternoon"), and the right time with another said in words beside it fails (41 of 41 such hedges passed,
    and every time in words failed, until stop 29)."""
    from embodiedweb.domains.outdoor.answers import parse_time

    goals = [json.loads(line)["goal"] for name in ("tasks.jsonl", "hard.jsonl")
             for line in (data_dir() / "traveling" / name).read_text("utf-8").splitlines()]
    goals = [g for g in goals if g["fact"] == "tour_time"]
    assert len(goals) >= 36  # 20 standard, 16 hard (21 until stop 32)
    for g in goals:
        hour, minute = divmod(parse_time(g["answer"]), 60)
        part = "in the afternoon" if hour >= 12 else "in the morning"
        h12, nxt = (hour - 1) % 12 + 1, hour % 12 + 1
        said = (f"{_words(minute)} minutes past {_words(h12)} {part}" if minute <= 30 else
                f"{_words(60 - minute)} minutes to {_words(nxt)} {part}") if minute else f"{_words(h12)} o'clock {part}"
        assert judge_answer(said, g).ok, (g, said)
        other = "quarter past five" if (hour % 12, minute) != (5, 15) else "quarter past six"
        assert not judge_answer(f"{g['answer']}, or else {other}", g).ok, g
