"""First-person frames of a :class:`~.sim.KitchenSim`: RGB, depth and instance masks from the agent's eyes.

The camera is AI2-THOR's default agent camera: at the agent's eye (``sim.camera``: the agent's ``y``
plus :data:`~.geometry.CAMERA_OFFSET`, 1.575 m above the floor in the project's kitchens), turned by the
agent's rotation (yaw, 0 = +z) and pitched by its camera horizon (+ = down), with a 90 degree vertical
field of view (Unity's, hence AI2-THOR's, ``fieldOfView``). Depth is AI2-THOR's: metres along the camera's
forward axis (not along the ray). The instance mask holds ``obj.index + 1`` for every pixel showing a
simulator object (:func:`instance_ids` maps values to object ids; 0 is the room: floor, walls, ceiling).

How it draws. The scene is the simulator's own geometry: every active object's box (``center`` +/-
``half``, the very boxes the simulator's reach and visibility tests use) and a room box (from the kitchen's
``room`` entry: floor, four walls, ceiling). States change the boxes, as in AI2-THOR: an open
Fridge/Cabinet/Microwave shows its inside (a five-sided shell) and a door swung 90 degrees; an open Drawer
slides out with what it holds; a Sink, Pot, Pan, Bowl, Mug, Cup, Toaster or GarbageCan is open at the top;
a burner that is on (and its knob) glows red, a microwave that is on glows yellow through its door, a running faucet
pours water; slices are thin slabs; cooked food is browned; the held object floats in front of the
camera, low and to the right. Objects inside a closed receptacle are not drawn (they cannot be seen).

Why a numpy ray caster. Each pixel's ray is intersected with boxes by the slab test, vectorised over the
pixels of each box's screen rectangle (the box's projection, clipped to the near plane, bounds it) with a
z-buffer; the room is one closed-form pass. It needs no OpenGL/EGL context, no GPU, no display and no
compiled extension, so it runs headless anywhere numpy does (CI, containers, ``SubprocVecEnv`` workers);
it is deterministic to the bit for a given state and pose; and it draws from the same boxes the
simulator reasons with, so what the agent sees and what it may interact with cannot drift apart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from . import geometry, vocab

if TYPE_CHECKING:
    from .objects import SimObject
    from .sim import KitchenSim

FOV_DEG = geometry.FOV_DEG  # vertical field of view, as AI2-THOR's fieldOfView
ROOM_HEIGHT = 2.6
NEAR = 0.02
HELD_OFFSET = (0.14, -0.16, 0.42)  # right, up, forward (m) from the camera: where the held object shows

_CONTAINERS = frozenset({"SinkBasin", "Sink", "Pot", "Pan", "Bowl", "Cup", "Mug", "GarbageCan", "Toaster"})
_SHELLS = frozenset({"Fridge", "Microwave", "Cabinet", "Safe", "Box"})

_COLORS: dict[str, tuple[int, int, int]] = {
    "CounterTop": (190, 185, 175), "DiningTable": (150, 105, 65), "Cabinet": (176, 138, 96),
    "Drawer": (186, 148, 104), "Fridge": (215, 220, 225), "Microwave": (60, 60, 65), "StoveBurner": (40, 40, 42),
    "StoveKnob": (20, 20, 20), "Sink": (200, 205, 210), "SinkBasin": (175, 182, 190), "Faucet": (160, 165, 170),
    "Toaster": (185, 185, 190), "CoffeeMachine": (45, 45, 50), "GarbageCan": (90, 95, 90), "Shelf": (160, 120, 80),
    "Apple": (200, 30, 35), "Tomato": (225, 50, 30), "Lettuce": (90, 180, 60), "Potato": (170, 130, 80),
    "Bread": (200, 150, 90), "Egg": (245, 240, 225), "Knife": (200, 200, 210), "ButterKnife": (210, 210, 215),
    "Fork": (190, 190, 200), "Spoon": (190, 190, 200), "Spatula": (40, 40, 40), "Ladle": (170, 170, 180),
    "Pan": (55, 55, 60), "Pot": (120, 125, 130), "Kettle": (200, 60, 50), "Plate": (245, 245, 240),
    "Bowl": (90, 140, 200), "Mug": (240, 200, 60), "Cup": (170, 210, 230), "SaltShaker": (235, 235, 235),
    "PepperShaker": (70, 60, 50), "DishSponge": (240, 220, 60), "LightSwitch": (240, 240, 235),
    "Window": (170, 210, 240),
}
# the flesh of a slice (what a cut shows)
_SLICE_COLORS: dict[str, tuple[int, int, int]] = {
    "AppleSliced": (240, 225, 170), "TomatoSliced": (235, 80, 60), "LettuceSliced": (150, 210, 110),
    "PotatoSliced": (235, 215, 150), "BreadSliced": (235, 205, 150), "EggCracked": (250, 200, 40),
}
_ROOM_COLORS = np.array([(150, 120, 90), (235, 235, 230), (214, 208, 190), (206, 200, 182), (222, 216, 198),
                         (200, 194, 176)], np.float32)  # floor, ceiling, -x, +x, -z, +z walls
_BROWN = np.array((95, 55, 25), np.float32)
_GLOW_BURNER = (255, 70, 20)
_GLOW_MICROWAVE = (255, 220, 110)
_WATER = (120, 180, 255)
# brightness of a face hit from the side given by face code axis*2 + (ray direction > 0 on that axis)
_SHADE = np.array([0.80, 0.66, 0.98, 0.55, 0.90, 0.74], np.float32)
_PALETTE_SEED = 7


@dataclass
class Frame:
    """One first-person frame: ``rgb`` (uint8 H x W x 3), ``depth`` (float32 H x W, metres along the camera's
    forward axis), ``mask`` (int32 H x W: ``obj.index + 1``, 0 = room; None when drawn without masks) and
    ``ids`` (mask value -> objectId)."""

    rgb: np.ndarray | None
    depth: np.ndarray
    mask: np.ndarray | None
    ids: dict[int, str]

    def pixel_counts(self) -> dict[str, int]:
        """Pixels per object id shown in the frame."""
        if self.mask is None:
            raise ValueError("this frame was drawn without masks (render_frame(..., masks=False))")
        vals, counts = np.unique(self.mask, return_counts=True)
        return {self.ids[int(v)]: int(c) for v, c in zip(vals.tolist(), counts.tolist(), strict=True)
                if v in self.ids and v != 0}


# ------------------------------------------------------------------------------------------ camera
@lru_cache(maxsize=32)
def _rays(rot: float, hor: float, w: int, h: int) -> tuple[np.ndarray, ...]:
    """Per-pixel ray directions (forward component 1, so ray ``t`` is depth), their inverses, whether each
    runs towards + on each axis, and those three as bits of one int8."""
    fwd, right, up = geometry.camera_axes(rot, hor)
    tan = math.tan(math.radians(FOV_DEG / 2.0))
    xs = ((np.arange(w, dtype=np.float64) + 0.5) / w * 2 - 1) * tan * (w / h)
    ys = (1 - (np.arange(h, dtype=np.float64) + 0.5) / h * 2) * tan
    d = fwd[None, None, :] + xs[None, :, None] * right[None, None, :] + ys[:, None, None] * up[None, None, :]
    d = d.astype(np.float32)
    with np.errstate(divide="ignore"):
        inv = (1.0 / d).astype(np.float32)
    dx, dy, dz = (np.ascontiguousarray(d[..., k]) for k in range(3))
    ix, iy, iz = (np.ascontiguousarray(inv[..., k]) for k in range(3))
    pos = tuple(np.ascontiguousarray(d[..., k] > 0) for k in range(3))
    bits = (pos[0].view(np.int8) | (pos[1].view(np.int8) << 1) | (pos[2].view(np.int8) << 2)).astype(np.int8)
    return (dx, dy, dz, ix, iy, iz, *pos, bits)


@lru_cache(maxsize=32)
def _exit_factors(rot: float, hor: float, w: int, h: int) -> tuple[np.ndarray, ...]:
    """Per axis, the inverse ray direction where the ray runs towards + on it, else 0, then where it does not,
    else 0 (six H x W float32 arrays: the room's exit ``t`` on an axis is ``(hi - c) * plus + (lo - c) *
    minus``, two products and a sum, several times faster than choosing the plane per pixel first), then
    twice the x and z ray directions (the floor tiles)."""
    dx, _dy, dz, ix, iy, iz, px, py, pz, _bits = _rays(rot, hor, w, h)
    zero = np.float32(0)
    return (*(a for inv, pos in ((ix, px), (iy, py), (iz, pz))
              for a in (np.where(pos, inv, zero), np.where(pos, zero, inv))), dx * 2, dz * 2)


@lru_cache(maxsize=32)
def _inv3(rot: float, hor: float, w: int, h: int) -> np.ndarray:
    """The inverse ray directions of :func:`_rays` stacked: 3 x H x W float32."""
    return np.ascontiguousarray(np.stack(_rays(rot, hor, w, h)[3:6]))


def camera_pose(sim: KitchenSim) -> tuple[np.ndarray, float, float]:
    """(camera position, rotation, horizon) of the agent's eye."""
    return np.array(sim.camera, dtype=np.float64), float(sim.rot), float(sim.hor)


# ------------------------------------------------------------------------------------------ scene
@lru_cache(maxsize=64)
def _room_of_scene(scene_name: str) -> tuple[float, float] | None:
    from .kitchens import kitchen_scene

    try:
        room = kitchen_scene(scene_name).get("room") or {}
    except (KeyError, OSError, ValueError):
        return None
    if "width" in room and "depth" in room:
        return float(room["width"]), float(room["depth"])
    return None


def room_box(sim: KitchenSim) -> tuple[np.ndarray, np.ndarray]:
    """The room's (lo, hi) corners: the kitchen's ``room`` entry, else the objects' and floor's bounds."""
    dims = _room_of_scene(sim.scene_name)
    if dims is not None:
        w, d = dims
        lo, hi = np.array([-w / 2, 0.0, -d / 2]), np.array([w / 2, ROOM_HEIGHT, d / 2])
    else:
        pts = [np.array(o.center) + s * np.array(o.half) for o in sim.active_objects() for s in (-1, 1)]
        pts += [np.array([x, 0.0, z]) for x, z in sim.reachable]
        allp = np.array(pts).reshape(-1, 3)
        lo, hi = allp.min(axis=0) - 0.05, allp.max(axis=0) + 0.05
        lo[1], hi[1] = 0.0, max(ROOM_HEIGHT, hi[1])
    cam = np.array(sim.camera)  # the camera is always inside the room
    return np.minimum(lo, cam - 0.1), np.maximum(hi, cam + 0.1)


def _tint(c: tuple[int, int, int] | np.ndarray, toward: np.ndarray, a: float) -> np.ndarray:
    return np.asarray(c, np.float32) * (1 - a) + toward * a


def object_color(o: SimObject) -> np.ndarray:
    """Base colour of an object in its current state (cooked browns, dirty darkens, broken greys)."""
    s = o.state
    return _state_color(o.object_type, bool(s.get("isCooked")), bool(s.get("isDirty")), bool(s.get("isBroken"))).copy()


@lru_cache(maxsize=1024)
def _state_color(t: str, cooked: bool, dirty: bool, broken: bool) -> np.ndarray:
    c = np.asarray(_SLICE_COLORS.get(t) or _COLORS.get(t) or _COLORS.get(vocab.base_type(t)) or _hash_color(t),
                   np.float32)
    if cooked:
        c = _tint(c, _BROWN, 0.55)
    if dirty:
        c = _tint(c, np.array((110, 90, 50), np.float32), 0.35)
    if broken:
        c = _tint(c, np.array((90, 90, 90), np.float32), 0.5)
    c.flags.writeable = False
    return c


def _hash_color(name: str) -> tuple[int, int, int]:
    h = sum((i + 1) * ord(ch) for i, ch in enumerate(name)) * 2654435761 % (1 << 24)
    return (64 + (h & 0x7F), 64 + ((h >> 8) & 0x7F), 64 + ((h >> 16) & 0x7F))


def _front(yaw: float) -> tuple[int, int]:
    """(axis, sign) of the direction an object faces (yaw 0 = +z, 90 = +x)."""
    s, c = math.sin(math.radians(yaw)), math.cos(math.radians(yaw))
    return (0, 1 if s > 0 else -1) if abs(s) > abs(c) else (2, 1 if c > 0 else -1)


Vec = list[float]


def _shell(lo: Vec, hi: Vec, open_axis: int, open_sign: int, wall: float) -> list[tuple[Vec, Vec]]:
    """Five thin boxes: a box ``lo..hi`` without its face at ``open_sign`` on ``open_axis``."""
    parts = []
    for ax in range(3):
        th = min(wall, (hi[ax] - lo[ax]) * 0.25)
        for sgn in (-1, 1):
            if ax == open_axis and sgn == open_sign:
                continue
            a, b = lo[:], hi[:]
            if sgn < 0:
                b[ax] = lo[ax] + th
            else:
                a[ax] = hi[ax] - th
            parts.append((a, b))
    return parts


def _door(lo: Vec, hi: Vec, axis: int, sign: int, thick: float) -> tuple[Vec, Vec]:
    """The front door of ``lo..hi`` swung 90 degrees open on its hinge (the low edge of the other floor axis)."""
    other = 2 if axis == 0 else 0
    face = hi[axis] if sign > 0 else lo[axis]
    width = hi[other] - lo[other]
    a, b = lo[:], hi[:]
    a[other], b[other] = lo[other] - thick, lo[other]
    a[axis], b[axis] = (face, face + width) if sign > 0 else (face - width, face)
    return a, b


_BLACK = np.zeros(3, np.float32)


def scene_boxes(sim: KitchenSim) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The boxes drawn for the current state: ``lo`` (M x 3), ``hi`` (M x 3), mask value (M,) and colour (M x 3).

    Hidden objects (inside closed receptacles) and inactive ones (sliced away) are left out; the held
    object (and what it holds) is moved to :data:`HELD_OFFSET` in front of the camera."""
    return _scene_boxes(sim, None)


def _scene_boxes(sim: KitchenSim, behind: tuple[Vec, Vec] | None) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                         np.ndarray]:
    """:func:`scene_boxes`; with ``behind = (camera, forward axis)`` an object whose boxes all lie behind the
    camera's near plane is left out (it cannot show). The test is on a ball around the object's centre
    holding every box drawn for it (open doors and drawers, water, slices): radius 3 x the sum of its half
    extents + 0.35 m, kept 1 micrometre clear of the plane, so no object that could reach a pixel is dropped.

    The boxes of everything but the held object (and what it holds) are built once per ``sim.scene_version``
    (which the agent's moves, turns and looks leave alone) and cached on the simulator; the held ones follow
    the camera, so they are built for every frame. Both are put back in the simulator's object order, so
    the frame is the same bit for bit as when everything is built anew."""
    key = (sim.scene_version, sim.held)
    cached = sim.__dict__.get("_ego_boxes")
    if cached is None or cached[0] != key:
        cached = (key, _still_boxes(sim))
        sim.__dict__["_ego_boxes"] = cached
    lo, hi, vals, cols, cen, reach, order = cached[1]
    held = sim.held
    if held is not None:  # built anew: it moves with the camera
        ho = sim.objects[held]
        tree = [ho, *sim.descendants(ho)]
        fwd, right, up = geometry.camera_axes(sim.rot, sim.hor)
        anchor = np.array(sim.camera) + HELD_OFFSET[0] * right + HELD_OFFSET[1] * up + HELD_OFFSET[2] * fwd
        shift = (anchor - np.array(ho.center)).tolist()
        rows = _Rows()
        for o in sorted(tree, key=lambda t: t.index):
            if not o.active:
                continue
            c = [float(v) for v in o.center]
            c = [c[0] + shift[0], c[1] + shift[1], c[2] + shift[2]]
            _object_boxes(sim, o, c, [float(v) for v in o.half], rows)
        if rows.lo:
            h_lo, h_hi, h_vals, h_cols, h_cen, h_reach, h_order = rows.arrays()
            # back in the simulator's object order (a stable sort: the still boxes first within nothing,
            # as one object is either held or not)
            at = np.argsort(np.concatenate([order, h_order]), kind="stable")
            lo, hi = np.concatenate([lo, h_lo])[at], np.concatenate([hi, h_hi])[at]
            vals, cols = np.concatenate([vals, h_vals])[at], np.concatenate([cols, h_cols])[at]
            cen, reach = np.concatenate([cen, h_cen])[at], np.concatenate([reach, h_reach])[at]
    if behind is not None and len(lo):
        (cam_x, cam_y, cam_z), (f_x, f_y, f_z) = behind
        # the same sum, term by term, as one object's test in plain floats
        ahead = (cen[:, 0] - cam_x) * f_x + (cen[:, 1] - cam_y) * f_y + (cen[:, 2] - cam_z) * f_z + reach
        keep = ahead >= NEAR - 1e-6
        if not keep.all():
            lo, hi, vals, cols = lo[keep], hi[keep], vals[keep], cols[keep]
    if not len(lo):
        z = np.zeros((0, 3))
        return z, z, np.zeros(0, np.int32), np.zeros((0, 3), np.float32)
    return lo, hi, vals, cols


class _Rows:
    """Boxes as they are built: corners, mask value, colour, and the owning object's centre, reach and order."""

    def __init__(self) -> None:
        self.lo: list[Vec] = []
        self.hi: list[Vec] = []
        self.vals: list[int] = []
        self.cols: list[Any] = []
        self.cen: list[Vec] = []
        self.reach: list[float] = []
        self.order: list[int] = []

    def packed(self) -> np.ndarray:
        """The boxes as one float64 array, a row per box: lo (3), hi (3), centre (3), colour (3), value, reach,
        order (the values and colours are small integers and exact in float64)."""
        n = len(self.lo)
        out = np.empty((n, 15), np.float64)
        if n:
            out[:, 0:3] = self.lo
            out[:, 3:6] = self.hi
            out[:, 6:9] = self.cen
            out[:, 9:12] = np.array(self.cols, np.float32).reshape(-1, 3)
            out[:, 12] = self.vals
            out[:, 13] = self.reach
            out[:, 14] = self.order
        return out

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The boxes as read-only arrays (they are cached: a caller writing into one would change later frames)."""
        out = (np.array(self.lo, np.float64).reshape(-1, 3), np.array(self.hi, np.float64).reshape(-1, 3),
               np.array(self.vals, np.int32), np.array(self.cols, np.float32).reshape(-1, 3),
               np.array(self.cen, np.float64).reshape(-1, 3), np.array(self.reach, np.float64),
               np.array(self.order, np.int64))
        for a in out:
            a.flags.writeable = False
        return out


def _still_boxes(sim: KitchenSim) -> tuple[np.ndarray, ...]:
    """The boxes of every drawn object but the held one and what it holds (see :func:`_scene_boxes`).

    Each object's own boxes are kept with what they were built from (its centre, after an open drawer's
    slide, size, yaw, state and the type of what holds it). After steps, only the objects the simulator says
    they changed (``sim.changed_objects``: what an action touched, and what that holds and what holds it) are
    looked at again; after :meth:`KitchenSim.scene_changed` every object is."""
    held_tree: set[str] = set()
    if sim.held is not None:
        ho = sim.objects[sim.held]
        held_tree = {sim.held, *(d.object_id for d in sim.descendants(ho))}
    objects = sim.objects
    # index -> (key, its boxes packed, or None when it is not drawn: inactive or hidden)
    memo: dict[int, tuple[Any, np.ndarray | None]] = sim.__dict__.setdefault("_ego_objects", {})
    look = sim.changed_objects if memo else None  # the objects to look at again (None: all)
    sim.changed_objects = set()
    parts = []
    for o in sim._order:
        if o.object_id in held_tree:  # drawn apart; looked at again once put down
            memo.pop(o.index, None)
            continue
        if look is not None and o.index not in look:
            hit = memo.get(o.index)
            if hit is not None:
                if hit[1] is not None:
                    parts.append(hit[1])
                continue
        if not o.active or (o.parent is not None and sim.is_hidden(o)):
            memo[o.index] = (None, None)
            continue
        parent_type = None
        c = list(o.center)  # floats (a numpy float64 would draw the same: the values are the same)
        if o.parent is not None:
            parent_type = objects[o.parent].object_type
            p = o.parent
            while p is not None:  # an open drawer slides out with what it holds
                r = objects[p]
                if r.object_type == "Drawer" and r.state.get("isOpen"):
                    ax, sgn = _front(r.yaw)
                    c[ax] += sgn * r.half[ax] * 1.6
                p = r.parent
        key = (c, tuple(o.half), o.yaw, o.object_type, tuple(o.state.values()), parent_type)
        hit = memo.get(o.index)
        if hit is None or hit[1] is None or hit[0] != key:
            rows = _Rows()
            _object_boxes(sim, o, c, [float(v) for v in o.half], rows)
            hit = memo[o.index] = (key, rows.packed())
        parts.append(hit[1])
    packed = np.concatenate(parts) if parts else _Rows().packed()
    out = (packed[:, 0:3], packed[:, 3:6], packed[:, 12].astype(np.int32), packed[:, 9:12].astype(np.float32),
           packed[:, 6:9], packed[:, 13], packed[:, 14].astype(np.int64))
    for a in out:
        a.flags.writeable = False
    return out


def _object_boxes(sim: KitchenSim, o: SimObject, c: Vec, h: Vec, rows: _Rows) -> None:
    """Append the boxes drawn for object ``o`` centred at ``c`` with half extents ``h``."""
    objects = sim.objects
    val = o.index + 1
    t, s = o.object_type, o.state
    reach = 3.0 * (h[0] + h[1] + h[2]) + 0.35
    if t in vocab.SLICES:
        reach += 3.0 * sum(vocab.half_size(vocab.base_type(t)))
    n0 = len(rows.lo)
    put_lo, put_hi, put_val, put_col = rows.lo.append, rows.hi.append, rows.vals.append, rows.cols.append
    lo = [c[0] - h[0], c[1] - h[1], c[2] - h[2]]
    hi = [c[0] + h[0], c[1] + h[1], c[2] + h[2]]
    col = object_color(o)
    if t in _SHELLS and s.get("isOpen"):
        ax, sgn = _front(o.yaw)
        inner = _tint(col, _BLACK, 0.25)
        if t == "Microwave" and s.get("isToggled"):
            inner = _GLOW_MICROWAVE
        for a, b in _shell(lo, hi, ax, sgn, 0.03):
            put_lo(a), put_hi(b), put_val(val), put_col(inner)
        a, b = _door(lo, hi, ax, sgn, 0.03)
        put_lo(a), put_hi(b), put_val(val), put_col(col)
    elif t == "Drawer" and s.get("isOpen"):
        ax, sgn = _front(o.yaw)
        lo2, hi2 = lo[:], hi[:]
        lo2[ax] += sgn * h[ax] * 1.6
        hi2[ax] += sgn * h[ax] * 1.6
        inner = _tint(col, _BLACK, 0.15)
        for a, b in _shell(lo2, hi2, 1, 1, 0.015):
            put_lo(a), put_hi(b), put_val(val), put_col(inner)
    elif t in _CONTAINERS:
        wall = 0.012 if max(h) < 0.2 else 0.03
        inner = col
        if t == "Toaster" and s.get("isToggled"):
            inner = _GLOW_BURNER
        for k, (a, b) in enumerate(_shell(lo, hi, 1, 1, wall)):
            put_lo(a), put_hi(b), put_val(val), put_col(inner if k == 0 else col)
    elif t in vocab.SLICES and t != "EggCracked":
        ax = 0 if abs(math.cos(math.radians(o.yaw))) >= abs(math.sin(math.radians(o.yaw))) else 2
        base = vocab.half_size(vocab.base_type(t))
        hh = [float(base[0]), float(base[1]), float(base[2])]
        hh[ax] = 0.007
        hh[1] = min(hh[1], 0.9 * base[1])
        if t == "BreadSliced" and o.parent is not None and objects[o.parent].object_type == "Toaster":
            hh = [0.007, base[1], base[2]] if ax == 2 else [base[0], base[1], 0.007]
        put_lo([c[0] - hh[0], c[1] - hh[1], c[2] - hh[2]]), put_hi([c[0] + hh[0], c[1] + hh[1], c[2] + hh[2]])
        put_val(val), put_col(col)
    else:
        if t in ("StoveBurner", "StoveKnob") and s.get("isToggled"):
            col = _GLOW_BURNER
        elif t == "CoffeeMachine" and s.get("isToggled"):
            col = _tint(col, np.array((255, 60, 40), np.float32), 0.3)
        put_lo(lo), put_hi(hi), put_val(val), put_col(col)
        if t == "Microwave" and s.get("isToggled") and not s.get("isOpen"):
            ax, sgn = _front(o.yaw)
            a, b = [v + 0.03 for v in lo], [v - 0.03 for v in hi]
            a[ax], b[ax] = (hi[ax], hi[ax] + 0.004) if sgn > 0 else (lo[ax] - 0.004, lo[ax])
            put_lo(a), put_hi(b), put_val(val), put_col(_GLOW_MICROWAVE)
        if t == "Faucet" and s.get("isToggled"):
            ax, sgn = _front(o.yaw)
            spout = c[:]
            spout[ax] += sgn * h[ax] * 0.9
            a = [spout[0] - 0.015, spout[1] - 0.0, spout[2] - 0.015]
            b = [spout[0] + 0.015, spout[1] + 0.0, spout[2] + 0.015]
            a[1], b[1] = max(c[1] - 0.3, 0.0), c[1] - h[1] * 0.3
            put_lo(a), put_hi(b), put_val(val), put_col(_WATER)
    n = len(rows.lo) - n0
    rows.cen.extend([c] * n)
    rows.reach.extend([reach] * n)
    rows.order.extend([o.index] * n)


def instance_ids(sim: KitchenSim) -> dict[int, str]:
    """Mask value -> objectId (0 -> ``"Room"``: floor, walls and ceiling)."""
    out = {0: "Room"}
    for o in sim._order:
        out[o.index + 1] = o.object_id
    return out


def instance_colors(sim: KitchenSim) -> dict[str, tuple[int, int, int]]:
    """objectId -> a distinct RGB colour for showing masks (AI2-THOR's ``object_id_to_color``)."""
    return {oid: _value_color(v) for v, oid in instance_ids(sim).items()}


def _value_color(v: int) -> tuple[int, int, int]:
    if v == 0:
        return (0, 0, 0)
    h = (v * 2654435761 + _PALETTE_SEED) % (1 << 24)
    return (40 + (h & 0xFF) % 216, 40 + ((h >> 8) & 0xFF) % 216, 40 + ((h >> 16) & 0xFF) % 216)


def mask_to_rgb(mask: np.ndarray) -> np.ndarray:
    """A colour picture of an instance mask (each value its own colour, 0 black)."""
    top = int(mask.max()) + 1 if mask.size else 1
    lut = np.array([_value_color(v) for v in range(top)], np.uint8)
    return lut[mask]


# ------------------------------------------------------------------------------------------ drawing
_CORNERS = np.array([[(k >> a) & 1 for a in range(3)] for k in range(8)], bool)  # the 8 corners of a box
# its 12 edges: corner pairs differing in one bit
_EDGES = (np.array([k for k in range(8) for a in range(3) if not (k >> a) & 1]),
          np.array([k | (1 << a) for k in range(8) for a in range(3) if not (k >> a) & 1]))
@lru_cache(maxsize=8)
def _bounds(w: int, h: int) -> np.ndarray:
    return np.array([h, h, w, w], np.float64)


def _screen_rects(cam: np.ndarray, rot: float, hor: float, lo: np.ndarray, hi: np.ndarray, w: int,
                  h: int) -> np.ndarray:
    """Per box, the pixel rectangle [r0, r1, c0, c1) that can show it (empty when out of view). Call it under
    ``np.errstate(divide="ignore", invalid="ignore")`` (:func:`render_frame` does): an edge in the near plane
    divides 0 by 0, and that edge is not used."""
    n = len(lo)
    rects = np.zeros((n, 4), np.int64)
    fwd, right, up = geometry.camera_axes(rot, hor)
    # a box wholly behind the near plane cannot show: its rectangle stays empty (the margin leaves the
    # boxes at the plane, where rounding could go either way, to the exact test below)
    far_corner = np.where(fwd > 0, hi, lo) - cam
    keep = np.nonzero(far_corner @ fwd >= NEAR - 1e-9)[0]
    if len(keep) == 0:
        return rects
    lo, hi = lo[keep], hi[keep]
    corners = np.where(_CORNERS[None], hi[:, None, :], lo[:, None, :]) - cam  # n x 8 x 3
    zc, xc, yc = corners @ fwd, corners @ right, corners @ up
    # 12 edges: corner pairs differing in one bit
    e0, e1 = _EDGES
    za, zb = zc[:, e0], zc[:, e1]
    cross = (za - NEAR) * (zb - NEAR) < 0
    s = np.where(cross, (NEAR - za) / (zb - za), 0.0)
    xe = xc[:, e0] + s * (xc[:, e1] - xc[:, e0])
    ye = yc[:, e0] + s * (yc[:, e1] - yc[:, e0])
    f = (h / 2.0) / math.tan(math.radians(FOV_DEG / 2.0))
    front = zc >= NEAR
    valid = np.concatenate([front, cross], 1)
    ok = valid.any(axis=1)
    if ok.any():
        u = np.concatenate([xc / np.maximum(zc, NEAR), xe / NEAR], 1)[ok]
        v = np.concatenate([yc / np.maximum(zc, NEAR), ye / NEAR], 1)[ok]
        valid = valid[ok]
        inf = np.float64(np.inf)
        umin, umax = np.where(valid, u, inf).min(1), np.where(valid, u, -inf).max(1)
        vmin, vmax = np.where(valid, v, inf).min(1), np.where(valid, v, -inf).max(1)
        c0 = np.floor(w / 2.0 + f * umin) - 1
        c1 = np.ceil(w / 2.0 + f * umax) + 1
        r0 = np.floor(h / 2.0 - f * vmax) - 1
        r1 = np.ceil(h / 2.0 - f * vmin) + 1
        out = np.empty((len(r0), 4))
        out[:, 0], out[:, 1], out[:, 2], out[:, 3] = r0, r1, c0, c1
        np.maximum(out, 0.0, out=out)
        rects[keep[ok]] = np.minimum(out, _bounds(w, h), out=out)
    return rects


def _room_lut() -> np.ndarray:
    """For ``code = ray sign bits (x, y, z) | leaves by floor or ceiling << 3 | by an x wall before a z wall << 4``:
    the room face (0..5: floor, ceiling, -x, +x, -z, +z walls) and 4 x its face code (2 * axis + ray
    runs towards + on that axis): the shade code without its floor tile and outline bits (see :func:`_shade`)."""
    lut = np.zeros((32, 2), np.int8)
    for code in range(32):
        px, py, pz, y_first, x_first = ((code >> k) & 1 for k in range(5))
        if y_first:
            face = 1 if py else 0
        elif x_first:
            face = 3 if px else 2
        else:
            face = 5 if pz else 4
        axis = (1, 1, 0, 0, 2, 2)[face]
        lut[code] = (face, 4 * (2 * axis + (px, py, pz)[axis]))
    return lut


_ROOM_LUT = _room_lut()
_ROOM_FACE = _ROOM_LUT[:, 0].astype(np.int32)
_ROOM_FACE2 = np.ascontiguousarray(_ROOM_LUT[:, 1])


def render_frame(sim: KitchenSim, size: tuple[int, int] = (300, 300), rgb: bool = True, masks: bool = True) -> Frame:
    """Draw the agent's first-person view: RGB (when ``rgb``), depth and instance mask (when ``masks``, or
    when not ``rgb``) at ``size`` (w, h)."""
    # a ray exactly parallel to a face (the middle column or row of an odd size) meets it at 0 * inf: such
    # a slab test is NaN and never hits, as intended; numpy's warning about it is noise (as are those of
    # _screen_rects)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _render_frame(sim, int(size[0]), int(size[1]), rgb, masks or not rgb)


def _room_layer(sim: KitchenSim, cam: np.ndarray, rot: float, hor: float, w: int, h: int,
                rgb: bool) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """The room alone as seen from the pose: (depth, bidx, face2); bidx and face2 (see :func:`_render_frame`)
    only with ``rgb``. Fresh arrays the caller draws the scene into.

    The room depends on the pose alone, so the layer of the simulator's last pose is kept on it: the frame
    after an object action, which leaves the agent where it was, copies it instead of tracing the room again."""
    rlo, rhi = room_box(sim)
    key = (cam.tobytes(), rot, hor, w, h, rgb, rlo.tobytes(), rhi.tobytes())
    cached = sim.__dict__.get("_ego_room")
    if cached is not None and cached[0] == key:
        return tuple(None if a is None else a.copy() for a in cached[1])  # type: ignore[return-value]
    bits = _rays(rot, hor, w, h)[-1]
    cx, cy, cz = (np.float32(v) for v in cam)
    # the exit point of each ray from the room box
    xp, xm, yp, ym, zp, zm, dx2, dz2 = _exit_factors(rot, hor, w, h)
    tx = xp * (np.float32(rhi[0]) - cx)
    tx += xm * (np.float32(rlo[0]) - cx)
    ty = yp * (np.float32(rhi[1]) - cy)
    ty += ym * (np.float32(rlo[1]) - cy)
    tz = zp * (np.float32(rhi[2]) - cz)
    tz += zm * (np.float32(rlo[2]) - cz)
    txz = np.minimum(tx, tz)
    depth = np.minimum(txz, ty)
    bidx = face2 = None
    if rgb:
        sel = bits.view(np.uint8).copy()
        sel |= np.less_equal(ty, txz).view(np.uint8) << 3
        sel |= np.less_equal(tx, tz).view(np.uint8) << 4
        sel = sel.astype(np.intp)  # once: take() would convert the index for each table
        bidx = _ROOM_FACE.take(sel)
        face2 = _ROOM_FACE2.take(sel)
        # floor tiles: 0.5 m squares, from where each ray meets the room (only rows where the floor shows)
        rows = np.flatnonzero((bidx == 0).any(axis=1))
        if len(rows):
            a, b = int(rows[0]), int(rows[-1]) + 1
            dsub = depth[a:b]
            # (c + t * d) * 2 == 2 * c + t * (2 * d) exactly (doubling is exact in floating point)
            fx = dsub * dx2[a:b]
            fx += 2 * cx
            fz = dsub * dz2[a:b]
            fz += 2 * cz
            fx = np.floor(fx, out=fx).astype(np.int32)
            fx += np.floor(fz, out=fz).astype(np.int32)
            fx <<= 1
            fx &= 2  # the darker tile: the shade code's tile bit
            fsub = face2[a:b]
            fsub += np.where(bidx[a:b] == 0, fx, 0).astype(np.int8)
    layer = (depth, bidx, face2)
    sim.__dict__["_ego_room"] = (key, tuple(None if a is None else a.copy() for a in layer))
    return layer


def _render_frame(sim: KitchenSim, w: int, h: int, rgb: bool, masks: bool = True) -> Frame:
    cam, rot, hor = camera_pose(sim)
    # rgb: bidx, the box index buffer (0..5 room faces: floor, ceiling, -x, +x, -z, +z; 6+ scene boxes)
    # and face2, the shade code of each pixel without its outline bit: 4 x the code of the face the ray
    # ends on (2 * axis + ray runs towards + on that axis), plus 2 on the darker floor tiles (see _shade).
    # Without rgb only the mask is kept.
    depth, bidx, face2 = _room_layer(sim, cam, rot, hor, w, h, rgb)
    fwd64 = geometry.camera_axes(rot, hor)[0]
    lo, hi, vals, cols = _scene_boxes(sim, (cam.tolist(), fwd64.tolist()))
    rects = _screen_rects(cam, rot, hor, lo, hi, w, h)
    vals32 = vals.astype(np.int32)
    if bidx is not None:
        buf, put_vals = bidx, np.arange(6, 6 + len(vals), dtype=np.int32)
    else:
        buf, put_vals = np.zeros((h, w), np.int32), vals32
    lo32, hi32 = (lo - cam).astype(np.float32), (hi - cam).astype(np.float32)
    # per axis: +1 when the box lies wholly on the + side of the camera, -1 on the - side, 0 when the
    # camera is within its extent (then that axis cannot be the entry face)
    side = np.where(lo32 > 0, 1, np.where(hi32 < 0, -1, 0))
    gap = np.sqrt((np.maximum(np.maximum(lo32, -hi32), 0) ** 2).sum(axis=1))
    ray_max = math.sqrt(1 + 2 * math.tan(math.radians(FOV_DEG / 2.0)) ** 2 * max(1.0, w / h) ** 2)
    need_near = gap <= NEAR * ray_max  # only then can an entry point be nearer than the near plane
    drawable = (rects[:, 1] > rects[:, 0]) & (rects[:, 3] > rects[:, 2]) & (side != 0).any(axis=1)
    # near to far, so a box wholly behind what is already drawn in its rectangle is skipped with one test
    fwd = fwd64.astype(np.float32)
    zmin = np.where(fwd > 0, lo32, hi32) @ fwd  # the box's smallest depth
    order = np.nonzero(drawable)[0]
    order = order[np.argsort(zmin[order], kind="stable")]
    near_f = np.float32(NEAR)
    inv3 = _inv3(rot, hor, w, h)
    # per box and axis the slab's entry (near) and exit (far) plane, relative to the camera: rays that meet
    # a box on the + side run towards +, so enter at lo and leave at hi (the - side: the other way round);
    # an axis the camera lies within has no entry plane, its exit is the larger of the two
    # (both in one array: one product per box gives the 3 entry and the 3 exit planes' t)
    c_planes = np.stack([np.where(side > 0, lo32, hi32), np.where(side > 0, hi32, lo32)], 1)[order, :, :, None, None]
    codes = np.where(side > 0, 8 * np.arange(3) + 4, 8 * np.arange(3))[order].tolist()
    for k, (zk, rect, sk, put_k, near_k) in enumerate(zip(
            zmin[order].tolist(), rects[order].tolist(), side[order].tolist(), put_vals[order].tolist(),
            need_near[order].tolist(), strict=True)):
        r0, r1, c0, c1 = rect
        zsub = depth[r0:r1, c0:c1]
        if zk >= zsub.max():
            continue
        sub3 = inv3[:, r0:r1, c0:c1]
        near3, far3 = c_planes[k] * sub3
        nz = [ax for ax in range(3) if sk[ax]]
        if len(nz) < 3:
            for ax in range(3):
                if not sk[ax]:
                    np.maximum(near3[ax], far3[ax], out=far3[ax])
        tf = far3.min(axis=0)
        if len(nz) == 3:
            tn = near3.max(axis=0)
        elif len(nz) == 2:
            tn = np.maximum(near3[nz[0]], near3[nz[1]])
        else:
            tn = near3[nz[0]]
        np.minimum(tf, zsub, out=tf)
        hit = np.less(tn, tf)
        if near_k:
            hit &= tn > near_f
        np.copyto(zsub, tn, where=hit)
        np.copyto(buf[r0:r1, c0:c1], put_k, where=hit)
        if face2 is not None:  # which slab the ray entered by: the face it hit
            code_k = codes[k]
            if len(nz) == 1:
                np.copyto(face2[r0:r1, c0:c1], code_k[nz[0]], where=hit)
            elif len(nz) == 2:  # the second axis where it is the entry (ties included)
                face = np.where(tn == near3[nz[1]], np.int8(code_k[nz[1]]), np.int8(code_k[nz[0]]))
                np.copyto(face2[r0:r1, c0:c1], face, where=hit)
            else:  # the last axis with the largest entry (a tie goes to the later axis, as above)
                face = np.where(tn == near3[1], np.int8(code_k[1]), np.int8(code_k[0]))
                np.copyto(face, code_k[2], where=tn == near3[2])
                np.copyto(face2[r0:r1, c0:c1], face, where=hit)
    image = None
    if face2 is not None:
        mask = np.concatenate([np.zeros(6, np.int32), vals32]).take(bidx) if masks else None
        image = _shade(bidx, face2, cols, w, h)
    else:
        mask = buf
    return Frame(image, depth, mask, instance_ids(sim) if masks else {})


def _shade(bidx: np.ndarray, face2: np.ndarray, cols: np.ndarray, w: int, h: int) -> np.ndarray:
    """RGB from the box index, the face code (with the floor tile) and outlines: one look-up in a table
    holding every (box, face, tile, outline) colour. Overwrites ``bidx`` and ``face2``."""
    lut4 = _shade_lut(np.ascontiguousarray(cols, np.float32).tobytes())
    # the code of a pixel's colour: bidx * 24 + (face * 2 + tile) * 2 + outline. face2 holds all but the outline
    # (bytes, before the one pass in 32 bits); both are the frame's own arrays, used up here
    low = face2
    low[1:, :] |= np.not_equal(bidx[1:, :], bidx[:-1, :]).view(np.int8)
    low[:, 1:] |= np.not_equal(bidx[:, 1:], bidx[:, :-1]).view(np.int8)
    code = bidx
    code *= 24
    code += low
    return lut4.take(code).view(np.uint8).reshape(h, w, 4)[:, :, :3]


@lru_cache(maxsize=1024)
def _shade_lut(cols: bytes) -> np.ndarray:
    """Every (box, face, tile, outline) colour as one 32-bit word (cached by the boxes' colours, which the
    frames of one scene state share whatever the pose)."""
    base = np.concatenate([_ROOM_COLORS, np.frombuffer(cols, np.float32).reshape(-1, 3)])  # M x 3
    tile = np.ones((len(base), 2), np.float32)
    tile[0, 1] = 0.88  # darker floor tiles (the floor is box 0)
    lut = base[:, None, None, None, :] * _SHADE[None, :, None, None, None] * tile[:, None, :, None, None] \
        * np.array([1.0, 0.7], np.float32)[None, None, None, :, None]  # M x 6 faces x 2 tiles x 2 outline x 3
    # one 32-bit word per colour: a single gather of words, then viewed as bytes, beats gathering 3-byte rows
    lut4 = np.zeros((lut.size // 3, 4), np.uint8)
    lut4[:, :3] = np.clip(lut, 0, 255).astype(np.uint8).reshape(-1, 3)
    words = lut4.view(np.uint32).ravel()
    words.flags.writeable = False
    return words


def render_rgb(sim: KitchenSim, size: tuple[int, int] = (300, 300)) -> np.ndarray:
    """Only the RGB first-person frame (uint8 H x W x 3)."""
    frame = render_frame(sim, size)
    assert frame.rgb is not None
    return frame.rgb
