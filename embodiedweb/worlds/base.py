"""The interface every embodied world implements (kitchen, street, ...).

A world owns one semantic state. Text, images and admissible actions are projections of it;
checkers read :meth:`EmbodiedWorld.semantic_state` directly.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from embodiedweb.worlds.spec import ActionSpec


class EmbodiedWorld(ABC):
    """An embodied world driven by parsed actions from the action registry.

    ``kind`` names the action domain the world accepts (``"kitchen"`` or ``"street"``); a domain's
    ``world_kind`` is its world's ``kind``. ``action_specs`` are the world's actions (each with
    ``domain == kind``), declared once here: :mod:`embodiedweb.actions` composes the grammar from the web
    actions, every world's ``action_specs`` and the meta actions. ``action_title`` heads them in prompts
    and ``action_note`` (optional) follows the title.
    """

    kind: str = ""
    action_specs: tuple[ActionSpec, ...] = ()
    action_title: str = ""
    action_note: str = ""

    @abstractmethod
    def reset(self, config: dict[str, Any], seed: int) -> None:
        """Rebuild the world from a task's embodied config, deterministically for ``seed``."""

    @abstractmethod
    def execute(self, name: str, args: dict[str, Any]) -> str:
        """Run one action of this world's domain; return ``""`` on success or an error message.

        Must never raise for bad input (unknown ids, out of reach, ...): the message is shown to
        the agent and the state is unchanged.
        """

    @abstractmethod
    def text(self) -> str:
        """The text observation of the current state."""

    @abstractmethod
    def image(self, size: tuple[int, int]) -> np.ndarray:
        """An RGB uint8 image (H, W, 3) of the current state."""

    @abstractmethod
    def semantic_state(self) -> dict[str, Any]:
        """A JSON-serialisable snapshot of the semantic state (what checkers read)."""

    @abstractmethod
    def admissible_actions(self) -> list[str]:
        """Concrete action strings valid now (for RL wrappers and random agents)."""

    def on_enter(self, deliveries: list[dict[str, Any]]) -> None:  # noqa: B027 - optional hook
        """Called when the agent switches into this world; ``deliveries`` are web orders to place."""

    def set_clock(self, t: int) -> None:  # noqa: B027 - optional hook
        """The env's step number before each action, for worlds that time-stamp their events."""
