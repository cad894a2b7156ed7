"""EWA-Assistant-v0's answer judge, checker version 8 (stop 35's red-team review): a denied name is no name given,
a name inside the right one said on its own is named, and a year written short after a dash or a decade gives its
years, and the place's opening year said as such beside the year it was built is no second answer. Each rule on every turn of the suite it applies to, and each broken once (monkeypatched) to show that the
checks here catch it."""

from __future__ import annotations

from typing import Any

import pytest

from embodiedweb.domains.assistant import checks
from tests.domains.assistant.redteam import named_inside
from tests.redteam import suite

ENV = "EWA-Assistant-v0"
READ = {"web": {"wiki": {"views": []}}}


@pytest.fixture(scope="module")
def turns() -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for t in suite(ENV):
        for x in t.goal["turns"]:
            out.setdefault(x["kind"], []).append(x["expect"])
    return out


def _ok(kind: str, e: dict[str, Any], answer: str) -> bool:
    read = {"web": {"wiki": {"views": [e.get("place")]}}}
    return checks.CHECKS[kind](e, {}, read, answer)["ok"]


def denial_cases(turns: dict[str, list[dict[str, Any]]]) -> list[tuple[str, str, bool]]:
    """(turn kind, answer, verdict it must get) on every choice turn (compare, recall, place in sight) with others."""
    out = []
    for kind in ("compare", "recall", "name_seen"):
        for e in turns[kind]:
            if not e.get("others"):
                continue
            x, y = e["name"], e["others"][0]
            out += [(kind, e, f"{x}, not {y}", True), (kind, e, f"Not {y} but {x}.", True),
                    (kind, e, f"{x} rather than {y}", True), (kind, e, f"It is {x}, not the {y}.", True),
                    (kind, e, f"It's {x}; it isn't {y}.", True), (kind, e, f"It isn’t {x}, it's {y}.", False),
                    (kind, e, f"{y}, not {x}", False), (kind, e, f"{y}, if not {x}", False),
                    (kind, e, f"{x}, not {y}, or {y}", False), (kind, e, f"not {y} or {x}", False),
                    (kind, e, f"not {x}", False), (kind, e, f"{x} or maybe not {y}", False),
                    (kind, e, f"{x} or {y}", False)]
    return out


def inside_cases(turns: dict[str, list[dict[str, Any]]]) -> list[tuple[str, dict[str, Any], str, bool]]:
    """A name inside the right one ("Central Park" in "Central Park Tower"): said on its own it is named."""
    out = []
    for kind in ("name_seen", "fact_architect"):
        for e in turns[kind]:
            for n in named_inside(e, kind):
                out += [(kind, e, e["name"], True), (kind, e, f"That would be {e['name']}.", True),
                        (kind, e, f"{e['name']} or {n}", False), (kind, e, f"{e['name']}, or {n}", False),
                        (kind, e, f"{n}; {e['name']}", False), (kind, e, f"{e['name']}, not {n}", True)]
    return out


def year_cases(turns: dict[str, list[dict[str, Any]]]) -> list[tuple[str, dict[str, Any], str, bool]]:
    out = []
    for e in turns["fact_year"]:
        y = e["year"]
        out += [("fact_year", e, str(y), True), ("fact_year", e, f"It was built in {y}.", True),
                ("fact_year", e, f"{y}-{(y + 1) % 100:02d}", False), ("fact_year", e, f"{y}/{(y + 1) % 100:02d}", False),
                ("fact_year", e, f"{y - 1}–{y % 100:02d}", False), ("fact_year", e, f"the {y // 10 * 10}s", False),
                ("fact_year", e, f"in the {y // 10 * 10}'s", False), ("fact_year", e, f"{y} or {y + 1}", False)]
    return out


def opening_cases() -> list[tuple[str, dict[str, Any], str, bool]]:
    """The year turns whose place opened in another year than it was built: its opening, said as such, is no
    second answer; any other year, or the opening offered as an alternative, is."""
    from tests.domains.assistant.redteam import opened_otherwise

    out = []
    for t in suite(ENV):
        for x in t.goal["turns"]:
            o = opened_otherwise(x["expect"]["place"]) if x["kind"] == "fact_year" else ""
            if o:
                e, y = x["expect"], x["expect"]["year"]
                out += [("fact_year", e, f"Built in {y}; it opened in {o}.", True),
                        ("fact_year", e, f"{y} (opening: {o})", True),
                        ("fact_year", e, f"{y}, or opened in {o}", False), ("fact_year", e, f"{y} or {o}", False),
                        ("fact_year", e, f"built {o}, opened {y}", False),
                        ("fact_year", e, f"Built in {y}; it opened in {int(o) + 1}.", False)]
    return out


def _wrong(cases: list[tuple[str, dict[str, Any], str, bool]]) -> list[tuple[str, str, bool]]:
    return [(k, a, want) for k, e, a, want in cases if _ok(k, e, a) != want]


def test_a_denied_name_is_no_name_given(turns):
    cases = denial_cases(turns)
    assert len(cases) > 1000
    assert not _wrong(cases)[:5]


def test_a_name_inside_the_right_one_said_on_its_own_is_named(turns):
    cases = inside_cases(turns)
    assert len({c[2] for c in cases if c[3] is False}) >= 40  # 15 place and 9 architect turns, several each
    assert not _wrong(cases)[:5]


def test_a_short_second_year_or_a_decade_gives_its_years(turns):
    cases = year_cases(turns)
    assert len(cases) >= 8 * 50
    assert not _wrong(cases)[:5]
    assert checks.years_in("1893-94") == ["1893", "1894"] and checks.years_in("1899–00") == ["1899", "1900"]
    assert checks.years_in("the 1890s") == [str(1890 + k) for k in range(10)] and checks.years_in("1893") == ["1893"]
    assert checks.years_in("1893-5 floors") == ["1893"]  # two digits make a year, not one


def test_the_opening_year_said_as_such_is_no_second_answer():
    cases = opening_cases()
    assert len(cases) == 6 * 4  # the year turns whose place opened in another year (3 until stop 38's outings)
    assert not _wrong(cases)[:5]


def test_year_and_its_opening_passes_every_episode():
    from tests.domains.assistant import redteam as rt
    from tests.redteam import pool, run

    tasks = suite(ENV)
    res = run(rt.YearAndItsOpening, ENV, pool(rt.YearAndItsOpening, tasks))
    assert len(res) == 4 and all(r["carried_out"] and r["metrics"]["overall"] for r in res), \
        [(r["task_id"], r["metrics"].get("turns_ok")) for r in res]


def test_answers_without_a_denial_or_a_name_inside_are_judged_as_before(turns):
    """The new reading starts only where the answer says "not", "rather than" or "instead of", or names a candidate
    that the right name holds."""
    e = {"name": "Bowery Feast Plate", "others": ["Bowery Bistro Plate"]}
    assert checks._read(checks._catalog(checks.recipe_names(), False, ()), "Bowery Feast Plate", e["name"], [], []) \
        is None


def _old_years(answer: str | None) -> list[tuple[str, int]]:
    """The years written out, where each starts (:func:`checks._years_at` before checker version 8)."""
    import re

    return [(m.group(1), m.start()) for m in re.finditer(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)", answer or "")]


@pytest.mark.parametrize("broken", ["no denials", "names inside excused", "years written out only",
                                    "the opening counts"])
def test_each_rule_broken_is_caught(turns, monkeypatch, broken):
    """Each rule broken on purpose: the cases above then find verdicts that are wrong."""
    if broken == "no denials":
        monkeypatch.setattr(checks, "_read", lambda *a: None)
        cases = denial_cases(turns)
    elif broken == "names inside excused":
        real = checks._read
        monkeypatch.setattr(checks, "_read", lambda c, answer, name, others, inside, *rest: real(c, answer, name, others, [], *rest))
        cases = inside_cases(turns)
    elif broken == "years written out only":
        monkeypatch.setattr(checks, "_years_at", _old_years)
        cases = year_cases(turns)
    else:
        monkeypatch.setattr(checks, "_without_the_opening", lambda answer, e: answer or "")
        cases = opening_cases()
    assert _wrong(cases)
