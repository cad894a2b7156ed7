"""What a domain provides to the env: its world, task validation, checker and oracle."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from embodiedweb.tasks import Task
from embodiedweb.worlds.base import EmbodiedWorld


@dataclass
class Episode:
    """Everything a checker may read at the end of an episode (semantic states, not pages)."""

    task: Task
    world_state: dict[str, Any]
    web_state: dict[str, Any]
    answer: str | None
    steps: int
    switches: int
    history: list[dict[str, Any]] = field(default_factory=list)


class Domain(ABC):
    """A task family: which world it uses, how tasks are validated and checked, and its oracle."""

    name: str = ""
    world_kind: str = ""
    #: False for settings without the web (e.g. geolocation's passive setting): web actions and
    #: switch_environment are refused and episodes start in the embodied world.
    web_enabled: bool = True
    #: bump whenever a rule of :meth:`check` changes which episodes pass (it is part of the suite version
    #: results carry; see :mod:`embodiedweb.versions`)
    checker_version: int = 1

    def settings(self) -> dict[str, Any]:
        """Options of this domain instance that change what an episode is (part of the suite version)."""
        return {}

    def skills(self) -> tuple[str, ...]:
        """The single-domain skill variants this setting supports (``gym.make(id, skill=...)``): both
        ``web`` and ``embodied`` when the web is on, none without it (there is no web part to split off)."""
        return ("web", "embodied") if self.web_enabled else ()

    @abstractmethod
    def make_world(self) -> EmbodiedWorld:
        """A fresh world instance for one env."""

    def validate_task(self, task: Task) -> None:  # noqa: B027 - optional hook
        """Raise :class:`embodiedweb.tasks.TaskError` naming the field when a task cannot run."""

    @abstractmethod
    def check(self, episode: Episode) -> dict[str, Any]:
        """Metrics ``overall``, ``web``, ``embodied`` (bools) and ``completion`` (0..1), plus extras."""

    def stratum(self, task: Task) -> tuple[Any, ...]:
        """What evaluation samples spread over besides the curriculum level (:mod:`embodiedweb.sampling`):
        a few values that change what the task asks (a store rule, a question kind); () by default."""
        return ()

    def variety(self, task: Task) -> tuple[str, ...]:
        """What samples rotate over (a kitchen and a recipe, a store, a place); () by default."""
        return ()

    def oracle(self, task: Task, perturb: Any = None) -> Any:
        """An agent that solves ``task`` through the public action interface.

        With ``perturb`` (a ``random.Random``), one randomly chosen necessary step of the plan is
        removed or replaced (the perturbed-oracle negative control)."""
        raise NotImplementedError(f"domain {self.name} has no oracle")
