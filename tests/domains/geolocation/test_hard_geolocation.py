"""The geolocation hard tier (issue 22, item 5): no hint and no cue of the city alone; a regional chain's
article lists three to five cities in as many countries, and the street's country cues rule out all but one.

Checked here: the shipped files are what the generator writes; every task keeps the tier's rules (no
hint, no standard city cue, not a capital, the chain two or more moves away, every other listed country
ruled out by a cue seen, which the wiki's country article contradicts); the wiki shows the chain
articles to hard sessions only; the oracle solves every task through the public interface, the perturbed
oracle none; shortcuts at most 2 %, the blind pick from the chain's list exactly at chance, genuine
alternatives at least 98 %; the standard tier's suite version is unchanged."""

from __future__ import annotations

import json
import re

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401  (registers the ids)
from embodiedweb.data_gen import geo, hard_geolocation
from embodiedweb.paths import data_dir
from tests.domains.geolocation import redteam as rt
from tests.domains.geolocation import redteam_hard as rh

ENV = "EWA-Geolocation-v0"


@pytest.fixture(scope="module")
def built():
    return hard_geolocation.build()


@pytest.fixture(scope="module")
def tasks():
    return rh.hard_tasks()


def test_shipped_files_are_the_generators(built):
    tasks, standpoints, articles = built
    assert (data_dir() / "geo" / "hard.jsonl").read_text(encoding="utf-8") == \
        "".join(json.dumps(t, ensure_ascii=False, sort_keys=True) + "\n" for t in tasks)
    shipped = json.loads((data_dir() / "geo" / "hard.standpoints.json").read_text(encoding="utf-8"))
    assert shipped["standpoints"] == json.loads(json.dumps(standpoints))
    assert json.loads((data_dir() / "wiki" / "hard.chains.json").read_text(encoding="utf-8")) == \
        json.loads(json.dumps(articles))
    assert len(tasks) >= 100 and {t["split"] for t in tasks} == {"train", "test"}


def test_every_task_keeps_the_tiers_rules(built):
    tasks, standpoints, articles = built
    by_slug = {a["slug"]: a for a in articles}
    std = {sp["id"]: sp for sp in geo.standpoints()}
    std_split = {t["embodied"]["standpoint"]: t["split"] for t in geo.tasks(list(std.values()))}
    for t, sp in zip(sorted(tasks, key=lambda t: t["embodied"]["standpoint"]), standpoints, strict=True):
        assert t["embodied"]["standpoint"] == sp["id"] and not sp["capital"] and not geo.is_capital(sp["country_code"], sp["city"])
        items = hard_geolocation.seen_items(sp)
        assert not any(it.get("hint") for it in items)  # no street sign, web address or phone number
        assert not any(it.get("role") == "street" for it in items) and not t["goal"]["street_signed"]
        own = geo.cues_of(sp["country_code"], sp["city"])
        texts = " ".join(it.get("say", "") for it in items)
        for term in (own["chain"]["name"], own["transit"]["name"], own["speciality"]["word"]):
            assert not re.search(rf"(?<!\w){re.escape(term)}(?!\w)", texts, re.I), term  # nothing of the city alone
        [cue] = sp["distinguishing"]
        assert sp["start"] not in hard_geolocation._far_nodes(sp) and cue["node"] in hard_geolocation._far_nodes(sp)
        assert f'"{sp["chain"]["name"]}"' in " ".join(it["say"] for it in sp["nodes"][cue["node"]]["views"][cue["view"]])
        article = by_slug[cue["articles"][0]]
        listed = article["sections"][0]["paragraphs"][0]
        assert 3 <= len(sp["chain"]["cities"]) <= 5 and f"|{sp['city']}]] ({sp['country']})" in listed
        members = [s for s in standpoints if s["chain"]["slug"] == sp["chain"]["slug"]]
        assert len({m["country_code"] for m in members}) == len(members) == len(sp["chain"]["cities"])
        for m in members:
            if m is not sp:  # every other listed country is ruled out by a cue seen here
                assert hard_geolocation.rules_out(sp, m["country_code"]), (sp["id"], m["country"])
        # the place of a hard test task is never a standard train task
        std_id = geo.geo_cues.opaque_id("s", sp["country_code"], sp["city"], sp["street"])
        assert t["split"] == std_split[std_id]


def _contradicted(sp, country):
    """Whether the served wiki article of ``country`` contradicts a cue seen at ``sp``, read as an agent reads
    it (independently of the generator's rule): a traffic, plate or centre-line sentence of the views that
    the article does not state, the sun where its hemisphere never sees it, or shop signs in a script it
    does not write."""
    from web_sites.wiki import catalog

    text = catalog.article_text(catalog.get(geo.slugify(country)))
    for it in hard_geolocation.seen_items(sp):
        if it["kind"] in ("traffic", "plate") and it["say"] not in text:
            return True
        if it["kind"] == "centre" and it["colour"] and f"{it['colour']} line runs down" not in text \
                and "Centre line: varies" not in text and "line runs down the middle" in text:
            return True
        if it["kind"] == "sun" and f"in the {'Southern' if it['side'] == 'south' else 'Northern'} Hemisphere" in text:
            return True
    scripts = set(geo.BY_CODE[sp["country_code"]]["scripts"]) - {"latin"}
    signs = [it for it in hard_geolocation.seen_items(sp) if it.get("role") == "shop" and it.get("translit")]
    line = next((ln for ln in text.split(". ") if ln.startswith("Script:") or "Script: " in ln), "")
    return bool(signs and scripts and not any(geo.SCRIPT_NAMES[k] in line for k in scripts))


def test_each_other_listed_country_is_contradicted_by_its_own_article(built):
    _tasks, standpoints, _articles = built
    pairs = 0
    for sp in standpoints:
        for m in standpoints:
            if m["chain"]["slug"] == sp["chain"]["slug"] and m is not sp:
                assert _contradicted(sp, m["country"]), (sp["id"], sp["country"], m["country"])
                pairs += 1
    assert pairs >= 300


def test_rules_out_reads_only_what_is_seen():
    """A country is ruled out only by a cue the street shows: a pedestrian street without cars cannot rule
    a country out by its driving side or plates."""
    sp = {"country_code": "FR", "nodes": {"a": {"views": {"N": [{"kind": "traffic", "side": "right"}]}}}}
    assert hard_geolocation.rules_out(sp, "GB") == ["traffic side"]
    assert hard_geolocation.rules_out(sp, "DE") == []
    sp["nodes"]["a"]["views"]["N"] = [{"kind": "road", "pedestrian": True}]
    assert hard_geolocation.rules_out(sp, "GB") == []


def _page(env, url):
    if env.unwrapped.active != "web":
        env.step("switch_environment")
    obs, *_ = env.step(f"goto [{url}]")
    assert obs["web_url"].endswith(url.split("?")[0].rstrip("/")) or "?" in url, obs["web_url"]
    return obs["web_text"]


def test_the_wiki_shows_the_chains_to_hard_sessions_only(built):
    _tasks, _sps, articles = built
    chain = articles[0]
    std = gym.make(ENV)
    hard = gym.make(ENV, level="hard")
    try:
        std.reset(seed=0)
        hard.reset(seed=0)
        assert "not found" in _page(std, f"/wiki/article/{chain['slug']}").lower()
        assert "No article matches your search" in _page(std, f"/wiki/search?q={chain['title']}")
        assert "Regional chains" not in _page(std, "/wiki/categories")
        assert f"link '{chain['title']}'" in _page(hard, f"/wiki/search?q={chain['title']}")
        assert "Regional chains" in _page(hard, "/wiki/categories")
        page = _page(hard, f"/wiki/article/{chain['slug']}")
        assert chain["title"] in page and "has shops in" in page
        # the standard tier's digest as before this tier (its checker version went from 2 to 3 in stop 27, and to 4
        # when a city's own region stopped counting as a second city: the region table is under data/tables/,
        # which the world digest leaves out); the digest moved once since, in stop 28, when a chain in two cities
        # stopped always being based in its standpoint's city, and again when such chains came in pairs
        # (data/wiki/cues.json: the standard tier's world), and when web addresses on signs lost their number
        # (data/geo/standpoints.json); checker version 5 when a street part could end with its
        # city and a street's directions and ordinals had to match; 6 after the third red-team review ("us" in
        # prose, continents with modifiers, coordinates anywhere, other countries, contradicted cities); the digest
        # moved again in stop 29 when the country articles' infobox listed all their cities, not the first four; the
        # tasks' digest moved in stop 30 when the two cities of a two-city chain were put in one split, and the
        # checker version went to 7 (CJK suffixes, words beside coordinates, other countries' regions); in stop 33
        # the checker version went to 8 (punctuated and short city names) and the digest moved with the cities' new
        # abbreviations (data/geo/places.json, standpoints.json, tasks.jsonl's city_aliases, data/wiki/cues.json),
        # and with the recipe texts (data/recipes: what a recipe names, where to crack an egg or slice a food), which
        # every env's world digest covers; in stop 35 (c8-4d6c2ebcc212 until then) with the wiki's "is an
        # educational institution" for "is a educational institution" in five place articles' lead sentences
        # (data/wiki/articles.json, which every env's world digest covers); in stop 37 (c8-9e4b0e489a7c until then)
        # the checker version went to 9 and the digest moved with the cities' names in their countries' first
        # script (Arabic for Morocco and Tunisia, Devanagari for four of India's: data/geo, data/wiki/cues.json);
        # in stop 38 (c9-8b1b1b40f2a8 until then) the checker version went to 10 (coordinates pointing to another
        # city contradict the one named; one cue both seen and researched) and the digest moved with the 16 start
        # views that said one building twice (data/geo/standpoints.json, hard.standpoints.json); in stop 39
        # (c10-565b46379ed1 until then) with Novosibirsk's and Vladivostok's continents (Asia, and Europe too, where
        # the wiki's Russia article says the country lies: data/geo), and (c10-f2d1eecab9f3 until then) the checker
        # version went to 11 (a cue is researched when shown what it tells; an answer's alternatives must all
        # read as the city)
        assert std.unwrapped.suite_version == "c11-f2d1eecab9f3"
        assert hard.unwrapped.suite_version.endswith("-hard")
    finally:
        std.close()
        hard.close()


def test_oracle_solves_every_task_and_the_perturbed_oracle_none(tasks):
    import random

    from embodiedweb.domains.geolocation.oracle import GeolocationOracle
    from tests.redteam import RedTeam

    class Oracle(RedTeam, GeolocationOracle):
        def __init__(self, task):
            GeolocationOracle.__init__(self, task)

    class Perturbed(RedTeam, GeolocationOracle):
        def __init__(self, task):
            GeolocationOracle.__init__(self, task, random.Random(task.task_id))

    for cls, want in ((Oracle, True), (Perturbed, False)):
        res = rt.run(cls, tasks)
        assert len(res) == len(tasks) and not any(r["agent_error"] for r in res)
        assert all(bool(r["metrics"]["overall"]) == want for r in res), \
            [(r["task_id"], r["metrics"].get("city")) for r in res if bool(r["metrics"]["overall"]) != want][:3]


@pytest.mark.parametrize("cls", rh.SHORTCUTS, ids=lambda c: c.__name__)
def test_shortcut_at_most_2_percent(cls, tasks):
    res = rt.run(cls, [t for t in tasks if cls.applies(t)])
    carried = [r for r in res if r["carried_out"]]
    assert len(carried) >= 0.95 * len(res) >= 40
    assert sum(bool(r["metrics"]["overall"]) for r in carried) <= 0.02 * len(carried)


@pytest.mark.parametrize("cls", rh.GENUINE, ids=lambda c: c.__name__)
def test_genuine_alternative_at_least_98_percent(cls, tasks):
    res = rt.run(cls, [t for t in tasks if cls.applies(t)])
    carried = [r for r in res if r["carried_out"]]
    assert len(carried) >= 0.95 * len(res) >= 40
    assert sum(bool(r["metrics"]["overall"]) for r in carried) >= 0.98 * len(carried)


def test_a_city_picked_from_the_chains_list_wins_only_by_chance(tasks):
    """Picking the first listed city without a look at the country cues passes exactly on the tasks whose
    city the list names first, and on no other: chance, not a way around the cues."""
    res = {r["task_id"]: r for r in rt.run(rh.FirstListedCity, tasks)}
    for t in tasks:
        first = rh.listed(t)[0][0] == t.goal["city"]
        assert bool(res[t.task_id]["metrics"]["overall"]) == first, t.task_id
    chance = sum(1 / len(rh.chain_of(t)["cities"]) for t in tasks) / len(tasks)
    rate = sum(bool(r["metrics"]["overall"]) for r in res.values()) / len(tasks)
    assert rate <= chance + 0.05


def test_a_chains_cities_are_all_of_one_split(tasks):
    """A chain's article lists every city it serves, each the answer of a hard task: when its cities were of both
    splits, an agent that ruled out the train answers was left with the goal alone, or among two, on 24 of 36 test
    tasks, and passed 28 of 36 without a look at a country cue. Each chain's tasks are now of one split."""
    splits: dict[str, set[str]] = {}
    for t in tasks:
        splits.setdefault(t.meta["chain"], set()).add(t.split)
    assert len(splits) >= 20 and all(len(s) == 1 for s in splits.values()), \
        [c for c, s in splits.items() if len(s) > 1]
    assert sum(t.split == "test" for t in tasks) >= 25


def test_capital_of_the_true_country_never_passes(tasks):
    res = rt.run(rt.CapitalOfCountry, tasks)
    assert not any(r["metrics"]["overall"] for r in res)


def test_a_best_known_city_guessed_after_a_token_search_never_passes(tasks):
    """Stop 39: a search whose snippet of the chain's article names no city is no research, so guessing the
    country's best-known city after it passes nowhere, though that city is the answer of many tasks."""
    res = [r for r in rt.run(rh.BestKnownCityAfterSearch, tasks) if r["carried_out"]]
    assert len(res) >= 0.95 * len(tasks)
    right = [r for r in res if r["metrics"]["city"]]
    assert len(right) >= 10  # the guess names the city often: the rule, not luck, keeps it out
    assert not [r["task_id"] for r in res if r["metrics"]["overall"]]
