"""A cooking heuristic that reads only observations: it parses the instruction, finds the recipe on
the site with the filter the instruction implies, reads each step's text, and performs it in the
kitchen with rule-based skills (:mod:`baselines.kitchen_skills`). No privileged information."""

from __future__ import annotations

import re

from baselines.kitchen_skills import KitchenSkills
from baselines.script import Plan, ScriptAgent, find_bid

EQUIPMENT_LABEL = {"knife": "Knife", "frying pan": "Frying pan", "saucepan": "Saucepan", "stove": "Stove",
                   "microwave": "Microwave", "toaster": "Toaster", "plate": "Plate", "bowl": "Bowl"}
NOUN_TYPE = {"tomato": "Tomato", "lettuce": "Lettuce", "apple": "Apple", "bread": "Bread", "potato": "Potato",
             "egg": "Egg"}


def step_ops(text: str) -> list[tuple[str, ...]]:
    """Kitchen operations a recipe step's sentence asks for (rules over the site's phrasing)."""
    t = text.lower()
    m = re.search(r"slice the (\w+) with a knife", t)
    if m:
        return [("slice", NOUN_TYPE.get(m.group(1), m.group(1).capitalize()))]
    if "crack the egg" in t:
        return [("slice", "Egg")]
    how = "pan" if "frying pan" in t else "pot" if "saucepan" in t else "microwave" if "microwave" in t \
        else "toaster" if "toaster" in t else None
    if how and re.match(r"(cook|fry|heat|toast|boil|bake)", t):
        if "cracked egg" in t:
            return [("cook", "EggCracked", how)]
        m = re.search(r"(tomato|lettuce|apple|bread|potato) slice", t)
        if m:
            return [("cook", NOUN_TYPE[m.group(1)] + "Sliced", how)]
        if "whole egg" in t:
            return [("cook", "Egg", how)]
        if "potato" in t:
            return [("cook", "Potato", how)]
    m = re.match(r"put (?:a|an|the) (.+?) (?:on|in) the (plate|bowl)", t)
    if m:
        thing, dish = m.group(1), m.group(2).capitalize()
        if "slice" in thing or thing == "toast":
            noun = "bread" if thing == "toast" else next((n for n in NOUN_TYPE if n in thing), "")
            cooked = thing.startswith(("cooked", "warm")) or thing == "toast"
            return [("place", NOUN_TYPE.get(noun, "") + "Sliced", dish, "cooked" if cooked else "raw")]
        if "egg" in thing:
            return [("place", "Egg" if "boiled" in thing else "EggCracked", dish, "cooked")]
        if "potato" in thing:
            return [("place", "Potato", dish, "cooked")]
    return []


class CookingHeuristic(ScriptAgent):
    """See module docstring."""

    name = "heuristic"

    def plan(self) -> Plan:
        instr = self.obs["instruction"]
        self.skills = KitchenSkills(self)
        self.dish: str | None = None
        m = re.search(r"“(.+?)”", instr)
        name = m.group(1) if m else instr
        missing = re.search(r"has no (\w+)", instr)
        if missing:
            yield from self.buy(missing.group(1))
        yield from self.open_recipe(name, instr)
        while True:
            text = self.obs["web_text"]
            hm = re.search(r"heading 'Step (\d+) of (\d+)'", text)
            if not hm:
                break
            i, n = int(hm.group(1)), int(hm.group(2))
            sm = re.search(r"\] paragraph '([^']*)'", text[hm.end():])
            step = sm.group(1) if sm else ""
            yield f"switch_environment [step {i} of {n}: {step}]"
            for op in step_ops(step):
                yield from self.do(op)
            if i == n:
                break
            yield "switch_environment"
            nxt = find_bid(self.obs["web_text"], "link", "Next")
            if nxt is None:
                break
            yield f"click [{nxt}]"
        yield "stop"

    def buy(self, ingredient: str) -> Plan:
        yield "goto [/shop/]"
        box = find_bid(self.obs["web_text"], "searchbox", None) or find_bid(self.obs["web_text"], "textbox", None)
        if box is None:
            return
        yield f"type [{box}] [{ingredient}] [1]"
        links = re.findall(r"\[(\d+)\] link '([^']*)'", self.obs["web_text"])
        product = next((b for b, label in links if ingredient.lower() in label.lower()), None)
        if product is None:
            return
        yield f"click [{product}]"
        add = find_bid(self.obs["web_text"], "button", "Add to cart")
        if add is None:
            return
        yield f"click [{add}]"
        if "/cart" not in self.obs["web_url"]:
            yield "goto [/shop/cart]"
        radio = find_bid(self.obs["web_text"], "radio", "Deliver to my kitchen", exact=False)
        if radio is not None:
            yield f"click [{radio}]"
        btn = find_bid(self.obs["web_text"], "button", "Check out", exact=False)
        if btn is not None:
            yield f"click [{btn}]"

    def open_recipe(self, name: str, instr: str) -> Plan:
        link = find_bid(self.obs["web_text"], "link", "Recipes")
        yield f"click [{link}]" if link else "goto [/recipes/]"
        box = find_bid(self.obs["web_text"], "searchbox", "Recipe name")
        if box is None:
            return
        yield f"type [{box}] [{name}] [1]"
        paren = re.search(r"\((the [^)]*)\)", instr)
        if paren:
            label = self.constraint_label(paren.group(1))
            if label:
                role, text = label
                bid = find_bid(self.obs["web_text"], role, text)
                if bid:
                    yield f"click [{bid}]"
                    apply = find_bid(self.obs["web_text"], "button", "Apply filters")
                    yield f"click [{apply}]"
        res = find_bid(self.obs["web_text"], "link", name)
        if res is None:
            return
        yield f"click [{res}]"
        start = find_bid(self.obs["web_text"], "link", "Start cooking: step 1")
        if start:
            yield f"click [{start}]"

    @staticmethod
    def constraint_label(text: str) -> tuple[str, str] | None:
        if "vegan" in text:
            return ("checkbox", "Vegan")
        m = re.search(r"the (easy|medium|hard) version", text)
        if m:
            return ("radio", m.group(1).capitalize())
        m = re.search(r"made with (?:a |an |the )?(.+)$", text)
        if m:
            return ("checkbox", EQUIPMENT_LABEL.get(m.group(1).strip(), m.group(1).strip().capitalize()))
        m = re.search(r"with (\w+)$", text)
        if m:
            return ("checkbox", m.group(1).capitalize())
        return None

    def do(self, op: tuple[str, ...]) -> Plan:
        k = self.skills
        if op[0] == "slice":
            yield from k.slice(op[1])
        elif op[0] == "cook":
            yield from k.cook(op[1], op[2])
        elif op[0] == "place":
            _, otype, dish, state = op
            need = {"cooked"} if state == "cooked" else set()
            avoid = set() if state == "cooked" else {"cooked"}
            if self.dish is None:
                self.dish = yield from k.find(dish)
                if self.dish is None:
                    return
            ok = yield from k.pick(otype, need, avoid, exclude_parent=self.dish)
            if ok:
                yield from k.put(dish, self.dish)
