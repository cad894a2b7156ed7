"""Heuristic agents for the outdoor domains. They read only observations: the instruction, the
map's directions page (numbered steps, the node and direction word of each turn, the end node), the
shop's and the wiki's pages, and the street text (neighbours with their direction words, headings,
distances and street names)."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from baselines.script import Plan, ScriptAgent, find_bid

COMPASS_OFFSET = 29.0  # the map's "north" is Manhattan's avenue direction
WORDS = {"north": 0.0, "east": 90.0, "south": 180.0, "west": 270.0}
_NB = re.compile(r"^- (\S+): .*?\(heading (\d+) deg, [+-]?\d+ deg from you\), (\d+) m along (.+)$")


def angle(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


def neighbours(text: str) -> list[tuple[str, float, float, str]]:
    out = []
    for line in text.splitlines():
        m = _NB.match(line.strip())
        if m:
            out.append((m.group(1), float(m.group(2)), float(m.group(3)), m.group(4)))
    return out


def parse_directions(web_text: str) -> tuple[list[tuple[str, float, float, str, str]], str | None, float | None]:
    """(legs, end node id, total metres) from a directions page's tree; a leg is (street, bearing, metres,
    turn label, turn node): the label the street text gives the street to take at the node where the leg
    starts ("" and "" on the first leg)."""
    legs = []
    for m in re.finditer(r"listitem '((?:Head|Turn|Bear|Continue)[^']*)'", web_text):
        s = m.group(1)
        mm = re.match(r"Head (\w+) on (.+) \(towards n\d+\) for ([\d.]+) (k?m)$", s) or \
            re.match(r".*? onto (.+?) \(([\w -]+) at (n\d+)\) and walk (\w+) for ([\d.]+) (k?m)$", s)
        if not mm:
            continue
        if s.startswith("Head"):
            word, street, num, unit = mm.groups()
            label = node = ""
        else:
            street, label, node, word, num, unit = mm.groups()
        metres = float(num) * (1000 if unit == "km" else 1)
        legs.append((street, (WORDS.get(word, 0.0) + COMPASS_OFFSET) % 360, metres, label, node))
    end = re.search(r"paragraph 'End: (n\d+)", web_text)
    total = re.search(r"Total distance: ([\d.]+) (k?m)", web_text)
    dist = float(total.group(1)) * (1000 if total.group(2) == "km" else 1) if total else None
    return legs, end.group(1) if end else None, dist


def labels(text: str) -> dict[str, str]:
    """Each neighbour's direction word from the street text ("- n12: ahead-left (heading ...")."""
    return {m.group(1): m.group(2) for m in re.finditer(r"^- (n\d+): ([\w -]+?) \(heading ", text, re.M)}


def here(embodied_text: str) -> str | None:
    m = re.match(r"You are at (n\d+)", embodied_text)
    return m.group(1) if m else None


def _open(hours: str, minute: int) -> bool:
    m = re.match(r"(\d+):(\d+) – (\d+):(\d+)", hours)
    if not m:
        return False
    a, b = int(m.group(1)) * 60 + int(m.group(2)), int(m.group(3)) * 60 + int(m.group(4))
    return a <= minute < b


class StreetHeuristic(ScriptAgent):
    """Shared skills: directions from the map, then walking them step by step on the street."""

    name = "heuristic"

    def start_place(self) -> str:
        m = re.match(r"You are at (.+?)\. ", self.obs["instruction"])
        return m.group(1) if m else ""

    def directions(self, to: str, origin: str | None = None) -> Plan:
        if self.obs["active"] != "web":
            yield "switch_environment [ask the map for directions]"
        yield "goto [/map/directions?" + urlencode({"from": origin or self.start_place(), "to": to}) + "]"

    def walk(self, max_moves: int = 400) -> Plan:
        legs, end, _ = parse_directions(self.obs["web_text"])
        if self.obs["active"] != "embodied":
            yield f"switch_environment [walk {len(legs)} legs to {end}]"
        moves = 0
        for k, (street, bearing, metres, label, node) in enumerate(legs):
            nxt_node = legs[k + 1][4] if k + 1 < len(legs) else None
            walked = 0.0
            prev: str | None = None
            if node and here(self.obs["embodied_text"]) == node:  # the turn the map names, by its label
                pick_id = next((n for n, w in labels(self.obs["embodied_text"]).items() if w == label), None)
                if pick_id is not None:
                    nb = next(n for n in neighbours(self.obs["embodied_text"]) if n[0] == pick_id)
                    prev = node
                    yield f"move [{pick_id}]"
                    moves += 1
                    walked += nb[2]
            while walked < metres - 6 and moves < max_moves:
                nbs = [n for n in neighbours(self.obs["embodied_text"]) if n[0] != prev]
                if not nbs or here(self.obs["embodied_text"]) in (end, nxt_node):
                    break
                on_street = [n for n in nbs if n[3] == street and angle(n[1], bearing) < 60]
                pick = min(on_street or nbs, key=lambda n: angle(n[1], bearing))
                prev = here(self.obs["embodied_text"])
                yield f"move [{pick[0]}]"
                moves += 1
                walked += pick[2]
        # the last metres: the destination node is often a neighbour
        for _ in range(3):
            if end is None or here(self.obs["embodied_text"]) == end:
                break
            nb = next((n for n in neighbours(self.obs["embodied_text"]) if n[0] == end), None)
            if nb is None:
                break
            yield f"move [{nb[0]}]"


class NavigationHeuristic(StreetHeuristic):
    """Directions to the place named in the instruction, walk them, stop."""

    def plan(self) -> Plan:
        m = re.search(r"Walk to (.+) \([^()]+\) and stop there", self.obs["instruction"])
        dest = m.group(1) if m else ""
        yield from self.directions(dest)
        yield from self.walk()
        yield "stop"


_STOP_WORDS = {"the", "a", "an", "of", "in", "on", "at", "is", "are", "to", "by", "its", "it", "and", "what", "which",
               "who", "whose", "how", "does", "do", "did", "was", "were", "be", "from", "this", "that", "with", "for"}
_NAME_WORD = r"(?:[A-Z][\w'’-]+|[A-Z]\.)"
_NAME_RUN = re.compile(_NAME_WORD + r"(?:\s+(?:(?:de|la|van|der|di|del|le|da|von|du|dos)\s+)*" + _NAME_WORD + ")*")


def content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.lower()) if w not in _STOP_WORDS and len(w) > 2}


def paragraphs(web_text: str) -> list[str]:
    """The text of each paragraph of a page's tree (a paragraph split by links is joined again)."""
    out: dict[str, list[str]] = {}
    for m in re.finditer(r"^\s*\[(\w+)\] (paragraph|StaticText) '((?:[^'\\]|\\.)*)'", web_text, re.M):
        out.setdefault(m.group(1), []).append(m.group(3).replace("\\'", "'"))
    return [" ".join(parts) for parts in out.values()]


def extract_answer(question: str, sentence: str) -> str:
    """The short answer a sentence gives to a question, by the question's form; the sentence itself when no
    rule fits (a sentence that states one fact is an answer)."""
    q = question.lower()
    rules = [("what time", r"\d{1,2}[:.]\d{2}\s*(?:[ap]\.?m\.?)?"),
             ("how long", r"\d+(?:\.\d+)?\s*(?:metres|meters|m|feet|ft)\b"),
             ("how tall", r"\d+(?:\.\d+)?\s*(?:metres|meters|m|feet|ft)\b"),
             ("which floor", r"\d+(?:st|nd|rd|th)\s+floor"),
             ("what year", r"\b\d{4}\b")]
    for cue, rx in rules:
        if cue in q:
            m = re.search(rx, sentence)
            return m.group(0) if m else sentence
    if q.startswith(("who", "whose")):
        names = [r for r in _NAME_RUN.findall(sentence) if not sentence.startswith(r)]
        if names:
            return " and ".join(names)
    return sentence


class TravelingHeuristic(StreetHeuristic):
    """Looks the landmark up with the wiki's search, opens its article, answers from the paragraph that
    shares the most words with the question (the time, length, floor, year or names in it; else the whole
    sentence), then walks there by the map's directions and stops with that answer."""

    def plan(self) -> Plan:
        instr = self.obs["instruction"]
        m = re.search(r"Walk to (.+?) and stop there", instr)
        name = m.group(1) if m else ""
        q = re.search(r"wiki article: (.+?) Answer with", instr) or re.search(r"question: (.+?) Answer with", instr)
        question = q.group(1) if q else instr
        yield "switch_environment [look it up on the wiki]"
        yield "goto [/wiki/search?" + urlencode({"q": name}) + "]"
        link = find_bid(self.obs["web_text"], "link", name)
        if link:
            yield f"click [{link}]"
        want = content_words(question) - content_words(name)
        best = max(paragraphs(self.obs["web_text"]), key=lambda p: len(want & content_words(p)), default="")
        answer = extract_answer(question, best) if want & content_words(best) else ""
        yield from self.directions(name)
        yield from self.walk()
        yield f"stop [{answer}]"


class ShoppingHeuristic(StreetHeuristic):
    """Reads the product's offers (in stock only), and what the rule needs: walking distances on the map
    (from here or from a named place), listed prices, opening hours on the store pages; orders for
    pickup at the chosen store, walks there and stops."""

    def plan(self) -> Plan:
        instr = self.obs["instruction"]
        m = re.search(r"buy one (.+?)(?: \(([^)]*)\))? at the (.+?); choose", instr)
        if not m:
            yield "stop"
            return
        product, opts, rule = m.group(1), m.group(2) or "", m.group(3)
        yield from self.open_product(product)
        offers = self.read_offers()
        if not offers:
            yield "stop"
            return
        stores = list(offers)
        limit = re.search(r"at most \$([\d.]+)", rule)
        if limit:
            stores = [s for s in stores if offers[s] <= float(limit.group(1))] or stores
        when = re.search(r"it is (\w+day), (\d+):(\d+) (am|pm)", rule)
        if when:
            minute = (int(when.group(2)) % 12 + (12 if when.group(4) == "pm" else 0)) * 60 + int(when.group(3))
            is_open = {}
            for store in stores:
                hours = yield from self.store_hours(product, store, when.group(1))
                is_open[store] = _open(hours, minute)
            stores = [s for s in stores if is_open[s]] or stores
        place = re.search(r"nearest to (.+?), by walking distance from there|walk of (.+)$", rule)
        named = (place.group(1) or place.group(2)) if place else None
        origin = named if named and not named.startswith("where you are") else self.start_place()
        choice = min(stores, key=lambda s: offers[s])
        if "nearest" in rule or "within" in rule:
            dist = {}
            for store in stores:
                yield from self.directions(store, origin)
                _, _, d = parse_directions(self.obs["web_text"])
                if d is not None:
                    dist[store] = d
            if "nearest" in rule and dist:
                choice = min(dist, key=lambda s: dist[s])
            elif dist:
                r = re.search(r"within a (\d+) m walk", rule)
                radius = float(r.group(1)) if r else 1e9
                inside = [s for s in dist if dist[s] <= radius]
                if inside:
                    choice = min(inside, key=lambda s: offers[s])
        yield from self.open_product(product)
        yield from self.order(choice, opts)
        yield from self.directions(choice)
        yield from self.walk()
        yield "stop"

    def store_hours(self, product: str, store: str, day: str) -> Plan:
        """The opening hours of ``store`` on ``day`` as shown on its page ("08:00 – 21:00" or "Closed")."""
        yield from self.open_product(product)
        link = find_bid(self.obs["web_text"], "link", store)
        if link is None:
            return ""
        yield f"click [{link}]"
        m = re.search(rf"cell '{day}'\n\s*\[\d+\] cell '([^']*)'", self.obs["web_text"])
        return m.group(1) if m else ""  # type: ignore[return-value]

    def open_product(self, product: str) -> Plan:
        if self.obs["active"] != "web":
            yield "switch_environment"
        yield "goto [/shop/search?" + urlencode({"q": product}) + "]"
        link = find_bid(self.obs["web_text"], "link", product)
        if link:
            yield f"click [{link}]"

    def read_offers(self) -> dict[str, float]:
        out = {}
        for m in re.finditer(r"link '([^']+)'\n\s*\[\d+\] cell '[^']*'\n\s*\[\d+\] cell '\$([\d.]+)'\n\s*\[\d+\] cell "
                             r"'In stock'", self.obs["web_text"]):
            out[m.group(1)] = float(m.group(2))
        return out

    def order(self, store: str, opts: str) -> Plan:
        text = self.obs["web_text"]
        sel = find_bid(text, "combobox", "Store")
        if sel:
            yield f"type [{sel}] [{store}]"
        for part in [p.strip() for p in opts.split(",") if ":" in p]:
            label, value = [x.strip() for x in part.split(":", 1)]
            box = find_bid(self.obs["web_text"], "combobox", label)
            opt = re.search(rf"option '({re.escape(value)}[^']*)'", self.obs["web_text"])
            if box and opt:
                yield f"type [{box}] [{opt.group(1)}]"
        add = find_bid(self.obs["web_text"], "button", "Add to cart")
        if add:
            yield f"click [{add}]"
        yield "goto [/shop/cart]"
        text = self.obs["web_text"]
        button = find_bid(text, "button", f"Check out at {store}")
        radios = []
        i = 0
        while (b := find_bid(text, "radio", "Pick up in store", nth=i)) is not None:
            radios.append(b)
            i += 1
        if button:
            before = [r for r in radios if int(r) < int(button)]
            if before:
                yield f"click [{before[-1]}]"
            yield f"click [{button}]"
