"""KitchenWorld: the EmbodiedWorld contract on the project's kitchens."""

from __future__ import annotations

import json

import numpy as np

from embodiedweb.worlds.kitchen import KitchenWorld


def make(kid: str = "kitchen_03", **extra) -> KitchenWorld:
    w = KitchenWorld()
    w.reset({"kitchen_id": kid, **extra}, seed=0)
    return w


def test_execute_by_type_name_and_errors():
    w = make()
    assert w.execute("Teleport", {"obj": "Knife"}) == ""
    assert w.execute("PickupObject", {"obj": "Knife"}) == ""
    assert w.semantic_state()["held"].startswith("Knife|")
    bread = next(o["objectId"] for o in w.semantic_state()["objects"] if o["objectType"] == "Bread")
    assert w.execute("Teleport", {"obj": bread}) == ""
    assert w.execute("SliceObject", {"obj": "Bread"}) == ""
    ids = [o["objectId"] for o in w.semantic_state()["objects"] if o["objectType"] == "BreadSliced"]
    assert ids[0] == f"{bread}|BreadSliced_0"
    before = json.dumps(w.semantic_state(), sort_keys=True)
    assert "no object type or id of a kitchen" in w.execute("PickupObject", {"obj": "Unicorn"})
    assert "invalid" in w.execute("PickupObject", {"obj": "Unicorn|+0.00|+0.00|+0.00"})
    assert w.execute("PickupObject", {"obj": "Fridge"}) != ""
    assert w.execute("Fly", {}) != ""
    assert json.dumps(w.semantic_state(), sort_keys=True) == before


def test_reset_remove_add_and_deliveries():
    w = make("kitchen_01", remove=["Egg", "Bread"], add=[{"type": "Tomato", "on": "DiningTable"}])
    types = [o["objectType"] for o in w.semantic_state()["objects"]]
    assert "Egg" not in types and "Bread" not in types
    tom = [o for o in w.semantic_state()["objects"] if o["objectType"] == "Tomato"]
    assert any(o["parentReceptacles"] and o["parentReceptacles"][0].startswith("DiningTable") for o in tom)
    w.on_enter([{"object_type": "Egg", "quantity": 1}])
    eggs = [o for o in w.semantic_state()["objects"] if o["objectType"] == "Egg"]
    assert len(eggs) == 1 and eggs[0]["parentReceptacles"][0].startswith("CounterTop|")
    # the observation after the delivery says which counter it is on (once)
    assert w.text().startswith(f"Delivered from the shop: {eggs[0]['objectId']} on {eggs[0]['parentReceptacles'][0]}.")
    assert w.execute("Teleport", {"obj": "Egg"}) == "" and w.execute("PickupObject", {"obj": "Egg"}) == ""
    assert "Delivered" not in w.text()


def test_admissible_actions_are_valid():
    w = make("kitchen_06")
    w.execute("Teleport", {"obj": "Fridge"})
    acts = w.admissible_actions()
    assert "RotateLeft" in acts and "Teleport [Fridge]" in acts
    assert any(a.startswith("OpenObject [Fridge|") for a in acts)
    for a in [a for a in acts if "[" in a and not a.startswith("Teleport")][:6]:
        name, arg = a.split(" [", 1)
        w2 = make("kitchen_06")
        w2.execute("Teleport", {"obj": "Fridge"})
        assert w2.execute(name, {"obj": arg[:-1]}) == "", a


def test_observations_deterministic():
    a, b = make(), make()
    assert a.text() == b.text() and "Visible objects" in a.text()
    ia, ib = a.image((300, 300)), b.image((300, 300))
    assert ia.shape == (300, 300, 3) and ia.dtype == np.uint8 and np.array_equal(ia, ib)
    json.dumps(a.semantic_state())


def test_cached_semantic_state_is_always_current():
    import random

    rng = random.Random(3)
    w = make("kitchen_02")
    for step in range(400):
        if step % 150 == 149:
            w.reset({"kitchen_id": rng.choice(["kitchen_01", "kitchen_05"])}, seed=step)
        elif step % 60 == 30:
            w.on_enter([{"object_type": "Tomato"}])
        else:
            act = rng.choice(w.admissible_actions())
            name, _, arg = act.partition(" [")
            w.execute(name, {"obj": arg[:-1]} if arg else {})
        state = w.semantic_state()
        assert w.semantic_state() is state  # no step in between: the same object
        assert state == w._build_semantic_state(w.sim), f"stale after step {step}"


def test_teleport_to_a_hidden_object_names_the_closed_receptacle_once():
    """Every object a closed receptacle hides, in every kitchen: after Teleport the text names the
    receptacle, the receptacle is in view, and opening it shows the object; the note is said once."""
    from embodiedweb.worlds.kitchen.kitchens import list_kitchens

    checked = 0
    for kid in list_kitchens():
        w = make(kid)
        sim = w.sim
        hidden = [o.object_id for o in sim.active_objects() if o.parent and sim.is_hidden(o)]
        for oid in hidden[:3]:
            w.reset({"kitchen_id": kid}, seed=0)
            sim = w.sim
            assert w.execute("Teleport", {"obj": oid}) == ""
            rid = next(r for r in sim.ancestors(sim.objects[oid]) if not sim.objects[r].state.get("isOpen"))
            text = w.text()
            assert f"Note: {oid} is inside the closed {rid}" in text, text[:300]
            assert sim.is_visible(sim.objects[rid])
            assert w.execute("RotateLeft", {}) == "" and "Note:" not in w.text()
            checked += 1
        if hidden:
            w.reset({"kitchen_id": kid}, seed=0)
            visible = next(o for o in w.sim.active_objects() if not w.sim.is_hidden(o) and o.flags.get("pickupable"))
            w.execute("Teleport", {"obj": visible.object_id})
            assert "Note:" not in w.text()
    assert checked >= 30


def test_teleport_seen_names_nothing_in_a_closed_receptacle_not_opened_yet():
    """``teleport = "seen"`` (the hard cooking tier): food put away in the closed fridge is as unknown as absent
    food (not in the admissible list or the known ids, and every action naming it, by type or by id, gets the
    absent food's answer) until the fridge is opened; then it stays known after the fridge is closed. The
    default leaves everything nameable (the standard tier)."""
    import pytest

    from embodiedweb.worlds.kitchen.kitchens import list_kitchens

    kid = list_kitchens()[0]
    w = make(kid, remove=["Tomato", "Lettuce"], add=[{"type": "Tomato", "on": "Fridge"}], teleport="seen")
    tomato = next(o["objectId"] for o in w.semantic_state()["objects"] if o["objectType"] == "Tomato")
    fridge = next(o["objectId"] for o in w.semantic_state()["objects"] if o["objectType"] == "Fridge")
    assert "Teleport [Tomato]" not in w.admissible_actions() and tomato not in w.known_object_ids()
    absent = w.execute("Teleport", {"obj": "Lettuce"})
    assert "No object named 'Lettuce' is known in this kitchen" in absent
    for name, ref in (("Teleport", "Tomato"), ("Teleport", tomato), ("PickupObject", "Tomato"), ("PickupObject", tomato)):
        assert w.execute(name, {"obj": ref}) == absent.replace("Lettuce", ref), (name, ref)
    assert w.execute("Teleport", {"obj": fridge}) == "" and w.execute("OpenObject", {"obj": fridge}) == ""
    assert "Teleport [Tomato]" in w.admissible_actions() and tomato in w.known_object_ids()
    assert w.execute("CloseObject", {"obj": fridge}) == ""
    assert tomato in w.known_object_ids() and w.execute("Teleport", {"obj": "Tomato"}) == ""
    assert w.execute("Teleport", {"obj": "Lettuce"}) == absent  # still absent
    default = make(kid, remove=["Tomato"], add=[{"type": "Tomato", "on": "Fridge"}])
    assert "Teleport [Tomato]" in default.admissible_actions()
    assert len(default.known_object_ids()) == len(default.semantic_state()["objects"])
    with pytest.raises(ValueError, match="embodied.teleport"):
        make(kid, teleport="never")


def test_a_name_no_kitchen_knows_is_told_apart_from_an_absent_or_hidden_object():
    """A name that is no object type of any kitchen ("Saucepan" for a Pot, "Bread slice") gets its own answer,
    saying how objects are named, in both modes; an object type this kitchen lacks and one inside a closed
    receptacle not opened yet still get the same answer ("absent or not seen" stays one answer)."""
    from embodiedweb.worlds.kitchen.kitchens import list_kitchens, object_types

    kid = list_kitchens()[0]
    for extra in ({}, {"teleport": "seen"}):
        w = make(kid, remove=["Tomato", "Lettuce"], add=[{"type": "Tomato", "on": "Fridge"}], **extra)
        for ref in ("Saucepan", "Bread slice", "frying pan"):
            said = w.execute("Teleport", {"obj": ref})
            assert said.startswith(f"{ref!r} is no object type or id of a kitchen") and "in brackets" in said
        if extra:
            assert w.execute("Teleport", {"obj": "Tomato"}) == w.execute("Teleport", {"obj": "Lettuce"}).replace(
                "Lettuce", "Tomato")
    assert {"pot", "pan", "breadsliced", "eggcracked", "countertop", "stoveknob"} <= object_types()
    assert not {"saucepan", "unicorn"} & object_types()
