"""The cooking checker: web (right recipe, last step reached, missing item ordered), embodied (every
target state in one serving dish), overall (both) and completion (fraction of all conditions met).

It reads semantic state only: the recipe site's view log, the shop's orders, and the kitchen objects.
"""

from __future__ import annotations

from typing import Any

from web_sites.recipes import catalog


def _matches(obj: dict[str, Any], cond: dict[str, Any]) -> bool:
    if obj["objectType"] != cond["type"]:
        return False
    if any(obj.get(k) != v for k, v in cond.get("state", {}).items()):
        return False
    src = cond.get("heated_by")
    return not src or f"heated:{src}" in obj.get("history", [])


def embodied_conditions(recipe: dict[str, Any], world: dict[str, Any]) -> list[tuple[str, bool]]:
    """Each final condition with whether it holds, all in the same dish (the dish that satisfies most)."""
    objs = [o for o in world.get("objects", [])]
    dish_type = recipe["dish"]
    dishes = sorted(o["objectId"] for o in objs if o["objectType"] == dish_type)
    best: list[tuple[str, bool]] | None = None
    for d in dishes or [None]:
        res = []
        for cond in recipe["final"]:
            label = f"{cond['type']} {cond.get('state', {})} {('heated by ' + cond['heated_by']) if cond.get('heated_by') else ''} in {dish_type}"
            ok = d is not None and any(_matches(o, cond) and d in o.get("parentReceptacles", []) for o in objs)
            res.append((label.replace("  ", " "), ok))
        if best is None or sum(ok for _, ok in res) > sum(ok for _, ok in best):
            best = res
    return best or []


def web_conditions(goal: dict[str, Any], web: dict[str, Any]) -> list[tuple[str, bool]]:
    recipe = catalog.get(goal["recipe_id"])
    assert recipe is not None
    progress = web.get("recipes", {}).get("progress", {})
    n = len(recipe["steps"])
    conds = [(f"opened recipe {recipe['recipe_id']}", goal["recipe_id"] in progress),
             (f"reached step {n} of {recipe['recipe_id']}", progress.get(goal["recipe_id"], 0) >= n)]
    missing = goal.get("missing")
    if missing:
        orders = web.get("shop", {}).get("orders", [])
        ordered = any(o.get("delivery") == "kitchen" and any(i.get("object_type") == missing for i in o["items"])
                      for o in orders)
        conds.append((f"ordered a {missing} for delivery to the kitchen", ordered))
    return conds


def check_cooking(goal: dict[str, Any], world: dict[str, Any], web: dict[str, Any]) -> dict[str, Any]:
    recipe = catalog.get(goal["recipe_id"])
    if recipe is None:
        raise KeyError(f"unknown recipe {goal['recipe_id']!r}")
    wc = web_conditions(goal, web)
    ec = embodied_conditions(recipe, world)
    web_ok = all(ok for _, ok in wc)
    emb_ok = bool(ec) and all(ok for _, ok in ec)
    allc = wc + ec
    return {"overall": web_ok and emb_ok, "web": web_ok, "embodied": emb_ok,
            "completion": sum(ok for _, ok in allc) / len(allc),
            "conditions": {label: ok for label, ok in allc}}
