"""Parse action strings into typed actions and describe the action set for prompts.

Grammar: ``name`` followed by bracketed arguments, e.g. ``click [12]``,
``type [7] [scrambled eggs] [1]``, ``PickupObject [Apple]``, ``stop [Times Square]``.
Brackets may be left out when there is one argument (``click 12``); names are matched without
regard to case; surrounding back-quotes are ignored. Nothing is ever evaluated.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

DOMAINS = ("web", "kitchen", "street", "meta")


class ActionError(ValueError):
    """An action string that does not parse or whose arguments are invalid."""


@dataclass(frozen=True)
class Arg:
    """One argument: ``kind`` is ``id`` (page element id), ``int``, ``text`` (free text, may be
    empty when ``optional``), ``choice`` (one of ``choices``), ``flag`` (0/1), ``object`` (an objectId or
    type name), ``node`` (street node id), ``url`` or ``key``."""

    name: str
    kind: str
    optional: bool = False
    choices: tuple[str, ...] = ()
    default: Any = None
    label: str = ""


@dataclass(frozen=True)
class ActionSpec:
    """One action of the grammar."""

    name: str
    domain: str
    args: tuple[Arg, ...]
    description: str
    example: str

    @property
    def signature(self) -> str:
        parts = [self.name]
        for a in self.args:
            label = "|".join(a.choices) if a.kind == "choice" else ("0|1" if a.kind == "flag" else a.label or a.name)
            parts.append(f"[{label}]" if not a.optional else f"[{label}]?")
        return " ".join(parts)


@dataclass(frozen=True)
class ParsedAction:
    """A parsed action: its name (canonical spelling), domain, typed arguments and the raw string."""

    name: str
    domain: str
    args: dict[str, Any] = field(default_factory=dict)
    raw: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "domain": self.domain, "args": self.args}

    def __str__(self) -> str:
        spec = REGISTRY.get(self.name)
        if spec is None:
            return self.name
        parts = [self.name]
        for a in spec.args:
            if a.name in self.args and not (a.optional and self.args[a.name] in (None, "")):
                v = self.args[a.name]
                parts.append(f"[{int(v) if isinstance(v, bool) else v}]")
        return " ".join(parts)


_GROUP = re.compile(r"\[([^\[\]]*)\]")


def _split_args(rest: str, n_args: int, last_free: bool) -> list[str]:
    """Split the text after the action name into argument strings."""
    rest = rest.strip()
    if not rest:
        return []
    if rest.startswith("["):
        if last_free:
            groups: list[str] = []
            pos = 0
            for _ in range(max(n_args - 1, 0)):
                m = _GROUP.match(rest, pos)
                if not m:
                    break
                groups.append(m.group(1))
                pos = m.end()
                while pos < len(rest) and rest[pos] == " ":
                    pos += 1
            tail = rest[pos:]
            if tail.startswith("[") and tail.endswith("]"):
                groups.append(tail[1:-1])
            elif tail.startswith("["):
                groups.append(tail[1:])  # lenient: an unclosed last bracket
            elif tail:
                groups.append(tail)
            return groups
        groups = [m.group(1) for m in _GROUP.finditer(rest)]
        leftover = _GROUP.sub("", rest).strip()
        if leftover:
            groups.append(leftover)  # reported as a wrong argument or a wrong count
        return groups
    if n_args <= 1:
        return [rest]
    head, _, tail = rest.partition(" ")
    return [head, tail] if tail else [head]


class ActionRegistry:
    """Every action of the grammar, by domain, with parsing and prompt descriptions."""

    def __init__(self, specs: Iterable[ActionSpec]) -> None:
        self.specs: dict[str, ActionSpec] = {}
        self._lower: dict[str, ActionSpec] = {}
        for s in specs:
            self.specs[s.name] = s
            self._lower[s.name.lower()] = s

    def get(self, name: str) -> ActionSpec | None:
        return self._lower.get(name.lower())

    def names(self, domains: Iterable[str]) -> list[str]:
        ds = set(domains)
        return [s.name for s in self.specs.values() if s.domain in ds]

    def describe(self, domains: Iterable[str] = DOMAINS, with_examples: bool = True) -> str:
        """A prompt-ready description of the actions of ``domains``, grouped by domain."""
        titles = {"web": "Web actions (only while the web is active)",
                  "kitchen": "Kitchen actions (only while the embodied environment is active)",
                  "street": "Street actions (only while the embodied environment is active)",
                  "meta": "Actions in both environments"}
        out: list[str] = []
        for d in DOMAINS:
            if d not in set(domains):
                continue
            specs = [s for s in self.specs.values() if s.domain == d]
            if not specs:
                continue
            out.append(f"## {titles[d]}")
            if d == "kitchen":
                out.append("[obj] is an objectId (always that object; as in AI2-THOR its numbers are where the "
                           "object started, not where it is now: the scene text says where it is) or a type name: "
                           "the nearest visible instance (Teleport: the nearest anywhere, and when a closed "
                           "receptacle hides it the next observation names that receptacle); refused, listing "
                           "the ids, when the visible instances of that type differ in state.")
            for s in specs:
                line = f"- {s.signature}: {s.description}"
                if with_examples:
                    line += f" Example: `{s.example}`"
                out.append(line)
        return "\n".join(out)

    def parse(self, text: Any, domains: Iterable[str] = DOMAINS) -> ParsedAction:
        """Parse ``text`` into a :class:`ParsedAction`; raise :class:`ActionError` saying what is wrong."""
        allowed = set(domains)
        if not isinstance(text, str):
            raise ActionError(f"An action must be a string, got {type(text).__name__}. "
                              f"Valid actions: {self._short(allowed)}")
        raw = text
        s = text.strip().strip("`").strip()
        if not s:
            raise ActionError(f"Empty action. Valid actions: {self._short(allowed)}")
        if "\n" in s:
            s = s.splitlines()[0].strip()
        m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)", s)
        if not m:
            raise ActionError(f"Cannot read an action name in '{_clip(s)}'. Valid actions: {self._short(allowed)}")
        spec = self.get(m.group(1))
        if spec is None and m.group(1).lower() in RETIRED:
            raise ActionError(RETIRED[m.group(1).lower()])
        if spec is None:
            close = difflib.get_close_matches(m.group(1), list(self.specs), n=1, cutoff=0.6)
            hint = f" Did you mean '{close[0]}'?" if close else ""
            raise ActionError(f"Unknown action '{m.group(1)}'.{hint} Valid actions: {self._short(allowed)}")
        if spec.domain not in allowed:
            raise ActionError(f"'{spec.name}' is a {spec.domain} action, not available in this environment. "
                              f"Valid actions: {self._short(allowed)}")
        rest = s[m.end():]
        if rest and not rest[0].isspace() and rest[0] != "[":
            raise ActionError(f"Cannot read '{_clip(s)}': put a space or '[' after '{spec.name}'. "
                              f"Usage: {spec.signature}")
        last_free = bool(spec.args) and spec.args[-1].kind == "text" or (
            len(spec.args) >= 2 and spec.args[-2].kind == "text")
        parts = _split_args(rest, len(spec.args), last_free)
        if spec.name == "type":
            parts = self._split_type(rest)
        required = [a for a in spec.args if not a.optional]
        if len(parts) < len(required) or len(parts) > len(spec.args):
            want = len(required) if len(required) == len(spec.args) else f"{len(required)} to {len(spec.args)}"
            raise ActionError(f"'{spec.name}' takes {want} argument(s), got {len(parts)}. "
                              f"Usage: {spec.signature}, e.g. `{spec.example}`")
        args: dict[str, Any] = {}
        for a, p in zip(spec.args, parts, strict=False):
            args[a.name] = self._convert(spec, a, p)
        for a in spec.args[len(parts):]:
            args[a.name] = a.default
        return ParsedAction(spec.name, spec.domain, args, raw)

    @staticmethod
    def _split_type(rest: str) -> list[str]:
        rest = rest.strip()
        m = re.match(r"^\[([^\[\]]*)\]\s*\[(.*)\]\s*\[([^\[\]\s]{1,5})\]$", rest, re.S)
        if m:
            return [m.group(1), m.group(2), m.group(3)]
        m = re.match(r"^\[([^\[\]]*)\]\s*\[(.*)\]$", rest, re.S)
        if m:
            return [m.group(1), m.group(2)]
        m = re.match(r"^\[?(\w+)\]?\s+(.*)$", rest, re.S)
        if m:
            return [m.group(1), m.group(2)]
        return [rest.strip("[]")] if rest else []

    def _convert(self, spec: ActionSpec, a: Arg, value: str) -> Any:
        v = value.strip()
        usage = f"Usage: {spec.signature}, e.g. `{spec.example}`"
        if a.kind == "id":
            if not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", v):
                raise ActionError(f"'{_clip(v)}' is not an element id; ids are the numbers in brackets in the "
                                  f"page tree, like [12]. {usage}")
            return v
        if a.kind == "int":
            if not re.fullmatch(r"-?\d{1,6}", v):
                raise ActionError(f"'{_clip(v)}' is not a whole number. {usage}")
            return int(v)
        if a.kind == "flag":
            if v not in ("0", "1", "true", "false", "True", "False", ""):
                raise ActionError(f"The last argument of '{spec.name}' is 0 or 1, not '{_clip(v)}'. {usage}")
            return v in ("1", "true", "True")
        if a.kind == "choice":
            low = v.lower()
            if low not in a.choices:
                raise ActionError(f"'{_clip(v)}' is not one of {', '.join(a.choices)}. {usage}")
            return low
        if a.kind in ("object", "node", "key", "url"):
            if not v:
                raise ActionError(f"'{spec.name}' needs a {a.name}. {usage}")
            if len(v) > 2000:
                raise ActionError(f"The {a.name} is too long ({len(v)} characters). {usage}")
            return v
        # free text
        if len(value) > 10000:
            raise ActionError(f"The {a.name} is too long ({len(value)} characters, at most 10000).")
        return value if spec.name == "type" else v

    def _short(self, domains: set[str]) -> str:
        return ", ".join(s.signature for s in self.specs.values() if s.domain in domains)


#: Actions that look like AI2-THOR's but are not in this grammar, with the reason told to the agent.
RETIRED = {
    "cookobject": "CookObject is not an action here: food cooks only with heat, as in AI2-THOR's physics. Put "
                  "the food in a Pan or Pot on a StoveBurner and switch the burner (or its StoveKnob) on; or put "
                  "it in the Microwave, close it and switch it on; or put a bread slice in the Toaster and switch "
                  "it on.",
}


def _clip(s: str, n: int = 60) -> str:
    return s if len(s) <= n else s[: n - 3] + "..."


def _obj(name: str, desc: str, example: str, label: str = "obj") -> ActionSpec:
    return ActionSpec(name, "kitchen", (Arg("obj", "object", label=label),), desc, example)


def _bare(name: str, domain: str, desc: str) -> ActionSpec:
    return ActionSpec(name, domain, (), desc, name)


SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("click", "web", (Arg("id", "id"),), "Click the element with this id.", "click [12]"),
    ActionSpec("type", "web", (Arg("id", "id"), Arg("text", "text"), Arg("enter", "flag", True, default=False)),
               "Replace the content of a text field with the text (or choose an option of a select); "
               "1 at the end presses Enter after typing.", "type [7] [scrambled eggs] [1]"),
    ActionSpec("hover", "web", (Arg("id", "id"),), "Move the mouse over the element.", "hover [12]"),
    ActionSpec("press", "web", (Arg("key_comb", "key"),), "Press a key combination.", "press [Enter]"),
    ActionSpec("scroll", "web", (Arg("direction", "choice", choices=("up", "down")),),
               "Scroll the page up or down.", "scroll [down]"),
    _bare("new_tab", "web", "Open a new tab on the home page."),
    _bare("close_tab", "web", "Close the active tab."),
    ActionSpec("tab_focus", "web", (Arg("index", "int"),), "Switch to the tab with this index (from 0).",
               "tab_focus [0]"),
    ActionSpec("goto", "web", (Arg("url", "url"),), "Open a URL of the local sites.", "goto [http://ewa.local/]"),
    _bare("go_back", "web", "Go back to the previous page."),
    _bare("go_forward", "web", "Go forward to the next page."),
    _obj("Teleport", "Go to a spot from which the object can be reached.", "Teleport [Fridge]"),
    _bare("MoveAhead", "kitchen", "Move 0.25 m forward."),
    _bare("MoveBack", "kitchen", "Move 0.25 m back."),
    _bare("MoveLeft", "kitchen", "Move 0.25 m to the left."),
    _bare("MoveRight", "kitchen", "Move 0.25 m to the right."),
    _bare("RotateLeft", "kitchen", "Turn 90 degrees left."),
    _bare("RotateRight", "kitchen", "Turn 90 degrees right."),
    _bare("LookUp", "kitchen", "Tilt the view up."),
    _bare("LookDown", "kitchen", "Tilt the view down."),
    _obj("PickupObject", "Pick up the object (hands must be empty).", "PickupObject [Apple]"),
    _obj("PutObject", "Put the held object into or onto the receptacle.", "PutObject [Pan]", "receptacle"),
    _obj("OpenObject", "Open the object.", "OpenObject [Fridge]"),
    _obj("CloseObject", "Close the object.", "CloseObject [Fridge]"),
    _obj("SliceObject", "Slice the object (hold a knife).", "SliceObject [Tomato]"),
    _obj("ToggleObjectOn", "Switch the object on. Heat cooks food: a burner that is on cooks what is in the pan "
         "or pot on it, a closed microwave that is on cooks what is inside, a toaster that is on toasts the "
         "bread slice in it.", "ToggleObjectOn [StoveKnob]"),
    _obj("ToggleObjectOff", "Switch the object off.", "ToggleObjectOff [StoveKnob]"),
    _bare("forward", "street", "Walk to the neighbouring node labelled ahead (if none, to the one labelled "
          "ahead-left or ahead-right nearest to straight ahead); refused when there is neither."),
    _bare("left", "street", "Walk to the neighbouring node labelled left (turning and walking there is one "
          "action); if none, to the one labelled ahead-left, behind-left or behind nearest to 90 degrees left, "
          "so at a dead end or mid-block it walks back the way you came."),
    _bare("right", "street", "Walk to the neighbouring node labelled right (turning and walking there is one "
          "action); if none, to the one labelled ahead-right, behind-right or behind nearest to 90 degrees "
          "right, so at a dead end or mid-block it walks back the way you came."),
    ActionSpec("move", "street", (Arg("node_id", "node"),), "Walk to the neighbouring node with this id. After "
               "any walk you face the way you walked.",
               "move [n0123]"),
    ActionSpec("switch_environment", "meta", (Arg("message", "text", True, default=""),),
               "Switch between the web and the embodied environment, carrying a note (e.g. the step you "
               "are about to do) into the next observation.", "switch_environment [next: slice the tomato]"),
    ActionSpec("stop", "meta", (Arg("answer", "text", True, default=""),),
               "End the episode, with an answer if the task asks for one.", "stop [Times Square]"),
)

REGISTRY = ActionRegistry(SPECS)
