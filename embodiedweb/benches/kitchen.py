"""Kitchen speed figures for ``ewa bench``: object interactions per second (metadata included), render time and
first-person frames per second (300 x 300, see :mod:`embodiedweb.worlds.kitchen.fp_bench`)."""

from __future__ import annotations

import json
import time

from embodiedweb.worlds.kitchen import fp_bench
from embodiedweb.worlds.kitchen.kitchens import list_kitchens, load_kitchen
from embodiedweb.worlds.kitchen.sim import KitchenSim


def _interaction_cycle(sim: KitchenSim) -> list[tuple[str, dict[str, str]]]:
    """A cycle of object interactions that all succeed (open fridge, move an item in and out, close)."""
    fridge = next(o for o in sim.active_objects() if o.object_type == "Fridge")
    item = next(o for o in sim.active_objects() if o.flags["pickupable"] and o.object_type in ("Apple", "Tomato",
                "Potato", "Egg", "Lettuce", "Bread", "Mug", "Cup", "Bowl"))
    counter = item.parent or next(o.object_id for o in sim.active_objects() if o.object_type == "CounterTop")
    f, i = fridge.object_id, item.object_id
    return [("OpenObject", {"objectId": f}), ("PickupObject", {"objectId": i}),
            ("PutObject", {"objectId": i, "receptacleObjectId": f}), ("PickupObject", {"objectId": i}),
            ("PutObject", {"objectId": i, "receptacleObjectId": counter}), ("CloseObject", {"objectId": f})]


def bench_kitchen(seconds: float = 1.0, kitchen_id: str = "kitchen_00", fp_kitchens: int = 6) -> dict[str, float]:
    """``{"kitchen_steps_per_s": ..., "kitchen_render_ms": ..., "kitchen_fp_rgb_fps": ..., "kitchen_fp_rgb_only_fps":
    ..., "kitchen_fp_depth_mask_fps": ...}`` measured on one core. The first-person figures are frames per CPU
    second over random poses of the first ``fp_kitchens`` kitchens: RGB with depth and masks, RGB alone (the
    depth it needs for hidden surfaces, no masks), and depth + masks alone, each after a move of the agent
    (the scene's boxes reused); the ``_changed`` figures after an object action (the receptacle nearest the
    agent opened or closed: the boxes of what it changed built again)."""
    sim = load_kitchen(kitchen_id)
    cycle = _interaction_cycle(sim)
    for _name, kw in cycle:  # all actions use forceAction so the cycle does not depend on the pose
        kw["forceAction"] = True  # type: ignore[assignment]
    for name, kw in cycle * 50:  # warm up
        sim.step(name, **kw).metadata  # noqa: B018
    steps = 0
    failures = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for name, kw in cycle:
            ev = sim.step(name, **kw)
            meta = ev.metadata  # building metadata is part of the figure
            failures += not meta["lastActionSuccess"]
            steps += 1
    steps_per_s = steps / (time.perf_counter() - t0)
    sim.render((300, 300))
    n = 20
    t1 = time.perf_counter()
    for k in range(n):
        sim.step("RotateRight" if k % 2 else "RotateLeft")
        sim.render((300, 300))
    render_ms = (time.perf_counter() - t1) * 1000 / n
    if failures:
        raise RuntimeError(f"benchmark cycle had {failures} failed actions")
    kitchens = list_kitchens()[:fp_kitchens]
    fp_rgb = fp_bench.frames_per_second(seconds, rgb=True, kitchens=kitchens)
    fp_rgb_only = fp_bench.frames_per_second(seconds, rgb=True, masks=False, kitchens=kitchens)
    fp_dm = fp_bench.frames_per_second(seconds, rgb=False, kitchens=kitchens)
    changed = {f"kitchen_fp_{name}_changed_fps": round(fp_bench.frames_per_second(
        seconds, rgb=True, masks=masks, kitchens=kitchens, object_action=True), 1)
        for name, masks in (("rgb", True), ("rgb_only", False))}
    return {**changed, "kitchen_steps_per_s": round(steps_per_s, 1), "kitchen_render_ms": round(render_ms, 2),
            "kitchen_fp_rgb_fps": round(fp_rgb, 1), "kitchen_fp_rgb_only_fps": round(fp_rgb_only, 1),
            "kitchen_fp_depth_mask_fps": round(fp_dm, 1)}


if __name__ == "__main__":
    print(json.dumps(bench_kitchen()))
