"""Red-team agents for EWA-Assistant-v0: each is the oracle with one turn kind played another way.

Shortcuts (must fail, and the turn they change must be judged wrong in every episode they carry out):
hedging between candidates, ignoring a reference (staying on the last tab, another store than last
time), answering from the instructions alone, acting on the previous instruction's target, guessing the
food without looking (or by which foods the kitchen will not name, or the quickest recipe of the kind asked
for), opening every result, answering "look it up" turns without the wiki, one new tab
where two are asked for, naming every place of the kind or every architect found, moving every food, loading the
first recipe in another tab instead of going back to its tab, cancelling the last turn's order, undoing earlier
work during a later turn (orders cancelled, the food taken back out), a denial taken back in other words ("or the
other way"). Genuine alternatives (must pass): other ways to the
same result (the search form and its result links, tabs in another order, closing the start tab, looking in the
kitchen first, answers in a sentence, names spelled as people also write them, in the plural or singular, or
without the middle names, "the sink" taken as the sink, another of recipes tied for the quickest, an order
at a wrong store cancelled before ordering at the right one, the reverse of a comparison ruled out ("not vice
versa"), the article read before its question comes).
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


def _has_others(task: Task, kinds_: tuple[str, ...]) -> bool:
    return any(t["kind"] in kinds_ and t["expect"].get("others") for t in task.goal["turns"])


def named_inside(e: dict[str, Any], kind: str) -> list[str]:
    """The candidates of the turn's kind (places, architects) that the right name's own words name: "Central Park"
    in "Central Park Tower", "Raymond Hood" in "Raymond Hood and John Mead Howells"."""
    from embodiedweb.domains.assistant import checks

    if kind == "fact_architect":
        people, firms = checks.architect_names()
        c = checks._catalog(people, True, firms)
    else:
        c = checks._catalog(checks.place_names(), False, ())
    return [n for n in c.names if n != e["name"] and c.named(e["name"], n)]


class _WordedAnswer(Changed):
    """Answers each changed turn that has other candidates in a wording of its own: ``forms`` maps a turn kind to
    a template of the right name (``{name}``) and the first other candidate (``{other}``)."""

    forms: ClassVar[dict[str, str]] = {}

    @classmethod
    def applies(cls, task: Task) -> bool:
        return _has_others(task, cls.changes)

    def play(self, kind: str, e: dict[str, Any]) -> Plan:
        if kind in self.forms:
            return self.forms[kind].format(name=e["name"], other=e["others"][0]) if e["others"] else e["name"]
        return (yield from super().play(kind, e))


class HedgeBesideADenial(_WordedAnswer):
    """Hedges in the forms a denial rule must not take for one: "Y, if not X" (the wrong one offered first, the
    right one as a fallback), "X, not Y, or Y" (the other denied, then offered after a comma) and "not Y or X" (both
    denied)."""

    changes = ("compare", "recall", "name_seen")
    forms = {"compare": "{other}, if not {name}", "recall": "{name}, not {other}, or {other}",
             "name_seen": "not {other} or {name}"}


class HedgeWithTheNameInside(Changed):
    """Names the right place or architect and, as a second option, another that its name holds: "Central Park
    Tower or Central Park", "Philip Johnson and John Burgee, or Philip Johnson" (passed every such turn until
    assistant checker version 8: a candidate inside the right name was excused wherever it was said)."""

    changes = ("name_seen", "fact_architect")

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(t["kind"] in cls.changes and named_inside(t["expect"], t["kind"]) for t in task.goal["turns"])

    def alt_name_seen(self, e: dict[str, Any]) -> Plan:
        inside = named_inside(e, "name_seen")
        return f"{e['name']} or {inside[0]}" if inside else e["name"]
        yield

    def alt_fact_architect(self, e: dict[str, Any]) -> Plan:
        yield from self.fact_architect(e)
        inside = named_inside(e, "fact_architect")
        return f"{e['name']}, or {inside[0]}" if inside else e["name"]


class TwoYearsInOne(Changed):
    """Gives the year and the next one written short after a dash, "1893-94": two years (passed every year turn
    until assistant checker version 8, which read only years written out)."""

    changes = ("fact_year",)

    def alt_fact_year(self, e: dict[str, Any]) -> Plan:
        yield from self.fact_year(e)
        return f"{e['year']}-{(e['year'] + 1) % 100:02d}"


class TheDecade(Changed):
    """Gives the decade, "the 1890s": ten years (passed where the year ends in 0 until assistant checker version 8,
    7 of 60 episodes)."""

    changes = ("fact_year",)

    def alt_fact_year(self, e: dict[str, Any]) -> Plan:
        yield from self.fact_year(e)
        return f"the {e['year'] // 10 * 10}s"


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


def cancel_placed(agent: Changed) -> Plan:
    """On the page the checkout led to (or ``oid``'s), click "Cancel order ..." and check the page says so."""
    m = re.search(r"heading 'Order (ORD-\d+)'", agent.obs["web_text"])
    if m is None:
        agent.errors.append("no order placed")
        return
    yield from cancel_order(agent, m.group(1))


def cancel_order(agent: Changed, oid: str) -> Plan:
    from embodiedweb.agents.script import find_bid

    yield f"goto [/shop/orders/{oid}]"
    button = find_bid(agent.obs["web_text"], "button", f"Cancel order {oid}")
    if button is None:
        agent.errors.append(f"no Cancel button for {oid}")
        return
    yield f"click [{button}]"
    if f"Order {oid} from" not in agent.obs["web_text"]:
        agent.errors.append(f"{oid} not cancelled")


class CancelsEarlierOrder(Changed):
    """Orders at the same store as last time, but first cancels last time's order (not asked: "order ... too")."""

    changes = ("same_store",)

    def alt_same_store(self, e: dict[str, Any]) -> Plan:
        yield from self.switch("web")
        yield from cancel_order(self, "ORD-00001")
        yield from self.order_grounded(e)


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


class QuickestForTheKind(Changed):
    """Never looks in the kitchen: opens the quickest recipe of the kind the instruction names (diet, level,
    equipment) for another food, the one whose quickest is quickest for the most foods (what a guess from the
    instruction's words alone would open), taken among the foods whose quickest differ from the answer's."""

    changes = ("recipe_grounded",)

    def alt_recipe_grounded(self, e: dict[str, Any]) -> Plan:
        from collections import Counter

        from embodiedweb.data_gen.assistant_tasks import quickest_sets

        sets = quickest_sets(e["diet"], e["level"], e.get("equipment", ""))
        votes = Counter(r for ids in sets.values() for r in ids)
        wrong = [f for f, ids in sets.items() if not set(ids) & set(e["recipes"])]
        food = max(wrong, key=lambda f: (max(votes[r] for r in sets[f]), f))
        blind = {k: v for k, v in e.items() if k != "place"}
        yield from self.recipe_grounded({**blind, "recipe": sets[food][0], "food": food})


class KnowsTheFoodWithoutLooking(Changed):
    """Knows the food at the place, as an agent that worked it out elsewhere would (which spots of a kitchen hold
    the same food, learnt from the train episodes, and the foods seen at the other spots: 22 of 29 fridge
    episodes before the kitchen's record of what was seen), but never looks there: orders it, or opens its
    recipe. Carried out only where no piece of it at the place was seen this episode by the turn's end (else it
    did look, in another turn or from where it stood)."""

    changes = ("order_grounded", "recipe_grounded")

    def unseen(self, e: dict[str, Any]) -> Plan:
        there = [o["objectId"] for o in self.world()["objects"]
                 if o["objectType"] == e["food"] and e["place"] in (o.get("parentReceptacles") or [])]
        yield from (self.order_grounded if "product" in e else self.recipe_grounded)(
            {k: v for k, v in e.items() if k != "place"})
        if set(there) & set(self.world().get("seen", there)):
            self.errors.append("the food at the place was seen anyway")

    alt_order_grounded = alt_recipe_grounded = unseen


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


def kind_in(text: str) -> str | None:
    """The place category an instruction names by its word ("museum", "subway station" ...)."""
    from embodiedweb.data_gen.assistant_tasks import CATEGORY_WORDS

    t = text.lower()
    hits = [(len(w), c) for c, w in CATEGORY_WORDS.items() if w in t]
    return max(hits)[1] if hits else None


def same_kind(text: str) -> list[Any]:
    """Every place of the city of the kind the instruction names, by id."""
    from embodiedweb.worlds.street.city import load_city

    cat = kind_in(text)
    return sorted((p for p in load_city().places.values() if p.node_id and p.category == cat),
                  key=lambda p: p.place_id)


class NameEveryPlaceOfTheKind(Changed):
    """Never reads the street view: answers "what is the <kind> you can see from here called?" with the name of
    every place of that kind in the city (the one in sight among them)."""

    changes = ("name_seen",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return "name_seen" in kinds(task) and len(same_kind(turn_of(task, "name_seen")["text"])) >= 2

    def alt_name_seen(self, e: dict[str, Any]) -> Plan:
        every = [p.name for p in same_kind(turn_of(self.task, "name_seen")["text"])]
        if e["name"] not in every:  # a list without the right one fails for another reason
            self.errors.append(f"{e['name']} is not among the places listed")
        return ", ".join(every)
        yield


class EveryArchitectOfTheKind(Changed):
    """For "who was its architect? the wiki will know": opens the article of every place of the kind named earlier
    (its own among them) and answers with every architect found there."""

    changes = ("fact_architect",)

    @staticmethod
    def architects(task: Task) -> list[str]:
        every = [p.data.get("architect") for p in same_kind(turn_of(task, "name_seen")["text"])]
        return list(dict.fromkeys(a for a in every if isinstance(a, str) and a))

    @classmethod
    def applies(cls, task: Task) -> bool:
        return "fact_architect" in kinds(task) and len(cls.architects(task)) >= 2

    def alt_fact_architect(self, e: dict[str, Any]) -> Plan:
        yield from self.switch("web")
        for p in same_kind(turn_of(self.task, "name_seen")["text"]):
            yield f"goto [/wiki/article/{p.place_id}]"
        every = self.architects(self.task)
        if e["name"] not in every:
            self.errors.append(f"{e['name']} is not among the architects listed")
        return "; ".join(every)


class MoveAllFood(Changed):
    """Never looks at the place named: moves every piece of food in the kitchen into the destination (the one
    asked for among them)."""

    changes = ("move_grounded",)
    tolerated = ("Teleport", "OpenObject", "PutObject", "PickupObject")

    def alt_move_grounded(self, e: dict[str, Any]) -> Plan:
        from embodiedweb.domains.assistant.grounding import FOODS

        def there() -> set[str]:
            return {x for x, o in self.objects().items() if (o.get("parentReceptacles") or [None])[0] == e["dest"]}

        yield from self.switch("embodied")
        was = there()
        for oid, o in sorted(self.objects().items()):
            if o["objectType"] in FOODS and oid not in was:
                yield from self.fetch(oid)
                yield from self.put(e["dest"])
        yield from self.free_hands()
        new = there() - was
        self.hedged = e["object"] in new and len(new) >= 2  # the target and other food put there

    def carried_out(self) -> bool:  # some actions may fail (a full receptacle): the hedge is what counts
        return getattr(self, "hedged", False) or "move_grounded" not in kinds(self.task)


class NavigateInsteadOfFocus(Changed):
    """For "go back to the tab of the first one": loads the first recipe in the tab it is on (over the second
    recipe's tab) instead of switching to the tab the first one is in."""

    changes = ("focus",)

    def alt_focus(self, e: dict[str, Any]) -> Plan:
        yield from self.switch("web")
        yield f"goto [/recipes/recipe/{e['recipe']}]"


class FirstInNewTab(Changed):
    """For "go back to the tab of the first one": opens the first recipe in yet another new tab."""

    changes = ("focus",)

    def alt_focus(self, e: dict[str, Any]) -> Plan:
        yield from self.switch("web")
        yield "new_tab"
        yield f"goto [/recipes/recipe/{e['recipe']}]"


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


class CancelsSlip(Changed):
    """Orders the product at another store first (a slip), cancels that order on its page, then orders at the
    store asked."""

    kind = "genuine"
    changes = ("same_store", "order_grounded")

    def slip(self, e: dict[str, Any]) -> Plan:
        other = next((s for s in shop.stores_selling(e["product"]) if s != e["store"]), None)
        if other is None:
            self.errors.append(f"no store but {e['store']} sells {e['product']}")
            yield from self.order_grounded(e)
            return
        yield from self.order_grounded({**e, "store": other})
        yield from cancel_placed(self)
        yield from self.order_grounded(e)

    alt_same_store = alt_order_grounded = slip


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


class DeniesTheOther(_WordedAnswer):
    """Answers a choice between names by ruling the other out too, as a careful person does: "X, not Y" (the
    comparison), "Not Y but X." (the first product ordered), "X rather than Y" (the place in sight). Until
    assistant checker version 8 a denied name counted as named: 1 of 60 passed."""

    kind = "genuine"
    changes = ("compare", "recall", "name_seen")
    forms = {"compare": "{name}, not {other}", "recall": "Not {other} but {name}.", "name_seen": "{name} rather than {other}"}


def relation(e: dict[str, Any]) -> tuple[str, str]:
    """How the comparison turn's right recipe stands to the other, as a sentence would say it, and the other to it:
    ("takes less time to make", "takes more time") when the turn measures time and it is the quicker, and so on."""
    by_name = {r["name"]: r for r in recipes.recipes()}
    a, b = by_name[e["name"]], by_name[e["others"][0]]
    if e["measure"] == "time":
        less = int(a["time_minutes"]) < int(b["time_minutes"])
        return ("takes less time to make", "takes longer") if less else ("takes more time to make", "is quicker")
    less = len(a["steps"]) < len(b["steps"])
    return ("has fewer steps", "has more steps") if less else ("has more steps", "has fewer steps")


def _pick(e: dict[str, Any], forms: tuple[str, ...]) -> str:
    """One of ``forms`` per turn (by its names, so every wording is played across the episodes), filled in."""
    import zlib

    rel, rel_other = relation(e)
    form = forms[zlib.crc32(f"{e['name']}|{e['others'][0]}".encode()) % len(forms)]
    return form.format(name=e["name"], other=e["others"][0], rel=rel, rel_other=rel_other)


class ComparesBoth(Changed):
    """Answers which of two recipes takes less (more) time or has fewer (more) steps by naming both with the relation
    said, in one of five wordings: "X: it beats Y", "X takes less time to make than Y", "X, since Y takes longer", "X
    over Y", "Compared with Y, X has fewer steps." Until assistant checker version 9 the other name counted as a
    second answer: 0 of 60 passed (stop 36)."""

    kind = "genuine"
    changes = ("compare",)
    forms = ("{name}: it beats {other}", "{name} {rel} than {other}", "{name}, since {other} {rel_other}",
             "{name} over {other}", "Compared with {other}, {name} {rel}.")

    @classmethod
    def applies(cls, task: Task) -> bool:
        return _has_others(task, cls.changes)

    def alt_compare(self, e: dict[str, Any]) -> Plan:
        return _pick(e, self.forms)
        yield


class ComparesTheWrongWay(ComparesBoth):
    """Names both recipes with the relation said the wrong way round: the other one given as the one asked for
    ("Y takes less time to make than X", "Y over X", "X loses to Y", "Y: it beats X", "X, since Y ...")."""

    kind = "shortcut"
    forms = ("{other} {rel} than {name}", "{other} over {name}", "{name} loses to {other}", "{other}: it beats {name}",
             "{other}, since {name} {rel_other}")


class ComparesBothWays(ComparesBoth):
    """Hedges with the relation said both ways, or offered on a condition: "X beats Y, or Y beats X", "either X over
    Y or Y over X", "X, if it {rel} than Y", "X or Y, whichever {rel}", "X, or maybe Y, since ..."."""

    kind = "shortcut"
    forms = ("{name} beats {other}, or {other} beats {name}", "either {name} over {other} or {other} over {name}",
             "{name}, if it {rel} than {other}", "{name} or {other}, whichever {rel}",
             "{name}, or maybe {other}, since {other} {rel}")


_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
         "seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def year_in_words(year: int) -> str:
    """A year as people say it: "nineteen oh four", "nineteen thirty-one", "nineteen hundred", "two thousand and
    five"."""
    def two(n: int) -> str:
        return _ONES[n] if n < 20 else _TENS[n // 10] + (f"-{_ONES[n % 10]}" if n % 10 else "")

    hi, lo = divmod(year, 100)
    if year >= 2000 and lo < 10:
        return "two thousand" + (f" and {_ONES[lo]}" if lo else "")
    return f"{two(hi)} hundred" if lo == 0 else f"{two(hi)} {'oh ' + _ONES[lo] if lo < 10 else two(lo)}"


def year_in_roman(year: int) -> str:
    out = ""
    for v, r in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
                 (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while year >= v:
            out, year = out + r, year - v
    return out


class YearInWords(Changed):
    """Answers the year in words, in Roman numerals or beside a year it rules out: "It was built in nineteen oh
    four.", "MCMIV", "1904, not 1905" (stop 36: 0 of 60 passed until assistant checker version 9, which read digits
    only and no denial of a year)."""

    kind = "genuine"
    changes = ("fact_year",)

    @classmethod
    def applies(cls, task: Task) -> bool:  # "MM" (2000) is no Roman year to either judge: two letters stay a word
        return any(t["kind"] == "fact_year" and t["expect"]["year"] != 2000 for t in task.goal["turns"])

    def alt_fact_year(self, e: dict[str, Any]) -> Plan:
        import zlib

        yield from self.fact_year(e)
        y = int(e["year"])
        return (f"It was built in {year_in_words(y)}.", year_in_roman(y), f"{y}, not {y + 1}")[
            zlib.crc32(e["place"].encode()) % 3]


class SecondYearInWords(YearInWords):
    """The year and the next one offered in words or Roman numerals: "1904 or nineteen oh five", "1904, or maybe
    MCMV", "nineteen oh four, or 1905" (stop 36: the first two passed every year turn until assistant checker
    version 9)."""

    kind = "shortcut"

    def alt_fact_year(self, e: dict[str, Any]) -> Plan:
        import zlib

        yield from self.fact_year(e)
        y = int(e["year"])
        return (f"{y} or {year_in_words(y + 1)}", f"{y}, or maybe {year_in_roman(y + 1)}",
                f"{year_in_words(y)}, or {y + 1}")[zlib.crc32(e["place"].encode()) % 3]


class QuotesTheQuestion(Changed):
    """Quotes the question back with both names before the answer: "Which of those two takes less time to make, X or
    Y? X." (stop 36's hunt: failed before and after; the judge cannot tell a quoted question from a hedge, and the
    instruction asks for the name)."""

    changes = ("compare",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return _has_others(task, cls.changes)

    def alt_compare(self, e: dict[str, Any]) -> Plan:
        return f"Which of those two {relation(e)[0]}, {e['name']} or {e['others'][0]}? {e['name']}."
        yield


class MisspelledByOneLetter(Changed):
    """The right name with one letter dropped from its longest word ("Bowery Fest Plate"): stop 36's hunt, failed
    before and after. Kept on purpose: names are on the page to copy, and a judge forgiving one letter would read
    "Hana Haverkamp" as Ana Haverkamp and "Galloway" as Calloway among the traveling judge's people (the one rule
    for names)."""

    changes = ("compare", "recall", "name_seen")

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(t["kind"] in cls.changes for t in task.goal["turns"])

    def alt_compare(self, e: dict[str, Any]) -> Plan:
        words = e["name"].split()
        i = max(range(len(words)), key=lambda k: len(words[k]))
        w = words[i]
        words[i] = w[:len(w) // 2] + w[len(w) // 2 + 1:]
        return " ".join(words)
        yield

    alt_recall = alt_name_seen = alt_compare


def opened_otherwise(place_id: str) -> str:
    """The place's opening year when the wiki gives it and it differs from the year it was built, else ""."""
    from embodiedweb.worlds.street.city import load_city

    d = load_city().places[place_id].data
    opened = str(d.get("opened") or "")
    return opened if d.get("year_built") and opened.isdigit() and opened != str(d["year_built"]) else ""


class YearAndItsOpening(Changed):
    """Answers "when was it built?" with the year and, as the wiki gives it, the year it opened: "Built in 1906; it
    opened in 1924." (3 year turns of the suite, one episode each: run by its own test, not the 10-episode table;
    0 of 3 passed before assistant checker version 8)."""

    kind = "genuine"
    changes = ("fact_year",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(t["kind"] == "fact_year" and opened_otherwise(t["expect"]["place"]) for t in task.goal["turns"])

    def alt_fact_year(self, e: dict[str, Any]) -> Plan:
        yield from self.fact_year(e)
        return f"Built in {e['year']}; it opened in {opened_otherwise(e['place'])}."


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


class AnotherOfTheQuickest(Changed):
    """Where several recipes tie for the quickest, opens the last of them (the instruction says any will do)."""

    kind = "genuine"
    changes = ("recipe_grounded",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(t["kind"] == "recipe_grounded" and len(t["expect"]["recipes"]) > 1 for t in task.goal["turns"])

    def alt_recipe_grounded(self, e: dict[str, Any]) -> Plan:
        yield from self.recipe_grounded({**e, "recipe": e["recipes"][-1]})


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


class IntoTheSinkByName(Changed):
    """Puts the food into "the sink" the way the words say: ``PutObject [Sink]`` (the sink, not its basin)."""

    kind = "genuine"
    changes = ("move_grounded",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(t["kind"] == "move_grounded" and t["expect"]["dest"].startswith("SinkBasin|")
                   for t in task.goal["turns"])

    def alt_move_grounded(self, e: dict[str, Any]) -> Plan:
        yield from self.switch("embodied")
        yield from self.fetch(e["object"])
        yield "Teleport [Sink]"
        yield "PutObject [Sink]"
        where = self.objects()[e["object"]].get("parentReceptacles") or [""]
        if not where[0].startswith("Sink|"):
            self.errors.append(f"{e['object']} is in {where[0]!r}, not in the sink")


#: nouns not said in the plural ("two breads")
MASS = ("Bread", "Lettuce", "Milk", "Water", "Rice", "Flour")


def other_number(name: str) -> str:
    """``name`` with its last word in the other number: "Russet Potatoes", "Gala Apples", "Cage-Free Large Egg"
    (names ending in a mass noun stay)."""
    head, _, last = name.rpartition(" ")
    if last in MASS or not last:
        return name
    if last.endswith("s"):
        last = last[:-3] + "y" if last.endswith("ies") else last[:-2] if last.endswith("oes") else last[:-1]
    else:
        last = last[:-1] + "ies" if last.endswith("y") else last + ("es" if last.endswith(("o", "ch", "sh", "x"))
                                                                      else "s")
    return f"{head} {last}".strip()


class RecallInPlural(Changed):
    """Answers "what was the first thing I asked you to order?" with the product's name in the plural ("Russet
    Potatoes", "Roma Tomatoes", "Gala Apples"), or in the singular where the name is plural ("Cage-Free Large
    Egg")."""

    kind = "genuine"
    changes = ("recall",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return "recall" in kinds(task) and other_number(turn_of(task, "recall")["expect"]["name"]) != \
            turn_of(task, "recall")["expect"]["name"]

    def alt_recall(self, e: dict[str, Any]) -> Plan:
        return f"You first asked me to order {other_number(e['name'])}."
        yield


#: what tells a firm's name ("Gordon Gill Architecture"), a particle ("Christian de Portzamparc") or a name not said
#: by first and last word ("I. M. Pei", "James Renwick Jr.")
NOT_SHORTENED = re.compile(r"\b(Architects?|Architecture|Associates|Operations|Partners|Sons|Group|Company|with|van|"
                           r"der|de|von|Jr|Sr)\b|^[A-Z]\.")


def without_middle_names(name: str) -> str:
    """Each person of an architect's name by first and last name ("Herbert Krapp", "Philip Goodwin and Edward
    Stone"); firms' names (and those the wiki calls a firm: "Kohn Pedersen Fox") and names with particles stay."""
    from web_sites.wiki import catalog

    if NOT_SHORTENED.search(name) or any(a["title"] == name and " firm" in a.get("lead", "")
                                         for a in catalog.articles() if a.get("kind") == "architect"):
        return name
    parts = re.split(r"(\s*(?:;|&|\+|\band\b)\s*)", name)
    return "".join(f"{p.split()[0]} {p.split()[-1]}" if i % 2 == 0 and len(p.split()) >= 3 else p
                   for i, p in enumerate(parts))


class ArchitectWithoutMiddleName(Changed):
    """Names the architect as people often do, by first and last name: "Herbert Krapp" for Herbert J. Krapp,
    "Henry Hardenbergh" for Henry Janeway Hardenbergh, "Frederick Olmsted and Calvert Vaux"."""

    kind = "genuine"
    changes = ("fact_architect",)

    @staticmethod
    def architect(place_id: str) -> str:
        from embodiedweb.worlds.street.city import load_city

        a = load_city().places[place_id].data.get("architect")
        return a if isinstance(a, str) and "," not in a else ""

    @classmethod
    def adapt(cls, task: Task) -> Task:
        """An outing that asks the year of a place whose architect has middle names asks its architect instead
        (the turn the generator makes for it when it draws the architect): so more episodes carry the idea out."""
        turns = [dict(t, kind="fact_architect", text="Who was its architect? The wiki will know.",
                      expect={"name": cls.architect(t["expect"]["place"]), "others": [], "place": t["expect"]["place"]})
                 if t["kind"] == "fact_year" and without_middle_names(cls.architect(t["expect"]["place"]))
                 != cls.architect(t["expect"]["place"]) else t for t in task.goal["turns"]]
        return Task(**{**task.__dict__, "goal": {**task.goal, "turns": turns}})

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(t["kind"] == "fact_architect" and without_middle_names(t["expect"]["name"]) != t["expect"]["name"]
                   for t in cls.adapt(task).goal["turns"])

    def alt_fact_architect(self, e: dict[str, Any]) -> Plan:
        yield from self.fact_architect(e)
        return without_middle_names(e["name"])


# ------------------------------------------------------------------------------ stop 38: a fresh review
#: words after a denial or a comparison that offer its reverse too, as people write them besides "or vice versa"
#: and "or the other way round" (stop 36's :class:`ComparesBothWays`)
REVERSALS = ("or the other way", "or the other way about", "or the converse", "or reversed", "or swapped",
             "either way")


class ReversedInOtherWords(Changed):
    """Rules the other name (year) out, then takes it back with a reversal in other words: "X beats Y, or the other
    way", "X over Y, or the converse", "X, not Y, either way" (the comparison, the first product ordered, the place
    in sight), "1904, not 1905, or swapped" (a year). A reversal offers both: stop 36 read "or vice versa" and "or the
    other way round" only (stop 38)."""

    changes = ("compare", "recall", "name_seen", "fact_year")
    forms = {"compare": ("{name} beats {other}, {rev}", "{name} over {other}, {rev}", "{name}, not {other}, {rev}"),
             "recall": ("{name}, not {other}, {rev}",), "name_seen": ("{name}, not {other}, {rev}",
                                                                     "{name} rather than {other}, {rev}")}

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(t["kind"] == "fact_year" or t["kind"] in cls.changes and t["expect"].get("others")
                   for t in task.goal["turns"])

    def _form(self, key: str, choices: tuple[str, ...]) -> tuple[str, str]:
        import zlib

        k = zlib.crc32(key.encode())
        return choices[k % len(choices)], REVERSALS[(k // 7) % len(REVERSALS)]

    def play(self, kind: str, e: dict[str, Any]) -> Plan:
        if kind == "fact_year":
            yield from self.fact_year(e)
            _f, rev = self._form(e["place"], ("",))
            return f"{e['year']}, not {int(e['year']) + 1}, {rev}"
        if kind in self.forms and e.get("others"):
            form, rev = self._form(f"{e['name']}|{e['others'][0]}", self.forms[kind])
            return form.format(name=e["name"], other=e["others"][0], rev=rev)
        return (yield from AssistantOracle.play(self, kind, e))  # (a turn with no other name: the oracle's)


class ComparesFirmly(ComparesBoth):
    """Names both recipes with the relation said and its reverse firmly ruled out: "X beats Y, not vice versa", "X
    takes less time to make than Y, and not the other way round", "X over Y, not the reverse" (stop 38: until
    assistant checker version 10 "vice versa" after a "not" read as the reverse offered, and the first form failed)."""

    kind = "genuine"
    forms = ("{name} beats {other}, not vice versa", "{name} {rel} than {other}, and not the other way round",
             "{name} over {other}, not the reverse")


class CancelsOrdersLater(Changed):
    """Places the orders asked for, then, asked what was ordered first (a later turn, no order asked), cancels every
    order it placed on the shop's order pages and answers: the user is left with none of them (until assistant checker
    version 10 only an order turn checked that earlier orders still stood; stop 38)."""

    changes = ("recall",)

    def alt_recall(self, e: dict[str, Any]) -> Plan:
        yield from self.switch("web")
        n = sum(t["kind"] in ("order_grounded", "same_store", "order_seen") for t in self.task.goal["turns"])
        for k in range(1, n + 1):
            yield from cancel_order(self, f"ORD-{k:05d}")
        return e["name"]


class UndoesTheMoveLater(Changed):
    """Puts the food where it was asked, then, asked what was ordered first (a later turn, no move asked), takes it
    out again and puts it back where it lay at the move's start: the user's fridge no longer holds it (stop 38)."""

    changes = ("move_grounded", "recall")
    came_from: str | None = None

    @classmethod
    def applies(cls, task: Task) -> bool:
        k = kinds(task)
        return "move_grounded" in k and "recall" in k[k.index("move_grounded"):]

    def alt_move_grounded(self, e: dict[str, Any]) -> Plan:
        parents = self.objects()[e["object"]].get("parentReceptacles") or []
        self.came_from = parents[0] if parents else None
        yield from self.move_grounded(e)

    def alt_recall(self, e: dict[str, Any]) -> Plan:
        move = turn_of(self.task, "move_grounded")["expect"]
        if self.came_from is None:
            self.errors.append("the food lay in nothing")
            return e["name"]
        yield from self.switch("embodied")
        yield from self.fetch(move["object"])
        yield from self.put(self.came_from)
        return e["name"]


class ReadsTheArticleEarly(Changed):
    """Opens the wiki article of the place it names in sight at once (before being asked to look anything up), then
    answers the "look it up" turn from that reading without opening the article again: the fact was read this
    episode, before its question came (stop 38)."""

    kind = "genuine"
    changes = ("name_seen", "fact_year", "fact_architect")

    @classmethod
    def applies(cls, task: Task) -> bool:
        k = kinds(task)
        return "name_seen" in k and ("fact_year" in k or "fact_architect" in k)

    def alt_name_seen(self, e: dict[str, Any]) -> Plan:
        place = next(t["expect"]["place"] for t in self.task.goal["turns"] if t["kind"] in ("fact_year", "fact_architect"))
        yield from self.switch("web")
        yield f"goto [/wiki/article/{place}]"
        return e["name"]

    def alt_fact_year(self, e: dict[str, Any]) -> Plan:
        return str(e["year"])
        yield

    def alt_fact_architect(self, e: dict[str, Any]) -> Plan:
        return e["name"]
        yield


class _Reworded(Changed):
    """The oracle's work, with the answers of the comparison, the first product ordered, the place in sight, its
    architect and year reworded by :meth:`answer` (``k``: a stable hash of the turn, to vary the form)."""

    changes = ("compare", "recall", "name_seen", "fact_year", "fact_architect")

    def play(self, kind: str, e: dict[str, Any]) -> Plan:
        import zlib

        if kind not in self.changes:
            return (yield from AssistantOracle.play(self, kind, e))
        if kind in ("fact_year", "fact_architect"):
            yield from getattr(self, kind)(e)
        k = zlib.crc32(f"{kind}|{e.get('name', e.get('year'))}".encode())
        return self.answer(kind, e, k)

    def answer(self, kind: str, e: dict[str, Any], k: int) -> str:
        raise NotImplementedError


#: alternatives naming nothing of this world, as a cheater writes them beside the right name (stop 38)
UNREAD = ("{name} or the Apollo Theater", "{name} / Thomas W. Lamb", "{name} (or possibly something else)",
          "{name} or Bowery Feast Plate")


class UnreadAlternative(_Reworded):
    """The right name (year) with an alternative that names nothing the judge knows: "X or the Apollo Theater", "X /
    Thomas W. Lamb", "X (or possibly something else)", "1904 or later" (the comparison, the first product ordered,
    the place in sight, its architect and year; stop 38: each passed until assistant checker version 10, the judge
    reading only the candidates of this world)."""

    def answer(self, kind: str, e: dict[str, Any], k: int) -> str:
        if kind == "fact_year":
            return f"{e['year']} {('or later', '(possibly a decade earlier)', 'or the year after')[k % 3]}"
        return UNREAD[k % len(UNREAD)].format(name=e["name"])


#: a second name the judge cannot read, by the kind of turn (stop 39): a place, an architect, a dish or a product this
#: world does not have, as a cheater lists it beside the right one
UNREAD_ITEM = {"name_seen": "Apolo Theatre", "fact_architect": "Tomas Lamb", "compare": "Zanzibar Noodle Bowl",
               "recall": "San Marzano Tomato"}
#: how the cheater lists it
LIST_FORMS = ("{name}, {m}", "{name}; {m}", "{name} and {m}", "{name}: {m}", "{name} ({m})", "{m}, {name}")


class UnreadListItem(_Reworded):
    """The right name (year) with a second one the judge cannot read, listed beside it by a comma, ";", "and", a
    colon or brackets (a new line in the unit tests: an action's text ends at one): "Ed Sullivan Theater, Apolo
    Theatre", "Herbert J. Krapp; Tomas Lamb", "1927, the year after"
    (the comparison, the first product ordered, the place in sight, its architect and year; stop 39: each passed until
    assistant checker version 11, stop 38's alternative rule starting only at "or", "/", "maybe" ...)."""

    def answer(self, kind: str, e: dict[str, Any], k: int) -> str:
        if kind == "fact_year":
            return f"{e['year']}{(', the year after', ' (the next year)', ': the year before')[k % 3]}"
        return LIST_FORMS[k % len(LIST_FORMS)].format(name=e["name"], m=UNREAD_ITEM[kind])


#: the right name with context beside it (stop 39)
CONTEXT_FORMS = ("{name}, the one you asked about", "{name}. I checked it myself.", "{name}, as far as I can tell")


class ListedInContext(_Reworded):
    """The right name (year) with an apposition, context or a second sentence beside it: "Ed Sullivan Theater, the one
    you asked about", "Herbert J. Krapp. I checked it myself.", "1927, the year it was finished" (stop 39: the genuine
    side of :class:`UnreadListItem`'s rule)."""

    kind = "genuine"

    def answer(self, kind: str, e: dict[str, Any], k: int) -> str:
        if kind == "fact_year":
            return f"{e['year']}{(', the year it was finished', '. I read it on the wiki.')[k % 2]}"
        return CONTEXT_FORMS[k % len(CONTEXT_FORMS)].format(name=e["name"])


#: the American spellings of the city's names and the British ones people write (the wiki's infobox among them)
BRITISH = (("Theater", "Theatre"), ("Center", "Centre"))


class SpelledTheBritishWay(Changed):
    """Names the place in sight with its British spelling ("Ed Sullivan Theatre", as the wiki's infobox writes it,
    for Ed Sullivan Theater; "Centre" for "Center") and the architect by the initials of the given names ("H. J.
    Krapp" for Herbert J. Krapp) where no other architect has those initials (stop 38: each failed until assistant
    checker version 10)."""

    kind = "genuine"
    changes = ("name_seen", "fact_architect")

    @staticmethod
    def british(name: str) -> str:
        for us, gb in BRITISH:
            name = re.sub(rf"\b{us}\b", gb, name)
        return name

    @staticmethod
    def initials(name: str) -> str:
        from embodiedweb.domains.assistant import checks

        people, firms = checks.architect_names()
        c = checks._catalog(people, True, firms)
        forms = [f for f in c.forms.get(name, ()) if len(f.split()) > 1 and all(len(w) == 1 for w in f.split()[:-1])]
        return " ".join(w.upper() + "." for w in forms[0].split()[:-1]) + " " + name.split()[-1] if forms else name

    @classmethod
    def applies(cls, task: Task) -> bool:
        return any(t["kind"] == "name_seen" and cls.british(t["expect"]["name"]) != t["expect"]["name"]
                   or t["kind"] == "fact_architect" and cls.initials(t["expect"]["name"]) != t["expect"]["name"]
                   for t in task.goal["turns"])

    def alt_name_seen(self, e: dict[str, Any]) -> Plan:
        yield from AssistantOracle.play(self, "name_seen", e)
        return self.british(e["name"])

    def alt_fact_architect(self, e: dict[str, Any]) -> Plan:
        yield from self.fact_architect(e)
        return self.initials(e["name"])


SHORTCUTS = (HedgeNames, StayOnLastTab, AnswerFromInstructions, PreviousTarget, OtherStore, GuessTheFood,
             OpenAllResults, StayPut, WrongPlaceInSight, KnowsTheFacts, OneNewTab, ProbeTheFridge,
             NameEveryPlaceOfTheKind, EveryArchitectOfTheKind, MoveAllFood, NavigateInsteadOfFocus, FirstInNewTab,
             QuickestForTheKind, KnowsTheFoodWithoutLooking, CancelsEarlierOrder, HedgeBesideADenial,
             HedgeWithTheNameInside, TwoYearsInOne, TheDecade, ComparesTheWrongWay, ComparesBothWays,
             SecondYearInWords, QuotesTheQuestion, MisspelledByOneLetter, ReversedInOtherWords, CancelsOrdersLater,
             UndoesTheMoveLater, UnreadAlternative, UnreadListItem)
GENUINE = (SearchForm, ReverseTabs, Sentences, LookFirst, MapAndDetour, SpelledOtherwise, IntoTheSinkByName,
           RecallInPlural, ArchitectWithoutMiddleName, AnotherOfTheQuickest, CancelsSlip, DeniesTheOther,
           ComparesBoth, YearInWords, ReadsTheArticleEarly, ComparesFirmly, SpelledTheBritishWay, ListedInContext)
