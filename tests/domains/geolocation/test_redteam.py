"""The red-team suite (see ``redteam.py``), on the whole test split: shortcuts score at most 2 % overall,
guesses stay within the issue's bounds, genuine alternatives score at least 98 %."""

from __future__ import annotations

import math

import pytest

from tests.domains.geolocation import redteam as rt


@pytest.fixture(scope="module")
def tasks():
    return rt.all_tasks()


def _fmt(rows):
    return [(r["task_id"], {k: r["metrics"].get(k) for k in ("city", "web", "embodied", "answer_notes", "answer_error")},
             r["errors"][:2]) for r in rows[:3]]


def _carried(cls, tasks):
    res = rt.run(cls, rt.pool(cls, tasks))
    assert not [r["agent_error"] for r in res if r["agent_error"]][:3]
    carried = [r for r in res if r["carried_out"]]
    # (an idea only a few cities allow, such as a short form of the name, says how many tasks it has)
    assert len(carried) >= getattr(cls, "min_episodes", rt.MIN_EPISODES) and len(carried) >= 0.95 * len(res), \
        (len(carried), len(res), _fmt([r for r in res if not r["carried_out"]]))
    return carried


def _rate(rows, key="overall"):
    return sum(bool(r["metrics"][key]) for r in rows) / len(rows)


@pytest.mark.parametrize("cls", rt.SHORTCUTS, ids=lambda c: c.__name__)
def test_shortcut_at_most_2_percent(cls, tasks):
    carried = _carried(cls, tasks)
    assert _rate(carried) <= rt.BOUND["shortcut"], _fmt([r for r in carried if r["metrics"]["overall"]])


@pytest.mark.parametrize("cls", rt.GENUINE, ids=lambda c: c.__name__)
def test_genuine_alternative_at_least_98_percent(cls, tasks):
    carried = _carried(cls, tasks)
    assert _rate(carried) >= rt.BOUND["genuine"], _fmt([r for r in carried if not r["metrics"]["overall"]])


def test_signs_without_web(tasks):
    """Reading every sign without the web: at most 10 % overall, and no city taken from the sign texts."""
    carried = _carried(rt.SignsWithoutWeb, tasks)
    assert _rate(carried) <= rt.BOUND["SignsWithoutWeb"]
    from_text = [r for r in carried if r["agent"].source == "text"]
    assert sum(bool(r["metrics"]["city"]) for r in from_text) / len(carried) <= 0.02, _fmt(from_text)


def test_capital_of_the_true_country(tasks):
    carried = _carried(rt.CapitalOfCountry, tasks)
    assert all(r["metrics"]["web"] and r["metrics"]["embodied"] for r in carried)  # it did all the legwork
    assert _rate(carried) <= rt.BOUND["CapitalOfCountry"]


def test_a_random_city_of_the_country_is_no_better_than_chance(tasks):
    pool = rt.pool(rt.RandomCityOfCountry, tasks)
    carried = _carried(rt.RandomCityOfCountry, tasks)
    p = rt.chance_rate(pool)
    sd = math.sqrt(p * (1 - p) / len(carried))
    assert _rate(carried) <= p + 2 * sd, (_rate(carried), p)


def test_shortcuts_are_one_idea_away_from_passing(tasks):
    """Each shortcut differs from the honest agent in one idea: the honest agent passes the same task."""
    t = next(t for t in rt.pool(rt.StreetMemory, tasks) if t.split == "test")
    honest = rt.run(rt.RedTeamAgent, [t])[0]
    assert honest["carried_out"] and honest["metrics"]["overall"]
    for cls in rt.SHORTCUTS + rt.GUESSES:
        r = rt.run(cls, [t])[0]
        # (the country hedge names two countries: its country level fails with its city level)
        assert r["carried_out"] and (r["metrics"]["country"] or cls is rt.HedgeTwoCountries), cls.__name__


def test_the_train_split_s_city_is_no_prior(tasks):
    """The city the train split holds for the true country names no test task's city (each city has one
    standpoint, and a two-city chain's cities share a split): at most 2 %."""
    carried = _carried(rt.TrainSplitCity, tasks)
    assert all(r["metrics"]["web"] and r["metrics"]["embodied"] for r in carried)
    assert _rate(carried) <= rt.BOUND["shortcut"], _fmt([r for r in carried if r["metrics"]["overall"]])
