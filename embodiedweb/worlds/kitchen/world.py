"""KitchenWorld: the kitchen as an :class:`~embodiedweb.worlds.base.EmbodiedWorld`.

Object arguments: an objectId always names that object; a type name names the nearest *visible* instance
(for ``Teleport``: the nearest instance anywhere), and is refused, listing the candidates, when the
visible instances of that type differ in state (a raw and a cooked slice). Actions come parsed from the
project's action registry: ``Teleport``, ``MoveAhead``, ``MoveBack``,
``MoveLeft``, ``MoveRight``, ``RotateLeft``, ``RotateRight``, ``LookUp``, ``LookDown``, ``PickupObject``,
``PutObject``, ``OpenObject``, ``CloseObject``, ``SliceObject``, ``ToggleObjectOn``,
``ToggleObjectOff`` (food cooks only with heat: there is no ``CookObject``); object-taking actions get
``args={"obj": "<objectId or type name>"}``. A type name resolves to the nearest interactable instance (for ``Teleport``: the nearest instance).
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from ..base import EmbodiedWorld
from ..spec import ActionSpec, Arg, bare_action
from . import vocab
from .kitchens import kitchen_scene, list_kitchens, object_types
from .observe import HOLDS, object_states
from .sim import MUST_BE_CLOSED_TO_TURN_ON, KitchenSim

#: ``embodied.teleport``: ``all`` (any object may be named, the default) or ``seen`` (not one in a closed receptacle
#: the agent has not opened: the hard cooking tier, where the food is put away)
TELEPORT_MODES = ("all", "seen")


def teleport_problem(embodied: dict[str, Any]) -> str | None:
    """What is wrong with a task's ``embodied.teleport`` (``None``: nothing), for the domains' task checks."""
    mode = embodied.get("teleport", "all")
    return None if mode in TELEPORT_MODES else f"must be one of {', '.join(TELEPORT_MODES)}, got {mode!r}"


def object_action(name: str, desc: str, example: str, label: str = "obj") -> ActionSpec:
    """A kitchen action taking one object (an objectId or a type name)."""
    return ActionSpec(name, "kitchen", (Arg("obj", "object", label=label),), desc, example)


#: The kitchen's actions, in the order prompts list them (the action registry composes its grammar from them).
ACTION_SPECS: tuple[ActionSpec, ...] = (
    object_action("Teleport", "Go to a spot from which the object can be reached.", "Teleport [Fridge]"),
    bare_action("MoveAhead", "kitchen", "Move 0.25 m forward."),
    bare_action("MoveBack", "kitchen", "Move 0.25 m back."),
    bare_action("MoveLeft", "kitchen", "Move 0.25 m to the left."),
    bare_action("MoveRight", "kitchen", "Move 0.25 m to the right."),
    bare_action("RotateLeft", "kitchen", "Turn 90 degrees left."),
    bare_action("RotateRight", "kitchen", "Turn 90 degrees right."),
    bare_action("LookUp", "kitchen", "Tilt the view up."),
    bare_action("LookDown", "kitchen", "Tilt the view down."),
    object_action("PickupObject", "Pick up the object (hands must be empty).", "PickupObject [Apple]"),
    object_action("PutObject", "Put the held object into or onto the receptacle.", "PutObject [Pan]", "receptacle"),
    object_action("OpenObject", "Open the object.", "OpenObject [Fridge]"),
    object_action("CloseObject", "Close the object.", "CloseObject [Fridge]"),
    object_action("SliceObject", "Slice the object (hold a knife).", "SliceObject [Tomato]"),
    object_action("ToggleObjectOn", "Switch the object on. Heat cooks food: a burner that is on cooks what is in "
                  "the pan or pot on it, a closed microwave that is on cooks what is inside (an open one is not switched on: close it first), a toaster that is on "
                  "toasts the bread slice in it.", "ToggleObjectOn [StoveKnob]"),
    object_action("ToggleObjectOff", "Switch the object off.", "ToggleObjectOff [StoveKnob]"),
)
ACTIONS = tuple(s.name for s in ACTION_SPECS)
OBJECT_ACTIONS = tuple(s.name for s in ACTION_SPECS if s.args)
NAV_ACTIONS = tuple(s.name for s in ACTION_SPECS if not s.args)


#: the time stamped on what a task prepares before the episode (the env's first step is 1)
SETUP_TIME = -1
#: what ``add[].prepare`` may list, in order: cut the food, then heat it (or its pieces) as an appliance would
PREPARE_STEPS = ("slice", "heat:StoveBurner", "heat:StoveBurner:Pot", "heat:StoveBurner:Pan", "heat:Microwave",
                 "heat:Toaster")


def prepare(sim: KitchenSim, object_id: str, steps: list[str]) -> list[str]:
    """Ready a food before the episode (see :class:`KitchenWorld`); the ids of what it became."""
    ids = [object_id]
    for step in steps:
        if step == "slice":
            ids = [i for oid in ids for i in sim._split(sim.objects[oid])]
        elif step.startswith("heat:") and step in PREPARE_STEPS:
            _, appliance, *vessel = step.split(":")
            for oid in ids:
                sim._heat(sim.objects[oid], appliance)
                if vessel:  # in a pot or a pan on the burner (the kitchen's event for it)
                    sim._mark(sim.objects[oid], f"heated:{appliance}:{vessel[0]}")
        else:
            raise ValueError(f"unknown preparation {step!r}: use {', '.join(PREPARE_STEPS)}")
    sim.scene_changed()
    return ids


class KitchenWorld(EmbodiedWorld):
    """One of the project's kitchens driven by parsed kitchen actions.

    ``reset(config, seed)`` takes ``{"kitchen_id": "kitchen_03"}`` plus optional ``"remove": [types]`` and
    ``"add": [{"type": ..., "on": receptacle type or objectId, "prepare": [...]}]``. ``prepare`` readies an added food
    before the episode starts (leftovers): ``"slice"`` cuts it, ``"heat:<Appliance>"`` heats it (every piece
    when it was cut) as that appliance would (``"heat:StoveBurner:Pot"``: boiled, in a pot on a burner; ``"heat:StoveBurner:Pan"``: in a frying pan); both are stamped with time -1, before any step.
    """

    kind = "kitchen"
    action_specs = ACTION_SPECS
    action_title = "Kitchen actions (only while the embodied environment is active)"
    action_note = ("[obj] is an objectId (always that object; as in AI2-THOR its numbers are where the "
                   "object started, not where it is now: the scene text says where it is) or a type name: "
                   "the nearest visible instance (Teleport: the nearest anywhere, and when a closed "
                   "receptacle hides it the next observation names that receptacle); refused, listing "
                   "the ids, when the visible instances of that type differ in state.")

    def __init__(self) -> None:
        self.sim: KitchenSim | None = None
        self.kitchen_id = ""
        self.delivered: list[str] = []
        self._note = ""  # said once, in the observation after the action that caused it
        self._state: dict[str, Any] | None = None
        self._state_key: tuple[int, int] | None = None
        #: ``teleport = "seen"`` (the hard cooking tier): what lies in a closed receptacle is known only once seen
        self.seen_only = False
        self._seen: set[str] = set()

    # ------------------------------------------------------------------ lifecycle
    def reset(self, config: dict[str, Any], seed: int) -> None:
        """Build the configured kitchen (default: the first), removing and adding objects as configured."""
        kid = config.get("kitchen_id") or list_kitchens()[0]
        sim = KitchenSim(kitchen_scene(kid))
        rng = random.Random(seed)
        for t in config.get("remove", []) or []:
            for o in [o for o in sim.active_objects() if o.object_type == t]:
                sim.remove_object(o.object_id)
        for item in config.get("add", []) or []:
            otype, on = item["type"], item.get("on", "CounterTop")
            if on in sim.objects and sim.objects[on].active:  # a receptacle by its id: exactly there
                oid = sim.spawn_in(otype, on)
            else:  # a receptacle type: one of them with room, drawn with the episode's seed
                recs = sorted(o.object_id for o in sim.active_objects()
                              if o.object_type == on and sim._free(o) >= vocab.unit_size(otype))
                oid = sim.spawn_in(otype, rng.choice(recs)) if recs else sim.spawn_on_counter(otype)
            if item.get("prepare"):
                sim.clock = SETUP_TIME
                prepare(sim, oid, item["prepare"])
                sim.clock = None
        self.sim = sim
        self.kitchen_id = kid
        self.delivered = []
        self._note = ""
        self._state = self._state_key = None
        teleport = config.get("teleport", "all")
        if teleport not in TELEPORT_MODES:
            raise ValueError(f"embodied.teleport must be one of {', '.join(TELEPORT_MODES)}, got {teleport!r}")
        self.seen_only = teleport == "seen"
        self._seen = set()
        self._look()

    def set_clock(self, t: int) -> None:
        """Stamp kitchen events from now on with time ``t`` (the env's step number)."""
        self._require().clock = int(t)

    def on_enter(self, deliveries: list[dict[str, Any]]) -> None:
        """Place delivered web orders (``{"object_type": "Tomato", ...}``) on a counter top; the next observation
        says which counter each is on."""
        sim = self._require()
        placed = []
        for d in deliveries:
            otype = d.get("object_type") or d.get("type")
            if otype:
                oid = sim.spawn_on_counter(str(otype))
                self.delivered.append(oid)
                placed.append(f"{oid} on {sim.objects[oid].parent}")
        if placed:  # said with the observation of the switch that brought them (which counter they are on)
            self._note = f"Delivered from the shop: {'; '.join(placed)}."

    # ------------------------------------------------------------------ acting
    def execute(self, name: str, args: dict[str, Any]) -> str:
        """Kitchen override: run one kitchen action on the simulator and return the feedback."""
        sim = self._require()
        self._note = ""
        if name not in ACTIONS:
            return f"Invalid action: {name}"
        kwargs: dict[str, Any] = {}
        if name in OBJECT_ACTIONS:
            ref = args.get("obj") if args else None
            if not ref:
                return f"{name} needs an object: {name} [objectId or type]"
            ref = str(ref).strip()
            if "|" not in ref and ref.lower() not in object_types():
                return (f"{ref!r} is no object type or id of a kitchen: name an object by its id or by its type as "
                        "the observation writes it, in brackets after the id (e.g. CounterTop, StoveKnob)")
            if name != "Teleport" and ref not in sim.objects:
                ambiguous = self._ambiguous(ref)
                if ambiguous:
                    return ambiguous
            if self.seen_only:  # an object in a closed receptacle not opened yet is as unknown as an absent one
                known = {o.object_id for o in self._known_objects()}
                oid = sim.resolve(ref, for_teleport=name == "Teleport", among=known)
                if oid is None:
                    return (f"No object named {ref!r} is known in this kitchen: what lies in the open is, and what "
                            "is inside a closed cupboard, drawer or fridge once that has been opened")
            else:
                oid = sim.resolve(ref, for_teleport=name == "Teleport")
            if oid is None:
                return f"Object ID appears to be invalid: no object named {ref!r} in this kitchen"
            if name == "PutObject":
                kwargs["receptacleObjectId"] = oid
                if sim.held:
                    kwargs["objectId"] = sim.held
            else:
                kwargs["objectId"] = oid
        event = sim.step(name, **kwargs)
        if name == "Teleport" and event.lastActionSuccess:
            self._note = self._hidden_note(kwargs["objectId"])
        if self.seen_only:
            self._look(kwargs.get("objectId") if name == "OpenObject" and event.lastActionSuccess else None)
        return "" if event.lastActionSuccess else event.errorMessage

    def _known_objects(self) -> list[Any]:
        """The objects the agent may know of, in the kitchen's order: those not inside a closed receptacle and those
        it has seen (every object, unless ``teleport = "seen"``). One loop without a call per object: the
        discrete-action wrapper asks for their ids at every kitchen step (55 objects: 9-19 -> 6 µs)."""
        sim = self._require()
        if not self.seen_only:
            return sim.active_objects()
        seen, hidden = self._seen, sim.is_hidden
        return [o for o in sim.active_objects() if o.object_id in seen or not hidden(o)]

    def _look(self, opened: str | None = None) -> None:
        """``teleport = "seen"``: remember what is in view now, and what the receptacle just ``opened`` holds in
        the open (opening it is looking in)."""
        if not self.seen_only:
            return
        sim = self._require()
        geo, _ = sim.visibility()
        self._seen.update(o.object_id for o in sim.active_objects() if geo[o.index] and not sim.is_hidden(o))
        if opened is not None and opened in sim.objects:
            self._seen.update(o.object_id for o in sim.descendants(sim.objects[opened]) if not sim.is_hidden(o))

    def known_object_ids(self) -> list[str]:
        """The ids of the objects the agent may name (every object, unless ``teleport = "seen"``: then not those
        inside a closed receptacle it has not seen), in the kitchen's order."""
        return [o.object_id for o in self._known_objects()]

    def _hidden_note(self, oid: str) -> str:
        """After a Teleport to an object a closed receptacle hides: which one (the agent faces it)."""
        sim = self._require()
        for rid in sim.ancestors(sim.objects[oid]):
            rec = sim.objects[rid]
            if rec.flags.get("openable") and not rec.state.get("isOpen"):
                return f"Note: {oid} is inside the closed {rid}, in front of you: open it to see it."
        return ""

    def _ambiguous(self, type_name: str) -> str:
        """An error when the visible instances of a type name differ in state (else "")."""
        sim = self._require()
        seen = [o for o in sim.active_objects() if o.object_type.lower() == type_name.lower() and sim.is_visible(o)]
        # (what a receptacle holds is no state of its own: an empty cabinet and a full one are not ambiguous)
        states = {o.object_id: ", ".join(s for s in object_states(sim, o)
                                         if s not in ("in hand", "empty") and not s.startswith(HOLDS + " "))
                  or "no state" for o in seen}
        if len(set(states.values())) < 2:
            return ""
        listed = "; ".join(f"{oid} ({st})" for oid, st in sorted(states.items()))
        return (f"'{type_name}' is ambiguous: the {seen[0].object_type} objects in view differ ({listed}). "
                "Name one by its objectId.")

    # ------------------------------------------------------------------ observations
    def text(self) -> str:
        """The scene text, after the last action's note if any."""
        scene = self._require().scene_text()
        return f"{self._note}\n{scene}" if self._note else scene

    def image(self, size: tuple[int, int] = (300, 300)) -> np.ndarray:
        """The simulator's rendering at ``size``."""
        return self._require().render(size)

    def first_person(self, size: tuple[int, int] = (300, 300), rgb: bool = True, masks: bool = True) -> Any:
        """The agent's first-person view: a :class:`~.egocentric.Frame` (RGB, depth in metres, instance
        mask with values ``obj.index + 1``; ``masks=False`` leaves the mask out, which saves a little with
        RGB) drawn from the simulator's boxes (see :mod:`.egocentric`); a backend with its own camera
        (AI2-THOR: :meth:`.thor_backend.ThorKitchen.first_person`) gives its own."""
        from .egocentric import render_frame

        sim = self._require()
        own = getattr(sim, "first_person", None)
        if callable(own):
            return own(size, rgb=rgb)
        return render_frame(sim, size, rgb=rgb, masks=masks)

    def semantic_state(self) -> dict[str, Any]:
        """The kitchen's semantic state (agent pose, held object, every object's states). Built once per
        sim step and shared by all readers until the next one: treat it as read-only."""
        sim = self._require()
        key = (sim.version, len(self.delivered), len(self._seen))  # reset() drops the cache with the old sim
        if self._state_key != key or self._state is None:
            self._state, self._state_key = self._build_semantic_state(sim), key
        return self._state

    def _build_semantic_state(self, sim: KitchenSim) -> dict[str, Any]:
        objs = []
        for o in sim.active_objects():
            objs.append({
                "objectId": o.object_id, "objectType": o.object_type,
                "parentReceptacles": sim.ancestors(o),
                "receptacleObjectIds": [d.object_id for d in sim.descendants(o)] if o.flags["receptacle"] else [],
                **{k: o.state[k] for k in ("isOpen", "isToggled", "isSliced", "isCooked", "isBroken", "isDirty",
                                           "isFilledWithLiquid", "temperature")},
                "history": sorted(o.history), "stamps": dict(sorted(o.stamps.items())), "placedAt": SETUP_TIME if o.placed is None else o.placed,
                "isPickedUp": o.object_id == sim.held,
                "position": [round(v, 3) for v in o.position],
            })
        state = {"kitchen_id": self.kitchen_id, "sceneName": sim.scene_name,
                 "agent": {"x": sim.ax, "y": sim.ay, "z": sim.az, "rotation": sim.rot, "horizon": sim.hor},
                 "held": sim.held, "delivered": list(self.delivered), "objects": objs}
        if self.seen_only:  # what the agent has seen this episode (in view, or in a receptacle it opened)
            state["seen"] = sorted(self._seen)
        return state

    def admissible_actions(self) -> list[str]:
        """Reachable moves, rotations, looks within range, ``Teleport`` per object type, and the actions valid on visible objects."""
        sim = self._require()
        out: list[str] = []
        keys = sim._reach_keys
        for act, off in (("MoveAhead", 0), ("MoveRight", 90), ("MoveBack", 180), ("MoveLeft", 270)):
            yaw = math.radians(sim.rot + off)
            if sim._key(sim.ax + 0.25 * math.sin(yaw), sim.az + 0.25 * math.cos(yaw)) in keys:
                out.append(act)
        out += ["RotateLeft", "RotateRight"]
        if sim.hor - sim.horizon_step >= -30 - 1e-6:
            out.append("LookUp")
        if sim.hor + sim.horizon_step <= 60 + 1e-6:
            out.append("LookDown")
        named = self._known_objects()
        out += [f"Teleport [{t}]" for t in sorted({o.object_type for o in named})]
        held = sim.objects[sim.held] if sim.held else None
        for o in sim.active_objects():
            if o.object_id == sim.held or not sim.is_visible(o):
                continue
            oid, f, s = o.object_id, o.flags, o.state
            if held is None and f["pickupable"]:
                out.append(f"PickupObject [{oid}]")
            if held is not None and f["receptacle"] and (not f["openable"] or s["isOpen"]) \
                    and vocab.accepts(o.object_type, held.object_type) \
                    and sim._free(o) >= vocab.unit_size(held.object_type) and o not in sim.descendants(held):
                out.append(f"PutObject [{oid}]")
            if f["openable"]:
                out.append(f"{'CloseObject' if s['isOpen'] else 'OpenObject'} [{oid}]")
            if f["toggleable"] and not s["isBroken"] and not (
                    not s["isToggled"] and s.get("isOpen") and o.object_type in MUST_BE_CLOSED_TO_TURN_ON):
                out.append(f"{'ToggleObjectOff' if s['isToggled'] else 'ToggleObjectOn'} [{oid}]")
            if f["sliceable"] and not s["isSliced"] and held is not None and held.object_type in vocab.KNIVES:
                out.append(f"SliceObject [{oid}]")
        return out

    def describe(self) -> str:
        """One line per object with its states (for debugging and prompts)."""
        sim = self._require()
        return "\n".join(f"{o.object_id}: {', '.join(object_states(sim, o))}" for o in sim.active_objects())

    def _require(self) -> KitchenSim:
        if self.sim is None:
            self.reset({}, 0)
        assert self.sim is not None
        return self.sim
