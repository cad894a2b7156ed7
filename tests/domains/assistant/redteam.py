"""Red-team agents for EWA-Assistant-v0: each is the oracle with one turn kind played another way.

Shortcuts (must fail, and the turn they change must be judged wrong in every episode they carry out):
hedging between candidates, ignoring a reference (staying on the last tab, another store than last
time), answering from the instructions alone, acting on the previous instruction's target, guessing the
food without looking (or by which foods the kitchen will not name), opening every result, answering "look it up" turns without the wiki, one new tab
where two are asked for. Genuine alternatives (must pass): other ways to the same
result (the search form and its result links, tabs in another order, closing the start tab, looking in the
kitchen first, answers in a sentence, names spelled as people also write them).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from embodiedweb.agents.script import Plan
from embodiedweb.domains.assistant.oracle import AssistantOracle
from embodiedweb.tasks import Task
from tests.redteam import RedTeam
from web_sites.recipes import catalog as recipes
from web_sites.shop import catalog as shop


def kinds(task: Task) -> list[str]:
    return [t["kind"] for t in task.goal["turns"]]


def turn_of(task: Task, kind: str) -> dict[str, Any]:
    return next(t for t in task.goal["turns"] if t["kind"] == kind)


class Changed(RedTeam, AssistantOracle):
    """The oracle with the turns of kind ``changes`` played by the method ``alt_<kind>``."""

    changes: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(k in kinds(task) for k in cls.changes)

    def play(self, kind: str, e: dict[str, Any]) -> Plan:
        if kind in self.changes:
            return (yield from getattr(self, f"alt_{kind}")(e))
        return (yield from super().play(kind, e))


# ------------------------------------------------------------------------------------------- shortcuts
class HedgeNames(Changed):
    """Names every candidate: both recipes, every product ordered, every place in sight, two years."""

    changes = ("compare", "recall", "name_seen", "fact_year")

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(t["kind"] in cls.changes and (t["kind"] == "fact_year" or t["expect"]["others"])
                   for t in task.goal["turns"])

    def alt_compare(self, e: dict[str, Any]) -> Plan:
        return " or ".join([e["name"], *e["others"]])
        yield

    alt_recall = alt_name_seen = alt_compare

    def alt_fact_year(self, e: dict[str, Any]) -> Plan:
        yield from self.fact_year(e)
        return f"{e['year']} or {e['year'] + 1}"


class StayPut(Changed):
    """Ignores "walk over to it" and "take me back": says done where it stands."""

    changes = ("walk_there", "go_back")

    def alt_walk_there(self, e: dict[str, Any]) -> Plan:
        return
        yield

    alt_go_back = alt_walk_there


class WrongPlaceInSight(Changed):
    """Walks to another place in sight than the one of the kind named."""

    changes = ("walk_there",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(t["kind"] == "name_seen" and cls.other(task) for t in task.goal["turns"])

    @staticmethod
    def other(task: Task) -> str | None:
        from embodiedweb.domains.outdoor.common import city
        from embodiedweb.worlds.street.world import sight

        c = city()
        want = turn_of(task, "walk_there")["expect"]["node"]
        _, seen = sight(c, task.embodied["start"])
        far = [p.node_id for *_, p in seen if p.node_id and c.shortest_length(p.node_id, want) > 45]
        return far[0] if far else None

    def alt_walk_there(self, e: dict[str, Any]) -> Plan:
        yield from self.walk_to(self.other(self.task))


class StayOnLastTab(Changed):
    """Ignores "the one that came first": stays on the tab it opened last."""

    changes = ("focus",)

    def alt_focus(self, e: dict[str, Any]) -> Plan:
        return
        yield


class AnswerFromInstructions(Changed):
    """Answers from the instructions' words alone: the recipe listed first, the product the dialogue names."""

    changes = ("compare", "recall")

    @classmethod
    def applies(cls, task: Task) -> bool:
        if "recall" in kinds(task):
            return True
        if "compare" in kinds(task):  # the first result is not the answer
            c, o = turn_of(task, "compare"), turn_of(task, "open_two")
            return recipes.get(o["expect"]["recipes"][0])["name"] != c["expect"]["name"]
        return False

    def alt_compare(self, e: dict[str, Any]) -> Plan:
        o = turn_of(self.task, "open_two")["expect"]
        return recipes.get(o["recipes"][0])["name"]
        yield

    def alt_recall(self, e: dict[str, Any]) -> Plan:
        return e["others"][0]  # the one product the instructions name (the second order)
        yield


class PreviousTarget(Changed):
    """Acts on the previous instruction's target: orders the first product again at that store."""

    changes = ("same_store",)

    def alt_same_store(self, e: dict[str, Any]) -> Plan:
        yield from self.order_grounded(turn_of(self.task, "order_grounded")["expect"])


class OtherStore(Changed):
    """Ignores "the same store as last time": orders the product where it is cheapest."""

    changes = ("same_store",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        if "same_store" not in kinds(task):
            return False
        e = turn_of(task, "same_store")["expect"]
        return shop.cheapest_store(e["product"]) != e["store"]

    def alt_same_store(self, e: dict[str, Any]) -> Plan:
        yield from self.order_grounded({**e, "store": shop.cheapest_store(e["product"])})


class GuessTheFood(Changed):
    """Never looks in the kitchen: orders, looks up and moves apples (the commonest food)."""

    changes = ("order_grounded", "recipe_grounded", "move_grounded")
    GUESS = "Apple"

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(t["kind"] in cls.changes and t["expect"]["food"] != cls.GUESS for t in task.goal["turns"])

    def alt_order_grounded(self, e: dict[str, Any]) -> Plan:
        if e["food"] == self.GUESS:
            yield from self.order_grounded(e)
            return
        offers = sorted((price, p["product_id"], s) for p in shop.products_for_type(self.GUESS)
                        for s, price in shop.offers(p["product_id"]).items())
        blind = {k: v for k, v in e.items() if k != "place"}  # it does not look
        yield from self.order_grounded({**blind, "product": offers[0][1], "store": offers[0][2], "food": self.GUESS})

    def alt_recipe_grounded(self, e: dict[str, Any]) -> Plan:
        if e["food"] == self.GUESS:
            yield from self.recipe_grounded(e)
            return
        hits = sorted(recipes.search("", [], "", [self.GUESS], []), key=lambda r: (r["time_minutes"], r["recipe_id"]))
        yield from self.recipe_grounded({**e, "recipe": hits[0]["recipe_id"], "food": self.GUESS, "diet": "", "level": ""})

    def alt_move_grounded(self, e: dict[str, Any]) -> Plan:
        if e["food"] == self.GUESS:
            yield from self.move_grounded(e)
            return
        apples = sorted(o for o in self.objects() if o.startswith(f"{self.GUESS}|"))
        if not apples:  # nothing to move: it moves nothing
            return
        yield from self.move_grounded({**e, "object": apples[0]})


class ProbeTheFridge(Changed):
    """Never opens the fridge: names each food in turn (``Teleport [Tomato]`` ...) and takes the one the kitchen
    says is inside the closed fridge as the fridge's food; then orders it, or looks its recipe up (before
    ``teleport = "seen"`` that note told it in 44 of 73 episodes). When the kitchen says no such thing it takes a
    wrong food, one whose order or recipe differs (it knows the answer), so a pass means the kitchen gave the food
    away. (Which foods it refuses to
    name tells only that they are absent or hidden: a guess from that is :class:`GuessTheFood`'s.)"""

    changes = ("order_grounded", "recipe_grounded")
    tolerated = ("Teleport [",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(t["kind"] in cls.changes and str(t["expect"].get("place", "")).startswith("Fridge|")
                   for t in task.goal["turns"])

    def probe(self) -> Plan:
        """The food the kitchen gives away as the fridge's without opening it, else the foods it would not name
        (as a list)."""
        from embodiedweb.domains.assistant.grounding import FOODS

        yield from self.switch("embodied")
        refused = []
        for food in FOODS:
            yield f"Teleport [{food}]"
            if "inside the closed Fridge" in self.obs["embodied_text"]:
                return food
            if self.obs.get("last_action_error"):
                refused.append(food)
        return refused

    def wrong(self, given: str | list[str], right: Any, outcome: Any) -> str:
        """The food given away, else the first food (refused ones first) whose ``outcome`` is not ``right``."""
        from embodiedweb.domains.assistant.grounding import FOODS

        if isinstance(given, str):
            return given
        return next(f for f in (*given, *FOODS) if outcome(f) != right)

    def alt_order_grounded(self, e: dict[str, Any]) -> Plan:
        if not str(e.get("place", "")).startswith("Fridge|"):
            yield from self.order_grounded(e)
            return
        food = self.wrong((yield from self.probe()), e["food"], lambda f: f)
        offers = sorted((price, p["product_id"], s) for p in shop.products_for_type(food)
                        for s, price in shop.offers(p["product_id"]).items())
        blind = {k: v for k, v in e.items() if k != "place"}
        yield from self.order_grounded({**blind, "product": offers[0][1], "store": offers[0][2], "food": food})

    def alt_recipe_grounded(self, e: dict[str, Any]) -> Plan:
        if not str(e.get("place", "")).startswith("Fridge|"):
            yield from self.recipe_grounded(e)
            return
        diet, level = e.get("diet", ""), e.get("level", "")

        def quickest(food: str) -> str | None:
            hits = sorted(recipes.search("", [diet] if diet else [], level, [food], []),
                          key=lambda r: (r["time_minutes"], r["recipe_id"]))
            return hits[0]["recipe_id"] if hits else None

        food = self.wrong((yield from self.probe()), e["recipe"], quickest)
        blind = {k: v for k, v in e.items() if k != "place"}
        if quickest(food):
            yield from self.recipe_grounded({**blind, "recipe": quickest(food), "food": food})


class OpenAllResults(Changed):
    """Opens the first three results, so whichever two were meant are open."""

    changes = ("open_two",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        o = turn_of(task, "open_two")["expect"] if "open_two" in kinds(task) else None
        return bool(o) and len(recipes.search("", [o["diet"]], "", [o["ingredient"]], [])) >= 3

    def alt_open_two(self, e: dict[str, Any]) -> Plan:
        hits = recipes.search("", [e["diet"]], "", [e["ingredient"]], [])[:3]
        yield from self.open_two({**e, "recipes": [r["recipe_id"] for r in hits]})


class KnowsTheFacts(Changed):
    """Answers "look it up" turns from what it knows (the right year or architect) without opening the wiki."""

    changes = ("fact_year", "fact_architect")

    def alt_fact_year(self, e: dict[str, Any]) -> Plan:
        return str(e["year"])
        yield

    def alt_fact_architect(self, e: dict[str, Any]) -> Plan:
        return e["name"]
        yield


class OneNewTab(Changed):
    """Asked for two new tabs, loads the first result in the tab it is on and only the second in a new one."""

    changes = ("open_two",)

    def alt_open_two(self, e: dict[str, Any]) -> Plan:
        from web_sites.recipes import catalog

        yield from self.switch("web")
        self.results = catalog.search("", [e["diet"]], "", [e["ingredient"]], [])
        for i, rid in enumerate(e["recipes"]):
            if i:
                yield "new_tab"
            yield from self.search_recipes(e["diet"], "", e["ingredient"])
            yield from self.open_result(rid)


# ------------------------------------------------------------------------------------------- genuine
class SearchForm(Changed):
    """Opens the two recipes from the search form's results: filters, then each result link in a new tab."""

    kind = "genuine"
    changes = ("open_two",)

    def alt_open_two(self, e: dict[str, Any]) -> Plan:
        yield from self.switch("web")
        for rid in e["recipes"]:
            yield "new_tab"
            yield from self.click("link", "Recipes")
            yield from self.click("checkbox", e["diet"].capitalize())
            yield from self.click("checkbox", recipes.INGREDIENT_LABELS[e["ingredient"]])
            yield from self.click("button", "Apply filters")
            yield from self.click("link", recipes.get(rid)["name"])


class ReverseTabs(Changed):
    """Opens the second recipe first, and closes the tab it started on."""

    kind = "genuine"
    changes = ("open_two",)

    def alt_open_two(self, e: dict[str, Any]) -> Plan:
        yield from self.open_two({**e, "recipes": list(reversed(e["recipes"]))})
        if re.search(r"^Tab 0\b.*— http://ewa\.local/$", self.obs["web_tabs"], re.M):
            yield "tab_focus [0]"
            yield "close_tab"
            self.closed_start = True

    def carried_out(self) -> bool:  # the start tab really closed (the pattern once never matched the tab line)
        return super().carried_out() and (getattr(self, "closed_start", False) or "open_two" not in kinds(self.task))


class Sentences(Changed):
    """Answers in a sentence."""

    kind = "genuine"
    changes = ("compare", "recall", "name_seen", "fact_year", "fact_architect")

    def alt_compare(self, e: dict[str, Any]) -> Plan:
        return f"That would be {e['name']}."
        yield

    alt_name_seen = alt_compare

    def alt_recall(self, e: dict[str, Any]) -> Plan:
        return f"You first asked me to order the {e['name']}, which is done."
        yield

    def alt_fact_year(self, e: dict[str, Any]) -> Plan:
        yield from self.fact_year(e)
        return f"According to the wiki it dates from {e['year']}."

    def alt_fact_architect(self, e: dict[str, Any]) -> Plan:
        yield from self.fact_architect(e)
        return f"It was designed by {e['name']}."


class MapAndDetour(Changed):
    """Asks the map for directions first, and walks one node out of the way before the shortest route."""

    kind = "genuine"
    changes = ("walk_there", "go_back")

    def alt_walk_there(self, e: dict[str, Any]) -> Plan:
        from embodiedweb.domains.outdoor.common import city

        yield from self.ask_directions(e["node"])
        yield from self.switch("embodied")
        nbs = sorted(nb for nb, *_ in city().neighbors(self.here()))
        if nbs:
            yield f"move [{nbs[0]}]"
        yield from self.walk_to(e["node"])

    alt_go_back = alt_walk_there


class LookFirst(Changed):
    """Goes to the kitchen and opens the place before acting on the food there."""

    kind = "genuine"
    changes = ("order_grounded", "recipe_grounded")

    def look(self, e: dict[str, Any]) -> Plan:
        yield from self.switch("embodied")
        yield f"Teleport [{e['place']}]"
        if e["place"].startswith("Fridge") and not self.objects()[e["place"]]["isOpen"]:
            yield f"OpenObject [{e['place']}]"
            yield f"CloseObject [{e['place']}]"

    def alt_order_grounded(self, e: dict[str, Any]) -> Plan:
        yield from self.look(e)
        yield from self.order_grounded(e)

    def alt_recipe_grounded(self, e: dict[str, Any]) -> Plan:
        yield from self.look(e)
        yield from self.recipe_grounded(e)


def spelled_otherwise(name: str) -> str:
    """``name`` as people also write it: "&" for "and", "St." for "Saint", without accents."""
    import unicodedata

    out = name.replace(" and ", " & ").replace("Saint ", "St. ")
    return "".join(c for c in unicodedata.normalize("NFKD", out) if not unicodedata.combining(c))


class SpelledOtherwise(Changed):
    """Names things as people also write them: "Carrere & Hastings", "St. Thomas Church"."""

    kind = "genuine"
    changes = ("compare", "recall", "name_seen", "fact_architect")

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(t["kind"] in cls.changes and spelled_otherwise(t["expect"]["name"]) != t["expect"]["name"]
                   for t in task.goal["turns"])

    def alt_compare(self, e: dict[str, Any]) -> Plan:
        return spelled_otherwise(e["name"])
        yield

    alt_recall = alt_name_seen = alt_compare

    def alt_fact_architect(self, e: dict[str, Any]) -> Plan:
        yield from self.fact_architect(e)
        return spelled_otherwise(e["name"])


SHORTCUTS = (HedgeNames, StayOnLastTab, AnswerFromInstructions, PreviousTarget, OtherStore, GuessTheFood,
             OpenAllResults, StayPut, WrongPlaceInSight, KnowsTheFacts, OneNewTab, ProbeTheFridge)
GENUINE = (SearchForm, ReverseTabs, Sentences, LookFirst, MapAndDetour, SpelledOtherwise)
