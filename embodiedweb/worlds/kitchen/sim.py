"""KitchenSim: a pure-Python kitchen simulator with AI2-THOR's interface and semantics.

``sim.step(action, **kwargs)`` returns an :class:`Event` whose ``metadata`` has AI2-THOR's keys
(``lastActionSuccess``, ``errorMessage``, ``lastAction``, ``agent``, ``objects``, ``inventoryObjects``,
``sceneName``). Failed actions never raise and never change the state.

Rules implemented (AI2-THOR 2.x semantics):
- the agent moves on a grid of reachable positions, rotates by 90 degrees and tilts its camera within
  [-30, 60] degrees of horizon;
- object interactions need the object in view and within 1.5 m of the camera (``forceAction`` skips
  that test); objects inside closed receptacles are not visible;
- receptacles accept only the object types AI2-THOR allows, must be open when openable, and have a
  capacity; receptacles carry their contents;
- slicing needs a held Knife or ButterKnife and spawns ``<sourceId>|<Type>Sliced_<n>``; an Egg cracks
  into ``<sourceId>|EggCracked_0``;
- heat: a Microwave that is on and closed heats (and cooks) what it holds; a StoveBurner that is on
  heats (and cooks) what is on it, including the contents of a Pan/Pot; a Toaster that is on toasts
  bread slices; a CoffeeMachine that is on fills a Mug with hot coffee. Heat comes only from an
  appliance that is on with the item in it (whichever happens last): ``CookObject``, which in AI2-THOR
  cooks an object by fiat, is refused with a message that says how cooking works here;
- cold: what is inside a closed Fridge becomes Cold;
- water: what is in a SinkBasin under a running Faucet becomes clean (and fillables fill with water).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

import numpy as np

from . import geometry, observe, vocab
from .objects import SimObject, make_object_id

HORIZON_MIN, HORIZON_MAX = -30.0, 60.0
INVALID_ID = "Object ID appears to be invalid."
_HEATERS = ("Microwave", "StoveBurner", "Toaster", "CoffeeMachine")
#: appliances that switch on only when closed (AI2-THOR's ``MustBeClosedToTurnOn``: an open microwave heats nothing)
MUST_BE_CLOSED_TO_TURN_ON = frozenset({"Microwave"})
#: actions that move only the agent (and what it holds) or change nothing: they leave ``scene_version`` alone
POSE_ACTIONS = frozenset({"MoveAhead", "MoveRight", "MoveBack", "MoveLeft", "RotateRight", "RotateLeft", "LookUp",
                          "LookDown", "TeleportFull", "Teleport", "Pass", "GetReachablePositions", "Done"})
_PUT_T = np.arange(0.2, 2.01, 0.1)[:, None]


class Event:
    """The result of one step. ``metadata`` is built lazily (but snapshotted before the next step)."""

    __slots__ = ("_sim", "_meta", "lastActionSuccess", "errorMessage", "lastAction", "actionReturn",
                 "__weakref__")

    def __init__(self, sim: KitchenSim, action: str, success: bool, error: str, action_return: Any = None):
        self._sim = sim
        self._meta: dict[str, Any] | None = None
        self.lastAction = action
        self.lastActionSuccess = success
        self.errorMessage = error
        self.actionReturn = action_return

    @property
    def metadata(self) -> dict[str, Any]:
        """AI2-THOR-style metadata of the state right after this step."""
        if self._meta is None:
            self._meta = self._sim._build_metadata(self)
        return self._meta

    def _materialize(self) -> None:
        if self._meta is None:
            self._meta = self._sim._build_metadata(self)


class ActionError(Exception):
    """Raised inside action handlers to fail an action with an AI2-THOR-style message."""


class KitchenSim:
    """A kitchen simulator mirroring AI2-THOR's controller interface.

    Build it from a scene dict (see :mod:`embodiedweb.worlds.kitchen.kitchens` for the file format):
    ``sceneName``, ``reachable`` ([[x, z], ...]), ``agent`` ({x, y, z, rotation, horizon}) and
    ``objects`` (each with ``objectId``, ``objectType``, ``position``, optional ``center``/``size``,
    ``parent``, ``state``, ``controls``).
    """

    def __init__(self, scene: dict[str, Any], horizon_step: float | None = None):
        self.scene_name: str = scene.get("sceneName", "kitchen")
        self.grid_size: float = float(scene.get("gridSize", 0.25))
        self.horizon_step: float = float(horizon_step or scene.get("horizonStep", 30.0))
        self.reachable: list[tuple[float, float]] = [(float(x), float(z)) for x, z in scene["reachable"]]
        self._reach_keys = {self._key(x, z) for x, z in self.reachable}
        a = scene.get("agent", {})
        x0, z0 = self.reachable[0] if self.reachable else (0.0, 0.0)
        self.ax = float(a.get("x", x0))
        self.ay = float(a.get("y", 0.9))
        self.az = float(a.get("z", z0))
        self.rot = float(a.get("rotation", 0.0)) % 360.0
        self.hor = float(a.get("horizon", 0.0))
        self.held: str | None = None
        # the indexes of the objects steps changed since the renderer last drew the scene (None: any object may
        # have changed, see scene_changed): it builds again only these objects' boxes. An object touched marks
        # what it holds too (an opened fridge shows its contents, an opened drawer slides them out)
        self.changed_objects: set[int] | None = None
        # visibility caches: set before any object is placed (placing a held object marks it moved)
        self._geo_key: tuple[Any, ...] | None = None
        self._geo: np.ndarray = np.zeros(0, dtype=bool)
        self._dist: np.ndarray = np.zeros(0)
        self._arrays_dirty = True
        self._moved: set[int] = set()  # rows of _centers that moved since the last visibility()
        self._centers = np.zeros((0, 3))
        self._halves = np.zeros((0, 3))
        # the time stamped on history events (objects' ``stamps``, ``placed``); the env sets it to its step number
        self.clock: int | None = None
        self.objects: dict[str, SimObject] = {}
        self._order: list[SimObject] = []
        for spec in scene["objects"]:
            self._add(SimObject.build(spec))
        for spec in scene["objects"]:
            parent = spec.get("parent")
            if parent and parent in self.objects:
                self._attach(self.objects[spec["objectId"]], self.objects[parent], place=False)
        held = scene.get("held")
        if held and held in self.objects:
            self.held = held
            self._carry_held()
        self._slice_counter: dict[str, int] = {}
        self._last_event: weakref.ReferenceType[Event] | None = None
        # bumped by every step and every object added or removed: readers cache on it
        self.version = 0
        # bumped by every step that may change an object (not the agent's own moves, turns and looks) and by
        # every object added or removed: what is drawn of the scene is cached on it (see scene_changed)
        self.scene_version = 0
        self._link_fixtures()
        # bound methods and partials of them, never closures: a copy of the simulator (copy.deepcopy) then acts
        # on itself, not on the original
        self._handlers: dict[str, Callable[[dict[str, Any]], Any]] = {
            "MoveAhead": partial(self._move, 0.0), "MoveRight": partial(self._move, 90.0),
            "MoveBack": partial(self._move, 180.0), "MoveLeft": partial(self._move, 270.0),
            "RotateRight": partial(self._rotate, +1), "RotateLeft": partial(self._rotate, -1),
            "LookUp": partial(self._look, -1), "LookDown": partial(self._look, +1),
            "TeleportFull": self._teleport_full, "Teleport": self._teleport,
            "PickupObject": self._pickup, "PutObject": self._put, "DropHandObject": self._drop,
            "OpenObject": partial(self._open, opening=True), "CloseObject": partial(self._open, opening=False),
            "ToggleObjectOn": partial(self._toggle, on=True), "ToggleObjectOff": partial(self._toggle, on=False),
            "SliceObject": self._slice, "CookObject": self._cook_refused, "BreakObject": self._break,
            "DirtyObject": partial(self._dirty, dirty=True), "CleanObject": partial(self._dirty, dirty=False),
            "GetReachablePositions": self._get_reachable, "Pass": self._nothing, "Done": self._nothing,
        }

    def __getstate__(self) -> dict[str, Any]:
        """A copy (``copy.deepcopy``, ``pickle``) has no last event: the original's belongs to the original."""
        state = self.__dict__.copy()
        state["_last_event"] = None
        return state

    def _nothing(self, k: dict[str, Any]) -> None:
        return None

    # ------------------------------------------------------------------ construction helpers
    def _key(self, x: float, z: float) -> tuple[int, int]:
        return (round(x * 100), round(z * 100))

    def _add(self, obj: SimObject) -> None:
        if obj.object_id in self.objects:
            raise ValueError(f"duplicate objectId {obj.object_id}")
        obj.index = len(self._order)
        obj._meta = None
        self._changed(obj)
        self.objects[obj.object_id] = obj
        self._order.append(obj)
        self._arrays_dirty = True

    def _link_fixtures(self) -> None:
        """Pair each StoveKnob with a burner and each Faucet with a sink basin (nearest, when unset)."""
        burners = [o for o in self._order if o.object_type == "StoveBurner"]
        basins = [o for o in self._order if o.object_type == "SinkBasin"] or \
            [o for o in self._order if o.object_type == "Sink"]
        knobs = sorted((o for o in self._order if o.object_type == "StoveKnob"), key=lambda o: o.object_id)
        taken: set[str] = {k.controls for k in knobs if k.controls}
        for knob in knobs:
            if knob.controls or not burners:
                continue
            free = [b for b in burners if b.object_id not in taken] or burners
            best = min(free, key=lambda b: _dist_xz(b.center, knob.center))
            knob.controls = best.object_id
            taken.add(best.object_id)
        for faucet in (o for o in self._order if o.object_type == "Faucet"):
            if not faucet.controls and basins:
                faucet.controls = min(basins, key=lambda b: _dist_xz(b.center, faucet.center)).object_id

    # ------------------------------------------------------------------ public API
    def step(self, action: str | dict[str, Any] | None = None, **kwargs: Any) -> Event:
        """Run one AI2-THOR action (``step("PickupObject", objectId=...)`` or ``step(dict(action=...))``)."""
        if isinstance(action, dict):
            kwargs = {**action, **kwargs}
            action = kwargs.pop("action", None)
        elif action is None:
            action = kwargs.pop("action", None)
        self.version += 1
        if action not in POSE_ACTIONS:
            self.scene_version += 1
        prev = self._last_event() if self._last_event is not None else None
        if prev is not None:
            prev._materialize()
        handler = self._handlers.get(str(action))
        ret = None
        if handler is None:
            ok, err = False, f"Invalid action: {action}"
        else:
            try:
                ret = handler(kwargs)
                ok, err = True, ""
            except ActionError as exc:
                ok, err = False, str(exc)
            except (TypeError, ValueError, KeyError) as exc:
                ok, err = False, f"Invalid arguments for {action}: {exc}"
        event = Event(self, str(action), ok, err, ret)
        self._last_event = weakref.ref(event)
        return event

    def scene_changed(self) -> None:
        """Say that objects changed outside :meth:`step` (a state written directly, a food prepared before the
        episode): the first-person renderer redraws the scene's boxes instead of reusing the cached ones."""
        self.scene_version += 1
        self.changed_objects = None

    def _changed(self, o: SimObject) -> None:
        """Note that a step changed ``o`` (its place, state, holder or presence: what is drawn of it)."""
        if self.changed_objects is not None:
            self.changed_objects.add(o.index)

    @property
    def last_event(self) -> Event | None:
        """The most recent event, if still referenced."""
        return self._last_event() if self._last_event is not None else None

    def get(self, object_id: str) -> SimObject | None:
        """The active object with this id, or ``None``."""
        obj = self.objects.get(object_id)
        return obj if obj is not None and obj.active else None

    def active_objects(self) -> list[SimObject]:
        """All objects currently in the scene, in creation order."""
        return [o for o in self._order if o.active]

    @property
    def camera(self) -> tuple[float, float, float]:
        """Camera position (agent position raised to eye height)."""
        return (self.ax, self.ay + geometry.CAMERA_OFFSET, self.az)

    def ancestors(self, obj: SimObject) -> list[str]:
        """Receptacles containing ``obj``, innermost first."""
        out = []
        p = obj.parent
        while p is not None:
            out.append(p)
            p = self.objects[p].parent
        return out

    def descendants(self, obj: SimObject) -> list[SimObject]:
        """Everything resting in ``obj``, recursively."""
        out: list[SimObject] = []
        stack = list(obj.contents)
        while stack:
            child = self.objects[stack.pop()]
            out.append(child)
            stack.extend(child.contents)
        return out

    def _on_burner(self, obj: SimObject, burner: SimObject) -> SimObject:
        """What stands on ``burner`` with ``obj`` in it (``obj`` itself when it stands there)."""
        while obj.parent and obj.parent != burner.object_id:
            obj = self.objects[obj.parent]
        return obj

    def is_hidden(self, obj: SimObject) -> bool:
        """True when the object is inside a closed openable receptacle."""
        p = obj.parent
        while p is not None:
            rec = self.objects[p]
            if rec.flags.get("openable") and not rec.state.get("isOpen"):
                return True
            p = rec.parent
        return False

    def visibility(self) -> tuple[np.ndarray, np.ndarray]:
        """(geometric in-view-and-reach mask, camera-to-centre distance) over all objects by index."""
        if self._arrays_dirty:
            self._centers = np.array([o.center for o in self._order], dtype=float).reshape(-1, 3)
            self._halves = np.array([o.half for o in self._order], dtype=float).reshape(-1, 3)
            self._arrays_dirty = False
            self._moved.clear()
            self._geo_key = None
        key = (self.ax, self.ay, self.az, self.rot, self.hor)
        if self._moved:
            rows = sorted(self._moved)
            self._moved.clear()
            same_pose = self._geo_key == key
            cam = self.camera
            for i in rows:
                o = self._order[i]
                self._centers[i] = o.center
                if same_pose:  # only the moved objects need a new answer
                    self._geo[i] = geometry.box_visible(cam, self.rot, self.hor, o.center, o.half)
                    c = o.center
                    self._dist[i] = math.sqrt((c[0] - cam[0]) ** 2 + (c[1] - cam[1]) ** 2 + (c[2] - cam[2]) ** 2)
        if self._geo_key != key:
            cam = np.array(self.camera)
            self._geo = geometry.visible_mask(cam, self.rot, self.hor, self._centers, self._halves)
            d = self._centers - cam
            self._dist = np.sqrt((d * d).sum(axis=1))
            self._geo_key = key
        return self._geo, self._dist

    def is_visible(self, obj: SimObject) -> bool:
        """Visible and within reach from the current pose (AI2-THOR's interactable notion)."""
        if obj.object_id == self.held:
            return True
        geo, _ = self.visibility()
        return bool(geo[obj.index]) and not self.is_hidden(obj)

    def distance(self, obj: SimObject) -> float:
        """Distance from the camera to the object's centre."""
        _, dist = self.visibility()
        return float(dist[obj.index])

    def resolve(self, name: str, for_teleport: bool = False, among: set[str] | None = None) -> str | None:
        """An objectId for an id or a type name (nearest interactable instance, else nearest); ``among``: the ids
        of the only objects that may be meant (the others are as if absent)."""
        if name in self.objects:
            return name if self.objects[name].active and (among is None or name in among) else None
        cands = [o for o in self._order if o.active and o.object_type.lower() == name.lower()
                 and (among is None or o.object_id in among)]
        if not cands:
            return None
        geo, dist = self.visibility()
        if for_teleport:
            return min(cands, key=lambda o: (self._xz_to(o), o.object_id)).object_id
        return min(cands, key=lambda o: (not (o.object_id == self.held or (geo[o.index] and not self.is_hidden(o))),
                                         float(dist[o.index]), o.object_id)).object_id

    def spawn_on_counter(self, object_type: str, receptacle_type: str = "CounterTop") -> str:
        """Add a new object of ``object_type`` on a counter top (e.g. a delivered web order); return its id.

        The counter with room nearest to the agent is used."""
        recs = [o for o in self._order if o.active and o.object_type == receptacle_type]
        if not recs:
            raise ValueError(f"no {receptacle_type} in {self.scene_name}")
        recs.sort(key=lambda r: (self._free(r) < vocab.unit_size(object_type), self._xz_to(r), r.object_id))
        return self.spawn_in(object_type, recs[0].object_id)

    def spawn_in(self, object_type: str, receptacle_id: str) -> str:
        """Add a new object of ``object_type`` into/onto a receptacle; return its id."""
        self.version += 1
        self.scene_changed()
        rec = self.objects[receptacle_id]
        half = vocab.half_size(object_type)
        pos = self._slot(rec, half, len(rec.contents))
        oid = make_object_id(object_type, pos)
        bump = 0
        while oid in self.objects:
            bump += 1
            pos[0] += 0.01 * (1 if bump % 2 else -1) * bump
            oid = make_object_id(object_type, pos)
        obj = SimObject.build({"objectId": oid, "objectType": object_type, "position": pos, "size": half})
        self._add(obj)
        self._attach(obj, rec, place=False)
        self._settle([rec, *(self.objects[a] for a in self.ancestors(rec))])
        return oid

    def remove_object(self, object_id: str) -> None:
        """Take an object (and what it holds) out of the scene."""
        self.version += 1
        self.scene_changed()
        obj = self.objects[object_id]
        for o in [obj, *self.descendants(obj)]:
            if o.parent is not None:
                self._detach(o)
            o.active = False
            if self.held == o.object_id:
                self.held = None
        self._touch(obj)

    def scene_text(self, max_objects: int = 60) -> str:
        """A text scene graph of what the agent perceives (see :mod:`.observe`)."""
        return observe.scene_text(self, max_objects=max_objects)

    def render(self, size: tuple[int, int] = (300, 300)) -> np.ndarray:
        """An egocentric schematic RGB image (uint8, H x W x 3)."""
        return observe.render(self, size=size)

    def to_scene(self) -> dict[str, Any]:
        """A scene dict that rebuilds the current state."""
        objs = [o.to_spec() for o in self._order if o.active]
        return {"sceneName": self.scene_name, "gridSize": self.grid_size, "horizonStep": self.horizon_step,
                "reachable": [list(p) for p in self.reachable],
                "agent": {"x": self.ax, "y": self.ay, "z": self.az, "rotation": self.rot, "horizon": self.hor},
                "held": self.held, "objects": objs}

    # ------------------------------------------------------------------ metadata
    def _obj_meta(self, o: SimObject) -> dict[str, Any]:
        m = o._meta
        if m is None:
            f, s = o.flags, o.state
            m = {
                "objectId": o.object_id, "objectType": o.object_type, "name": o.name,
                "position": {"x": o.position[0], "y": o.position[1], "z": o.position[2]},
                "rotation": {"x": 0.0, "y": o.yaw, "z": 0.0},
                "pickupable": f["pickupable"], "moveable": f["pickupable"], "receptacle": f["receptacle"],
                "receptacleObjectIds": [d.object_id for d in self.descendants(o)] if f["receptacle"] else None,
                "parentReceptacles": self.ancestors(o) or None,
                "openable": f["openable"], "isOpen": s["isOpen"],
                "toggleable": f["toggleable"], "isToggled": s["isToggled"],
                "sliceable": f["sliceable"], "isSliced": s["isSliced"],
                "cookable": f["cookable"], "isCooked": s["isCooked"],
                "breakable": f["breakable"], "isBroken": s["isBroken"],
                "dirtyable": f["dirtyable"], "isDirty": s["isDirty"],
                "canFillWithLiquid": f["canFillWithLiquid"], "isFilledWithLiquid": s["isFilledWithLiquid"],
                "temperature": s["temperature"], "isPickedUp": o.object_id == self.held,
                "objectTemperature": s["temperature"],
                "controlledObjects": [o.controls] if o.controls and o.object_type == "StoveKnob" else None,
            }
            o._meta = m
        return m

    def _build_metadata(self, event: Event) -> dict[str, Any]:
        geo, dist = self.visibility()
        geo_l, dist_l = geo.tolist(), dist.tolist()
        objs: list[dict[str, Any]] = []
        append = objs.append
        held = self.held
        is_hidden = self.is_hidden
        for o in self._order:
            if not o.active:
                continue
            m = o._meta
            if m is None:
                m = self._obj_meta(o)
            i = o.index
            d = m.copy()
            d["visible"] = (geo_l[i] and (o.parent is None or not is_hidden(o))) or o.object_id == held
            d["distance"] = dist_l[i]
            append(d)
        inv = [] if held is None else [{"objectId": held, "objectType": self.objects[held].object_type}]
        return {
            "lastActionSuccess": event.lastActionSuccess, "errorMessage": event.errorMessage,
            "lastAction": event.lastAction, "actionReturn": event.actionReturn, "sceneName": self.scene_name,
            "agent": {"position": {"x": self.ax, "y": self.ay, "z": self.az},
                      "rotation": {"x": 0.0, "y": self.rot, "z": 0.0}, "cameraHorizon": self.hor,
                      "isStanding": True},
            "cameraPosition": {"x": self.ax, "y": self.ay + geometry.CAMERA_OFFSET, "z": self.az},
            "objects": objs, "inventoryObjects": inv,
        }

    def _touch(self, *objs: SimObject) -> None:
        """Invalidate cached metadata of objects, their ancestors and descendants."""
        for o in objs:
            o._meta = None
            self._changed(o)
            for a in self.ancestors(o):
                self.objects[a]._meta = None
                self._changed(self.objects[a])
            for d in self.descendants(o):
                d._meta = None
                self._changed(d)

    # ------------------------------------------------------------------ containment helpers
    def _free(self, rec: SimObject) -> float:
        used = sum(vocab.unit_size(self.objects[c].object_type) for c in rec.contents)
        return vocab.CAPACITY.get(rec.object_type, 10.0) - used

    def _detach(self, obj: SimObject) -> None:
        if obj.parent is None:
            return
        parent = self.objects[obj.parent]
        self._touch(obj)
        parent.contents = [c for c in parent.contents if c != obj.object_id]
        obj.parent = None

    def _attach(self, obj: SimObject, rec: SimObject, place: bool = True) -> None:
        if obj.parent is not None:
            self._detach(obj)
        if place:
            pos = self._put_position(rec, obj)
            self._move_tree(obj, pos)
        rec.contents = [*rec.contents, obj.object_id]
        obj.parent = rec.object_id
        obj.placed = self.clock
        self._touch(obj)

    def _move_tree(self, obj: SimObject, pos: list[float]) -> None:
        dx, dy, dz = pos[0] - obj.position[0], pos[1] - obj.position[1], pos[2] - obj.position[2]
        if dx == dy == dz == 0:
            return
        for o in [obj, *self.descendants(obj)]:
            o.shift(dx, dy, dz)
            o._meta = None
            self._changed(o)
            self._moved.add(o.index)

    def _surface_y(self, rec: SimObject, half: tuple[float, float, float]) -> float:
        if rec.object_type in vocab.INSIDE_TYPES:
            return rec.center[1] - rec.half[1] * 0.5 + half[1]
        return rec.center[1] + rec.half[1] + half[1]

    def _slot(self, rec: SimObject, half: tuple[float, float, float], n: int) -> list[float]:
        u = ((n * 0.618034) % 1.0) * 2 - 1
        w = ((n * 0.381966 + 0.5) % 1.0) * 2 - 1
        mx = max(rec.half[0] - half[0], 0.0) * 0.8
        mz = max(rec.half[2] - half[2], 0.0) * 0.8
        return [rec.center[0] + u * mx, self._surface_y(rec, half), rec.center[2] + w * mz]

    def _put_position(self, rec: SimObject, obj: SimObject) -> list[float]:
        """Where a put object lands: where the agent looks on large receptacles, else a slot."""
        if max(rec.half[0], rec.half[2]) <= 0.3:
            return self._slot(rec, obj.half, len(rec.contents))
        fwd, _, _ = geometry.camera_axes(self.rot, self.hor)
        cam = np.array(self.camera)
        lo = np.array(rec.center) - np.array(rec.half)
        hi = np.array(rec.center) + np.array(rec.half)
        ray = cam + fwd * _PUT_T
        clamped = np.minimum(np.maximum(ray, lo), hi)
        gaps = ((ray - clamped) ** 2).sum(axis=1)
        best = clamped[int(np.argmin(gaps))]
        assert best is not None
        mx = max(rec.half[0] - obj.half[0], 0.0)
        mz = max(rec.half[2] - obj.half[2], 0.0)
        x = float(np.clip(best[0], rec.center[0] - mx, rec.center[0] + mx))
        z = float(np.clip(best[2], rec.center[2] - mz, rec.center[2] + mz))
        n = len(rec.contents)
        x += 0.03 * ((n % 3) - 1)
        return [x, self._surface_y(rec, obj.half), z]

    def _carry_held(self) -> None:
        if self.held is None:
            return
        obj = self.objects[self.held]
        yaw = math.radians(self.rot)
        pos = [self.ax + 0.35 * math.sin(yaw), self.ay + geometry.CAMERA_OFFSET - 0.3, self.az + 0.35 * math.cos(yaw)]
        self._move_tree(obj, pos)

    def _xz_to(self, obj: SimObject) -> float:
        return math.hypot(obj.center[0] - self.ax, obj.center[2] - self.az)

    # ------------------------------------------------------------------ dynamics
    def _settle(self, candidates: Iterable[SimObject] | None = None) -> None:
        """Apply appliance rules (heat, cold, water) for the appliances an action affected.

        Rules fire on events, as in AI2-THOR/ALFRED: closing a Fridge cools what it holds; switching on
        (or closing a running) Microwave heats its contents; a running StoveBurner/Toaster/CoffeeMachine or
        Faucet acts on what is put on/under it and on what it holds when switched on."""
        for o in (self._order if candidates is None else candidates):
            if not o.active:
                continue
            t = o.object_type
            if t == "Fridge" and not o.state["isOpen"]:
                for d in self.descendants(o):
                    self._set(d, temperature="Cold", history="cooled")
            elif t in _HEATERS and o.state["isToggled"]:
                if t == "Microwave" and o.state["isOpen"]:
                    continue
                for d in self.descendants(o):
                    self._heat(d, appliance=t)
                    vessel = self._on_burner(d, o).object_type if t == "StoveBurner" else None
                    if vessel in ("Pot", "Pan"):
                        # the vessel it stood in on the burner: a recipe's saucepan is not its frying pan, nor the
                        # other way round (the cooking checker reads these events for a step that names either)
                        self._mark(d, f"heated:StoveBurner:{vessel}")
            elif t == "Faucet" and o.state["isToggled"] and o.controls:
                basin = self.get(o.controls)
                if basin is not None:
                    for d in self.descendants(basin):
                        self._set(d, isDirty=False, history="cleaned")
                        if d.flags.get("canFillWithLiquid") and not d.state["isBroken"]:
                            self._set(d, isFilledWithLiquid=True)
            elif t in ("SinkBasin", "Sink"):
                self._settle([f for f in self._order if f.object_type == "Faucet" and f.controls == o.object_id])

    def now(self) -> int:
        """The time stamped on history events: the env's clock when set, else the step count."""
        return self.version if self.clock is None else self.clock

    def _mark(self, obj: SimObject, event: str) -> None:
        """Record that ``obj`` went through ``event``, stamping the first time it did."""
        if event not in obj.history:
            obj.history.add(event)
            obj.stamps.setdefault(event, self.now())
            obj._meta = None

    def _heat(self, obj: SimObject, appliance: str) -> None:
        # "heated:<appliance>" lets checkers tell a toaster's toast from a pan's (recipes name the appliance)
        if appliance != "Toaster" or obj.object_type == "BreadSliced":
            self._mark(obj, f"heated:{appliance}")
        if appliance == "Toaster":
            if obj.object_type == "BreadSliced":
                self._set(obj, isCooked=True, temperature="Hot", history="heated")
            return
        if appliance == "CoffeeMachine":
            if obj.flags.get("canFillWithLiquid"):
                self._set(obj, isFilledWithLiquid=True, temperature="Hot", history="heated")
            return
        self._set(obj, temperature="Hot", history="heated")
        if obj.flags.get("cookable"):
            self._set(obj, isCooked=True)

    def _set(self, obj: SimObject, history: str | None = None, **state: Any) -> None:
        changed = False
        for k, v in state.items():
            if obj.state.get(k) != v:
                obj.state[k] = v
                changed = True
        if history is not None:
            self._mark(obj, history)
        if changed:
            obj._meta = None
            self._changed(obj)

    # ------------------------------------------------------------------ navigation
    def _set_pose(self, x: float, z: float, rot: float | None = None, hor: float | None = None,
                  y: float | None = None) -> None:
        self.ax, self.az = x, z
        if y is not None:
            self.ay = y
        if rot is not None:
            self.rot = rot % 360.0
        if hor is not None:
            self.hor = hor
        self._carry_held()

    def _move(self, offset: float, k: dict[str, Any]) -> None:
        mag = float(k.get("moveMagnitude", self.grid_size) or self.grid_size)
        yaw = math.radians(self.rot + offset)
        x = round((self.ax + mag * math.sin(yaw)) / 0.01) * 0.01
        z = round((self.az + mag * math.cos(yaw)) / 0.01) * 0.01
        if self._key(x, z) not in self._reach_keys:
            raise ActionError(f"Agent cannot move to ({x:.2f}, {z:.2f}): blocked (not a reachable position)")
        self._set_pose(x, z)

    def _rotate(self, sign: int, k: dict[str, Any]) -> None:
        deg = float(k.get("degrees", 90.0) or 90.0)
        self._set_pose(self.ax, self.az, rot=self.rot + sign * deg)

    def _look(self, sign: int, k: dict[str, Any]) -> None:
        deg = float(k.get("degrees", self.horizon_step) or self.horizon_step)
        new = self.hor + sign * deg
        if new < HORIZON_MIN - 1e-6:
            raise ActionError(f"can't look up beyond {-HORIZON_MIN:g} degrees above the forward horizon")
        if new > HORIZON_MAX + 1e-6:
            raise ActionError(f"can't look down beyond {HORIZON_MAX:g} degrees below the forward horizon")
        self._set_pose(self.ax, self.az, hor=new)

    def _teleport_full(self, k: dict[str, Any]) -> None:
        pos = k.get("position") or {}
        x = float(k.get("x", pos.get("x", self.ax)))
        z = float(k.get("z", pos.get("z", self.az)))
        y = float(k.get("y", pos.get("y", self.ay)))
        rot = k.get("rotation", self.rot)
        if isinstance(rot, dict):
            rot = rot.get("y", self.rot)
        hor = float(k.get("horizon", self.hor))
        if not k.get("forceAction") and self._key(x, z) not in self._reach_keys:
            raise ActionError(f"Teleport failed: ({x:.2f}, {z:.2f}) is not a reachable position")
        if not HORIZON_MIN - 1e-6 <= hor <= HORIZON_MAX + 1e-6:
            raise ActionError(f"Teleport failed: horizon {hor:g} is outside [{HORIZON_MIN:g}, {HORIZON_MAX:g}]")
        self._set_pose(x, z, rot=float(rot), hor=hor, y=y)

    def _teleport(self, k: dict[str, Any]) -> None:
        oid = k.get("objectId")
        if oid is None:
            self._teleport_full(k)
            return
        obj = self._obj(oid)
        pose = self.interaction_pose(obj)
        if pose is None:
            raise ActionError(f"No reachable position from which {obj.object_id} is visible within "
                              f"{geometry.VISIBILITY_DISTANCE} m")
        x, z, rot, hor = pose
        self._set_pose(x, z, rot=rot, hor=hor)

    def interaction_pose(self, obj: SimObject) -> tuple[float, float, float, float] | None:
        """A reachable pose (x, z, rotation, horizon) from which ``obj``'s box is in view and reach."""
        if obj.object_id == self.held:
            return (self.ax, self.az, self.rot, self.hor)
        c = np.array([obj.center]); h = np.array([obj.half])  # noqa: E702
        cy = self.ay + geometry.CAMERA_OFFSET
        spots = sorted(self.reachable, key=lambda p: (round(math.hypot(p[0] - obj.center[0],
                                                                       p[1] - obj.center[2]), 3), p))
        for x, z in spots[:80]:
            dx, dz = obj.center[0] - x, obj.center[2] - z
            bearing = math.degrees(math.atan2(dx, dz)) % 360.0
            rots = sorted((0.0, 90.0, 180.0, 270.0), key=lambda r: (abs((r - bearing + 180) % 360 - 180), r))
            pitch = math.degrees(math.atan2(cy - obj.center[1], max(math.hypot(dx, dz), 1e-6)))
            hors = sorted((-30.0, 0.0, 30.0, 60.0), key=lambda v: (abs(v - pitch), v))
            for rot in rots[:2]:
                for hor in hors:
                    if geometry.visible_mask(np.array([x, cy, z]), rot, hor, c, h)[0]:
                        return (x, z, rot, hor)
        return None

    def _get_reachable(self, k: dict[str, Any]) -> list[dict[str, float]]:
        return [{"x": x, "y": self.ay, "z": z} for x, z in self.reachable]

    # ------------------------------------------------------------------ interaction helpers
    def _obj(self, oid: Any) -> SimObject:
        obj = self.objects.get(oid) if isinstance(oid, str) else None
        if obj is None or not obj.active:
            raise ActionError(INVALID_ID)
        return obj

    def _check_reach(self, obj: SimObject, k: dict[str, Any]) -> None:
        if k.get("forceAction") or obj.object_id == self.held:
            return
        if self.is_hidden(obj):
            raise ActionError(f"{obj.object_id} is not visible: it is inside a closed receptacle")
        geo, _ = self.visibility()
        if not geo[obj.index]:
            d = geometry.box_distance(self.camera, obj.center, obj.half)
            if d > geometry.VISIBILITY_DISTANCE:
                raise ActionError(f"{obj.object_id} is not interactable: it is {d:.2f} m away "
                                  f"(visibility distance is {geometry.VISIBILITY_DISTANCE} m)")
            raise ActionError(f"{obj.object_id} is not visible from the agent's current view")

    def _flag(self, obj: SimObject, flag: str, what: str) -> None:
        if not obj.flags.get(flag):
            raise ActionError(f"{obj.object_id} is not {what}")

    # ------------------------------------------------------------------ object actions
    def _pickup(self, k: dict[str, Any]) -> None:
        obj = self._obj(k.get("objectId"))
        if self.held is not None:
            raise ActionError(f"Agent's hand is already holding {self.held}; put it down first")
        self._flag(obj, "pickupable", "pickupable")
        self._check_reach(obj, k)
        self._detach(obj)
        self.held = obj.object_id
        self._carry_held()
        self._touch(obj)

    def _put(self, k: dict[str, Any]) -> None:
        # AI2-THOR 2.x: objectId = held object, receptacleObjectId = target; later: objectId = target
        rid = k["receptacleObjectId"] if "receptacleObjectId" in k else k.get("objectId")
        if self.held is None:
            raise ActionError("Nothing is held in the agent's hand to put")
        rec = self._obj(rid)
        obj = self.objects[self.held]
        if "receptacleObjectId" in k and k.get("objectId") not in (None, self.held):
            raise ActionError(f"{k['objectId']} is not the object in the agent's hand")
        self._flag(rec, "receptacle", "a receptacle")
        if rec is obj or rec in self.descendants(obj):
            raise ActionError(f"{obj.object_id} cannot be put into itself")
        self._check_reach(rec, k)
        if rec.flags.get("openable") and not rec.state["isOpen"]:
            raise ActionError(f"{rec.object_id} is closed; open it before putting objects in it")
        if not vocab.accepts(rec.object_type, obj.object_type):
            raise ActionError(f"{obj.object_type} cannot be placed in {rec.object_type} "
                              f"(not a valid receptacle for this object type)")
        if not k.get("forceAction") and self._free(rec) < vocab.unit_size(obj.object_type) - 1e-9:
            raise ActionError(f"No valid positions to place object found: {rec.object_id} is full")
        self.held = None
        self._attach(obj, rec)
        self._settle([rec, *(self.objects[a] for a in self.ancestors(rec))])

    def _drop(self, k: dict[str, Any]) -> None:
        if self.held is None:
            raise ActionError("Nothing is held in the agent's hand to drop")
        obj = self.objects[self.held]
        self.held = None
        yaw = math.radians(self.rot)
        self._move_tree(obj, [self.ax + 0.3 * math.sin(yaw), obj.half[1], self.az + 0.3 * math.cos(yaw)])
        self._touch(obj)

    def _open(self, k: dict[str, Any], opening: bool) -> None:
        obj = self._obj(k.get("objectId"))
        self._flag(obj, "openable", "openable")
        self._check_reach(obj, k)
        if obj.state["isOpen"] == opening:
            raise ActionError(f"{obj.object_id} is already {'open' if opening else 'closed'}")
        if obj.object_id == self.held or obj.object_id in self.ancestors_of_held():
            raise ActionError(f"{obj.object_id} cannot be opened or closed while held")
        self._set(obj, isOpen=opening)
        self._touch(obj)
        self._settle([obj])

    def ancestors_of_held(self) -> list[str]:
        """Ids of what contains the held object (empty: the hand holds it directly)."""
        return [] if self.held is None else self.ancestors(self.objects[self.held])

    def _toggle(self, k: dict[str, Any], on: bool) -> None:
        obj = self._obj(k.get("objectId"))
        self._flag(obj, "toggleable", "toggleable")
        self._check_reach(obj, k)
        if obj.state["isToggled"] == on:
            raise ActionError(f"{obj.object_id} is already toggled {'on' if on else 'off'}")
        if obj.state["isBroken"]:
            raise ActionError(f"{obj.object_id} is broken")
        if on and obj.object_type in MUST_BE_CLOSED_TO_TURN_ON and obj.state.get("isOpen"):
            # AI2-THOR's rule (CanToggleOnOff.MustBeClosedToTurnOn: "Target must be closed to Toggle On!"); until
            # stop 39 it switched on and heated nothing, without a word
            raise ActionError(f"{obj.object_id} is open: close it before switching it on (a microwave runs only closed)")
        linked: list[SimObject] = [obj]
        if obj.object_type == "StoveKnob" and obj.controls and self.get(obj.controls):
            linked.append(self.objects[obj.controls])
        elif obj.object_type == "StoveBurner":
            linked += [o for o in self._order if o.object_type == "StoveKnob" and o.controls == obj.object_id]
        for o in linked:
            self._set(o, isToggled=on)
        self._settle(linked)

    def _slice(self, k: dict[str, Any]) -> None:
        obj = self._obj(k.get("objectId"))
        self._flag(obj, "sliceable", "sliceable")
        if obj.state["isSliced"]:
            raise ActionError(f"{obj.object_id} is already sliced")
        held = self.objects[self.held] if self.held else None
        if held is None or held.object_type not in vocab.KNIVES:
            raise ActionError("SliceObject requires the agent to hold a Knife or ButterKnife")
        if obj.object_id == self.held:
            raise ActionError(f"{obj.object_id} cannot be sliced while held")
        self._check_reach(obj, k)
        self._split(obj)

    def _split(self, obj: SimObject) -> list[str]:
        base = obj.object_type
        new_type = "EggCracked" if base == "Egg" else f"{base}Sliced"
        count = vocab.SLICE_COUNT.get(base, 1)
        parent = self.objects[obj.parent] if obj.parent else None
        self._detach(obj)
        obj.active = False
        self._changed(obj)
        self._set(obj, isSliced=True)
        half = vocab.half_size(new_type)
        ids = []
        for i in range(count):
            off = (i - (count - 1) / 2.0) * 0.02
            yaw = math.radians(obj.yaw)
            pos = [obj.position[0] + off * math.cos(yaw), obj.position[1], obj.position[2] - off * math.sin(yaw)]
            state = {"temperature": obj.state["temperature"], "isCooked": obj.state["isCooked"],
                     "isDirty": obj.state["isDirty"], "isSliced": base != "Egg"}
            s = SimObject.build({"objectId": f"{obj.object_id}|{new_type}_{i}", "objectType": new_type,
                                 "position": pos, "center": [pos[0], obj.center[1], pos[2]], "size": half,
                                 "state": state, "rotation": obj.yaw})
            s.history = set(obj.history)
            s.stamps = dict(obj.stamps)
            self._mark(s, "sliced")
            self._add(s)
            if parent is not None:
                self._attach(s, parent, place=False)
            ids.append(s.object_id)
        return ids

    def _cook_refused(self, k: dict[str, Any]) -> None:
        obj = self._obj(k.get("objectId"))
        raise ActionError(
            f"CookObject is not available: food cooks only with heat. To cook {obj.object_id}, put it in a "
            "Pan or Pot on a StoveBurner and switch the burner (or its StoveKnob) on, or put it in the "
            "Microwave, close it and switch it on, or put a bread slice in the Toaster and switch it on.")

    def _break(self, k: dict[str, Any]) -> None:
        obj = self._obj(k.get("objectId"))
        self._flag(obj, "breakable", "breakable")
        self._check_reach(obj, k)
        if obj.state["isBroken"]:
            raise ActionError(f"{obj.object_id} is already broken")
        if obj.object_type == "Egg":
            if obj.object_id == self.held:
                self.held = None
            self._split(obj)
            return
        self._set(obj, isBroken=True, isFilledWithLiquid=False)

    def _dirty(self, k: dict[str, Any], dirty: bool) -> None:
        obj = self._obj(k.get("objectId"))
        self._flag(obj, "dirtyable", "dirtyable")
        self._check_reach(obj, k)
        if obj.state["isDirty"] == dirty:
            raise ActionError(f"{obj.object_id} is already {'dirty' if dirty else 'clean'}")
        self._set(obj, isDirty=dirty)
        if not dirty:
            self._mark(obj, "cleaned")


def _dist_xz(a: Iterable[float], b: Iterable[float]) -> float:
    a, b = list(a), list(b)
    return math.hypot(a[0] - b[0], a[2] - b[2])
