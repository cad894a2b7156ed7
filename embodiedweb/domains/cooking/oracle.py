"""The cooking oracle: opens the right recipe the way a person would (search, filters, result),
reads it one step at a time, switches to the kitchen to perform each step, and switches back for the
next one (as in the paper's example). It buys a missing ingredient first. It acts only through
action strings; it reads the kitchen's semantic state to know object ids (it is an oracle).

With ``perturb`` one necessary step is removed or replaced: a recipe step's kitchen work, the final
"Next", the choice of recipe, or the order of the missing item.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import Any

from embodiedweb.agents.script import Plan, ScriptAgent, find_bid
from embodiedweb.domains.cooking.checker import final_of, matches
from embodiedweb.tasks import Task
from embodiedweb.worlds.kitchen import vocab
from web_sites.recipes import catalog

INGREDIENT_QUERY = {"Apple": "apple", "Bread": "bread", "Egg": "egg", "Lettuce": "lettuce", "Potato": "potato",
                    "Tomato": "tomato"}


def leftover(obj: dict[str, Any]) -> bool:
    """Food cut or heated before the episode began (a task's leftovers): never part of the dish."""
    return any(t < 1 for k, t in (obj.get("stamps") or {}).items() if k == "sliced" or k.startswith("heated"))


class CookingOracle(ScriptAgent):
    """See module docstring."""

    name = "oracle"

    def __init__(self, task: Task, perturb: random.Random | None = None) -> None:
        super().__init__()
        self.task = task
        self.recipe = catalog.get(task.goal["recipe_id"])
        assert self.recipe is not None
        self.missing = task.goal.get("missing")
        self.dish_id: str | None = None
        self.skip: tuple[str, int] | None = None
        if perturb is not None:
            choices: list[tuple[str, int]] = [("ops", i) for i in range(len(self.recipe["steps"]))]
            choices += [("last_next", 0), ("wrong_recipe", 0)]
            if self.missing:
                choices.append(("order", 0))
            self.skip = perturb.choice(choices)
            self.rng = perturb

    # ---------------------------------------------------------------------------- helpers
    def _act(self, action: str) -> Plan:
        yield action

    def world(self) -> dict[str, Any]:
        """The kitchen world's current semantic state."""
        return self.env.unwrapped.world.semantic_state()

    def objects(self) -> dict[str, dict[str, Any]]:
        """The kitchen's objects keyed by ``objectId``."""
        return {o["objectId"]: o for o in self.world()["objects"]}

    def click(self, role: str, name: str, exact: bool = True) -> Plan:
        """Click the web element with this role and name; records an error (no action) when absent."""
        bid = find_bid(self.obs["web_text"], role, name, exact)
        if bid is None:
            self.errors.append(f"no {role} {name!r} on {self.obs['web_url']}")
            return
        yield f"click [{bid}]"

    def switch(self, to: str, message: str = "") -> Plan:
        """Switch to the ``to`` environment (with an optional message) unless already active."""
        if self.obs["active"] != to:
            yield f"switch_environment [{message}]" if message else "switch_environment"

    # ---------------------------------------------------------------------------- plan
    def plan(self) -> Plan:
        """Order the missing ingredient (if any), open the recipe, follow its steps, then stop."""
        if self.missing and self.task.goal.get("missing_told") is False:
            # nothing names the missing ingredient (the hard tier): read the recipe's ingredients first,
            # order, then open the recipe again (its first step page viewed again is still in order)
            yield from self.open_recipe()
            if self.skip != ("order", 0):
                yield from self.order_missing()
        elif self.missing and self.skip != ("order", 0):
            yield from self.order_missing()
        yield from self.open_recipe()
        yield from self.follow_steps()
        yield "stop"

    def follow_steps(self) -> Plan:
        """Read a step on the web, switch to the kitchen, do it, switch back, click Next."""
        n = len(self.recipe["steps"])
        for i, step in enumerate(self.recipe["steps"], 1):
            yield from self.switch("embodied", f"step {i} of {n}: {step['text']}")
            if self.skip != ("ops", i - 1):
                yield from self.do_step(step)
            if i < n:
                yield from self.switch("web")
                if not (self.skip == ("last_next", 0) and i == n - 1):
                    yield from self.click("link", "Next")

    def do_step(self, step: dict[str, Any]) -> Plan:
        """Perform every op of one recipe step."""
        for op in step["ops"]:
            yield from self.do_op(op)

    def order_missing(self) -> Plan:
        """Search the shop for the missing ingredient and order its cheapest product from its cheapest store."""
        yield from self.switch("web")
        yield "goto [/shop/]"
        box = find_bid(self.obs["web_text"], "searchbox", None) or find_bid(self.obs["web_text"], "textbox", None)
        if box is None:
            self.errors.append("no search box on the shop")
            return
        yield f"type [{box}] [{INGREDIENT_QUERY[self.missing]}] [1]"
        from web_sites.shop import catalog as shop

        products = shop.products_for_type(self.missing)
        # the cheapest product of this type anywhere, then its cheapest store
        best = min(products, key=lambda p: (min(shop.offers(p["product_id"]).values()), p["product_id"]))
        yield f"goto [/shop/product/{best['product_id']}]"
        store = shop.cheapest_store(best["product_id"])
        yield from self.fill_and_add(store)
        yield "goto [/shop/cart]"
        yield from self.checkout(store)

    def fill_and_add(self, store_id: str) -> Plan:
        """Pick ``store_id`` in the Store combobox (if shown) and click "Add to cart"."""
        text = self.obs["web_text"]
        sel = find_bid(text, "combobox", "Store")
        if sel is not None:
            from web_sites.shop import catalog as shop

            yield f"type [{sel}] [{shop.store(store_id)['name']}]"
        yield from self.click("button", "Add to cart")

    def checkout(self, store_id: str) -> Plan:
        """Choose kitchen delivery (if offered) and click the checkout button for the store; records an error if none."""
        from web_sites.shop import catalog as shop

        name = shop.store(store_id)["name"]
        text = self.obs["web_text"]
        radio = find_bid(text, "radio", "Deliver to my kitchen", exact=False)
        if radio is not None:
            yield f"click [{radio}]"
        btn = find_bid(self.obs["web_text"], "button", f"Check out at {name}", exact=False) or \
            find_bid(self.obs["web_text"], "button", "Check out", exact=False)
        if btn is None:
            self.errors.append("no checkout button")
            return
        yield f"click [{btn}]"

    def open_recipe(self) -> Plan:
        """Search the recipe site (applying the task's filter constraint), open the recipe and its first step."""
        yield from self.switch("web")
        recipe = self.recipe
        if self.skip == ("wrong_recipe", 0):
            partner = [r for r in catalog.recipes() if r["name"] == recipe["name"]
                       and r["recipe_id"] != recipe["recipe_id"]]
            others = partner or [r for r in catalog.recipes() if r["recipe_id"] != recipe["recipe_id"]]
            recipe = self.rng.choice(others)
        if "/recipes" not in self.obs["web_url"]:
            yield from self.click("link", "Recipes")
        box = find_bid(self.obs["web_text"], "searchbox", "Recipe name")
        yield f"type [{box}] [{recipe['name']}] [1]"
        constraint = self.task.meta.get("constraint")
        if constraint and recipe is self.recipe:
            kind, value = constraint["filter"], constraint["value"]
            label = {"diet": value.capitalize(), "difficulty": value.capitalize(),
                     "ingredient": catalog.INGREDIENT_LABELS.get(value, value),
                     "equipment": catalog.EQUIPMENT_LABELS.get(value, value)}[kind]
            role = "radio" if kind == "difficulty" else "checkbox"
            yield from self.click(role, label)
            yield from self.click("button", "Apply filters")
        if recipe is self.recipe:
            yield from self.click("link", recipe["name"])
        else:
            yield f"goto [/recipes/recipe/{recipe['recipe_id']}]"
        yield from self.click("link", "Start cooking: step 1")

    # ---------------------------------------------------------------------------- kitchen
    def do_op(self, op: dict[str, Any]) -> Plan:
        """Dispatch one recipe op (``slice``, ``cook`` or ``place``) to its helper."""
        kind = op["op"]
        if kind == "slice":
            yield from self.slice(op["obj"])
        elif kind == "cook":
            yield from self.cook(op["obj"], op["how"])
        elif kind == "place":
            yield from self.place(op["obj"], op.get("state", {}))

    def held(self) -> str | None:
        """The id of the held object, or ``None``."""
        return self.world()["held"]

    def free_hands(self) -> Plan:
        """Put the held object (if any) on the countertop."""
        if self.held():
            yield "Teleport [CounterTop]"
            yield "PutObject [CounterTop]"

    def open_ancestors(self, oid: str) -> Plan:
        """Open every closed openable receptacle that contains ``oid``."""
        objs = self.objects()
        for pid in objs[oid]["parentReceptacles"]:
            p = objs.get(pid)
            if p and p["objectType"] in vocab.OPENABLE and not p["isOpen"]:
                yield f"Teleport [{pid}]"
                yield f"OpenObject [{pid}]"

    def fetch(self, oid: str) -> Plan:
        """Pick up ``oid`` (freeing hands and opening its containers first) unless already held."""
        if self.held() == oid:
            return
        yield from self.free_hands()
        yield from self.open_ancestors(oid)
        yield f"Teleport [{oid}]"
        yield f"PickupObject [{oid}]"

    def put(self, rid: str) -> Plan:
        """Put the held object into receptacle ``rid``, opening it and its containers as needed."""
        yield from self.open_ancestors(rid)
        o = self.objects()[rid]
        yield f"Teleport [{rid}]"
        if o["objectType"] in vocab.OPENABLE and not o["isOpen"]:
            yield f"OpenObject [{rid}]"
        yield f"PutObject [{rid}]"

    #: take the highest id of the matching objects instead of the lowest (another fresh instance)
    newest_first = False

    def first(self, otype: str, **state: Any) -> str | None:
        """The lowest id (the highest with :attr:`newest_first`) of an object of ``otype`` matching ``state``,
        not on the serving dish and not a leftover, or ``None``."""
        objs = sorted(self.objects().values(), key=lambda o: o["objectId"], reverse=self.newest_first)
        for o in objs:
            if o["objectType"] == otype and all(o.get(k) == v for k, v in state.items()) and not leftover(o):
                if self.dish_id and self.dish_id in o["parentReceptacles"]:
                    continue
                return o["objectId"]
        return None

    def slice(self, otype: str) -> Plan:
        """Slice a whole ``otype`` with a knife, then free hands; records an error if either is missing."""
        target = self.first(otype, isSliced=False)
        if target is None:
            self.errors.append(f"no whole {otype} to slice")
            return
        knife = self.first("Knife") or self.first("ButterKnife")
        if knife is None:
            self.errors.append("no knife")
            return
        yield from self.fetch(knife)
        yield from self.open_ancestors(target)
        yield f"Teleport [{target}]"
        yield f"SliceObject [{target}]"
        yield from self.free_hands()

    def cook(self, otype: str, how: str) -> Plan:
        """Heat an uncooked ``otype`` the ``how`` way; records an error if there is none."""
        target = self.first(otype, isCooked=False)
        if target is None:
            self.errors.append(f"no uncooked {otype}")
            return
        yield from self.heat(target, how)

    def vessel_on_burner(self, vessel: str) -> Generator[str, Any, str | None]:
        """Put ``vessel`` (a pan or pot) on a free burner unless it stands on one; the burner's id."""
        objs = self.objects()
        burner = next((p for p in objs[vessel]["parentReceptacles"] if p.startswith("StoveBurner|")), None)
        if burner is not None:
            return burner
        free = [o["objectId"] for o in sorted(objs.values(), key=lambda o: o["objectId"])
                if o["objectType"] == "StoveBurner" and not o["receptacleObjectIds"]]
        if not free:
            self.errors.append("no free burner")
            return None
        yield from self.fetch(vessel)
        yield from self.put(free[0])
        return free[0]

    def heat(self, target: str, how: str) -> Plan:
        """Heat the object ``target`` with a method (``pan``, ``pot``, ``microwave``, ``toaster``)."""
        if how in ("pan", "pot"):
            vessel = self.first("Pan" if how == "pan" else "Pot")
            if vessel is None:
                self.errors.append(f"no {how}")
                return
            burner = yield from self.vessel_on_burner(vessel)
            if burner is None:
                return
            yield from self.fetch(target)
            yield from self.put(vessel)
            b = self.objects()[burner]
            yield f"Teleport [{burner}]"
            if not b["isToggled"]:
                yield f"ToggleObjectOn [{burner}]"
            yield f"ToggleObjectOff [{burner}]"
        elif how == "microwave":
            mw = self.first("Microwave")
            if mw is None:
                self.errors.append("no microwave")
                return
            yield from self.fetch(target)
            m = self.objects()[mw]
            yield f"Teleport [{mw}]"
            if m["isToggled"]:
                yield f"ToggleObjectOff [{mw}]"
            if not m["isOpen"]:
                yield f"OpenObject [{mw}]"
            yield f"PutObject [{mw}]"
            yield f"CloseObject [{mw}]"
            yield f"ToggleObjectOn [{mw}]"
            yield f"ToggleObjectOff [{mw}]"
            yield f"OpenObject [{mw}]"
        elif how == "toaster":
            toaster = self.first("Toaster")
            if toaster is None:
                self.errors.append("no toaster")
                return
            yield from self.fetch(target)
            yield f"Teleport [{toaster}]"
            if self.objects()[toaster]["isToggled"]:
                yield f"ToggleObjectOff [{toaster}]"
            yield f"PutObject [{toaster}]"
            yield f"ToggleObjectOn [{toaster}]"
            yield f"ToggleObjectOff [{toaster}]"

    def serving_dish(self) -> Plan:
        """Choose the recipe's dish (preferring one not in a closed container) and set ``dish_id``; once per episode."""
        if self.dish_id is not None:
            return
        dish_type = self.recipe["dish"]
        objs = self.objects()
        cands = sorted((o for o in objs.values() if o["objectType"] == dish_type), key=lambda o: (
            any(objs.get(p, {}).get("objectType") in vocab.OPENABLE for p in o["parentReceptacles"]),
            len(o["receptacleObjectIds"]), o["objectId"]))
        if not cands:
            self.errors.append(f"no {dish_type}")
            return
        dish = cands[0]["objectId"]
        if any(objs.get(p, {}).get("objectType") in vocab.OPENABLE for p in objs[dish]["parentReceptacles"]):
            yield from self.fetch(dish)
            yield from self.free_hands()
        self.dish_id = dish

    def place(self, otype: str, state: dict[str, Any]) -> Plan:
        """Put an ``otype`` component in ``state`` onto the serving dish."""
        yield from self.serving_dish()
        if self.dish_id is None:
            return
        target = self.component(otype, state)
        if target is None:
            self.errors.append(f"no {otype} with {state} to place")
            return
        yield from self.fetch(target)
        yield from self.put(self.dish_id)

    def component(self, otype: str, state: dict[str, Any]) -> str | None:
        """An object not yet on the dish that is what the recipe's final condition for ``otype`` asks
        (the right heat source too), else any with ``state``."""
        cond = next((c for c in final_of(self.recipe) if c["type"] == otype and c.get("state", {}) == state), None)
        if cond is not None:
            for o in sorted(self.objects().values(), key=lambda o: o["objectId"]):
                if matches(o, cond) and not leftover(o) and not (self.dish_id and self.dish_id in o["parentReceptacles"]):
                    return o["objectId"]
        return self.first(otype, **state)
