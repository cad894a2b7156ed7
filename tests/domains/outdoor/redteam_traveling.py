"""Red-team agents for EWA-Traveling-v0: shortcuts that must fail, genuine alternatives that must pass.

Each agent is the traveling oracle (read the landmark's article, walk there, answer) with one part
changed. They act only through action strings but know the task's answer (the strongest cheater knows
it). ``applies`` says on which tasks the agent's idea can be carried out; ``carried_out`` says whether
this episode really did it (no action was refused), so a pass cannot come from a plan that quietly fell
back to the honest solution.

``python -m tests.domains.outdoor.redteam_traveling [N]`` prints the traveling red-team table of docs/checkers.md.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections import Counter
from typing import Any, ClassVar
from urllib.parse import quote, urlencode

from baselines.script import Plan, find_bid
from baselines.street_heuristic import paragraphs, parse_directions
from embodiedweb.domains.outdoor.answers import MAX_WORDS, parse_names, parse_time
from embodiedweb.domains.outdoor.common import city
from embodiedweb.domains.outdoor.traveling import TravelingOracle
from embodiedweb.tasks import Task
from tests.redteam import RedTeam, pool
from tests.redteam import run as run_episodes
from web_sites.wiki import catalog

ENV_ID = "EWA-Traveling-v0"


def _places() -> list[dict[str, Any]]:
    return [a for a in catalog.articles() if a.get("kind") == "place" and a.get("world_facts")]


def _same_key(task: Task) -> list[dict[str, Any]]:
    """The fact records of the same question at every other place, in slug order."""
    g = task.goal
    return [a["world_facts"][g["fact"]] for a in _places() if a["slug"] != g["slug"] and g["fact"] in a["world_facts"]]


def _rng(task: Task, salt: str) -> random.Random:
    return random.Random(f"redteam:{salt}:{task.task_id}")


def _unaccent(text: str) -> str:
    t = unicodedata.normalize("NFKD", text.replace("ø", "o").replace("Ø", "O"))
    return "".join(c for c in t if not unicodedata.combining(c))


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60}:{minutes % 60:02d}"


class RedTeamAgent(RedTeam, TravelingOracle):
    """The traveling oracle as a red-team agent (see :mod:`tests.redteam`)."""

    #: the metric that must catch this shortcut ("web" or "embodied")
    caught_by: ClassVar[str] = "web"


# ---------------------------------------------------------------------------------------------- shortcuts
class MemoryAnswer(RedTeamAgent):
    """Never opens the wiki: walks to the landmark and answers from what it knows. None of the questions has
    a real-world answer (the facts are the project's own), so it gives the most plausible one: the answer
    most other places of the wiki have to the same question (a prior learned from the whole wiki)."""

    def read(self) -> Plan:
        return iter(())

    def answer(self) -> str:
        values = Counter(f["value"] for f in _same_key(self.task))
        return min(values, key=lambda v: (-values[v], v))


class KnowsAnswerNoWiki(RedTeamAgent):
    """Never opens the wiki but knows the right answer (as a model trained on this wiki might): walks to the
    landmark and answers right. Overall needs the article read in the episode."""

    def read(self) -> Plan:
        return iter(())


class AnswerSpray(RedTeamAgent):
    """Reads the article and walks there, then answers with the right value among four others of the same
    question (from other places), in a shuffled list."""

    n_others: ClassVar[int] = 4

    def candidates(self) -> list[str]:
        rng = _rng(self.task, type(self).__name__)
        gold = self.fact()
        if gold["kind"] == "choice":
            pool = [c for c in gold["choices"] if c != gold["value"]]
        else:
            pool = sorted({f["value"] for f in _same_key(self.task)} - {gold["value"]})
        return rng.sample(pool, min(self.n_others, len(pool)))

    def answer(self) -> str:
        items = self.candidates() + [str(self.fact()["value"])]
        _rng(self.task, "order").shuffle(items)
        return ", ".join(items)


class SprayToTheCap(AnswerSpray):
    """As :class:`AnswerSpray`, with as many candidates as fit in the answer length limit (every option of a
    one-of question)."""

    n_others = 200

    def answer(self) -> str:
        items = self.candidates()
        gold = str(self.fact()["value"])
        while items and len(", ".join(items + [gold]).split()) > MAX_WORDS:
            items.pop()
        items.insert(_rng(self.task, "pos").randrange(len(items) + 1), gold)
        return ", ".join(items)


class HedgeTwo(RedTeamAgent):
    """Answers "right or near miss": the value or the closest wrong one (the next tolerance step, five
    minutes later, another person, another option)."""

    def answer(self) -> str:
        f = self.fact()
        v = str(f["value"])
        if f["kind"] == "number":
            step = 0.1 if "." in v else 1.0
            other = f"{float(v) + float(f.get('tol') or 0) + step:g}"
        elif f["kind"] == "time":
            other = _hhmm((parse_time(v) + 5) % (24 * 60))
        elif f["kind"] == "choice":
            other = next(c for c in f["choices"] if c != v)
        else:
            other = next(x["value"] for x in _same_key(self.task) if x["kind"] == "name")
        return self.join(v, other) if _rng(self.task, "hedge").random() < 0.5 else self.join(other, v)

    def join(self, a: str, b: str) -> str:
        return f"{a} or {b}"


class HedgeCommaNoSpace(HedgeTwo):
    """As :class:`HedgeTwo`, the two answers joined by a comma without a space ("38.0,38.48", "14,15"): the
    judge reads such digits as one number (a decimal comma) or as no number, never as a list to pick from."""

    def join(self, a: str, b: str) -> str:
        return f"{a},{b}"


class PasteTheSection(RedTeamAgent):
    """Reads the article and answers with the whole "On site" section, every detail of the place at once."""

    def answer(self) -> str:
        a = catalog.get(self.task.goal["slug"])
        return " ".join(next(s for s in a["sections"] if s["heading"] == "On site")["paragraphs"])


class CopyOtherLandmark(RedTeamAgent):
    """Reads its landmark's article and another landmark's (drawn at random among those whose answer to the
    same question is written differently: an equal answer would simply be right), walks to its landmark and
    answers with the other article's answer."""

    def other(self) -> dict[str, Any]:
        g = self.task.goal
        others = [a for a in _places() if a["slug"] != g["slug"] and g["fact"] in a["world_facts"]
                  and a["world_facts"][g["fact"]]["value"] != g["answer"]]
        return _rng(self.task, "other").choice(others)

    def read(self) -> Plan:
        yield from super().read()
        yield f"goto [/wiki/article/{quote(self.other()['slug'])}]"

    def answer(self) -> str:
        return str(self.other()["world_facts"][self.task.goal["fact"]]["value"])


class CopyOtherLandmarkOnly(CopyOtherLandmark):
    """Walks to its landmark having read only another landmark's article, and copies its answer."""

    def read(self) -> Plan:
        yield "switch_environment [look something up]"
        yield f"goto [/wiki/article/{quote(self.other()['slug'])}]"


class WebOnly(RedTeamAgent):
    """Reads the article and answers right, but never walks."""

    caught_by = "embodied"

    def walk(self) -> Plan:
        return iter(())


class StopNextToGoal(RedTeamAgent):
    """Reads the article, walks the route and stops at its last node at least 25 m (straight line) from the
    landmark, answering right."""

    caught_by = "embodied"

    def walk(self) -> Plan:
        yield from self.walk_short(25.0)


class WalkOnlyNoAnswer(RedTeamAgent):
    """Reads the article and walks there, then stops without an answer."""

    def answer(self) -> str:
        return ""


# ------------------------------------------------------------------------------------ genuine alternatives
class _Genuine(RedTeamAgent):
    kind = "genuine"


class AlternateForm(_Genuine):
    """Answers in another form of the same value: lengths in feet or centimetres, with a decimal comma ("14,6
    m") or compound ("14 m 60 cm", "47 ft 11 in"), "floor 14", "the year 2064", 24-hour or dotted times, names
    with initials or surname first, a plural option."""

    def answer(self) -> str:
        f = self.fact()
        v = str(f["value"])
        pick = _rng(self.task, "form").randrange(3)
        if f["kind"] == "number" and f.get("unit") == "m":
            x = float(v)
            feet, inches = divmod(round(x / 0.0254), 12)
            return [f"{round(x / 0.3048)} feet", f"{round(x * 100)} cm", f"{v}m", f"{v.replace('.', ',')} m",
                    f"{int(x)} m {round((x - int(x)) * 100)} cm", f"{feet} ft {inches} in"][
                _rng(self.task, "length form").randrange(6)]
        if f["kind"] == "number" and f.get("unit") == "floor":
            n = int(v)
            suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
            return [f"floor {v}", f"the {v}{suffix}", f"level {v}"][pick]
        if f["kind"] == "number":
            return [f"the year {v}", f"in {v}", f"{v} AD"][pick]
        if f["kind"] == "time":
            t = parse_time(v)
            half = "a.m." if t < 12 * 60 else "p.m."
            return [f"{t // 60:02d}:{t % 60:02d}", f"{(t // 60 - 1) % 12 + 1}.{t % 60:02d} {half}",
                    f"{(t // 60 - 1) % 12 + 1}:{t % 60:02d}{half.replace('.', '').upper()}"][pick]
        if f["kind"] == "name":
            people = [_split_name(p.label) for p in parse_names(v)]
            if pick == 0:  # initials: "A. K. Whitfield"
                forms = [" ".join([g[0] + "." for g in given] + [surname]) for given, surname in people]
            elif pick == 1:  # surname first: "Whitfield, Ana K."
                forms = [f"{surname}, {' '.join(given)}" for given, surname in people]
            else:  # middle initial dropped, joined by "&": "Ana Whitfield & Tomás de la Vega"
                forms = [" ".join([given[0], surname]) for given, surname in people]
            return (" & " if pick == 2 else " and ").join(forms)
        return [f"{v}s", f"A {v.capitalize()}", f"the {v.upper()}"][pick]


def _split_name(label: str) -> tuple[list[str], str]:
    """(given names, surname with its particles) of a written name."""
    words = label.split()
    i = len(words) - 1
    while i > 0 and words[i - 1] in ("de", "la", "van", "der", "di", "del", "le", "da", "von"):
        i -= 1
    return words[:i], " ".join(words[i:])


class CaseAndAccents(_Genuine):
    """Answers the value in capitals, accents dropped, with stray punctuation."""

    def answer(self) -> str:
        return f'"{_unaccent(str(self.fact()["value"])).upper()}."'


class FullSentence(_Genuine):
    """Answers with a sentence of its own that names the landmark and states the value."""

    def answer(self) -> str:
        name = re.search(r"Walk to (.+?) and stop there", self.task.instruction).group(1)  # type: ignore[union-attr]
        return f"According to the wiki article on {name}, the answer is {self.fact()['value']}."


class QuoteArticleSentence(_Genuine):
    """Answers with the article's own sentence that states the fact, as read from the page's text."""

    def read(self) -> Plan:
        yield from super().read()
        said = self.fact()["text"]
        self.quote = next((p for p in paragraphs(self.obs["web_text"]) if p == said), "")
        if not self.quote:
            self.errors.append("the page has no paragraph stating the fact")

    def answer(self) -> str:
        return self.quote


class WikiSearch(_Genuine):
    """Finds the article with the wiki's search box (the landmark's name) and clicks it in the results."""

    def read(self) -> Plan:
        if self.obs["active"] != "web":
            yield "switch_environment [search the wiki]"
        yield "goto [/wiki/]"
        box = find_bid(self.obs["web_text"], "searchbox", "Search the wiki")
        name = re.search(r"Walk to (.+?) and stop there", self.task.instruction).group(1)  # type: ignore[union-attr]
        yield f"type [{box}] [{name}] [1]"
        link = find_bid(self.obs["web_text"], "link", catalog.get(self.task.goal["slug"])["title"])
        if link is None:
            self.errors.append(f"no result link for {name!r}")
            return
        yield f"click [{link}]"


class Detour(_Genuine):
    """Wanders first: the wiki's main page, another landmark's article, the map; on the street it steps off
    the route and back a few times before walking there."""

    def read(self) -> Plan:
        yield "switch_environment [browse]"
        other = _rng(self.task, "detour").choice([a for a in _places() if a["slug"] != self.task.goal["slug"]])
        for url in ("/wiki/", f"/wiki/article/{other['slug']}", "/map/", "/"):
            yield f"goto [{url}]"
        yield from super().read()
        yield "go_back"

    def walk(self) -> Plan:
        yield "switch_environment [wander]"
        rng = _rng(self.task, "wander")
        for _ in range(4):
            nbs = sorted(nb for nb, *_ in city().neighbors(self.here()))
            yield f"move [{rng.choice(nbs)}]"
        yield from super().walk()


class WalkFirstReadLater(_Genuine):
    """Walks to the landmark first, then reads the article there, then answers."""

    def plan(self) -> Plan:
        yield from self.walk()
        yield from self.read()
        yield f"stop [{self.answer()}]"


class MapDirectionsByName(_Genuine):
    """Reads the article, asks the map for walking directions to the landmark's name and walks to the end
    node the directions page gives."""

    def target(self) -> str:
        return re.search(r"Walk to (.+?) and stop there", self.task.instruction).group(1)  # type: ignore[union-attr]

    def walk(self) -> Plan:
        yield "goto [/map/directions?" + urlencode({"from": self.here(), "to": self.target()}) + "]"
        _, end, _ = parse_directions(self.obs["web_text"])
        if end is None:
            self.errors.append(f"no route to {self.target()!r}")
            return
        yield from self.walk_to(end)


class MapDirectionsByAddress(MapDirectionsByName):
    """As :class:`MapDirectionsByName`, to the address in the article's infobox (the issue's
    address-following agent)."""

    def target(self) -> str:
        return dict(catalog.get(self.task.goal["slug"])["infobox"])["Address"]


class SnippetReader(_Genuine):
    """Never opens the article: searches the wiki for the landmark's name with the question's key words (then
    the key words alone), pages through the results to the landmark's, and answers from its snippet when the
    snippet states the fact (episodes where no snippet does are not carried out)."""

    #: the search words of each question (what an agent takes from the question)
    KEYWORDS: ClassVar[dict[str, str]] = {
        "plaque_honoree": "plaque honours", "restoration_leads": "restoration was led",
        "tour_time": "guided walks leave", "mosaic_length": "mosaic long", "capsule_year": "capsule opened",
        "exhibit_floor": "exhibition floor", "sculpture_animal": "bronze sculpture"}
    #: the snippet states the fact on 48 of the 80 test tasks
    min_test: ClassVar[int] = 40

    def read(self) -> Plan:
        g = self.task.goal
        title = catalog.get(g["slug"])["title"]
        if self.obs["active"] != "web":
            yield "switch_environment [search the wiki]"
        for q in (f"{title} {self.KEYWORDS[g['fact']]}", self.KEYWORDS[g["fact"]]):
            yield "goto [/wiki/search?" + urlencode({"q": q}) + "]"
            for _ in range(10):
                lines = self.obs["web_text"].splitlines()
                at = next((i for i, line in enumerate(lines) if line.strip().endswith(f"link '{title}'")), None)
                if at is not None:
                    snippet = _unaccent(lines[at + 1]).lower() if at + 1 < len(lines) else ""
                    words = re.findall(r"[a-z0-9.:]+", _unaccent(g["answer"]).lower())
                    if all(re.search(rf"(?<![\w.]){re.escape(w)}(?:st|nd|rd|th)?(?!\w)", snippet) for w in words):
                        return
                    break
                more = find_bid(self.obs["web_text"], "link", "Next page")
                if more is None:
                    break
                yield f"click [{more}]"
        self.errors.append("no snippet states the fact")


_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
         "seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_ORDINALS = ("_ first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
             "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth").split()


def _in_words(n: int) -> str:
    """A number below 100 in words ("thirty-nine")."""
    return _ONES[n] if n < 20 else _TENS[n // 10] + (f"-{_ONES[n % 10]}" if n % 10 else "")


class HedgeInWords(RedTeamAgent):
    """The right value, and beside it a second one offered in words or as a bare number or margin, in the forms a
    judge reading only digits, units and clock times misses: "maybe thirty-nine or 38.0" (number), "2098, give or
    take two years" (year), "5:50 pm, or ten past six" / "5:50 pm, or 6" / "5:50 pm, give or take 20 minutes"
    (time), "Mateo Karlsson, or perhaps Ms. Papadakis" (another person by title and surname). 97-100 % of the
    test tasks of each form passed before traveling checker version 6."""

    min_test: ClassVar[int] = 65

    @classmethod
    def applies(cls, task: Task) -> bool:
        return task.goal["kind"] in ("number", "time", "name")

    def answer(self) -> str:
        f = self.fact()
        v = str(f["value"])
        form = _rng(self.task, "words").randrange(3)
        if f["kind"] == "time":
            t = parse_time(v)
            other = (t + 20) % (24 * 60)
            return (f"{v}, or {_in_words(other % 60) if other % 60 else 'quarter'} past "
                    f"{_in_words((other // 60) % 12 or 12)}", f"{v}, or {(t // 60 + 1) % 12 or 12}",
                    f"{v}, give or take 20 minutes")[form]
        if f["kind"] == "name":
            gold = {p.surname for p in parse_names(v)}
            other = next(p for x in _same_key(self.task) if x["kind"] == "name" for p in parse_names(x["value"])
                         if p.surname not in gold and p.given)
            return f"{v}, or perhaps Ms. {other.label.split()[-1]}"
        if f.get("unit") == "year":
            return f"{v}, give or take two years"
        near = round(float(v)) + 1 + round(3 * float(f.get("tol") or 0))
        said = _in_words(near) if near < 100 else f"{_ONES[near // 100]} hundred" + (
            f" and {_in_words(near % 100)}" if near % 100 else "")
        return f"maybe {said} or {v}"


class SaidInWordsAndHyphens(RedTeamAgent):
    """Numbers and times as people also write them: "a 125-foot-long mosaic", "in the fifteenth-floor gallery",
    "in twenty ninety-eight", "ten to six in the afternoon", "five-fifty p.m." (0 of 14, 3, 8 and 5 test tasks of these
    forms passed before traveling checker version 6)."""

    kind = "genuine"
    want: ClassVar[int] = 80
    min_test: ClassVar[int] = 45

    @classmethod
    def applies(cls, task: Task) -> bool:
        return task.goal["kind"] in ("number", "time")

    def answer(self) -> str:
        f = self.fact()
        v = str(f["value"])
        if f["kind"] == "time":
            t = parse_time(v)
            h, m = divmod(t, 60)
            part = "afternoon" if 12 <= h < 18 else "evening" if h >= 18 else "morning"
            if m >= 10 and _rng(self.task, "said").random() < 0.5:
                return f"{_in_words(h % 12 or 12)}-{_in_words(m)} {'p.m.' if h >= 12 else 'a.m.'}"
            if m == 0:
                return f"{_in_words(h % 12 or 12)} o'clock in the {part}"
            return (f"{_in_words(m)} past {_in_words(h % 12 or 12)} in the {part}" if m <= 30 else
                    f"{_in_words(60 - m)} to {_in_words((h + 1) % 12 or 12)} in the {part}")
        unit = f.get("unit")
        if unit == "floor" and float(v) <= 20:
            return f"in the {_ORDINALS[int(float(v))]}-floor gallery"
        if unit == "m":
            return f"It is a {round(float(v) / 0.3048)}-foot-long one" if float(f.get("tol") or 0) >= 0.3 else \
                f"a {v}-metre-long one"
        if unit == "year" and float(v).is_integer():
            a, b = divmod(int(float(v)), 100)
            if a == 20 and b < 10:
                return f"in two thousand{' and ' + _ONES[b] if b else ''}"
            return f"in {_in_words(a)} {_in_words(b) if b >= 10 else f'oh-{_ONES[b]}' if b else 'hundred'}"
        return f"the {v} one"


def _near_miss(f: dict[str, Any]) -> str:
    """The closest wrong value of a number fact (the next step past its tolerance), as :class:`HedgeTwo` gives."""
    v = str(f["value"])
    return f"{float(v) + float(f.get('tol') or 0) + (0.1 if '.' in v else 1.0):g}"


def _unit_word(f: dict[str, Any]) -> str:
    return {"m": " m", "floor": "th floor", "year": ""}.get(str(f.get("unit")), "")


class _NumberTasks(RedTeamAgent):
    want: ClassVar[int] = 65  # every number question of the suite: 38 test, 27 train
    min_test: ClassVar[int] = 38

    @classmethod
    def applies(cls, task: Task) -> bool:
        return task.goal["kind"] == "number"


class DeniesAWrongValue(_NumberTasks):
    """A number answer that rules out a wrong value before or after stating the right one: "not 43.1 m but
    38.0 m", "38.0 m, not 43.1 m", "It isn't 2099; it is 2098." (0 of the 65 number tasks passed before traveling
    checker version 8: the denied value was judged as a second answer)."""

    kind = "genuine"

    def answer(self) -> str:
        f = self.fact()
        v, w, u = str(f["value"]), _near_miss(f), _unit_word(f)
        return (f"not {w}{u} but {v}{u}", f"{v}{u}, not {w}{u}", f"It isn't {w}{u}; it is {v}{u}.")[
            _rng(self.task, "deny").randrange(3)]


#: the infobox facts an answer may add, with the words that say what each is
_OTHER_FACT_SAID = {"year_built": "It was completed in {}.", "opened": "It opened in {}.",
                    "floors": "The building has {} floors.", "height_m": "It is {} m tall."}


class StatesAnotherFact(_NumberTasks):
    """Answers the number, then states a true number of the article's infobox as what it is: "... on the 2nd
    floor. It was completed in 1963.", "The building has 77 floors.", "It is 319 m tall." (number tasks whose
    article gives one: 0 of those 56 passed before traveling checker version 8, the second number being judged as
    a second answer)."""

    kind = "genuine"
    want: ClassVar[int] = 56
    min_test: ClassVar[int] = 30

    @classmethod
    def applies(cls, task: Task) -> bool:
        return super().applies(task) and any(k in catalog.get(task.goal["slug"])["facts"] for k in _OTHER_FACT_SAID)

    def answer(self) -> str:
        f = self.fact()
        facts = catalog.get(self.task.goal["slug"])["facts"]
        key = _rng(self.task, "fact").choice([k for k in _OTHER_FACT_SAID if k in facts])
        return f"The answer is {f['value']}{_unit_word(f)}. {_OTHER_FACT_SAID[key].format(facts[key])}"


def _roman(n: int) -> str:
    out = ""
    for value, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
                           (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out, n = out + letters, n - value
    return out


class RomanYear(RedTeamAgent):
    """Answers a year question with the year in Roman numerals: "It is to be opened in MMXCVIII." (0 of the 22
    year tasks passed before traveling checker version 8)."""

    kind = "genuine"
    want: ClassVar[int] = 22
    min_test: ClassVar[int] = 16

    @classmethod
    def applies(cls, task: Task) -> bool:
        return task.goal["kind"] == "number" and task.goal["fact"] == "capsule_year"

    def answer(self) -> str:
        return f"It is to be opened in {_roman(int(self.fact()['value']))}."


class HedgeBesideADenial(_NumberTasks, HedgeTwo):
    """The right number with a near miss offered beside it in the forms a judge that lets a denied value or
    another fact pass might miss: "either W or V", "V, not sure, maybe W", "V, if not W", "V or not W", a denial of
    the right value alone ("not V"), and the near miss dressed as another fact of the building ("V; it was
    completed in W", "V; the building has W floors", "V; it is W m tall": W is not the infobox's, else W + 1).
    Until traveling checker version 8 the denial alone ("not V") passed every number task (65 of 65)."""

    def answer(self) -> str:
        f = self.fact()
        if f["kind"] != "number":  # (played on another question, as a real shortcut test does: HedgeTwo's hedge)
            return super().answer()
        v, w, u = str(f["value"]), _near_miss(f), _unit_word(f)
        true = {float(x) for k, x in catalog.get(self.task.goal["slug"])["facts"].items() if k in _OTHER_FACT_SAID}
        x = w if float(w) not in true else f"{float(w) + 1:g}"  # a near miss, not the building's own number
        other = {"year": f"{v}; it was completed in {x}", "floor": f"{v}{u}; the building has {x} floors",
                 "m": f"{v}{u}; it is {x} m tall"}[str(f.get("unit"))]
        return (f"either {w}{u} or {v}{u}", f"{v}{u}, not sure, maybe {w}{u}", f"{v}{u}, if not {w}{u}",
                f"{v}{u} or not {w}{u}", f"not {v}{u}", other)[_rng(self.task, "deny hedge").randrange(6)]


#: how the two people of a name fact are listed by :class:`TwoNamesWithPunctuation` (the article writes "A and B");
#: an action is one line, so a new line between them is judged in ``test_answers_lists_and_denials.py`` only
LIST_SEPARATORS = (" & ", ", ", "; ", " / ", ",")


class TwoNamesWithPunctuation(_Genuine):
    """A two-person answer with a punctuation mark between the people, in the article's order: "Tariq Szabó &
    Yusuf F. Boateng", "A, B", "A; B", "A / B", "A,B" (stop 34, finding T1 of the review: until traveling checker
    version 9 "Szabó & Yusuf" read as Yusuf Szabó, another person of the wiki, said surname first: 3 of the 23
    standard two-person tasks failed with each of these marks, 4 of 23 hard; one more in the other order, which
    ``test_answers_lists_and_denials.py`` judges with a new line too)."""

    want: ClassVar[int] = 23  # every two-person question: 10 test, 13 train
    min_test: ClassVar[int] = 10

    @classmethod
    def applies(cls, task: Task) -> bool:
        return task.goal["kind"] == "name" and " and " in str(task.goal.get("answer"))

    def answer(self) -> str:
        a, b = str(self.fact()["value"]).split(" and ")
        return f"{a}{_rng(self.task, 'list').choice(LIST_SEPARATORS)}{b}"


#: what stands for the hyphen of a hyphenated surname in :class:`HyphenWritten`: a space, an en dash, a
#: non-breaking hyphen, a minus sign
HYPHEN_FORMS = (" ", "\u2013", "\u2011", "\u2212")


class HyphenWritten(_Genuine):
    """A hyphenated surname written with a space, an en dash, a non-breaking hyphen or a minus sign for the
    hyphen ("Leila Tanaka Reid", "Leila Tanaka–Reid"; stop 34, finding T2: 0 of the 3 standard tasks with such a
    name passed until traveling checker version 9, 0 of 2 hard)."""

    want: ClassVar[int] = 3  # every question whose answer has a hyphenated name: 2 test, 1 train
    min_test: ClassVar[int] = 2

    @classmethod
    def applies(cls, task: Task) -> bool:
        return task.goal["kind"] == "name" and "-" in str(task.goal.get("answer"))

    def answer(self) -> str:
        return str(self.fact()["value"]).replace("-", _rng(self.task, "hyphen").choice(HYPHEN_FORMS))


def _a(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


class _ChoiceTasks(RedTeamAgent):
    want: ClassVar[int] = 20  # every choice question: 9 test, 11 train
    min_test: ClassVar[int] = 9

    @classmethod
    def applies(cls, task: Task) -> bool:
        return task.goal["kind"] == "choice"

    def other(self) -> str:
        f = self.fact()
        return _rng(self.task, "other option").choice([c for c in f["choices"] if c != f["value"]])


class ChoiceDeniesAnother(_ChoiceTasks):
    """A choice answer that rules out another option: "a beaver, not an otter", "It shows a beaver (not an
    otter)", "not an otter but a beaver", "It isn't an otter; it is a beaver." (stop 34, finding T3: 0 of the 20
    standard choice tasks passed until traveling checker version 9, 0 of 17 hard: the denied option was a second
    option named; the number judge's denial rule, version 8, now reads choices too)."""

    kind = "genuine"

    def answer(self) -> str:
        v, w = str(self.fact()["value"]), self.other()
        return (f"{_a(v)}, not {_a(w)}", f"It shows {_a(v)} (not {_a(w)})", f"not {_a(w)} but {_a(v)}",
                f"It isn't {_a(w)}; it is {_a(v)}.")[_rng(self.task, "deny").randrange(4)]


class ChoiceHedgeBesideADenial(_ChoiceTasks, HedgeTwo):
    """A choice hedge dressed as a denial: "V, if not W", "W, if not V", "V or maybe W", "V, not W, or W", "either V
    or W", "V, not sure, maybe W", a denial of the other option alone ("not W": no option named) and of the right
    one ("not a V", which passed every choice task until traveling checker version 9: one option named)."""

    def answer(self) -> str:
        f = self.fact()
        if f["kind"] != "choice":  # (played on another question, as a real shortcut test does: HedgeTwo's hedge)
            return super().answer()
        v, w = str(f["value"]), self.other()
        return (f"{v}, if not {w}", f"{w}, if not {v}", f"{v} or maybe {w}", f"{v}, not {w}, or {w}",
                f"either {v} or {w}", f"{v}, not sure, maybe {w}", f"not {w}", f"not {_a(v)}")[
            _rng(self.task, "deny hedge").randrange(8)]


class _NameTasks(RedTeamAgent):
    want: ClassVar[int] = 45  # every name question of the standard suite: 22 test, 23 train
    min_test: ClassVar[int] = 22

    @classmethod
    def applies(cls, task: Task) -> bool:
        return task.goal["kind"] == "name"

    def fill(self) -> dict[str, str]:
        """The right answer V, another candidate W (the first person of another place's answer to the same question
        whose surname and first name are not V's), W's first name G and surname S, V surname first without a comma,
        and every candidate's surname as far as the length limit allows (``measure_answer_forms.py``)."""
        from tests.domains.outdoor.measure_answer_forms import candidates, name_parts, surnames_after

        v = str(self.fact()["value"])
        others = candidates(self.task.goal)
        given, surname = name_parts(others[0])
        vrev = " and ".join(f"{s} {' '.join(gs)}" for gs, s in (name_parts(p.label) for p in parse_names(v)))
        return {"v": v, "w": others[0], "g": given[0], "s": surname, "vrev": vrev,
                "every": surnames_after(v, others)}


class NameMergedWithAnother(_NameTasks, HedgeTwo):
    """A name hedge written as one name of two candidates' words: the right name with another candidate's surname
    appended ("Omar Reid Tanaka"), its first name before ("Yusuf Tariq Szabó"), both ("Yusuf Tariq Szabó Boateng"),
    surname first with another's surname after ("Szabó Tariq Boateng"), or every other candidate's surname appended
    as far as 40 words allow (stop 35, N1 of the stop 34 review's open items: until traveling checker version 10
    each form passed 81-90 of the 90 name tasks at the judge, standard and hard tiers and errands)."""

    FORMS: ClassVar[tuple[str, ...]] = ("{v} {s}", "{g} {v}", "{g} {v} {s}", "{vrev} {s}", "{v} {every}")

    def answer(self) -> str:
        if self.fact()["kind"] != "name":  # (played on another question, as a real shortcut test does)
            return super().answer()
        return _rng(self.task, "merge").choice(self.FORMS).format(**self.fill())


class NameInContext(_NameTasks):
    """The right name among other words that are no name, or surname first without a comma: "Dr. V led it", "The
    plaque honours V alone.", "Szabó Tariq" (stop 35: the genuine side of :class:`NameMergedWithAnother`'s rule,
    whose third word must be another person's name; these passed before and pass after)."""

    kind = "genuine"

    def answer(self) -> str:
        forms = ["Dr. {v} led it", "The plaque honours {v} alone.", "{vrev}"]
        return _rng(self.task, "context").choice(forms).format(**self.fill())


class NameDeniesAnother(_NameTasks):
    """A name answer that rules out another candidate: "V (not W)", "V, not W", "not W but V", "V rather than W",
    "It isn't W; it is V.", "V instead of W" (stop 35, N3: 0 of the 90 name tasks passed until traveling checker
    version 10, the denied person being a second person named; the number and choice judges' denial rule now reads
    names too)."""

    kind = "genuine"

    def answer(self) -> str:
        forms = ["{v} (not {w})", "{v}, not {w}", "not {w} but {v}", "{v} rather than {w}", "It isn't {w}; it is {v}.",
                 "{v} instead of {w}"]
        return _rng(self.task, "deny").choice(forms).format(**self.fill())


class NameHedgeBesideADenial(_NameTasks, HedgeTwo):
    """A name hedge beside or dressed as a denial: "V or W", "V, maybe W", "V, if not W", "W, if not V", "V or not W",
    "either V or W", "not V" (which passed every name task until traveling checker version 10), "not W", "not W or V"
    (neither), "V, not W, or W", "W (not V)", "V, not sure, maybe W", "V, I think not W"."""

    FORMS: ClassVar[tuple[str, ...]] = (
        "{v} or {w}", "{v}, maybe {w}", "{v}, if not {w}", "{w}, if not {v}", "{v} or not {w}", "either {v} or {w}",
        "not {v}", "not {w}", "not {w} or {v}", "{v}, not {w}, or {w}", "{w} (not {v})", "{v}, not sure, maybe {w}",
        "{v}, I think not {w}")

    def answer(self) -> str:
        if self.fact()["kind"] != "name":  # (played on another question, as a real shortcut test does)
            return super().answer()
        return _rng(self.task, "deny hedge").choice(self.FORMS).format(**self.fill())


# ------------------------------------------------------------------------------ stop 36: a fresh hunt
#: a word that is never a given name, per initial it begins with (:data:`~embodiedweb.domains.outdoor.answers.NOT_NAMES`)
WORD_FOR_INITIAL = {"a": "apparently", "b": "but", "c": "certainly", "d": "definitely", "g": "guess", "h": "he",
                    "j": "just", "l": "likely", "m": "maybe", "p": "probably", "r": "rather", "s": "surely",
                    "t": "then", "w": "who"}


def _initial_word(task: Task) -> tuple[str, str] | None:
    """(a word beginning with an initial of the right person, that person's surname with its particles) when the
    answer is one person whose given names hold an initial that :data:`WORD_FOR_INITIAL` has a word for."""
    from tests.domains.outdoor.measure_answer_forms import name_parts

    people = parse_names(str(task.goal.get("answer", "")))
    if len(people) != 1:
        return None
    word = next((WORD_FOR_INITIAL[g] for g in people[0].given if len(g) == 1 and g in WORD_FOR_INITIAL), None)
    return (word, name_parts(people[0].label)[1]) if word else None


class SurnameAfterAWord(_NameTasks, HedgeTwo):
    """The right person's surname alone after a word that begins with one of the person's initials: "maybe
    Papadakis" for Mia V. Papadakis, "not Ruth Bhatt, but Thorne" for Søren B. Thorne. The word was read as the
    initial and the surname alone passed (until traveling checker version 11); a surname alone names no one (572 of
    the wiki's 582 people share one)."""

    want: ClassVar[int] = 6  # the standard suite's name tasks whose one person has such an initial: 4 test, 2 train
    min_test: ClassVar[int] = 4

    @classmethod
    def applies(cls, task: Task) -> bool:
        return task.goal["kind"] == "name" and _initial_word(task) is not None

    def answer(self) -> str:
        got = _initial_word(self.task)
        if self.fact()["kind"] != "name" or got is None:
            return super().answer()
        word, surname = got
        return f"not {self.fill()['w']}, but {surname}" if word == "but" else f"{word} {surname}"


class DurationForTheNumber(_NumberTasks, HedgeTwo):
    """The right number with a duration word: "38 hours", "14 minutes", "1931 days" (passed every number task until
    traveling checker version 11: a unit the judge did not know was read as no unit)."""

    def answer(self) -> str:
        if self.fact()["kind"] != "number":
            return super().answer()
        return f"{self.fact()['value']} {('hours', 'minutes', 'days')[_rng(self.task, 'duration').randrange(3)]}"


class ValueInAList(_NumberTasks, HedgeTwo):
    """The right number inside a list of neighbouring values: "37, 38, 39 m", "37 m, 38 m, 39 m, 40 m" (stop 36's
    hunt: failed before and after, each value is judged)."""

    def answer(self) -> str:
        f = self.fact()
        if f["kind"] != "number":
            return super().answer()
        v, step, u = float(f["value"]), 1 + float(f.get("tol") or 0), _unit_word(f)
        vals = [f"{x:g}" for x in (v - step, v, v + step, v + 2 * step)]
        return (f"{vals[0]}, {vals[1]}, {vals[2]}{u}", ", ".join(x + u for x in vals))[
            _rng(self.task, "list").randrange(2)]


class ApproximateValue(_NumberTasks):
    """The right number with a word of approximation: "about 38 m", "roughly 38 m", "38 m or so", "around 38 m"
    (passes before and after; the judge reads the value, which must be right within the fact's tolerance)."""

    kind = "genuine"

    def answer(self) -> str:
        f = self.fact()
        v, u = str(f["value"]), _unit_word(f)
        return ("about {}", "roughly {}", "{} or so", "around {}")[_rng(self.task, "about").randrange(4)].format(v + u)


# ------------------------------------------------------------------------------ stop 38: a fresh review
#: words after a denial that offer its reverse too, as people write them besides "or vice versa" and "or the other way
#: round" (the forms stop 36's reversal rule read)
REVERSALS = ("or vice-versa", "or the other way", "or the other way about", "or the converse", "or reversed",
             "or swapped", "either way")


class ReversedInOtherWords(HedgeTwo):
    """The right value with a near miss denied and the denial taken back in other words: "V, not W, or vice-versa",
    "V, not W, or the other way", "V (not W), or the converse", "V, not W, either way" (number, choice and name
    questions, where a denial rules a value out; stop 38: until traveling checker version 12 only "vice versa" with a
    space and "or the other way round" took a denial back)."""

    min_test: ClassVar[int] = 69  # the test split's number, choice and name questions (38 + 9 + 22)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return task.goal["kind"] in ("number", "choice", "name")

    def join(self, a: str, b: str) -> str:
        rng = _rng(self.task, "reversal")
        v = str(self.fact()["value"])
        right, wrong = (a, b) if a == v else (b, a)
        return f"{right}, not {wrong}, {rng.choice(REVERSALS)}"


class ReadInANewTab(_Genuine):
    """Reads the article in a new tab, closes that tab again (the browser is back on the page it was on), walks and
    answers: the read counts wherever the tab was (stop 38)."""

    def read(self) -> Plan:
        if self.obs["active"] != "web":
            yield "switch_environment [look the landmark up]"
        yield "new_tab"
        yield f"goto [/wiki/article/{self.task.goal['slug']}]"
        yield "close_tab"


class TeamDeniesAnotherTeam(_Genuine):
    """A two-person answer that rules out another place's pair of the same question: "A and B, not C and D", "A & B
    (not C & D)", "not C and D but A and B" (stop 38: until traveling checker version 12 a denial reached the people
    joined to it by "or" only, so D was a third person named: 0 of the 23 standard two-person tasks passed)."""

    want: ClassVar[int] = 23  # every two-person question: 10 test, 13 train
    min_test: ClassVar[int] = 10

    @classmethod
    def applies(cls, task: Task) -> bool:
        return task.goal["kind"] == "name" and " and " in str(task.goal.get("answer"))

    def answer(self) -> str:
        v = str(self.fact()["value"])
        mine = set(v.split(" and "))
        pair = next(str(x["value"]) for x in _same_key(self.task)
                    if x["kind"] == "name" and " and " in str(x["value"]) and not mine & set(str(x["value"]).split(" and ")))
        form = _rng(self.task, "team").choice(["{v}, not {w}", "{va} & {vb} (not {wa} & {wb})", "not {w} but {v}"])
        (va, vb), (wa, wb) = v.split(" and "), pair.split(" and ")
        return form.format(v=v, w=pair, va=va, vb=vb, wa=wa, wb=wb)


#: alternatives the judge reads as no value, by kind (stop 38's black-box play: 1.0 on each before)
UNREAD = {"year": ("{v} or later", "{v} or the year after", "{v} (possibly a century earlier)", "{v} or never",
                   "one-nine-one-four or {v}"),
          "floor": ("{v}th or ground floor", "{v}th or top floor", "{v}th floor or the basement",
                    "ground, {v}th or top floor"),
          "m": ("{v} m or taller", "{v} m, or maybe less"),
          "name": ("{v} or {g}", "{v} or anyone else", "{v}, or possibly someone else"),
          "choice": ("{v} or something else", "{v}, or perhaps another one")}


class UnreadAlternative(RedTeamAgent):
    """The right value with an alternative the judge reads as no value: "2092 or later", "15th or top floor", "2092
    (possibly a century earlier)", "one-nine-one-four or 2092", "Astrid V. Halvorsen or Tomás", "beaver or something
    else" (number, choice and name questions; stop 38: each passed until traveling checker version 12, the judge
    reading only what it could read as a value)."""

    min_test: ClassVar[int] = 69  # the test split's number, choice and name questions (38 + 9 + 22)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return task.goal["kind"] in ("number", "choice", "name")

    def answer(self) -> str:
        from tests.domains.outdoor.measure_answer_forms import candidates, name_parts

        f = self.fact()
        v = str(f["value"])
        key = str(f.get("unit") or "") if f["kind"] == "number" else f["kind"]
        g = name_parts(candidates(self.task.goal)[0])[0][0] if f["kind"] == "name" else ""
        return _rng(self.task, "unread").choice(UNREAD.get(key, UNREAD["year"])).format(v=v, g=g)


class FloorInContext(_Genuine):
    """A floor answer with the building's floor count after "of" or an address beside it: "15th floor of 39", "the
    15th floor, on 1st Ave & E 43rd St" (floor questions; stop 38: the count and the address's numbers were judged as
    other floors until traveling checker version 12)."""

    want: ClassVar[int] = 22  # every floor question of the suite: 8 test, 14 train
    min_test: ClassVar[int] = 8

    @classmethod
    def applies(cls, task: Task) -> bool:
        return task.goal.get("fact") == "exhibit_floor"

    def answer(self) -> str:
        from embodiedweb.domains.outdoor.traveling import article

        f = self.fact()
        if str(f.get("unit")) != "floor":
            return str(f["value"])
        floors = ((article(str(self.task.goal.get("slug"))) or {}).get("facts") or {}).get("floors")
        forms = ["the {v}th floor, on 1st Ave & E 43rd St", "{v}th floor at 350 5th Avenue"]
        if floors:
            forms += ["{v}th floor of {n}", "the {v}th of {n} floors"]
        return _rng(self.task, "floor").choice(forms).format(v=f["value"], n=floors)


def misspelt(label: str) -> str:
    """A candidate's name as a cheater writes it to slip past the judge: accents dropped, the particles joined to the
    surname ("Tomás le Roux" -> "Tomas leRoux"), or, without particles, the surname's last letter doubled ("Omar
    Reidd")."""
    given, surname = _split_name(_unaccent(label))
    parts = surname.split()
    joined = "".join(parts[:-1]) + parts[-1] if len(parts) > 1 else parts[0] + parts[0][-1]
    return " ".join([*given, joined])


#: an item the judge cannot read, listed beside the right value V (stop 39); M is a misspelt other candidate (no new
#: line: an action's text ends at one, so the judge's unit tests hold that form)
LISTED = {"year": ("{v}, the year after", "{v}; the next year", "{v} (the decade after)", "{v} - the year before"),
          "floor": ("{v}th floor, top floor", "{v}th; ground floor", "{v}th floor (the top)", "{v}th & top floor"),
          "m": ("{v} m, a little more", "{v} m; taller", "{v} m (a little less)"),
          "time": ("{v}; the next one", "{v}, quarter past", "{v} (or thereabouts)", "{v}, later"),
          "name": ("{v}, {m}", "{v}; {m}", "{v} and {m}", "{v} ({m})", "{m}, {v}", "{v}: {m}",
                   "{v} with {m}"),
          "choice": ("{v}, {m}", "{v}; {m}", "{v} and {m}", "{v} ({m})", "{m}, {v}")}


class UnreadListItem(RedTeamAgent):
    """The right value with a second one the judge cannot read, listed beside it by a comma, ";", "&", "and",
    brackets, a colon or "with" (a new line in the unit tests: an action's text ends at one): "Astrid V. Halvorsen,
    Tomas leRoux" (another candidate misspelt), "a beaver, an otterr", "15th floor, top floor", "2092, the year after", "2:15 pm; the next one" (every question; stop 39: the
    alternative rule of stop 38 only started at "or", "/", "maybe" ..., and the time judge had none)."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        return task.goal["kind"] in ("number", "time", "choice", "name")

    def answer(self) -> str:
        from tests.domains.outdoor.measure_answer_forms import candidates

        f = self.fact()
        v = str(f["value"])
        key = str(f.get("unit") or "") if f["kind"] == "number" else f["kind"]
        if f["kind"] == "name":
            m = misspelt(candidates(self.task.goal)[0])
        elif f["kind"] == "choice":
            other = next(c for c in f["choices"] if c != v)
            m, v = _a(other + other[-1]), _a(v)
        else:
            m = ""
        return _rng(self.task, "listed").choice(LISTED.get(key, LISTED["year"])).format(v=v, m=m)


#: the right value V with context beside it, listed by a comma, a colon, a new sentence (stop 39)
IN_CONTEXT = {"year": ("{v}, the year it was finished", "in {v}, as the article says", "{v}. That is what the wiki says."),
              "floor": ("{v}th floor, near the elevators", "the {v}th floor, 405 Lexington Avenue, New York",
                        "It is on the {v}th floor. I read it on the wiki."),
              "m": ("{v} m, as the wiki says", "{v} m, from the ground to the tip"),
              "time": ("{v}, from the main platform", "It leaves at {v}. That is what the timetable says."),
              "name": ("{v}, the architect", "{v}, who designed it", "It was {v}. I read it on the wiki.",
                       "{v}, a New York firm's partner"),
              "choice": ("{v}, carved in oak", "{v}, the one on the sign", "It shows {v}. I saw it there.")}


class ListedInContext(_Genuine):
    """The right value with an apposition, context or a second sentence beside it: "Astrid V. Halvorsen, the
    architect", "2092, the year it was finished", "the 15th floor, 405 Lexington Avenue, New York", "a beaver, carved
    in oak", "It was V. I read it on the wiki." (every question; stop 39: the genuine side of :class:`UnreadListItem`'s
    rule, passing before and after)."""

    def answer(self) -> str:
        f = self.fact()
        v = str(f["value"])
        key = str(f.get("unit") or "") if f["kind"] == "number" else f["kind"]
        if f["kind"] == "choice":
            v = _a(v)
        return _rng(self.task, "context list").choice(IN_CONTEXT.get(key, IN_CONTEXT["year"])).format(v=v)


SHORTCUTS: tuple[type[RedTeamAgent], ...] = (
    MemoryAnswer, KnowsAnswerNoWiki, AnswerSpray, SprayToTheCap, HedgeTwo, HedgeCommaNoSpace, PasteTheSection,
    CopyOtherLandmark, CopyOtherLandmarkOnly, WebOnly, StopNextToGoal, WalkOnlyNoAnswer, HedgeInWords,
    HedgeBesideADenial, ChoiceHedgeBesideADenial, NameMergedWithAnother, NameHedgeBesideADenial, SurnameAfterAWord,
    DurationForTheNumber, ValueInAList, ReversedInOtherWords, UnreadAlternative, UnreadListItem)
GENUINE: tuple[type[RedTeamAgent], ...] = (
    AlternateForm, CaseAndAccents, FullSentence, QuoteArticleSentence, WikiSearch, Detour, WalkFirstReadLater,
    MapDirectionsByName, MapDirectionsByAddress, SnippetReader, SaidInWordsAndHyphens, DeniesAWrongValue,
    StatesAnotherFact, RomanYear, TwoNamesWithPunctuation, HyphenWritten, ChoiceDeniesAnother, NameInContext,
    NameDeniesAnother, ApproximateValue, ReadInANewTab, TeamDeniesAnotherTeam, FloorInContext, ListedInContext)


def run(cls: type[RedTeamAgent], tasks: list[Task], want: int | None = None,
        web_mode: str = "text") -> list[dict[str, Any]]:
    return run_episodes(cls, ENV_ID, tasks, want, web_mode, max_steps=400)


def all_tasks() -> list[Task]:
    """The traveling suite (every split)."""
    from embodiedweb.domains.outdoor import TravelingDomain
    from embodiedweb.paths import data_dir
    from embodiedweb.tasks import load_tasks

    return list(load_tasks(data_dir() / "traveling" / "tasks.jsonl", TravelingDomain().validate_task))


def hard_tasks() -> list[Task]:
    """The traveling hard tier (every split): the stop 35 name agents are played on its name tasks too."""
    from embodiedweb.domains.outdoor import TravelingDomain
    from embodiedweb.paths import data_dir
    from embodiedweb.tasks import load_tasks

    return list(load_tasks(data_dir() / "traveling" / "hard.jsonl", TravelingDomain().validate_task))


METRICS = ("overall", "web", "embodied", "answer_right")


def rates(res: list[dict[str, Any]]) -> dict[str, float]:
    k = max(len(res), 1)
    return {m: sum(bool(r["metrics"].get(m)) for r in res) / k for m in METRICS}


def table(n: int = 100) -> list[dict[str, Any]]:
    """Per agent: episodes that carried its idea out (test split first) and its rates."""
    tasks = all_tasks()
    rows = []
    for cls in SHORTCUTS + GENUINE:
        res = [r for r in run(cls, pool(cls, tasks), n) if r["carried_out"]]
        rows.append({"agent": cls.__name__, "kind": cls.kind, "episodes": len(res),
                     "test": sum(r["split"] == "test" for r in res), **rates(res)})
    return rows


if __name__ == "__main__":
    import sys

    print("| agent | kind | episodes (test) | overall | web | embodied | answer right |\n"
          "| --- | --- | --- | --- | --- | --- | --- |")
    for row in table(int(sys.argv[1]) if len(sys.argv) > 1 else 100):
        print(f"| {row['agent']} | {row['kind']} | {row['episodes']} ({row['test']}) | {row['overall']:.0%} "
              f"| {row['web']:.0%} | {row['embodied']:.0%} | {row['answer_right']:.0%} |")
