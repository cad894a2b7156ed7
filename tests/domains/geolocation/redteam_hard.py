"""Red-team agents for the geolocation hard tier (``gym.make("EWA-Geolocation-v0", level="hard")``).

The standard tier's agents (:mod:`tests.domains.geolocation.redteam`) play the hard tasks too; these add
what the hard tier's own idea invites: a regional chain's article lists three to five cities, and only the
street's country cues tell which one the agent stands in.

* shortcuts (at most 2 %): remembering the place from the standard tier (its city's own chain, emblem and
  dish, which no hard street shows), naming every city of the chain's list, one search listing every
  regional chain;
* guess (held to chance): a city of the chain's list picked without looking at the country cues (the
  first one listed);
* genuine (at least 98 %): reading the chain's article and then each listed country's article before
  answering; going to the article by its address instead of the search box.
"""

from __future__ import annotations

from typing import Any

from baselines.script import Plan
from embodiedweb.tasks import Task
from tests.domains.geolocation import redteam as rt


def chain_of(task: Task) -> dict[str, Any]:
    return rt.standpoint_of(task)["chain"]


def listed(task: Task) -> list[tuple[str, str, float, float]]:
    """(city, country, lat, lng) of every city the task's regional chain lists, in the article's order."""
    from embodiedweb.data_gen.geo import CITIES, COUNTRIES
    from embodiedweb.worlds.geo.world import load_standpoints

    chain = chain_of(task)
    out = []
    for sp in load_standpoints().values():
        if sp.get("chain", {}).get("slug") == chain["slug"]:
            out.append((sp["city"], sp["country"], *sp["city_centre"]))
    order = {c: k for k, c in enumerate(chain["cities"])}
    assert CITIES and COUNTRIES
    return sorted(set(out), key=lambda r: (order[r[0]], r[1]))


class StandardTierMemory(rt.RedTeamAgent):
    """Has played the standard tier: walks to the regional chain (it sees it), then searches the wiki for
    its city's own chain, emblem and dish (the names that gave the city away there) and answers the true
    place, never looking the regional chain up."""

    kind = "shortcut"

    def plan(self) -> Plan:
        from embodiedweb.data_gen.geo import cues_of

        yield from self.walk_to(self.nearest_cue()["node"])
        cc = cues_of(self.sp["country_code"], self.sp["city"])
        yield from self.to_web()
        for term in (cc["chain"]["name"], cc["transit"]["name"], cc["speciality"]["word"]):
            yield f"goto [/wiki/search?q={term}]"
        yield f"stop [{self.answer()}]"


class EveryListedCity(rt.RedTeamAgent):
    """Researches honestly, then names every city of the chain's list in the city part."""

    kind = "shortcut"

    def answer(self) -> str:
        g = self.goal()
        return f"; {g['continent']}; {g['country']}; {' / '.join(c for c, *_ in listed(self.task))}; "


class SprayChains(rt.RedTeamAgent):
    """Walks to its chain, then makes one search listing every regional chain's name (its own first) and
    answers the true place without opening an article."""

    kind = "shortcut"

    def plan(self) -> Plan:
        from embodiedweb.domains.geolocation.checker import _chain_names

        yield from self.walk_to(self.nearest_cue()["node"])
        mine = chain_of(self.task)["name"]
        query = mine
        for n in sorted(_chain_names() - {mine}):
            if len(query) + len(n) + 1 > 200:
                break
            query = f"{query} {n}"
        self.idea = len(query.split()) > 3
        yield from self.to_web()
        yield f"goto [/wiki/search?q={query}]"
        yield f"stop [{self.answer()}]"


class FirstListedCity(rt.RedTeamAgent):
    """Walks to the chain, reads its article, and answers the first city it lists (with that city's centre
    and country), without looking at a single country cue: right only when the list happens to start with
    the true city."""

    kind = "guess"

    def answer(self) -> str:
        city, country, lat, lng = listed(self.task)[0]
        return f"{lat:.4f}, {lng:.4f}; {self.goal()['continent']}; {country}; {city}; "


class ReadCountryArticles(rt.RedTeamAgent):
    """Reads the chain's article, then the article of every country it lists (to match the plates, the
    driving side, the script), then answers."""

    def plan(self) -> Plan:
        from embodiedweb.data_gen.geo import slugify

        yield from self.research()
        for country in sorted({c for _city, c, *_ in listed(self.task)}):
            yield from self.read(slugify(country))
        yield f"stop [{self.answer()}]"


class CountryOnly(rt.RedTeamAgent):
    """Researches honestly and names the continent and the country, leaving the city blank."""

    kind = "shortcut"

    def answer(self) -> str:
        g = self.goal()
        return f"; {g['continent']}; {g['country']}; ; "


class CityCentreOnly(rt.RedTeamAgent):
    """Reads the chain's article, the country's and the city's, then answers the city centre's coordinates
    alone (names left blank)."""

    def plan(self) -> Plan:
        from embodiedweb.data_gen.geo import city_slug, slugify

        yield from self.research()
        yield from self.read(slugify(self.sp["country"]))
        yield from self.read(city_slug(self.sp["country_code"], self.sp["city"]))
        lat, lng = self.sp["city_centre"]
        yield f"stop [{lat:.3f}, {lng:.3f}; ; ; ; ]"


SHORTCUTS = (StandardTierMemory, CountryOnly, EveryListedCity, SprayChains, rt.KnowsAnswerNoWalk, rt.WalkWithoutCueResearch,
             rt.SprayCityField, rt.SprayFreeText, rt.SprayCoordinates, rt.LabelledAlternative, rt.CityNearInStreetPart,
             rt.CountryNameAsCity)
GENUINE = (rt.RedTeamAgent, ReadCountryArticles, CityCentreOnly, rt.SearchBoxResearch, rt.ReadThenLook, rt.Detour, rt.FreeTextAnswer,
           rt.OtherCityName, rt.NativeScriptName, rt.CityRegionCountry)


def hard_tasks() -> list[Task]:
    """The geolocation hard tier (every split)."""
    from embodiedweb.domains.geolocation import GeolocationDomain
    from embodiedweb.paths import data_dir
    from embodiedweb.tasks import load_tasks

    return list(load_tasks(data_dir() / "geo" / "hard.jsonl", GeolocationDomain().validate_task))


class SearchSnippetOnly(rt.RedTeamAgent):
    """Walks to the regional chain, searches its name and answers the true place from the results page alone,
    never opening an article: the snippet of the chain's article stops before the cities it lists, so the
    agent was shown nothing that leads to the city (stop 39's cheater guessed the country's best-known city)."""

    kind = "shortcut"

    def plan(self) -> Plan:
        cue = self.nearest_cue()
        yield from self.walk_to(cue["node"])
        yield from self.to_web()
        yield f"goto [/wiki/search?q={cue['lookup'][0]}]"
        self.idea = self.goal()["city"] not in self.obs["web_text"]  # the page shows no city
        yield f"stop [{self.answer()}]"


SHORTCUTS = (*SHORTCUTS, SearchSnippetOnly, rt.HedgeCityOrCountry, rt.HedgeTwoCountries, rt.HedgeTwoContinents,
             rt.HedgeUnreadTown)
GENUINE = (*GENUINE, rt.MaybeCityCountry)


def best_known_city(task: Task) -> tuple[str, float, float]:
    """The country's best-known city but its capital (no hard task is in a capital): the first other city of
    the generator's list, written best-known first (Casablanca for Morocco)."""
    cap = rt.capital_of(task)[0]
    return next(c for c in rt.country_cities(task) if c[0] != cap)


class BestKnownCityAfterSearch(SearchSnippetOnly):
    """Stop 39's cheater: walks to the regional chain, searches its name (a token search; the snippet names no
    city) and answers the country's best-known city but the capital, rule-blind. The true city is that one on
    a third of the hard test split (10 of 30; chance 15 %), and each such guess passed while a search counted
    as research."""

    kind = "guess"

    def answer(self) -> str:
        city, lat, lng = best_known_city(self.task)
        return f"{lat:.4f}, {lng:.4f}; {self.goal()['continent']}; {self.goal()['country']}; {city}; "
