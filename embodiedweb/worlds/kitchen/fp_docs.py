"""The frames of ``docs/first_person.md``: three kitchens before and after opening, slicing and cooking.

Regenerate with ``python -m embodiedweb.worlds.kitchen.fp_docs [out_dir]`` (default ``docs/img``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from . import egocentric as eg
from .kitchens import load_kitchen
from .objects import SimObject
from .sim import KitchenSim

SIZE = (240, 240)
KITCHENS = ("kitchen_00", "kitchen_07", "kitchen_15")


def _face(sim: KitchenSim, obj: SimObject, hor: float | None = None) -> None:
    pose = sim.interaction_pose(obj)
    assert pose is not None
    x, z, rot, h = pose
    sim.step("TeleportFull", x=x, z=z, rotation=rot, horizon=h if hor is None else hor)


def _one(sim: KitchenSim, types: tuple[str, ...]) -> SimObject:
    found = [o for o in sim.active_objects() if o.object_type in types and not sim.is_hidden(o)]
    return found[0] if found else sim.objects[sim.spawn_on_counter(types[0])]


def _label(img: np.ndarray, text: str) -> np.ndarray:
    im = Image.fromarray(img)
    d = ImageDraw.Draw(im)
    d.rectangle([0, 0, 8 + 6 * len(text), 14], fill=(0, 0, 0))
    d.text((4, 2), text, fill=(255, 255, 255))
    return np.asarray(im)


def _pair(a: np.ndarray, b: np.ndarray, la: str, lb: str) -> np.ndarray:
    return np.concatenate([_label(a, la), np.full((SIZE[1], 4, 3), 255, np.uint8), _label(b, lb)], 1)


def kitchen_sheet(kid: str) -> tuple[np.ndarray, eg.Frame]:
    """Rows: fridge closed/open, food before/after SliceObject, a slice in a pan before/after the burner is on."""
    rows = []
    sim = load_kitchen(kid)
    fridge = _one(sim, ("Fridge",))
    _face(sim, fridge, 0.0)
    before = eg.render_frame(sim, SIZE).rgb
    sim.step("OpenObject", objectId=fridge.object_id, forceAction=True)
    rows.append(_pair(before, eg.render_frame(sim, SIZE).rgb, "Fridge closed", "OpenObject Fridge"))

    sim = load_kitchen(kid)
    food = _one(sim, ("Tomato", "Bread", "Potato", "Lettuce", "Apple"))
    knife = _one(sim, ("Knife", "ButterKnife"))
    sim.step("PickupObject", objectId=knife.object_id, forceAction=True)
    _face(sim, food, 60.0 if food.center[1] < 1.2 else None)
    before = eg.render_frame(sim, SIZE).rgb
    sim.step("SliceObject", objectId=food.object_id, forceAction=True)
    rows.append(_pair(before, eg.render_frame(sim, SIZE).rgb, f"{food.object_type}, knife in hand",
                      f"SliceObject {food.object_type}"))

    sim.step("DropHandObject")
    piece = next(o for o in sim.active_objects() if o.object_id.startswith(food.object_id + "|"))
    pan = _one(sim, ("Pan", "Pot"))
    burner = _one(sim, ("StoveBurner",))
    if pan.parent is not None and sim.objects[pan.parent].object_type == "StoveBurner":
        burner = sim.objects[pan.parent]
    else:
        sim.step("PickupObject", objectId=pan.object_id, forceAction=True)
        sim.step("PutObject", objectId=pan.object_id, receptacleObjectId=burner.object_id, forceAction=True)
    sim.step("PickupObject", objectId=piece.object_id, forceAction=True)
    sim.step("PutObject", objectId=piece.object_id, receptacleObjectId=pan.object_id, forceAction=True)
    _face(sim, burner, 60.0)
    before = eg.render_frame(sim, SIZE).rgb
    sim.step("ToggleObjectOn", objectId=burner.object_id, forceAction=True)
    last = eg.render_frame(sim, SIZE)
    assert last.rgb is not None
    rows.append(_pair(before, last.rgb, "raw slice in pan", f"burner on: cooked={piece.state['isCooked']}"))
    gap = np.full((4, rows[0].shape[1], 3), 255, np.uint8)
    return np.concatenate([x for r in rows for x in (r, gap)][:-1], 0), last


def main(out_dir: str = "docs/img") -> list[Path]:
    """Write the first-person frames of ``docs/first_person.md`` to ``out_dir``; returns the paths written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for kid in KITCHENS:
        sheet, last = kitchen_sheet(kid)
        paths.append(out / f"fp_{kid}.png")
        Image.fromarray(sheet).save(paths[-1], optimize=True)
        if kid == KITCHENS[1]:
            assert last.rgb is not None
            depth = np.repeat((np.clip(last.depth / 4.0, 0, 1) * 255).astype(np.uint8)[..., None], 3, 2)
            trio = np.concatenate([_label(last.rgb, "rgb"), _label(depth, "depth (0-4 m)"),
                                   _label(eg.mask_to_rgb(last.mask), "instance mask")], 1)
            paths.append(out / "fp_outputs.png")
            Image.fromarray(trio).save(paths[-1], optimize=True)
    return paths


if __name__ == "__main__":
    for p in main(*sys.argv[1:2]):
        print(p)
