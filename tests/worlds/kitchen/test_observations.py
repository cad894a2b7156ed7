"""Fair kitchen observations: nothing reads as empty while it holds something out of view (and nothing reads
as partly out of view once all it holds is in view), knobs and
burners name each other, and a type name never silently picks the wrong instance."""

from __future__ import annotations

import random
import re

import pytest

from embodiedweb.worlds.kitchen import list_kitchens
from embodiedweb.worlds.kitchen.observe import OUT_OF_VIEW
from embodiedweb.worlds.kitchen.world import KitchenWorld

LINE = re.compile(r"^- (\S+) \((\w+)\), [\d.]+ m(?:; in/on (\S+))?")


def _listed(text: str) -> dict[str, str]:
    """Visible objects of a scene text: id -> line."""
    out, on = {}, False
    for line in text.splitlines():
        if line.startswith("Visible objects"):
            on = True
        elif line.startswith("Fixtures nearby"):
            on = False
        elif on and (m := LINE.match(line)):
            out[m.group(1)] = line
    return out


def _random_views(kitchen: str):
    """Every openable of ``kitchen`` opened, then 25 random reachable spots x 4 headings at random horizons:
    yields (the simulator, the pose, the visible objects' lines by id) at each."""
    w = KitchenWorld()
    w.reset({"kitchen_id": kitchen}, 0)
    sim = w.sim
    for o in sim.active_objects():
        if o.flags.get("openable"):
            sim.step("OpenObject", objectId=o.object_id, forceAction=True)
    rng = random.Random(kitchen)
    for x, z in rng.sample(sim.reachable, min(25, len(sim.reachable))):
        for rot in (0, 90, 180, 270):
            sim.step("TeleportFull", x=x, z=z, rotation=rot, horizon=rng.choice([-30, 0, 30, 60]), forceAction=True)
            yield sim, (kitchen, x, z, rot, sim.hor), _listed(w.text())


@pytest.mark.parametrize("kitchen", list_kitchens())
def test_no_receptacle_reads_empty_while_holding_something(kitchen):
    checked = 0
    for sim, pose, listed in _random_views(kitchen):
        for oid, line in listed.items():
            o = sim.objects[oid]
            if not o.flags.get("receptacle") or OUT_OF_VIEW in line:
                continue
            hidden = [c for c in o.contents if sim.objects[c].active and c not in listed]
            assert not hidden, (pose, oid, hidden)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("kitchen", list_kitchens()[::5])
def test_an_open_receptacle_says_empty_exactly_when_it_holds_nothing(kitchen):
    """"empty" is said of an open receptacle with nothing inside (so an agent that opened it knows there is
    nothing to look for), and never of one that holds something, closed ones or non-receptacles."""
    said = 0
    for sim, pose, listed in _random_views(kitchen):
        for oid, line in listed.items():
            o = sim.objects[oid]
            states = line.split("; ")[-1].split(", ")
            holds = any(sim.objects[c].active for c in o.contents)
            empty = bool(o.flags.get("openable") and o.flags.get("receptacle") and o.state["isOpen"] and not holds)
            assert ("empty" in states) == empty, (pose, oid, line)
            said += empty
    assert said > 0


def test_the_reported_repro_says_the_cabinet_is_partly_out_of_view():
    w = KitchenWorld()
    w.reset({"kitchen_id": "kitchen_10"}, 0)
    w.sim.step("TeleportFull", x=-1.0, z=1.0, rotation=270, horizon=60, forceAction=True)
    assert w.execute("OpenObject", {"obj": "Cabinet|-1.82|+1.75|+0.90"}) == ""
    line = _listed(w.text())["Cabinet|-1.82|+1.75|+0.90"]
    assert "open" in line and OUT_OF_VIEW in line


@pytest.mark.parametrize("kitchen", list_kitchens())
def test_knobs_and_burners_name_each_other(kitchen):
    w = KitchenWorld()
    w.reset({"kitchen_id": kitchen}, 0)
    sim = w.sim
    meta = {o["objectId"]: o for o in sim.step("Pass").metadata["objects"]}
    knobs = [o for o in sim.active_objects() if o.object_type == "StoveKnob"]
    burners = {o.object_id for o in sim.active_objects() if o.object_type == "StoveBurner"}
    for k in knobs:
        assert k.controls in burners, k.object_id
        assert meta[k.object_id]["controlledObjects"] == [k.controls]
        w.execute("Teleport", {"obj": k.object_id})
        text = w.text()
        assert f"switches {k.controls}" in _listed(text)[k.object_id]
        if k.controls in _listed(text):
            assert k.object_id in _listed(text)[k.controls]
    assert {k.controls for k in knobs} == burners or not knobs


def test_a_type_name_is_the_nearest_visible_instance_or_an_error_listing_candidates():
    w = KitchenWorld()
    w.reset({"kitchen_id": "kitchen_00"}, 0)
    sim = w.sim
    counter = next(o for o in sim.active_objects() if o.object_type == "CounterTop")
    plate = sim.spawn_in("Plate", counter.object_id)
    a, b = sim.spawn_in("Egg", plate), sim.spawn_in("Egg", plate)
    assert w.execute("Teleport", {"obj": a}) == ""
    assert a in _listed(w.text()) and b in _listed(w.text())
    sim.objects[b].state["isCooked"] = True
    sim.objects[b]._meta = None
    before = w.describe()
    err = w.execute("PickupObject", {"obj": "Egg"})
    assert "ambiguous" in err and a in err and b in err and "cooked" in err and "raw" in err
    assert w.describe() == before and sim.held is None
    assert w.execute("PickupObject", {"obj": b}) == "" and sim.held == b  # an objectId always works
    sim.step("PutObject", objectId=b, receptacleObjectId=counter.object_id, forceAction=True)
    sim.objects[b].state["isCooked"] = False
    sim.objects[b]._meta = None
    assert w.execute("PickupObject", {"obj": "Egg"}) == ""  # same states: the nearest visible one
    assert sim.held in (a, b)


def test_out_of_view_says_where_and_agrees_with_the_frustum_rule():
    """The note names the sides a receptacle leaves the view by (so an agent knows which way to turn, look or
    move); no sides exactly when the box is fully in view; and looking the way it says helps (after LookDown more
    of what a receptacle said to hold things below the view holds is in view, or none is below, or what still
    is needs a turn or a step as well)."""
    from embodiedweb.worlds.kitchen.geometry import box_fully_in_view, box_view_gaps

    rng = random.Random(3)
    for _ in range(3000):
        cam = (rng.uniform(-2, 2), rng.uniform(0.5, 2.0), rng.uniform(-2, 2))
        c = [rng.uniform(-2.5, 2.5), rng.uniform(0, 2), rng.uniform(-2.5, 2.5)]
        h = [rng.uniform(0.02, 1.2), rng.uniform(0.02, 0.4), rng.uniform(0.02, 1.2)]
        rot, hor = rng.choice([0, 90, 180, 270]), rng.choice([-30, 0, 30, 60])
        gaps = box_view_gaps(cam, rot, hor, c, h)
        assert (gaps == []) == box_fully_in_view(cam, rot, hor, c, h)
        assert all(g in ("behind", "left", "right", "above", "below", "beyond reach") for g in gaps)
    followed = 0
    for kitchen in list_kitchens()[:6]:
        w = KitchenWorld()
        w.reset({"kitchen_id": kitchen}, 0)
        sim = w.sim
        rng = random.Random(kitchen)
        for x, z in rng.sample(sim.reachable, min(20, len(sim.reachable))):
            for rot in (0, 90, 180, 270):
                sim.step("TeleportFull", x=x, z=z, rotation=rot, horizon=0, forceAction=True)
                before = _listed(w.text())
                below = [oid for oid, line in before.items() if "below: LookDown" in line]
                if not below:
                    continue
                sim.step("TeleportFull", x=x, z=z, rotation=rot, horizon=60, forceAction=True)
                after = _listed(w.text())
                geo, _ = sim.visibility()
                for oid in below:  # something it holds came in, or what is still below needs a turn too
                    shown = {c for c in sim.objects[oid].contents if c in after and c not in before}
                    still = [box_view_gaps(sim.camera, sim.rot, sim.hor, list(sim.objects[c].center),
                                           list(sim.objects[c].half)) for c in sim.objects[oid].contents
                             if sim.objects[c].active and not geo[sim.objects[c].index]]
                    turn = all({"left", "right", "behind", "beyond reach"} & set(g) for g in still if "below" in g)
                    assert shown or "below: LookDown" not in after.get(oid, "") or turn, (kitchen, x, z, rot, oid)
                followed += 1
    assert followed > 0


@pytest.mark.parametrize("kitchen", list_kitchens()[::5])
def test_the_out_of_view_note_clears_once_all_a_receptacle_holds_is_in_view(kitchen):
    """The converse of the rule above: a receptacle reads "partly out of view" only while something it holds
    is not listed, so the note clears when everything on it is in view even if part of it is not (helpers
    could not tell "nothing more here" from "keep looking" on a long counter or a table)."""
    noted = 0
    for sim, pose, listed in _random_views(kitchen):
        for oid, line in listed.items():
            if OUT_OF_VIEW in line:
                noted += 1
                assert [c for c in sim.objects[oid].contents if sim.objects[c].active and c not in listed], (pose, oid)
    assert noted > 0


def test_a_dish_that_holds_food_says_so_next_to_clean():
    """A plate with a cooked slice on it once read a bare "clean" (as if clean and empty): a dish's line names
    what it holds after its clean/dirty state, and stops once it holds nothing; two plates that differ only in
    what they hold are not ambiguous (what a receptacle holds is no state of its own)."""
    w = KitchenWorld()
    w.reset({"kitchen_id": "kitchen_00"}, 0)
    sim = w.sim
    counter = next(o for o in sim.active_objects() if o.object_type == "CounterTop")
    plate, other = sim.spawn_in("Plate", counter.object_id), sim.spawn_in("Plate", counter.object_id)
    a = sim.spawn_in("Egg", plate)

    def described() -> dict[str, list[str]]:
        return {oid: st.split(", ") for oid, st in (ln.split(": ", 1) for ln in w.describe().splitlines())}

    assert w.execute("Teleport", {"obj": plate}) == ""
    line = _listed(w.text())[plate]
    assert line.split("; ")[-1].split(", ") == ["clean", f"holds {a}"], line
    assert described()[plate] == ["clean", f"holds {a}"] and described()[other] == ["clean"]
    for x, z in sim.reachable:  # a pose that sees both plates
        for rot in (0, 90, 180, 270):
            sim.step("TeleportFull", x=x, z=z, rotation=rot, horizon=30, forceAction=True)
            if {plate, other} <= set(_listed(w.text())):
                break
        else:
            continue
        break
    assert {plate, other} <= set(_listed(w.text()))
    assert "ambiguous" not in w.execute("PickupObject", {"obj": "Plate"})  # they differ only in what they hold
    sim.step("PutObject", objectId=sim.held, receptacleObjectId=counter.object_id, forceAction=True)
    b = sim.spawn_in("Egg", plate)
    assert described()[plate] == ["clean", f"holds {a} and {b}"]  # (states are comma-separated: no comma)
    for egg in (a, b):
        sim.step("PickupObject", objectId=egg, forceAction=True)
        sim.step("PutObject", objectId=egg, receptacleObjectId=counter.object_id, forceAction=True)
    assert described()[plate] == ["clean"]
