"""Red-team agents for EWA-Cooking-v0: shortcuts that must fail, genuine alternatives that must pass.

Each agent is the cooking oracle with one part of its plan changed. They act only through action
strings, but know the task's recipe (the strongest cheater knows the answer). ``applies`` says on
which tasks the agent's idea can be carried out at all (a hedge needs a confounder the kitchen can
also make); ``carried_out`` says whether this episode really did what the agent stands for (no
action failed but the ones the shortcut expects to fail), so a pass cannot come from a plan that
quietly fell back to the honest solution.

``python -m tests.domains.cooking.redteam [N]`` prints the cooking rows of docs/checkers.md's red-team table.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Generator
from typing import Any, ClassVar

from baselines.script import Plan, find_bid
from embodiedweb.domains.cooking.checker import final_of, matches, same_name, sliced_type
from embodiedweb.domains.cooking.feasibility import infeasible_steps, kitchen_inventory
from embodiedweb.domains.cooking.oracle import CookingOracle, leftover
from embodiedweb.tasks import Task
from tests.redteam import RedTeam, markdown, run, table
from web_sites.recipes import catalog

ENV_ID = "EWA-Cooking-v0"


def _ops(recipe: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [op for s in recipe["steps"] for op in s["ops"] if op["op"] == kind]


def _inventory(task: Task) -> set[str]:
    return set(kitchen_inventory(task.embodied["kitchen_id"])) - set(task.embodied.get("remove", []))


class RedTeamAgent(RedTeam, CookingOracle):
    """The cooking oracle as a red-team agent (see :mod:`tests.redteam`), with plan pieces to reuse."""

    def view_all_steps(self) -> Plan:
        """From a recipe's first step page, click Next to the last one."""
        for _ in range(len(self.recipe["steps"]) - 1):
            yield from self.click("link", "Next")

    def do_all_work(self) -> Plan:
        yield from self.switch("embodied", "cooking")
        for step in self.recipe["steps"]:
            yield from self.do_step(step)


def _confounder(task: Task) -> dict[str, Any] | None:
    recipe = catalog.get(task.goal["recipe_id"])
    others = same_name(recipe) if recipe else []
    return others[0] if others else None


# ---------------------------------------------------------------------------------------- shortcuts
class SkipToLastStep(RedTeamAgent):
    """Goes straight to the last step's URL, then cooks everything."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        return len(catalog.get(task.goal["recipe_id"])["steps"]) >= 2

    def plan(self) -> Plan:
        if self.missing:
            yield from self.order_missing()
        yield from self.switch("web")
        yield f"goto [/recipes/recipe/{self.recipe['recipe_id']}/step/{len(self.recipe['steps'])}]"
        yield from self.do_all_work()
        yield "stop"


class ReadStepsBackwards(RedTeamAgent):
    """Views every step page, last to first, then cooks everything."""

    applies = SkipToLastStep.applies

    def plan(self) -> Plan:
        if self.missing:
            yield from self.order_missing()
        yield from self.switch("web")
        for i in range(len(self.recipe["steps"]), 0, -1):
            yield f"goto [/recipes/recipe/{self.recipe['recipe_id']}/step/{i}]"
        yield from self.do_all_work()
        yield "stop"


class CookThenClickThrough(RedTeamAgent):
    """Cooks from its own knowledge first, then opens the recipe and clicks through every step."""

    def plan(self) -> Plan:
        if self.missing:
            yield from self.order_missing()
        yield from self.do_all_work()
        yield from self.switch("web")
        yield from self.open_recipe()
        yield from self.view_all_steps()
        yield "stop"


class KitchenOnly(RedTeamAgent):
    """Never opens the recipe: cooks from its own knowledge (it still buys what is missing)."""

    breaks = ("web",)

    def plan(self) -> Plan:
        if self.missing:
            yield from self.order_missing()
        yield from self.do_all_work()
        yield "stop"


class WebOnly(RedTeamAgent):
    """Reads every step on the web and never cooks."""

    def plan(self) -> Plan:
        if self.missing:
            yield from self.order_missing()
        yield from self.open_recipe()
        yield from self.view_all_steps()
        yield "stop"


class _CooksSomething(RedTeamAgent):
    @classmethod
    def applies(cls, task: Task) -> bool:
        return bool(_ops(catalog.get(task.goal["recipe_id"]), "cook"))


class _BelievesItCooked(_CooksSomething):
    """Serves what it tried to cook as if it were cooked."""

    tolerated = ("CookObject",)

    def component(self, otype: str, state: dict[str, Any]) -> str | None:
        return self.first(otype)


class HeatOff(_BelievesItCooked):
    """Puts the food in the pan, pot, microwave or toaster but never switches it on; asks for CookObject."""

    def all_heat_off(self) -> Plan:
        for o in sorted(self.objects().values(), key=lambda o: o["objectId"]):
            if o["objectType"] in ("StoveBurner", "Microwave", "Toaster") and o["isToggled"]:
                yield f"Teleport [{o['objectId']}]"
                yield f"ToggleObjectOff [{o['objectId']}]"

    def cook(self, otype: str, how: str) -> Plan:
        yield from self.all_heat_off()
        target = self.first(otype, isCooked=False)
        if target is None:
            self.errors.append(f"no uncooked {otype}")
            return
        if how in ("pan", "pot"):
            vessel = self.first("Pan" if how == "pan" else "Pot")
            yield from self.vessel_on_burner(vessel)
            yield from self.fetch(target)
            yield from self.put(vessel)
        else:
            appliance = self.first("Microwave" if how == "microwave" else "Toaster")
            yield from self.fetch(target)
            yield from self.put(appliance)
            if how == "microwave":
                yield f"CloseObject [{appliance}]"
        yield f"CookObject [{target}]"
        if how == "microwave":
            yield f"OpenObject [{self.first('Microwave')}]"


class CookOnCounter(_BelievesItCooked):
    """Leaves the food on the counter and asks for CookObject (and tries the bare burner)."""

    tolerated = ("CookObject", "PutObject [StoveBurner")

    def cook(self, otype: str, how: str) -> Plan:
        target = self.first(otype, isCooked=False)
        if target is None:
            self.errors.append(f"no uncooked {otype}")
            return
        yield from self.fetch(target)
        yield "Teleport [StoveBurner]"
        yield "PutObject [StoveBurner]"
        yield "Teleport [CounterTop]"
        yield "PutObject [CounterTop]"
        yield f"CookObject [{target}]"


class WrongAppliance(_CooksSomething):
    """Cooks with another appliance than the recipe names (microwave for the stove, the pan otherwise)."""

    SWAP: ClassVar[dict[str, str]] = {"pan": "microwave", "pot": "microwave", "microwave": "pan", "toaster": "pan"}

    @classmethod
    def applies(cls, task: Task) -> bool:
        inv = _inventory(task)
        cooks = _ops(catalog.get(task.goal["recipe_id"]), "cook")
        need = {"microwave": {"Microwave"}, "pan": {"Pan", "StoveBurner"}}
        return bool(cooks) and all(need[cls.SWAP[op["how"]]] <= inv for op in cooks)

    def cook(self, otype: str, how: str) -> Plan:
        yield from super().cook(otype, self.SWAP[how])

    def component(self, otype: str, state: dict[str, Any]) -> str | None:
        return self.first(otype, **state)


class ExtraOnDish(RedTeamAgent):
    """Cooks the recipe right, then also puts the knife on the dish."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        return bool(_ops(catalog.get(task.goal["recipe_id"]), "slice"))

    def plan(self) -> Plan:
        for a in super().plan():
            if a == "stop":
                break
            yield a
        yield from self.switch("embodied")
        knife = self.first("Knife") or self.first("ButterKnife")
        yield from self.fetch(knife)
        yield from self.put(self.dish_id)
        yield "stop"


class FollowConfounder(RedTeamAgent):
    """Ignores the constraint: follows the other recipe of the same name, perfectly."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        other = _confounder(task)
        return other is not None and not infeasible_steps(other, _inventory(task), task.goal.get("missing"))

    def __init__(self, task: Task, perturb: random.Random | None = None) -> None:
        super().__init__(task, perturb)
        self.recipe = _confounder(task)

    def open_recipe(self) -> Plan:
        yield from self.switch("web")
        yield f"goto [/recipes/recipe/{self.recipe['recipe_id']}]"
        yield from self.click("link", "Start cooking: step 1")


class _Hedge(FollowConfounder):
    def __init__(self, task: Task, perturb: random.Random | None = None) -> None:
        CookingOracle.__init__(self, task, perturb)
        self.target, self.other = self.recipe, _confounder(task)

    def slice(self, otype: str) -> Plan:
        # the second version reuses slices the first one made
        if self.first(otype, isSliced=False) is None and self.first(sliced_type(otype)) is not None:
            return
        yield from super().slice(otype)

    def plan(self) -> Plan:
        if self.missing:
            yield from self.order_missing()
        for recipe in (self.target, self.other):
            self.recipe = recipe
            yield from self.switch("web")
            yield from self.open_recipe()
            yield from self.follow_steps()
        yield "stop"


class HedgeOnePlate(_Hedge):
    """Follows both recipes of the name, each read step by step, and serves both on one dish."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        if not FollowConfounder.applies(task):
            return False
        target, other = catalog.get(task.goal["recipe_id"]), _confounder(task)
        # one egg cannot be both boiled whole and cracked: the kitchen must have enough of each ingredient
        whole = [c["type"] for r in (target, other) for c in r["final"] if c["type"] in ("Egg", "Potato")]
        return target["dish"] == other["dish"] and len(whole) == len(set(whole))


class HedgeTwoDishes(_Hedge):
    """Follows both recipes of the name and serves each on its own dish (the kitchen gets a second one)."""

    applies = HedgeOnePlate.applies

    @classmethod
    def adapt(cls, task: Task) -> Task:
        dish = catalog.get(task.goal["recipe_id"])["dish"]
        return dataclasses.replace(task, embodied={**task.embodied, "add": [{"type": dish, "on": "CounterTop"}]})

    def open_recipe(self) -> Plan:
        self.dish_id = None  # a fresh dish for each version
        yield from super().open_recipe()


class HeatBothWays(RedTeamAgent):
    """Where the two versions differ only in how a component is heated, heats it both ways."""

    METHOD: ClassVar[dict[str, str]] = {"StoveBurner:Pan": "pan", "StoveBurner:Pot": "pot", "Microwave": "microwave",
                                        "Toaster": "toaster"}

    @classmethod
    def other_method(cls, task: Task) -> dict[str, str]:
        """Component type -> the confounder's heating method, where it differs from the target's."""
        target, other = catalog.get(task.goal["recipe_id"]), _confounder(task)
        if other is None:
            return {}
        def key(r: dict[str, Any]) -> list[tuple[str, str]]:
            return sorted((c["type"], str(c.get("state"))) for c in r["final"])
        if key(target) != key(other):
            return {}
        mine = {c["type"]: c.get("heated_by") for c in final_of(target)}
        return {c["type"]: cls.METHOD[c["heated_by"]] for c in final_of(other)  # a boiled one: in the pot
                if c.get("heated_by") and c["heated_by"] != mine.get(c["type"])}

    @classmethod
    def applies(cls, task: Task) -> bool:
        return bool(cls.other_method(task)) and FollowConfounder.applies(task) and \
            not infeasible_steps(catalog.get(task.goal["recipe_id"]), _inventory(task), task.goal.get("missing"))

    def cook(self, otype: str, how: str) -> Plan:
        target = self.first(otype, isCooked=False)
        if target is None:
            self.errors.append(f"no uncooked {otype}")
            return
        yield from self.heat(target, how)
        alt = self.other_method(self.task).get(otype)
        if alt:
            yield from self.heat(target, alt)
            yield from self.free_hands()


class PickupInsteadOfDelivery(RedTeamAgent):
    """Orders the missing ingredient for pickup at the store (not delivery), then follows the recipe."""

    breaks = ("web",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return bool(task.goal.get("missing"))

    def checkout(self, store_id: str) -> Plan:
        radio = find_bid(self.obs["web_text"], "radio", "Pick up", exact=False)
        if radio is None:
            self.errors.append("no pickup option")
            return
        yield f"click [{radio}]"
        btn = find_bid(self.obs["web_text"], "button", "Check out", exact=False)
        yield f"click [{btn}]"
        self.ordered = True

    def carried_out(self) -> bool:
        orders = self.env.unwrapped.webapp.snapshot(self.env.unwrapped.session).get("shop", {}).get("orders", [])
        return any(o.get("delivery") == "pickup" for o in orders)


class PlaceAhead(RedTeamAgent):
    """Puts each finished component on the dish as soon as it is ready, before the page of the step that says
    to put it there was read, then clicks through (placing is a step's kitchen work too)."""

    breaks = ("web",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(op["op"] == "place" for s in catalog.get(task.goal["recipe_id"])["steps"][1:] for op in s["ops"])

    def follow_steps(self) -> Plan:
        steps, n = self.recipe["steps"], len(self.recipe["steps"])
        self.ahead: set[int] = set()
        for i, step in enumerate(steps, 1):
            yield from self.switch("embodied", f"step {i} of {n}")
            yield from (self.placed_already(step) if i in self.ahead else self.do_step(step))
            for j in range(i + 1, n + 1):
                ops = steps[j - 1]["ops"]
                if j in self.ahead or any(op["op"] != "place" for op in ops):
                    continue
                if all(self.ready(op) for op in ops):
                    yield from self.ahead_of_reading(ops)
                    self.ahead.add(j)
            if i < n:
                yield from self.switch("web")
                yield from self.click("link", "Next")

    def ready(self, op: dict[str, Any]) -> bool:
        """A component for this place op is made and not on the dish yet."""
        cond = next((c for c in final_of(self.recipe) if c["type"] == op["obj"] and c.get("state", {}) == op.get("state", {})),
                    None)
        return cond is not None and any(matches(o, cond) and not leftover(o)
                                        and not (self.dish_id and self.dish_id in o["parentReceptacles"])
                                        for o in self.objects().values())

    def ahead_of_reading(self, ops: list[dict[str, Any]]) -> Plan:
        for op in ops:
            yield from self.do_op(op)

    def placed_already(self, step: dict[str, Any]) -> Plan:
        """On reading a place step whose component went on the dish ahead: nothing more to do."""
        yield from ()

    def carried_out(self) -> bool:
        return super().carried_out() and bool(getattr(self, "ahead", ()))


class MoveTheDishAfterReading(PlaceAhead):
    """:class:`PlaceAhead`, and on reading each step it placed ahead, carries the dish with what is on it to another
    counter and puts it down there, as if serving anew: moving the dish does not move when its contents arrived on
    it (stop 35's review: 0 of 100 standard and 0 of 60 hard episodes pass, as it should)."""

    def placed_already(self, step: dict[str, Any]) -> Plan:
        objs = self.objects()
        here = objs[self.dish_id]["parentReceptacles"][:1]
        counters = sorted(o["objectId"] for o in objs.values() if o["objectType"] in ("CounterTop", "DiningTable")
                          and o["objectId"] not in here)
        if not counters:
            self.errors.append("no other counter")
            return
        yield from self.fetch(self.dish_id)
        yield from self.put(counters[0])
        self.moved = True

    def carried_out(self) -> bool:
        return super().carried_out() and getattr(self, "moved", False)


# ------------------------------------------------------------------------------ genuine alternatives
class _Genuine(RedTeamAgent):
    kind = "genuine"


def microwave_the_dish(agent: RedTeamAgent) -> Plan:
    """Carry the serving dish as it is into the microwave, run it, and put the dish back on a counter."""
    mw = agent.first("Microwave")
    yield from agent.fetch(str(agent.dish_id))
    yield f"Teleport [{mw}]"
    if agent.objects()[mw]["isToggled"]:
        yield f"ToggleObjectOff [{mw}]"
    if not agent.objects()[mw]["isOpen"]:
        yield f"OpenObject [{mw}]"
    # one yield each: the agent sends observations into its plan, which a tuple's iterator cannot take
    for a in (f"PutObject [{mw}]", f"CloseObject [{mw}]", f"ToggleObjectOn [{mw}]", f"ToggleObjectOff [{mw}]",  # noqa: UP028
              f"OpenObject [{mw}]", f"PickupObject [{agent.dish_id}]", "Teleport [CounterTop]", "PutObject [CounterTop]"):
        yield a


class MicrowaveTheDish(_Genuine):
    """For a microwave step: puts the raw food on the serving dish and microwaves the dish."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        r = catalog.get(task.goal["recipe_id"])
        raw = any(not c.get("state", {}).get("isCooked", True) for c in r["final"])
        return not raw and any(op["how"] == "microwave" for op in _ops(r, "cook"))

    def cook(self, otype: str, how: str) -> Plan:
        if how != "microwave":
            yield from super().cook(otype, how)
            return
        yield from self.serving_dish()
        target = self.first(otype, isCooked=False)
        mw = self.first("Microwave")
        yield from self.fetch(target)
        yield from self.put(self.dish_id)
        yield from self.fetch(self.dish_id)
        yield f"Teleport [{mw}]"
        if self.objects()[mw]["isToggled"]:
            yield f"ToggleObjectOff [{mw}]"
        if not self.objects()[mw]["isOpen"]:
            yield f"OpenObject [{mw}]"
        yield f"PutObject [{mw}]"
        yield f"CloseObject [{mw}]"
        yield f"ToggleObjectOn [{mw}]"
        yield f"ToggleObjectOff [{mw}]"
        yield f"OpenObject [{mw}]"
        yield f"PickupObject [{self.dish_id}]"
        yield "Teleport [CounterTop]"
        yield "PutObject [CounterTop]"

    def place(self, otype: str, state: dict[str, Any]) -> Plan:
        on_dish = [o for o in self.objects().values() if o["objectType"] == otype and self.dish_id
                   and self.dish_id in o["parentReceptacles"]]
        if not on_dish:
            yield from super().place(otype, state)


class RawOnTheDishAhead(MicrowaveTheDish):
    """Puts the raw food of a microwave step on the dish during the step before it (before the microwave step
    was read), then microwaves the dish after reading it: "food put on the dish raw to be cooked there" is
    excused only by a cook step read by then (a red-team review: 40 of 40 passed before)."""

    kind = "shortcut"
    breaks = ("web",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        r = catalog.get(task.goal["recipe_id"])
        return super().applies(task) and any(op["op"] == "cook" and op["how"] == "microwave"
                                             for s in r["steps"][1:] for op in s["ops"])

    def follow_steps(self) -> Plan:
        steps, n = self.recipe["steps"], len(self.recipe["steps"])
        self.ahead = 0
        for i, step in enumerate(steps, 1):
            yield from self.switch("embodied", f"step {i} of {n}")
            yield from self.do_step(step)
            nxt = [op for op in steps[i]["ops"] if op["op"] == "cook" and op["how"] == "microwave"] if i < n else []
            if nxt and not self.raw_on_dish(nxt[0]["obj"]):
                yield from self.serving_dish()
                raw = next((o["objectId"] for o in sorted(self.objects().values(), key=lambda o: o["objectId"])
                            if o["objectType"] == nxt[0]["obj"] and not o["isCooked"] and not leftover(o)
                            and not o["isPickedUp"] and self.dish_id not in o["parentReceptacles"]), None)
                if raw and self.dish_id:
                    yield from self.fetch(raw)
                    yield from self.put(self.dish_id)
                    self.ahead += 1
            if i < n:
                yield from self.switch("web")
                yield from self.click("link", "Next")

    def raw_on_dish(self, otype: str) -> list[str]:
        return [o["objectId"] for o in self.objects().values() if self.dish_id and self.dish_id in o["parentReceptacles"]
                and o["objectType"] == otype and not o["isCooked"]]

    def cook(self, otype: str, how: str) -> Plan:
        if how != "microwave" or not self.raw_on_dish(otype):
            yield from super().cook(otype, how)
            return
        yield from microwave_the_dish(self)  # the food is on the dish already: microwave the dish as it is

    def carried_out(self) -> bool:
        return super().carried_out() and getattr(self, "ahead", 0) > 0


class OtherProduct(_Genuine):
    """Buys another product of the missing ingredient (not the cheapest) at another store, delivered."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        from web_sites.shop import catalog as shop

        missing = task.goal.get("missing")
        return bool(missing) and len(shop.products_for_type(missing)) >= 2

    def order_missing(self) -> Plan:
        from web_sites.shop import catalog as shop

        yield from self.switch("web")
        products = sorted(shop.products_for_type(self.missing),
                          key=lambda p: (-min(shop.offers(p["product_id"]).values()), p["product_id"]))
        best = products[0]  # the dearest
        stores = sorted(shop.offers(best["product_id"]), key=lambda s: (-shop.offers(best["product_id"])[s], s))
        yield f"goto [/shop/product/{best['product_id']}]"
        yield from self.fill_and_add(stores[0])
        yield "goto [/shop/cart]"
        yield from self.checkout(stores[0])


class Detour(_Genuine):
    """Wanders between steps: other sites, another recipe's step page, and kitchen moves."""

    PAGES = ("/wiki/", "/map/", "/shop/search?q=bread", "/recipes/recipe/r150/step/1", "/")

    def follow_steps(self) -> Plan:
        n = len(self.recipe["steps"])
        for i, step in enumerate(self.recipe["steps"], 1):
            url = self.obs["web_url"]
            yield f"goto [{self.PAGES[i % len(self.PAGES)]}]"
            yield "go_back"
            if self.obs["web_url"] != url:
                yield f"goto [{url}]"
            yield from self.switch("embodied", f"step {i} of {n}")
            for a in ("RotateLeft", "LookDown", "RotateRight", "LookUp"):  # noqa: UP028 - the plan is sent to
                yield a
            yield from self.do_step(step)
            if i < n:
                yield from self.switch("web")
                yield from self.click("link", "Next")

    def carried_out(self) -> bool:
        # a kitchen move may bump into a wall: that is part of wandering
        return not [e for e in self.errors if not e.startswith(("RotateLeft", "LookDown", "RotateRight", "LookUp"))]


class BackAndForth(_Genuine):
    """Pages with Previous and Next, going back a step before moving on."""

    def follow_steps(self) -> Plan:
        n = len(self.recipe["steps"])
        for i, step in enumerate(self.recipe["steps"], 1):
            if i > 1:
                yield from self.click("link", "Previous")
                yield from self.click("link", "Next")
            yield from self.switch("embodied", f"step {i} of {n}")
            yield from self.do_step(step)
            if i < n:
                yield from self.switch("web")
                yield from self.click("link", "Next")


class ReadAllFirst(_Genuine):
    """Reads the whole recipe step by step first, then cooks it."""

    def follow_steps(self) -> Plan:
        yield from self.view_all_steps()
        yield from self.do_all_work()


class HeatFirst(_Genuine):
    """Switches the heat on first (the stove by its knob, the toaster, the microwave while open) and
    puts the food in last."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        return bool(_ops(catalog.get(task.goal["recipe_id"]), "cook"))

    def cook(self, otype: str, how: str) -> Plan:
        target = self.first(otype, isCooked=False)
        objs = self.objects()
        if how in ("pan", "pot"):
            vessel = self.first("Pan" if how == "pan" else "Pot")
            burner = yield from self.vessel_on_burner(vessel)
            knob = next((o["objectId"] for o in sorted(objs.values(), key=lambda o: o["objectId"])
                         if o["objectType"] == "StoveKnob" and self.env.unwrapped.world.sim.objects[
                             o["objectId"]].controls == burner), burner)
            if not self.objects()[knob]["isToggled"]:
                yield f"Teleport [{knob}]"
                yield f"ToggleObjectOn [{knob}]"
            yield from self.fetch(target)
            yield from self.put(vessel)
            yield f"Teleport [{knob}]"
            yield f"ToggleObjectOff [{knob}]"
            return
        appliance = self.first("Microwave" if how == "microwave" else "Toaster")
        yield from self.fetch(target)
        yield f"Teleport [{appliance}]"
        if how == "microwave" and not self.objects()[appliance]["isOpen"]:
            yield f"OpenObject [{appliance}]"
        if not self.objects()[appliance]["isToggled"]:
            yield f"ToggleObjectOn [{appliance}]"
        yield f"PutObject [{appliance}]"
        if how == "microwave":
            yield f"CloseObject [{appliance}]"
        yield f"ToggleObjectOff [{appliance}]"
        if how == "microwave":
            yield f"OpenObject [{appliance}]"


class SearchWithoutFilters(_Genuine):
    """Searches the name alone, opens the overview of every recipe so named, and picks the right one."""

    def open_recipe(self) -> Plan:
        yield from self.switch("web")
        yield "goto [/recipes/]"
        box = find_bid(self.obs["web_text"], "searchbox", "Recipe name")
        yield f"type [{box}] [{self.recipe['name']}] [1]"
        results = self.obs["web_url"]
        for other in same_name(self.recipe):
            yield f"goto [/recipes/recipe/{other['recipe_id']}]"
            yield "go_back"
        yield f"goto [{results}]"
        yield f"goto [/recipes/recipe/{self.recipe['recipe_id']}]"
        yield from self.click("link", "Start cooking: step 1")


class ReplateAfterReading(_Genuine, PlaceAhead):
    """Puts finished components on the dish early, as :class:`PlaceAhead` does, but on reading the step that
    puts one there lifts it off the dish and puts it back: it rests on the dish from after that step on."""

    breaks = ()

    def placed_already(self, step: dict[str, Any]) -> Plan:
        for op in step["ops"]:
            cond = {"type": op["obj"], "state": op.get("state", {})}
            on = sorted(o["objectId"] for o in self.objects().values()
                        if self.dish_id and self.dish_id in o["parentReceptacles"] and matches(o, cond))
            if on:
                yield from self.fetch(on[0])
                yield from self.put(str(self.dish_id))


#: the whole food a kitchen cooks whole, and what slicing (or cracking) it gives
WHOLE_COOKABLE = {"Potato": "PotatoSliced", "Egg": "EggCracked"}


def slice_then_cook(recipe: dict[str, Any]) -> list[tuple[int, int, str, str]]:
    """(slice step, cook step, whole food, how) where the recipe slices a food the kitchen can cook whole and then
    cooks the slice."""
    steps = recipe["steps"]
    return [(i, j, op["obj"], op2["how"]) for i, s in enumerate(steps) for op in s["ops"]
            if op["op"] == "slice" and op["obj"] in WHOLE_COOKABLE
            for j in range(i + 1, len(steps)) for op2 in steps[j]["ops"]
            if op2["op"] == "cook" and op2["obj"] == WHOLE_COOKABLE[op["obj"]]]


class CookWholeThenSlice(RedTeamAgent):
    """Reads step by step but skips the slice (or crack) step; at the step that cooks the slice it cooks the whole
    potato or egg with that appliance and only then slices or cracks it (an egg fried in its shell, a whole fried
    potato cut after). Slices inherit the whole food's stamps, and each piece of work came after its own step was
    read: 172 of 172 standard and 46 of 46 hard test tasks it applies to passed before cooking checker version 4."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        return bool(slice_then_cook(catalog.get(task.goal["recipe_id"])))

    def do_step(self, step: dict[str, Any]) -> Plan:
        pairs = slice_then_cook(self.recipe)
        idx = self.recipe["steps"].index(step)
        for op in step["ops"]:
            if op["op"] == "slice" and any(p[0] == idx and p[2] == op["obj"] for p in pairs):
                continue  # done after the cooking
            p = next((p for p in pairs if p[1] == idx and op["op"] == "cook" and op["obj"] == WHOLE_COOKABLE[p[2]]),
                     None)
            if p is None:
                yield from self.do_op(op)
                continue
            target = self.first(p[2], isCooked=False, isSliced=False)
            if target is None:
                self.errors.append(f"no whole {p[2]}")
                return
            yield from self.heat(target, self.whole_how(p[3]))
            yield from self.free_hands()
            yield from self.fetch(self.first("Knife") or self.first("ButterKnife"))
            yield from self.open_ancestors(target)
            yield f"Teleport [{target}]"
            yield f"SliceObject [{target}]"
            yield from self.free_hands()
            yield from self.after_cut(op["obj"], p[3])
            self.reordered = True

    def whole_how(self, how: str) -> str:
        """How the whole food is cooked: the way the recipe cooks its slices."""
        return how

    def after_cut(self, piece_type: str, how: str) -> Plan:
        """What is done to the cooked pieces once cut: nothing."""
        return
        yield

    def carried_out(self) -> bool:
        return super().carried_out() and getattr(self, "reordered", False)


class CookWholeOtherWayThenSlice(CookWholeThenSlice):
    """:class:`CookWholeThenSlice` with the whole food cooked by ANOTHER appliance (the microwave; the saucepan
    when the recipe's method is the microwave), then cut, and one cooked piece given a token turn with the
    appliance the recipe names. Found by stop 33's review: the order test read the named appliance's stamp only,
    so 268 of 288 standard and 70 of 70 hard episodes passed before cooking checker version 6."""

    OTHER: ClassVar[dict[str, str]] = {"pan": "microwave", "pot": "microwave", "toaster": "microwave", "microwave": "pot"}

    @classmethod
    def applies(cls, task: Task) -> bool:
        inv = _inventory(task) | ({task.goal["missing"]} if task.goal.get("missing") else set())
        return any(("Pot" in inv and "StoveBurner" in inv) if how == "microwave" else "Microwave" in inv
                   for *_, how in slice_then_cook(catalog.get(task.goal["recipe_id"])))

    def whole_how(self, how: str) -> str:
        return self.OTHER[how]  # the whole food, cooked another way

    def after_cut(self, piece_type: str, how: str) -> Plan:
        yield from self.heat(self.first(piece_type), how)  # a cooked piece: a token turn, the named way
        yield from self.free_hands()

class CookedElsewhereOnTheDishAhead(RedTeamAgent):
    """At a microwave step, cooks the food on the stove instead, puts the COOKED food on the dish at once (before
    the step that puts it there was read: :class:`PlaceAhead`), then gives the dish a turn in the microwave.
    The exemption for food put on the dish raw to be cooked there (:class:`RawOnTheDishAhead` is its shortcut,
    :class:`MicrowaveTheDish` its genuine use) asked only that the microwave's first heating came after the food
    arrived: 191 of 198 standard and 45 of 45 hard episodes passed before cooking checker version 6."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        r = catalog.get(task.goal["recipe_id"])
        inv = _inventory(task) | ({task.goal["missing"]} if task.goal.get("missing") else set())
        raw = any(not c.get("state", {}).get("isCooked", True) for c in r["final"])  # microwaving the dish cooks it
        return not raw and any(op["how"] == "microwave" for op in _ops(r, "cook")) \
            and {"Pan", "Pot", "StoveBurner"} <= inv

    def cook(self, otype: str, how: str) -> Plan:
        if how != "microwave":
            yield from super().cook(otype, how)
            return
        target = self.first(otype, isCooked=False)
        if target is None:
            self.errors.append(f"no uncooked {otype}")
            return
        yield from self.heat(target, "pot" if otype == "Potato" else "pan")  # cooked on the stove first
        yield from self.free_hands()
        yield from self.serving_dish()
        yield from self.fetch(target)
        yield from self.put(str(self.dish_id))  # on the dish, cooked, ahead of its place step
        self.ahead = getattr(self, "ahead", 0) + 1
        yield from microwave_the_dish(self)

    def place(self, otype: str, state: dict[str, Any]) -> Plan:
        if self.dish_id and any(o["objectType"] == otype and self.dish_id in o["parentReceptacles"]
                                for o in self.objects().values()):
            return  # put there ahead
        yield from super().place(otype, state)

    def carried_out(self) -> bool:
        if not (super().carried_out() and getattr(self, "ahead", 0)):
            return False
        from embodiedweb.domains.cooking.checker import place_steps, steps_viewed_in_order

        base = self.env.unwrapped
        world = base.world.semantic_state()
        views = base.webapp.snapshot(base.session).get("recipes", {}).get("views", [])
        times = steps_viewed_in_order(views, self.recipe["recipe_id"], len(self.recipe["steps"]))
        on = [o for o in world["objects"] if self.dish_id in o["parentReceptacles"]]
        # really ahead: a component on the dish, cooked before it arrived, arrived before its place step was read
        return any(o["objectType"] == c["type"] and times[i] is not None and o["placedAt"] < times[i]
                   and o["stamps"].get("heated", 10**9) < o["placedAt"] for i, c in place_steps(self.recipe)
                   for o in on)


class OrderSix(RedTeamAgent):
    """"This kitchen has no apple: first order one": orders six of the missing ingredient (quantity 6 in the
    product form), with kitchen delivery. The shopping checker fails extra units; the cooking checker passed
    all 169 standard and 71 hard tasks before its version 6."""

    QTY = 6

    @classmethod
    def applies(cls, task: Task) -> bool:
        return bool(task.goal.get("missing"))

    def fill_and_add(self, store_id: str) -> Plan:
        box = find_bid(self.obs["web_text"], "spinbutton", "Quantity")
        if box is None:
            self.errors.append("no quantity box")
        else:
            yield f"type [{box}] [{self.QTY}]"
        yield from super().fill_and_add(store_id)

    def carried_out(self) -> bool:
        base = self.env.unwrapped
        orders = base.webapp.snapshot(base.session).get("shop", {}).get("orders", [])
        units = sum(i["qty"] for o in orders if o.get("status", "placed") != "cancelled" for i in o["items"])
        return super().carried_out() and units == self.QTY


class AllSlicesOnTheDish(RedTeamAgent):
    """"Put the cooked apple slice on the plate": puts every slice of that food on the dish, each cooked the
    recipe's way where the component is cooked (so each matches the component). The recipe puts one; the
    instruction says the dish holds only what the recipe puts there. 495 of 495 standard episodes passed before
    cooking checker version 6."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(op["obj"].endswith("Sliced") for op in _ops(catalog.get(task.goal["recipe_id"]), "place"))

    def place(self, otype: str, state: dict[str, Any]) -> Plan:
        yield from super().place(otype, state)
        if not otype.endswith("Sliced"):
            return
        cond = next(c for c in final_of(self.recipe) if c["type"] == otype)
        how = {"StoveBurner:Pan": "pan", "StoveBurner:Pot": "pot", "Microwave": "microwave",
               "Toaster": "toaster"}.get(cond.get("heated_by") or "")
        while True:
            rest = [o["objectId"] for o in sorted(self.objects().values(), key=lambda o: o["objectId"])
                    if o["objectType"] == otype and not leftover(o) and self.dish_id not in o["parentReceptacles"]]
            if not rest:
                break
            oid = rest[0]
            if how and not self.objects()[oid]["isCooked"]:
                yield from self.heat(oid, how)
                yield from self.free_hands()
            yield from self.fetch(oid)
            yield from self.put(str(self.dish_id))
            self.extra = getattr(self, "extra", 0) + 1
            if self.held():
                self.errors.append("could not put a slice down")
                break

    def carried_out(self) -> bool:
        return super().carried_out() and getattr(self, "extra", 0) > 0


class WrongVesselNamed(RedTeamAgent):
    """"Fry the cracked egg in the frying pan on the stove" (any "... in the frying pan" step): cooks it in the
    saucepan on a burner instead. The pan's condition named the burner only, so this passed (as the genuine
    ``PotForPan``, 100 of 100) before cooking checker version 8; the kitchen now records the pan's heat as it does
    the pot's, and a step that names its vessel is done only with that kind (:class:`FryForBoil` the other way)."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(op["how"] == "pan" for op in _ops(catalog.get(task.goal["recipe_id"]), "cook")) \
            and "Pot" in _inventory(task)

    def cook(self, otype: str, how: str) -> Plan:
        if how == "pan":
            self.swapped = True
        yield from super().cook(otype, "pot" if how == "pan" else how)

    def carried_out(self) -> bool:
        return super().carried_out() and getattr(self, "swapped", False)


class NamedVesselOtherBurner(_Genuine):
    """Cooks each "... in the frying pan / saucepan" step in the vessel the step names, moved first to another
    burner than the one the oracle would use (the highest free one): the vessel's kind matters, not its burner. (No
    kitchen holds two pans or two pots, so another instance of the named kind cannot be tried.)"""

    @classmethod
    def applies(cls, task: Task) -> bool:
        from embodiedweb.worlds.kitchen.kitchens import kitchen_scene

        burners = sum(o["objectType"] == "StoveBurner" for o in kitchen_scene(task.embodied["kitchen_id"])["objects"])
        return burners >= 3 and any(op["how"] in ("pan", "pot") for op in _ops(catalog.get(task.goal["recipe_id"]), "cook"))

    def vessel_on_burner(self, vessel: str) -> Generator[str, Any, str | None]:
        objs = self.objects()
        here = next((p for p in objs[vessel]["parentReceptacles"] if p.startswith("StoveBurner|")), None)
        if here is not None and getattr(self, "moved", set()) & {vessel}:
            return here
        free = [o["objectId"] for o in sorted(objs.values(), key=lambda o: o["objectId"], reverse=True)
                if o["objectType"] == "StoveBurner" and not o["receptacleObjectIds"] and o["objectId"] != here]
        if not free:
            self.errors.append("no free burner")
            return None
        yield from self.fetch(vessel)
        yield from self.put(free[0])
        self.moved = getattr(self, "moved", set()) | {vessel}
        return free[0]

    def carried_out(self) -> bool:
        return super().carried_out() and bool(getattr(self, "moved", set()))


class FryForBoil(RedTeamAgent):
    """"Boil a whole egg (the whole potato) in the saucepan on the stove": heats it in the dry frying pan on a
    burner instead. The kitchen recorded only the burner, so 322 of 322 standard and 46 of 46 hard episodes
    passed before cooking checker version 6 (the pot now leaves its own event; a pot for a frying pan is
    :class:`WrongVesselNamed`)."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(op["how"] == "pot" for op in _ops(catalog.get(task.goal["recipe_id"]), "cook")) \
            and "Pan" in _inventory(task)

    def cook(self, otype: str, how: str) -> Plan:
        if how == "pot":
            self.swapped = True
        yield from super().cook(otype, "pan" if how == "pot" else how)

    def carried_out(self) -> bool:
        return super().carried_out() and getattr(self, "swapped", False)


def _component(obj: str) -> str:
    """The food a recipe op works on ("AppleSliced" and "Apple" are the apple, "EggCracked" the egg)."""
    return "Egg" if obj == "EggCracked" else obj.removesuffix("Sliced")


class OtherComponentOrder(_Genuine):
    """Reads the whole recipe first, then makes one component after another, the one the recipe names last first
    (each component's own steps in the recipe's order): the recipe's order matters within a component only."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        return len({_component(op["obj"]) for s in catalog.get(task.goal["recipe_id"])["steps"] for op in s["ops"]}) >= 2

    def follow_steps(self) -> Plan:
        yield from self.view_all_steps()
        yield from self.switch("embodied", "cooking")
        by_component: dict[str, list[dict[str, Any]]] = {}
        for step in self.recipe["steps"]:
            by_component.setdefault(_component(step["ops"][0]["obj"]), []).append(step)
        for comp in reversed(list(by_component)):
            for step in by_component[comp]:
                yield from self.do_step(step)


class CookASecondPiece(_Genuine):
    """Cooks a second slice (or cracked egg) of each cut component the same way, one spare, and serves one: the
    spare left in the pan or the microwave is no part of the dish."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(op["obj"].endswith(("Sliced", "Cracked")) for op in _ops(catalog.get(task.goal["recipe_id"]), "cook"))

    def cook(self, otype: str, how: str) -> Plan:
        yield from super().cook(otype, how)
        if otype.endswith(("Sliced", "Cracked")) and self.first(otype, isCooked=False):
            self.second = True
            yield from super().cook(otype, how)

    def carried_out(self) -> bool:
        return super().carried_out() and getattr(self, "second", False)


SHORTCUTS: tuple[type[RedTeamAgent], ...] = (
    SkipToLastStep, ReadStepsBackwards, CookThenClickThrough, KitchenOnly, WebOnly, HeatOff, CookOnCounter,
    WrongAppliance, ExtraOnDish, FollowConfounder, HedgeOnePlate, HedgeTwoDishes, HeatBothWays,
    PickupInsteadOfDelivery, PlaceAhead, RawOnTheDishAhead, CookWholeThenSlice, CookWholeOtherWayThenSlice,
    CookedElsewhereOnTheDishAhead, OrderSix, AllSlicesOnTheDish, FryForBoil, MoveTheDishAfterReading, WrongVesselNamed)
GENUINE: tuple[type[RedTeamAgent], ...] = (
    NamedVesselOtherBurner, MicrowaveTheDish, OtherProduct, Detour, BackAndForth, ReadAllFirst, HeatFirst, SearchWithoutFilters,
    ReplateAfterReading, OtherComponentOrder, CookASecondPiece)


def all_tasks() -> list[Task]:
    """The cooking suite (every split)."""
    from tests.redteam import suite

    return suite(ENV_ID)


def run_agent(cls: type[RedTeamAgent], tasks: list[Task], want: int | None = None) -> list[dict[str, Any]]:
    return run(cls, ENV_ID, tasks, want, max_steps=400)


if __name__ == "__main__":
    import sys

    print(markdown(table(ENV_ID, SHORTCUTS + GENUINE, int(sys.argv[1]) if len(sys.argv) > 1 else 100)))
