"""Red-team agents for the cooking hard tier (``data/cooking/hard.jsonl``), next to the standard ones in
:mod:`tests.domains.cooking.redteam` (which also run on hard tasks).

Shortcuts (must fail): take the leftovers that match the recipe's components; hedge on the missing
ingredient by ordering every ingredient (and, once the deliveries are in the kitchen, try to cancel the ones
not needed: the shop refuses); slice every food on the first step's page, ahead of the recipe; find
the missing ingredient by which names the kitchen refuses, without opening anything.
Genuine alternatives (must pass): the other fresh instance of an ingredient; order the missing ingredient
only when a step needs it; look through every closed cupboard, drawer and fridge before starting; take the
serving dish to another counter before the first component goes on it; order a wrong ingredient and cancel it
before it reaches the kitchen. :class:`GuessMissing` is neither: it orders an ingredient it never
looked for (the recipe's first), and the test shows it passes exactly when that guess is the missing one.

``python -m tests.domains.cooking.redteam_hard`` prints the table of rates over the hard tier.
"""

from __future__ import annotations

from typing import Any

from baselines.script import Plan
from embodiedweb.domains.cooking.oracle import leftover
from embodiedweb.tasks import Task
from embodiedweb.worlds.kitchen import vocab
from tests.domains.cooking import redteam as rt
from tests.domains.cooking.redteam import RedTeamAgent, _Genuine
from tests.redteam import markdown, run

ENV_ID = "EWA-Cooking-v0"


def hard_tasks() -> list[Task]:
    """The cooking hard tier (every split), validated by the domain."""
    from embodiedweb.registration import load_specs
    from embodiedweb.tasks import load_tasks

    spec = next(s for s in load_specs() if s.id == ENV_ID)
    return list(load_tasks(spec.level_tasks_path("hard"), spec.load_domain().validate_task))


def run_agent(cls: type[RedTeamAgent], tasks: list[Task], want: int | None = None) -> list[dict[str, Any]]:
    return run(cls, ENV_ID, tasks, want, max_steps=400)


def dish_contents(agent: RedTeamAgent) -> list[dict[str, Any]]:
    objs = agent.objects()
    return [o for o in objs.values() if agent.dish_id and agent.dish_id in o["parentReceptacles"]]


def orders(agent: RedTeamAgent) -> list[dict[str, Any]]:
    base = agent.env.unwrapped
    return base.webapp.snapshot(base.session).get("shop", {}).get("orders", [])


# ---------------------------------------------------------------------------------------- shortcuts
class UseLeftovers(RedTeamAgent):
    """Serves the leftovers that match a component (type, state and the appliance that heated it) instead of
    making that component: the nearest right-looking food."""

    breaks = ("web",)

    def component(self, otype: str, state: dict[str, Any]) -> str | None:
        from embodiedweb.domains.cooking.checker import final_of, matches

        cond = next((c for c in final_of(self.recipe) if c["type"] == otype and c.get("state", {}) == state), None)

        for o in sorted(self.objects().values(), key=lambda o: o["objectId"]):
            if cond is not None and matches(o, cond) and leftover(o) \
                    and not (self.dish_id and self.dish_id in o["parentReceptacles"]):
                return o["objectId"]
        return super().component(otype, state)

    def carried_out(self) -> bool:
        return super().carried_out() and any(leftover(o) for o in dish_contents(self))


def order_then_cook(agent: RedTeamAgent, ingredients: list[str]) -> Plan:
    """Order each of ``ingredients`` with kitchen delivery (whatever the kitchen has), then cook as the oracle
    does and stop: the shortcuts that decide what is missing without looking."""
    for ing in ingredients:
        agent.missing = ing
        yield from agent.order_missing()
    agent.missing = agent.task.goal.get("missing")
    yield from agent.open_recipe()
    yield from agent.follow_steps()
    yield "stop"


class OrderEveryIngredient(RedTeamAgent):
    """Never looks in the kitchen for what is missing: orders one of every ingredient of the recipe, with
    delivery, then cooks."""

    breaks = ("web",)

    def plan(self) -> Plan:
        yield from order_then_cook(self, sorted(self.recipe["ingredients"]))

    def carried_out(self) -> bool:
        got = {i.get("object_type") for o in orders(self) for i in o["items"]}
        return super().carried_out() and set(self.recipe["ingredients"]) <= got


class SliceAhead(RedTeamAgent):
    """On the first step's page, slices every food the recipe slices (a long recipe's later slicing steps
    done before their pages were read), then follows the steps."""

    def follow_steps(self) -> Plan:
        self.sliced_ahead: set[str] = set()
        yield from self.switch("embodied", "slicing everything")
        for step in self.recipe["steps"]:
            for op in step["ops"]:
                if op["op"] == "slice" and op["obj"] not in self.sliced_ahead:
                    yield from self.slice(op["obj"])
                    self.sliced_ahead.add(op["obj"])
        yield from super().follow_steps()

    def do_op(self, op: dict[str, Any]) -> Plan:
        if op["op"] == "slice" and op["obj"] in getattr(self, "sliced_ahead", ()):
            return
        yield from super().do_op(op)

    def carried_out(self) -> bool:  # a slicing step after the first one was done ahead
        return super().carried_out() and any(op["op"] == "slice" for s in self.recipe["steps"][1:] for op in s["ops"])


class GuessMissing(RedTeamAgent):
    """Orders the recipe's first ingredient without looking (a blind guess at what is missing), then cooks."""

    def plan(self) -> Plan:
        yield from order_then_cook(self, sorted(self.recipe["ingredients"])[:1])

    def carried_out(self) -> bool:  # a wrong guess leaves the truly missing food unbought: steps fail
        return True


class ProbeWithoutLooking(RedTeamAgent):
    """Never opens a cupboard, drawer or the fridge to see what is missing: in the kitchen it names each of the
    recipe's ingredients (``Teleport [Tomato]``) and orders every one the kitchen refuses to name, then cooks.
    (Before the hard tier's ``embodied.teleport = "seen"``, only the missing one was refused, and the admissible
    list left it out: this passed all 142 tasks without looking.)"""

    def plan(self) -> Plan:
        yield from self.switch("embodied", "checking the ingredients")
        refused = []
        for ing in sorted(self.recipe["ingredients"]):
            yield f"Teleport [{ing}]"
            if "named" in (self.obs.get("last_action_error") or ""):
                refused.append(ing)
        yield from order_then_cook(self, refused)

    def carried_out(self) -> bool:
        return True


def cancel_last_order(agent: RedTeamAgent) -> Plan:
    """On the page the checkout led to, click "Cancel order ORD-..." (the agent's own words: ``cancel-refused``
    when the page offers no such button, as after a delivery)."""
    import re

    from baselines.script import find_bid

    m = re.search(r"heading 'Order (ORD-\d+)'", agent.obs["web_text"])
    if m is None:
        agent.errors.append("no order placed")
        return
    yield f"goto [/shop/orders/{m.group(1)}]"
    button = find_bid(agent.obs["web_text"], "button", f"Cancel order {m.group(1)}")
    if button is None:
        agent.errors.append(f"cancel-refused {m.group(1)}")
        return
    yield f"click [{button}]"
    if "is cancelled" not in agent.obs["web_text"]:
        agent.errors.append(f"{m.group(1)} not cancelled")


class OrderAllCancelAfterLooking(RedTeamAgent):
    """Hedges by ordering every ingredient with delivery, looks in the kitchen (the deliveries land there), then
    tries to cancel the orders of what turned out not to be missing: the shop refuses, they are in the kitchen."""

    breaks = ("web",)
    tolerated = ("cancel-refused",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return bool(task.goal.get("missing"))

    def plan(self) -> Plan:
        placed = []
        for ing in sorted(self.recipe["ingredients"]):
            self.missing = ing
            yield from self.order_missing()
            placed.append((ing, self.obs["web_url"]))
        self.missing = self.task.goal.get("missing")
        yield from self.switch("embodied", "what came")
        yield from self.switch("web")
        self.refused = 0
        for ing, url in placed:
            if ing != self.missing:
                yield f"goto [{url}]"
                before = len(self.errors)
                yield from cancel_last_order(self)
                self.refused += len(self.errors) > before
        yield from self.open_recipe()
        yield from self.follow_steps()
        yield "stop"

    def carried_out(self) -> bool:  # every extra order stood (refused), none was cancelled
        return super().carried_out() and self.refused == len(self.recipe["ingredients"]) - 1 \
            and not [o for o in orders(self) if o.get("status") == "cancelled"]


def finish_then(agent: RedTeamAgent, after: Any) -> Plan:
    """The oracle's plan up to its ``stop``, then ``after(agent)`` (a plan of what the agent does once the dish is
    done), then ``stop``."""
    for a in RedTeamAgent.plan(agent):
        if a == "stop":
            break
        yield a
    yield from after(agent)
    yield "stop"


class OneExtraOrder(RedTeamAgent):
    """The honest oracle with one slip: it also orders one ingredient the kitchen has (the first of the recipe's
    others), for delivery, before it starts. Fails ``ordered nothing the kitchen has``; ``completion`` keeps the
    credit of the work done (stop 39: a broken gate used to zero its side, 0.23 on cook-hard-001)."""

    breaks = ("web",)
    #: the delivery ("kitchen") or "pickup" of the extra order
    how = "kitchen"

    @classmethod
    def applies(cls, task: Task) -> bool:
        return bool(task.goal.get("missing"))

    def plan(self) -> Plan:
        self.extra = sorted(set(self.recipe["ingredients"]) - {self.task.goal.get("missing")})[0]
        self.missing, self.picking_up = self.extra, self.how == "pickup"
        yield from self.order_missing()
        self.missing, self.picking_up = self.task.goal.get("missing"), False
        yield from super().plan()

    def checkout(self, store_id: str) -> Plan:
        if not getattr(self, "picking_up", False):
            yield from super().checkout(store_id)
            return
        yield from rt.PickupInsteadOfDelivery.checkout(self, store_id)  # type: ignore[arg-type]

    def carried_out(self) -> bool:
        return super().carried_out() and any(o.get("delivery") == self.how and i.get("object_type") == self.extra
                                             for o in orders(self) for i in o["items"])


class PickupWhatTheKitchenHas(OneExtraOrder):
    """:class:`OneExtraOrder` with the extra order picked up in store ("Pick up in store"): ``ordered nothing the
    kitchen has`` names no order at all, so it fails as a delivery does (until checker version 9 it passed)."""

    how = "pickup"


class ServeInOtherDish(RedTeamAgent):
    """Serves every component on the kitchen's other kind of dish (the bowl next to a plate recipe, the plate next to
    a bowl one) instead of the recipe's (stop 37)."""

    breaks = ("embodied",)

    def serving_dish(self) -> Plan:
        if self.dish_id is not None:
            return
        from embodiedweb.data_gen.hard_cooking import OTHER_DISH

        other = sorted(o["objectId"] for o in self.objects().values() if o["objectType"] == OTHER_DISH[self.recipe["dish"]])
        if not other:
            self.errors.append("no other dish")
            return
        self.dish_id = other[0]
        yield from ()


class OrderAfterDone(RedTeamAgent):
    """Cooks and serves the dish as the oracle does, then orders an ingredient the kitchen has, with delivery (an
    extra order once the dish is done; stop 37)."""

    breaks = ("web",)

    def plan(self) -> Plan:
        def order_one(agent: RedTeamAgent) -> Plan:
            missing = agent.missing
            agent.missing = next(i for i in sorted(agent.recipe["ingredients"]) if i != missing)
            yield from agent.order_missing()
            agent.missing = missing
            agent.ordered_after = len(orders(agent))

        yield from finish_then(self, order_one)

    def carried_out(self) -> bool:
        return super().carried_out() and getattr(self, "ordered_after", 0) >= 1 + bool(self.task.goal.get("missing"))


class LastComponentLeftOff(RedTeamAgent):
    """Follows every step but puts nothing on the dish at the last place step: a partial dish (stop 37)."""

    breaks = ("embodied",)

    def place(self, otype: str, state: dict[str, Any]) -> Plan:
        from embodiedweb.domains.cooking.checker import place_steps

        last = place_steps(self.recipe)[-1][1]
        if otype == last["type"] and state == last["state"]:
            self.left_off = otype
            return
        yield from super().place(otype, state)

    def carried_out(self) -> bool:
        return super().carried_out() and bool(getattr(self, "left_off", ""))


def _raw_component(task: Task) -> bool:
    """Whether the task's dish holds a component no step heats (raw food)."""
    from embodiedweb.domains.cooking.checker import final_of
    from web_sites.recipes import catalog

    return any(not c.get("heated_by") for c in final_of(catalog.get(task.goal["recipe_id"])))


def _microwave_dish(agent: RedTeamAgent) -> Plan:
    from tests.domains.cooking.redteam import microwave_the_dish

    yield from agent.switch("embodied", "warming the dish")
    yield from microwave_the_dish(agent)
    agent.reheated = True


class MicrowaveRawAfterDone(RedTeamAgent):
    """Serves the dish as the oracle does, then microwaves the whole dish, raw components and all (a harmful
    extra step once the dish is done: the raw food is cooked now; stop 37)."""

    breaks = ("embodied",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return _raw_component(task)

    def plan(self) -> Plan:
        yield from finish_then(self, _microwave_dish)

    def carried_out(self) -> bool:
        return super().carried_out() and getattr(self, "reheated", False)


# ------------------------------------------------------------------------------ genuine alternatives
class OtherFreshInstance(_Genuine):
    """Uses the fresh instance with the highest id (e.g. the second bread, in a drawer) where the oracle takes
    the lowest."""

    newest_first = True


class OrderWhenNeeded(_Genuine):
    """Follows the recipe and orders the missing ingredient only when a step needs it and it is nowhere in
    the kitchen (found missing, not told)."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        return bool(task.goal.get("missing"))

    def plan(self) -> Plan:
        yield from self.open_recipe()
        yield from self.follow_steps()
        yield "stop"

    def do_op(self, op: dict[str, Any]) -> Plan:
        base = op["obj"].removesuffix("Sliced").replace("EggCracked", "Egg")
        have = [o for o in self.objects().values() if o["objectType"] in (base, op["obj"]) and not leftover(o)]
        if not have and self.missing == base:
            url = self.obs["web_url"]
            yield from self.order_missing()
            yield f"goto [{url}]"
            yield from self.switch("embodied", "the order is here")
        yield from super().do_op(op)


class LookEverywhereFirst(_Genuine):
    """Opens every closed cupboard, drawer and the fridge before reading the recipe, then orders what the
    recipe needs that is nowhere to be seen."""

    def plan(self) -> Plan:
        yield from self.switch("embodied", "looking around")
        for o in sorted(self.objects().values(), key=lambda o: o["objectId"]):
            if o["objectType"] in ("Fridge", "Cabinet", "Drawer") and o["objectType"] in vocab.OPENABLE \
                    and not o.get("isOpen"):
                yield f"Teleport [{o['objectId']}]"
                yield f"OpenObject [{o['objectId']}]"
        seen = {o["objectType"] for o in self.objects().values() if not leftover(o)}
        lacking = sorted(set(self.recipe["ingredients"]) - seen)
        for ing in lacking:
            self.missing = ing
            yield from self.order_missing()
        yield from self.open_recipe()
        yield from self.follow_steps()
        yield "stop"

    def carried_out(self) -> bool:  # some cupboards cannot be reached or opened: looking is best effort
        return not [e for e in self.errors if not e.startswith(("Teleport", "OpenObject"))]


class DishElsewhere(_Genuine):
    """Takes the serving dish to another counter (or the table) before the first component goes on it."""

    def place(self, otype: str, state: dict[str, Any]) -> Plan:
        if self.dish_id is None:
            yield from self.serving_dish()
            if self.dish_id is not None:
                objs = self.objects()
                here = set(objs[self.dish_id]["parentReceptacles"])
                other = next((o["objectId"] for o in sorted(objs.values(), key=lambda o: o["objectId"], reverse=True)
                              if o["objectType"] in ("CounterTop", "DiningTable") and o["objectId"] not in here), None)
                if other:
                    yield from self.fetch(self.dish_id)
                    yield from self.put(other)
        yield from super().place(otype, state)


class CancelsWrongIngredient(_Genuine):
    """Orders an ingredient the kitchen has by mistake (the recipe's first that is not missing), cancels that order
    on its page before going to the kitchen, then does what the oracle does (71 of the 71 hard tasks with a missing
    ingredient pass; 0 of 71 while a cancelled order still counted as ordered)."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        from web_sites.recipes import catalog

        missing = task.goal.get("missing")
        return bool(missing) and any(i != missing for i in catalog.get(task.goal["recipe_id"])["ingredients"])

    def plan(self) -> Plan:
        missing = self.missing
        self.missing = next(i for i in sorted(self.recipe["ingredients"]) if i != missing)
        yield from self.order_missing()
        yield from cancel_last_order(self)
        self.missing = missing
        yield from super().plan()

    def carried_out(self) -> bool:
        return super().carried_out() and [o.get("status") for o in orders(self)] == ["cancelled", "placed"]


class WarmTheCookedDish(_Genuine):
    """Serves the dish as the oracle does, then warms it in the microwave, where every component is cooked (the food
    stays what the recipe made; only a raw one would change; stop 37)."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        return not _raw_component(task)

    def plan(self) -> Plan:
        yield from finish_then(self, _microwave_dish)

    def carried_out(self) -> bool:
        return super().carried_out() and getattr(self, "reheated", False)


class TidyUpAfterDone(_Genuine):
    """Serves the dish as the oracle does, then tidies the kitchen: switches off every appliance left on and
    closes every open fridge, cupboard, drawer and the microwave (stop 37)."""

    def plan(self) -> Plan:
        def tidy(agent: RedTeamAgent) -> Plan:
            yield from agent.switch("embodied", "tidying up")
            yield from agent.free_hands()
            agent.tidied = 0
            for o in sorted(agent.objects().values(), key=lambda o: o["objectId"]):
                if o.get("isToggled") and o["objectType"] in vocab.TOGGLEABLE:
                    yield f"Teleport [{o['objectId']}]"
                    yield f"ToggleObjectOff [{o['objectId']}]"
                    agent.tidied += 1
                if o.get("isOpen") and o["objectType"] in vocab.OPENABLE:
                    yield f"Teleport [{o['objectId']}]"
                    yield f"CloseObject [{o['objectId']}]"
                    agent.tidied += 1

        yield from finish_then(self, tidy)

    def carried_out(self) -> bool:
        return super().carried_out() and getattr(self, "tidied", 0) > 0


SHORTCUTS: tuple[type[RedTeamAgent], ...] = (UseLeftovers, OrderEveryIngredient, SliceAhead, ProbeWithoutLooking,
                                             OrderAllCancelAfterLooking, ServeInOtherDish, OrderAfterDone,
                                             MicrowaveRawAfterDone, LastComponentLeftOff, OneExtraOrder,
                                             PickupWhatTheKitchenHas)
GENUINE: tuple[type[RedTeamAgent], ...] = (OtherFreshInstance, OrderWhenNeeded, LookEverywhereFirst, DishElsewhere,
                                           CancelsWrongIngredient, WarmTheCookedDish, TidyUpAfterDone,
                                           # the standard tier's other orders and detours, on hard kitchens (stop 37)
                                           rt.OtherComponentOrder, rt.ReadAllFirst, rt.Detour)


def table_rows(classes: tuple[type[RedTeamAgent], ...]) -> list[dict[str, Any]]:
    tasks = hard_tasks()
    rows = []
    for cls in classes:
        res = [r for r in run_agent(cls, [t for t in tasks if cls.applies(t)]) if r["carried_out"]]
        k = max(len(res), 1)
        rows.append({"env": ENV_ID, "agent": cls.__name__, "kind": getattr(cls, "kind", "shortcut"),
                     "episodes": len(res), "test": sum(r["split"] == "test" for r in res),
                     **{m: sum(bool(r["metrics"].get(m)) for r in res) / k for m in ("overall", "web", "embodied")}})
    return rows


if __name__ == "__main__":
    print(markdown(table_rows((*SHORTCUTS, GuessMissing, *GENUINE))))
