"""First-person frames against the simulator: visibility agreement and frames per second.

``python -m embodiedweb.worlds.kitchen.fp_bench [poses_per_kitchen] [seconds]`` prints both as JSON.

Agreement. For random poses (a reachable position, one of the four rotations, one of the four camera
horizons, a random half of the openable objects opened, sometimes an object held) every active object
is classed by the simulator's own rule (``metadata["visible"]``: in the frustum, within 1.5 m of the
agent's reach axis, not inside a closed receptacle, or held) and looked up in the instance mask:

- ``visible``: the simulator says visible; agreement when the mask shows it (``min_pixels`` or more);
- ``enclosed``: inside a closed receptacle; agreement when the mask does not show it;
- ``behind``: the whole box behind the camera's image plane; agreement when the mask does not show it;
- ``side``: neither, and outside the simulator's frustum test at any distance. That test probes a few
  points of each box (centre, points nearest the view ray), so a large box reaching into the frame
  from the side (a counter run, the fridge) can fail it while the camera plainly sees part of it: these
  pairs are counted (``side_shown``) but not scored;
- ``far``: in the frustum but beyond the visibility distance. A camera sees far objects (AI2-THOR's
  instance masks show them too; only interaction is limited to 1.5 m), so these pairs are counted
  (``far_shown``) but not scored.

A visible object missing from the mask is checked again drawn alone: if it then shows, something in
front of it hid it (``occluded``: the simulator's rule ignores occlusion, the camera does not); if not,
its box only grazes the frustum (``grazing``: the simulator's point test and the pixel grid differ).
"""

from __future__ import annotations

import copy
import json
import math
import random
import sys
import time
from typing import Any

import numpy as np

from . import egocentric, geometry
from .kitchens import list_kitchens, load_kitchen
from .sim import KitchenSim

ROTATIONS = (0.0, 90.0, 180.0, 270.0)
HORIZONS = (-30.0, 0.0, 30.0, 60.0)


def random_pose(sim: KitchenSim, rng: random.Random) -> None:
    """Teleport to a random reachable pose, open a random half of the openables, maybe hold something."""
    for o in sim.active_objects():
        if o.flags.get("openable") and o.state.get("isOpen") != (want := rng.random() < 0.5):
            sim.step("OpenObject" if want else "CloseObject", objectId=o.object_id, forceAction=True)
    if sim.held is not None:
        sim.step("DropHandObject")
    x, z = rng.choice(sim.reachable)
    sim.step("TeleportFull", x=x, z=z, rotation=rng.choice(ROTATIONS), horizon=rng.choice(HORIZONS))
    if rng.random() < 0.2:
        cands = [o for o in sim.active_objects() if o.flags.get("pickupable") and not sim.is_hidden(o)]
        if cands:
            sim.step("PickupObject", objectId=rng.choice(cands).object_id, forceAction=True)


def classify(sim: KitchenSim, frame: egocentric.Frame, min_pixels: int = 1) -> list[tuple[str, str, bool]]:
    """(objectId, class, agrees) for every active object in the current pose (classes: see module doc)."""
    meta = {m["objectId"]: m for m in sim.step("Pass").metadata["objects"]}
    counts = np.bincount(frame.mask.ravel(), minlength=len(sim._order) + 1)
    cam = np.array(sim.camera)
    out = []
    for o in sim.active_objects():
        shown = counts[o.index + 1] >= min_pixels
        if meta[o.object_id]["visible"]:
            out.append((o.object_id, "visible", bool(shown)))
        elif sim.is_hidden(o):
            out.append((o.object_id, "enclosed", not shown))
        elif _behind(cam, sim.rot, sim.hor, o):
            out.append((o.object_id, "behind", not shown))
        elif not geometry.visible_mask(cam, sim.rot, sim.hor, np.array([o.center]), np.array([o.half]),
                                       max_dist=math.inf)[0]:
            out.append((o.object_id, "side", not shown))
        else:
            out.append((o.object_id, "far", not shown))
    return out


def _behind(cam: np.ndarray, rot: float, hor: float, o: Any) -> bool:
    """Every corner of the object's box is behind the camera's image plane."""
    fwd, _, _ = geometry.camera_axes(rot, hor)
    c, h = np.array(o.center), np.array(o.half)
    corners = c + h * np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    return bool(((corners - cam) @ fwd <= 0).all())


def _shown_alone(sim: KitchenSim, oid: str, size: tuple[int, int]) -> bool:
    """Whether the object shows when nothing else is drawn (its own boxes only)."""
    lo, hi, vals, _ = egocentric.scene_boxes(sim)
    keep = vals == sim.objects[oid].index + 1
    cam, rot, hor = egocentric.camera_pose(sim)
    with np.errstate(divide="ignore", invalid="ignore"):
        rects = egocentric._screen_rects(cam, rot, hor, lo[keep], hi[keep], *size)
    return bool(((rects[:, 1] > rects[:, 0]) & (rects[:, 3] > rects[:, 2])).any()) and \
        _ray_hits(sim, lo[keep], hi[keep], size)


def _ray_hits(sim: KitchenSim, lo: np.ndarray, hi: np.ndarray, size: tuple[int, int]) -> bool:
    cam, rot, hor = egocentric.camera_pose(sim)
    dx, dy, dz, ix, iy, iz, *_ = egocentric._rays(rot, hor, *size)
    for a, b in zip(lo - cam, hi - cam, strict=True):
        t1, t2 = a[0] * ix, b[0] * ix
        tn, tf = np.minimum(t1, t2), np.maximum(t1, t2)
        for k, inv in ((1, iy), (2, iz)):
            t1, t2 = a[k] * inv, b[k] * inv
            tn, tf = np.maximum(tn, np.minimum(t1, t2)), np.minimum(tf, np.maximum(t1, t2))
        if ((tn <= tf) & (tn > egocentric.NEAR)).any():
            return True
    return False


def agreement(kitchens: list[str] | None = None, poses: int = 40, seed: int = 0, min_pixels: int = 1,
              size: tuple[int, int] = (300, 300)) -> dict[str, Any]:
    """Agreement of the instance masks with the simulator's visibility over random poses (see module doc)."""
    rng = random.Random(seed)
    tally: dict[str, list[int]] = {c: [0, 0] for c in ("visible", "enclosed", "behind", "side", "far")}
    reasons = {"occluded": 0, "grazing": 0}
    examples: list[str] = []
    for kid in kitchens or list_kitchens():
        sim = load_kitchen(kid)
        for _ in range(poses):
            random_pose(sim, rng)
            frame = egocentric.render_frame(sim, size, rgb=False)
            for oid, cls, ok in classify(sim, frame, min_pixels):
                tally[cls][0] += int(ok)
                tally[cls][1] += 1
                if cls == "visible" and not ok:
                    why = "occluded" if _shown_alone(sim, oid, size) else "grazing"
                    reasons[why] += 1
                    if len(examples) < 8:
                        examples.append(f"{kid} {oid} {why} at ({sim.ax:.2f}, {sim.az:.2f}, rot {sim.rot:g}, "
                                        f"hor {sim.hor:g})")
    scored = ("visible", "enclosed", "behind")
    agree = sum(tally[c][0] for c in scored)
    total = sum(tally[c][1] for c in scored)
    return {"pairs": total, "agreement": agree / max(total, 1),
            "agreement_occlusion_excused": (agree + reasons["occluded"]) / max(total, 1),
            "side_shown": f"{tally['side'][1] - tally['side'][0]}/{tally['side'][1]}",
            **{f"{c}_agree": f"{tally[c][0]}/{tally[c][1]}" for c in scored},
            "far_shown": f"{tally['far'][1] - tally['far'][0]}/{tally['far'][1]}",
            "visible_missed_because": reasons, "examples": examples,
            "kitchens": len(kitchens or list_kitchens()), "poses_per_kitchen": poses, "min_pixels": min_pixels}


def frames_per_second(seconds: float = 2.0, size: tuple[int, int] = (300, 300), rgb: bool = True,
                      kitchens: list[str] | None = None, seed: int = 0, masks: bool = True,
                      object_action: bool = False) -> float:
    """First-person frames per CPU second of this process (``time.process_time``: on a loaded machine the
    wall clock also counts other processes' turns) over random poses of the given kitchens.

    By default each frame follows a move of the agent (a turn left or right, in turn: the scene's boxes,
    built once per scene state, are reused); ``object_action=True`` times frames that follow an object action:
    before each, the receptacle nearest the agent is opened or closed, so the boxes of what it changed, and
    of what it holds, are built again (the agent stays where it was: the room is not traced again). The
    actions themselves are not timed; every pose was drawn once before the clock starts."""
    rng = random.Random(seed)
    sims = [load_kitchen(k) for k in (kitchens or list_kitchens()[:6])]
    frames: list[KitchenSim] = []
    for sim in sims:
        for _ in range(20):
            random_pose(sim, rng)
            frames.append(copy.deepcopy(sim))  # only turned or opened and closed, and drawn
    targets = [_nearest_openable(sim) for sim in frames]
    for turn in ("RotateLeft", "RotateRight"):  # warm the ray cache and each scene's boxes
        for sim in frames:
            sim.step(turn)
            egocentric.render_frame(sim, size, rgb=rgb, masks=masks)
    n, paused, t0 = 0, 0.0, time.process_time()
    while True:
        k = n % len(frames)
        sim, target = frames[k], targets[k]
        t_step = time.process_time()
        if object_action and target is not None:
            sim.step("CloseObject" if target.state.get("isOpen") else "OpenObject", objectId=target.object_id,
                     forceAction=True)
        elif not object_action:
            sim.step("RotateLeft" if (n // len(frames)) % 2 == 0 else "RotateRight")
        paused += time.process_time() - t_step
        egocentric.render_frame(sim, size, rgb=rgb, masks=masks)
        n += 1
        spent = time.process_time() - t0 - paused
        if spent >= seconds:
            return n / spent


def _nearest_openable(sim: KitchenSim) -> Any:
    """The openable object nearest the agent that the held object is not inside (None if there is none)."""
    inside = set(sim.ancestors_of_held())
    cands = [o for o in sim.active_objects() if o.flags.get("openable") and o.object_id not in inside
             and o.object_id != sim.held]
    return min(cands, key=lambda o: (math.dist(o.center, sim.camera), o.object_id), default=None)


if __name__ == "__main__":
    per = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    secs = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    fps_rgb = frames_per_second(secs, rgb=True)
    fps_all = frames_per_second(secs, rgb=False)
    print(json.dumps({"fps_rgb_depth_mask_300": round(fps_rgb, 1), "fps_depth_mask_300": round(fps_all, 1),
                      **agreement(poses=per)}, indent=1))
