"""EWA-Geolocation-v0: tasks, answer parsing, oracle, negative controls, heuristic vs passive, wiki."""

from __future__ import annotations

import json
import random

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401
from baselines.geo_heuristic import GeoHeuristic, Knowledge, Observations
from baselines.random_agent import RandomAgent
from embodiedweb.domains.geolocation import GeolocationDomain, check_answer, parse_answer
from embodiedweb.evaluate import run_episode
from embodiedweb.paths import data_dir

GOAL = {"lat": 52.517, "lng": 13.3889, "continent": "Europe", "continent_alt": [], "country": "Germany",
        "city": "Berlin", "city_aliases": [], "street": "Friedrichstraße", "street_aliases": ["Friedrichstraße"]}
US = {"lat": 41.8945, "lng": -87.624, "continent": "North America", "continent_alt": [], "country": "United States",
      "city": "Chicago", "city_aliases": [], "street": "Michigan Avenue", "street_aliases": ["N Michigan Ave"]}


@pytest.fixture(scope="module")
def env():
    e = gym.make("EWA-Geolocation-v0")
    yield e
    e.close()


def test_tasks(env):
    tasks = env.unwrapped.tasks.tasks
    assert len(tasks) >= 142
    assert [t.task_id for t in tasks] == [f"geo-{i:03d}" for i in range(1, len(tasks) + 1)]
    assert len({t.embodied["standpoint"] for t in tasks}) == len(tasks)
    assert {t.split for t in tasks} == {"train", "test"}
    assert all(t.start == "embodied" and "stop [lat, lng; continent; country; city; street]" in t.instruction
               for t in tasks)


@pytest.mark.parametrize("answer,levels", [
    ("52.517, 13.389; Europe; Germany; Berlin; Friedrichstraße", (1, 1, 1, 1)),
    ("  52.517 ,13.389 ;europe;GERMANY ; berlin ;friedrichstrasse ", (1, 1, 1, 1)),
    ("; Europe; Germany; Berlin; Friedrich Strasse", (1, 1, 1, 1)),
    ("Europe; Germany; Berlin", (1, 1, 1, 0)),
    ("Germany; Berlin", (0, 1, 1, 0)),
    ("Berlin, Germany", (0, 1, 1, 0)),
    ("52.517 N, 13.389 E; Europe; Deutschland; Munich; Friedrichstraße", (1, 0, 0, 1)),
    ("; Asia; Austria; Vienna; ", (0, 0, 0, 0)),
])
def test_parse_and_levels(answer, levels):
    m = check_answer(GOAL, answer, GolocCountries())
    assert (m["continent"], m["country"], m["city"], m["street"]) == tuple(map(bool, levels))
    assert m["completion"] == sum(levels) / 4 and m["overall"] == bool(levels[2])


def GolocCountries():
    return GeolocationDomain.countries()


def test_country_aliases_accents_and_distance():
    for alias in ("USA", "United States of America", "u.s.a.", "the United States", "America"):
        assert check_answer(US, f"; North America; {alias}; Chicago; Michigan Ave")["country"], alias
    m = check_answer(US, "41.8945, -87.624; north america; USA; chicago; N Michigan Ave")
    assert m["street"] and m["distance_km"] == 0 and m["geoguessr_score"] == 5000
    m = check_answer(GOAL, "48.8566, 2.3522; Europe; France; Paris; Rue de Rivoli")
    assert 870 < m["distance_km"] < 885 and 2700 < m["geoguessr_score"] < 2850
    assert check_answer({**GOAL, "city": "Zurich", "city_aliases": ["Zürich"]}, "; ; ; zürich; ")["city"]
    assert check_answer({**GOAL, "city": "Kraków"}, "; ; ; Krakow; ")["city"]
    assert parse_answer("52.5 S, 13.4 W; x; y; z; w").lat == -52.5


@pytest.mark.parametrize("answer,err", [(None, "no answer"), ("", "no answer"), (";;;;", "could not read"),
                                        ("   ", "no answer")])
def test_unparsable_answers_say_why(answer, err):
    m = check_answer(GOAL, answer)
    assert err in m["answer_error"] and m["completion"] == 0 and m["distance_km"] is None
    assert m["geoguessr_score"] == 0


def test_out_of_range_coordinates_are_ignored_with_a_note():
    m = check_answer(GOAL, "152.5, 13.4; Europe; Germany; Berlin; ")
    assert m["distance_km"] is None and m["city"] and "out of range" in m["answer_notes"][0]


def test_oracle_solves_every_task_at_city_level(env):
    base = env.unwrapped
    for t in base.tasks:
        m = run_episode(env, base.domain.oracle(t), t.task_id, seed=1)["metrics"]
        assert m["overall"] and m["city"] and m["country"] and m["continent"] and m["street"], (t.task_id, m)
        assert m["distance_km"] < 0.2 and m["web"] and m["embodied"], (t.task_id, m)


def test_perturbed_oracle_names_a_wrong_place(env):
    base = env.unwrapped
    fails = 0
    for t in base.tasks:
        m = run_episode(env, base.domain.oracle(t, perturb=random.Random(t.task_id)), t.task_id, seed=1)["metrics"]
        fails += not m["overall"]
    assert fails == len(base.tasks)


def test_random_agent_at_most_5_percent(env):
    base = env.unwrapped
    ok = sum(run_episode(env, RandomAgent(seed=0), t.task_id, seed=0)["metrics"]["overall"] for t in base.tasks)
    assert ok / len(base.tasks) <= 0.05


def _heuristic_rate(e, level="country"):
    base = e.unwrapped
    return sum(run_episode(e, GeoHeuristic(), t.task_id, seed=0)["metrics"][level] for t in base.tasks) / len(base.tasks)


def test_heuristic_beats_passive(env):
    full = _heuristic_rate(env)
    passive_env = gym.make("EWA-Geolocation-v0", passive=True)
    static_env = gym.make("EWA-Geolocation-v0", static=True)
    try:
        passive = _heuristic_rate(passive_env)
        static = _heuristic_rate(static_env)
    finally:
        passive_env.close()
        static_env.close()
    print(f"heuristic country accuracy: full {full:.3f}, static {static:.3f}, passive {passive:.3f}")
    assert full >= 0.80
    assert full - passive >= 0.3 and full > static


def test_passive_setting_refuses_web_and_moves():
    e = gym.make("EWA-Geolocation-v0", passive=True)
    try:
        obs, info = e.reset(options={"task_id": "geo-012"})
        assert obs["active"] == "embodied" and obs["embodied_text"].count("Looking ") == 1
        assert info["admissible_actions"] == ["stop"]
        obs, *_ = e.step("switch_environment")
        assert "not available" in obs["last_action_error"]
        obs, *_ = e.step("forward")
        assert "cannot move" in obs["last_action_error"]
        obs, r, term, trunc, info = e.step("stop [52.517, 13.389; Europe; Germany; Berlin; Friedrichstraße]")
        m = info["metrics"]
        assert term and m["overall"] and not m["web"] and not m["embodied"]
    finally:
        e.close()


def test_heuristic_reasons_from_article_texts_alone():
    """The cue lists alone (no hints) point to the country: the same reasoning the agent uses on pages."""
    arts = {a["slug"]: a for a in json.loads((data_dir() / "wiki" / "cues.json").read_text(encoding="utf-8"))}
    kb = Knowledge(use_codes=False)
    kb.add_continents([p for s in arts["list-of-countries-by-continent"]["sections"] for p in s["paragraphs"]])
    for slug, kind in (("driving-side-by-country", "traffic"), ("vehicle-registration-plates-by-country", "plate"),
                       ("road-markings-by-country", "line"), ("words-on-signs", "words"),
                       ("writing-systems", "script")):
        kb.add_article(kind, [p for s in arts[slug]["sections"] for p in s["paragraphs"]])
    obs = Observations()
    obs.read("You are at viewpoint x_0, facing north.\nLooking north (ahead): A solid yellow line runs down the "
             "middle of the road. The front licence plate is yellow with black characters. A shop sign reads "
             "\"Droguería\".")
    scores, _ = kb.score(obs)
    assert max(scores, key=scores.get) == "Colombia"


def test_wiki_cue_articles():
    arts = json.loads((data_dir() / "wiki" / "cues.json").read_text(encoding="utf-8"))
    slugs = {a["slug"] for a in arts}
    for a in arts:
        assert set(a) == {"slug", "title", "summary", "sections", "infobox", "links", "categories"}
        assert all(set(s) == {"heading", "paragraphs"} for s in a["sections"])
        assert all(len(kv) == 2 for kv in a["infobox"])
    for c in GeolocationDomain.countries():
        from embodiedweb.data_gen.geo import slugify

        assert slugify(c) in slugs
    assert {"driving-side-by-country", "writing-systems", "vehicle-registration-plates-by-country",
            "road-markings-by-country", "roadside-bollards"} <= slugs
    from web_sites.wiki import catalog

    assert catalog.get("driving-side-by-country") is not None and catalog.get("germany") is not None


def test_check_env():
    from gymnasium.utils.env_checker import check_env

    e = gym.make("EWA-Geolocation-v0")
    try:
        check_env(e.unwrapped, skip_render_check=True)
    finally:
        e.close()
