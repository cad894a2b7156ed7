"""The types of the action grammar: one :class:`ActionSpec` per action, with its typed :class:`Arg` s.

They live beside the world interface because every world declares its own actions with them
(``EmbodiedWorld.action_specs``); :mod:`embodiedweb.actions` composes the web actions, the worlds' actions
and the meta actions into the registry that parses and describes action strings (and re-exports these
types). Plain data: nothing here imports the rest of the package.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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
    """One action of the grammar; ``domain`` is ``web``, ``meta`` or the ``kind`` of the world that runs it."""

    name: str
    domain: str
    args: tuple[Arg, ...]
    description: str
    example: str

    @property
    def signature(self) -> str:
        """The action as ``name [arg] [arg]?``, choices joined by ``|``."""
        parts = [self.name]
        for a in self.args:
            label = "|".join(a.choices) if a.kind == "choice" else ("0|1" if a.kind == "flag" else a.label or a.name)
            parts.append(f"[{label}]" if not a.optional else f"[{label}]?")
        return " ".join(parts)


def bare_action(name: str, domain: str, desc: str) -> ActionSpec:
    """An action without arguments (its example is its name)."""
    return ActionSpec(name, domain, (), desc, name)
