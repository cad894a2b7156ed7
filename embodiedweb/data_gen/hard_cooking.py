"""Generate the cooking hard tier (``data/cooking/hard.jsonl``): ``python -m embodiedweb.data_gen.hard_cooking``.

Same env, recipes, action grammar and checker as the standard tier; what changes is the kitchen and what the
instruction leaves to the agent (the issue's hard-tier item 3):

- **Long recipes, components cooked differently**: every recipe of the catalogue with at least
  :data:`MIN_STEPS` (8) steps whose components are heated by at least two appliances (stove, microwave,
  toaster), in two kitchens; then every recipe of the recipe site's hard shelf (10-15 steps, 4-5 components
  heated by three appliances: :func:`embodiedweb.data_gen.recipes.generate_shelf`), which only these tasks'
  sessions see (``web.sites.recipes.extra``), in two kitchens each. The shelf's tasks come after the
  catalogue's, so the ids of the earlier tasks stay as they were.
- **Food put away**: every instance of the recipe's ingredients is taken off the counters; one fresh
  instance of each is stored in a closed fridge (bread: a closed cabinet), and one ingredient has a second
  fresh instance in a closed drawer or cabinet (either may be used).
- **Leftovers that look right**: one or two of the dish's components lie on a counter already made, cut
  and heated by the very appliance the recipe names (so type, state and heat source all match). They were
  made before the episode, not by following the recipe, so the checker's rule that no step's work may
  precede its page (the standard rule) rejects them; the instruction says food already cut or cooked is
  not part of the dish.
- **A second kind of dish**: a bowl next to a plate recipe (a plate next to a bowl recipe).
- **A missing ingredient nobody names**: in one of each recipe's two tasks one ingredient is not in the
  kitchen at all. The instruction only says that one may be missing and that nothing the kitchen has may
  be ordered; the checker's order rules (the missing one ordered with kitchen delivery, nothing else
  ordered) are the standard tier's.

Task ids are ``cook-hard-NNN`` in recipe order, numbered over the recipes of at least
:data:`NUMBERED_FROM_STEPS` (7) steps, as the tier's first version had them: the 40 ids of its 7-step recipes
are retired (never reused), so every other id names the same task as before. The split is the standard tier's (by recipe name), so a
recipe is in the same split in both tiers. The file is byte-identical on rerun (``--check`` compares).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from embodiedweb.data_gen.cooking_tasks import constraint_for, split_of
from embodiedweb.domains.cooking.checker import HEAT_SOURCE, final_of
from embodiedweb.domains.cooking.feasibility import INGREDIENT_OF, check_feasible, kitchen_inventory
from embodiedweb.paths import data_dir
from web_sites.recipes import catalog

SEED = "hard-cooking-1"
#: the shortest recipe of the tier (the issue's 8-15 steps)
MIN_STEPS = 8
#: the tasks are numbered over the recipes this long (the tier's first version shipped 7-step recipes too;
#: their ids are retired so that the others keep theirs)
NUMBERED_FROM_STEPS = 7
PER_RECIPE = 2
#: where a fresh ingredient is put away, and where its second instance goes
STORE_IN = {"Bread": "Cabinet"}
SECOND_IN = ("Drawer", "Cabinet")
OTHER_DISH = {"Plate": "Bowl", "Bowl": "Plate"}


def eligible(recipe: dict[str, Any], min_steps: int = MIN_STEPS) -> bool:
    """A long recipe (at least ``min_steps`` steps) whose components are cooked in at least two ways."""
    hows = {op["how"] for s in recipe["steps"] for op in s["ops"] if op["op"] == "cook"}
    return len(recipe["steps"]) >= min_steps and len({HEAT_SOURCE[h] for h in hows}) >= 2


def leftover_prep(cond: dict[str, Any]) -> tuple[str, list[str]] | None:
    """(ingredient, preparation) that makes a leftover matching final condition ``cond`` (``None`` for a raw
    whole food, which no preparation distinguishes)."""
    base = INGREDIENT_OF.get(cond["type"], cond["type"])
    steps = ["slice"] if cond["type"] != base else []
    if cond.get("heated_by"):
        steps.append(f"heat:{cond['heated_by']}")
    return (base, steps) if steps else None


def instruction(recipe: dict[str, Any], cons: dict[str, Any] | None) -> str:
    text = f"Cook “{recipe['name']}”"
    if cons:
        text += f" ({cons['text']})"
    return text + (
        " by following the recipe on the recipe website step by step in this kitchen: open the recipe, do each "
        "step in the kitchen, and go through every step on the website. Serve it on one "
        f"{recipe['dish'].lower()} holding only what the recipe puts there. Use only food you cut and cook "
        "yourself while following the recipe: food that is already cut or cooked is not part of this dish. "
        "Food may be put away in closed cupboards, drawers and the fridge. If the kitchen lacks an ingredient "
        "the recipe needs, order it from the online shop with delivery to your kitchen; order nothing the "
        "kitchen already has.")


#: the recipe site's shelf of long recipes the hard tier's sessions see
RECIPE_SHELF = "hard"


def task_for(recipe: dict[str, Any], kitchen: str, missing: str | None, rng: random.Random,
             shelf: str | None = None) -> dict[str, Any]:
    """One hard task: the kitchen's changes (``embodied.remove``/``add``) and the goal."""
    ings = sorted(recipe["ingredients"])
    add: list[dict[str, Any]] = []
    kept = [i for i in ings if i != missing]
    for ing in kept:
        add.append({"type": ing, "on": STORE_IN.get(ing, "Fridge")})
    second = rng.choice(kept)
    add.append({"type": second, "on": rng.choice(SECOND_IN)})
    # leftovers: made components of ingredients that are in the kitchen (never of the missing one)
    made = [(c, leftover_prep(c)) for c in final_of(recipe)]  # a boiled component's leftover was boiled
    made = [(c, p) for c, p in made if p is not None and p[0] != missing]
    rng.shuffle(made)
    leftovers = []
    for _c, (base, steps) in made[: rng.choice([1, 2])]:
        add.append({"type": base, "on": "CounterTop", "prepare": steps})
        leftovers.append({"type": base, "prepare": steps})
    add.append({"type": OTHER_DISH[recipe["dish"]], "on": "CounterTop"})
    cons = constraint_for(recipe)
    inventory = (set(kitchen_inventory(kitchen)) - set(ings)) | set(kept) | {OTHER_DISH[recipe["dish"]]}
    check_feasible(recipe, kitchen, inventory, missing)
    web: dict[str, Any] = {"start_url": "/"}
    if shelf:
        web["sites"] = {"recipes": {"extra": shelf}}
    return {"env_id": "EWA-Cooking-v0", "instruction": instruction(recipe, cons),
            "embodied": {"kitchen_id": kitchen, "remove": ings, "add": add, "teleport": "seen"}, "web": web,
            "goal": {"recipe_id": recipe["recipe_id"], "missing": missing, "missing_told": False},
            "split": split_of(recipe["name"]), "start": "web",
            "meta": {"recipe_name": recipe["name"], "pair_id": recipe["pair_id"], "constraint": cons,
                     "shopping": missing is not None, "n_steps": len(recipe["steps"]), "level": "hard",
                     "stored": kept, "second": second, "leftovers": leftovers}}


def generate() -> list[dict[str, Any]]:
    from embodiedweb.worlds.kitchen.kitchens import list_kitchens

    inv = {k: set(kitchen_inventory(k)) for k in list_kitchens()}
    out: list[dict[str, Any]] = []
    standard = {r["recipe_id"] for r in catalog.recipes()}
    shelf = [r for r in catalog.recipes(RECIPE_SHELF) if r["recipe_id"] not in standard]
    for recipe in [*catalog.recipes(), *shelf]:
        if not eligible(recipe, NUMBERED_FROM_STEPS):
            continue
        rng = random.Random(f"{SEED}:{recipe['recipe_id']}")
        needs = set(recipe["equipment"]) | {"Fridge", "Cabinet", "Drawer"}
        kitchens = [k for k in sorted(inv) if needs <= inv[k]]
        chosen = rng.sample(kitchens, min(PER_RECIPE, len(kitchens)))
        # one task of each recipe lacks an ingredient (which one, and in which kitchen, by the seed)
        short = rng.randrange(len(chosen))
        for j, kitchen in enumerate(chosen):
            missing = rng.choice(sorted(recipe["ingredients"])) if j == short else None
            out.append(task_for(recipe, kitchen, missing, rng,
                                RECIPE_SHELF if recipe["recipe_id"] not in standard else None))
    for n, t in enumerate(out):
        t["task_id"] = f"cook-hard-{n:03d}"
    return [{k: t[k] for k in sorted(t)} for t in out if t["meta"]["n_steps"] >= MIN_STEPS]


def render(tasks: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(t, ensure_ascii=False, sort_keys=True) + "\n" for t in tasks)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the shipped file instead of writing it")
    args = ap.parse_args(argv)
    path = data_dir() / "cooking" / "hard.jsonl"
    text = render(generate())
    if args.check:
        same = path.exists() and path.read_text(encoding="utf-8") == text
        print(f"{path}: {'up to date' if same else 'differs from the generator'}")
        return 0 if same else 1
    path.write_text(text, encoding="utf-8")
    print(f"wrote {text.count(chr(10))} tasks to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
