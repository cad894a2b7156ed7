"""Dynamics, errors without state change, slicing ids and determinism of KitchenSim."""

from __future__ import annotations

import json

import numpy as np
import pytest

from embodiedweb.worlds.kitchen import KitchenSim, list_kitchens, load_kitchen
from embodiedweb.worlds.kitchen.generator import generate_kitchen


def tiny_scene() -> dict:
    reach = [[x / 4, z / 4] for x in range(-4, 5) for z in range(-4, 1)]
    objs = [
        {"objectId": "CounterTop|+0.00|+0.90|+1.00", "objectType": "CounterTop", "position": [0, 0.9, 1.0],
         "size": [1.5, 0.05, 0.3]},
        {"objectId": "Fridge|+1.50|+0.90|+1.00", "objectType": "Fridge", "position": [1.5, 0.9, 1.0]},
        {"objectId": "Microwave|-1.00|+1.12|+1.00", "objectType": "Microwave", "position": [-1.0, 1.12, 1.0],
         "parent": "CounterTop|+0.00|+0.90|+1.00"},
        {"objectId": "StoveBurner|+0.50|+0.97|+1.00", "objectType": "StoveBurner", "position": [0.5, 0.97, 1.0]},
        {"objectId": "StoveKnob|+0.50|+0.82|+0.72", "objectType": "StoveKnob", "position": [0.5, 0.82, 0.72],
         "controls": "StoveBurner|+0.50|+0.97|+1.00"},
        {"objectId": "Pan|+0.50|+1.02|+1.00", "objectType": "Pan", "position": [0.5, 1.02, 1.0],
         "parent": "StoveBurner|+0.50|+0.97|+1.00"},
        {"objectId": "SinkBasin|-0.40|+0.88|+1.00", "objectType": "SinkBasin", "position": [-0.4, 0.88, 1.0]},
        {"objectId": "Faucet|-0.40|+1.10|+1.25", "objectType": "Faucet", "position": [-0.4, 1.1, 1.25]},
        {"objectId": "Toaster|-0.10|+1.05|+1.10", "objectType": "Toaster", "position": [-0.1, 1.05, 1.1]},
        {"objectId": "Apple|+0.00|+1.00|+0.90", "objectType": "Apple", "position": [0.0, 1.0, 0.9],
         "parent": "CounterTop|+0.00|+0.90|+1.00"},
        {"objectId": "Egg|+0.20|+0.99|+0.90", "objectType": "Egg", "position": [0.2, 0.99, 0.9],
         "parent": "CounterTop|+0.00|+0.90|+1.00"},
        {"objectId": "Bread|-0.20|+1.02|+0.90", "objectType": "Bread", "position": [-0.2, 1.02, 0.9],
         "parent": "CounterTop|+0.00|+0.90|+1.00"},
        {"objectId": "Knife|+0.35|+0.96|+0.85", "objectType": "Knife", "position": [0.35, 0.96, 0.85],
         "parent": "CounterTop|+0.00|+0.90|+1.00"},
        {"objectId": "Plate|-0.60|+0.96|+0.85", "objectType": "Plate", "position": [-0.6, 0.96, 0.85],
         "parent": "CounterTop|+0.00|+0.90|+1.00", "state": {"isDirty": True}},
        {"objectId": "Potato|+5.00|+1.00|+5.00", "objectType": "Potato", "position": [5.0, 1.0, 5.0]},
    ]
    return {"sceneName": "tiny", "reachable": reach, "objects": objs,
            "agent": {"x": 0.0, "y": 0.9, "z": 0.0, "rotation": 0, "horizon": 30}}


@pytest.fixture
def sim() -> KitchenSim:
    return KitchenSim(tiny_scene())


def obj(event_or_sim, oid):
    meta = event_or_sim.metadata if hasattr(event_or_sim, "metadata") else event_or_sim.last_event.metadata
    return next(o for o in meta["objects"] if o["objectId"] == oid)


def snapshot(sim: KitchenSim) -> str:
    return json.dumps(sim.step("Pass").metadata["objects"], sort_keys=True)


def test_metadata_keys(sim):
    m = sim.step("Pass").metadata
    for key in ("lastActionSuccess", "errorMessage", "lastAction", "agent", "objects", "inventoryObjects",
                "sceneName"):
        assert key in m
    assert set(m["agent"]) >= {"position", "rotation", "cameraHorizon"}
    apple = obj(sim.step("Pass"), "Apple|+0.00|+1.00|+0.90")
    for key in ("objectId", "objectType", "name", "pickupable", "receptacle", "receptacleObjectIds",
                "parentReceptacles", "openable", "isOpen", "toggleable", "isToggled", "sliceable", "isSliced",
                "cookable", "isCooked", "breakable", "isBroken", "dirtyable", "isDirty", "canFillWithLiquid",
                "temperature", "visible", "distance", "position", "rotation", "isPickedUp"):
        assert key in apple
    assert apple["visible"] and apple["parentReceptacles"] == ["CounterTop|+0.00|+0.90|+1.00"]


@pytest.mark.parametrize("action,kwargs,needle", [
    ("PickupObject", {"objectId": "Nope|+1.00|+1.00|+1.00"}, "Object ID appears to be invalid"),
    ("PickupObject", {"objectId": "Potato|+5.00|+1.00|+5.00"}, "away"),
    ("PickupObject", {"objectId": "Fridge|+1.50|+0.90|+1.00"}, "not pickupable"),
    ("SliceObject", {"objectId": "Apple|+0.00|+1.00|+0.90"}, "Knife"),
    ("PutObject", {"objectId": "x", "receptacleObjectId": "Fridge|+1.50|+0.90|+1.00"}, "Nothing"),
    ("OpenObject", {"objectId": "Apple|+0.00|+1.00|+0.90"}, "not openable"),
    ("Fly", {}, "Invalid action"),
])
def test_bad_input_fails_without_state_change(sim, action, kwargs, needle):
    before = snapshot(sim)
    ev = sim.step(action, **kwargs)
    assert not ev.metadata["lastActionSuccess"]
    assert needle in ev.metadata["errorMessage"]
    assert snapshot(sim) == before


def test_put_into_closed_incompatible_and_full(sim):
    assert sim.step("PickupObject", objectId="Apple|+0.00|+1.00|+0.90").lastActionSuccess
    before = snapshot(sim)
    ev = sim.step("PutObject", objectId="Apple|+0.00|+1.00|+0.90", receptacleObjectId="Fridge|+1.50|+0.90|+1.00",
                  forceAction=True)
    assert not ev.lastActionSuccess and "closed" in ev.errorMessage
    ev = sim.step("PutObject", objectId="Apple|+0.00|+1.00|+0.90",
                  receptacleObjectId="StoveBurner|+0.50|+0.97|+1.00", forceAction=True)
    assert not ev.lastActionSuccess and "cannot be placed" in ev.errorMessage
    assert snapshot(sim) == before
    sim.step("PutObject", objectId="Apple|+0.00|+1.00|+0.90", receptacleObjectId="CounterTop|+0.00|+0.90|+1.00",
             forceAction=True)
    # a CoffeeMachine-like capacity: the Toaster holds two bread slices only
    sim.step("PickupObject", objectId="Knife|+0.35|+0.96|+0.85")
    assert sim.step("SliceObject", objectId="Bread|-0.20|+1.02|+0.90").lastActionSuccess
    sim.step("PutObject", receptacleObjectId="CounterTop|+0.00|+0.90|+1.00", objectId="Knife|+0.35|+0.96|+0.85",
             forceAction=True)
    for i in range(2):
        sid = f"Bread|-0.20|+1.02|+0.90|BreadSliced_{i}"
        assert sim.step("PickupObject", objectId=sid, forceAction=True).lastActionSuccess
        assert sim.step("PutObject", objectId=sid, receptacleObjectId="Toaster|-0.10|+1.05|+1.10").lastActionSuccess
    sim.step("PickupObject", objectId="Bread|-0.20|+1.02|+0.90|BreadSliced_2", forceAction=True)
    ev = sim.step("PutObject", objectId="Bread|-0.20|+1.02|+0.90|BreadSliced_2",
                  receptacleObjectId="Toaster|-0.10|+1.05|+1.10")
    assert not ev.lastActionSuccess and "No valid positions" in ev.errorMessage
    # toaster toasts what it holds
    assert sim.step("ToggleObjectOn", objectId="Toaster|-0.10|+1.05|+1.10").lastActionSuccess
    t = obj(sim.step("Pass"), "Bread|-0.20|+1.02|+0.90|BreadSliced_0")
    assert t["isCooked"] and t["temperature"] == "Hot"


def test_slicing_ids_and_counts(sim):
    sim.step("PickupObject", objectId="Knife|+0.35|+0.96|+0.85")
    ev = sim.step("SliceObject", objectId="Apple|+0.00|+1.00|+0.90")
    assert ev.lastActionSuccess
    ids = [o["objectId"] for o in ev.metadata["objects"] if o["objectType"] == "AppleSliced"]
    assert ids == [f"Apple|+0.00|+1.00|+0.90|AppleSliced_{i}" for i in range(3)]
    assert all(o != "Apple|+0.00|+1.00|+0.90" for o in (x["objectId"] for x in ev.metadata["objects"]))
    s0 = obj(ev, ids[0])
    assert s0["parentReceptacles"] == ["CounterTop|+0.00|+0.90|+1.00"] and s0["isSliced"]
    ev = sim.step("SliceObject", objectId="Egg|+0.20|+0.99|+0.90")
    assert [o["objectId"] for o in ev.metadata["objects"] if o["objectType"] == "EggCracked"] == \
        ["Egg|+0.20|+0.99|+0.90|EggCracked_0"]
    ev = sim.step("SliceObject", objectId="Bread|-0.20|+1.02|+0.90")
    assert len([o for o in ev.metadata["objects"] if o["objectType"] == "BreadSliced"]) == 10


def test_microwave_heats_only_when_on_and_closed(sim):
    mw = "Microwave|-1.00|+1.12|+1.00"
    a = "Apple|+0.00|+1.00|+0.90"
    sim.step("OpenObject", objectId=mw, forceAction=True)
    sim.step("PickupObject", objectId=a)
    assert sim.step("PutObject", objectId=a, receptacleObjectId=mw, forceAction=True).lastActionSuccess
    assert not sim.step("ToggleObjectOn", objectId=mw, forceAction=True).lastActionSuccess  # open: refused
    assert obj(sim.step("Pass"), a)["temperature"] == "RoomTemp"  # open microwave does not heat
    sim.step("CloseObject", objectId=mw, forceAction=True)
    assert obj(sim.step("Pass"), a)["temperature"] == "RoomTemp"  # closed but off
    sim.step("ToggleObjectOn", objectId=mw, forceAction=True)
    ev = sim.step("Pass")
    assert obj(ev, a)["temperature"] == "Hot"
    assert not obj(ev, a)["visible"]  # inside a closed microwave
    assert a in obj(ev, mw)["receptacleObjectIds"]


def test_stove_cooks_pan_contents_and_fridge_cools(sim):
    pan, egg = "Pan|+0.50|+1.02|+1.00", "Egg|+0.20|+0.99|+0.90"
    sim.step("PickupObject", objectId=egg)
    assert sim.step("PutObject", objectId=egg, receptacleObjectId=pan).lastActionSuccess
    assert not obj(sim.step("Pass"), egg)["isCooked"]
    assert sim.step("ToggleObjectOn", objectId="StoveKnob|+0.50|+0.82|+0.72").lastActionSuccess
    ev = sim.step("Pass")
    assert obj(ev, egg)["isCooked"] and obj(ev, egg)["temperature"] == "Hot"
    assert obj(ev, "StoveBurner|+0.50|+0.97|+1.00")["isToggled"]
    # receptacles carry their contents
    sim.step("PickupObject", objectId=pan)
    ev = sim.step("Pass")
    assert obj(ev, egg)["parentReceptacles"] == [pan]
    fridge = "Fridge|+1.50|+0.90|+1.00"
    sim.step("OpenObject", objectId=fridge, forceAction=True)
    assert sim.step("PutObject", objectId=pan, receptacleObjectId=fridge, forceAction=True).lastActionSuccess
    assert obj(sim.step("Pass"), egg)["temperature"] == "Hot"
    sim.step("CloseObject", objectId=fridge, forceAction=True)
    ev = sim.step("Pass")
    assert obj(ev, egg)["temperature"] == "Cold" and obj(ev, pan)["temperature"] == "Cold"
    assert obj(ev, egg)["parentReceptacles"] == [pan, fridge]


def test_sink_faucet_cleans(sim):
    plate, basin = "Plate|-0.60|+0.96|+0.85", "SinkBasin|-0.40|+0.88|+1.00"
    sim.step("PickupObject", objectId=plate, forceAction=True)
    sim.step("PutObject", objectId=plate, receptacleObjectId=basin, forceAction=True)
    assert obj(sim.step("Pass"), plate)["isDirty"]
    assert sim.step("ToggleObjectOn", objectId="Faucet|-0.40|+1.10|+1.25", forceAction=True).lastActionSuccess
    assert not obj(sim.step("Pass"), plate)["isDirty"]


def test_consistency_of_containment_links():
    sim = load_kitchen("kitchen_05")
    m = sim.step("Pass").metadata
    by_id = {o["objectId"]: o for o in m["objects"]}
    for o in m["objects"]:
        for p in o["parentReceptacles"] or []:
            assert o["objectId"] in by_id[p]["receptacleObjectIds"]
        for c in o["receptacleObjectIds"] or []:
            assert o["objectId"] in by_id[c]["parentReceptacles"]


def test_navigation_grid_and_horizon(sim):
    ev = sim.step("MoveBack")
    assert ev.lastActionSuccess and ev.metadata["agent"]["position"]["z"] == pytest.approx(-0.25)
    assert sim.step("MoveAhead").lastActionSuccess
    ev = sim.step("MoveAhead")  # z = 0.25 is not a reachable position
    assert not ev.lastActionSuccess and ev.metadata["agent"]["position"]["z"] == pytest.approx(0.0)
    sim.step("RotateRight")
    assert sim.step("Pass").metadata["agent"]["rotation"]["y"] == 90
    sim.step("LookDown")
    assert not sim.step("LookDown").lastActionSuccess  # 30 + 30 = 60 is the limit
    assert sim.step("Pass").metadata["agent"]["cameraHorizon"] == 60


def test_teleport_to_object_makes_it_interactable():
    sim = load_kitchen("kitchen_07")
    fridge = next(o for o in sim.active_objects() if o.object_type == "Fridge")
    assert sim.step("Teleport", objectId=fridge.object_id).lastActionSuccess
    o = obj(sim.step("Pass"), fridge.object_id)
    assert o["visible"]
    assert sim.step("OpenObject", objectId=fridge.object_id).lastActionSuccess


def test_kitchens_generated_and_varied():
    ids = list_kitchens()
    assert len(ids) >= 30
    foods = {"Apple", "Bread", "Egg", "Lettuce", "Potato", "Tomato"}
    sets, layouts = [], set()
    for kid in ids:
        sim = load_kitchen(kid)
        types = {o.object_type for o in sim.active_objects()}
        assert {"Fridge", "Microwave", "StoveBurner", "StoveKnob", "SinkBasin", "Faucet", "CounterTop",
                "Cabinet"} <= types
        sets.append(frozenset(types & foods))
        layouts.add((len(sim.reachable), len(sim.active_objects())))
    assert any(s != foods for s in sets) and len(set(sets)) >= 8
    assert len(layouts) >= 20


def test_every_generated_object_is_reachable():
    for kid in list_kitchens()[:10]:
        sim = load_kitchen(kid)
        for o in sim.active_objects():
            assert sim.interaction_pose(o) is not None, (kid, o.object_id)


def test_generator_deterministic_and_files_match():
    assert generate_kitchen(4) == generate_kitchen(4)
    assert generate_kitchen(4) != generate_kitchen(5)
    from embodiedweb.worlds.kitchen.kitchens import KITCHEN_DIR, kitchen_scene

    if (KITCHEN_DIR / "kitchen_04.json").is_file():
        assert kitchen_scene("kitchen_04") == json.loads(json.dumps(generate_kitchen(4)))


def test_determinism_same_actions_same_metadata():
    def run():
        sim = load_kitchen("kitchen_02")
        knife = sim.resolve("Knife", for_teleport=True)
        sim.step("Teleport", objectId=knife)
        sim.step("PickupObject", objectId=knife)
        m = sim.step("MoveBack").metadata
        return json.dumps(m, sort_keys=True), sim.render((120, 120))

    (a, ia), (b, ib) = run(), run()
    assert a == b
    assert np.array_equal(ia, ib)


def test_spawn_on_counter(sim):
    oid = sim.spawn_on_counter("Tomato")
    o = obj(sim.step("Pass"), oid)
    assert o["objectType"] == "Tomato" and o["parentReceptacles"] == ["CounterTop|+0.00|+0.90|+1.00"]
    assert oid.startswith("Tomato|")
    assert sim.spawn_on_counter("Tomato") != oid


def test_render_and_text(sim):
    img = sim.render((300, 300))
    assert img.shape == (300, 300, 3) and img.dtype == np.uint8 and img.std() > 5
    assert np.array_equal(img, sim.render((300, 300)))
    text = sim.scene_text()
    assert "Apple|+0.00|+1.00|+0.90" in text and "Potato|+5.00" not in text.split("Fixtures")[0]


def test_slicing_needs_a_knife_in_hand_not_any_held_object(sim):
    """Mutation guard: holding an apple (or anything but a Knife/ButterKnife) does not let the agent slice."""
    assert sim.step("PickupObject", objectId="Apple|+0.00|+1.00|+0.90").lastActionSuccess
    before = snapshot(sim)
    ev = sim.step("SliceObject", objectId="Bread|-0.20|+1.02|+0.90")
    assert not ev.lastActionSuccess and "Knife" in ev.errorMessage
    assert snapshot(sim) == before


def test_rebuild_from_scene_while_holding_an_object():
    """``KitchenSim(sim.to_scene())`` with an object in hand: the held object (and the visibility caches its
    placement touches) survive the round trip."""
    sim = load_kitchen("kitchen_03")
    item = next(o for o in sim.active_objects() if o.flags["pickupable"] and not sim.is_hidden(o))
    assert sim.step("PickupObject", objectId=item.object_id, forceAction=True).lastActionSuccess
    sim.step("RotateRight")
    again = KitchenSim(sim.to_scene())
    assert again.held == item.object_id
    assert np.allclose(again.objects[item.object_id].center, sim.objects[item.object_id].center)
    meta = {m["objectId"]: m for m in again.step("Pass").metadata["objects"]}
    assert meta[item.object_id]["isPickedUp"] and meta[item.object_id]["visible"]


def test_a_copy_of_the_simulator_acts_on_itself_not_on_the_original() -> None:
    import copy

    sim = load_kitchen("kitchen_00")
    fridge = next(o for o in sim.active_objects() if o.object_type == "Fridge")
    rot, opened = sim.rot, bool(fridge.state["isOpen"])
    twin = copy.deepcopy(sim)
    for action, kw in (("RotateLeft", {}), ("LookDown", {}), ("CloseObject" if opened else "OpenObject",
                                                               {"objectId": fridge.object_id, "forceAction": True})):
        assert twin.step(action, **kw).metadata["lastActionSuccess"], action
    assert (sim.rot, bool(fridge.state["isOpen"])) == (rot, opened)  # the original did not move
    assert twin.rot != rot and bool(twin.objects[fridge.object_id].state["isOpen"]) != opened


def test_scene_text_says_how_many_visible_objects_it_leaves_out(sim):
    """The list of visible objects is capped; what the cap leaves out is counted, never dropped silently (an agent
    must not read the list's end as all it can reach)."""
    text = sim.scene_text(max_objects=1)
    section = text.split("Visible objects", 1)[1].split("Fixtures nearby", 1)[0]
    listed = [ln for ln in section.splitlines() if ln.startswith("- ") and not ln.startswith("- ...")]
    full = sim.scene_text(max_objects=1000).split("Visible objects", 1)[1].split("Fixtures nearby", 1)[0]
    visible = [ln for ln in full.splitlines() if ln.startswith("- ")]
    assert len(listed) == 1 and len(visible) > 1
    assert f"- ... and {len(visible) - 1} more visible, farther away" in section
    assert "more visible" not in full
