"""Task records (JSONL) with validation that names the task and the field at fault."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

#: the task tiers: ``standard`` (the default: the ``tasks`` file of an env spec) and ``hard`` (its
#: ``hard_tasks`` file: same env, action grammar and checker rules, harder tasks; see the README's "Levels" and docs/levels.md)
LEVELS = ("standard", "hard")


def check_task_level(level: Any) -> str:
    """``level`` when it is one of :data:`LEVELS`, else a ``gym.error.Error`` naming the levels."""
    import gymnasium as gym

    if level not in LEVELS:
        raise gym.error.Error(f"unknown level {level!r}: the levels are {', '.join(LEVELS)}")
    return str(level)


class TaskError(ValueError):
    """A task file or record that cannot be used; the message names the task and field."""


@dataclass
class Task:
    """One task: instruction, initial embodied and web configuration, goal, and split.

    ``embodied`` configures the world (e.g. ``{"kitchen_id": "kitchen_03"}``); ``web`` configures the
    sites (``{"start_url": "/", "sites": {"shop": {...}}}``); ``goal`` is read by the domain's checker.
    """

    task_id: str
    env_id: str
    instruction: str
    embodied: dict[str, Any] = field(default_factory=dict)
    web: dict[str, Any] = field(default_factory=dict)
    goal: dict[str, Any] = field(default_factory=dict)
    split: str = "test"
    start: str = "web"
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, rec: Any, where: str = "") -> Task:
        if not isinstance(rec, dict):
            raise TaskError(f"{where}: a task must be a JSON object, got {type(rec).__name__}")
        tid = rec.get("task_id")
        label = f"{where} task {tid!r}" if where else f"task {tid!r}"
        if not isinstance(tid, str) or not tid:
            raise TaskError(f"{where}: field 'task_id' must be a non-empty string")
        for key, typ in (("env_id", str), ("instruction", str)):
            if not isinstance(rec.get(key), typ) or not rec.get(key):
                raise TaskError(f"{label}: field '{key}' must be a non-empty string")
        for key in ("embodied", "web", "goal", "meta"):
            if key in rec and not isinstance(rec[key], dict):
                raise TaskError(f"{label}: field '{key}' must be an object")
        if rec.get("split", "test") not in ("train", "test", "dev"):
            raise TaskError(f"{label}: field 'split' must be train, dev or test, got {rec.get('split')!r}")
        if rec.get("start", "web") not in ("web", "embodied"):
            raise TaskError(f"{label}: field 'start' must be 'web' or 'embodied', got {rec.get('start')!r}")
        unknown = set(rec) - {f for f in cls.__dataclass_fields__}
        if unknown:
            raise TaskError(f"{label}: unknown field(s) {', '.join(sorted(unknown))}")
        return cls(**{k: rec[k] for k in rec})


def _open(path: Path) -> Iterator[str]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        yield from f


def load_tasks(path: str | Path, validate: Callable[[Task], None] | None = None) -> list[Task]:
    """Load a JSONL task file; every problem raises :class:`TaskError` naming line, task and field."""
    path = Path(path)
    if not path.exists():
        raise TaskError(f"task file not found: {path}")
    tasks: list[Task] = []
    seen: set[str] = set()
    for lineno, line in enumerate(_open(path), 1):
        if not line.strip():
            continue
        where = f"{path.name}:{lineno}"
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            raise TaskError(f"{where}: not valid JSON ({e.msg} at column {e.colno})") from None
        task = Task.from_json(rec, where)
        if task.task_id in seen:
            raise TaskError(f"{where} task {task.task_id!r}: duplicate task_id")
        seen.add(task.task_id)
        if validate is not None:
            try:
                validate(task)
            except TaskError as e:
                raise TaskError(f"{where} {e}") from None
        tasks.append(task)
    return tasks


class TaskSuite:
    """An ordered set of tasks, addressable by id and by split."""

    def __init__(self, tasks: Iterable[Task]) -> None:
        self.tasks = list(tasks)
        self.by_id = {t.task_id: t for t in self.tasks}

    def __len__(self) -> int:
        return len(self.tasks)

    def __iter__(self) -> Iterator[Task]:
        return iter(self.tasks)

    def get(self, task_id: str) -> Task:
        if task_id not in self.by_id:
            sample = ", ".join(list(self.by_id)[:5])
            raise TaskError(f"unknown task_id {task_id!r} (this suite has {len(self)} tasks, e.g. {sample})")
        return self.by_id[task_id]

    def split(self, name: str) -> TaskSuite:
        return TaskSuite(t for t in self.tasks if t.split == name)
