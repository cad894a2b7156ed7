"""ALFRED conformance: build a KitchenSim from an ALFRED trajectory's scene and replay its actions.

The loader reconstructs an AI2-THOR 2.1 kitchen from what the shared fixtures reveal:
- reachable positions (``FloorPlanN-layout.npy``) and receptacles with their interaction poses
  (``FloorPlanN-openable.json``; ids encode positions);
- reachable positions missing from the layout: the trajectory's start pose and the positions other
  expert trajectories of the same floor plan stand on (leave-one-out, :class:`FloorKnowledge`);
- pickupable objects from ``object_poses`` (ids ``Type|x|y|z``; when the trajectory names an id of the
  same type within 1.5 cm, that spelling is used: AI2-THOR reports settled positions);
- receptacles/fixtures that the layout lacks (StoveBurner, CoffeeMachine, Faucet, some counters and
  cabinets) from the objectIds the trajectory uses and the receptacle coordinates of its high-level plan;
- initial containment from geometry (inside a box, on a surface, in a pickupable container), with the
  plan's ``coordinateReceptacleObjectId`` naming where each picked object starts;
- box sizes: per-type defaults, grown so each receptacle is in view from its recorded interaction pose.
ALFRED's environment tilts the camera by 15 degrees per LookUp/LookDown; the loader sets that.

The simulator itself applies the same rules as for the project's kitchens (reach, visibility, closed
receptacles, receptacle types, knives, appliances); nothing here bypasses them.

Held-out protocol: trajectories are split by ``md5(task_id) % 3``; buckets 0 and 1 (about 2/3) were used
while tuning the loader's defaults, bucket 2 (about 1/3) is the held-out part (``split="heldout"``).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
import re
import sys
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from . import geometry, vocab
from .sim import KitchenSim

DEFAULT_DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "alfred"
ALFRED_HORIZON_STEP = 15.0

# half extents (m) of fixed receptacles as reconstructed for AI2-THOR 2.1 kitchens
FIXED_HALF: dict[str, tuple[float, float, float]] = {
    "Cabinet": (0.30, 0.30, 0.30), "Drawer": (0.28, 0.08, 0.28), "Fridge": (0.40, 0.90, 0.40),
    "Microwave": (0.28, 0.17, 0.25), "SinkBasin": (0.30, 0.10, 0.25), "CounterTop": (0.60, 0.04, 0.35),
    "DiningTable": (0.70, 0.04, 0.50), "SideTable": (0.35, 0.04, 0.30), "Shelf": (0.35, 0.03, 0.18),
    "GarbageCan": (0.18, 0.22, 0.18), "StoveBurner": (0.13, 0.03, 0.13), "CoffeeMachine": (0.14, 0.18, 0.14),
    "Faucet": (0.06, 0.12, 0.08), "Toaster": (0.13, 0.10, 0.09), "Safe": (0.25, 0.25, 0.25),
}
_BASE_Y = {"Fridge": 0.90, "GarbageCan": 0.22}  # ids of these sit at the base: centre is higher
_SURFACES = ("CounterTop", "DiningTable", "SideTable", "Shelf", "StoveBurner", "CoffeeMachine", "Toaster")
_BOXES = ("Fridge", "Cabinet", "Drawer", "Microwave", "SinkBasin", "GarbageCan", "Safe")
_CONTAINERS = {"Plate": 0.14, "Bowl": 0.11, "Pan": 0.18, "Pot": 0.15, "Cup": 0.06, "Mug": 0.07}
_ID_RE = re.compile(r"^([A-Za-z]+)\|([+-]?\d+\.\d+)\|([+-]?\d+\.\d+)\|([+-]?\d+\.\d+)(\|.*)?$")

GOAL_NEEDS_PROCESS = ("pick_heat_then_place_in_recep", "pick_cool_then_place_in_recep",
                      "pick_clean_then_place_in_recep")


def parse_id(object_id: str) -> tuple[str, tuple[float, float, float]] | None:
    """(type, position) encoded in an AI2-THOR objectId (``None`` for slices and malformed ids)."""
    m = _ID_RE.match(object_id)
    if m is None or m.group(5):
        return None
    return m.group(1), (float(m.group(2)), float(m.group(3)), float(m.group(4)))


def split_of(task_id: str) -> str:
    """``"tune"`` (md5 bucket 0/1) or ``"heldout"`` (bucket 2)."""
    return "heldout" if int(hashlib.md5(task_id.encode()).hexdigest(), 16) % 3 == 2 else "tune"


@lru_cache(maxsize=64)
def _layout(layouts_dir: str, floor_plan: str) -> tuple[list[tuple[float, float]], dict[str, list[float]]]:
    d = Path(layouts_dir)
    pts = np.load(d / f"{floor_plan}-layout.npy")
    reach = [(round(float(x), 2), round(float(z), 2)) for x, z in pts]
    openable = json.loads((d / f"{floor_plan}-openable.json").read_text())
    return reach, openable


def _action_ids(traj: dict[str, Any]) -> list[str]:
    out = []
    for la in traj["low_actions"]:
        a = la["api_action"]
        for k in ("objectId", "receptacleObjectId"):
            if a.get(k):
                out.append(a[k])
    return out


def _dist3(a: Iterable[float], b: Iterable[float]) -> float:
    return math.dist(tuple(a), tuple(b))


class _Recep:
    def __init__(self, oid: str, otype: str, pos: tuple[float, float, float], pose: list[float] | None = None):
        self.oid, self.otype, self.pos, self.pose = oid, otype, pos, pose
        self.center = [pos[0], pos[1] + _BASE_Y.get(otype, 0.0), pos[2]]
        self.half = list(FIXED_HALF.get(otype, vocab.half_size(otype)))


def visited_positions(traj: dict[str, Any]) -> set[tuple[float, float]]:
    """Grid positions an expert trajectory stands on (dead reckoning of its moves from ``init_action``)."""
    init = traj["scene"]["init_action"]
    x, z, rot = float(init["x"]), float(init["z"]), float(init.get("rotation", 0))
    out = {(round(x, 2), round(z, 2))}
    for la in traj["low_actions"]:
        a = la["api_action"]
        name = a["action"]
        if name in ("RotateLeft", "RotateRight"):
            rot += float(a.get("degrees", 90)) * (-1 if name == "RotateLeft" else 1)
        elif name.startswith("Move"):
            off = {"MoveAhead": 0, "MoveRight": 90, "MoveBack": 180, "MoveLeft": 270}[name]
            mag = float(a.get("moveMagnitude", 0.25) or 0.25)
            yaw = math.radians(rot + off)
            x, z = round(x + mag * math.sin(yaw), 2), round(z + mag * math.cos(yaw), 2)
            out.add((x, z))
        elif name == "TeleportFull":
            x, z = round(float(a["x"]), 2), round(float(a["z"]), 2)
            out.add((x, z))
    return out


class FloorKnowledge:
    """Reachable positions revealed by a set of expert trajectories, per floor plan (with counts).

    The shared layouts list only part of the positions the agent can stand on (they were captured with
    other object placements). A position visited by another expert trajectory in the same floor plan is
    known to be reachable; :meth:`extra_for` gives those positions, leaving the replayed trajectory out.
    """

    def __init__(self, trajectories: Iterable[dict[str, Any]] = ()):
        self.counts: dict[str, dict[tuple[float, float], int]] = {}
        for t in trajectories:
            self.add(t)

    def add(self, traj: dict[str, Any]) -> None:
        """Count the positions a trajectory visited on its floor plan."""
        c = self.counts.setdefault(traj["scene"]["floor_plan"], {})
        for p in visited_positions(traj):
            c[p] = c.get(p, 0) + 1

    def extra_for(self, traj: dict[str, Any]) -> list[tuple[float, float]]:
        """Positions other trajectories visited on this trajectory's floor plan."""
        c = self.counts.get(traj["scene"]["floor_plan"], {})
        own = visited_positions(traj)
        return [p for p, n in c.items() if n - (p in own) >= 1]


def build_scene(traj: dict[str, Any], layouts_dir: str | Path | None = None,
                extra_reachable: Iterable[tuple[float, float]] = ()) -> dict[str, Any]:
    """The scene dict (see :class:`KitchenSim`) for an ALFRED trajectory.

    ``extra_reachable``: further positions known to be reachable (see :class:`FloorKnowledge`).
    """
    layouts_dir = Path(layouts_dir) if layouts_dir else DEFAULT_DATA / "layouts"
    scene = traj["scene"]
    reach, openable = _layout(str(layouts_dir), scene["floor_plan"])
    init = scene["init_action"]
    reach = sorted(set(reach) | {(round(float(init["x"]), 2), round(float(init["z"]), 2))}
                   | {(round(x, 2), round(z, 2)) for x, z in extra_reachable})
    agent = {"x": float(init["x"]), "y": float(init.get("y", 0.9)), "z": float(init["z"]),
             "rotation": float(init.get("rotation", 0)), "horizon": float(init.get("horizon", 0))}

    receps: dict[str, _Recep] = {}
    for oid, pose in openable.items():
        if oid.endswith("|SinkBasin"):
            parsed = parse_id(oid[: -len("|SinkBasin")])
            otype = "SinkBasin"
        else:
            parsed = parse_id(oid)
            otype = parsed[0] if parsed else ""
        if parsed:
            receps[oid] = _Recep(oid, otype, parsed[1], pose)

    # pickupable objects
    ref_ids = _action_ids(traj)
    refs_by_type: dict[str, list[tuple[str, tuple[float, float, float]]]] = {}
    for rid in ref_ids:
        p = parse_id(rid)
        if p:
            refs_by_type.setdefault(p[0], []).append((rid, p[1]))
    objects: list[dict[str, Any]] = []
    taken: set[str] = set()
    for pose in scene["object_poses"]:
        otype = pose["objectName"].split("_")[0]
        pos = (pose["position"]["x"], pose["position"]["y"], pose["position"]["z"])
        oid = None
        for rid, rpos in refs_by_type.get(otype, []):
            if rid not in taken and max(abs(a - b) for a, b in zip(rpos, pos, strict=True)) <= 0.015:
                oid = rid
                break
        if oid is None:
            oid = f"{otype}|{_fmt(pos[0])}|{_fmt(pos[1])}|{_fmt(pos[2])}"
        if oid in taken:
            continue
        taken.add(oid)
        objects.append({"objectId": oid, "objectType": otype, "position": list(pos), "name": pose["objectName"],
                        "rotation": float(pose.get("rotation", {}).get("y", 0.0))})
    pick_types = {o["objectType"] for o in objects}

    # fixtures and receptacles named by the trajectory but missing from the layout
    for rid in ref_ids:
        if rid in receps or rid in taken or "Sliced" in rid:
            continue
        base = rid[: -len("|SinkBasin")] if rid.endswith("|SinkBasin") else rid
        p = parse_id(base)
        if p and p[0] not in pick_types:
            receps[rid] = _Recep(rid, "SinkBasin" if rid != base else p[0], p[1])
    hints: dict[str, str] = {}
    for hp in traj.get("high_pddl", []):
        pa = hp.get("planner_action", {})
        cr = pa.get("coordinateReceptacleObjectId")
        if not cr or pa.get("action") not in ("PickupObject",):
            continue
        rtype, coords = cr[0], cr[1]
        rpos = (coords[0] / 4, coords[4] / 4, coords[2] / 4)
        same = [r for r in receps.values() if r.otype == rtype]
        best = min(same, key=lambda r: _dist3(r.pos, rpos), default=None)
        if best is None or _dist3(best.pos, rpos) > 0.1:
            if rtype in pick_types or rtype in _CONTAINERS:
                cont = [o for o in objects if o["objectType"] == rtype]
                if cont:
                    hints.setdefault(pa.get("objectId", ""), min(
                        cont, key=lambda o: _dist3(o["position"], rpos))["objectId"])
                continue
            rid = f"{rtype}|{_fmt(rpos[0])}|{_fmt(rpos[1])}|{_fmt(rpos[2])}"
            best = receps.setdefault(rid, _Recep(rid, rtype, rpos))
        if pa.get("objectId"):
            hints.setdefault(pa["objectId"], best.oid)

    # initial containment
    by_id = {o["objectId"]: o for o in objects}
    for o in objects:
        parent = hints.get(o["objectId"])
        if parent is None or (parent not in receps and parent not in by_id):
            parent = _infer_parent(o, objects, receps)
        if parent is not None and parent != o["objectId"]:
            o["parent"] = parent
    # avoid containment cycles (two containers claiming each other)
    for o in objects:
        seen, p = {o["objectId"]}, o.get("parent")
        while p in by_id:
            if p in seen:
                o.pop("parent", None)
                break
            seen.add(p)
            p = by_id[p].get("parent")

    # grow surfaces to cover what rests on them, and every receptacle to be in view from its pose
    for o in objects:
        r = receps.get(o.get("parent", ""))
        if r is not None and r.otype in ("CounterTop", "DiningTable", "SideTable", "Shelf"):
            for ax in (0, 2):
                r.half[ax] = max(r.half[ax], abs(o["position"][ax] - r.center[ax]) + 0.05)
    cam_y = agent["y"] + geometry.CAMERA_OFFSET
    for r in receps.values():
        if r.pose is not None:
            _grow_to_view(r, r.pose, cam_y)

    objs_out: list[dict[str, Any]] = []
    for r in receps.values():
        spec: dict[str, Any] = {"objectId": r.oid, "objectType": r.otype, "position": list(r.pos),
                                "center": r.center, "size": r.half}
        objs_out.append(spec)
    for o in objects:
        objs_out.append(o)
    toggles = {t.get("objectType"): t.get("isOn") for t in scene.get("object_toggles", [])}
    for spec in objs_out:
        if spec["objectType"] in toggles:
            spec.setdefault("state", {})["isToggled"] = bool(toggles[spec["objectType"]])
        if scene.get("dirty_and_empty") and spec["objectType"] in vocab.DIRTYABLE:
            spec.setdefault("state", {})["isDirty"] = True
    return {"sceneName": scene["floor_plan"], "gridSize": 0.25, "horizonStep": ALFRED_HORIZON_STEP,
            "reachable": [list(p) for p in reach], "agent": agent, "objects": objs_out}


def _fmt(v: float) -> str:
    r = round(v, 2)
    return f"{r:+06.2f}" if r != 0 else "+00.00"


def _infer_parent(o: dict[str, Any], objects: list[dict[str, Any]], receps: dict[str, _Recep]) -> str | None:
    """Where an object rests at the start, from geometry."""
    x, y, z = o["position"]
    best: tuple[float, str] | None = None
    # a pickupable container right under it
    for c in objects:
        ct = c["objectType"]
        if c is o or ct not in _CONTAINERS or ct == o["objectType"]:
            continue
        if not vocab.accepts(ct, o["objectType"]):
            continue
        cx, cy, cz = c["position"]
        hd = math.hypot(x - cx, z - cz)
        if hd <= _CONTAINERS[ct] and -0.02 <= y - cy <= 0.25:
            cand = (hd, c["objectId"])
            best = min(best, cand) if best else cand
    if best:
        return best[1]
    # inside a box-like receptacle
    for r in receps.values():
        if r.otype not in _BOXES:
            continue
        inside = abs(x - r.center[0]) <= r.half[0] + 0.08 and abs(z - r.center[2]) <= r.half[2] + 0.08 \
            and r.center[1] - r.half[1] - 0.05 <= y <= r.center[1] + r.half[1]
        if inside:
            d = _dist3((x, y, z), r.center)
            cand = (d, r.oid)
            best = min(best, cand) if best else cand
    if best:
        return best[1]
    # on the nearest surface below it
    for r in receps.values():
        if r.otype not in _SURFACES:
            continue
        top = r.center[1] + r.half[1]
        if not -0.25 <= y - top <= 0.45:
            continue
        dx = max(abs(x - r.center[0]) - r.half[0], 0.0)
        dz = max(abs(z - r.center[2]) - r.half[2], 0.0)
        d = math.hypot(dx, dz) + 0.1 * abs(y - top)
        if d <= (1.2 if max(r.half[0], r.half[2]) > 0.3 else 0.05):
            cand = (d, r.oid)
            best = min(best, cand) if best else cand
    return best[1] if best else None


def _grow_to_view(r: _Recep, pose: list[float], cam_y: float) -> None:
    """Grow a receptacle's box until some part of it is in view and reach from its interaction pose."""
    x, z, rot, hor = pose[:4]
    cam = np.array([x, cam_y, z])
    for _ in range(12):
        if geometry.visible_mask(cam, rot, hor, np.array([r.center]), np.array([r.half]))[0]:
            return
        fwd, _, _ = geometry.camera_axes(rot, hor)
        target = cam + fwd * 1.0
        for ax in range(3):
            gap = abs(target[ax] - r.center[ax]) - r.half[ax]
            if gap > 0:
                r.half[ax] += min(gap, 0.1)


# ---------------------------------------------------------------------------------------------- replay
def load_trajectories(path: str | Path) -> Iterator[dict[str, Any]]:
    """Trajectories of a ``.jsonl`` or ``.jsonl.gz`` file."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def needs_process(traj: dict[str, Any]) -> bool:
    """Whether the goal needs heating, cooling, cleaning or slicing."""
    return traj["task_type"] in GOAL_NEEDS_PROCESS or bool(traj["pddl_params"].get("object_sliced"))


def ablated(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions minus every SliceObject, every ToggleObjectOn and every CloseObject of a Fridge."""
    out = []
    for a in actions:
        name = a.get("action")
        if name in ("SliceObject", "ToggleObjectOn"):
            continue
        if name == "CloseObject" and str(a.get("objectId", "")).startswith("Fridge|"):
            continue
        out.append(a)
    return out


def _in(sim: KitchenSim, obj_id: str, rtype: str) -> bool:
    types = {rtype, "Sink"} if rtype in ("SinkBasin", "Sink") else {rtype}
    return any(sim.objects[a].object_type in types for a in sim.ancestors(sim.objects[obj_id]))


def goal_satisfied(sim: KitchenSim, traj: dict[str, Any]) -> bool:
    """The goal condition of an ALFRED task type, evaluated on the simulator state."""
    p = traj["pddl_params"]
    tt = traj["task_type"]
    otype = p["object_target"] + ("Sliced" if p.get("object_sliced") else "")
    parent = p["parent_target"]
    cands = [o for o in sim.active_objects() if o.object_type == otype]
    need = {"pick_heat_then_place_in_recep": "heated", "pick_cool_then_place_in_recep": "cooled",
            "pick_clean_then_place_in_recep": "cleaned"}.get(tt)
    if need:
        cands = [o for o in cands if need in o.history]
    if tt == "pick_two_obj_and_place":
        return sum(_in(sim, o.object_id, parent) for o in cands) >= 2
    if tt == "pick_and_place_with_movable_recep":
        mtype = p["mrecep_target"]
        for o in cands:
            for a in sim.ancestors(o):
                m = sim.objects[a]
                if m.object_type == mtype and _in(sim, m.object_id, parent):
                    return True
        return False
    return any(_in(sim, o.object_id, parent) for o in cands)


def replay(traj: dict[str, Any], ablate: bool = False, layouts_dir: str | Path | None = None,
           knowledge: FloorKnowledge | None = None) -> dict[str, Any]:
    """Replay one trajectory; returns ``{"ok": all actions succeeded, "goal": bool, "failures": [...]}``."""
    extra = knowledge.extra_for(traj) if knowledge is not None else ()
    sim = KitchenSim(build_scene(traj, layouts_dir, extra))
    actions = [dict(la["api_action"]) for la in traj["low_actions"]]
    if ablate:
        actions = ablated(actions)
    failures = []
    for i, a in enumerate(actions):
        ev = sim.step(a)
        if not ev.lastActionSuccess:
            failures.append((i, a.get("action"), a.get("objectId") or a.get("receptacleObjectId"), ev.errorMessage))
    return {"ok": not failures, "goal": goal_satisfied(sim, traj), "failures": failures}


def replay_file(path: str | Path, ablate: bool = False, layouts_dir: str | Path | None = None,
                progress: bool = False, split: str | None = None, sample: int | None = None) -> dict[str, Any]:
    """Replay every trajectory of a file: ``{"trajectories": N, "actions_ok": k, "goal_satisfied": g}``.

    With ``ablate`` only trajectories whose goal needs heating/cooling/cleaning/slicing are counted, after
    removing SliceObject, ToggleObjectOn and CloseObject-of-Fridge actions (failures allowed).
    ``split`` (``"tune"``/``"heldout"``) keeps one part; ``sample`` keeps every k-th trajectory.
    """
    path = Path(path)
    if layouts_dir is None:
        layouts_dir = path.parent / "layouts"
    knowledge = FloorKnowledge(load_trajectories(path))
    n = ok = goal = 0
    for i, traj in enumerate(load_trajectories(path)):
        if split and split_of(traj["task_id"]) != split:
            continue
        if sample and i % sample:
            continue
        if ablate and not needs_process(traj):
            continue
        res = replay(traj, ablate=ablate, layouts_dir=layouts_dir, knowledge=knowledge)
        n += 1
        ok += res["ok"]
        goal += res["goal"]
        if progress and n % 200 == 0:
            print(f"{n} trajectories: actions_ok {ok}, goal {goal}", file=sys.stderr)
    return {"trajectories": n, "actions_ok": ok, "goal_satisfied": goal}


def main(argv: list[str] | None = None) -> int:
    """``python -m embodiedweb.worlds.kitchen.alfred FILE [--ablate] [--json]``."""
    ap = argparse.ArgumentParser(description="Replay ALFRED expert trajectories in KitchenSim")
    ap.add_argument("file")
    ap.add_argument("--ablate", action="store_true")
    ap.add_argument("--layouts", default=None)
    ap.add_argument("--split", choices=("tune", "heldout"), default=None)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--progress", action="store_true")
    args = ap.parse_args(argv)
    res = replay_file(args.file, ablate=args.ablate, layouts_dir=args.layouts, progress=args.progress,
                      split=args.split)
    if args.json:
        print(json.dumps(res))
    else:
        n = max(res["trajectories"], 1)
        print(f"trajectories {res['trajectories']}  actions_ok {res['actions_ok']} ({res['actions_ok'] / n:.1%})"
              f"  goal_satisfied {res['goal_satisfied']} ({res['goal_satisfied'] / n:.1%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
