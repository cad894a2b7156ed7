"""The recipe collection (``data/recipes/recipes.json``) for the site, task generators and checkers."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from embodiedweb.paths import data_dir

DIETS = ("vegan", "vegetarian", "gluten-free")
DIFFICULTIES = ("easy", "medium", "hard")
INGREDIENT_LABELS = {"Apple": "Apple", "Bread": "Bread", "Egg": "Egg", "Lettuce": "Lettuce", "Potato": "Potato",
                     "Tomato": "Tomato"}
EQUIPMENT_LABELS = {"Knife": "Knife", "Pan": "Frying pan", "Pot": "Saucepan", "StoveBurner": "Stove",
                    "Microwave": "Microwave", "Toaster": "Toaster", "Plate": "Plate", "Bowl": "Bowl"}


@lru_cache(maxsize=1)
def recipes() -> tuple[dict[str, Any], ...]:
    """All recipes, sorted by id."""
    path = data_dir() / "recipes" / "recipes.json"
    with open(path, encoding="utf-8") as f:
        return tuple(sorted(json.load(f), key=lambda r: r["recipe_id"]))


@lru_cache(maxsize=1)
def by_id() -> dict[str, dict[str, Any]]:
    """Every recipe by its ``recipe_id``."""
    return {r["recipe_id"]: r for r in recipes()}


def get(recipe_id: str) -> dict[str, Any] | None:
    """The recipe with this id, or ``None``."""
    return by_id().get(recipe_id)


def search(q: str = "", diets: list[str] | None = None, difficulty: str = "", ingredients: list[str] | None = None,
           equipment: list[str] | None = None) -> list[dict[str, Any]]:
    """Recipes whose name or description contains every word of ``q`` and that pass every filter.

    ``diets``: the recipe has all these diet labels; ``ingredients``: uses all of them;
    ``equipment``: uses all of them; ``difficulty``: exactly this level (empty = any).
    """
    words = [w for w in q.lower().split() if w]
    out = []
    for r in recipes():
        hay = f"{r['name']} {r['description']}".lower()
        if any(w not in hay for w in words):
            continue
        if diets and not set(diets) <= set(r["diet"]):
            continue
        if difficulty and r["difficulty"] != difficulty:
            continue
        if ingredients and not set(ingredients) <= set(r["ingredients"]):
            continue
        if equipment and not set(equipment) <= set(r["equipment"]):
            continue
        out.append(r)
    return sorted(out, key=lambda r: (r["name"], r["recipe_id"]))
