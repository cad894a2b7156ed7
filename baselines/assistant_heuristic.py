"""A heuristic for EWA-Assistant-v0 that reads only observations: the current ``instruction``, the
``dialogue``, the web page's tree, the tab list (``web_tabs``) and the embodied text (the kitchen's scene, or
the street view on an outing).

Each instruction's intent is classified by cue words (:func:`intent`: "two" + tabs, "back" + "first"/"higher",
"which" + "fewer"/"less time"/"more", an order verb + a kitchen place, "same store", "first" + "order",
"quickest"/"fastest" + recipe + place, put/move/take + two places, "in view"/"you can see" + a kind,
"year"/"when" + built/opened, "architect"/"designed", walk/take me, back + start/began), not by one phrasing
each, and its slots are filled with general patterns (the diet, difficulty and food words, the places named,
the product after "one"/"a" checked against the shop's results, the kind before "you can see"). It is carried
out through the public actions; what earlier turns did is remembered (the tabs opened and the recipes they
show, the products ordered and their store, the place singled out in the street, the start node), so that
later turns can refer to it. On an outing, the place of the kind asked about is found by looking the places
the street view lists up on the map (its category), facts come from the place's wiki article (infobox),
walks follow the map's directions (:class:`~baselines.street_heuristic.StreetHeuristic`). A turn it cannot
parse or carry out still ends with ``done`` and the next one follows. No privileged information: no task
goal, catalog or semantic state."""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import urlencode

from baselines.kitchen_skills import parse_scene
from baselines.script import Plan, find_bid
from baselines.street_heuristic import StreetHeuristic, here, parse_directions

#: food types a place can hold ("the food on the dining table")
FOODS = ("Apple", "Bread", "Egg", "Lettuce", "Potato", "Tomato")
#: the shop category each food is sold in
FOOD_CATEGORY = {"Apple": "Produce", "Bread": "Bakery", "Egg": "Dairy & Eggs", "Lettuce": "Produce",
                 "Potato": "Produce", "Tomato": "Produce"}
#: receptacle words of the user's phrases
PLACE_TYPES = {"fridge": "Fridge", "dining table": "DiningTable", "sink": "SinkBasin", "counter": "CounterTop",
               "microwave": "Microwave"}
#: objects the user names to single out a counter ("the counter where the knife is")
MARKERS = {"knife": "Knife", "salt shaker": "SaltShaker", "pepper shaker": "PepperShaker", "saucepan": "Pot",
           "pot": "Pot", "pan": "Pan", "frying pan": "Pan", "ladle": "Ladle", "cup": "Cup", "kettle": "Kettle", "mug": "Mug",
           "spatula": "Spatula", "toaster": "Toaster", "coffee machine": "CoffeeMachine", "bowl": "Bowl",
           "plate": "Plate", "soap bottle": "SoapBottle", "dish sponge": "DishSponge"}
#: the recipe site's equipment filter: the word a user says -> the filter's value
EQUIPMENT = {"knife": "Knife", "frying pan": "Pan", "saucepan": "Pot", "pot": "Pot", "pan": "Pan", "stove": "StoveBurner",
             "microwave": "Microwave", "toaster": "Toaster", "plate": "Plate", "bowl": "Bowl"}
_TAB = re.compile(r"^Tab (\d+).*? — (\S+)$", re.M)
_ITEM = re.compile(r"^\s*\[(\w+)\] (\S+) '((?:[^'\\]|\\.)*)'", re.M)


def tree_items(web_text: str) -> list[tuple[str, str, str]]:
    """(bid, role, name) of every element of a page's tree, in order."""
    return [(m.group(1), m.group(2), m.group(3).replace("\\'", "'")) for m in _ITEM.finditer(web_text)]


def search_results(web_text: str) -> list[tuple[str, str, int | None]]:
    """(link bid, recipe name, minutes) of each result on a recipe search page."""
    out: list[tuple[str, str, int | None]] = []
    inside = False
    for bid, role, name in tree_items(web_text):
        if role == "list" and name == "Search results":
            inside = True
        elif inside and role == "navigation":
            break
        elif inside and role == "link":
            out.append((bid, name, None))
        elif inside and role == "paragraph" and out and out[-1][2] is None:
            m = re.search(r"· (\d+) min$", name)
            if m:
                out[-1] = (out[-1][0], out[-1][1], int(m.group(1)))
    return out


def recipe_facts(web_text: str) -> tuple[str, int | None, int | None]:
    """(name, minutes, steps) of a recipe overview page."""
    head = re.search(r"heading '((?:[^'\\]|\\.)*)' level=1", web_text)
    t = re.search(r"cell '(\d+) minutes'", web_text)
    s = re.search(r"columnheader 'Steps'\s*\n\s*\[\w+\] cell '(\d+)'", web_text)
    return (head.group(1).replace("\\'", "'") if head else "", int(t.group(1)) if t else None,
            int(s.group(1)) if s else None)


def places_in(text: str) -> list[tuple[str, str | None]]:
    """Every kitchen place a phrase names, in order: (receptacle type, marker type or None); "the counter
    where the knife is" singles out a counter by an object on it."""
    out: list[tuple[str, str | None]] = []
    words = "|".join(PLACE_TYPES)
    for m in re.finditer(rf"\b(?:in|on|into|onto|at|from) the ({words})\b(?: where the ([a-z ]+?) is\b)?", text.lower()):
        out.append((PLACE_TYPES[m.group(1)], MARKERS.get(m.group(2) or "")))
    return out


def place_of(phrase: str) -> tuple[str, str | None]:
    """(receptacle type, marker type or None) of the first place a phrase names ("", None when none)."""
    got = places_in(phrase)
    return got[0] if got else ("", None)


def has(text: str, *cues: str) -> bool:
    """Whether any cue (a word or phrase, whole words) occurs in the lower-cased text."""
    return any(re.search(rf"\b{re.escape(c)}\b", text) for c in cues)


def words_of(text: str, vocab: tuple[str, ...]) -> list[str]:
    """The vocabulary words the text uses, in vocabulary order."""
    return [w for w in vocab if re.search(rf"(?<![\w-]){re.escape(w.lower())}(?![\w-])", text.lower())]


#: what ends a product's name in a request ("one Rice, 2 lb from the same store", "a Tea while you're at it")
_PRODUCT_END = re.compile(r"\s+(?:from|at|while|for|in)\s|,\s*(?:please|same|from|for|and|too)\b|[;?!]|\.\s|\.$")
DIETS = ("vegetarian", "vegan", "gluten-free")
LEVELS = ("easy", "medium", "hard")


def product_candidates(text: str) -> list[str]:
    """Product names a request may mean: the words after "one" / "a" / "an" up to a connector."""
    out = []
    for m in re.finditer(r"\b(?:one|an?)\s+(?!more\b|unit\b|last\b|of\b)(\S.*)", text, re.I):
        rest = m.group(1)
        cut = _PRODUCT_END.search(rest)
        name = (rest[:cut.start()] if cut else rest).strip(" ,.")
        if name and name not in out:
            out.append(name)
    return out


def intent(text: str) -> str:
    """The kind of a user's instruction, from its cue words (not from any one phrasing)."""
    t = text.lower()
    places = places_in(t)
    ordering = has(t, "order", "ordered", "buy", "bought", "get", "reorder", "purchase")
    in_sight = has(t, "you can see", "in view", "in sight", "visible", "you see")
    if has(t, "first", "earliest") and has(t, "order", "ordered") and not has(t, "two", "tab", "tabs"):
        return "recall"
    if has(t, "same store", "that store", "same shop", "as last time"):
        return "same_store"
    if has(t, "quickest", "fastest", "shortest", "least time") and has(t, "recipe", "recipes") and places:
        return "quickest"
    if has(t, "which", "name", "tell me") and has(t, "fewer", "less time", "less", "quicker", "faster", "more",
                                                  "longer", "slower") and not places:
        return "compare"
    if has(t, "back", "again", "return", "switch") and has(t, "first", "higher", "top", "earlier") and \
            not has(t, "start", "started", "starting", "began", "begin"):
        return "focus"
    if has(t, "two") and (has(t, "tab", "tabs") or has(t, "open")) and words_of(t, DIETS):
        return "open_two"
    if len(places) >= 2 and has(t, "put", "move", "take", "place", "bring"):
        return "move"
    if places and (ordering or has(t, "one more", "another", "running low", "out of")):
        return "order_food"
    if has(t, "year", "when") and has(t, "built", "opened", "completed", "open", "build"):
        return "fact_year"
    if has(t, "architect", "designed", "design"):
        return "fact_architect"
    if ordering and in_sight:
        return "order_seen"
    if in_sight and has(t, "called", "name", "named"):
        return "name_seen"
    if has(t, "back") and has(t, "start", "started", "starting", "began", "begin", "beginning"):
        return "go_back"
    if has(t, "walk", "take me", "go there", "over there", "head", "lead", "bring me") or \
            (has(t, "go") and has(t, "there", "it")):
        return "walk_there"
    return ""


class AssistantHeuristic(StreetHeuristic):
    """See module docstring."""

    name = "heuristic"

    def plan(self) -> Plan:
        #: the two recipes the last open-two turn opened: (url, name, minutes, steps), in result order
        self.opened: list[tuple[str, str, int | None, int | None]] = []
        #: products ordered: (name, store name), in order
        self.orders: list[tuple[str, str]] = []
        #: what looking showed: place type/marker -> (place id, food type, food object ids)
        self.found: dict[tuple[str, str | None], tuple[str, str, list[str]]] = {}
        self.counters: set[str] = set()
        #: outings: the street node the episode started at, and the place the last turn singled out
        self.start_node = here(self.obs.get("embodied_text", ""))
        self.place = ""
        while True:
            text = self.obs.get("instruction", "")
            answer = yield from self.turn(text)
            yield f"done [{answer}]" if answer else "done"

    def turn(self, text: str) -> Plan:
        """One instruction by its intent (cue words) and slots; returns the answer (if it asks a question)."""
        kind = intent(text)
        t = text.lower()
        if kind == "recall":
            return self.orders[0][0] if self.orders else ""
        if kind == "same_store":
            yield from self.order_named(text, self.orders[-1][1] if self.orders else "")
            return ""
        if kind == "quickest":
            yield from self.quickest(words_of(t, (*DIETS, *LEVELS)), text)
            return ""
        if kind == "compare":
            return self.compare("steps" if has(t, "steps", "step") else "time", has(t, "more", "longer", "slower"))
        if kind == "focus":
            yield from self.focus_first()
            return ""
        if kind == "open_two":
            diet = words_of(t, DIETS)
            food = words_of(t, FOODS)
            yield from self.open_two(diet[-1], food[0] if food else "")
            return ""
        if kind == "move":
            yield from self.move(text)
            return ""
        if kind == "order_food":
            yield from self.order_food(text, "kitchen" if has(t, "deliver", "delivery", "delivered") and
                                       not has(t, "pick", "pickup") else "pickup")
            return ""
        if kind in ("name_seen", "order_seen"):
            self.place = (yield from self.place_in_sight(text)) or ""
            if kind == "name_seen":
                return self.place
            yield from self.order_named(text, self.place)
            return ""
        if kind in ("fact_year", "fact_architect"):
            return (yield from self.wiki_fact(self.place, kind, t))
        if kind == "walk_there":
            if self.place:
                yield from self.walk_to(self.place)
            return ""
        if kind == "go_back":
            if self.start_node:
                yield from self.walk_to(self.start_node)
            return ""
        return ""

    # ------------------------------------------------------------------------------ helpers
    def switch(self, to: str, message: str = "") -> Plan:
        if self.obs["active"] != to:
            yield f"switch_environment [{message}]" if message else "switch_environment"

    def active_tab(self) -> int:
        m = re.search(r"^Tab (\d+) \(active\)", self.obs.get("web_tabs", ""), re.M)
        return int(m.group(1)) if m else 0

    # ------------------------------------------------------------------------------ recipes
    def open_two(self, diet: str, ingredient: str) -> Plan:
        """Search, then each of the first two results in a new tab (its page read for the comparison)."""
        yield from self.switch("web", f"search {diet} recipes with {ingredient}")
        url = "/recipes/search?" + urlencode([("q", ""), ("diet", diet.lower()), ("ingredient", ingredient.capitalize())])
        self.opened = []
        for k in range(2):
            yield "new_tab"
            yield f"goto [{url}]"
            hits = search_results(self.obs["web_text"])
            if len(hits) <= k:
                return
            yield f"click [{hits[k][0]}]"
            name, minutes, steps = recipe_facts(self.obs["web_text"])
            self.opened.append((self.obs.get("web_url", ""), name or hits[k][1], minutes, steps))

    def focus_first(self) -> Plan:
        """The tab showing the first of the two recipes opened."""
        if not self.opened:
            return
        yield from self.switch("web")
        want = re.sub(r"^https?://[^/]+", "", self.opened[0][0])
        tabs = [(int(i), re.sub(r"^https?://[^/]+", "", u)) for i, u in _TAB.findall(self.obs.get("web_tabs", ""))]
        hit = [i for i, u in tabs if u == want]
        if hit and hit[-1] != self.active_tab():
            yield f"tab_focus [{hit[-1]}]"

    def compare(self, measure: str, more: bool = False) -> str:
        """The name of the one of the two recipes with less time / fewer steps (``more``: more), from their pages."""
        if len(self.opened) < 2:
            return self.opened[0][1] if self.opened else ""
        k = 2 if measure == "time" else 3
        a, b = self.opened[0], self.opened[1]
        if a[k] is None or b[k] is None:
            return a[1]
        return a[1] if (a[k] >= b[k] if more else a[k] <= b[k]) else b[1]

    def quickest(self, words: list[str], where: str) -> Plan:
        """Look at the place for its food, then the quickest matching recipe over every result page (the equipment
        a recipe must need, "needs a saucepan", is a filter too)."""
        food = yield from self.food_at(where)
        yield from self.switch("web", "find the quickest recipe")
        params = [("q", "")]
        for w in words:
            if w in ("vegan", "vegetarian", "gluten-free"):
                params.append(("diet", w))
            elif w in ("easy", "medium", "hard"):
                params.append(("difficulty", w))
        if food:
            params.append(("ingredient", food))
        need = re.search(rf"\bneeds? an? ({'|'.join(EQUIPMENT)})\b", where.lower())
        if need:
            params.append(("equipment", EQUIPMENT[need.group(1)]))
        best: tuple[int, int, int] | None = None  # (minutes, page, index)
        page, pages = 1, 1
        while page <= pages and page <= 30:
            yield f"goto [/recipes/search?{urlencode([*params, ('page', str(page))])}]"
            m = re.search(r"paragraph 'Page (\d+) of (\d+)'", self.obs["web_text"])
            pages = int(m.group(2)) if m else 1
            for i, (_, _, minutes) in enumerate(search_results(self.obs["web_text"])):
                if minutes is not None and (best is None or minutes < best[0]):
                    best = (minutes, page, i)
            page += 1
        if best is None:
            return
        if best[1] != page - 1:
            yield f"goto [/recipes/search?{urlencode([*params, ('page', str(best[1]))])}]"
        hits = search_results(self.obs["web_text"])
        if best[2] < len(hits):
            yield f"click [{hits[best[2]][0]}]"

    # ------------------------------------------------------------------------------ shop
    def order_food(self, where: str, delivery: str) -> Plan:
        """The food at the place: its cheapest product in the shop, at the store selling it for least."""
        food = yield from self.food_at(where)
        yield from self.switch("web", "order it")
        if not food:
            return
        yield f"goto [/shop/search?{urlencode({'q': food.lower()})}]"
        cat = find_bid(self.obs["web_text"], "combobox", "Category")
        if cat is not None:
            yield f"type [{cat}] [{FOOD_CATEGORY[food]}]"
        sort = find_bid(self.obs["web_text"], "combobox", "Sort by")
        if sort is not None:
            yield f"type [{sort}] [Price: low to high]"
        btn = find_bid(self.obs["web_text"], "button", "Search", nth=0)
        if btn is not None and (cat is not None or sort is not None):
            yield f"click [{btn}]"
        rows = self.product_rows()
        word = food.lower()
        cands = [r for r in rows if word in r[1].lower()] or rows
        if not cands:
            return
        bid, name, _ = min(cands, key=lambda r: (r[2], rows.index(r)))
        yield f"click [{bid}]"
        yield from self.buy(name, None, delivery)

    def product_rows(self) -> list[tuple[str, str, float]]:
        """(link bid, product name, lowest price) of the rows of a shop results table."""
        out: list[tuple[str, str, float]] = []
        items = tree_items(self.obs["web_text"])
        for k, (bid, role, name) in enumerate(items):
            if role != "link":
                continue
            for _, r2, n2 in items[k + 1:k + 5]:
                m = re.match(r"from \$([\d.]+)", n2)
                if r2 == "cell" and m:
                    out.append((bid, name, float(m.group(1))))
                    break
        return out

    def order_named(self, text: str, store: str) -> Plan:
        """The product a request names (the shop's product whose whole name the request contains, longest
        first) at a store (the cheapest store when none is known)."""
        yield from self.switch("web", "order it")
        low = text.lower()
        hit = None
        for cand in product_candidates(text):
            yield f"goto [/shop/search?{urlencode({'q': cand})}]"
            rows = [r for r in self.product_rows() if r[1].lower() in low]
            if rows:
                hit = max(rows, key=lambda r: len(r[1]))
                break
        if hit is None:
            return
        yield f"click [{hit[0]}]"
        yield from self.buy(hit[1], store or None, "pickup")

    def store_prices(self) -> list[tuple[str, float]]:
        """(store name, price) of the in-stock rows of a product page's price table."""
        out: list[tuple[str, float]] = []
        items = tree_items(self.obs["web_text"])
        inside = False
        for k, (_, role, name) in enumerate(items):
            if role == "table" and name == "Prices at each store":
                inside = True
            elif inside and role not in ("link", "cell", "columnheader", "row"):
                break
            elif inside and role == "link":
                cells = [n for _, r, n in items[k + 1:k + 4] if r == "cell"]
                price = next((float(c[1:]) for c in cells if re.fullmatch(r"\$[\d.]+", c)), None)
                if price is not None and not any("out of stock" in c.lower() for c in cells):
                    out.append((name, price))
        return out

    def buy(self, name: str, store: str | None, delivery: str) -> Plan:
        """On a product page: choose the store, add one to the cart, check that store's cart out."""
        heading = re.search(r"heading '((?:[^'\\]|\\.)*)' level=1", self.obs["web_text"])
        product = heading.group(1).replace("\\'", "'") if heading else name
        if store is None:
            prices = self.store_prices()
            if not prices:
                return
            store = min(prices, key=lambda p: p[1])[0]
        sel = find_bid(self.obs["web_text"], "combobox", "Store")
        if sel is None:
            return
        yield f"type [{sel}] [{store}]"
        add = find_bid(self.obs["web_text"], "button", "Add to cart")
        if add is None:
            return
        yield f"click [{add}]"
        yield "goto [/shop/cart]"
        label = "Deliver to my kitchen" if delivery == "kitchen" else "Pick up in store"
        button = find_bid(self.obs["web_text"], "button", f"Check out at {store}")
        if button is None:
            return
        radios = [b for b, r, n in tree_items(self.obs["web_text"]) if r == "radio" and n == label]
        radio = max((r for r in radios if int(r) < int(button)), key=int, default=None)
        if radio is None:
            return
        yield f"click [{radio}]"
        yield f"click [{button}]"
        if "Order " in self.obs["web_text"] and not self.obs.get("last_action_error"):
            self.orders.append((product, store))

    # ------------------------------------------------------------------------------ kitchen
    def look(self) -> dict[str, tuple[str, str | None, set[str]]]:
        """Every object of the scene text: id -> (type, parent, states)."""
        objs, _ = parse_scene(self.obs.get("embodied_text", ""))
        for o in objs:
            if o.type == "CounterTop":
                self.counters.add(o.object_id)
        return {o.object_id: (o.type, o.parent, o.states) for o in objs}

    def food_at(self, where: str) -> Plan:
        """Look at the place: the food type it holds (None when nothing was seen); remembered."""
        rtype, marker = place_of(where)
        if not rtype:
            return None
        key = (rtype, marker)
        if key not in self.found:
            yield from self.switch("embodied", "look at the place")
            place = yield from self.find_place(rtype, marker)
            if place is None:
                return None
            seen: dict[str, tuple[str, str | None, set[str]]] = {}
            yield f"Teleport [{place}]"
            seen.update(self.look())
            if "closed" in seen.get(place, ("", None, set()))[2]:
                yield f"OpenObject [{place}]"
                seen.update(self.look())
            for act in ("LookDown", "LookUp", "LookUp"):
                hor = self.horizon()
                if hor is None or (act == "LookDown" and hor >= 60) or (act == "LookUp" and hor <= -30):
                    continue
                yield act
                seen.update(self.look())
            inside = self.inside(seen, place)
            foods = Counter(seen[o][0] for o in inside if seen[o][0] in FOODS)
            for f in FOODS if not foods else ():  # a long counter: go to the nearest of each food from here
                yield f"Teleport [{f}]"
                seen.update(self.look())
                yield f"Teleport [{place}]"
                inside = self.inside(seen, place)
                foods = Counter(seen[o][0] for o in inside if seen[o][0] in FOODS)
                if foods:
                    break
            if not foods:
                return None
            food = foods.most_common(1)[0][0]
            self.found[key] = (place, food, sorted(o for o in inside if seen[o][0] == food))
        return self.found[key][1]

    def horizon(self) -> float | None:
        """The camera's tilt the scene text states (degrees below the horizon)."""
        m = re.search(r"camera horizon (-?[\d.]+) deg", self.obs.get("embodied_text", ""))
        return float(m.group(1)) if m else None

    @staticmethod
    def inside(seen: dict[str, tuple[str, str | None, set[str]]], place: str) -> list[str]:
        """Objects whose chain of parents reaches ``place``."""
        out = []
        for oid in seen:
            p, hops = seen[oid][1], 0
            while p is not None and p != place and hops < 5:
                p = seen.get(p, ("", None, set()))[1]
                hops += 1
            if p == place:
                out.append(oid)
        return out

    def find_place(self, rtype: str, marker: str | None) -> Plan:
        """The receptacle's id: the only one of its type, or the counter holding the marker object."""
        if marker is None:
            yield f"Teleport [{rtype}]"
            hit = [oid for oid, (t, _, _) in self.look().items() if t == rtype]
            return hit[0] if hit else None
        yield f"Teleport [{marker}]"
        seen = self.look()
        on = [p for oid, (t, p, _) in seen.items() if t == marker and p and p.startswith("CounterTop|")]
        if on:
            return on[0]
        for c in sorted(self.counters):
            yield f"Teleport [{c}]"
            seen = self.look()
            if any(t == marker and p == c for t, p, _ in seen.values()):
                return c
            if (self.horizon() or 0) >= 60:
                continue
            yield "LookDown"
            seen = self.look()
            if any(t == marker and p == c for t, p, _ in seen.values()):
                return c
        return None

    def move(self, text: str) -> Plan:
        """Pick the food at the first place named up and put it into/onto the last one."""
        places = places_in(text)
        food = yield from self.food_at(text)
        if not food or len(places) < 2:
            return
        _, _, ids = self.found[places[0]]
        dtype, _ = places[-1]
        if not ids:
            return
        yield from self.switch("embodied", f"put the {food.lower()} there")
        _, held = parse_scene(self.obs["embodied_text"])
        if held and held != ids[0]:
            yield "Teleport [CounterTop]"
            yield "PutObject [CounterTop]"
        yield f"Teleport [{ids[0]}]"
        yield f"PickupObject [{ids[0]}]"
        yield f"Teleport [{dtype}]"
        seen = self.look()
        dest = next((oid for oid, (t, _, _) in seen.items() if t == dtype), dtype)
        if "closed" in seen.get(dest, ("", None, set()))[2]:
            yield f"OpenObject [{dest}]"
        yield f"PutObject [{dest}]"

    # ------------------------------------------------------------------------------ street
    def place_in_sight(self, text: str) -> Plan:
        """The name of the place of the kind the request names among those the street view lists: each
        one's category looked up on the map (nearest first); a place whose name holds the kind word when
        the map tells none apart."""
        view = self.obs.get("embodied_text", "")
        names: list[tuple[float, str]] = []
        for m in re.finditer(r"places: (.+)$", view, re.M):
            for n in re.finditer(r"(?:^|, )(.+?) \((\d+) m walk\)", m.group(1)):
                names.append((float(n.group(2)), n.group(1)))
        names.sort()
        kind = re.search(r"((?:[a-z]+ ){0,2}[a-z]+) (?:that )?(?:you can see|in view|in sight|visible|you see)",
                         text.lower())
        phrase = kind.group(1) if kind else text.lower()
        kind_words = [w for w in re.findall(r"[a-z]+", phrase) if len(w) > 3 and w not in ("from", "there", "with")]
        every_word = [w for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 3]
        cats: list[tuple[str, str]] = []  # (name, the map's category), nearest first
        for _, name in names:
            yield from self.switch("web", "look the places in sight up on the map")
            yield f"goto [/map/search?{urlencode({'q': name})}]"
            items = tree_items(self.obs["web_text"])
            cat = next((items[k + 1][2].split(" · ")[0].strip().lower() for k, (_, role, n) in enumerate(items)
                        if role == "link" and n == name and k + 1 < len(items) and items[k + 1][1] == "paragraph"), "")
            cats.append((name, cat))
            if cat and any(w[:5] == cat[:5] for w in kind_words):
                return name
        hit = next((n for n, _ in cats if any(w[:5] in n.lower() for w in kind_words)), None) or \
            next((n for n, c in cats if c and any(w[:5] == c[:5] for w in every_word)), None)
        if hit:  # the kind in a place's name; else said elsewhere in the request
            return hit
        return None

    def walk_to(self, to: str) -> Plan:
        """The map's directions from the node the walker stands at to a place or node, walked."""
        origin = here(self.obs.get("embodied_text", ""))
        yield from self.directions(to, origin)
        if parse_directions(self.obs["web_text"])[1] is None:
            return
        yield from self.walk()

    def wiki_fact(self, name: str, kind: str, question: str) -> Plan:
        """A year (built or opened) or the architect of a place, from its wiki article's infobox (else its
        text)."""
        if not name:
            return ""
        yield from self.switch("web", "look it up on the wiki")
        yield f"goto [/wiki/search?{urlencode({'q': name})}]"
        link = find_bid(self.obs["web_text"], "link", name)
        if link is not None:
            yield f"click [{link}]"
        text = self.obs["web_text"]
        box = dict(re.findall(r"columnheader '([^']*)'\s*\n\s*\[\w+\] cell '([^']*)'", text))
        if kind == "fact_architect":
            for head, value in box.items():
                if "architect" in head.lower() and "style" not in head.lower():
                    return value
            m = re.search(r"design by ([A-Z][^,.']+?)(?: in the|[,.'])", text)
            return m.group(1) if m else ""
        opened = has(question, "opened", "open", "opening")
        heads = ("opened",) if opened else ("built", "completed", "year built", "constructed")
        for head, value in box.items():
            if head.lower() in heads and re.search(r"\d{4}", value):
                return re.search(r"\d{4}", value).group(0)  # type: ignore[union-attr]
        verb = "opened" if opened else r"(?:built|completed)"
        m = re.search(rf"{verb} in (\d{{4}})", text)
        return m.group(1) if m else ""
