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
    def open_two(self, e: dict[str, Any]) -> Plan:
        """Each recipe in a new tab."""
        yield from self.switch("web")
        for rid in e["recipes"]:
            yield "new_tab"
            yield f"goto [/recipes/recipe/{rid}]"

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

    def recipe_grounded(self, e: dict[str, Any]) -> Plan:
        """Open the recipe in the active tab."""
        yield from self.switch("web")
        yield f"goto [/recipes/recipe/{e['recipe']}]"

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
