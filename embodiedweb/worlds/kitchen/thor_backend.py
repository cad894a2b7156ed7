"""The real AI2-THOR as an optional backend behind the KitchenSim interface.

``ThorKitchen`` wraps ``ai2thor.controller.Controller`` (imported lazily; ``pip install "embodiedweb[ai2thor]"``) and
offers what the kitchen world uses from :class:`~embodiedweb.worlds.kitchen.sim.KitchenSim`: ``step``,
``resolve`` (type names to the nearest interactable instance), ``spawn_on_counter`` (not supported by
AI2-THOR: raises with an explanation), ``scene_text`` and ``render``, and ``first_person``: AI2-THOR's own
frames (``event.frame``, ``event.depth_frame``, ``event.instance_segmentation_frame``) as the same
:class:`~.egocentric.Frame` the pure-Python kitchen draws, so ``embodied_image`` / ``embodied_depth`` /
``embodied_masks`` carry them unchanged in meaning. ``preflight()`` checks the prerequisites and turns each
missing one into an actionable message.
"""

from __future__ import annotations

import importlib.util
import math
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

# our action names -> AI2-THOR action names (identical today; kept explicit for versions that differ)
ACTION_MAP = {name: name for name in (
    "MoveAhead", "MoveBack", "MoveLeft", "MoveRight", "RotateLeft", "RotateRight", "LookUp", "LookDown",
    "TeleportFull", "PickupObject", "PutObject", "OpenObject", "CloseObject", "ToggleObjectOn",
    "ToggleObjectOff", "SliceObject", "CookObject", "BreakObject", "DirtyObject", "CleanObject",
    "DropHandObject", "GetReachablePositions", "Pass", "Done")}


@dataclass
class PreflightReport:
    """Result of :func:`preflight`: ``ok`` and one actionable message per missing prerequisite."""

    ok: bool
    problems: list[str] = field(default_factory=list)
    platform: str = ""

    def message(self) -> str:
        """A readable one-line ready message, or the list of problems."""
        if self.ok:
            return f"AI2-THOR backend ready ({self.platform or 'default platform'})."
        return "AI2-THOR backend unavailable:\n" + "\n".join(f"- {p}" for p in self.problems)


def preflight(local_executable_path: str | None = None, env: dict[str, str] | None = None,
              find_spec: Callable[[str], Any] = importlib.util.find_spec,
              which: Callable[[str], str | None] = shutil.which) -> PreflightReport:
    """Check that AI2-THOR can start here: the package, a Unity build, and a display or Vulkan."""
    env = dict(os.environ if env is None else env)
    problems: list[str] = []
    if find_spec("ai2thor") is None:
        problems.append("Python package 'ai2thor' is not installed: `pip install \"embodiedweb[ai2thor]\"`. "
                        "The default pure-Python kitchen needs nothing.")
    exe = local_executable_path or env.get("AI2THOR_LOCAL_EXECUTABLE")
    if exe:
        if not Path(exe).is_file():
            problems.append(f"local_executable_path {exe!r} does not exist: unpack a pre-downloaded AI2-THOR "
                            "build (e.g. thor-Linux64-<commit>.zip) and point local_executable_path (or the "
                            "AI2THOR_LOCAL_EXECUTABLE variable) at its executable.")
    else:
        cache = Path(env.get("HOME", "~")).expanduser() / ".ai2thor" / "releases"
        if not cache.is_dir() or not any(cache.iterdir()):
            problems.append(f"No AI2-THOR Unity build found in {cache}: the first Controller() downloads one "
                            "(about 500 MB, needs internet). Offline, copy a pre-downloaded build there or pass "
                            "local_executable_path=/path/to/thor-Linux64-<commit>/thor-Linux64-<commit>.")
    platform = ""
    has_display = bool(env.get("DISPLAY"))
    has_vulkan = which("vulkaninfo") is not None or Path("/usr/share/vulkan/icd.d").is_dir()
    if has_display:
        platform = "X display " + env["DISPLAY"]
    elif has_vulkan:
        platform = "CloudRendering (headless Vulkan)"
    else:
        problems.append("No X display (DISPLAY is unset) and no Vulkan driver: run under Xvfb "
                        "(`Xvfb :0 -screen 0 1024x768x24 & export DISPLAY=:0`, or `xvfb-run`), or install a "
                        "Vulkan driver and use platform=CloudRendering (ai2thor >= 3.3).")
    return PreflightReport(ok=not problems, problems=problems, platform=platform)


class ThorKitchen:
    """AI2-THOR behind the KitchenSim interface.

    ``controller`` may be given (tests pass a fake); otherwise one is created lazily with
    ``ai2thor.controller.Controller(scene=..., visibilityDistance=1.5, gridSize=0.25, **kwargs)``.
    """

    def __init__(self, scene: str = "FloorPlan1", controller: Any = None, **controller_kwargs: Any):
        self.scene_name = scene
        if controller is None:
            from embodiedweb.extras import require

            require("ai2thor")
            report = preflight(controller_kwargs.get("local_executable_path"))
            if not report.ok:
                raise RuntimeError(report.message())
            from ai2thor.controller import Controller  # lazy: optional extra

            kwargs = {"scene": scene, "visibilityDistance": 1.5, "gridSize": 0.25, "renderObjectImage": False,
                      "renderDepthImage": True, "renderInstanceSegmentation": True}  # for first_person()
            kwargs.update(controller_kwargs)
            if report.platform.startswith("CloudRendering"):
                from ai2thor.platform import CloudRendering

                kwargs.setdefault("platform", CloudRendering)
            controller = Controller(**kwargs)
        self.controller = controller
        self.last_event = getattr(controller, "last_event", None)
        self.held: str | None = None

    # --------------------------------------------------------------------------------------- acting
    def step(self, action: str | dict[str, Any] | None = None, **kwargs: Any) -> Any:
        """Translate and forward one action; returns the AI2-THOR event."""
        if isinstance(action, dict):
            kwargs = {**action, **kwargs}
            action = kwargs.pop("action", None)
        if action == "Teleport" and "objectId" in kwargs:
            pose = self.interaction_pose(kwargs["objectId"])
            if pose is None:
                return self._fail("Teleport", f"No reachable position from which {kwargs['objectId']} is visible")
            x, z, rot, hor = pose
            y = self._meta()["agent"]["position"]["y"]
            event = self.controller.step(action="TeleportFull", x=x, y=y, z=z, rotation={"x": 0, "y": rot, "z": 0},
                                         horizon=hor, standing=True)
        else:
            name = ACTION_MAP.get(str(action), str(action))
            event = self.controller.step(action=name, **kwargs)
        self.last_event = event
        inv = event.metadata.get("inventoryObjects") or []
        self.held = inv[0]["objectId"] if inv else None
        return event

    def _fail(self, action: str, message: str) -> Any:
        from types import SimpleNamespace

        meta = dict(self._meta())
        meta.update(lastActionSuccess=False, errorMessage=message, lastAction=action)
        return SimpleNamespace(metadata=meta)

    def _meta(self) -> dict[str, Any]:
        ev = self.last_event if self.last_event is not None else self.controller.step(action="Pass")
        self.last_event = ev
        return ev.metadata

    def resolve(self, name: str, for_teleport: bool = False) -> str | None:
        """An objectId for an id or a type name (nearest visible instance first)."""
        objs = self._meta()["objects"]
        if any(o["objectId"] == name for o in objs):
            return name
        cands = [o for o in objs if o["objectType"].lower() == name.lower()]
        if not cands:
            return None
        key = (lambda o: (o["distance"], o["objectId"])) if for_teleport else \
            (lambda o: (not o.get("visible"), o["distance"], o["objectId"]))
        return min(cands, key=key)["objectId"]

    def interaction_pose(self, object_id: str) -> tuple[float, float, float, float] | None:
        """The reachable position nearest to the object, facing it, with a horizon pointing at it."""
        meta = self._meta()
        obj = next((o for o in meta["objects"] if o["objectId"] == object_id), None)
        if obj is None:
            return None
        ev = self.controller.step(action="GetReachablePositions")
        pts = (ev.metadata.get("actionReturn") or [])
        if not pts:
            return None
        p = obj["position"]
        best = min(pts, key=lambda q: (math.hypot(q["x"] - p["x"], q["z"] - p["z"]), q["x"], q["z"]))
        bearing = math.degrees(math.atan2(p["x"] - best["x"], p["z"] - best["z"])) % 360
        rot = float(round(bearing / 90.0) * 90 % 360)
        cam_y = meta.get("cameraPosition", {}).get("y", best.get("y", 0.9) + 0.675)
        pitch = math.degrees(math.atan2(cam_y - p["y"], max(math.hypot(p["x"] - best["x"], p["z"] - best["z"]), 1e-6)))
        hor = float(min((-30, 0, 30, 60), key=lambda v: abs(v - pitch)))
        return (best["x"], best["z"], rot, hor)

    def spawn_on_counter(self, object_type: str) -> str:
        """AI2-THOR cannot create objects of arbitrary types at run time."""
        raise NotImplementedError("The AI2-THOR backend cannot spawn delivered items; use the default kitchen "
                                  "backend for tasks with web deliveries.")

    # ---------------------------------------------------------------------------------- observing
    def scene_text(self) -> str:
        """The scene, the held object and the visible objects sorted by distance, as text."""
        meta = self._meta()
        lines = [f"Scene {meta.get('sceneName', self.scene_name)}; holding {self.held or 'nothing'}.",
                 "Visible objects (interactable):"]
        for o in sorted((o for o in meta["objects"] if o.get("visible")), key=lambda o: o["distance"]):
            parents = ", ".join(o.get("parentReceptacles") or []) or "-"
            lines.append(f"- {o['objectId']} ({o['objectType']}), {o['distance']:.2f} m; in/on {parents}")
        return "\n".join(lines)

    def render(self, size: tuple[int, int] = (300, 300)) -> np.ndarray:
        """The last frame resized to ``size`` (black when there is none)."""
        ev = self.last_event if self.last_event is not None else self.controller.step(action="Pass")
        frame = getattr(ev, "frame", None)
        if frame is None:
            return np.zeros((size[1], size[0], 3), dtype=np.uint8)
        from PIL import Image

        return np.asarray(Image.fromarray(np.asarray(frame, dtype=np.uint8)).resize(size), dtype=np.uint8)

    def first_person(self, size: tuple[int, int] = (300, 300), rgb: bool = True) -> Any:
        """AI2-THOR's own first-person frame of the last event, as an :class:`~.egocentric.Frame` at ``size``
        (w, h): RGB from ``event.frame`` (resized like :meth:`render`; ``None`` without ``rgb``), depth in
        metres from ``event.depth_frame`` and the instance mask from ``event.instance_segmentation_frame``
        (its colours mapped through ``event.color_to_object_id``), both resized by nearest pixel so no depth
        or id is blended. Mask values are 1 + the object's position in the metadata's object list, 0 for
        what is no object (``Frame.ids`` maps them). A frame the controller did not render (started without
        ``renderDepthImage`` / ``renderInstanceSegmentation``) comes back as zeros."""
        from .egocentric import Frame

        w, h = int(size[0]), int(size[1])
        ev = self.last_event if self.last_event is not None else self.controller.step(action="Pass")
        self.last_event = ev
        objs = (ev.metadata or {}).get("objects") or []
        value = {o["objectId"]: k + 1 for k, o in enumerate(objs)}
        ids = {0: "Room", **{v: oid for oid, v in value.items()}}
        image = self.render(size) if rgb else None
        depth_src = getattr(ev, "depth_frame", None)
        if depth_src is None:
            depth = np.zeros((h, w), np.float32)
        else:
            depth = np.ascontiguousarray(_nearest(np.asarray(depth_src, np.float32), w, h))
        seg = getattr(ev, "instance_segmentation_frame", None)
        if seg is None:
            mask = np.zeros((h, w), np.int32)
        else:
            seg = _nearest(np.asarray(seg, np.uint8), w, h).astype(np.int32)
            code = (seg[..., 0] << 16) | (seg[..., 1] << 8) | seg[..., 2]
            colors = getattr(ev, "color_to_object_id", None) or {}
            lut = {(int(c[0]) << 16) | (int(c[1]) << 8) | int(c[2]): value.get(oid, 0) for c, oid in colors.items()}
            found, inverse = np.unique(code, return_inverse=True)
            mask = np.array([lut.get(int(c), 0) for c in found], np.int32)[inverse].reshape(h, w)
        return Frame(image, depth, mask, ids)

    def stop(self) -> None:
        """Stop the AI2-THOR controller, if it can be stopped."""
        stop = getattr(self.controller, "stop", None)
        if callable(stop):
            stop()


def _nearest(img: np.ndarray, w: int, h: int) -> np.ndarray:
    """``img`` (H x W [x C]) resized to h x w by taking each output pixel's nearest source pixel."""
    rows = ((np.arange(h) + 0.5) * img.shape[0] / h).astype(np.int64).clip(0, img.shape[0] - 1)
    cols = ((np.arange(w) + 0.5) * img.shape[1] / w).astype(np.int64).clip(0, img.shape[1] - 1)
    return img[rows[:, None], cols[None, :]]


def make_backend(backend: str = "sim", scene: str = "kitchen_00", **kwargs: Any) -> Any:
    """``"sim"`` (default, pure Python) or ``"thor"`` (real AI2-THOR) with the same interface."""
    if backend == "thor":
        return ThorKitchen(scene=scene if scene.startswith("FloorPlan") else "FloorPlan1", **kwargs)
    from .kitchens import load_kitchen

    return load_kitchen(scene)
