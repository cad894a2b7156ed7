"""Env specs (``envs/*.toml``) and their registration with Gymnasium.

A spec names the env id, the domain class, the task file and default limits::

    id = "EWA-Cooking-v0"
    domain = "embodiedweb.domains.cooking:CookingDomain"
    tasks = "cooking/tasks.jsonl"        # relative to data/
    max_steps = 150
    description = "..."
"""

from __future__ import annotations

import importlib
import inspect
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym

from embodiedweb.paths import data_dir, envs_dir


@dataclass
class EnvSpec:
    """One registered env: id, domain import path, task file and defaults."""

    id: str
    domain: str
    tasks: str
    max_steps: int = 100
    description: str = ""
    defaults: dict[str, Any] = field(default_factory=dict)

    def load_domain(self, **options: Any) -> Any:
        """The domain object; ``options`` are the domain's own keyword arguments (e.g. ``passive=True``)."""
        module, _, cls = self.domain.partition(":")
        try:
            return getattr(importlib.import_module(module), cls)(**options)
        except TypeError as e:
            raise gym.error.Error(f"{self.id}: unsupported option(s) {', '.join(sorted(options))}: {e}") from None

    @property
    def tasks_path(self) -> Path:
        return data_dir() / self.tasks


def load_specs(folder: Path | None = None) -> list[EnvSpec]:
    """Every spec in ``envs/`` sorted by file name."""
    folder = folder or envs_dir()
    specs = []
    for path in sorted(folder.glob("*.toml")):
        with open(path, "rb") as f:
            raw = tomllib.load(f)
        specs.append(EnvSpec(**raw))
    return specs


def make_env(spec_id: str, **kwargs: Any) -> Any:
    """Gymnasium entry point: build the env of ``spec_id`` with ``kwargs`` over the spec's defaults."""
    from embodiedweb.env import EmbodiedWebEnv
    from embodiedweb.tasks import load_tasks

    spec = next((s for s in load_specs() if s.id == spec_id), None)
    if spec is None:
        raise gym.error.Error(f"no env spec {spec_id!r} in {envs_dir()}")
    opts = {"max_steps": spec.max_steps, **spec.defaults, **kwargs}
    env_params = set(inspect.signature(EmbodiedWebEnv.__init__).parameters)
    domain_opts = {k: opts.pop(k) for k in list(opts) if k not in env_params}
    domain = spec.load_domain(**domain_opts)
    tasks = load_tasks(spec.tasks_path, domain.validate_task)
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
    return [s.id for s in load_specs()]
