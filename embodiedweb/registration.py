"""Env specs (``envs/*.toml``) and their registration with Gymnasium.

A spec names the env id, the domain class, the task file and default limits::

    id = "EWA-Cooking-v0"
    domain = "embodiedweb.domains.cooking:CookingDomain"
    tasks = "cooking/tasks.jsonl"        # relative to data/
    hard_tasks = "cooking/hard.jsonl"    # optional: the hard tier (gym.make(id, level="hard"))
    max_steps = 150
    hard_max_steps = 300                 # optional: the hard tier's step limit (its tasks are longer)
    description = "..."

Specs come from ``envs/`` and, for plug-in domains, from the folders in the ``EWA_ENVS_PATH`` environment
variable (separated by ``os.pathsep``) or given to :func:`register_envs`. A plug-in spec's ``domain``
module is imported with the spec's folder on ``sys.path`` and its ``tasks`` path is relative to that folder
(else to ``data/``): a domain is one folder plus one TOML file (see the README's "Adding a domain").
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym

from embodiedweb.paths import data_dir, envs_dir
from embodiedweb.tasks import LEVELS, check_task_level  # noqa: F401  (LEVELS: re-exported)


@dataclass
class EnvSpec:
    """One registered env: id, domain import path, task file and defaults."""

    id: str
    domain: str
    tasks: str
    max_steps: int = 100
    description: str = ""
    defaults: dict[str, Any] = field(default_factory=dict)
    #: the hard tier's task file (``None``: the env has the standard tier only), see :data:`LEVELS`
    hard_tasks: str | None = None
    #: the hard tier's step limit (``None``: ``max_steps``); ``gym.make(id, level="hard", max_steps=n)`` sets another
    hard_max_steps: int | None = None

    #: the folder the spec was read from (``None``: built by hand)
    folder: Path | None = None

    def domain_class(self) -> type:
        """The domain class (imported, not instantiated): what it declares (its world, heuristic, prompt
        guidance, report family) is read from it."""
        module, _, cls = self.domain.partition(":")
        if self.folder is not None and self.folder.resolve() != envs_dir().resolve():
            where = str(self.folder.resolve())
            if where not in sys.path:
                sys.path.append(where)  # a plug-in domain's package lives beside its spec
        try:
            return getattr(importlib.import_module(module), cls)
        except (ImportError, AttributeError) as e:
            raise gym.error.Error(f"{self.id}: cannot import the domain {self.domain!r} "
                                  f"({type(e).__name__}: {e})") from None

    def load_domain(self, **options: Any) -> Any:
        """The domain object; ``options`` are the domain's own keyword arguments (e.g. ``passive=True``)."""
        cls = self.domain_class()
        try:
            return cls(**options)
        except TypeError as e:
            raise gym.error.Error(f"{self.id}: unsupported option(s) {', '.join(sorted(options))}: {e}") from None

    @property
    def tasks_path(self) -> Path:
        """The tasks file: in ``folder`` when it exists there, else in the package data dir."""
        return self._path(self.tasks)

    def _path(self, name: str) -> Path:
        if self.folder is not None and (self.folder / name).is_file():
            return self.folder / name
        return data_dir() / name

    @property
    def levels(self) -> tuple[str, ...]:
        """The levels this env has tasks for: ``standard``, and ``hard`` when the spec names ``hard_tasks``."""
        return ("standard", "hard") if self.hard_tasks else ("standard",)

    def level_tasks_path(self, level: str = "standard") -> Path:
        """The task file of ``level`` (see :func:`check_task_level`); ``gym.error.Error`` for an unknown level
        or a level this env has no tasks for."""
        level = check_task_level(level)
        if level == "hard":
            if not self.hard_tasks:
                raise gym.error.Error(f"{self.id} has no hard tasks (its spec names no hard_tasks); "
                                      f"its levels: {', '.join(self.levels)}")
            return self._path(self.hard_tasks)
        return self.tasks_path




#: plug-in spec folders added with :func:`register_envs` (besides ``EWA_ENVS_PATH``)
_EXTRA_FOLDERS: list[Path] = []


def spec_folders() -> list[Path]:
    """``envs/``, then the folders of ``EWA_ENVS_PATH``, then those given to :func:`register_envs`."""
    extra = [Path(p) for p in os.environ.get("EWA_ENVS_PATH", "").split(os.pathsep) if p.strip()]
    out: list[Path] = []
    for f in [envs_dir(), *extra, *_EXTRA_FOLDERS]:
        if f.resolve() not in [o.resolve() for o in out]:
            out.append(f)
    return out


def load_specs(folder: Path | None = None) -> list[EnvSpec]:
    """Every spec of ``folder`` (default: every folder of :func:`spec_folders`), each folder sorted by file
    name. Two specs with one id are refused."""
    specs: list[EnvSpec] = []
    for f in [folder] if folder is not None else spec_folders():
        for path in sorted(Path(f).glob("*.toml")):
            with open(path, "rb") as fh:
                raw = tomllib.load(fh)
            try:
                spec = EnvSpec(**raw, folder=path.parent)
            except TypeError as e:
                raise gym.error.Error(f"env spec {path}: {e}") from None
            if any(s.id == spec.id for s in specs):
                raise gym.error.Error(f"env spec {path}: id {spec.id!r} is already registered")
            specs.append(spec)
    return specs


def spec_for(env_id: str) -> EnvSpec | None:
    """The spec of ``env_id``, or ``None`` when no spec folder has it."""
    return next((s for s in load_specs() if s.id == env_id), None)


def domain_class(env_id: str) -> type | None:
    """The domain class of a registered env id (``None`` for an unknown id)."""
    spec = spec_for(env_id)
    return spec.domain_class() if spec is not None else None


def register_envs(folder: str | Path) -> list[str]:
    """Register the specs of a plug-in ``folder`` (as ``EWA_ENVS_PATH`` does); returns their ids. Worker
    processes (``ewa eval --workers``, Ray) see them only through ``EWA_ENVS_PATH``."""
    folder = Path(folder)
    new = load_specs(folder)
    if folder.resolve() not in [f.resolve() for f in spec_folders()]:
        _EXTRA_FOLDERS.append(folder)
    register_all()
    return [s.id for s in new]


def make_env(spec_id: str, **kwargs: Any) -> Any:
    """Gymnasium entry point: build the env of ``spec_id`` with ``kwargs`` over the spec's defaults."""
    from embodiedweb.actions import REGISTRY
    from embodiedweb.env import EmbodiedWebEnv
    from embodiedweb.tasks import load_tasks

    spec = spec_for(spec_id)
    if spec is None:
        raise gym.error.Error(f"no env spec {spec_id!r} in {', '.join(map(str, spec_folders()))}")
    opts = {"max_steps": spec.max_steps, **spec.defaults, **kwargs}
    level = check_task_level(opts.get("level", "standard"))
    if level == "hard" and spec.hard_max_steps and "max_steps" not in kwargs:
        opts["max_steps"] = spec.hard_max_steps  # the TimeLimit over the env follows it (StepLimit)
    tasks_path = spec.level_tasks_path(level)
    if level != "standard" and opts.get("curriculum") is not None:
        raise gym.error.Error(f"{spec.id}: curriculum levels are measured on the standard tier only, not on level {level!r}")
    env_params = set(inspect.signature(EmbodiedWebEnv.__init__).parameters)
    domain_opts = {k: opts.pop(k) for k in list(opts) if k not in env_params}
    domain = spec.load_domain(**domain_opts)
    REGISTRY.add_world(domain.world)  # a plug-in world's actions join the grammar (the shipped ones are there)
    tasks = load_tasks(tasks_path, domain.validate_task)
    return EmbodiedWebEnv(domain, tasks, env_id=spec.id, **opts)


class StepLimit(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Tells the env the step limit of the ``TimeLimit`` wrapper under this one, so that the env truncates
    at that step itself and ``info["metrics"]`` is there whichever truncates.

    Every registered id has ``max_episode_steps`` = the spec's ``max_steps`` and this wrapper in its
    ``additional_wrappers`` (Gymnasium adds those over ``TimeLimit``), so the two limits are equal:

    - ``gym.make(id)``: both are the spec's ``max_steps``;
    - ``gym.make(id, max_steps=n)`` (the env's own option): the ``TimeLimit`` is set to ``n`` too;
    - ``gym.make(id, max_episode_steps=n)``: the env's limit (``env.unwrapped.step_limit``) becomes
      ``min(max_steps, n)``; a larger ``n`` leaves the env's limit (pass ``max_steps=n`` too to raise it);
    - ``max_episode_steps=-1`` (no ``TimeLimit``): the env keeps its own limit.
    """

    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.Wrapper.__init__(self, env)
        inner: Any = env
        limits = []
        while isinstance(inner, gym.Wrapper):
            if isinstance(inner, gym.wrappers.TimeLimit):
                limits.append(inner)
            inner = inner.env
        if not hasattr(inner, "time_limit") or not limits:
            return
        spec = inner.spec
        default = gym.spec(spec.id).max_episode_steps if spec is not None and spec.id in gym.registry else None
        for tl in limits:
            if tl._max_episode_steps == default and inner.max_steps != default:  # max_steps=n given alone
                tl._max_episode_steps = inner.max_steps
                tl._cached_spec = None
        inner.time_limit = min(tl._max_episode_steps for tl in limits)


STEP_LIMIT_WRAPPER = gym.envs.registration.WrapperSpec(
    name="StepLimit", entry_point="embodiedweb.registration:StepLimit", kwargs={})


def register_all() -> list[str]:
    """Register every spec with Gymnasium (idempotent); returns the ids.

    ``max_episode_steps`` is the spec's ``max_steps`` (the env's own limit); see :class:`StepLimit`.
    """
    ids = []
    for spec in load_specs():
        if spec.id not in gym.registry:
            gym.register(id=spec.id, entry_point="embodiedweb.registration:make_env",
                         kwargs={"spec_id": spec.id}, max_episode_steps=spec.max_steps,
                         additional_wrappers=(STEP_LIMIT_WRAPPER,))
        ids.append(spec.id)
    return ids


def registered_ids() -> list[str]:
    """The ids of every spec in the spec folders (registered or not yet)."""
    return [s.id for s in load_specs()]
