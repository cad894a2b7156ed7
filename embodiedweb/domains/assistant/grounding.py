"""What a kitchen lets an instruction point at without naming it: "the food in the fridge", "the food on
the counter where the knife is".

A *place* is a receptacle the user can single out by words: one of the only receptacle of its type in the
kitchen (the fridge, the dining table, the sink, the counter when there is one), or a counter top that is
the only one holding some object type (``the counter where the salt shaker is``). A *target* is a place
whose contents (recursively) hold food of exactly one type that the shop sells: the user says "the food
there" and only looking at the kitchen tells which food it is. Generator, checker and oracle read targets
from the kitchen's semantic state at the episode's start with these functions, so they agree.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

#: food types the shop sells (``object_type`` of its products) that kitchens hold
FOODS = ("Apple", "Bread", "Egg", "Lettuce", "Potato", "Tomato")
#: receptacles named by their type when the kitchen has just one
PLACE_WORDS = {"Fridge": "in the fridge", "DiningTable": "on the dining table", "SinkBasin": "in the sink",
               "CounterTop": "on the counter", "Microwave": "in the microwave"}
#: objects that single out a counter top ("the counter where the ... is")
MARKER_WORDS = {"Knife": "knife", "SaltShaker": "salt shaker", "PepperShaker": "pepper shaker", "Pot": "pot",
                "Pan": "pan", "Ladle": "ladle", "Cup": "cup", "Kettle": "kettle", "Mug": "mug",
                "Spatula": "spatula", "Toaster": "toaster", "CoffeeMachine": "coffee machine", "Bowl": "bowl",
                "Plate": "plate", "SoapBottle": "soap bottle", "DishSponge": "dish sponge"}


@dataclass(frozen=True)
class Target:
    """Food of one type at a place the user can name: ``where`` is the phrase ("on the dining table")."""

    place: str  # receptacle objectId
    where: str
    food: str  # object type
    objects: tuple[str, ...]  # objectIds of that food at the place (recursively)


def _objects(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {o["objectId"]: o for o in state["objects"]}


def contents(objs: dict[str, dict[str, Any]], rid: str) -> list[str]:
    """Every objectId inside ``rid``, recursively (what is in a pan on a counter is on that counter too)."""
    out: list[str] = []
    todo = list(objs[rid].get("receptacleObjectIds") or [])
    while todo:
        oid = todo.pop(0)
        if oid in objs and oid not in out:
            out.append(oid)
            todo.extend(objs[oid].get("receptacleObjectIds") or [])
    return out


def places(state: dict[str, Any]) -> dict[str, str]:
    """``{receptacle objectId: phrase}`` of the receptacles a user can single out by words."""
    objs = _objects(state)
    count = Counter(o["objectType"] for o in objs.values())
    out: dict[str, str] = {}
    counters = sorted(oid for oid, o in objs.items() if o["objectType"] == "CounterTop")
    for oid, o in sorted(objs.items()):
        t = o["objectType"]
        if t in PLACE_WORDS and count[t] == 1:
            out[oid] = PLACE_WORDS[t]
    if len(counters) > 1:
        held = {c: Counter(objs[x]["objectType"] for x in objs[c].get("receptacleObjectIds") or []) for c in counters}
        for c in counters:
            marks = sorted(m for m in held[c] if m in MARKER_WORDS and held[c][m] == 1
                           and sum(1 for d in counters if held[d].get(m)) == 1)
            if marks:
                out[c] = f"on the counter where the {MARKER_WORDS[marks[0]]} is"
    return out


def targets(state: dict[str, Any]) -> list[Target]:
    """The places whose food is all of one type, sorted by place id."""
    objs = _objects(state)
    out = []
    for rid, where in sorted(places(state).items()):
        inside = contents(objs, rid)
        foods = sorted({objs[x]["objectType"] for x in inside} & set(FOODS))
        if len(foods) == 1:
            ids = tuple(sorted(x for x in inside if objs[x]["objectType"] == foods[0]))
            out.append(Target(rid, where, foods[0], ids))
    return out


def where_is(state: dict[str, Any], oid: str) -> list[str]:
    """The receptacles holding ``oid``, innermost first ([] when it is held or loose)."""
    objs = _objects(state)
    if oid not in objs:
        return []
    return list(objs[oid].get("parentReceptacles") or [])


#: receptacle types that are one place to the user: "the sink" is the basin or the sink around it (a kitchen has
#: both, and either takes food)
SAME_PLACE = (frozenset({"SinkBasin", "Sink"}),)


def place_ids(state: dict[str, Any], rid: str) -> set[str]:
    """The receptacles that are the place ``rid`` is to the user: ``rid``, and the kitchen's only receptacle of a
    type that is the same place (:data:`SAME_PLACE`: the sink for the sink basin)."""
    objs = _objects(state)
    if rid not in objs:
        return {rid}
    kind = objs[rid]["objectType"]
    count = Counter(o["objectType"] for o in objs.values())
    alias = {t for group in SAME_PLACE if kind in group for t in group if t != kind and count[t] == 1}
    return {rid} | {oid for oid, o in objs.items() if o["objectType"] in alias}
