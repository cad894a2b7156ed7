"""The recipe collection (``data/recipes/recipes.json``) for the site, task generators and checkers."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from embodiedweb.frozen import read_only
from embodiedweb.paths import data_dir

DIETS = ("vegan", "vegetarian", "gluten-free")
DIFFICULTIES = ("easy", "medium", "hard")
INGREDIENT_LABELS = {"Apple": "Apple", "Bread": "Bread", "Egg": "Egg", "Lettuce": "Lettuce", "Potato": "Potato",
                     "Tomato": "Tomato"}
EQUIPMENT_LABELS = {"Knife": "Knife", "Pan": "Frying pan", "Pot": "Saucepan", "StoveBurner": "Stove",
                    "Microwave": "Microwave", "Toaster": "Toaster", "Plate": "Plate", "Bowl": "Bowl"}


#: the shelves of recipes a task may add for its sessions (``web.sites.recipes.extra``): files
#: ``data/recipes/<name>.*.json``
SHELVES = ("hard",)


@lru_cache(maxsize=len(SHELVES) + 1)
def recipes(extra: str | None = None) -> tuple[dict[str, Any], ...]:
    """The recipes a session sees, sorted by id: those of ``recipes.json`` and, for ``extra`` (a shelf of
    :data:`SHELVES`), those of the files ``<extra>.*.json`` (only the sessions of a task that names the shelf
    see them: a session without it sees exactly the standard collection)."""
    folder = data_dir() / "recipes"
    if extra not in SHELVES:
        with open(folder / "recipes.json", encoding="utf-8") as f:
            return read_only(tuple(sorted(json.load(f), key=lambda r: r["recipe_id"])))
    out = list(recipes())  # the standard collection's records themselves, not a second reading of them
    for path in sorted(folder.glob(f"{extra}.*.json")):
        with open(path, encoding="utf-8") as f:
            out += read_only(json.load(f))
    return tuple(sorted(out, key=lambda r: r["recipe_id"]))


@lru_cache(maxsize=1)
def by_id() -> dict[str, dict[str, Any]]:
    """Every recipe of every shelf by its ``recipe_id`` (ids are unique across shelves)."""
    out: dict[str, dict[str, Any]] = {}
    for extra in (None, *SHELVES):
        for r in recipes(extra):
            if out.setdefault(r["recipe_id"], r) != r:
                raise ValueError(f"recipe id {r['recipe_id']!r} is on two shelves")
    return out


@lru_cache(maxsize=len(SHELVES) + 1)
def _ids(extra: str | None) -> frozenset[str]:
    return frozenset(r["recipe_id"] for r in recipes(extra))


def get(recipe_id: str) -> dict[str, Any] | None:
    """The recipe with this id (of any shelf: what task files, checkers and experts look up), or ``None``."""
    return by_id().get(recipe_id)


def shown(recipe_id: str, extra: str | None = None) -> dict[str, Any] | None:
    """The recipe with this id if a session with shelf ``extra`` sees it (the site's pages), else ``None``."""
    return get(recipe_id) if recipe_id in _ids(extra) else None


def search(q: str = "", diets: list[str] | None = None, difficulty: str = "", ingredients: list[str] | None = None,
           equipment: list[str] | None = None, extra: str | None = None) -> list[dict[str, Any]]:
    """Recipes (of the standard collection and shelf ``extra``) whose name or description contains every word of
    ``q`` and that pass every filter.

    ``diets``: the recipe has all these diet labels; ``ingredients``: uses all of them;
    ``equipment``: uses all of them; ``difficulty``: exactly this level (empty = any).
    """
    words = [w for w in q.lower().split() if w]
    out = []
    for r in recipes(extra):
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
