"""Red-team agents for EWA-Geolocation-v0: shortcuts that must fail, guesses held to their bound, and
genuine alternatives that must pass.

Each agent acts only through action strings. Where its idea needs it, it knows the answer (the
strongest cheater knows it: the true country, the true city, the street, which viewpoints hold the
distinguishing cues), the way a model may remember a famous street or recognise a country at a glance.
``applies`` says on which tasks the idea can be carried out at all (a street sign to remember, a cue
with a name to search for, a city with another name); ``carried_out`` says whether the episode really
did what the agent stands for (no action was refused, and the agent's own record of its idea holds:
it walked everywhere, it never opened the web, ...), so a pass cannot come from a plan that quietly
fell back to the honest solution.

Kinds and the bound each is held to (overall, over its episodes):

* ``shortcut`` - at most 2 % (answer spraying, knowing the answer without walking or without
  research, reading only country-level articles);
* ``guess`` - the issue's bounds for what guessing can reach: the capital of the true country at most
  20 %, signs read without the web at most 10 % (and its city taken from sign texts at most 2 %), a
  city of the country picked at random no better than chance among the wiki's list of its cities;
* ``genuine`` - at least 98 % (other answer forms and spellings, detours, research by search, other
  cues).

``python -m tests.domains.geolocation.redteam`` prints the red-team table of the README's Geolocation section.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any, ClassVar

from baselines.script import Plan, ScriptAgent, find_bid
from embodiedweb.domains.geolocation.checker import load_gazetteer
from embodiedweb.tasks import Task
from tests.redteam import RedTeam
from tests.redteam import run as run_episodes


def standpoint_of(task: Task) -> dict[str, Any]:
    from embodiedweb.worlds.geo.world import load_standpoints

    return load_standpoints()[task.embodied["standpoint"]]


def country_cities(task: Task) -> list[tuple[str, float, float]]:
    """(name, lat, lng) of the cities the wiki lists for the task's country (capital included)."""
    from embodiedweb.data_gen.geo import CITIES

    return [(r[0], r[1], r[2]) for r in CITIES[standpoint_of(task)["country_code"]]]


def capital_of(task: Task) -> tuple[str, float, float]:
    from embodiedweb.data_gen.geo import BY_CODE

    c = BY_CODE[standpoint_of(task)["country_code"]]
    return c["capital"], c["capital_ll"][0], c["capital_ll"][1]


class RedTeamAgent(RedTeam, ScriptAgent):
    """The honest solution in steps that subclasses change: walk to a distinguishing cue, research it on the
    wiki, answer. It also keeps a record of what it did (``walked``, ``used_web``)."""

    kind: ClassVar[str] = "genuine"
    #: prefixes of action errors this agent expects
    tolerated: ClassVar[tuple[str, ...]] = ()

    def __init__(self, task: Task) -> None:
        super().__init__()
        self.task = task
        self.sp = standpoint_of(task)
        self.here = self.sp["start"]
        self.visited = {self.here}
        self.used_web = False
        self.idea = True  # subclasses set False when the episode could not carry their idea out

    def carried_out(self) -> bool:
        return self.idea and not [e for e in self.errors if not e.startswith(self.tolerated)]

    # ------------------------------------------------------------------ embodied
    def path(self, target: str) -> list[str]:
        prev: dict[str, str | None] = {self.here: None}
        q = deque([self.here])
        while q:
            n = q.popleft()
            if n == target:
                out = []
                while n != self.here:
                    out.append(n)
                    n = prev[n]  # type: ignore[assignment]
                return out[::-1]
            for _h, nb in sorted(self.sp["nodes"][n]["neighbors"].items()):
                if nb not in prev:
                    prev[nb] = n
                    q.append(nb)
        return []

    def walk_to(self, target: str) -> Plan:
        if self.obs.get("active") != "embodied":
            yield "switch_environment [look around]"
        for n in self.path(target):
            yield f"move [{n}]"
            self.here = n
            self.visited.add(n)

    def walk_all(self) -> Plan:
        """To one end of the street and then to the other, standing at every viewpoint."""
        ends = [n for n, node in self.sp["nodes"].items() if len(node["neighbors"]) == 1]
        for end in sorted(ends):
            yield from self.walk_to(end)

    def nearest_cue(self) -> dict[str, Any]:
        return min(self.sp["distinguishing"], key=lambda c: (len(self.path(c["node"])), c["node"], c["cue"]))

    # ------------------------------------------------------------------ web
    def to_web(self) -> Plan:
        if self.obs.get("active") != "web":
            yield "switch_environment [research the cue]"
        self.used_web = True

    def read(self, slug: str) -> Plan:
        yield from self.to_web()
        yield f"goto [/wiki/article/{slug}]"

    def research(self) -> Plan:
        """Walk to the nearest distinguishing cue and read its article."""
        cue = self.nearest_cue()
        yield from self.walk_to(cue["node"])
        yield from self.read(cue["articles"][0])

    # ------------------------------------------------------------------ answers
    def goal(self) -> dict[str, Any]:
        return self.task.goal

    def answer(self) -> str:
        g = self.goal()
        return f"{g['lat']:.4f}, {g['lng']:.4f}; {g['continent']}; {g['country']}; {g['city']}; {g['street']}"

    def plan(self) -> Plan:
        yield from self.research()
        yield f"stop [{self.answer()}]"


def _sign_texts(embodied_text: str) -> list[tuple[str, str]]:
    """(sentence, quoted text) of every sign in an embodied observation."""
    import re

    out = []
    for line in embodied_text.splitlines():
        if line.startswith("Looking "):
            for m in re.finditer(r'([^."]*)"([^"]*)"', line):
                out.append((m.group(1), m.group(2)))
    return out


# ---------------------------------------------------------------------------------------- shortcuts
class StreetMemory(RedTeamAgent):
    """Walks every viewpoint, reads the street-name sign and 'remembers' which city the street is in (it
    knows the true city); never opens the web."""

    kind = "shortcut"

    @classmethod
    def applies(cls, task: Task) -> bool:
        return "street" in standpoint_of(task)["hints"]

    def plan(self) -> Plan:
        yield from self.walk_all()
        self.idea = any("street-name sign" in s for s, _t in _sign_texts(self.obs["embodied_text"])) or \
            "street" in self.sp["hints"]
        yield f"stop [{self.answer()}]"

    def carried_out(self) -> bool:
        return super().carried_out() and not self.used_web


class KnowsAnswerNoWalk(RedTeamAgent):
    """Knows the place and which article explains its cue: reads that article and answers, never walking."""

    kind = "shortcut"

    def plan(self) -> Plan:
        for c in self.sp["distinguishing"]:
            yield from self.read(c["articles"][0])
        yield f"stop [{self.answer()}]"

    def carried_out(self) -> bool:
        return super().carried_out() and self.visited == {self.sp["start"]}


class WalkWithoutCueResearch(RedTeamAgent):
    """Walks to every viewpoint, then reads only articles that cannot tell the city (the country, driving
    side, plates, writing, the list of cities, the city's own article) and answers the true place."""

    kind = "shortcut"

    def plan(self) -> Plan:
        from embodiedweb.data_gen.geo import city_slug, slugify

        yield from self.walk_all()
        code = self.sp["country_code"]
        for slug in (slugify(self.sp["country"]), "driving-side-by-country", "vehicle-registration-plates-by-country",
                     "writing-systems", "words-on-signs", "major-cities-by-country", city_slug(code, self.sp["city"])):
            yield from self.read(slug)
        yield f"stop [{self.answer()}]"


class SearchSpray(RedTeamAgent):
    """Walks every viewpoint, then makes one wiki search listing the made-up cue names of every city of
    the true country (as many as the search box takes), and answers the true place."""

    kind = "shortcut"

    def plan(self) -> Plan:
        yield from self.walk_all()
        gz = load_gazetteer()
        mine = [t for c in self.sp["distinguishing"] for t in c["lookup"]]
        names = mine[:1] + [t for t, code, _city in gz.cue_terms if code == self.sp["country_code"] and t not in mine]
        query = ""
        for n in names:
            if len(query) + len(n) + 1 > 200:
                break
            query = f"{query} {n}".strip()
        self.idea = bool(mine) and len(query.split()) > 3
        yield from self.to_web()
        yield f"goto [/wiki/search?q={query}]"
        yield f"stop [{self.answer()}]"


def other_country(task: Task) -> str:
    """A country of the wiki other than the task's, on its continent where one is (the first such in the table)."""
    from embodiedweb.data_gen.geo import COUNTRIES

    g = task.goal
    others = [c["name"] for c in COUNTRIES if c["name"] != g["country"]]
    return next((c["name"] for c in COUNTRIES if c["name"] != g["country"] and c["continent"] == g["continent"]),
                others[0])


class HedgeCityOrCountry(RedTeamAgent):
    """Researches honestly, then offers the right city or somewhere in another country ("Tainan or somewhere in
    Korea"), the stop 39 cheater's hedge."""

    kind = "shortcut"

    def answer(self) -> str:
        g = self.goal()
        return f"; {g['continent']}; {g['country']}; {g['city']} or somewhere in {other_country(self.task)}; "


class HedgeTwoCountries(RedTeamAgent):
    """Researches honestly, then names the right city and two countries ("Taiwan or China")."""

    kind = "shortcut"

    def answer(self) -> str:
        g = self.goal()
        return f"; {g['continent']}; {g['country']} or {other_country(self.task)}; {g['city']}; "


class HedgeTwoContinents(RedTeamAgent):
    """Researches honestly, then names the right city and country and two continents ("Asia or Europe")."""

    kind = "shortcut"

    def answer(self) -> str:
        g = self.goal()
        other = next(c for c in ("Europe", "Africa", "Asia") if c not in (g["continent"], *g.get("continent_alt", [])))
        return f"; {g['continent']} or {other}; {g['country']}; {g['city']}; "


class HedgeUnreadTown(RedTeamAgent):
    """Researches honestly, then answers in free text "<city>-ish, possibly a smaller town nearby": an alternative
    the judge cannot read (stop 39's "Tromsø-ish, possibly Bodø", Bodø having no wiki article)."""

    kind = "shortcut"

    def answer(self) -> str:
        return f"{self.goal()['city']}-ish, possibly a smaller town nearby"


class MaybeCityCountry(RedTeamAgent):
    """Researches honestly and answers "maybe <city>, <country>": a hedge word with one place only."""

    def answer(self) -> str:
        g = self.goal()
        return f"maybe {g['city']}, {g['country']}"


class SprayCityField(RedTeamAgent):
    """Researches honestly, then names every city of the country in the city part."""

    kind = "shortcut"

    def answer(self) -> str:
        g = self.goal()
        names = " / ".join(c for c, _la, _ln in country_cities(self.task))
        return f"; {g['continent']}; {g['country']}; {names}; {g['street']}"


class SprayFreeText(RedTeamAgent):
    """Researches honestly, then answers in free text listing every city of the country."""

    kind = "shortcut"

    def answer(self) -> str:
        return ", ".join([c for c, _la, _ln in country_cities(self.task)] + [self.goal()["country"]])


class SprayCoordinates(RedTeamAgent):
    """Researches honestly, then leaves the city blank and gives the centre of every city of the country,
    one pair a part."""

    kind = "shortcut"

    def answer(self) -> str:
        g = self.goal()
        pts = "; ".join(f"{la:.3f}, {ln:.3f}" for _c, la, ln in country_cities(self.task))
        return f"{pts}; {g['continent']}; {g['country']}; ; "


class SprayExtraParts(RedTeamAgent):
    """Researches honestly, then puts the capital in the city part and every other city in extra parts
    after the street (a hedge hoping any part naming the city counts)."""

    kind = "shortcut"

    @classmethod
    def applies(cls, task: Task) -> bool:
        return task.goal["city"] != capital_of(task)[0]

    def answer(self) -> str:
        g = self.goal()
        cap = capital_of(self.task)[0]
        others = "; ".join(c for c, _la, _ln in country_cities(self.task) if c != cap)
        return f"; {g['continent']}; {g['country']}; {cap}; {g['street']}; {others}"


class ShortNameBeside(RedTeamAgent):
    """Researches honestly, then names the right city and, beside it, another city by a short form: "Kyiv or
    LA", "Kyiv / L.A.", "Kyiv or la" ("S.F." when the city is Los Angeles). Until geolocation checker version 8
    "LA" was read as no city at all, so the hedge passed every task."""

    kind = "shortcut"

    def answer(self) -> str:
        g = self.goal()
        other = ("S.F.", "SF", "S.F.") if g["city"] == "Los Angeles" else ("LA", "L.A.", "la")
        pick = random.Random(f"short:{self.task.task_id}").randrange(3)
        return f"{g['street']}, {g['city']} {('or', '/', 'or')[pick]} {other[pick]}, {g['country']}"


class LabelledAlternative(RedTeamAgent):
    """Researches honestly, then labels another city of the country as the city and hides the true one in a
    field of another label: "City: Lviv, Alternative: Kyiv, Country: Ukraine" (stop 37: a hedge hoping an
    unknown label's city counts too)."""

    kind = "shortcut"

    def answer(self) -> str:
        g = self.goal()
        return f"City: {other_city(self.task)}, Alternative: {g['city']}, Country: {g['country']}"


class CityNearInStreetPart(RedTeamAgent):
    """Researches honestly, then names another city of the country in the city part and the true one in the
    street part, as "near Kyiv" (stop 37: a hedge hoping a city in the street part counts)."""

    kind = "shortcut"

    def answer(self) -> str:
        g = self.goal()
        return f"; {g['continent']}; {g['country']}; {other_city(self.task)}; near {g['city']}"


class CountryNameAsCity(RedTeamAgent):
    """Researches honestly, then writes the country's name in the city part too ("Mexico" for Mexico City,
    "Singapore"): a name that is a country's and maybe a city's (stop 37; where the city's own names hold the
    country's name, the idea does not apply)."""

    kind = "shortcut"

    @classmethod
    def applies(cls, task: Task) -> bool:
        from embodiedweb.domains.geolocation.checker import norm

        names = {norm(n) for n in [task.goal["city"], *task.goal.get("city_aliases", [])]}
        return not any(norm(task.goal["country"]) in n for n in names)

    def answer(self) -> str:
        g = self.goal()
        return f"; {g['continent']}; {g['country']}; {g['country']}; "


def far_city(task: Task) -> tuple[str, float, float] | None:
    """The first city on the wiki's list of the task's country whose centre lies farther than the checker's slack
    (:data:`~embodiedweb.domains.geolocation.checker.NAMED_SLACK_KM`) from the task's city centre, or ``None``."""
    from embodiedweb.domains.geolocation.checker import NAMED_SLACK_KM
    from embodiedweb.worlds.street.geo import haversine_km

    lat, lng = standpoint_of(task)["city_centre"]
    return next((c for c in country_cities(task) if haversine_km(lat, lng, c[1], c[2]) > NAMED_SLACK_KM), None)


class NameOneCoordsAnother(RedTeamAgent):
    """Researches honestly, then names the right city and gives another city's coordinates (a city of the
    country farther than the checker's slack): an agent torn between two cities answering both at once, the name
    for the city level and the coordinates for the distance (stop 38: "Graz" with Vienna's coordinates passed)."""

    kind = "shortcut"

    @classmethod
    def applies(cls, task: Task) -> bool:
        return far_city(task) is not None

    def answer(self) -> str:
        g = self.goal()
        _c, lat, lng = far_city(self.task)  # type: ignore[misc]
        return f"{lat:.3f}, {lng:.3f}; {g['continent']}; {g['country']}; {g['city']}; "


class ResearchesUnseenCue(RedTeamAgent):
    """Walks to the nearest distinguishing cue and stops there, but reads the article of another distinguishing
    cue of the place, one it never stood in view of (known from the city's name, not from what it saw; stop 38:
    the web and embodied halves counted for different cues)."""

    kind = "shortcut"

    def unseen(self) -> dict[str, Any] | None:
        cue = self.nearest_cue()
        walked = set(self.path(cue["node"])) | {self.sp["start"]}
        return next((c for c in self.sp["distinguishing"] if c["node"] not in walked
                     and not set(c["articles"]) & set(cue["articles"])), None)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return cls(task).unseen() is not None

    def plan(self) -> Plan:
        other = self.unseen()
        yield from self.walk_to(self.nearest_cue()["node"])
        yield from self.read(other["articles"][0])  # type: ignore[index]
        self.idea = other is not None and other["node"] not in self.visited
        yield f"stop [{self.answer()}]"


def other_city(task: Task) -> str:
    """A city of the task's country other than its own (the first on the wiki's list)."""
    g = task.goal
    return next(c for c, _la, _ln in country_cities(task) if c != g["city"])


# ---------------------------------------------------------------------------------------- guesses
class SignsWithoutWeb(RedTeamAgent):
    """Walks every viewpoint, reads every sign, never opens the web. Its best guess from the text: a city
    that a sign names (it knows every city's names, as a model does); else the capital of the country
    (it recognises the true country)."""

    kind = "guess"

    def plan(self) -> Plan:
        gz = load_gazetteer()
        texts: list[str] = []
        yield from self.walk_sign_reading(texts)
        named: dict[str, int] = {}
        for t in texts:
            for k in gz.find_cities(t):
                named[gz.cities[k]["name"]] = named.get(gz.cities[k]["name"], 0) + 1
        g = self.goal()
        if named:
            self.source = "text"
            city = max(sorted(named), key=lambda c: named[c])
        else:
            self.source = "capital"
            city = capital_of(self.task)[0]
        yield f"stop [; {g['continent']}; {g['country']}; {city}; ]"

    def walk_sign_reading(self, texts: list[str]) -> Plan:
        texts += [t for _s, t in _sign_texts(self.obs["embodied_text"])]
        ends = [n for n, node in self.sp["nodes"].items() if len(node["neighbors"]) == 1]
        for end in sorted(ends):
            for n in self.path(end):
                yield f"move [{n}]"
                self.here = n
                self.visited.add(n)
                texts += [t for _s, t in _sign_texts(self.obs["embodied_text"])]

    def carried_out(self) -> bool:
        return super().carried_out() and not self.used_web and self.visited == set(self.sp["nodes"])


class CapitalOfCountry(RedTeamAgent):
    """Knows the true country; walks every viewpoint and reads every distinguishing cue's article (all the
    legwork), then answers the capital with its coordinates."""

    kind = "guess"

    def plan(self) -> Plan:
        yield from self.walk_all()
        for c in self.sp["distinguishing"]:
            yield from self.read(c["articles"][0])
        g = self.goal()
        cap, lat, lng = capital_of(self.task)
        yield f"stop [{lat:.4f}, {lng:.4f}; {g['continent']}; {g['country']}; {cap}; ]"


class RandomCityOfCountry(RedTeamAgent):
    """Like :class:`CapitalOfCountry`, but answers a city of the country's list on the wiki at random."""

    kind = "guess"

    def plan(self) -> Plan:
        yield from self.walk_all()
        for c in self.sp["distinguishing"]:
            yield from self.read(c["articles"][0])
        g = self.goal()
        city, lat, lng = random.Random(f"guess:{self.task.task_id}").choice(country_cities(self.task))
        yield f"stop [{lat:.4f}, {lng:.4f}; {g['continent']}; {g['country']}; {city}; ]"


class TrainSplitCity(RedTeamAgent):
    """Knows the true country; does all the legwork, then answers the city the train split holds for that
    country (the prior a model tuned on the train split learns; the first alphabetically when it holds several,
    the capital when none). Stop 37: each city has one standpoint and a two-city chain's cities share a split, so
    the prior names no test task's city."""

    kind = "guess"

    def answer(self) -> str:
        g = self.goal()
        train = sorted(t.goal["city"] for t in train_tasks() if t.goal["country"] == g["country"])
        city = train[0] if train else capital_of(self.task)[0]
        return f"; {g['continent']}; {g['country']}; {city}; "


def train_tasks() -> list[Task]:
    """The standard tier's train split (the prior :class:`TrainSplitCity` learns)."""
    return [t for t in all_tasks() if t.split == "train"]


# ---------------------------------------------------------------------------------------- genuine
class FreeTextAnswer(RedTeamAgent):
    """Answers "street, city, country" in free text."""

    def answer(self) -> str:
        g = self.goal()
        return f"{g['street']}, {g['city']}, {g['country']}"


class LabelledAnswer(RedTeamAgent):
    """Answers with labelled fields in another order, coordinates as separate lat and lng (an action is one
    line, so the fields are separated by commas)."""

    def answer(self) -> str:
        g = self.goal()
        return (f"City: {g['city']}, Country: {g['country']}, Street: {g['street']}, Continent: {g['continent']}, "
                f"lat: {g['lat']:.4f}, lng: {g['lng']:.4f}")


class SemicolonCoordinates(RedTeamAgent):
    """Separates lat and lng with a semicolon."""

    def answer(self) -> str:
        g = self.goal()
        return f"{g['lat']:.4f}; {g['lng']:.4f}; {g['continent']}; {g['country']}; {g['city']}; {g['street']}"


class OtherCityName(RedTeamAgent):
    """Names the city by another of its names: an exonym, an older name or its local name."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        return bool(task.goal.get("city_aliases"))

    def answer(self) -> str:
        g = self.goal()
        return f"; {g['continent']}; {g['country']}; {g['city_aliases'][-1]}; {g['street']}"


#: short or punctuated forms people write for some cities' names ("Jo'burg", "L'viv", "L.A.")
SHORT_FORMS = {"Johannesburg": "Jo'burg", "Lviv": "L'viv", "Los Angeles": "L.A.", "San Francisco": "S.F.",
               "Kuala Lumpur": "K.L.", "New Orleans": "NOLA", "New York": "N.Y.C.", "Washington, D.C.": "D.C.",
               "Mexico City": "CDMX", "Ho Chi Minh City": "HCMC"}


class ShortOrPunctuatedName(RedTeamAgent):
    """Names the city by a short or punctuated form in free text: "Hollywood Boulevard, L.A., United States",
    "Jo'burg", "L'viv", "S.F.", "K.L." (the suite's cities that have one; until geolocation checker version 8 the
    punctuated forms and "LA" were no city: 3 of the 8 tasks passed, those of "NOLA", "CDMX" and "HCMC")."""

    min_episodes: ClassVar[int] = 8

    @classmethod
    def applies(cls, task: Task) -> bool:
        return task.goal["city"] in SHORT_FORMS

    def answer(self) -> str:
        g = self.goal()
        return f"{g['street']}, {SHORT_FORMS[g['city']]}, {g['country']}"


#: the names in their country's first script (a non-Latin one) of the suite's cities whose rows lacked one
#: until geolocation checker version 9 (stop 37): Arabic for Morocco and Tunisia, Devanagari for India
NATIVE_NAMES = {"Rabat": "الرباط", "Casablanca": "الدار البيضاء", "Marrakesh": "مراكش", "Fez": "فاس",
                "Tangier": "طنجة", "Agadir": "أكادير", "Meknes": "مكناس", "Tunis": "تونس", "Sousse": "سوسة",
                "Sfax": "صفاقس", "Bizerte": "بنزرت", "Kairouan": "القيروان", "Gabès": "قابس", "Bengaluru": "बेंगलुरु",
                "Kolkata": "कोलकाता", "Chennai": "चेन्नई", "Hyderabad": "हैदराबाद"}


def first_script(task: Task) -> str:
    """The first script of the task's country's signs (``latin``, ``arabic``, ``devanagari``, ...)."""
    from embodiedweb.data_gen.geo import BY_CODE

    return BY_CODE[standpoint_of(task)["country_code"]]["scripts"][0]


#: the words of the Unicode character names of each script the countries' table names (Japanese signs write
#: their cities' names in kanji)
_SCRIPT_WORDS = {"hanzi": ("CJK",), "kana": ("CJK", "KATAKANA", "HIRAGANA"), "geez": ("ETHIOPIC",)}


def _in_script(name: str, script: str) -> bool:
    import unicodedata

    words = _SCRIPT_WORDS.get(script, (script.upper(),))
    letters = [c for c in name if c.isalpha()]
    return bool(letters) and all(any(w in unicodedata.name(c, "") for w in words) for c in letters)


class NativeScriptName(RedTeamAgent):
    """Names the city as its country's signs write it, in the country's first script where that is not Latin
    ("الدار البيضاء, Morocco", "कोलकाता", "Київ"): the writing the agent has read on the street. Until
    geolocation checker version 9 (stop 37) the cities of Morocco, Tunisia and four of India had no name in
    Arabic or Devanagari script."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        return first_script(task) != "latin"

    def answer(self) -> str:
        g = self.goal()
        script = first_script(self.task)
        native = NATIVE_NAMES.get(g["city"]) or next(
            (n for n in g.get("city_aliases", []) if _in_script(n, script)), None)
        self.idea = native is not None
        return f"; {g['continent']}; {g['country']}; {native or g['city']}; "


def region_of(task: Task) -> str | None:
    """The first-level region (state, province, canton, ...) that holds the task's city, by the project's table."""
    from embodiedweb.domains.geolocation.checker import _region_rows

    rows = _region_rows().get(standpoint_of(task)["country_code"], [])
    return next((name for name, _other, cities in rows if task.goal["city"] in cities), None)


class CityRegionCountry(RedTeamAgent):
    """Answers in free text as an address is written, the city with its own region: "Khreshchatyk, Kyiv, Kyiv
    City, Ukraine", "Boulevard Mohammed V, Casablanca, Casablanca-Settat, Morocco" (stop 37: every region of the
    table, the ones named like their city included)."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        return region_of(task) is not None

    def answer(self) -> str:
        g = self.goal()
        return f"{g['street']}, {g['city']}, {region_of(self.task)}, {g['country']}"


class RoughCoordinates(RedTeamAgent):
    """Names the right city and gives coordinates from memory: 10 to 40 km off its centre in a direction drawn
    per task (stop 38: rough coordinates never contradict the city they go with)."""

    def answer(self) -> str:
        import math

        g = self.goal()
        r = random.Random(f"rough:{self.task.task_id}")
        d, bearing = r.uniform(10, 40), r.uniform(0, 2 * math.pi)
        lat0, lng0 = self.sp["city_centre"]
        lat = lat0 + d / 111.2 * math.cos(bearing)
        lng = lng0 + d / (111.2 * math.cos(math.radians(lat0))) * math.sin(bearing)
        return f"{lat:.3f}, {lng:.3f}; {g['continent']}; {g['country']}; {g['city']}; "


class NameWithoutCoordinates(RedTeamAgent):
    """Names the continent, country and city and leaves the coordinates and the street blank."""

    def answer(self) -> str:
        g = self.goal()
        return f"; {g['continent']}; {g['country']}; {g['city']}; "


class CoordinatesOnly(RedTeamAgent):
    """Reads the city's article for its centre and answers the coordinates alone, names left blank."""

    def plan(self) -> Plan:
        from embodiedweb.data_gen.geo import city_slug, slugify

        yield from self.research()
        slug = city_slug(self.sp["country_code"], self.sp["city"])
        yield from self.read(slug if slug != slugify(self.sp["country"]) else "major-cities-by-country")
        lat, lng = self.sp["city_centre"]
        yield f"stop [{lat:.3f}, {lng:.3f}; ; ; ; ]"


class Detour(RedTeamAgent):
    """Walks the whole street both ways, browses unrelated pages, then researches and answers."""

    def plan(self) -> Plan:
        yield from self.walk_all()
        yield from self.walk_to(self.sp["start"])
        yield from self.to_web()
        for url in ("/wiki/", "/wiki/article/driving-side-by-country", "/wiki/categories",
                    "/wiki/article/empire-state-building", "/wiki/search?q=bakery"):
            yield f"goto [{url}]"
        yield "go_back"
        yield from self.research()
        yield from self.walk_to(self.sp["start"])
        yield f"stop [{self.answer()}]"


class FarthestCue(RedTeamAgent):
    """Uses the distinguishing cue farthest from the start instead of the nearest."""

    def nearest_cue(self) -> dict[str, Any]:
        return max(self.sp["distinguishing"], key=lambda c: (len(self.path(c["node"])), c["node"], c["cue"]))


class ReadThenLook(RedTeamAgent):
    """Reads the cue's article first, then walks to see the cue, then answers (order does not matter)."""

    def plan(self) -> Plan:
        cue = self.nearest_cue()
        yield from self.read(cue["articles"][0])
        yield from self.walk_to(cue["node"])
        yield f"stop [{self.answer()}]"


class SearchBoxResearch(RedTeamAgent):
    """Researches through the wiki's search box (typing the sign's text) and the result links, never an
    article URL."""

    def research(self) -> Plan:
        cue = self.nearest_cue()
        yield from self.walk_to(cue["node"])
        yield from self.to_web()
        from web_sites.wiki import catalog

        query = cue["lookup"][0]
        title = catalog.get(cue["articles"][0], "hard")["title"]  # the hard shelf holds every article
        box = find_bid(self.obs["web_text"], "searchbox")
        if box is None:
            self.idea = False
            return
        yield f"type [{box}] [{query}] [1]"
        link = find_bid(self.obs["web_text"], "link", title)
        if link is None:
            self.idea = False
            return
        yield f"click [{link}]"
        self.idea = self.idea and self.obs.get("web_url", "").endswith(f"/wiki/article/{cue['articles'][0]}")


class SearchResultsOnly(RedTeamAgent):
    """Searches the wiki for the cue's name and answers from the results page without opening an article (the
    nearest cue whose article's summary names the city: a chain in two cities may be based in the other one)."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(c["lookup"] for c in standpoint_of(task)["distinguishing"])

    def research(self) -> Plan:
        from web_sites.wiki import catalog

        cues = [c for c in self.sp["distinguishing"] if c["lookup"]]
        named = [c for c in cues if self.goal()["city"] in (catalog.get(c["articles"][0]) or {}).get("summary", "")]
        cue = min(named or cues, key=lambda c: (len(self.path(c["node"])), c["node"]))
        yield from self.walk_to(cue["node"])
        yield from self.to_web()
        yield f"goto [/wiki/search?q={cue['lookup'][0]}]"
        self.idea = self.goal()["city"] in self.obs["web_text"]


SHORTCUTS: tuple[type[RedTeamAgent], ...] = (
    StreetMemory, KnowsAnswerNoWalk, WalkWithoutCueResearch, SearchSpray, SprayCityField, SprayFreeText, SprayCoordinates,
    SprayExtraParts, ShortNameBeside, LabelledAlternative, CityNearInStreetPart, CountryNameAsCity, NameOneCoordsAnother,
    ResearchesUnseenCue, HedgeCityOrCountry, HedgeTwoCountries, HedgeTwoContinents, HedgeUnreadTown)
GUESSES: tuple[type[RedTeamAgent], ...] = (SignsWithoutWeb, CapitalOfCountry, RandomCityOfCountry, TrainSplitCity)
GENUINE: tuple[type[RedTeamAgent], ...] = (
    RedTeamAgent, FreeTextAnswer, LabelledAnswer, SemicolonCoordinates, OtherCityName, CoordinatesOnly, Detour,
    FarthestCue, ReadThenLook, SearchBoxResearch, SearchResultsOnly, ShortOrPunctuatedName, NativeScriptName,
    CityRegionCountry, RoughCoordinates, NameWithoutCoordinates, MaybeCityCountry)
BOUND = {"shortcut": 0.02, "genuine": 0.98, "SignsWithoutWeb": 0.10, "CapitalOfCountry": 0.20}


def all_tasks() -> list[Task]:
    """The geolocation suite (every split)."""
    from embodiedweb.domains.geolocation import GeolocationDomain
    from embodiedweb.paths import data_dir
    from embodiedweb.tasks import load_tasks

    return list(load_tasks(data_dir() / "geo" / "tasks.jsonl", GeolocationDomain().validate_task))


MIN_EPISODES = 40


def pool(cls: type[RedTeamAgent], tasks: list[Task]) -> list[Task]:
    """Every test task the agent applies to; train tasks after them when the test split has fewer than
    :data:`MIN_EPISODES`."""
    test = [t for t in tasks if t.split == "test" and cls.applies(t)]
    train = [t for t in tasks if t.split == "train" and cls.applies(t)]
    return test + train[:max(0, MIN_EPISODES - len(test))]


def run(cls: type[RedTeamAgent], tasks: list[Task], web_mode: str = "text") -> list[dict[str, Any]]:
    """One episode per task (see :func:`tests.redteam.run`)."""
    return run_episodes(cls, "EWA-Geolocation-v0", tasks, web_mode=web_mode, max_steps=80)


def chance_rate(tasks: list[Task]) -> float:
    """The expected rate of naming the city by picking one of the country's cities on the wiki at random."""
    return sum(1 / len(country_cities(t)) for t in tasks) / max(1, len(tasks))


def table() -> list[dict[str, Any]]:
    """Per agent: episodes that carried its idea out (test split first) and its overall/city/web/embodied rates."""
    tasks = all_tasks()
    rows = []
    for cls in SHORTCUTS + GUESSES + GENUINE:
        res = [r for r in run(cls, pool(cls, tasks)) if r["carried_out"]]
        k = max(len(res), 1)
        rows.append({"agent": cls.__name__, "kind": cls.kind, "episodes": len(res),
                     "test": sum(r["split"] == "test" for r in res),
                     **{m: sum(bool(r["metrics"][m]) for r in res) / k for m in ("overall", "city", "web", "embodied")}})
    return rows


if __name__ == "__main__":
    print("| agent | kind | episodes (test) | overall | city | web | embodied |\n"
          "| --- | --- | --- | --- | --- | --- | --- |")
    for row in table():
        print(f"| {row['agent']} | {row['kind']} | {row['episodes']} ({row['test']}) | {row['overall']:.0%} "
              f"| {row['city']:.0%} | {row['web']:.0%} | {row['embodied']:.0%} |")
