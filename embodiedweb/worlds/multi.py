"""A world that is one of several per episode: the task's ``embodied.world`` names which (its ``kind``).

The assistant domain's episodes happen at home (the kitchen) or out in the city (the street): one env, one
grammar (both worlds' actions), one world live per episode. An action of a world that is not live is
answered with a message, like any refused action; everything else is the live world's.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from embodiedweb.worlds.base import EmbodiedWorld


class MultiWorld(EmbodiedWorld):
    """One of :attr:`parts` per episode (see module docstring); subclasses set ``parts``."""

    #: the worlds an episode may be in; the first is the default
    parts: ClassVar[tuple[type[EmbodiedWorld], ...]] = ()
    kind = "multi"

    def __init__(self) -> None:
        self.worlds = {cls.kind: cls() for cls in self.parts}
        self.live: EmbodiedWorld = self.worlds[self.parts[0].kind]
        self._owner = {s.name.lower(): cls.kind for cls in self.parts for s in cls.action_specs}

    @classmethod
    def kinds(cls) -> tuple[str, ...]:
        """The action domains of the parts (all in the env's grammar)."""
        return tuple(p.kind for p in cls.parts)

    def reset(self, config: dict[str, Any], seed: int) -> None:
        """Make ``config["world"]`` (a part's kind; default the first) live and reset it with ``config``."""
        kind = (config or {}).get("world") or self.parts[0].kind
        if kind not in self.worlds:
            raise ValueError(f"embodied.world {kind!r}: one of {', '.join(self.worlds)}")
        self.live = self.worlds[kind]
        self.live.reset(config, seed)

    def execute(self, name: str, args: dict[str, Any]) -> str:
        """The live world's action; another part's action is refused with a message."""
        owner = self._owner.get(name.lower())
        if owner is not None and owner != self.live.kind:
            return (f"'{name}' is a {owner} action, but this episode's world is the {self.live.kind}: "
                    f"use its actions (see the action list).")
        return self.live.execute(name, args)

    def text(self) -> str:
        return self.live.text()

    def image(self, size: tuple[int, int]) -> np.ndarray:
        return self.live.image(size)

    def semantic_state(self) -> dict[str, Any]:
        """The live world's state, with ``world`` naming it."""
        return {"world": self.live.kind, **self.live.semantic_state()}

    def admissible_actions(self) -> list[str]:
        return self.live.admissible_actions()

    def on_enter(self, deliveries: list[dict[str, Any]]) -> None:
        self.live.on_enter(deliveries)

    def set_clock(self, t: int) -> None:
        self.live.set_clock(t)

    @property
    def first_person(self) -> Any:
        """The live world's first-person camera (``first_person(size, rgb=True)``), or None when it has none
        (the street): the env then shows the top-down view."""
        return getattr(self.live, "first_person", None)

    def __getattr__(self, name: str) -> Any:  # the live world's own helpers (e.g. the kitchen's ``sim``)
        if name in ("worlds", "live", "_owner"):
            raise AttributeError(name)
        return getattr(self.live, name)
