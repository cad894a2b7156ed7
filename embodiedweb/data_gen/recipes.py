"""Generate the recipe collection (``data/recipes/recipes.json``) and the hard tier's shelf of long recipes
(``data/recipes/hard.long.json``): ``python -m embodiedweb.data_gen.recipes`` (``--check`` compares).

A recipe is 1-3 *components* (one per ingredient: sliced tomato, fried egg, toast, ...) served
together in one dish (plate or bowl). Each component has human-readable steps, each step the
kitchen operations that perform it, and a final target state (object type, states, container).
Every step maps to kitchen actions, so every recipe is executable in a kitchen that has its
ingredients and equipment.

Confounder pairs share a name and differ in one attribute the site's filters separate: diet
(vegan or not), an ingredient, equipment, or difficulty.

The shelf (:func:`generate_shelf`) holds recipes of 4-5 components (10-15 steps) cooked by at least three
appliances, only the hard tier's sessions see (``web.sites.recipes.extra``), so the standard collection, its
search results and its tasks stay as they are.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass
from typing import Any

SEED = 20261122
N_RECIPES = 300
PAIRS = {"diet": 16, "ingredient": 14, "equipment": 16, "difficulty": 14}

INGREDIENT_NAMES = {"Apple": "apple", "Bread": "bread", "Egg": "egg", "Lettuce": "lettuce", "Potato": "potato",
                    "Tomato": "tomato"}
EQUIPMENT_NAMES = {"Knife": "knife", "Pan": "frying pan", "Pot": "saucepan", "StoveBurner": "stove",
                   "Microwave": "microwave", "Toaster": "toaster", "Plate": "plate", "Bowl": "bowl"}


@dataclass(frozen=True)
class Component:
    """One ingredient prepared one way."""

    key: str
    ingredient: str
    title: str
    equipment: tuple[str, ...]
    steps: tuple[tuple[str, tuple[dict[str, Any], ...]], ...]
    final: dict[str, Any]
    method: str  # raw | pan | microwave | pot | toaster


HEAT_SOURCE = {"pan": "StoveBurner", "pot": "StoveBurner", "microwave": "Microwave", "toaster": "Toaster"}


def _c(key: str, ing: str, title: str, equipment: tuple[str, ...], method: str,
       steps: list[tuple[str, list[dict[str, Any]]]], final_type: str, cooked: bool) -> Component:
    final: dict[str, Any] = {"type": final_type, "state": {"isCooked": cooked}}
    if cooked:
        final["heated_by"] = HEAT_SOURCE[method]
    return Component(key, ing, title, equipment, tuple((t, tuple(ops)) for t, ops in steps), final, method)


#: Where a food is sliced, in the kitchen's words, for the same reason as :data:`EGG_CRACK`: a food cut on the
#: serving dish leaves its slices resting there ahead of the step that serves one (a review's careful agent that
#: put the whole bread in the bowl and cut it there failed 424 of 424 episodes, reading "Slice the bread with a
#: knife." alone). ``{on}`` and ``{dish}`` are filled in per recipe.
SLICE = "Slice the {n} with a knife where it lies or on a counter top, not {{on}} the {{dish}}."


def _a(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def _raw(ing: str) -> Component:
    n = INGREDIENT_NAMES[ing]
    return _c(f"{n}_raw", ing, f"sliced {n}", ("Knife",), "raw", [
        (SLICE.format(n=n), [{"op": "slice", "obj": ing}]),
        (f"Put {_a(n)} slice {{on}} the {{dish}}.", [{"op": "place", "obj": f"{ing}Sliced", "state": {"isCooked": False}}]),
    ], f"{ing}Sliced", False)


def _pan_slice(ing: str, title: str) -> Component:
    n = INGREDIENT_NAMES[ing]
    return _c(f"{n}_pan", ing, title, ("Knife", "Pan", "StoveBurner"), "pan", [
        (SLICE.format(n=n), [{"op": "slice", "obj": ing}]),
        (f"Cook {_a(n)} slice in the frying pan on the stove until done.",
         [{"op": "cook", "obj": f"{ing}Sliced", "how": "pan"}]),
        (f"Put the cooked {n} slice {{on}} the {{dish}}.",
         [{"op": "place", "obj": f"{ing}Sliced", "state": {"isCooked": True}}]),
    ], f"{ing}Sliced", True)


def _micro_slice(ing: str, title: str) -> Component:
    n = INGREDIENT_NAMES[ing]
    return _c(f"{n}_micro", ing, title, ("Knife", "Microwave"), "microwave", [
        (SLICE.format(n=n), [{"op": "slice", "obj": ing}]),
        (f"Heat {_a(n)} slice in the microwave until cooked.",
         [{"op": "cook", "obj": f"{ing}Sliced", "how": "microwave"}]),
        (f"Put the warm {n} slice {{on}} the {{dish}}.",
         [{"op": "place", "obj": f"{ing}Sliced", "state": {"isCooked": True}}]),
    ], f"{ing}Sliced", True)


#: Where an egg is cracked, in the kitchen's words: not into the serving dish, where a raw egg would rest ahead of
#: the step that serves it (the checker holds that placed early, as it does any raw food put on the dish ahead of
#: the recipe: an egg cracked into the serving bowl and microwaved there passed 0 of 13 playthroughs, and the recipe's
#: "Crack the egg: cut it with a knife." never said where).
EGG_CRACK = ("Crack the egg where it lies or on a counter top, not {on} the {dish}: cut it with a knife (the egg "
             "goes {on} the {dish} once it is cooked).")

#: Cooking methods a recipe's name, title or summary may name, each with the words of its steps that use it
#: (regular expressions over lower-case text): a summary never names a method its steps do not use.
METHOD_WORDS: dict[str, str] = {
    "stew": r"\bstew", "fry": r"\b(?:fry|fried|fries|frying)\b", "bake": r"\bbak(?:e|ed|es|ing)\b",
    "boil": r"\bboil", "toast": r"\btoast", "roast": r"\broast", "grill": r"\bgrill", "steam": r"\bsteam",
    "poach": r"\bpoach", "braise": r"\bbrais", "simmer": r"\bsimmer", "saute": r"\bsaut[eé]",
    "caramelise": r"\bcarameli[sz]", "broil": r"\bbroil", "scramble": r"\bscrambl", "microwave": r"\bmicrowave",
}


COMPONENTS: dict[str, Component] = {c.key: c for c in [
    _raw("Tomato"), _raw("Lettuce"), _raw("Apple"), _raw("Bread"),
    # (a title names no cooking method its steps do not use: "stewed tomato" was microwaved, "caramelised apple"
    # and "pan-toasted bread" cooked in the frying pan; see METHOD_WORDS)
    _pan_slice("Tomato", "pan-fried tomato"), _pan_slice("Apple", "pan-fried apple"),
    _pan_slice("Potato", "fried potato slices"), _pan_slice("Bread", "pan-fried bread"),
    _micro_slice("Apple", "warm apple slices"), _micro_slice("Tomato", "warm tomato slices"),
    _c("bread_toast", "Bread", "toast", ("Knife", "Toaster"), "toaster", [
        (SLICE.format(n="bread"), [{"op": "slice", "obj": "Bread"}]),
        ("Toast a bread slice in the toaster.", [{"op": "cook", "obj": "BreadSliced", "how": "toaster"}]),
        ("Put the toast {on} the {dish}.", [{"op": "place", "obj": "BreadSliced", "state": {"isCooked": True}}]),
    ], "BreadSliced", True),
    _c("egg_pan", "Egg", "fried egg", ("Knife", "Pan", "StoveBurner"), "pan", [
        (EGG_CRACK, [{"op": "slice", "obj": "Egg"}]),
        ("Fry the cracked egg in the frying pan on the stove.", [{"op": "cook", "obj": "EggCracked", "how": "pan"}]),
        ("Put the fried egg {on} the {dish}.", [{"op": "place", "obj": "EggCracked", "state": {"isCooked": True}}]),
    ], "EggCracked", True),
    _c("egg_micro", "Egg", "microwave egg", ("Knife", "Microwave"), "microwave", [
        (EGG_CRACK, [{"op": "slice", "obj": "Egg"}]),
        ("Cook the cracked egg in the microwave.", [{"op": "cook", "obj": "EggCracked", "how": "microwave"}]),
        ("Put the cooked egg {on} the {dish}.", [{"op": "place", "obj": "EggCracked", "state": {"isCooked": True}}]),
    ], "EggCracked", True),
    _c("egg_boiled", "Egg", "boiled egg", ("Pot", "StoveBurner"), "pot", [
        ("Boil a whole egg in the saucepan on the stove.", [{"op": "cook", "obj": "Egg", "how": "pot"}]),
        ("Put the boiled egg {on} the {dish}.", [{"op": "place", "obj": "Egg", "state": {"isCooked": True}}]),
    ], "Egg", True),
    _c("potato_boiled", "Potato", "boiled potato", ("Pot", "StoveBurner"), "pot", [
        ("Boil the whole potato in the saucepan on the stove.", [{"op": "cook", "obj": "Potato", "how": "pot"}]),
        ("Put the boiled potato {on} the {dish}.", [{"op": "place", "obj": "Potato", "state": {"isCooked": True}}]),
    ], "Potato", True),
    _c("potato_baked", "Potato", "baked potato", ("Microwave",), "microwave", [
        ("Bake the whole potato in the microwave.", [{"op": "cook", "obj": "Potato", "how": "microwave"}]),
        ("Put the baked potato {on} the {dish}.", [{"op": "place", "obj": "Potato", "state": {"isCooked": True}}]),
    ], "Potato", True),
]}

# equipment alternatives: same ingredient, same result type, other appliance
EQUIPMENT_SWAPS = [("bread_toast", "bread_pan"), ("egg_pan", "egg_micro"), ("potato_boiled", "potato_baked"),
                   ("apple_micro", "apple_pan"), ("tomato_pan", "tomato_micro")]

ADJECTIVES = ["Sunny", "Rustic", "Golden", "Garden", "Harvest", "Morning", "Country", "Market", "Farmhouse",
              "Hudson", "Orchard", "Meadow", "Riverside", "Corner", "Classic", "Simple", "Hearty", "Little",
              "Weekday", "Sunday", "Cozy", "Bright", "Crisp", "Warm", "Village", "Chelsea", "Gramercy", "Bowery",
              "Union", "Highline"]
THEMES = ["Breakfast", "Brunch", "Lunch", "Supper", "Snack", "Picnic", "Deli", "Diner", "Bistro", "Pantry",
          "Harvest", "Café", "Sampler", "Medley", "Feast"]


def difficulty(n_steps: int) -> str:
    return "easy" if n_steps <= 3 else ("medium" if n_steps <= 5 else "hard")


def build_recipe(comps: tuple[str, ...], dish: str) -> dict[str, Any]:
    """The recipe record (without id and name) for components served in ``dish``."""
    cs = [COMPONENTS[k] for k in comps]
    dish_word = dish.lower()
    steps = []
    for c in cs:
        for text, ops in c.steps:
            steps.append({"text": text.format(dish=dish_word, on="on" if dish == "Plate" else "in"),
                          "ops": [dict(o) for o in ops]})
    ingredients = sorted({c.ingredient for c in cs})
    equipment = sorted({e for c in cs for e in c.equipment} | {dish})
    diet = ["vegetarian"]
    if "Egg" not in ingredients:
        diet.append("vegan")
    if "Bread" not in ingredients:
        diet.append("gluten-free")
    n = len(steps)
    return {
        "components": list(comps), "dish": dish, "ingredients": ingredients, "equipment": equipment,
        "diet": sorted(diet), "difficulty": difficulty(n), "steps": steps,
        "final": [{**c.final, "in": dish} for c in cs],
        "time_minutes": 5 + 4 * n + 6 * sum(c.method != "raw" for c in cs),
        "description": (f"A plate of {_join([c.title for c in cs])}." if dish == "Plate"
                        else f"A bowl of {_join([c.title for c in cs])}."),
    }


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _candidates() -> list[tuple[tuple[str, ...], str]]:
    by_ing: dict[str, list[str]] = {}
    for c in COMPONENTS.values():
        by_ing.setdefault(c.ingredient, []).append(c.key)
    groups: dict[int, list[tuple[tuple[str, ...], str]]] = {1: [], 2: [], 3: []}
    ings = sorted(by_ing)
    for size in (1, 2, 3):
        for combo in itertools.combinations(ings, size):
            for choice in itertools.product(*(sorted(by_ing[i]) for i in combo)):
                for dish in ("Plate", "Bowl"):
                    groups[size].append((tuple(choice), dish))
    rng = random.Random(SEED + 1)
    for g in groups.values():
        rng.shuffle(g)
    # interleave sizes so that the collection mixes easy, medium and hard recipes
    out: list[tuple[tuple[str, ...], str]] = []
    pattern = [1, 2, 2, 3, 3]
    while any(groups.values()):
        for size in pattern:
            if groups[size]:
                out.append(groups[size].pop())
    return out


def _separable(a: dict[str, Any], b: dict[str, Any], attr: str) -> bool:
    if attr == "diet":
        return ("vegan" in a["diet"]) != ("vegan" in b["diet"])
    if attr == "ingredient":
        ia, ib = set(a["ingredients"]), set(b["ingredients"])
        return bool(ia - ib) and bool(ib - ia) and a["diet"] == b["diet"]
    if attr == "equipment":
        ea, eb = set(a["equipment"]), set(b["equipment"])
        return bool(ea - eb) and bool(eb - ea) and a["ingredients"] == b["ingredients"]
    if attr == "difficulty":
        return a["difficulty"] != b["difficulty"] and a["ingredients"] == b["ingredients"]
    raise ValueError(attr)


def _partner(comps: tuple[str, ...], attr: str, rng: random.Random) -> tuple[str, ...] | None:
    comps_l = list(comps)
    ings = {COMPONENTS[k].ingredient for k in comps}
    opts: list[tuple[str, ...]] = []
    if attr == "diet":
        if "Egg" not in ings:
            return None
        i = next(j for j, k in enumerate(comps_l) if COMPONENTS[k].ingredient == "Egg")
        for c in COMPONENTS.values():
            if c.ingredient not in ings and c.ingredient != "Egg":
                opts.append(tuple(sorted(comps_l[:i] + [c.key] + comps_l[i + 1:])))
    elif attr == "ingredient":
        for i, k in enumerate(comps_l):
            m = COMPONENTS[k].method
            for c in COMPONENTS.values():
                if c.ingredient not in ings and c.method == m and c.ingredient not in ("Egg", "Bread") \
                        and COMPONENTS[k].ingredient not in ("Egg", "Bread"):
                    opts.append(tuple(sorted(comps_l[:i] + [c.key] + comps_l[i + 1:])))
    elif attr == "equipment":
        for i, k in enumerate(comps_l):
            for a, b in EQUIPMENT_SWAPS:
                other = b if k == a else a if k == b else None
                if other:
                    opts.append(tuple(sorted(comps_l[:i] + [other] + comps_l[i + 1:])))
    elif attr == "difficulty":
        for i, k in enumerate(comps_l):
            ing = COMPONENTS[k].ingredient
            for c in COMPONENTS.values():
                if c.ingredient == ing and c.key != k:
                    opts.append(tuple(sorted(comps_l[:i] + [c.key] + comps_l[i + 1:])))
    return rng.choice(opts) if opts else None


def generate(seed: int = SEED) -> list[dict[str, Any]]:
    """The full, deterministic recipe list."""
    rng = random.Random(seed)
    cands = _candidates()
    names = [f"{a} {t}" for a in ADJECTIVES for t in THEMES if a != t]
    rng.shuffle(names)
    used: set[tuple[tuple[str, ...], str]] = set()
    recipes: list[dict[str, Any]] = []

    def take_name(dish: str) -> str:
        return f"{names.pop()} {'Plate' if dish == 'Plate' else 'Bowl'}"

    for attr, count in PAIRS.items():
        made = 0
        for comps, dish in cands:
            if made == count:
                break
            key_a = (tuple(sorted(comps)), dish)
            if key_a in used or len(comps) < (2 if attr == "difficulty" else 1):
                continue
            partner = _partner(tuple(sorted(comps)), attr, rng)
            if partner is None or (partner, dish) in used or partner == key_a[0]:
                continue
            a, b = build_recipe(key_a[0], dish), build_recipe(partner, dish)
            if not _separable(a, b, attr):
                continue
            name = take_name(dish)
            pair_id = f"pair{sum(PAIRS[x] for x in list(PAIRS)[:list(PAIRS).index(attr)]) + made + 1:02d}"
            for r in (a, b):
                recipes.append({**r, "name": name, "pair_id": pair_id, "pair_attr": attr})
            used.update({key_a, (partner, dish)})
            made += 1
        if made < count:
            raise RuntimeError(f"only {made} {attr} pairs could be made")
    for comps, dish in cands:
        if len(recipes) >= N_RECIPES:
            break
        key = (tuple(sorted(comps)), dish)
        if key in used:
            continue
        used.add(key)
        recipes.append({**build_recipe(key[0], dish), "name": take_name(dish), "pair_id": None, "pair_attr": None})
    recipes.sort(key=lambda r: (r["name"], r["pair_id"] or "", r["components"]))
    for i, r in enumerate(recipes, 1):
        r["recipe_id"] = f"r{i:03d}"
    return [dict(sorted(r.items())) for r in recipes]


#: the shelf of long recipes: how many, their steps and how many appliances heat their components
SHELF_SEED = 20261125
N_LONG = 24
LONG_STEPS = (10, 15)
LONG_HEAT_SOURCES = 3


def generate_shelf(standard: list[dict[str, Any]], seed: int = SHELF_SEED) -> list[dict[str, Any]]:
    """The hard tier's long recipes (ids ``h001``...): 4-5 components, each of another ingredient, with
    :data:`LONG_STEPS` steps, heated by at least :data:`LONG_HEAT_SOURCES` appliances; named apart from every
    recipe of ``standard`` (the names of the standard collection are never reused)."""
    rng = random.Random(seed)
    by_ing: dict[str, list[str]] = {}
    for c in COMPONENTS.values():
        by_ing.setdefault(c.ingredient, []).append(c.key)
    combos: list[tuple[tuple[str, ...], str]] = []
    for size in (4, 5):
        for ings in itertools.combinations(sorted(by_ing), size):
            for choice in itertools.product(*(sorted(by_ing[i]) for i in ings)):
                comps = [COMPONENTS[k] for k in choice]
                steps = sum(len(c.steps) for c in comps)
                heat = {HEAT_SOURCE[c.method] for c in comps if c.method != "raw"}
                if LONG_STEPS[0] <= steps <= LONG_STEPS[1] and len(heat) >= LONG_HEAT_SOURCES:
                    combos += [(tuple(choice), "Plate"), (tuple(choice), "Bowl")]
    rng.shuffle(combos)
    taken = {r["name"] for r in standard}
    names = [f"{a} {t} Feast" for a in ADJECTIVES for t in THEMES if a != t and t != "Feast"]
    rng.shuffle(names)
    out: list[dict[str, Any]] = []
    for comps, dish in combos[:N_LONG]:
        name = next(n for n in names if f"{n} {dish}" not in taken)
        names.remove(name)
        out.append({**build_recipe(comps, dish), "name": f"{name} {dish}", "pair_id": None, "pair_attr": None})
    out.sort(key=lambda r: (r["name"], r["components"]))
    for i, r in enumerate(out, 1):
        r["recipe_id"] = f"h{i:03d}"
    return [dict(sorted(r.items())) for r in out]


def _files() -> dict[str, list[dict[str, Any]]]:
    """Each file's name under ``data/recipes`` and its recipes."""
    standard = generate()
    return {"recipes.json": standard, "hard.long.json": generate_shelf(standard)}


def main(argv: list[str] | None = None) -> int:
    import argparse

    from embodiedweb.paths import data_dir

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the shipped files instead of writing them")
    args = ap.parse_args(argv)
    folder = data_dir() / "recipes"
    folder.mkdir(parents=True, exist_ok=True)
    stale = []
    for name, recipes in _files().items():
        path = folder / name
        text = json.dumps(recipes, indent=1, ensure_ascii=False) + "\n"
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {len(recipes)} recipes to {path}")
    if args.check:
        print("up to date" if not stale else f"differ from the generator: {', '.join(stale)}")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
