"""A heuristic geolocation agent that does not know the answer (for EWA-Geolocation-v0).

It works only from observations (``obs["embodied_text"]``, ``obs["web_text"]``, ``info``):

1. reads the views: sentences (driving side, plates, line colours, bollards, poles, the sun, ...) and the
   quoted sign texts (scripts by Unicode character names, letters, words, phone numbers, web addresses);
2. walks to every viewpoint it can reach (breadth-first, at most ``max_moves`` steps);
3. switches to the web and reads the wiki's cue articles (found with the wiki search) for the kinds of
   cue it saw: every list entry ``<cue>: <countries>`` whose cue matches what it saw votes for those
   countries, weighted by how specific the entry is (``log(1 + N / k)`` for ``k`` of ``N`` countries;
   phone codes and web domains count triple); when the best two countries are close, the two country
   articles decide (signs they mention);
4. reads the best country's article for its continent and cities (with local names and coordinates);
5. researches the city: every sign text that is not a common word of the "Words on shop and street
   signs" article (a brand on a shop sign, a bus stop's emblem, a dish on a menu board) is searched on
   the wiki and the result whose title the sign contains is opened; each city of the country that the
   article names gets a vote (split when it names several);
6. answers ``stop [lat, lng; continent; country; city; street]`` with the city with most votes (the
   capital when nothing was found), its coordinates, and the street sign it read.

Without the web (the passive setting) it has nothing to map cues to places and answers what it can
(nothing). Class for the agent registry: ``baselines.geo_heuristic:GeoHeuristic`` (name ``heuristic``).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import deque

from baselines.script import Plan, ScriptAgent, find_bid

STOP = {"a", "an", "the", "is", "are", "in", "of", "at", "its", "it", "with", "and", "to", "on", "this", "there",
        "be", "near", "or", "by", "from", "along", "into"}
NO_SPACE_SCRIPTS = ("CJK", "HIRAGANA", "KATAKANA", "THAI", "HANGUL")
ARTICLES = {  # what to look up on the wiki (search words, expected title) and when
    "continents": ("countries by continent", "List of countries by continent"),
    "traffic": ("driving side", "Driving side by country"),
    "plate": ("licence plates", "Vehicle registration plates by country"),
    "line": ("road markings", "Road markings by country"),
    "script": ("writing systems", "Writing systems"),
    "words": ("words on signs", "Words on shop and street signs"),
    "cities": ("major cities by country", "Major cities by country"),
    "phone": ("telephone country codes", "Telephone country codes"),
    "domain": ("country code top-level domains", "Country code top-level domains"),
    "sun": ("position of the sun", "Position of the Sun"),
    "bollard": ("roadside bollards", "Roadside bollards"),
    "pole": ("utility poles", "Utility poles"),
}


def _stem(w: str) -> str:
    w = w.lower()
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w


def words(s: str) -> set[str]:
    return {_stem(w) for w in re.findall(r"\w+", s)} - STOP


def word_list(s: str) -> list[str]:
    return [w for w in (_stem(w) for w in re.findall(r"\w+", s)) if w not in STOP]


def in_order(key: list[str], sentence: list[str]) -> bool:
    """Whether the key's words occur in the sentence in the same order (gaps allowed)."""
    it = iter(sentence)
    return all(any(w == x for x in it) for w in key)


def slugify(s: str) -> str:
    s = unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-")


def page_texts(web_text: str) -> list[str]:
    """The text of every element line of an accessibility tree (``[id] role 'name'``)."""
    out = []
    for m in re.finditer(r"^\s*\[\w+\] (\w+) '((?:[^'\\]|\\.)*)'", web_text, re.M):
        out.append(m.group(2).replace("\\'", "'").replace("\\\\", "\\"))
    return out


def scripts_of(text: str) -> set[str]:
    out = set()
    for ch in text:
        if not ch.isalpha():
            continue
        try:
            name = unicodedata.name(ch)
        except ValueError:
            continue
        head = name.split()[0].split("-")[0].lower()
        out.add("chinese" if head == "cjk" else head)
    return out


def no_space(text: str) -> bool:
    return any(unicodedata.name(c, "").startswith(NO_SPACE_SCRIPTS) for c in text)


def phrase_in(item: str, text: str) -> bool:
    if not item:
        return False
    if no_space(item):
        return item in text
    return re.search(rf"(?<!\w){re.escape(item)}(?!\w)", text, re.I) is not None


class Observations:
    """Everything read from the views so far."""

    def __init__(self) -> None:
        self.sentences: list[str] = []  # without quoted parts
        self.signs: list[tuple[str, str]] = []  # (kind, text)
        self.adjacent: dict[str, list[str]] = {}
        self.visited: set[str] = set()
        self.here = ""
        self.can_move = False

    def read(self, text: str) -> None:
        m = re.search(r"viewpoint (\S+?),", text)
        self.here = m.group(1) if m else self.here
        self.visited.add(self.here)
        m = re.search(r"^Adjacent viewpoints: (.*)$", text, re.M)
        self.can_move = bool(m)
        if m:
            self.adjacent[self.here] = re.findall(r"(\S+) \((?:north|east|south|west)", m.group(1))
        for line in text.splitlines():
            if not line.startswith("Looking "):
                continue
            body = line.split(": ", 1)[1] if ": " in line else ""
            for sm in re.finditer(r'([^."]*(?:"[^"]*"[^."]*)*)\.', body):
                sent = sm.group(1).strip()
                if not sent:
                    continue
                quoted = re.findall(r'"([^"]*)"', sent)
                bare = re.sub(r'"[^"]*"', " ", sent)
                if bare not in self.sentences:
                    self.sentences.append(bare)
                kind = ("phone" if "phone" in bare else "domain" if "web address" in bare else
                        "street" if "street-name" in bare else "hotel" if "hotel sign" in bare else
                        "transit" if "emblem" in bare else "menu" if "menu board" in bare else "sign")
                for q in quoted:
                    if (kind, q) not in self.signs:
                        self.signs.append((kind, q))

    @property
    def sign_texts(self) -> list[str]:
        return [t for _, t in self.signs]

    def has_code_hint(self) -> bool:
        return any(k in ("phone", "domain") for k, _ in self.signs)

    def has_place_sign(self) -> bool:
        return any(k in ("street", "hotel") for k, _ in self.signs)

    def sure(self, use_codes: bool = True) -> bool:
        """Enough seen to stop walking: a country code (phone or web address) and a street or hotel name."""
        return use_codes and self.has_code_hint() and self.has_place_sign()

    def cue_kinds(self) -> list[str]:
        blob = " ".join(self.sentences).lower()
        kinds = ["continents"]
        if "cars keep" in blob:
            kinds.append("traffic")
        if "licence plate" in blob:
            kinds.append("plate")
        if "line run" in blob or "lines run" in blob:
            kinds.append("line")
        if self.signs:
            kinds += ["script", "words", "cities"]
        if any(k == "phone" for k, _ in self.signs):
            kinds.append("phone")
        if any(k == "domain" for k, _ in self.signs):
            kinds.append("domain")
        if "the sun" in blob:
            kinds.append("sun")
        if "roadside post" in blob:
            kinds.append("bollard")
        if "utility pole" in blob:
            kinds.append("pole")
        return kinds

    def path_to_unvisited(self) -> list[str] | None:
        """Adjacent steps from here to the nearest viewpoint not yet visited (breadth-first)."""
        start = self.here
        prev: dict[str, str | None] = {start: None}
        q = deque([start])
        while q:
            n = q.popleft()
            if n not in self.visited:
                path = []
                while n != start:
                    path.append(n)
                    n = prev[n]  # type: ignore[assignment]
                return path[::-1]
            for nb in self.adjacent.get(n, []):
                if nb not in prev:
                    prev[nb] = n
                    q.append(nb)
        return None


class Knowledge:
    """Cue lists read from wiki articles: entries ``(key, countries)``, continents, country articles."""

    def __init__(self, use_codes: bool = True) -> None:
        self.use_codes = use_codes
        self.countries: list[str] = []
        self.continent: dict[str, str] = {}
        self.entries: list[tuple[str, list[str], str]] = []  # (key, countries, article)
        self.read: set[str] = set()
        self.country_pages: dict[str, list[str]] = {}

    def add_continents(self, texts: list[str]) -> None:
        for t in texts:
            m = re.match(r"^(Africa|Asia|Europe|North America|South America|Oceania|Antarctica): (.+)\.$", t)
            if m:
                names = re.split(r", | and ", m.group(2))
                for n in names:
                    n = n.strip()
                    if n and n not in self.countries:
                        self.countries.append(n)
                        self.continent[n] = m.group(1)
        self.countries.sort(key=len, reverse=True)

    def names_in(self, text: str) -> list[str]:
        found = []
        rest = text
        for n in self.countries:  # longest first, so "South Korea" is not read as "Korea"
            if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", rest):
                found.append(n)
                rest = re.sub(rf"(?<!\w){re.escape(n)}(?!\w)", " ", rest)
        return found

    def add_article(self, kind: str, texts: list[str]) -> None:
        for t in texts:
            if ": " not in t:
                continue
            key, tail = t.split(": ", 1)
            tail = re.sub(r"\([^)]*\)", " ", tail)
            cs = self.names_in(tail)
            if cs and len(key) < 200:
                self.entries.append((key.strip(), cs, kind))

    # ------------------------------------------------------------------ scoring
    def score(self, obs: Observations) -> tuple[dict[str, float], list[str]]:
        n = max(1, len(self.countries))
        scores = {c: 0.0 for c in self.countries}
        why: list[str] = []
        sent_words = [word_list(s) for s in obs.sentences]
        signs = obs.sign_texts
        sign_chars = {c for s in signs for c in s if ord(c) > 127 and c.isalpha()}
        sign_scripts = set().union(*(scripts_of(s) for s in signs)) if signs else set()
        phones = {m.group(1) for s in signs for m in re.finditer(r"\+(\d{1,4})\b", s)}
        hosts = [h.lower() for s in signs for h in re.findall(r"\b(?:www\.)?[\w-]+(?:\.[\w-]+)+\b", s) if "." in h]
        for key, cs, kind in self.entries:
            if kind == "continents" or (not self.use_codes and kind in ("phone", "domain")):
                continue
            w = math.log(1 + n / len(cs))
            hit = ""
            kl = key.lower()
            if re.fullmatch(r"\+\d+", key):
                hit = "phone" if key[1:] in phones else ""
                w *= 3
            elif re.fullmatch(r"\.[a-z]{2,}", key):
                hit = "domain" if any(h.endswith(key) for h in hosts) else ""
                w *= 3
            elif kl.startswith(("letter ", "letters ", "character ", "characters ")):
                chars = {c for c in key.split(" ", 1)[1] if ord(c) > 127 and c.isalpha()}
                hit = "letter" if chars & sign_chars else ""
            elif any(k in kl for k in ("script", "alphabet", "characters", "kana", "hangul")) and kind == "script":
                hit = "script" if words(kl) & sign_scripts else ""
            if not hit:
                kw = word_list(re.sub(r"\([^)]*\)", " ", key))
                if len(kw) >= 3 and any(in_order(kw, sw) for sw in sent_words):
                    hit = "cue"
            if not hit and kind in ("words", "cities"):
                items = [i.strip() for i in re.split(r",|\(|\)| and ", key) if i.strip()]
                if any(phrase_in(i, s) for i in items if not i.isdigit() and (len(i) >= 3 or no_space(i))
                       for s in signs):
                    hit = "name"
            if hit:
                for c in cs:
                    scores[c] += w
                why.append(f"{hit}: {key[:60]} -> {', '.join(cs[:4])}{'...' if len(cs) > 4 else ''}")
        return scores, why


class GeoHeuristic(ScriptAgent):
    """See module docstring."""

    name = "heuristic"

    def __init__(self, max_moves: int = 10, margin: float = 2.0, use_codes: bool = True) -> None:
        super().__init__()
        self.use_codes = use_codes
        self.max_moves = max_moves
        self.margin = margin
        self.trace: list[str] = []

    # ------------------------------------------------------------------ helpers
    def web_available(self) -> bool:
        return "switch_environment" in self.info.get("admissible_actions", []) or self.obs.get("active") == "web"

    def to(self, where: str) -> Plan:
        if self.obs.get("active") != where:
            yield f"switch_environment [{'research the cues' if where == 'web' else 'look around more'}]"

    def explore(self, obs: Observations, budget: int) -> Plan:
        moved = 0
        while moved < budget and obs.can_move:
            path = obs.path_to_unvisited()
            if not path or moved + len(path) > budget:
                return
            for step in path:
                yield f"move [{step}]"
                moved += 1
                obs.read(self.obs["embodied_text"])

    def open_article(self, query: str, title: str) -> Plan:
        yield f"goto [/wiki/search?q={query}]"
        bid = find_bid(self.obs["web_text"], "link", title)
        if bid is None:
            bid = find_bid(self.obs["web_text"], "link", title, exact=False)
        if bid is not None:
            yield f"click [{bid}]"
        else:
            yield f"goto [/wiki/article/{slugify(title)}]"

    def research(self, obs: Observations, kb: Knowledge) -> Plan:
        yield from self.to("web")
        for kind in obs.cue_kinds():
            if kind in kb.read:
                continue
            query, title = ARTICLES[kind]
            yield from self.open_article(query, title)
            texts = page_texts(self.obs["web_text"])
            kb.read.add(kind)
            if kind == "continents":
                kb.add_continents(texts)
            kb.add_article(kind, texts)

    def country_page(self, kb: Knowledge, country: str) -> Plan:
        if country in kb.country_pages:
            return
        yield from self.open_article(country, country)
        kb.country_pages[country] = page_texts(self.obs["web_text"])

    # ------------------------------------------------------------------ plan
    def plan(self) -> Plan:
        obs = Observations()
        kb = Knowledge(self.use_codes)
        obs.read(self.obs["embodied_text"])
        moves_left = self.max_moves
        before = len(obs.visited)
        yield from self.explore(obs, moves_left)
        moves_left -= len(obs.visited) - before
        if not self.web_available():
            yield "stop [" + self.answer(obs, kb, None) + "]"
            return
        yield from self.research(obs, kb)
        for _ in range(3):
            scores, why = kb.score(obs)
            ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
            close = len(ranked) > 1 and ranked[0][1] - ranked[1][1] < self.margin
            if not close or not obs.can_move or moves_left <= 0 or obs.path_to_unvisited() is None:
                break
            yield from self.to("embodied")
            n0 = len(obs.visited)
            yield from self.explore(obs, min(2, moves_left))
            moves_left -= max(1, len(obs.visited) - n0)
            yield from self.research(obs, kb)
        scores, why = kb.score(obs)
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
        self.trace = why
        best = ranked[0][0] if ranked and ranked[0][1] > 0 else None
        if best is not None and len(ranked) > 1 and ranked[0][1] - ranked[1][1] < self.margin:
            # close call: let the two country articles decide (signs they mention)
            pair = [ranked[0][0], ranked[1][0]]
            for c in pair:
                yield from self.country_page(kb, c)
            bonus = {c: self.page_support(kb.country_pages[c], obs) for c in pair}
            best = max(pair, key=lambda c: (scores[c] + bonus[c], c == ranked[0][0]))
        votes: dict[str, float] = {}
        if best is not None:
            yield from self.country_page(kb, best)
            votes = yield from self.city_research(obs, kb, best)
        yield "stop [" + self.answer(obs, kb, best, votes) + "]"

    # ------------------------------------------------------------------ the city
    @staticmethod
    def cities_of(texts: list[str]) -> list[tuple[str, str, float, float]]:
        """(name, local name, lat, lng) of the cities a country article lists; the capital first."""
        cities: list[tuple[str, str, float, float]] = []
        for t in texts:
            m = re.match(r"The capital is (.+?) \((-?\d+\.\d+), (-?\d+\.\d+)\)", t)
            if m:
                cities.insert(0, (m.group(1), "", float(m.group(2)), float(m.group(3))))
                continue
            m = re.match(r"(.+?) \((?:(.+?); )?(-?\d+\.\d+), (-?\d+\.\d+)\) is a major city", t)
            if m:
                cities.append((m.group(1), m.group(2) or "", float(m.group(3)), float(m.group(4))))
        return cities

    def open_titled(self, query: str, title_in: str) -> Plan:
        """Search the wiki for ``query`` and open the first result whose title ``title_in`` contains."""
        yield f"goto [/wiki/search?q={query}]"
        for m in re.finditer(r"^\s*\[(\w+)\] link '((?:[^'\\]|\\.)*)'", self.obs["web_text"], re.M):
            title = m.group(2).replace("\\'", "'")
            if len(title) >= 3 and phrase_in(title, title_in):
                yield f"click [{m.group(1)}]"
                return

    def city_research(self, obs: Observations, kb: Knowledge, country: str):  # -> Plan returning votes
        names = [c[0] for c in self.cities_of(kb.country_pages.get(country, []))]
        votes: dict[str, float] = {}
        common = {k for k, _cs, kind in kb.entries if kind == "words"}
        queries: list[str] = []
        for kind, text in obs.signs:
            if kind in ("sign", "transit", "menu", "hotel"):
                rest = " ".join(w for w in text.split() if w not in common).strip()
                if rest and rest not in common and rest not in queries:
                    queries.append(rest)
        for q in queries[:6]:
            yield from self.open_titled(q, q)
            if "/wiki/article/" not in self.obs.get("web_url", ""):
                continue
            blob = "\n".join(page_texts(self.obs["web_text"]))
            named = [n for n in names if phrase_in(n, blob)]
            for n in named:
                votes[n] = votes.get(n, 0.0) + 1.0 / len(named)
        return votes

    @staticmethod
    def page_support(texts: list[str], obs: Observations) -> float:
        blob = "\n".join(texts)
        hits = 0.0
        for s in obs.sign_texts:
            parts = [p for p in re.split(r"\s+/\s+|\s+", s) if len(p) >= 4 or no_space(p)]
            if any(phrase_in(p, blob) for p in parts):
                hits += 1.0
        return hits

    def answer(self, obs: Observations, kb: Knowledge, country: str | None,
               votes: dict[str, float] | None = None) -> str:
        if country is None:
            return "; ; ; ; "
        cities = self.cities_of(kb.country_pages.get(country, []))
        city, lat, lng = (cities[0][0], cities[0][2], cities[0][3]) if cities else ("", None, None)
        if votes:
            best = max(sorted(votes), key=lambda c: votes[c])
            city, lat, lng = next(((n, la, ln) for n, _l, la, ln in cities if n == best), (best, None, None))
        street_signs = [t for k, t in obs.signs if k == "street"]
        street = street_signs[0].split(" / ")[0] if street_signs else ""
        cont = kb.continent.get(country, "")
        ll = f"{lat:.3f}, {lng:.3f}" if lat is not None else ""
        return f"{ll}; {cont}; {country}; {city}; {street}"
