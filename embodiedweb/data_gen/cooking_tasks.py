"""Generate the cooking task suite (``data/cooking/tasks.jsonl``): ``python -m embodiedweb.data_gen.cooking_tasks``.

For every recipe: three kitchens that have all its equipment and ingredients, plus for about half of
the recipes one *shopping* variant in which one ingredient is missing from the kitchen (naturally, or
removed from the kitchen by the task) and must be ordered from the shop. Recipes of a confounder pair
get the constraint that singles them out (the one the site's filters separate). Splits are by recipe
name, so both recipes of a pair fall in the same split.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from embodiedweb.domains.cooking import feasibility
from embodiedweb.domains.cooking.feasibility import check_feasible
from embodiedweb.paths import data_dir
from web_sites.recipes import catalog

SEED = 7
PER_RECIPE = 3
EQUIPMENT_WORDS = {"Knife": "a knife", "Pan": "a frying pan", "Pot": "a saucepan", "StoveBurner": "the stove",
                   "Microwave": "a microwave", "Toaster": "a toaster", "Plate": "a plate", "Bowl": "a bowl"}


def kitchen_inventory() -> dict[str, set[str]]:
    from embodiedweb.worlds.kitchen.kitchens import list_kitchens

    return {k: set(feasibility.kitchen_inventory(k)) for k in list_kitchens()}


def constraint_for(recipe: dict[str, Any]) -> dict[str, Any] | None:
    """The filter and phrase that single ``recipe`` out of its confounder pair."""
    if not recipe["pair_id"]:
        return None
    partner = next(r for r in catalog.recipes() if r["pair_id"] == recipe["pair_id"]
                   and r["recipe_id"] != recipe["recipe_id"])
    attr = recipe["pair_attr"]
    if attr == "diet":
        if "vegan" in recipe["diet"]:
            return {"filter": "diet", "value": "vegan", "text": "the vegan version"}
        return {"filter": "ingredient", "value": "Egg", "text": "the version with egg"}
    if attr == "difficulty":
        return {"filter": "difficulty", "value": recipe["difficulty"],
                "text": f"the {recipe['difficulty']} version"}
    if attr == "ingredient":
        ing = sorted(set(recipe["ingredients"]) - set(partner["ingredients"]))[0]
        return {"filter": "ingredient", "value": ing, "text": f"the version with {ing.lower()}"}
    if attr == "equipment":
        eq = sorted(set(recipe["equipment"]) - set(partner["equipment"]))[0]
        return {"filter": "equipment", "value": eq, "text": f"the version made with {EQUIPMENT_WORDS[eq]}"}
    raise ValueError(attr)


def split_of(name: str) -> str:
    return "train" if int(hashlib.sha256(name.encode()).hexdigest(), 16) % 2 else "test"


def instruction(recipe: dict[str, Any], cons: dict[str, Any] | None, missing: str | None) -> str:
    text = f"Cook “{recipe['name']}”"
    if cons:
        text += f" ({cons['text']})"
    text += (" by following the recipe on the recipe website step by step in this kitchen: open the recipe, do "
             "each step in the kitchen, and go through every step on the website. Serve it on one "
             f"{recipe['dish'].lower()} holding only what the recipe puts there.")
    if missing:
        text += (f" This kitchen has no {missing.lower()}: first order one from the online shop with delivery "
                 "to your kitchen.")
    return text


def generate() -> list[dict[str, Any]]:
    inv = kitchen_inventory()
    kitchens = sorted(inv)
    tasks: list[dict[str, Any]] = []
    for idx, r in enumerate(catalog.recipes()):
        rng = random.Random(f"{SEED}:{r['recipe_id']}")
        equip = set(r["equipment"])
        ings = set(r["ingredients"])
        with_equipment = [k for k in kitchens if equip <= inv[k]]
        complete = [k for k in with_equipment if ings <= inv[k]]
        partial = [k for k in with_equipment if len(ings - inv[k]) == 1]
        cons = constraint_for(r)
        chosen = rng.sample(complete, min(PER_RECIPE, len(complete)))
        variants: list[tuple[str, str | None, list[str]]] = [(k, None, []) for k in chosen]
        # shopping variants: every other recipe, and enough to fill recipes short of complete kitchens
        n_shop = (1 if idx % 2 == 0 else 0) + (PER_RECIPE - len(chosen))
        pool = [k for k in partial] + [k for k in with_equipment if k not in chosen and ings <= inv[k]]
        rng.shuffle(pool)
        for k in pool[:n_shop]:
            missing = sorted(ings - inv[k])
            if missing:
                variants.append((k, missing[0], []))
            else:
                m = rng.choice(sorted(ings))
                variants.append((k, m, [m]))
        for j, (k, missing, remove) in enumerate(variants):
            check_feasible(r, k, inv[k] - set(remove), missing)
            emb: dict[str, Any] = {"kitchen_id": k}
            if remove:
                emb["remove"] = remove
            tasks.append({
                "task_id": f"cooking-{r['recipe_id']}-{j}", "env_id": "EWA-Cooking-v0",
                "instruction": instruction(r, cons, missing), "embodied": emb, "web": {"start_url": "/"},
                "goal": {"recipe_id": r["recipe_id"], "missing": missing}, "split": split_of(r["name"]),
                "start": "web",
                "meta": {"recipe_name": r["name"], "pair_id": r["pair_id"], "constraint": cons,
                         "shopping": missing is not None, "n_steps": len(r["steps"])}})
    return tasks


def main() -> None:
    tasks = generate()
    out = data_dir() / "cooking" / "tasks.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        for t in tasks:
            f.write(json.dumps(t, ensure_ascii=False, sort_keys=True) + "\n")
    shop = sum(t["meta"]["shopping"] for t in tasks)
    print(f"wrote {len(tasks)} tasks ({shop} with a missing ingredient) to {out}")


if __name__ == "__main__":
    main()
