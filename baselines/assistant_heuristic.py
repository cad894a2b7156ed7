"""A heuristic for EWA-Assistant-v0 that reads only observations: the current ``instruction``, the
``dialogue``, the web page's tree, the tab list (``web_tabs``) and the kitchen's scene text.

Each instruction is parsed with rules (the phrasings of the user's requests) and carried out through the
public actions; what earlier turns did is remembered (the tabs opened and the recipes they show, the
products ordered and their store), so that later turns can refer to it. A turn it cannot parse or carry
out still ends with ``done`` and the next one follows. No privileged information: no task goal, catalog or
semantic state."""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import urlencode

from baselines.kitchen_skills import parse_scene
from baselines.script import Plan, ScriptAgent, find_bid

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
           "frying pan": "Pan", "ladle": "Ladle", "cup": "Cup", "kettle": "Kettle", "mug": "Mug",
           "spatula": "Spatula", "toaster": "Toaster", "coffee machine": "CoffeeMachine", "bowl": "Bowl",
           "plate": "Plate", "soap bottle": "SoapBottle", "dish sponge": "DishSponge"}
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


def place_of(phrase: str) -> tuple[str, str | None]:
    """(receptacle type, marker type or None) of a phrase such as "on the counter where the knife is"."""
    m = re.search(r"counter where the (.+?) is", phrase)
    if m:
        return "CounterTop", MARKERS.get(m.group(1))
    for word, t in PLACE_TYPES.items():
        if re.search(rf"\b(?:in|on|into|onto) the {word}\b", phrase):
            return t, None
    return "", None


class AssistantHeuristic(ScriptAgent):
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
        while True:
            text = self.obs.get("instruction", "")
            answer = yield from self.turn(text)
            yield f"done [{answer}]" if answer else "done"

    def turn(self, text: str) -> Plan:
        """One instruction by its phrasing; returns the answer (if it asks a question)."""
        t = text.strip()
        m = re.search(r"Find ([\w-]+) recipes with (\w+) on the recipe site and open the first two", t)
        if m:
            yield from self.open_two(m.group(1), m.group(2))
            return ""
        if re.search(r"Go back to the tab of the one of those two that came first", t):
            yield from self.focus_first()
            return ""
        m = re.search(r"Which of those two (takes less time|has fewer steps)", t)
        if m:
            return self.compare("time" if "time" in m.group(1) else "steps")
        m = re.search(r"out of the food (.+?)\. Order one more", t)
        if m:
            yield from self.order_food(m.group(1), "pickup" if "pickup" in t or "pick" in t else "kitchen")
            return ""
        m = re.search(r"order one (.+?) from the same store as last time", t, re.I)
        if m:
            yield from self.order_named(m.group(1), self.orders[-1][1] if self.orders else "")
            return ""
        m = re.search(r"open the quickest (.*?)recipe that uses the food (.+?)\.?$", t)
        if m:
            yield from self.quickest(m.group(1).split(), m.group(2))
            return ""
        m = re.search(r"put the food (.+?) ((?:into|onto) the [\w ]+?)\.?$", t)
        if m:
            yield from self.move(m.group(1), m.group(2))
            return ""
        if re.search(r"first thing I asked you to order", t):
            return self.orders[0][0] if self.orders else ""
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

    def compare(self, measure: str) -> str:
        """The name of the one of the two recipes with less time / fewer steps, from their pages."""
        if len(self.opened) < 2:
            return self.opened[0][1] if self.opened else ""
        k = 2 if measure == "time" else 3
        a, b = self.opened[0], self.opened[1]
        if a[k] is None or b[k] is None:
            return a[1]
        return a[1] if a[k] <= b[k] else b[1]

    def quickest(self, words: list[str], where: str) -> Plan:
        """Look at the place for its food, then the quickest matching recipe over every result page."""
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

    def order_named(self, product: str, store: str) -> Plan:
        """A product by name at a store (the cheapest store when none is known)."""
        yield from self.switch("web", f"order {product}")
        yield f"goto [/shop/search?{urlencode({'q': product})}]"
        rows = self.product_rows()
        hit = next((r for r in rows if r[1].lower() == product.lower()), None) or \
            next((r for r in rows if product.lower() in r[1].lower()), None)
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
            yield from self.switch("embodied", f"look at the food {where}")
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

    def move(self, where: str, dest_phrase: str) -> Plan:
        """Pick the food at the place up and put it into/onto the destination."""
        food = yield from self.food_at(where)
        if not food:
            return
        rtype, marker = place_of(where)
        _, _, ids = self.found[(rtype, marker)]
        dtype, _ = place_of(dest_phrase)
        if not ids or not dtype:
            return
        yield from self.switch("embodied", f"put the {food.lower()} {dest_phrase}")
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
