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

from embodiedweb.worlds.base import EmbodiedWorld
from embodiedweb.worlds.kitchen.world import KitchenWorld
from embodiedweb.worlds.spec import ActionSpec, Arg, bare_action
from embodiedweb.worlds.street.world import StreetWorld

__all__ = ["BUILTIN_WORLDS", "DIALOGUE_SPECS", "DOMAINS", "META_SPECS", "REGISTRY", "SPECS", "WEB_SPECS", "ActionError",
           "ActionRegistry", "ActionSpec", "Arg", "ParsedAction", "compose"]


class ActionError(ValueError):
    """An action string that does not parse or whose arguments are invalid."""


@dataclass(frozen=True)
class ParsedAction:
    """A parsed action: its name (canonical spelling), domain, typed arguments and the raw string."""

    name: str
    domain: str
    args: dict[str, Any] = field(default_factory=dict)
    raw: str = ""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of name, domain and args."""
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


def _split_url(rest: str) -> list[str]:
    """The argument of an action taking one URL (``goto``): the whole text between the first ``[`` and the last
    ``]``, so that a URL with brackets in it (``goto [/shop/search?q=[x]]``) is one argument. Two bracketed
    groups (``goto [url] [1]``, a ``] [`` inside) or text after the last ``]`` stay two arguments (an error
    that says so); an unclosed bracket is forgiven, as for the last argument of other actions."""
    rest = rest.strip()
    if not rest.startswith("["):
        return [rest] if rest else []
    end = rest.rfind("]")
    if end < 0:
        return [rest[1:]]
    inner, after = rest[1:end], rest[end + 1:].strip()
    if re.search(r"\]\s+\[", inner):
        head, _, tail = re.split(r"(\]\s+\[)", inner, maxsplit=1)
        return [head, tail] + ([after] if after else [])
    return [inner, after] if after else [inner]


class ActionRegistry:
    """Every action of the grammar, by domain, with parsing and prompt descriptions."""

    def __init__(self, specs: Iterable[ActionSpec], titles: dict[str, str] | None = None,
                 notes: dict[str, str] | None = None) -> None:
        self.specs: dict[str, ActionSpec] = {}
        self._lower: dict[str, ActionSpec] = {}
        self.titles: dict[str, str] = {**TITLES, **(titles or {})}
        self.notes: dict[str, str] = dict(notes or {})
        self._set(specs)

    def _set(self, specs: Iterable[ActionSpec]) -> None:
        self.specs, self._lower = {}, {}
        for s in specs:
            self.specs[s.name] = s
            self._lower[s.name.lower()] = s

    @property
    def domains(self) -> tuple[str, ...]:
        """The action domains in the order of the grammar (``web``, the worlds' kinds, ``meta``)."""
        return tuple(dict.fromkeys(s.domain for s in self.specs.values()))

    def add_world(self, world: type[EmbodiedWorld] | EmbodiedWorld) -> bool:
        """Compose ``world``'s declared ``action_specs`` into the grammar (before the meta actions); returns
        whether anything was added. A world of a kind already there must declare the same actions (the geo
        world reuses the street world's); an action name another domain uses is refused."""
        parts = getattr(world, "parts", ())
        if parts:  # a world that is one of several per episode (:class:`~embodiedweb.worlds.multi.MultiWorld`)
            return any([self.add_world(p) for p in parts])
        kind, specs = world.kind, tuple(world.action_specs)
        if not kind or not specs:
            raise ValueError(f"world {getattr(world, '__name__', type(world).__name__)} declares no kind or no "
                             "action_specs")
        if any(s.domain != kind for s in specs):
            raise ValueError(f"world kind {kind!r}: every action spec's domain must be {kind!r}")
        have = tuple(s for s in self.specs.values() if s.domain == kind)
        if have:
            if have != specs:
                raise ValueError(f"world kind {kind!r} is already in the grammar with other actions")
            return False
        clash = [s.name for s in specs if self.get(s.name) is not None]
        if clash:
            raise ValueError(f"world kind {kind!r}: action name(s) {', '.join(clash)} already in the grammar")
        rest = [s for s in self.specs.values() if s.domain not in TRAILING]
        self._set([*rest, *specs, *(s for s in self.specs.values() if s.domain in TRAILING)])
        if world.action_title:
            self.titles[kind] = world.action_title
        if world.action_note:
            self.notes[kind] = world.action_note
        return True

    def get(self, name: str) -> ActionSpec | None:
        """The spec for an action name (case-insensitive), or ``None``."""
        return self._lower.get(name.lower())

    def names(self, domains: Iterable[str]) -> list[str]:
        """Names of the actions that belong to any of the given domains."""
        ds = set(domains)
        return [s.name for s in self.specs.values() if s.domain in ds]

    def describe(self, domains: Iterable[str] | None = None, with_examples: bool = True) -> str:
        """A prompt-ready description of the actions of ``domains`` (default: all), grouped by domain."""
        wanted = set(self.domains if domains is None else domains)
        out: list[str] = []
        for d in self.domains:
            if d not in wanted:
                continue
            specs = [s for s in self.specs.values() if s.domain == d]
            out.append(f"## {self.titles.get(d) or d.capitalize() + ' actions'}")
            if self.notes.get(d):
                out.append(self.notes[d])
            for s in specs:
                line = f"- {s.signature}: {s.description}"
                if with_examples:
                    line += f" Example: `{s.example}`"
                out.append(line)
        return "\n".join(out)

    def parse(self, text: Any, domains: Iterable[str] | None = None) -> ParsedAction:
        """Parse ``text`` into a :class:`ParsedAction`; raise :class:`ActionError` saying what is wrong.
        ``domains``: the action domains allowed (default: all)."""
        allowed = set(self.domains if domains is None else domains)
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
            _refuse_unbracketed_flag(rest, parts)
        elif len(spec.args) == 1 and spec.args[0].kind == "url":
            parts = _split_url(rest)
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
        # a bracketed text and then the flag without its brackets ("type [7] [eggs] 1"): players wrote it so, and
        # typing "[eggs] 1" into the field is never what they meant
        m = re.match(r"^\[([^\[\]]*)\]\s*\[(.*)\]\s+(0|1|true|false|True|False)$", rest, re.S)
        if m:
            return [m.group(1), m.group(2), m.group(3)]
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
    # web verbs of other agent frameworks (BrowserGym's select_option, Playwright's fill): difflib's nearest
    # names ('left', 'click') would send the agent the wrong way
    "select": "'select' is not an action here: to choose an option of a drop-down, click the option's id, or "
              "type [id] [option text] on the drop-down's id.",
    "select_option": "'select_option' is not an action here: to choose an option of a drop-down, click the "
                     "option's id, or type [id] [option text] on the drop-down's id.",
    "fill": "'fill' is not an action here: type [id] [text] replaces a text field's content (type [id] [text] [1] "
            "also presses Enter).",
}


def _refuse_unbracketed_flag(rest: str, parts: list[str]) -> None:
    """Refuse ``type [13] Longhe 1``: a text without brackets that ends in a lone flag (0, 1, true, false or enter,
    bracketed or not). It reads as the Enter flag to players (stop 39: six of the ten who used ``type`` wrote so and
    meant Enter) and as part of the text to the grammar, which typed "Longhe 1" and pressed nothing; which was meant
    is the agent's to say, so the answer shows both forms."""
    if len(parts) != 2 or rest.strip().startswith("[") and "]" in rest and re.search(r"\]\s*\[", rest):
        return
    m = re.fullmatch(r"(.*\S)\s+(\[)?(0|1|true|false|True|False|enter|Enter)(?(2)\])", parts[1].strip(), re.S)
    if m is None:
        return
    text, flag = m.group(1), m.group(3)
    flag = "1" if flag in ("enter", "Enter") else flag
    raise ActionError(f"Is the last '{flag}' part of the text or the flag that presses Enter? Put the text in "
                      f"brackets: `type [{parts[0]}] [{_clip(text, 40)}] [{flag}]` types '{_clip(text, 40)}' "
                      f"{'and presses Enter' if flag in ('1', 'true', 'True') else 'without pressing Enter'}; "
                      f"`type [{parts[0]}] [{_clip(parts[1].strip(), 40)}]` types all of it.")


def _clip(s: str, n: int = 60) -> str:
    return s if len(s) <= n else s[: n - 3] + "..."


_bare = bare_action  # the name the grammar's own tables use

#: The web actions (the same in every env whose domain uses the web).
WEB_SPECS: tuple[ActionSpec, ...] = (
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
)

#: The actions of both environments.
META_SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("switch_environment", "meta", (Arg("message", "text", True, default=""),),
               "Switch between the web and the embodied environment, carrying a note (e.g. the step you "
               "are about to do) into the next observation.", "switch_environment [next: slice the tomato]"),
    ActionSpec("stop", "meta", (Arg("answer", "text", True, default=""),),
               "End the episode, with an answer if the task asks for one.", "stop [Times Square]"),
)

#: The actions of envs that give their instructions one at a time (a domain with ``multi_turn``, e.g.
#: EWA-Assistant-v0); other envs refuse them.
DIALOGUE_SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("done", "dialogue", (Arg("answer", "text", True, default=""),),
               "Tell the user the current instruction is done, with the answer if it asks a question; the next "
               "instruction follows (after the last one the episode ends).", "done [Sunny Feast Bowl]"),
)

#: The action domains that close the grammar, after the worlds' actions (in this order).
TRAILING = ("meta", "dialogue")

TITLES = {"web": "Web actions (only while the web is active)", "meta": "Actions in both environments",
          "dialogue": "Dialogue actions (the user gives instructions one at a time)"}

#: The worlds of the shipped domains; a plug-in domain's world is added when its env is made
#: (:meth:`ActionRegistry.add_world`, called by :func:`embodiedweb.registration.make_env`).
BUILTIN_WORLDS: tuple[type[EmbodiedWorld], ...] = (KitchenWorld, StreetWorld)


def compose(worlds: Iterable[type[EmbodiedWorld] | EmbodiedWorld] = BUILTIN_WORLDS) -> ActionRegistry:
    """A registry of the web actions, the actions each of ``worlds`` declares, then the meta actions."""
    reg = ActionRegistry([*WEB_SPECS, *META_SPECS, *DIALOGUE_SPECS])
    for w in worlds:
        reg.add_world(w)
    return reg


REGISTRY = compose()
#: The grammar of the shipped worlds: web, kitchen, street, meta actions
SPECS: tuple[ActionSpec, ...] = tuple(REGISTRY.specs.values())
DOMAINS: tuple[str, ...] = REGISTRY.domains
