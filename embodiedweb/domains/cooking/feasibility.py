"""Whether a recipe can be carried out in a kitchen: what each step needs there.

Used when tasks are generated (an impossible step is an error naming the recipe and the step) and
when a task file is loaded.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from embodiedweb.domains.cooking.checker import HEAT_SOURCE

KNIVES = ("Knife", "ButterKnife")
#: Cooking method -> the objects it needs (each inner tuple: any one of them).
METHOD_NEEDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "pan": (("Pan",), ("StoveBurner",)), "pot": (("Pot",), ("StoveBurner",)),
    "microwave": (("Microwave",),), "toaster": (("Toaster",),),
}
INGREDIENT_OF = {"AppleSliced": "Apple", "BreadSliced": "Bread", "TomatoSliced": "Tomato",
                 "PotatoSliced": "Potato", "LettuceSliced": "Lettuce", "EggCracked": "Egg"}
assert set(METHOD_NEEDS) == set(HEAT_SOURCE)


def step_needs(step: dict[str, Any], dish: str) -> list[tuple[str, ...]]:
    """What one recipe step needs in the kitchen: a list of alternatives (any one of each tuple)."""
    needs: list[tuple[str, ...]] = []
    for op in step["ops"]:
        kind = op["op"]
        if kind == "slice":
            needs += [KNIVES, (op["obj"],)]
        elif kind == "cook":
            if op["how"] not in METHOD_NEEDS:
                raise ValueError(f"unknown cooking method {op['how']!r}")
            needs += [*METHOD_NEEDS[op["how"]], (INGREDIENT_OF.get(op["obj"], op["obj"]),)]
        elif kind == "place":
            needs += [(dish,), (INGREDIENT_OF.get(op["obj"], op["obj"]),)]
        else:
            raise ValueError(f"unknown step operation {kind!r}")
    return needs


def infeasible_steps(recipe: dict[str, Any], inventory: set[str], bought: str | None = None) -> list[str]:
    """Why each step of ``recipe`` cannot be done with ``inventory`` (object types in the kitchen) plus
    ``bought`` (an ingredient the task orders from the shop); empty when every step can be done."""
    have = set(inventory) | ({bought} if bought else set())
    out = []
    for i, step in enumerate(recipe["steps"], 1):
        lacking = [" or ".join(alt) for alt in step_needs(step, recipe["dish"]) if not have & set(alt)]
        if lacking:
            out.append(f"recipe {recipe['recipe_id']} step {i} ({step['text']!r}) needs "
                       f"{', '.join(sorted(set(lacking)))}")
    return out


def check_feasible(recipe: dict[str, Any], kitchen_id: str, inventory: set[str], bought: str | None = None) -> None:
    """Raise ``ValueError`` naming the recipe, the step and what is lacking in ``kitchen_id``."""
    problems = infeasible_steps(recipe, inventory, bought)
    if problems:
        raise ValueError(f"cannot be carried out in {kitchen_id}: " + "; ".join(problems))


@cache
def kitchen_inventory(kitchen_id: str) -> frozenset[str]:
    """The object types a kitchen starts with."""
    from embodiedweb.worlds.kitchen.kitchens import kitchen_scene

    return frozenset(o["objectType"] for o in kitchen_scene(kitchen_id)["objects"])
