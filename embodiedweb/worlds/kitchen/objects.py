"""Simulated objects and AI2-THOR-style object ids."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import vocab


def fmt_coord(value: float) -> str:
    """Format one coordinate the way this project's kitchens write object ids (``+0.50``)."""
    r = round(value + 0.0, 2)
    if r == 0:
        r = 0.0
    return f"{r:+.2f}"


def make_object_id(object_type: str, position: tuple[float, float, float] | list[float]) -> str:
    """``Type|+x.xx|+y.yy|+z.zz`` from a type and a position."""
    x, y, z = position
    return f"{object_type}|{fmt_coord(x)}|{fmt_coord(y)}|{fmt_coord(z)}"


STATE_FIELDS = ("isOpen", "isToggled", "isSliced", "isCooked", "isBroken", "isDirty", "isFilledWithLiquid")


@dataclass(eq=False)
class SimObject:
    """One object of a kitchen: identity, geometry, affordances, state and containment.

    ``position`` is the reported (AI2-THOR) position, ``center`` the centre of the box used for
    reach and visibility tests, ``half`` its half extents. ``parent`` is the receptacle the
    object rests in (``None`` on the floor or in the hand); ``contents`` the objects resting in it.
    ``history`` records processes the object went through (``heated``, ``heated:<appliance>``,
    ``cooled``, ``cleaned``, ``sliced``); ``stamps`` maps each to the clock time it first happened
    (the env's step number, so checkers can order kitchen work against the pages the agent read).
    ``placed`` is the clock time the object last came to rest in its ``parent`` (``None``: since the
    kitchen was set up), so checkers can order putting food on a dish against the step that says so.
    """

    object_id: str
    object_type: str
    name: str
    position: list[float]
    center: list[float]
    half: tuple[float, float, float]
    yaw: float = 0.0
    flags: dict[str, bool] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)
    parent: str | None = None
    contents: list[str] = field(default_factory=list)
    active: bool = True
    controls: str | None = None
    history: set[str] = field(default_factory=set)
    stamps: dict[str, int] = field(default_factory=dict)
    placed: int | None = None
    index: int = -1
    _meta: dict[str, Any] | None = field(default=None, repr=False)

    @classmethod
    def build(cls, spec: dict[str, Any]) -> SimObject:
        """Create an object from a kitchen-file entry (``objectId``, ``objectType``, ``position``...)."""
        otype = spec["objectType"]
        pos = [float(v) for v in spec["position"]]
        center = [float(v) for v in spec.get("center", pos)]
        half = tuple(float(v) for v in spec.get("size", vocab.half_size(otype)))
        flags = vocab.affordances(otype)
        flags.update(spec.get("flags", {}))
        state: dict[str, Any] = {k: False for k in STATE_FIELDS}
        state["temperature"] = "RoomTemp"
        state.update(spec.get("state", {}))
        oid = spec.get("objectId") or make_object_id(otype, pos)
        obj = cls(object_id=oid, object_type=otype, name=spec.get("name", oid.replace("|", "_")),
                  position=pos, center=center, half=half, yaw=float(spec.get("rotation", 0.0)),
                  flags=flags, state=state, controls=spec.get("controls"))
        obj.history = set(spec.get("history", []))
        obj.stamps = {str(k): int(v) for k, v in spec.get("stamps", {}).items()}
        obj.placed = None if spec.get("placed") is None else int(spec["placed"])
        return obj

    def move_to(self, x: float, y: float, z: float) -> None:
        """Move the object (its box moves with it)."""
        dx, dy, dz = x - self.position[0], y - self.position[1], z - self.position[2]
        self.shift(dx, dy, dz)

    def shift(self, dx: float, dy: float, dz: float) -> None:
        """Translate the object by a delta."""
        self.position = [self.position[0] + dx, self.position[1] + dy, self.position[2] + dz]
        self.center = [self.center[0] + dx, self.center[1] + dy, self.center[2] + dz]

    def to_spec(self) -> dict[str, Any]:
        """The kitchen-file entry that rebuilds this object."""
        spec: dict[str, Any] = {"objectId": self.object_id, "objectType": self.object_type,
                                "position": [round(v, 4) for v in self.position]}
        if self.center != self.position:
            spec["center"] = [round(v, 4) for v in self.center]
        if self.half != vocab.half_size(self.object_type):
            spec["size"] = list(self.half)
        if self.yaw:
            spec["rotation"] = self.yaw
        if self.parent:
            spec["parent"] = self.parent
        changed = {k: v for k, v in self.state.items() if v not in (False, "RoomTemp")}
        if changed:
            spec["state"] = changed
        if self.controls:
            spec["controls"] = self.controls
        if self.history:
            spec["history"] = sorted(self.history)
        if self.stamps:
            spec["stamps"] = dict(sorted(self.stamps.items()))
        if self.placed is not None:
            spec["placed"] = self.placed
        return spec
