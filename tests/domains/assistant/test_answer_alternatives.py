"""Stop 38, the Assistant's answer judge: an alternative that names none of the candidates is another name the judge
cannot read, so the answer is a hedge (:func:`embodiedweb.domains.assistant.checks.unread_name`, the traveling judge's
rule); British spellings and a person's initials name the same (fast: no episode)."""

from __future__ import annotations

from typing import Any

import pytest

from embodiedweb.domains.assistant import checks

PLACE = {"name": "Ed Sullivan Theater", "others": [], "place": "ed-sullivan-theater"}
ARCHITECT = {"name": "Herbert J. Krapp", "others": [], "place": "ed-sullivan-theater"}
COMPARE = {"measure": "time", "name": "Bowery Feast Plate", "others": ["Bowery Bistro Plate"]}
RECALL = {"name": "Roma Tomato", "others": []}
YEAR = {"year": 1927, "place": "ed-sullivan-theater"}
READ = {"web": {"wiki": {"views": ["ed-sullivan-theater"]}}}


def _judge(kind: str, e: dict[str, Any], answer: str) -> dict[str, Any]:
    return checks.CHECKS[kind](e, {}, READ, answer)


HEDGES = [("name_seen", PLACE, "Ed Sullivan Theater or the Apollo Theater"),
          ("name_seen", PLACE, "Ed Sullivan Theater (or possibly something else)"),
          ("fact_architect", ARCHITECT, "Herbert J. Krapp / Thomas W. Lamb"),
          ("compare", COMPARE, "Bowery Feast Plate or Zanzibar Noodle Bowl"),
          ("recall", RECALL, "Roma Tomato or San Marzano Tomato"),
          ("fact_year", YEAR, "1927 or later"), ("fact_year", YEAR, "1927 (possibly a decade earlier)")]
SAME = [("name_seen", PLACE, "Ed Sullivan Theatre"), ("name_seen", PLACE, "the Ed Sullivan Theatre, or Ed Sullivan Theater"),
        ("fact_architect", ARCHITECT, "H. J. Krapp"), ("fact_architect", ARCHITECT, "Herbert J. Krapp"),
        ("compare", COMPARE, "Bowery Feast Plate, not Bowery Bistro Plate"), ("fact_year", YEAR, "1927"),
        ("recall", RECALL, "Roma Tomato")]


@pytest.mark.parametrize(("kind", "e", "answer"), HEDGES, ids=[a for *_x, a in HEDGES])
def test_an_alternative_naming_no_candidate_is_a_hedge(kind: str, e: dict[str, Any], answer: str) -> None:
    r = _judge(kind, e, answer)
    assert not r["ok"] and "as an alternative" in r["why"], r


@pytest.mark.parametrize(("kind", "e", "answer"), SAME, ids=[a for *_x, a in SAME])
def test_a_spelling_or_initials_of_the_right_name_pass(kind: str, e: dict[str, Any], answer: str) -> None:
    assert _judge(kind, e, answer)["ok"]


def test_initials_another_architect_shares_name_no_one() -> None:
    """Initials count only when no other architect of the wiki has them: every architect's initials form is unique
    among the candidates, or it is no form of anyone's."""
    people, firms = checks.architect_names()
    c = checks.Candidates([*people, "Harold J. Krapp"], True, firms)
    assert not c.named("H. J. Krapp", "Herbert J. Krapp") and c.named("Herbert J. Krapp", "Herbert J. Krapp")
    # (neither of the two: the shared form given to either one, whichever a set yields first, fails; stop 39: the
    # mutant that gave it to one of them survived stop 38's sampled run, this file not among the module's tests)
    assert not c.named("H. J. Krapp", "Harold J. Krapp")


def test_the_rules_broken_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the alternative rule the name hedges pass again; without the spellings "Theatre" names nothing."""
    monkeypatch.setattr(checks, "unread_name", lambda *_a, **_k: None)
    monkeypatch.setattr(checks, "unread_listed", lambda *_a, **_k: None)  # (stop 39's list rule cuts at "or" too)
    assert all(_judge(k, e, a)["ok"] for k, e, a in HEDGES if k != "fact_year")
    monkeypatch.setattr(checks, "_unread_year", lambda _t: checks._result(True))
    assert all(_judge(k, e, a)["ok"] for k, e, a in HEDGES)
    monkeypatch.setattr(checks, "SPELLINGS", {})
    assert not _judge("name_seen", PLACE, "Ed Sullivan Theatre")["ok"]


#: stop 39: a name (year) listed beside the right one that names none of the candidates
LISTED = [("name_seen", PLACE, "Ed Sullivan Theater, Apolo Theatre"), ("name_seen", PLACE, "Apolo Theatre; Ed Sullivan Theater"),
          ("fact_architect", ARCHITECT, "Herbert J. Krapp and Tomas Lamb"),
          ("fact_architect", ARCHITECT, "Herbert J. Krapp (Tomas Lamb)"),
          ("compare", COMPARE, "Bowery Feast Plate, Zanzibar Noodle Bowl"),
          ("recall", RECALL, "Roma Tomato: San Marzano Tomato"), ("fact_year", YEAR, "1927, the year after"),
          ("fact_year", YEAR, "1927 (the next year)")]
#: context beside the right name: no name of its own
IN_CONTEXT = [("name_seen", PLACE, "Ed Sullivan Theater, on Broadway"),
              ("name_seen", PLACE, "Ed Sullivan Theater, 1697 Broadway, New York"),
              ("name_seen", PLACE, "The Ed Sullivan Theater, where the Late Show is taped"),
              ("name_seen", PLACE, "Ed Sullivan, Theater"), ("fact_architect", ARCHITECT, "Herbert J. Krapp, the architect"),
              ("recall", RECALL, "Roma Tomatoes, as you asked"), ("recall", {"name": "Blueberries, 6 oz", "others": []},
                                                                  "blueberry, 6 oz"),
              ("recall", {"name": "Cherry Tomatoes", "others": []}, "the cherry tomato, tomatoes"),
              ("fact_year", YEAR, "1927, the year it opened"), ("fact_year", YEAR, "1927. I read it on the wiki.")]


@pytest.mark.parametrize(("kind", "e", "answer"), LISTED, ids=[a for *_x, a in LISTED])
def test_a_listed_name_naming_no_candidate_is_a_hedge(kind: str, e: dict[str, Any], answer: str) -> None:
    r = _judge(kind, e, answer)
    assert not r["ok"] and "beside the" in r["why"], r


@pytest.mark.parametrize(("kind", "e", "answer"), IN_CONTEXT, ids=[a for *_x, a in IN_CONTEXT])
def test_context_beside_the_name_passes(kind: str, e: dict[str, Any], answer: str) -> None:
    assert _judge(kind, e, answer)["ok"]


def test_the_list_rule_broken_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the list rule the listed names and years pass; with every item a value, the context fails."""
    monkeypatch.setattr(checks, "unread_listed", lambda *_a, **_k: None)
    from embodiedweb.domains.outdoor import answers

    monkeypatch.setattr(answers, "value_items", lambda *_a, **_k: [])
    assert all(_judge(k, e, a)["ok"] for k, e, a in LISTED)
    monkeypatch.undo()
    monkeypatch.setattr(answers, "offers_value", lambda *_a, **_k: True)
    assert sum(_judge(k, e, a)["ok"] for k, e, a in IN_CONTEXT) <= 4  # (the address and the right name's own words)
    monkeypatch.undo()
    monkeypatch.setattr(checks, "_stem", lambda w: w)
    assert not _judge("recall", {"name": "Blueberries, 6 oz", "others": []}, "blueberry, 6 oz")["ok"]


@pytest.mark.parametrize(("word", "stem"), [("blueberries", "blueberry"), ("tomatoes", "tomato"), ("peaches", "peach"),
                                            ("dishes", "dish"), ("boxes", "box"), ("cats", "cat"), ("glass", "glass"),
                                            ("bus", "bus"), ("ties", "tie"), ("plate", "plate")])
def test_a_plural_ending_is_dropped(word: str, stem: str) -> None:
    """:func:`checks._stem` (the right name's own words in :func:`checks.unread_listed`): "ss" and three letters kept."""
    assert checks._stem(word) == stem


def test_a_longer_candidate_is_read_before_one_inside_it() -> None:
    """A candidate whose name holds another's and a cut mark ("Broadway/Times Square" holds "Times Square") is read
    whole, the longest first, by both rules: read shortest (or in alphabetical order) first, "Broadway" would be left
    as an alternative and an item naming no one."""
    c = checks.Candidates(["Times Square", "Broadway/Times Square"])
    assert checks.unread_name(c, "Broadway/Times Square") is None
    assert checks.unread_listed(c, "Broadway/Times Square", "Times Square") is None  # (judged against another name)


def test_the_year_hedges_reason() -> None:
    assert checks._unread_year("1927 or the year after") == {
        "ok": False, "why": "answer offers 'the year after' as an alternative, which is no year: a hedge"}
    assert checks._unread_year("1927, the year after") == {
        "ok": False, "why": "answer lists 'the year after' beside the year, which is no year: another value the judge "
                            "cannot check (a hedge)"}
