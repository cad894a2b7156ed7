"""Kitchen skills for agents that only read observations (no world state): find objects in the
scene text, open containers to search, pick, put, slice, cook with an appliance.

Used by the cooking heuristic agent. Objects are found by reading ``obs["embodied_text"]`` lines
``- <objectId> (<Type>), <d> m; in/on <parent>; <states>``.
"""

from __future__ import annotations

import re
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

Skill = Generator[str, tuple[dict[str, Any], dict[str, Any]], bool]

_LINE = re.compile(r"^- (\S+) \((\w+)\), ([\d.]+) m(?:; in/on (\S+))?(?:; (.*))?$")
SEARCH_CONTAINERS = ("Fridge", "Cabinet", "Drawer", "Microwave")


@dataclass
class Seen:
    """One object line of the scene text."""

    object_id: str
    type: str
    distance: float
    parent: str | None
    states: set[str]
    visible: bool


def parse_scene(text: str) -> tuple[list[Seen], str | None]:
    """Objects in the scene text (visible and nearby fixtures) and the held object id."""
    out: list[Seen] = []
    held = None
    visible = False
    for line in text.splitlines():
        if line.startswith("Holding:"):
            h = line.split(":", 1)[1].strip()
            held = None if h == "nothing" else h
        elif line.startswith("Visible objects"):
            visible = True
        elif line.startswith("Fixtures nearby") or line.startswith("Other"):
            visible = False
        m = _LINE.match(line.strip())
        if m:
            states = {s.strip() for s in (m.group(5) or "").split(",") if s.strip()}
            out.append(Seen(m.group(1), m.group(2), float(m.group(3)), m.group(4), states, visible))
    return out, held


class KitchenSkills:
    """Skills as generators: ``ok = yield from skills.pick("Knife")``. ``agent.obs`` is kept current."""

    def __init__(self, agent: Any, max_search: int = 8) -> None:
        self.agent = agent
        self.max_search = max_search
        self.opened: set[str] = set()

    @property
    def scene(self) -> tuple[list[Seen], str | None]:
        return parse_scene(self.agent.obs["embodied_text"])

    def _ok(self) -> bool:
        return not self.agent.obs["last_action_error"]

    def visible(self, otype: str, need: set[str] | None = None, avoid: set[str] | None = None,
                exclude_parent: str | None = None) -> Seen | None:
        objs, _ = self.scene
        cands = [o for o in objs if o.visible and o.type == otype and (need or set()) <= o.states
                 and not ((avoid or set()) & o.states) and (exclude_parent is None or o.parent != exclude_parent)]
        return min(cands, key=lambda o: (o.distance, o.object_id)) if cands else None

    def find(self, otype: str, need: set[str] | None = None, avoid: set[str] | None = None,
             exclude_parent: str | None = None) -> Skill:
        """Make an object of ``otype`` visible: look, teleport to the type, then open containers."""
        o = self.visible(otype, need, avoid, exclude_parent)
        if o:
            return o.object_id
        yield f"Teleport [{otype}]"
        o = self.visible(otype, need, avoid, exclude_parent)
        if o:
            return o.object_id
        tried = 0
        for ctype in SEARCH_CONTAINERS:
            while tried < self.max_search:
                objs, _ = self.scene
                closed = sorted((c for c in objs if c.type == ctype and "closed" in c.states
                                 and c.object_id not in self.opened), key=lambda c: (c.distance, c.object_id))
                if not closed:
                    break
                c = closed[0]
                self.opened.add(c.object_id)
                tried += 1
                yield f"Teleport [{c.object_id}]"
                yield f"OpenObject [{c.object_id}]"
                o = self.visible(otype, need, avoid, exclude_parent)
                if o:
                    return o.object_id
        return None

    def hands_free(self) -> Skill:
        _, held = self.scene
        if held:
            yield "Teleport [CounterTop]"
            yield "PutObject [CounterTop]"
        return True

    def pick(self, otype: str, need: set[str] | None = None, avoid: set[str] | None = None,
             exclude_parent: str | None = None) -> Skill:
        _, held = self.scene
        if held and held.split("|")[0] == otype:
            return True
        yield from self.hands_free()
        oid = yield from self.find(otype, need, avoid, exclude_parent)
        if oid is None:
            return False
        yield f"Teleport [{oid}]"
        yield f"PickupObject [{oid}]"
        return self._ok()

    def put(self, rtype: str, rid: str | None = None) -> Skill:
        target = rid
        if target is None:
            target = yield from self.find(rtype)
            if target is None:
                return False
        yield f"Teleport [{target}]"
        o = next((x for x in self.scene[0] if x.object_id == target), None)
        if o is not None and "closed" in o.states:
            yield f"OpenObject [{target}]"
        yield f"PutObject [{target}]"
        return self._ok()

    def slice(self, otype: str) -> Skill:
        ok = yield from self.pick("Knife")
        if not ok:
            ok = yield from self.pick("ButterKnife")
            if not ok:
                return False
        oid = yield from self.find(otype, avoid={"sliced"})
        if oid is None:
            return False
        yield f"Teleport [{oid}]"
        yield f"SliceObject [{oid}]"
        sliced = self._ok()
        yield from self.hands_free()
        return sliced

    def cook(self, otype: str, how: str) -> Skill:
        if how in ("pan", "pot"):
            vessel = "Pan" if how == "pan" else "Pot"
            v = self.visible(vessel)
            on_burner = v is not None and v.parent is not None and v.parent.startswith("StoveBurner|")
            if not on_burner:
                ok = yield from self.pick(vessel)
                if not ok:
                    return False
                ok = yield from self.put("StoveBurner")
                if not ok:
                    return False
            ok = yield from self.pick(otype, avoid={"cooked"})
            if not ok:
                return False
            ok = yield from self.put(vessel)
            v = self.visible(vessel)
            if v is None or v.parent is None:
                return False
            yield f"Teleport [{v.parent}]"
            yield f"ToggleObjectOn [{v.parent}]"
            yield f"ToggleObjectOff [{v.parent}]"
            return ok
        appliance = {"microwave": "Microwave", "toaster": "Toaster"}[how]
        ok = yield from self.pick(otype, avoid={"cooked"})
        if not ok:
            return False
        a = yield from self.find(appliance)
        if a is None:
            return False
        yield f"Teleport [{a}]"
        o = next((x for x in self.scene[0] if x.object_id == a), None)
        if o is not None and "closed" in o.states:
            yield f"OpenObject [{a}]"
        yield f"PutObject [{a}]"
        if appliance == "Microwave":
            yield f"CloseObject [{a}]"
        yield f"ToggleObjectOn [{a}]"
        yield f"ToggleObjectOff [{a}]"
        if appliance == "Microwave":
            yield f"OpenObject [{a}]"
        return True
