"""The assistant oracle: carries out each turn through the public action interface and says ``done``.

It knows each turn's expected result (it is an oracle) and reaches it the way a person would: new tabs
and recipe pages, the shop's product page and cart, the kitchen's pick-up and put. With ``perturb`` one
turn, chosen at random, is sabotaged: its work is skipped and its answer (if any) is a wrong candidate.
"""

from __future__ import annotations

import random
import re
from typing import Any

from embodiedweb.agents.script import Plan, ScriptAgent, find_bid
from embodiedweb.domains.cooking.oracle import CookingOracle
from embodiedweb.domains.outdoor.common import StreetOracle
from embodiedweb.tasks import Task

_TAB = re.compile(r"^Tab (\d+).*? — (\S+)$", re.M)


class AssistantOracle(CookingOracle, StreetOracle):
    """See module docstring (kitchen helpers are the cooking oracle's, street ones the outdoor oracles')."""

    name = "oracle"

    def __init__(self, task: Task, perturb: random.Random | None = None) -> None:
        ScriptAgent.__init__(self)
        self.task = task
        self.recipe = None
        self.missing = None
        self.dish_id = None
        self.skip = None
        self.perturb = None
        self.results: list[dict[str, Any]] = []  # the recipe search results on the page (for link order)
        turns = task.goal["turns"]
        #: the sabotaged turn of a perturbed oracle (None: none)
        self.sabotaged: int | None = perturb.randrange(len(turns)) if perturb is not None else None

    def plan(self) -> Plan:
        """Every turn's work, then ``done`` with its answer."""
        for i, t in enumerate(self.task.goal["turns"]):
            e = t["expect"]
            if i == self.sabotaged:
                wrong = (e.get("others") or [""])[0]
                yield f"done [{wrong}]" if wrong else "done"
                continue
            answer = yield from self.play(t["kind"], e)
            yield f"done [{answer}]" if answer else "done"

    def play(self, kind: str, e: dict[str, Any]) -> Plan:
        """One turn's work (the method named after its kind); returns its answer, if any."""
        return (yield from getattr(self, kind)(e))

    # ------------------------------------------------------------------------------ turns
    def search_recipes(self, diet: str, level: str, food: str, equipment: str = "") -> Plan:
        """The recipe site's search with these filters (from its page, the way a person does)."""
        from web_sites.recipes import catalog

        yield from self.click("link", "Recipes")  # the site's fresh search form (every page links it)
        if diet:
            yield from self.click("checkbox", diet.capitalize())
        if level:
            yield from self.click("radio", level.capitalize())
        yield from self.click("checkbox", catalog.INGREDIENT_LABELS[food])
        if equipment:
            yield from self.click("checkbox", catalog.EQUIPMENT_LABELS[equipment])
        yield from self.click("button", "Apply filters")

    def open_result(self, rid: str) -> Plan:
        """Page on to the result page of recipe ``rid`` and click its link (the n-th of the links of its
        name on that page, by result order)."""
        from web_sites.recipes import catalog
        from web_sites.recipes.site import PAGE_SIZE

        ids = [r["recipe_id"] for r in self.results]
        page = ids.index(rid) // PAGE_SIZE if rid in ids else 0
        for _ in range(page):
            yield from self.click("link", "Next page")
        shown = self.results[page * PAGE_SIZE:(page + 1) * PAGE_SIZE]
        name = catalog.get(rid)["name"]
        same = [r["recipe_id"] for r in shown if r["name"] == name]
        yield from self.click_nth("link", name, same.index(rid) if rid in same else 0)

    def click_nth(self, role: str, name: str, nth: int) -> Plan:
        """Click the ``nth`` element with this role and name; records an error when absent."""
        bid = find_bid(self.obs["web_text"], role, name, nth=nth)
        if bid is None:
            self.errors.append(f"no {role} {name!r} #{nth} on {self.obs['web_url']}")
            return
        yield f"click [{bid}]"

    def open_two(self, e: dict[str, Any]) -> Plan:
        """Each recipe in a new tab: the site's search with the two filters, the result link."""
        from web_sites.recipes import catalog

        yield from self.switch("web")
        self.results = catalog.search("", [e["diet"]], "", [e["ingredient"]], [])
        for rid in e["recipes"]:
            yield "new_tab"
            yield from self.search_recipes(e["diet"], "", e["ingredient"])
            yield from self.open_result(rid)

    def tab_of(self, rid: str) -> int | None:
        """The index of the newest tab showing recipe ``rid``."""
        hits = [int(m.group(1)) for m in _TAB.finditer(self.obs["web_tabs"]) if f"/recipes/recipe/{rid}" in m.group(2)]
        return hits[-1] if hits else None

    def focus(self, e: dict[str, Any]) -> Plan:
        """Focus the tab showing the recipe."""
        yield from self.switch("web")
        i = self.tab_of(e["recipe"])
        if i is None:
            self.errors.append(f"no tab shows {e['recipe']}")
            return
        yield f"tab_focus [{i}]"

    def compare(self, e: dict[str, Any]) -> Plan:
        """The answer is known; nothing to do."""
        return e["name"]
        yield  # a generator

    recall = compare

    def order_grounded(self, e: dict[str, Any]) -> Plan:
        """The product's page, the store, add to cart, check the store's cart out for the delivery asked."""
        from web_sites.shop import catalog

        yield from self.switch("web")
        if "food" in e:  # the food seen (the instruction does not name the product): search the shop for it
            if "place" in e:
                yield from self.look_at(e["place"], e["food"])
                yield from self.switch("web")
            yield "goto [/shop/]"
            box = find_bid(self.obs["web_text"], "searchbox", None)
            yield f"type [{box}] [{e['food'].lower()}] [1]"
        yield f"goto [/shop/product/{e['product']}]"
        store = catalog.store(e["store"])
        sel = find_bid(self.obs["web_text"], "combobox", "Store")
        if sel is not None:
            yield f"type [{sel}] [{store['name']}]"
        yield from self.click("button", "Add to cart")
        yield "goto [/shop/cart]"
        label = "Deliver to my kitchen" if e["delivery"] == "kitchen" else "Pick up in store"
        button = find_bid(self.obs["web_text"], "button", f"Check out at {store['name']}")
        radios = []
        k = 0
        while (b := find_bid(self.obs["web_text"], "radio", label, nth=k)) is not None:
            radios.append(b)
            k += 1
        radio = max((r for r in radios if button and int(r) < int(button)), key=int, default=None)
        if radio is None or button is None:
            self.errors.append(f"no checkout for {store['name']}")
            return
        yield f"click [{radio}]"
        yield f"click [{button}]"

    same_store = order_grounded

    def look_at(self, place: str, food: str | None = None) -> Plan:
        """Go and look at a place in the kitchen (opening it if closed, and closing it again); when the ``food``
        there is not in view yet (a long counter is not all within reach from one spot), walk along to it."""
        yield from self.switch("embodied")
        yield f"Teleport [{place}]"
        if self.objects()[place].get("isOpen") is False and place.split("|")[0] in ("Fridge", "Microwave"):
            yield f"OpenObject [{place}]"
            if food and f"({food})" not in self.obs["embodied_text"]:
                yield from self._walk_to_food(place, food)
            yield f"CloseObject [{place}]"
        elif food and f"({food})" not in self.obs["embodied_text"]:
            yield from self._walk_to_food(place, food)

    def _walk_to_food(self, place: str, food: str) -> Plan:
        objs = self.objects()
        there = sorted(oid for oid, o in objs.items() if o["objectType"] == food and place in (o.get("parentReceptacles") or []))
        if there:
            yield f"Teleport [{there[0]}]"

    def recipe_grounded(self, e: dict[str, Any]) -> Plan:
        """Look at the place in the kitchen (only looking tells which food it is), then open the recipe in the
        active tab: the site's search with the filters, the result link."""
        from web_sites.recipes import catalog

        if "place" in e:
            yield from self.look_at(e["place"], e.get("food"))
        yield from self.switch("web")
        diet, level, equipment = e.get("diet", ""), e.get("level", ""), e.get("equipment", "")
        self.results = catalog.search("", [diet] if diet else [], level, [e["food"]], [equipment] if equipment else [])
        yield from self.search_recipes(diet, level, e["food"], equipment)
        yield from self.open_result(e["recipe"])

    def name_seen(self, e: dict[str, Any]) -> Plan:
        """The name is in the street view; nothing to do."""
        return e["name"]
        yield

    def fact_year(self, e: dict[str, Any]) -> Plan:
        """Read the place's wiki article, answer the year."""
        yield from self.switch("web")
        yield f"goto [/wiki/article/{e['place']}]"
        return str(e["year"])

    def fact_architect(self, e: dict[str, Any]) -> Plan:
        """Read the place's wiki article, answer the architect."""
        yield from self.switch("web")
        yield f"goto [/wiki/article/{e['place']}]"
        return e["name"]

    def order_seen(self, e: dict[str, Any]) -> Plan:
        """Order the product at the store seen."""
        yield from self.order_grounded(e)

    def walk_there(self, e: dict[str, Any]) -> Plan:
        """Walk the shortest route to the node."""
        yield from self.walk_to(e["node"])

    go_back = walk_there

    def move_grounded(self, e: dict[str, Any]) -> Plan:
        """Pick the object up and put it into the destination."""
        yield from self.switch("embodied")
        yield from self.fetch(e["object"])
        yield from self.put(e["dest"])
