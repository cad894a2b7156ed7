"""EWA-Geolocation-v0: tasks, answer parsing, what web/embodied/overall require, oracle, negative
controls, heuristic vs passive, wiki."""

from __future__ import annotations

import json
import random
import string

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401
from baselines.geo_heuristic import Knowledge, Observations
from baselines.random_agent import RandomAgent
from embodiedweb.domains.geolocation import GeolocationDomain, check_answer, parse_answer
from embodiedweb.domains.geolocation.checker import check_geolocation
from embodiedweb.evaluate import run_episode
from embodiedweb.paths import data_dir
from embodiedweb.worlds.geo import load_standpoints

GOAL = {"lat": 52.517, "lng": 13.3889, "continent": "Europe", "continent_alt": [], "country": "Germany",
        "city": "Berlin", "city_aliases": [], "city_centre": [52.520, 13.405], "street": "Friedrichstraße",
        "street_aliases": ["Friedrichstraße"]}
US = {"lat": 41.8945, "lng": -87.624, "continent": "North America", "continent_alt": [], "country": "United States",
      "city": "Chicago", "city_aliases": [], "city_centre": [41.878, -87.630], "street": "Michigan Avenue",
      "street_aliases": ["N Michigan Ave"]}
PARIS = {"lat": 48.8606, "lng": 2.3376, "continent": "Europe", "continent_alt": [], "country": "France",
         "city": "Paris", "city_aliases": [], "city_centre": [48.857, 2.352], "street": "Rue de Rivoli",
         "street_aliases": ["Rue de Rivoli"]}
LYON = {**PARIS, "city": "Lyon", "city_centre": [45.764, 4.836], "lat": 45.762, "lng": 4.836,
        "street": "Rue de la République", "street_aliases": ["Rue de la République"]}


@pytest.fixture(scope="module")
def env():
    e = gym.make("EWA-Geolocation-v0")
    yield e
    e.close()


def countries():
    return GeolocationDomain.countries()


def test_tasks(env):
    tasks = env.unwrapped.tasks.tasks
    assert len(tasks) >= 250
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
    ("Germany; Berlin", (1, 1, 1, 0)),  # the country implies its continent
    ("Berlin, Germany", (1, 1, 1, 0)),
    ("52.517 N, 13.389 E; Europe; Deutschland; Munich; Friedrichstraße", (1, 1, 0, 1)),
    ("; Asia; Austria; Vienna; ", (0, 0, 0, 0)),
    # the common forms of the issue
    ("Friedrichstraße, Berlin, Germany", (1, 1, 1, 1)),
    ("city: Berlin, country: Germany", (1, 1, 1, 0)),
    ("Country: Germany\nCity: Berlin\nStreet: Friedrichstrasse\nContinent: Europe", (1, 1, 1, 1)),
    ("52.517; 13.389; Europe; Germany; Berlin; Friedrichstraße", (1, 1, 1, 1)),
    ("lat: 52.517, lng: 13.389, city: Berlin", (1, 1, 1, 0)),  # one city implies both
    ("52.52, 13.40", (0, 0, 1, 0)),  # coordinates only: within 25 km of the centre
    ("52.52, 13.40; ; ; ; ", (0, 0, 1, 0)),
    ("52°31′N 13°24′E", (0, 0, 1, 0)),
    ("Germany, Berlin, Europe", (1, 1, 1, 0)),
    ("Berlin; Germany; Europe", (1, 1, 1, 0)),  # out of order: read by what each part is
    # one place per answer
    ("Berlin, Munich, Hamburg, Germany", (1, 1, 0, 0)),
    ("; Europe; Germany; Berlin / Munich; ", (1, 1, 0, 0)),
    ("; Europe; Germany; Berlin or Hamburg; ", (1, 1, 0, 0)),
    ("; Europe; Germany, Austria; Berlin; ", (1, 0, 1, 0)),
])
def test_parse_and_levels(answer, levels):
    m = check_answer(GOAL, answer, countries())
    assert (m["continent"], m["country"], m["city"], m["street"]) == tuple(map(bool, levels)), m
    assert m["completion"] == sum(levels) / 4 and m["overall"] == bool(levels[2])


def test_free_text_forms_of_the_issue():
    assert check_answer(PARIS, "Rue de Rivoli, Paris, France")["city"]
    assert check_answer(PARIS, "Rue de Rivoli, Paris, France")["street"]
    assert check_answer(PARIS, "city: Paris")["city"] and check_answer(PARIS, "country: France")["country"]
    assert check_answer(PARIS, "48.8606; 2.3376; Europe; France; Paris; Rue de Rivoli")["distance_km"] == 0
    for exonym in ("Lyons", "lyons", "LYON", "Lyon (Rhône)"):
        assert check_answer(LYON, f"; Europe; France; {exonym}; ")["city"], exonym
    beijing = {**PARIS, "country": "China", "continent": "Asia", "city": "Beijing", "city_centre": [39.904, 116.407]}
    assert check_answer(beijing, "Peking, China")["city"] and check_answer(beijing, "北京")["city"]
    marseille = {**PARIS, "city": "Marseille", "city_centre": [43.296, 5.370]}
    assert check_answer(marseille, "Marseilles, France")["city"]
    spb = {**PARIS, "country": "Russia", "city": "Saint Petersburg", "city_aliases": [], "city_centre": [59.934, 30.336]}
    for name in ("St. Petersburg", "St Petersburg", "Sankt-Peterburg", "Санкт-Петербург"):
        assert check_answer(spb, f"; ; Russia; {name}; ")["city"], name
    cebu = {**PARIS, "country": "Philippines", "city": "Cebu City", "city_centre": [10.316, 123.891]}
    assert check_answer(cebu, "Cebu, Philippines")["city"]
    mexico = {**PARIS, "country": "Mexico", "continent": "North America", "city": "Guadalajara",
              "city_centre": [20.677, -103.347]}
    m = check_answer(mexico, "Guadalajara, Mexico")
    assert m["city"] and m["country"] and "answer_notes" not in m  # "Mexico" is the country, not Mexico City


def test_coordinates_count_for_the_city_within_25_km_and_nearest():
    assert check_answer(LYON, "45.80, 4.95")["city"]  # ~10 km from the centre
    assert not check_answer(LYON, "45.50, 5.20")["city"]  # ~40 km away
    m = check_answer(LYON, "45.76, 4.84; Europe; France; Paris; ")
    assert not m["city"] and m["distance_km"] < 1  # a name given decides, not the coordinates
    # a point between two cities counts for the nearer one only, never for both
    manila = {**PARIS, "country": "Philippines", "city": "Manila", "city_centre": [14.599, 120.984]}
    makati = {**PARIS, "country": "Philippines", "city": "Makati", "city_centre": [14.555, 121.024]}
    for lat, lng in ((14.59, 120.99), (14.56, 121.02), (14.577, 121.004)):
        assert check_answer(manila, f"{lat}, {lng}")["city"] + check_answer(makati, f"{lat}, {lng}")["city"] <= 1


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


def test_spraying_is_named_in_the_notes():
    m = check_answer(PARIS, "Paris, Lyon, Marseille, Bordeaux, Toulouse, France")
    assert not m["city"] and "names 5 cities" in m["answer_notes"][0]
    m = check_answer(PARIS, "48.86, 2.34 / 45.76, 4.84 / 43.30, 5.37")
    assert not m["city"] and m["distance_km"] is None and "more than one coordinate pair" in m["answer_error"]


@pytest.mark.parametrize("answer,err", [(None, "no answer"), ("", "no answer"), (";;;;", "could not read"),
                                        ("   ", "no answer"), ("???", "could not read")])
def test_unparsable_answers_say_why(answer, err):
    m = check_answer(GOAL, answer)
    assert err in m["answer_error"] and m["completion"] == 0 and m["distance_km"] is None
    assert m["geoguessr_score"] == 0


@pytest.mark.parametrize("answer,err", [
    ("152.5, 13.4; Europe; Germany; Berlin; ", "out of range"),
    ("52.5x, 13.4; Europe; Germany; Berlin; ", "could not read the coordinates"),
    ("52.5.1, 13.4.2; Europe; Germany; Berlin; ", "could not read the coordinates"),
    ("lat: north, lng: 13.4, city: Berlin, country: Germany, continent: Europe", "could not read the lat"),
    ("lat: 52.5, city: Berlin, country: Germany, continent: Europe", "only one of lat and lng"),
])
def test_unreadable_coordinates_score_the_names_alone(answer, err):
    m = check_answer(GOAL, answer, countries())
    assert err in m["answer_error"] and "names were scored alone" in m["answer_error"]
    assert m["distance_km"] is None and m["geoguessr_score"] == 0
    assert m["continent"] and m["country"] and m["city"], m


def test_no_answer_ever_crashes():
    rng = random.Random(0)
    alphabet = string.printable + "°′″;,:|[](){}ßЖ北ñ\u200b"
    for _ in range(3000):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        m = check_answer(GOAL, s, countries())
        assert isinstance(m["city"], bool) and 0 <= m["completion"] <= 1
    assert check_answer(GOAL, "Berlin " * 5000)["city"]  # long input: cut, still read


# ----------------------------------------------------------------------------------- what the flags mean
def _sp():
    return next(s for s in load_standpoints().values() if s["city"] == "Berlin")


def _world(sp, visited):
    return {"standpoint": sp["id"], "visited": visited, "n_visited": len(set(visited))}


ANSWER = "52.517, 13.389; Europe; Germany; Berlin; Friedrichstraße"


def test_web_and_embodied_mean_a_distinguishing_cue_of_this_place():
    sp = _sp()
    cue = sp["distinguishing"][0]
    plain = [n for n in sp["nodes"] if n not in {c["node"] for c in sp["distinguishing"]}]
    country_level = ["germany", "driving-side-by-country", "vehicle-registration-plates-by-country",
                     "writing-systems", "words-on-signs", "berlin", "major-cities-by-country"]
    other = next(s for s in load_standpoints().values() if s["country"] == "Germany" and s["city"] != "Berlin")
    other_cues = [a for c in other["distinguishing"] for a in c["articles"] if a not in
                  {a for c in sp["distinguishing"] for a in c["articles"]}]

    def run(visited, views=(), searches=(), shown=()):
        return check_geolocation(GOAL, ANSWER, _world(sp, visited), {"wiki": {"views": list(views),
                                                                              "searches": list(searches),
                                                                              "shown": list(shown)}},
                                 countries(), standpoint=sp)

    m = run(plain, country_level + other_cues, ["berlin", "germany capital"])
    assert m["city"] and not m["web"] and not m["embodied"] and not m["overall"]
    m = run([*plain, cue["node"]], country_level)
    assert m["embodied"] and not m["web"] and not m["overall"]
    m = run(plain, [cue["articles"][0]])
    assert m["web"] and not m["embodied"] and not m["overall"]
    m = run([sp["start"], cue["node"]], [cue["articles"][0]])
    assert m["web"] and m["embodied"] and m["overall"] and m["cue_articles_read"] == [cue["articles"][0]]
    wrong = check_geolocation(GOAL, "; Europe; Germany; Hamburg; ", _world(sp, [cue["node"]]),
                              {"wiki": {"views": [cue["articles"][0]]}}, countries(), standpoint=sp)
    assert wrong["web"] and wrong["embodied"] and not wrong["overall"]
    named = next((c for c in sp["distinguishing"] if c["lookup"]), None)
    if named is not None:  # searching the wiki for the cue by its name is research when a snippet tells the city
        m = run([named["node"]], [], [f"what is {named['lookup'][0].lower()}"])  # (checker 11: not alone)
        assert m["web"] and not m["overall"] and m["cue_searches"] == 1
        snippet = {"slug": named["articles"][0], "snippet": f"{named['lookup'][0]} is a chain based in {sp['city']}"}
        m = run([named["node"]], [], [f"what is {named['lookup'][0].lower()}"], [snippet])
        assert m["web"] and m["overall"] and m["cue_searches"] == 1
        m = run([named["node"]], [], [named["lookup"][0][:-1]])
        assert not m["web"]


def test_oracle_solves_every_task(env):
    base = env.unwrapped
    for t in base.tasks:
        m = run_episode(env, base.domain.oracle(t), t.task_id, seed=1)["metrics"]
        assert m["overall"] and m["city"] and m["country"] and m["continent"], (t.task_id, m)
        assert m["street"] is (True if t.goal["street_signed"] else None) and m["completion"] == 1.0, m
        assert m["distance_km"] < 0.2 and m["web"] and m["embodied"], (t.task_id, m)


def test_perturbed_oracle_names_a_wrong_place(env):
    base = env.unwrapped
    fails = 0
    for t in base.tasks:
        m = run_episode(env, base.domain.oracle(t, perturb=random.Random(t.task_id)), t.task_id, seed=1)["metrics"]
        fails += not m["overall"]
    assert fails == len(base.tasks)


def test_random_agent_at_most_2_percent(env):
    base = env.unwrapped
    tasks = [t for t in base.tasks if t.split == "test"]
    ms = [run_episode(env, RandomAgent(seed=0), t.task_id, seed=0)["metrics"] for t in tasks]
    assert sum(m["overall"] for m in ms) / len(ms) <= 0.02
    assert sum(m["web"] for m in ms) / len(ms) <= 0.10  # the web flag is no longer nearly free


def _heuristic_rates(e):
    from baselines.geo_heuristic import GeoHeuristic

    base = e.unwrapped
    tasks = [t for t in base.tasks if t.split == "test"]
    ms = [run_episode(e, GeoHeuristic(), t.task_id, seed=0)["metrics"] for t in tasks]
    return {k: sum(bool(m[k]) for m in ms) / len(ms) for k in ("country", "city", "overall")}


def test_heuristic_beats_passive(env):
    full = _heuristic_rates(env)
    passive_env = gym.make("EWA-Geolocation-v0", passive=True)
    static_env = gym.make("EWA-Geolocation-v0", static=True)
    try:
        passive = _heuristic_rates(passive_env)
        static = _heuristic_rates(static_env)
    finally:
        passive_env.close()
        static_env.close()
    print(f"heuristic (test split): full {full}, static {static}, passive {passive}")
    assert full["country"] >= 0.80 and full["overall"] >= 0.80
    assert full["country"] - passive["country"] >= 0.3 and full["country"] >= static["country"]
    assert static["overall"] == 0 and passive["overall"] == 0  # no distinguishing cue is seen without walking
    assert static["city"] <= 0.25  # from the start, the city is a guess (the capital)


def test_passive_setting_refuses_web_and_moves():
    e = gym.make("EWA-Geolocation-v0", passive=True)
    try:
        t = next(t for t in e.unwrapped.tasks if t.goal["city"] == "Berlin")
        obs, info = e.reset(options={"task_id": t.task_id})
        assert obs["active"] == "embodied" and obs["embodied_text"].count("Looking ") == 1
        assert info["admissible_actions"] == ["stop"]
        obs, *_ = e.step("switch_environment")
        assert "not available" in obs["last_action_error"]
        obs, *_ = e.step("forward")
        assert "cannot move" in obs["last_action_error"]
        obs, r, term, trunc, info = e.step(f"stop [{ANSWER}]")
        m = info["metrics"]
        # the answer is scored, but nothing was seen or researched: overall is false by design
        assert term and m["city"] and m["country"] and not m["web"] and not m["embodied"] and not m["overall"]
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
    assert len(slugs) == len(arts)
    for a in arts:
        assert set(a) == {"slug", "title", "summary", "sections", "infobox", "links", "categories"}
        assert all(set(s) == {"heading", "paragraphs"} for s in a["sections"])
        assert all(len(kv) == 2 for kv in a["infobox"])
        assert set(a["links"]) <= slugs | {"list-of-countries-by-continent"}, a["slug"]
    for c in GeolocationDomain.countries():
        from embodiedweb.data_gen.geo import slugify

        assert slugify(c) in slugs
    assert {"driving-side-by-country", "writing-systems", "vehicle-registration-plates-by-country",
            "road-markings-by-country", "roadside-bollards"} <= slugs
    from web_sites.wiki import catalog

    # every article of cues.json is served as written (no slug clash with the Manhattan articles)
    for a in arts:
        served = catalog.get(a["slug"])
        assert served is not None and served["title"] == a["title"], a["slug"]
    standard = load_standpoints(str(data_dir() / "geo" / "standpoints.json"))
    needed = {s for sp in standard.values() for c in sp["distinguishing"] for s in c["articles"]}
    assert needed <= slugs
    # the hard tier's chains are on the wiki's hard shelf, not in cues.json
    hard = {s for sp in load_standpoints().values() if sp.get("tier") == "hard"
            for c in sp["distinguishing"] for s in c["articles"]}
    assert hard and not hard & slugs and all(catalog.get(s, "hard") and not catalog.get(s) for s in hard)


def test_check_env():
    from gymnasium.utils.env_checker import check_env

    e = gym.make("EWA-Geolocation-v0")
    try:
        check_env(e.unwrapped, skip_render_check=True)
    finally:
        e.close()


def test_country_articles_state_true_hemispheres():
    """A country on both sides of the Equator is never said to lie in one hemisphere; others match every city."""
    from embodiedweb.data_gen.geo import CITIES, COUNTRIES, HEMISPHERE
    from web_sites.wiki import catalog

    checked = 0
    for c in COUNTRIES:
        article = catalog.get(c["name"].lower().replace(" ", "-"))
        if article is None:
            continue
        text = " ".join(" ".join(s["paragraphs"]) for s in article["sections"])
        checked += 1
        lats = [lat for _city, lat, *_ in CITIES[c["code"]]]
        if c["code"] in HEMISPHERE:
            assert "on both sides of the Equator" in text
        elif all(lat > 0 for lat in lats):
            assert "Northern Hemisphere" in text and "lies in" in text
        elif all(lat < 0 for lat in lats):
            assert "Southern Hemisphere" in text
        else:
            raise AssertionError(f"{c['name']}: cities on both sides of the Equator, not in HEMISPHERE")
    assert checked >= 40


@pytest.mark.parametrize(("text", "want"), [
    ("41.88 N, 87.63 W", (41.88, -87.63)),            # Chicago
    ("41.88N 87.63W", (41.88, -87.63)),
    ("87.63 W, 41.88 N", (41.88, -87.63)),            # longitude first, hemispheres say so
    ("33.87 S, 151.21 E", (-33.87, 151.21)),          # Sydney
    ("34°36'S 58°22'W", (-34.6, -58.3667)),           # Buenos Aires, degrees and minutes
    ("-22.91, -43.17", (-22.91, -43.17)),             # signed decimals
    ("48,86 2,34", (48.86, 2.34)),                    # decimal commas
])
def test_coordinates_parse_with_both_hemisphere_letters(text, want):
    """Mutation guard: every hemisphere letter sets its sign, on both numbers (W and S make them negative)."""
    from embodiedweb.domains.geolocation.checker import parse_coord

    got = parse_coord(text)
    assert got is not None and got == pytest.approx(want, abs=1e-3), (text, got)


def test_the_street_counts_only_where_a_view_shows_its_name():
    """No score is lost to what cannot be observed: without a street-name sign the street level is not
    scored (None) and completion is over the other three levels; ``street_signed`` matches the views."""
    from embodiedweb.data_gen.geo import street_signed
    from embodiedweb.worlds.geo import load_standpoints

    unsigned = {**PARIS, "street_signed": False}
    m = check_answer(unsigned, "48.8606, 2.3376; Europe; France; Paris")
    assert m["street"] is None and m["completion"] == 1.0 and m["overall"]
    m = check_answer(unsigned, "48.8606, 2.3376; Europe; France; Lyon")
    assert m["street"] is None and m["completion"] == 2 / 3
    m = check_answer(PARIS, "48.8606, 2.3376; Europe; France; Paris")
    assert m["street"] is False and m["completion"] == 0.75
    sps = load_standpoints()
    import json

    from embodiedweb.paths import data_dir
    tasks = [json.loads(line) for line in (data_dir() / "geo" / "tasks.jsonl").read_text().splitlines()]
    flags = [t["goal"]["street_signed"] for t in tasks]
    assert flags == [street_signed(sps[t["embodied"]["standpoint"]]) for t in tasks]
    assert 0 < flags.count(False) < len(flags)


# ------------------------------------------------------------------- a city's own region is no second city
#: how an address writes a first-level region (its name bare or with a region word before or after it)
REGION_FORMS = ("{}", "{} Province", "the State of {}", "{} Prefecture", "{} Region")


def _goal_of(city: dict) -> dict:
    """A goal for a city of the gazetteer (only what the city and country levels read)."""
    return {"lat": city["lat"], "lng": city["lng"], "continent": "", "continent_alt": [], "country": city["country"],
            "city": city["name"], "city_aliases": city["names"][1:], "street": "", "street_signed": False}


def test_a_city_with_its_true_region_and_country_passes_on_every_task():
    """Every task of both levels answered "City, Region, Country" with the city's true first-level region (every
    name of it in the project's table, bare and with a region word) passes the city and country levels, also
    where the region is named like another city or holds another city's name ("Seattle, Washington", "Zurich,
    Canton of Zurich", "Porto Alegre, Rio Grande do Sul", "Makati, Metro Manila", "Montreal, Quebec")."""
    from embodiedweb.domains.geolocation.checker import load_gazetteer
    from embodiedweb.tables import geo_regions

    gz, regions, cs = load_gazetteer(), geo_regions(), countries()
    code = {c["name"]: c["country_code"] for c in gz.cities}
    tasks = []
    for level in ("standard", "hard"):
        e = gym.make("EWA-Geolocation-v0", **({"level": level} if level != "standard" else {}))
        tasks += e.unwrapped.tasks.tasks
        e.close()
    assert len(tasks) == len({t.task_id for t in tasks}) >= 360
    clashing, bad = set(), []
    for t in tasks:
        g = t.goal
        held = [r for r in regions[code[g["city"]]] if g["city"] in r[2]]
        assert held, f"{g['city']}: no region in the table"
        for name in {n for r in held for n in [r[0], *r[1]]}:
            for form in REGION_FORMS + (("Canton of {}", "{} Canton") if g["country"] == "Switzerland" else ()):
                ans = f"{g['city']}, {form.format(name)}, {g['country']}"
                m = check_answer(g, ans, cs)
                if not (m["city"] and m["country"]):
                    bad.append((t.task_id, ans, m.get("answer_notes")))
                if len(gz.find_cities(f"{g['city']}, {form.format(name)}")) > 1:
                    clashing.add(t.task_id)
    assert not bad, bad[:10]
    # the answers the old rule refused as naming two cities are among them
    assert {"geo-259", "geo-088", "geo-245", "geo-215", "geo-056", "geo-031", "geo-075"} <= clashing
    assert len(clashing) >= 15 and any(c.startswith("geo-hard-") for c in clashing)
    # and through the episode: the oracle's research with this answer form passes overall
    e = gym.make("EWA-Geolocation-v0", level="hard")
    try:
        from baselines.oracle import OracleAgent

        seattle = next(t.task_id for t in e.unwrapped.tasks.tasks if t.goal["city"] == "Seattle")
        obs, info = e.reset(seed=0, options={"task_id": seattle})
        agent = OracleAgent()
        agent.reset(e, obs, info)
        for _ in range(200):
            a = agent.act(obs, info)
            if a.lower().startswith("stop"):
                a = "stop [Seattle, Washington, USA]"
            obs, _r, term, trunc, info = e.step(a)
            if term or trunc:
                break
        assert info["metrics"]["city"] and info["metrics"]["overall"], info["metrics"]
    finally:
        e.close()


def test_a_region_never_lets_one_answer_count_for_two_cities():
    """For every two cities of a country, "A, B, Country" and "A or B, Country" count for at most one of them, and
    for A only where B's name is a name of a region holding A ("Montreal, Quebec" is Montreal; "Zurich, Geneva"
    and "Boston, Washington", a region that does not hold the city, still name two cities)."""
    from embodiedweb.domains.geolocation.checker import load_gazetteer, place_norm

    gz = load_gazetteer()
    by_country: dict[str, list[dict]] = {}
    for c in gz.cities:
        by_country.setdefault(c["country"], []).append(c)
    regions_of = {c["name"]: {" ".join(k) for k in r} for c, r in zip(gz.cities, gz.regions, strict=True)}
    passes = 0
    for country, cities in by_country.items():
        for a in cities:
            for b in cities:
                if a is b:
                    continue
                for ans in (f"{a['name']}, {b['name']}, {country}", f"{a['name']} or {b['name']}, {country}"):
                    ok_a = check_answer(_goal_of(a), ans)["city"]
                    ok_b = check_answer(_goal_of(b), ans)["city"]
                    assert not (ok_a and ok_b), ans
                    if ok_a:
                        assert place_norm(b["name"]) in regions_of[a["name"]], ans
                        passes += 1
    assert passes  # e.g. "Buenos Aires" is also the province of La Plata and Mar del Plata
    goal = {c["name"]: _goal_of(c) for c in gz.cities}

    def ok(city: str, ans: str) -> bool:
        return check_answer(goal[city], ans)["city"]

    # hedges still fail; the city whose name the region borrows is never the one credited
    for ans in ("Zurich or Geneva", "Zurich, Geneva, Switzerland", "Zurich, Canton of Geneva, Switzerland",
                "Rosario, Buenos Aires, Argentina", "Boston, Washington, USA", "Makati, Manila, Philippines",
                "Rio de Janeiro, São Paulo, Brazil", "Fez, Meknes, Morocco"):
        named = [c for c in goal if ok(c, ans)]
        assert not named, (ans, named)
    for ans, city, other in (("Montreal, Quebec, Canada", "Montreal", "Quebec City"),
                             ("Seattle, Washington, USA", "Seattle", "Washington, D.C."),
                             ("Porto Alegre, Rio Grande do Sul, Brazil", "Porto Alegre", "Rio de Janeiro"),
                             ("Zurich, Canton of Zurich, Switzerland", "Zurich", "Guangzhou"),
                             ("La Plata, Buenos Aires, Argentina", "La Plata", "Buenos Aires"),
                             ("Makati, Metro Manila, Philippines", "Makati", "Manila"),
                             ("Fez, Fès-Meknès, Morocco", "Fez", "Meknes")):
        assert ok(city, ans) and not ok(other, ans), ans
    # alone, the name is still the city's; a region of another country reads as before
    assert ok("Washington, D.C.", "Washington") and not ok("Seattle", "Washington")
    assert ok("Quebec City", "Quebec, Canada") and not ok("Montreal", "Quebec, Canada")
    assert ok("Quebec City", "Quebec City, Quebec, Canada") and not ok("Montreal", "Quebec City, Quebec, Canada")
    assert not ok("Lausanne", "Lausanne, Canton of Zurich") and not ok("Zurich", "Lausanne, Canton of Zurich")


def test_a_chain_in_two_cities_leaves_the_choice_to_a_second_cue():
    """A chain with shops in two cities lists them in alphabetical order and is based in either: its article
    does not single out the standpoint's city (it was always the headquarters, so answering the headquarters
    passed 87 of 87 such standpoints and the second cue was never needed); every such standpoint has a second
    cue whose article names its city alone."""
    from web_sites.wiki import catalog

    two_city, hq_here = 0, 0
    for sp in load_standpoints().values():
        arts = {c["cue"]: catalog.get(c["articles"][0]) for c in sp["distinguishing"]}
        chain = arts.get("chain")
        if chain is None or not chain["sections"][0]["paragraphs"][0].startswith("Its "):
            continue
        two_city += 1
        names = chain["sections"][0]["paragraphs"][0].split(" shops are in ")[1].rstrip(".").split(" and ")
        assert sp["city"] in names and names == sorted(names), (sp["id"], names)
        hq_here += dict(chain["infobox"])["Headquarters"] == sp["city"]
        others = [a for k, a in arts.items() if k != "chain"]
        assert any(f"of {sp['city']}" in a["lead"] or f"speciality of {sp['city']}" in a["lead"] for a in others), sp["id"]
    assert two_city >= 60
    assert 0.3 * two_city <= hq_here <= 0.7 * two_city, (hq_here, two_city)


def test_no_chain_is_pinned_to_its_city_by_counting_the_countrys_chains():
    """Each city has one local chain, so were a two-city chain's second city to have a chain of its own alone,
    an agent could work out whose chain it is by elimination over the country's chain articles (a red-team
    agent pinned 79 of 87 two-city standpoints so). Two-city chains come in reciprocal pairs: the same two
    cities named by exactly two chains; elimination then settles only the one-city chains."""
    from web_sites.wiki import catalog

    by_country: dict[str, dict[str, frozenset[str]]] = {}
    for a in catalog.articles():
        if dict(a["infobox"]).get("Type") != "local chain":
            continue
        country = next(c for c in a["categories"] if c.startswith("Companies of "))
        shops = a["sections"][0]["paragraphs"][0]
        cities = shops.split(" shops are in ")[1].rstrip(".").split(" and ")
        by_country.setdefault(country, {})[a["title"]] = frozenset(cities)
    pairs = 0
    for chains in by_country.values():
        owner: dict[str, str] = {}
        changed = True
        while changed:
            changed = False
            for name, cities in chains.items():
                left = cities - set(owner.values())
                if name not in owner and len(left) == 1:
                    owner[name], changed = next(iter(left)), True
            for city in {c for cs in chains.values() for c in cs} - set(owner.values()):
                holders = [n for n, cs in chains.items() if n not in owner and city in cs]
                if len(holders) == 1:
                    owner[holders[0]], changed = city, True
        for name, cities in chains.items():
            if len(cities) == 2:
                pairs += 1
                assert name not in owner, (name, cities)
                assert sum(cs == cities for cs in chains.values()) == 2, (name, cities)
    assert pairs >= 100


def test_a_countrys_cities_are_listed_alphabetically():
    """The country articles and "Major cities by country" list the cities alphabetically after the capital
    (they listed the standpoints' cities first: a guess among the first three named the city 20 % of the
    time, against 14.5 % for a uniform guess)."""
    from web_sites.wiki import catalog

    for a in catalog.articles():
        if "Countries" not in a["categories"]:
            continue
        lines = next(s["paragraphs"] for s in a["sections"] if s["heading"] == "Cities")[1:]
        names = [line.split(" (")[0] for line in lines]
        assert names == sorted(names), a["title"]
        major = dict(a["infobox"])["Major cities"].split("; ")
        assert major == sorted(major), a["title"]
        # all of them, the capital too (it listed the first four until stop 29)
        assert set(names) <= set(major) and len(major) == len(names) + 1, a["title"]


def test_the_two_cities_of_a_chain_are_of_one_split():
    """A two-city chain's article names both cities; with one a train answer and the other a test one, ruling the
    train answer out left the goal (an agent that read that article alone passed 16 of 18 such test tasks). Both
    are of one split, and the test split keeps its share of capitals (the likeliest guess)."""
    from embodiedweb.data_gen.geo import cues_of

    tasks = [json.loads(line) for line in (data_dir() / "geo" / "tasks.jsonl").read_text(encoding="utf-8").splitlines()]
    split = {(t["meta"]["country_code"], t["goal"]["city"]): t["split"] for t in tasks}
    pairs = [(key, (key[0], cues_of(*key)["chain"]["also"])) for key in split]
    pairs = [(a, b) for a, b in pairs if b in split]
    assert len(pairs) >= 40 and all(split[a] == split[b] for a, b in pairs), [p for p in pairs if split[p[0]] != split[p[1]]]
    test = [t for t in tasks if t["split"] == "test"]
    assert len(test) == 78 and sum(t["meta"]["capital"] for t in test) == 15


def test_genuine_forms_a_review_found_failing():
    """Answers a red-team review found failing every task of their form (stop 30): a Chinese, Japanese or Korean
    city's official name with its suffix (臺南市, 부산광역시: 0 of 15), coordinates with a word beside them
    ("approximately 50.450, 30.524", "50.450, 30.524 (city centre)": 0 of 78 each), and a true district or region
    whose English name another country's region shares ("Busan, Central District, South Korea": 0 of 10)."""
    import re

    tasks = [json.loads(line) for f in ("tasks.jsonl", "hard.jsonl")
             for line in (data_dir() / "geo" / f).read_text(encoding="utf-8").splitlines()]
    hanzi, hangul = re.compile(r"[\u4e00-\u9fff]"), re.compile(r"[\uac00-\ud7af]")
    local = 0
    for t in tasks:
        g = t["goal"]
        alias = next((a for a in g["city_aliases"] if hanzi.search(a) or hangul.search(a)), None)
        if alias:
            official = alias + ("광역시" if hangul.search(alias) else "市")
            assert check_answer(g, f"; {g['continent']}; {g['country']}; {official}; ")["city"], official
            local += 1
    assert local >= 30
    for t in tasks[:80]:
        g = t["goal"]
        for form in ("approximately {}, {}", "{}, {} (city centre)", "around {}, {}"):
            assert check_answer(g, form.format(g["lat"], g["lng"]))["city"], form
    busan = next(t["goal"] for t in tasks if t["goal"]["city"] == "Busan")
    assert check_answer(busan, "Busan, Central District, South Korea")["city"]
    paris = next(t["goal"] for t in tasks if t["goal"]["city"] == "Paris")
    assert not check_answer(paris, "Paris, Texas")["city"]  # a region beside the city, no country: another Paris
    lausanne = next(t["goal"] for t in tasks if t["goal"]["city"] == "Lausanne")  # a lake is no second city
    assert check_answer(lausanne, "Lausanne (on Lake Geneva), Switzerland")["city"]
    assert not check_answer(lausanne, "Lausanne or Geneva, Switzerland")["city"]
