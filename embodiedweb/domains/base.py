"""The domain plug-in contract: what a task family declares, in one place.

A domain class names its **world** (an :class:`EmbodiedWorld` class, whose ``kind`` and ``action_specs``
decide its action domain and grammar), validates its **tasks** (the task file is named by its
``envs/*.toml`` spec), **checks** an episode, builds its **oracle**, and declares its optional
**heuristic** agent (an import path, resolved by ``baselines``; ``None``: none, and ``ewa eval --agent
heuristic`` skips the env with a note), its **prompt guidance** (the LLM agent's system prompt) and its
**report family** (which table shape ``ewa report`` gives it). Nothing outside the domain is keyed by its
name: see the README's "Adding a domain".
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

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
    #: a multi-turn episode's judged turns, in order (see :mod:`embodiedweb.turns`); [] otherwise
    turns: list[dict[str, Any]] = field(default_factory=list)


#: ``ewa report``'s table shapes: ``cooking`` (the paper's Table 3: overall / web-only / embodied-only /
#: completion per agent), ``outdoor`` (Table 2: one column group per env), ``geolocation`` (Table 4:
#: continent / country / city / street accuracy, distance, score), ``other`` (Table 3's columns, untitled).
REPORT_FAMILIES = ("cooking", "outdoor", "geolocation", "other")


class Domain(ABC):
    """A task family: which world it uses, how tasks are validated and checked, its oracle, its optional
    heuristic, its prompt guidance and its report family (see the module docstring)."""

    name: str = ""
    #: the embodied world this domain's episodes run in; :meth:`make_world` builds one (override it to
    #: pass options); the world's ``kind`` is the domain's action domain (:attr:`world_kind`)
    world: ClassVar[type[EmbodiedWorld]]
    #: the rule-based heuristic agent as ``"module:Class"`` (a class with the agent interface, built
    #: without arguments); ``None``: the domain has none and the heuristic agent skips it with a note
    heuristic: ClassVar[str | None] = None
    #: the first paragraph of the LLM agent's system prompt: what the agent is and how the task goes
    prompt_guidance: ClassVar[str] = "Complete the instruction using the web and the embodied environment."
    #: the table shape ``ewa report`` gives the env (:data:`REPORT_FAMILIES`)
    report_family: ClassVar[str] = "other"
    #: False for settings without the web (e.g. geolocation's passive setting): web actions and
    #: switch_environment are refused and episodes start in the embodied world.
    web_enabled: bool = True
    #: bump whenever a rule of :meth:`check` changes which episodes pass (it is part of the suite version
    #: results carry; see :mod:`embodiedweb.versions`)
    checker_version: int = 1
    #: True when :meth:`check` reads only the episode's world state, web state, answer and judged turns (not ``steps``,
    #: ``switches`` or ``history``): its completion is then unchanged while the env's ``state_version`` is, and
    #: :class:`embodiedweb.wrappers.ShapedReward` reuses it instead of checking every step. False (the safe
    #: default for a new domain) checks every step.
    completion_from_state: ClassVar[bool] = False

    #: True: the task's instructions come one at a time (:meth:`instructions`), the agent ends each with
    #: ``done [answer]`` and :meth:`check_turn` judges it (see :mod:`embodiedweb.turns`)
    multi_turn: ClassVar[bool] = False

    def instructions(self, task: Task) -> list[str]:
        """A multi-turn task's instructions, in order (default: the task's one instruction)."""
        return [task.instruction]

    def check_turn(self, task: Task, turn: int, before: dict[str, Any], after: dict[str, Any],
                   answer: str) -> dict[str, Any]:
        """Judge turn ``turn`` of a multi-turn task when the agent says ``done [answer]``: ``before`` and
        ``after`` are the semantic states at the turn's start and now (``world``, ``web``, ``browser``).
        Returns ``ok`` (bool) plus extras (e.g. ``category``, ``why``)."""
        raise NotImplementedError(f"domain {self.name} gives one instruction")

    def settings(self) -> dict[str, Any]:
        """Options of this domain instance that change what an episode is (part of the suite version)."""
        return {}

    def skills(self) -> tuple[str, ...]:
        """The single-domain skill variants this setting supports (``gym.make(id, skill=...)``): both
        ``web`` and ``embodied`` when the web is on, none without it (there is no web part to split off)."""
        return ("web", "embodied") if self.web_enabled else ()

    @property
    def world_kind(self) -> str:
        """The action domain of the world (``"kitchen"``, ``"street"``, ...): the world's ``kind``."""
        return self.world.kind

    @property
    def world_kinds(self) -> tuple[str, ...]:
        """Every action domain of the world: its ``kind``, or its parts' kinds for a world that is one of
        several per episode (:class:`~embodiedweb.worlds.multi.MultiWorld`)."""
        kinds = getattr(self.world, "kinds", None)
        return tuple(kinds()) if callable(kinds) else (self.world.kind,)

    def make_world(self) -> EmbodiedWorld:
        """A fresh world instance for one env (default: :attr:`world` built without arguments)."""
        return self.world()

    def validate_task(self, task: Task) -> None:  # noqa: B027 - optional hook
        """Raise :class:`embodiedweb.tasks.TaskError` naming the field when a task cannot run."""

    def sync_sites(self, world: EmbodiedWorld, webapp: Any, session: str) -> bool:
        """After a step that may have changed the world or a site, record in the sites' state of ``session``
        what the world made true there (e.g. a street walk collecting a pickup order); True when a site's state
        changed (the step's trace then takes its diff). Default: nothing."""
        return False

    @abstractmethod
    def check(self, episode: Episode) -> dict[str, Any]:
        """Metrics ``overall``, ``web``, ``embodied`` (bools) and ``completion`` (0..1), plus extras."""

    def takes_answer(self, task: Task) -> bool:
        """Whether the task's ``stop`` carries an answer the checker reads (``stop [answer]``); when not,
        ``stop [anything]`` is the same action as ``stop`` and :class:`~embodiedweb.wrappers.DiscreteActions`
        offers ``stop`` alone. True by default."""
        return True

    def goal_distance(self, task: Task, world: EmbodiedWorld) -> float | None:
        """How far (m, along the world's ways) the agent is from the one place the task sends it to, for the
        ``distance`` reward of :class:`~embodiedweb.wrappers.ShapedReward`; ``None`` (the default) when the
        domain has no such place (a kitchen, several errands)."""
        return None

    #: the measures of a task's difficulty score (:mod:`embodiedweb.curricula`): keys of its difficulty record,
    #: from :meth:`task_measures` or the oracle's run (``oracle_steps``, ``oracle_switches``,
    #: ``oracle_web_steps``, ``oracle_world_steps``); ``-name`` ranks the other way (more is easier)
    difficulty_measures: tuple[str, ...] = ("oracle_switches", "oracle_steps")

    def task_measures(self, task: Task) -> dict[str, Any]:
        """The task's own difficulty measures, read from the task without playing it (e.g. a route's
        length, a recipe's steps); {} by default."""
        return {}

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
