"""The kitchen cooks only with heat, as AI2-THOR's physics does: a burner that is on heats what is in the
pan or pot on it, a closed microwave that is on heats what is inside, a toaster that is on toasts the bread
slice in it, a coffee machine that is on fills the mug; whichever comes last (the heat or the food)."""

from __future__ import annotations

import pytest

from embodiedweb.worlds.kitchen import KitchenSim, vocab
from tests.worlds.kitchen.test_sim import obj, snapshot, tiny_scene

PAN, KNOB, BURNER = "Pan|+0.50|+1.02|+1.00", "StoveKnob|+0.50|+0.82|+0.72", "StoveBurner|+0.50|+0.97|+1.00"
MW, TOASTER, EGG, APPLE = "Microwave|-1.00|+1.12|+1.00", "Toaster|-0.10|+1.05|+1.10", "Egg|+0.20|+0.99|+0.90", \
    "Apple|+0.00|+1.00|+0.90"
COUNTER = "CounterTop|+0.00|+0.90|+1.00"


@pytest.fixture
def sim() -> KitchenSim:
    s = KitchenSim(tiny_scene())
    s.clock = 0
    return s


def put(sim: KitchenSim, oid: str, rid: str) -> None:
    assert sim.step("PickupObject", objectId=oid, forceAction=True).lastActionSuccess
    ev = sim.step("PutObject", objectId=oid, receptacleObjectId=rid, forceAction=True)
    assert ev.lastActionSuccess, ev.errorMessage


def slices(sim: KitchenSim, source: str) -> list[str]:
    assert sim.step("PickupObject", objectId="Knife|+0.35|+0.96|+0.85", forceAction=True).lastActionSuccess
    assert sim.step("SliceObject", objectId=source, forceAction=True).lastActionSuccess
    sim.step("PutObject", objectId="Knife|+0.35|+0.96|+0.85", receptacleObjectId=COUNTER, forceAction=True)
    return [o.object_id for o in sim.active_objects() if o.object_id.startswith(source + "|")]


def test_cook_object_is_refused_and_changes_nothing(sim):
    put(sim, EGG, PAN)
    before = snapshot(sim)
    ev = sim.step("CookObject", objectId=EGG, forceAction=True)
    assert not ev.lastActionSuccess and "only with heat" in ev.errorMessage and "StoveBurner" in ev.errorMessage
    assert snapshot(sim) == before and not obj(sim.step("Pass"), EGG)["isCooked"]


def test_burner_heat_first_or_food_first(sim):
    put(sim, EGG, PAN)  # food first, then the heat (by the knob)
    assert not obj(sim.step("Pass"), EGG)["isCooked"]
    sim.step("ToggleObjectOn", objectId=KNOB, forceAction=True)
    assert obj(sim.step("Pass"), EGG)["isCooked"]
    apple_slice = slices(sim, APPLE)[0]
    put(sim, apple_slice, PAN)  # heat already on, food last
    o = next(x for x in sim.active_objects() if x.object_id == apple_slice)
    assert o.state["isCooked"] and "heated:StoveBurner" in o.history
    # the vessel it stood in is recorded (a recipe's frying pan is not its saucepan: cooking checker version 8)
    assert "heated:StoveBurner:Pan" in o.history and "heated:StoveBurner:Pot" not in o.history


def test_burner_off_pan_cooks_nothing_and_burner_takes_only_cookware(sim):
    s = slices(sim, APPLE)[0]
    put(sim, s, PAN)
    sim.step("ToggleObjectOn", objectId=KNOB, forceAction=True)
    sim.step("ToggleObjectOff", objectId=KNOB, forceAction=True)
    assert obj(sim.step("Pass"), s)["isCooked"]
    s2 = slices(sim, "Bread|-0.20|+1.02|+0.90")[0]
    sim.step("PickupObject", objectId=s2, forceAction=True)
    ev = sim.step("PutObject", objectId=s2, receptacleObjectId=BURNER, forceAction=True)
    assert not ev.lastActionSuccess and "cannot be placed" in ev.errorMessage
    sim.step("PutObject", objectId=s2, receptacleObjectId=PAN, forceAction=True)  # burner now off
    assert not obj(sim.step("Pass"), s2)["isCooked"]


def test_microwave_needs_on_and_closed(sim):
    s, s2 = slices(sim, APPLE)[:2]
    sim.step("OpenObject", objectId=MW, forceAction=True)
    put(sim, s, MW)
    sim.step("CloseObject", objectId=MW, forceAction=True)
    assert not obj(sim.step("Pass"), s)["isCooked"]  # closed but off
    sim.step("OpenObject", objectId=MW, forceAction=True)
    # an open microwave is not switched on (AI2-THOR's MustBeClosedToTurnOn; until stop 39 it was, silently)
    ev = sim.step("ToggleObjectOn", objectId=MW, forceAction=True)
    assert not ev.lastActionSuccess and "is open: close it before switching it on" in ev.errorMessage
    assert not obj(ev, MW)["isToggled"] and not obj(ev, s)["isCooked"]
    sim.step("CloseObject", objectId=MW, forceAction=True)
    assert sim.step("ToggleObjectOn", objectId=MW, forceAction=True).lastActionSuccess  # closed and on heats
    o = obj(sim.step("Pass"), s)
    assert o["isCooked"] and o["temperature"] == "Hot"
    # opened while running it heats nothing put in; closing the running microwave heats it
    sim.step("OpenObject", objectId=MW, forceAction=True)
    put(sim, s2, MW)
    assert not obj(sim.step("Pass"), s2)["isCooked"]  # on but open
    sim.step("CloseObject", objectId=MW, forceAction=True)
    assert obj(sim.step("Pass"), s2)["isCooked"]


def test_cold_toaster_toasts_nothing(sim):
    b = slices(sim, "Bread|-0.20|+1.02|+0.90")[0]
    put(sim, b, TOASTER)
    assert not obj(sim.step("Pass"), b)["isCooked"]
    sim.step("ToggleObjectOn", objectId=TOASTER, forceAction=True)
    assert obj(sim.step("Pass"), b)["isCooked"]


def test_stamps_record_when_work_happened(sim):
    sim.clock = 5
    s = slices(sim, APPLE)[0]
    sim.clock = 9
    put(sim, s, PAN)
    sim.clock = 12
    sim.step("ToggleObjectOn", objectId=KNOB, forceAction=True)
    sim.clock = 20
    sim.step("ToggleObjectOff", objectId=KNOB, forceAction=True)
    sim.step("ToggleObjectOn", objectId=KNOB, forceAction=True)  # heated again: the first time stays
    o = next(x for x in sim.active_objects() if x.object_id == s)
    assert o.stamps["sliced"] == 5 and o.stamps["heated:StoveBurner"] == 12


def test_placed_records_when_an_object_last_came_to_rest(sim):
    """``placed`` is the clock time an object was last put into its receptacle (checkers time putting food on
    a dish by it): not changed when its receptacle is carried elsewhere, renewed when it is put down again, a
    slice's is when it was cut; ``None`` from the set-up; kept by a kitchen-file round trip."""
    from embodiedweb.worlds.kitchen.objects import SimObject

    assert sim.objects[APPLE].placed is None and KitchenSim(tiny_scene()).objects[APPLE].placed is None
    sim.clock = 9
    put(sim, APPLE, PAN)
    assert sim.objects[APPLE].placed == 9
    sim.clock = 15
    put(sim, PAN, COUNTER)
    assert sim.objects[PAN].placed == 15 and sim.objects[APPLE].placed == 9
    sim.clock = 20
    put(sim, APPLE, PAN)
    assert sim.objects[APPLE].placed == 20
    assert SimObject.build(sim.objects[APPLE].to_spec()).placed == 20
    sim.clock = 25
    assert {sim.objects[s].placed for s in slices(sim, EGG)} == {25}


def test_toggling_what_has_no_power_is_a_clear_error(sim):
    before = snapshot(sim)
    ev = sim.step("ToggleObjectOn", objectId=PAN, forceAction=True)
    assert not ev.lastActionSuccess and "not toggleable" in ev.errorMessage
    assert snapshot(sim) == before


def test_scene_text_shows_heat_and_doneness():
    from embodiedweb.worlds.kitchen.world import KitchenWorld

    w = KitchenWorld()
    w.reset({"kitchen_id": "kitchen_00"}, 0)
    egg = w.sim.spawn_on_counter("Egg")
    assert w.execute("Teleport", {"obj": egg}) == ""
    line = next(x for x in w.text().splitlines() if x.startswith(f"- {egg} "))
    assert "raw" in line
    w.execute("Teleport", {"obj": "StoveBurner"})
    line = next(x for x in w.text().splitlines() if "(StoveBurner)" in x)
    assert line.endswith("off") or "; off" in line


# ------------------------------------------------------------------ targeted rule tests (mutation guards, issue 24)
KNIFE, BREAD = "Knife|+0.35|+0.96|+0.85", "Bread|-0.20|+1.02|+0.90"
COFFEE, MUG = "CoffeeMachine|+0.90|+1.00|+1.10", "Mug|+0.90|+1.05|+1.10"
TOMATO = "Tomato|-0.10|+1.08|+1.10"


def scene_with(*extra: dict, state: dict[str, dict] | None = None) -> KitchenSim:
    """The tiny kitchen plus ``extra`` objects, with ``state`` overrides by objectId."""
    sc = tiny_scene()
    sc["objects"] += list(extra)
    for o in sc["objects"]:
        o.setdefault("state", {}).update((state or {}).get(o["objectId"], {}))
    s = KitchenSim(sc)
    s.clock = 0
    return s


def live(sim: KitchenSim, oid: str):
    return sim.objects[oid]


def test_toaster_toasts_only_bread_slices_and_names_itself():
    sim = scene_with({"objectId": TOMATO, "objectType": "Tomato", "position": [-0.1, 1.08, 1.1], "parent": TOASTER})
    b = slices(sim, BREAD)[0]
    put(sim, b, TOASTER)
    assert sim.step("ToggleObjectOn", objectId=TOASTER, forceAction=True).lastActionSuccess
    toast, tomato = live(sim, b), live(sim, TOMATO)
    assert toast.state["isCooked"] and toast.state["temperature"] == "Hot"
    assert "heated:Toaster" in toast.history and "heated" in toast.history
    assert not tomato.state["isCooked"] and tomato.state["temperature"] == "RoomTemp"
    assert not any(h.startswith("heated") for h in tomato.history)


def test_coffee_machine_fills_the_mug_with_hot_coffee():
    sim = scene_with({"objectId": COFFEE, "objectType": "CoffeeMachine", "position": [0.9, 1.0, 1.1]},
                     {"objectId": MUG, "objectType": "Mug", "position": [0.9, 1.05, 1.1], "parent": COFFEE})
    assert not live(sim, MUG).state["isFilledWithLiquid"]
    assert sim.step("ToggleObjectOn", objectId=COFFEE, forceAction=True).lastActionSuccess
    mug = live(sim, MUG)
    assert mug.state["isFilledWithLiquid"] and mug.state["temperature"] == "Hot"
    assert {"heated:CoffeeMachine", "heated"} <= mug.history and not mug.state["isCooked"]


def test_burner_heat_marks_the_pan_contents_hot_but_cooks_only_cookable_food():
    sim = scene_with({"objectId": MUG, "objectType": "Mug", "position": [0.5, 1.05, 1.0], "parent": PAN})
    put(sim, EGG, PAN)
    sim.step("ToggleObjectOn", objectId=KNOB, forceAction=True)
    egg, mug = live(sim, EGG), live(sim, MUG)
    assert egg.state["isCooked"] and egg.state["temperature"] == "Hot" and {"heated:StoveBurner", "heated"} <= egg.history
    assert mug.state["temperature"] == "Hot" and not mug.state["isCooked"] and not mug.state["isFilledWithLiquid"]


def test_switching_the_burner_switches_its_knob_and_back():
    sim = scene_with()
    put(sim, EGG, PAN)
    assert sim.step("ToggleObjectOn", objectId=BURNER, forceAction=True).lastActionSuccess
    assert live(sim, KNOB).state["isToggled"] and live(sim, BURNER).state["isToggled"]
    assert live(sim, EGG).state["isCooked"]
    ev = sim.step("ToggleObjectOn", objectId=KNOB, forceAction=True)
    assert not ev.lastActionSuccess and ev.errorMessage == f"{KNOB} is already toggled on"
    assert sim.step("ToggleObjectOff", objectId=KNOB, forceAction=True).lastActionSuccess
    assert not live(sim, KNOB).state["isToggled"] and not live(sim, BURNER).state["isToggled"]
    ev = sim.step("ToggleObjectOff", objectId=BURNER, forceAction=True)
    assert not ev.lastActionSuccess and ev.errorMessage == f"{BURNER} is already toggled off"


def test_a_broken_appliance_does_not_switch_on():
    sim = scene_with(state={MW: {"isBroken": True}})
    before = snapshot(sim)
    ev = sim.step("ToggleObjectOn", objectId=MW, forceAction=True)
    assert not ev.lastActionSuccess and ev.errorMessage == f"{MW} is broken"
    assert snapshot(sim) == before


def test_slices_lie_side_by_side_where_the_whole_was():
    sim = scene_with(state={})
    sim.objects[APPLE].yaw = 90.0
    sim.objects[APPLE].center = [0.0, 1.05, 0.9]
    ids = slices(sim, APPLE)
    assert len(ids) == 3
    for i, oid in enumerate(ids):
        s = live(sim, oid)
        off = (i - 1) * 0.02  # centred on the apple, 2 cm apart along its (rotated) x axis
        assert s.position == pytest.approx([0.0, 1.0, 0.9 - off], abs=1e-9)
        assert s.center == pytest.approx([s.position[0], 1.05, s.position[2]], abs=1e-9)
        assert s.half == vocab.half_size("AppleSliced")
        assert s.yaw == 90.0 and s.parent == COUNTER
    sim2 = scene_with()
    sim2.objects[BREAD].position = [-0.2, 1.02, 0.9]
    xs = [live(sim2, oid).position[0] for oid in slices(sim2, BREAD)]
    assert xs == pytest.approx([-0.2 + (i - 4.5) * 0.02 for i in range(10)], abs=1e-9)


def test_slices_inherit_state_history_and_stamps():
    sim = scene_with(state={APPLE: {"temperature": "Cold", "isDirty": True, "isCooked": True}})
    sim.objects[APPLE].history.add("cooled")
    sim.objects[APPLE].stamps["cooled"] = 2
    sim.clock = 4
    ids = slices(sim, APPLE)
    whole = live(sim, APPLE)
    assert not whole.active and whole.state["isSliced"] and whole.parent is None
    for oid in ids:
        s = live(sim, oid)
        assert s.object_type == "AppleSliced" and s.state["isSliced"] and s.state["temperature"] == "Cold"
        assert s.state["isDirty"] and s.state["isCooked"]
        assert s.history == {"cooled", "sliced"} and s.stamps == {"cooled": 2, "sliced": 4}
    assert [c for c in live(sim, COUNTER).contents if c.startswith(APPLE)] == ids  # where the whole lay
    egg = slices(sim, EGG)
    assert egg == [f"{EGG}|EggCracked_0"] and not live(sim, egg[0]).state["isSliced"]
    ev = sim.step("SliceObject", objectId=APPLE, forceAction=True)
    assert not ev.lastActionSuccess


def test_slicing_errors_name_the_problem():
    sim = scene_with()
    ev = sim.step("SliceObject", objectId=APPLE, forceAction=True)
    assert ev.errorMessage == "SliceObject requires the agent to hold a Knife or ButterKnife"
    ev = sim.step("SliceObject", objectId=PAN, forceAction=True)
    assert ev.errorMessage == f"{PAN} is not sliceable"
    slices(sim, APPLE)
    sim.step("PickupObject", objectId=KNIFE, forceAction=True)
    sim.objects[APPLE].active = True  # an already sliced object, still addressable
    ev = sim.step("SliceObject", objectId=APPLE, forceAction=True)
    assert ev.errorMessage == f"{APPLE} is already sliced"


def test_cook_object_names_the_object_and_the_ways_to_cook():
    sim = scene_with()
    ev = sim.step("CookObject", objectId=EGG, forceAction=True)
    assert ev.errorMessage == (
        f"CookObject is not available: food cooks only with heat. To cook {EGG}, put it in a Pan or Pot on a "
        "StoveBurner and switch the burner (or its StoveKnob) on, or put it in the Microwave, close it and switch "
        "it on, or put a bread slice in the Toaster and switch it on.")
    assert not sim.step("CookObject", objectId="Nope|1").lastActionSuccess


def test_fridge_cools_on_closing_and_faucet_cleans_and_fills():
    fridge = "Fridge|+1.50|+0.90|+1.00"
    sim = scene_with({"objectId": MUG, "objectType": "Mug", "position": [-0.4, 0.9, 1.0],
                      "parent": "SinkBasin|-0.40|+0.88|+1.00", "state": {"isDirty": True}})
    sim.step("OpenObject", objectId=fridge, forceAction=True)
    put(sim, EGG, fridge)
    assert live(sim, EGG).state["temperature"] == "RoomTemp"  # open: not yet
    sim.step("CloseObject", objectId=fridge, forceAction=True)
    assert live(sim, EGG).state["temperature"] == "Cold" and "cooled" in live(sim, EGG).history
    assert sim.step("ToggleObjectOn", objectId="Faucet|-0.40|+1.10|+1.25", forceAction=True).lastActionSuccess
    mug = live(sim, MUG)
    assert mug.state["isDirty"] is False and mug.state["isFilledWithLiquid"] and "cleaned" in mug.history
    assert not live(sim, "SinkBasin|-0.40|+0.88|+1.00").state["isToggled"]  # a faucet switches only itself


def test_running_faucet_cleans_what_is_put_in_the_basin_but_fills_no_broken_cup():
    basin, plate, cup = "SinkBasin|-0.40|+0.88|+1.00", "Plate|-0.60|+0.96|+0.85", "Cup|-0.40|+0.92|+1.00"
    sim = scene_with({"objectId": cup, "objectType": "Cup", "position": [-0.4, 0.92, 1.0], "parent": basin,
                      "state": {"isBroken": True}})
    sim.step("ToggleObjectOn", objectId="Faucet|-0.40|+1.10|+1.25", forceAction=True)
    assert not live(sim, cup).state["isFilledWithLiquid"]
    put(sim, plate, basin)
    assert live(sim, plate).state["isDirty"] is False and "cleaned" in live(sim, plate).history


def test_switching_an_appliance_fires_only_its_own_rules():
    fridge = "Fridge|+1.50|+0.90|+1.00"
    b2, k2 = "StoveBurner|+0.80|+0.97|+1.00", "StoveKnob|+0.80|+0.82|+0.72"
    sim = scene_with({"objectId": "Tomato|+1.50|+0.95|+1.00", "objectType": "Tomato", "position": [1.5, 0.95, 1.0],
                      "parent": fridge},
                     {"objectId": b2, "objectType": "StoveBurner", "position": [0.8, 0.97, 1.0]},
                     {"objectId": k2, "objectType": "StoveKnob", "position": [0.8, 0.82, 0.72], "controls": b2})
    sim.step("ToggleObjectOn", objectId=TOASTER, forceAction=True)
    assert live(sim, "Tomato|+1.50|+0.95|+1.00").state["temperature"] == "RoomTemp"  # the fridge did not close
    sim.step("ToggleObjectOn", objectId=BURNER, forceAction=True)
    assert live(sim, KNOB).state["isToggled"] and not live(sim, k2).state["isToggled"]


def test_an_object_sliceable_by_its_flags_gives_one_slice_and_one_without_a_parent():
    cheese = "Cheese|+0.10|+1.00|+0.90"
    sim = scene_with({"objectId": cheese, "objectType": "Cheese", "position": [0.1, 1.0, 0.9], "parent": COUNTER,
                      "flags": {"sliceable": True}})
    ids = slices(sim, cheese)
    assert ids == [f"{cheese}|CheeseSliced_0"] and live(sim, ids[0]).half == vocab.half_size("CheeseSliced")
    potato = "Potato|+5.00|+1.00|+5.00"  # lies on no receptacle
    ids = slices(sim, potato)
    assert len(ids) == 9 and all(live(sim, i).parent is None for i in ids)
