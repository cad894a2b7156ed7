"""Per-turn checkers of EWA-Assistant-v0: each reads the semantic states at the turn's start (``before``)
and at ``done`` (``after``): the world, the sites' per-session state and the browser's tabs, never pages.

Answers are strict: the right name must be in the answer and no other candidate's (naming both recipes,
or every product ordered, is a hedge and fails). Actions are strict too: the orders placed during the turn
must be exactly the one asked for (an extra order, a second product or another store fails), the recipe
tabs opened must be exactly the ones asked for.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from embodiedweb.text import NAME_ABBREVIATIONS, fold

_RECIPE = re.compile(r"/recipes/recipe/(r\d+)")


def norm(text: str | None) -> str:
    """A name as it is matched (:func:`embodiedweb.text.fold`: casefolded, accents stripped, punctuation to
    spaces), with ``&`` and ``+`` read as "and" and ``St.``, ``Mt.`` ... spelled out: ``Carrere & Hastings`` names
    Carrère and Hastings, ``St. Thomas Church`` Saint Thomas Church."""
    words = fold((text or "").replace("&", " and ").replace("+", " and ")).split()
    return " ".join(NAME_ABBREVIATIONS.get(w, w) for w in words)


def names(answer: str, name: str) -> bool:
    """Whether ``answer`` names ``name`` (as whole words)."""
    a, n = f" {norm(answer)} ", f" {norm(name)} "
    return n.strip() != "" and n in a


def recipe_of(url: str) -> str | None:
    """The recipe id a recipe-site URL shows (overview or step page), else None."""
    m = _RECIPE.search(url or "")
    return m.group(1) if m else None


def _tab_recipes(snap: dict[str, Any]) -> Counter:
    return Counter(r for r in (recipe_of(u) for u in snap["browser"]["tabs"]) if r)


def _active_recipe(snap: dict[str, Any]) -> str | None:
    b = snap["browser"]
    return recipe_of(b["tabs"][b["active"]]) if 0 <= b["active"] < len(b["tabs"]) else None


def _new_orders(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    seen = {o["order_id"] for o in before["web"].get("shop", {}).get("orders", [])}
    return [o for o in after["web"].get("shop", {}).get("orders", []) if o["order_id"] not in seen]


def _result(ok: bool, why: str = "") -> dict[str, Any]:
    return {"ok": ok, "why": "" if ok else why}


def open_two(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """The recipe tabs gained during the turn show exactly the two recipes, each in its own new tab (the
    instruction asks for two new tabs: one result loaded in the tab that was there does not count; closing the
    tab the turn started on afterwards is fine). A new tab is one whose serial number (``browser.ids``) was not
    there when the turn started."""
    gained = _tab_recipes(after) - _tab_recipes(before)
    want = set(e["recipes"])
    if set(gained) != want:
        return _result(False, f"recipe tabs opened {sorted(gained)}, asked {sorted(want)}")
    b, a = before["browser"], after["browser"]
    if len(a.get("ids", ())) != len(a["tabs"]) or len(b.get("ids", ())) != len(b["tabs"]):  # no serials: count
        new_tabs = len(a["tabs"]) - len(b["tabs"])
        return _result(new_tabs >= 2, f"{new_tabs} new tab(s) opened, asked two")
    new = {recipe_of(u) for i, u in zip(a["ids"], a["tabs"], strict=True) if i not in set(b["ids"])}
    missing = sorted(want - new)
    return _result(not missing, f"{', '.join(missing)} not in a tab opened during the turn")


def focus(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """The active tab shows the recipe referred to."""
    got = _active_recipe(after)
    return _result(got == e["recipe"], f"active tab shows {got}, asked {e['recipe']}")


def answer_name(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """The answer names the right one and none of the other candidates."""
    if not names(answer, e["name"]):
        return _result(False, f"answer does not name {e['name']!r}")
    hedged = [n for n in e.get("others", []) if names(answer, n) and not names(e["name"], n)]
    return _result(not hedged, f"answer also names {hedged}")


def order(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """Exactly one order placed during the turn: at the store, for the delivery asked, holding one unit of
    the product and nothing else."""
    new = _new_orders(before, after)
    if len(new) != 1:
        return _result(False, f"{len(new)} orders placed, asked 1")
    o = new[0]
    items = [(i["product_id"], i["qty"]) for i in o["items"]]
    if o["store_id"] != e["store"]:
        return _result(False, f"ordered at {o['store_id']}, asked {e['store']}")
    if o["delivery"] != e["delivery"]:
        return _result(False, f"delivery {o['delivery']}, asked {e['delivery']}")
    return _result(items == [(e["product"], 1)], f"ordered {items}, asked [({e['product']!r}, 1)]")


def active_recipe(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """The active tab shows the recipe asked for."""
    got = _active_recipe(after)
    return _result(got == e["recipe"], f"active tab shows {got}, asked {e['recipe']}")


def moved(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """The object the instruction points at now rests in the destination (directly), and no other object
    of its type was moved there during the turn."""
    objs = {o["objectId"]: o for o in after["world"]["objects"]}
    o = objs.get(e["object"])
    if o is None:
        return _result(False, f"{e['object']} is gone (sliced or thrown away)")
    parents = o.get("parentReceptacles") or []
    if not parents or parents[0] != e["dest"]:
        return _result(False, f"{e['object']} is in {parents[:1] or 'nothing'}, asked {e['dest']}")
    was = {o["objectId"] for o in before["world"]["objects"]
           if (o.get("parentReceptacles") or [None])[0] == e["dest"]}
    extra = [x for x, ob in objs.items() if x != e["object"] and x not in was
             and (ob.get("parentReceptacles") or [None])[0] == e["dest"] and ob["objectType"] == o["objectType"]]
    return _result(not extra, f"also moved {extra} there")


def _looked_up(e: dict[str, Any], after: dict[str, Any]) -> bool:
    """The place's wiki article was opened this episode (by the turn's ``done``): the turn says to check the
    wiki, and a fact known beforehand is not a fact looked up (geolocation's rule for research)."""
    return e["place"] in after["web"].get("wiki", {}).get("views", [])


def answer_year(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """The place's article was read this episode, and the answer gives exactly one year, the right one."""
    if not _looked_up(e, after):
        return _result(False, f"the wiki article of {e['place']} was not opened")
    years = sorted(set(re.findall(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)", answer or "")))
    return _result(years == [str(e["year"])], f"answer gives the years {years}, asked {e['year']}")


def answer_fact_name(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """The place's article was read this episode, and the answer names the right one and no other candidate."""
    if not _looked_up(e, after):
        return _result(False, f"the wiki article of {e['place']} was not opened")
    return answer_name(e, before, after, answer)


def at_node(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """The walker stands at the node or within the goal radius of it (the outdoor envs' rule)."""
    from embodiedweb.domains.outdoor.common import near

    node = after["world"].get("node")
    return _result(near(node, e["node"]), f"at {node}, asked {e['node']}")


CHECKS: dict[str, Callable[..., dict[str, Any]]] = {
    "open_two": open_two, "focus": focus, "compare": answer_name, "order_grounded": order, "same_store": order,
    "recall": answer_name, "recipe_grounded": active_recipe, "move_grounded": moved,
    "name_seen": answer_name, "fact_year": answer_year, "fact_architect": answer_fact_name, "walk_there": at_node,
    "go_back": at_node, "order_seen": order,
}
