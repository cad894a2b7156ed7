"""Observations of a KitchenSim: a text scene graph and an egocentric schematic image.

``scene_text`` lists what the agent perceives (visible objects, plus fixtures within 3 m) with id,
distance from the agent's reach axis to the object's nearest point (what reach is judged by), parent receptacles and states, like the text mode of the paper. ``render`` draws a top-down
view rotated so the agent faces up: boxes for objects (filled when visible), the field of view, the
reachable floor, and a label per object so a vision model can ground names. Both are deterministic.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from . import vocab
from .geometry import VISIBILITY_DISTANCE, box_distance, box_view_gaps

if TYPE_CHECKING:
    from .objects import SimObject
    from .sim import KitchenSim

_FIXTURES = frozenset({"Fridge", "Microwave", "StoveBurner", "Toaster", "CoffeeMachine", "Sink", "SinkBasin",
                       "CounterTop", "DiningTable", "Cabinet", "Drawer", "Faucet", "GarbageCan", "Shelf",
                       "SideTable"})


#: Said of a dish (a receptacle that can be dirty: plate, bowl, cup, mug, pan, pot) before the ids of what it
#: holds, after its "clean" or "dirty": a plate with a slice on it reads "clean, holds Apple|...", never as a
#: bare "clean" that reads as "clean and empty" (what it holds is no state of its own: see ``_ambiguous``).
HOLDS = "holds"


def object_states(sim: KitchenSim, o: SimObject) -> list[str]:
    """Human-readable states of an object (open/closed, and empty when open with nothing inside, on/off,
    sliced, cooked/raw, dirty or clean and, for a dish, what it holds, temperature)."""
    s, f = o.state, o.flags
    out = []
    if f.get("openable"):
        out.append("open" if s["isOpen"] else "closed")
        if s["isOpen"] and f.get("receptacle") and not any(sim.objects[x].active for x in o.contents):
            out.append("empty")  # opened and nothing inside: no need to look for what is not there
    if f.get("toggleable"):
        out.append("on" if s["isToggled"] else "off")
    if s.get("isSliced"):
        out.append("sliced")
    if s.get("isCooked"):
        out.append("cooked")
    elif f.get("cookable"):
        out.append("raw")
    if s.get("isBroken"):
        out.append("broken")
    if f.get("dirtyable"):
        out.append("dirty" if s["isDirty"] else "clean")
        if f.get("receptacle"):  # a dish: "clean" is of the dish, not "clean and empty" (it may hold food)
            held = [x for x in o.contents if sim.objects[x].active]
            if held:
                out.append(f"{HOLDS} {' and '.join(held)}")  # (no comma: states are comma-separated)
    if s.get("isFilledWithLiquid"):
        out.append("filled")
    if s["temperature"] != "RoomTemp":
        out.append(s["temperature"].lower())
    if o.object_id == sim.held:
        out.append("in hand")
    if o.object_type == "StoveKnob" and o.controls:
        out.append(f"switches {o.controls}")
    elif o.object_type == "StoveBurner":
        knobs = [k.object_id for k in sim.active_objects() if k.object_type == "StoveKnob" and k.controls == o.object_id]
        if knobs:
            out.append(f"switched by {', '.join(knobs)}")
    return out


#: Said of a receptacle that holds something not in view, so it never reads as empty while it does, and is
#: never said once all it holds is in view (even when part of it is out of view: an agent can tell "nothing
#: more here" from "keep looking"). It is followed by where (:func:`view_gaps`), so an agent knows which way to
#: turn, look or move. What rests in the open is no secret: every object not shut away is nameable anyway.
OUT_OF_VIEW = "partly out of view"
_GAP_HINT = {"behind": "turn", "left": "turn left or move", "right": "turn right or move", "above": "LookUp",
             "below": "LookDown", "beyond reach": "move closer along it", "hidden": "move or look from another side"}


def view_gaps(sim: KitchenSim, o: SimObject, geo: np.ndarray) -> list[str]:
    """Where what ``o`` holds is out of view ([] when all it holds is in view): the sides of the frustum and
    the reach that the things it holds and the agent does not see lie beyond (``left``, ``below``, ``beyond
    reach``, ...), or ``hidden`` for one within them but not visible (behind something)."""
    if not o.flags.get("receptacle") or (o.flags.get("openable") and not o.state.get("isOpen")):
        return []
    found: set[str] = set()
    for x in o.contents:
        u = sim.objects[x]
        if u.active and not geo[u.index]:
            found.update(box_view_gaps(sim.camera, sim.rot, sim.hor, list(u.center), list(u.half)) or ["hidden"])
    return [g for g in _GAP_HINT if g in found]


def inside_out_of_view(sim: KitchenSim, o: SimObject, geo: np.ndarray) -> bool:
    """Whether part of where ``o`` holds things is out of view (see :func:`view_gaps`)."""
    return bool(view_gaps(sim, o, geo))


def out_of_view_text(gaps: list[str]) -> str:
    """The scene text's note for a receptacle partly out of view: where, and what to do about it."""
    where = "; ".join(f"{g}: {_GAP_HINT[g]}" for g in gaps)
    return f"{OUT_OF_VIEW} ({where}) to see all it holds"


def scene_text(sim: KitchenSim, max_objects: int = 60) -> str:
    """The text scene graph of the current state."""
    geo, dist = sim.visibility()
    lines = [f"Kitchen {sim.scene_name}. Agent at (x={sim.ax:.2f}, z={sim.az:.2f}) facing {sim.rot:.0f} deg, "
             f"camera horizon {sim.hor:.0f} deg."]
    lines.append(f"Holding: {sim.held}" if sim.held else "Holding: nothing")
    seen, near = [], []
    for o in sim.active_objects():
        vis = o.object_id == sim.held or (bool(geo[o.index]) and not sim.is_hidden(o))
        if vis:
            seen.append(o)
        elif o.object_type in _FIXTURES and dist[o.index] <= 3.0:
            near.append(o)
    cam = sim.camera
    reach = {o.object_id: 0.0 if o.object_id == sim.held else box_distance(cam, o.center, o.half) for o in seen + near}
    seen.sort(key=lambda o: (reach[o.object_id], o.object_id))
    near.sort(key=lambda o: (reach[o.object_id], o.object_id))

    def line(o: SimObject) -> str:
        parts = [f"{o.object_id} ({o.object_type}), {reach[o.object_id]:.2f} m"]
        if o.parent:
            parts.append(f"in/on {o.parent}")
        st = object_states(sim, o)
        if st:
            parts.append(", ".join(st))
        gaps = view_gaps(sim, o, geo) if vis_of(o) else []
        if gaps:
            parts.append(out_of_view_text(gaps))
        return "- " + "; ".join(parts)

    def vis_of(o: SimObject) -> bool:
        return o.object_id == sim.held or (bool(geo[o.index]) and not sim.is_hidden(o))

    lines.append(f"Visible objects (interactable; distance to the nearest point, reach {VISIBILITY_DISTANCE:g} m):")
    lines += [line(o) for o in seen[:max_objects]] or ["- none"]
    if len(seen) > max_objects:
        # said, never silently dropped: an agent must not take the list's end for all it can reach (stop 39)
        lines.append(f"- ... and {len(seen) - max_objects} more visible, farther away (move closer to see them listed)")
    if near:
        lines.append("Fixtures nearby, out of view (turn or look toward one to interact with it):")
        lines += [line(o) for o in near[: max(0, max_objects - len(seen))]]
    return "\n".join(lines)


def _color(otype: str) -> tuple[int, int, int]:
    h = 0
    for ch in vocab.base_type(otype):
        h = (h * 131 + ord(ch)) % 1_000_003
    return (60 + h % 170, 60 + (h // 170) % 170, 60 + (h // 28_900) % 170)


_FONT: ImageFont.ImageFont | ImageFont.FreeTypeFont | None = None


def _font() -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    global _FONT
    if _FONT is None:
        _FONT = ImageFont.load_default()
    return _FONT


def render(sim: KitchenSim, size: tuple[int, int] = (300, 300), view_range: float = 3.0) -> np.ndarray:
    """An egocentric top-down schematic (agent at the bottom centre facing up), uint8 H x W x 3."""
    w, h = int(size[0]), int(size[1])
    img = Image.new("RGB", (w, h), (235, 232, 224))
    draw = ImageDraw.Draw(img)
    scale = min(w, h) / (view_range * 1.25)
    ox, oy = w / 2.0, h * 0.82
    yaw = math.radians(sim.rot)
    cy, sy = math.cos(yaw), math.sin(yaw)

    def to_px(x: float, z: float) -> tuple[float, float]:
        dx, dz = x - sim.ax, z - sim.az
        right = dx * cy - dz * sy
        fwd = dx * sy + dz * cy
        return (ox + right * scale, oy - fwd * scale)

    g = sim.grid_size / 2
    for x, z in sim.reachable:
        if abs(x - sim.ax) > view_range + 1 or abs(z - sim.az) > view_range + 1:
            continue
        pts = [to_px(x + a, z + b) for a, b in ((-g, -g), (g, -g), (g, g), (-g, g))]
        draw.polygon(pts, fill=(214, 220, 206))
    # field of view wedge (90 deg) and reach circle
    r = 1.5 * scale
    draw.line([(ox, oy), (ox - r * 0.7071, oy - r * 0.7071)], fill=(150, 150, 190))
    draw.line([(ox, oy), (ox + r * 0.7071, oy - r * 0.7071)], fill=(150, 150, 190))
    draw.arc([ox - r, oy - r, ox + r, oy + r], 225, 315, fill=(150, 150, 190))
    geo, dist = sim.visibility()
    objs = [o for o in sim.active_objects() if dist[o.index] <= view_range + 1.0]
    # big boxes first, then small ones on top; deterministic order
    objs.sort(key=lambda o: (-(o.half[0] * o.half[2]), o.center[1], o.object_id))
    labels = []
    for o in objs:
        hidden = sim.is_hidden(o)
        if hidden:
            continue
        vis = o.object_id == sim.held or bool(geo[o.index])
        hx, hz = max(o.half[0], 0.03), max(o.half[2], 0.03)
        pts = [to_px(o.center[0] + a, o.center[2] + b) for a, b in ((-hx, -hz), (hx, -hz), (hx, hz), (-hx, hz))]
        col = _color(o.object_type)
        if vis:
            draw.polygon(pts, fill=col, outline=(20, 20, 20))
        else:
            draw.polygon(pts, outline=col)
        cx, cz = to_px(o.center[0], o.center[2])
        if vis or o.object_type in _FIXTURES:
            labels.append((cx, cz, vocab.SHORT_NAMES.get(o.object_type, o.object_type), vis))
    font = _font()
    for cx, cz, text, vis in labels:
        tw = draw.textlength(text, font=font)
        x0, y0 = cx - tw / 2, cz - 5
        if vis:
            draw.rectangle([x0 - 1, y0 - 1, x0 + tw + 1, y0 + 10], fill=(255, 255, 255))
        draw.text((x0, y0), text, fill=(0, 0, 0) if vis else (90, 90, 90), font=font)
    # agent
    draw.polygon([(ox, oy - 9), (ox - 7, oy + 6), (ox + 7, oy + 6)], fill=(200, 40, 40))
    hud = f"{sim.scene_name} rot {sim.rot:.0f} hor {sim.hor:.0f}"
    if sim.held:
        hud += f" | holding {sim.objects[sim.held].object_type}"
    draw.rectangle([0, h - 14, w, h], fill=(40, 40, 40))
    draw.text((3, h - 13), hud, fill=(255, 255, 255), font=font)
    return np.asarray(img, dtype=np.uint8)
