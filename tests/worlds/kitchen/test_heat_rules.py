"""The kitchen cooks only with heat, as AI2-THOR's physics does: a burner that is on heats what is in the
pan or pot on it, a closed microwave that is on heats what is inside, a toaster that is on toasts the bread
slice in it, a coffee machine that is on fills the mug; whichever comes last (the heat or the food)."""

from __future__ import annotations

import pytest

from embodiedweb.worlds.kitchen import KitchenSim
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
    s = slices(sim, APPLE)[0]
    sim.step("OpenObject", objectId=MW, forceAction=True)
    put(sim, s, MW)
    sim.step("CloseObject", objectId=MW, forceAction=True)
    assert not obj(sim.step("Pass"), s)["isCooked"]  # closed but off
    sim.step("OpenObject", objectId=MW, forceAction=True)
    sim.step("ToggleObjectOn", objectId=MW, forceAction=True)
    assert not obj(sim.step("Pass"), s)["isCooked"]  # on but open
    sim.step("CloseObject", objectId=MW, forceAction=True)  # closing a running microwave heats
    o = obj(sim.step("Pass"), s)
    assert o["isCooked"] and o["temperature"] == "Hot"


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
