"""Versions that results carry: the package's and each env's task suite's.

A result means something only together with the rules and the tasks it was measured on. The **suite
version** of an env names both: the domain's declared ``checker_version`` (bumped by hand whenever a
checker rule changes what passes) and a digest of the env's tasks together with the world and site data
the agent plays in (every file of the data folder except other envs' task files). Equal suite versions
mean equal tasks, equal worlds and equal rules; ``ewa report`` refuses to average records of different
suite versions into one row.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from embodiedweb.paths import data_dir

#: the single source of the package version (pyproject reads it from here)
__version__ = "0.2.0"


@lru_cache(maxsize=8)
def world_digest(folder: str | None = None, level: str = "standard") -> str:
    """sha256 over the data folder's world and site files (paths and bytes), task files excluded, and so is
    ``curricula/`` (derived difficulty records: a curriculum level puts its own task ids into the suite
    version, see :attr:`embodiedweb.env.EmbodiedWebEnv.suite_version`) and ``tables/`` (the hand-written
    tables the generators read, :mod:`embodiedweb.tables`: what they say reaches an episode only through
    the generated files, which are covered, as it did when the tables were Python literals; the one table a
    checker reads, geolocation's regions, is part of that checker's rules and bumps its version) and
    ``subsets/`` (lists of task ids that choose which episodes run, not what an episode is; each record
    names its selection).

    World files named ``hard.*`` (``geo/hard.standpoints.json``, ``wiki/hard.chains.json``: what only a hard
    tier's sessions see) count for ``level="hard"`` only, so adding to a hard tier leaves the standard tier's
    suite versions as they were."""
    root = Path(folder) if folder else data_dir()
    h = hashlib.sha256()  # (task files: ``tasks.*`` of the standard tier and ``hard.*`` of the hard one)
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).parts
        hard_world = p.name.startswith("hard.") and p.name != "hard.jsonl"
        if (not p.is_file() or p.name.startswith("tasks.") or p.name == "hard.jsonl" or "__pycache__" in p.parts
                or rel[0] in ("curricula", "tables", "subsets") or (hard_world and level == "standard")):
            continue
        h.update(p.relative_to(root).as_posix().encode() + b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def tasks_digest(tasks: object) -> str:
    """sha256 over the tasks' canonical JSON, in suite order."""
    h = hashlib.sha256()
    for t in tasks:  # type: ignore[attr-defined]
        h.update(json.dumps(t.to_json(), sort_keys=True, ensure_ascii=False).encode() + b"\n")
    return h.hexdigest()


def suite_version(tasks: object, checker_version: int, settings: dict | None = None, level: str = "standard") -> str:
    """``c<checker version>-<12 hex digits>``: the rules' version, and a digest of the tasks, the world and
    the settings that change what an episode is (``max_steps``, domain options such as a passive setting).
    A tier other than the standard one is named at the end: ``c3-0123456789ab-hard``."""
    h = hashlib.sha256()
    world = world_digest(level="standard" if level == "standard" else "hard")
    for part in (tasks_digest(tasks), world, json.dumps(settings or {}, sort_keys=True, default=str)):
        h.update(part.encode() + b"\0")
    tail = "" if level == "standard" else f"-{level}"
    return f"c{int(checker_version)}-{h.hexdigest()[:12]}{tail}"
