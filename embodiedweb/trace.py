"""Step traces: JSONL records of every step and a hash that ignores timings."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, TextIO

NONDETERMINISTIC_KEYS = ("timings",)


def diff_state(before: Any, after: Any, prefix: str = "") -> dict[str, Any]:
    """Flat ``{path: new_value}`` of what changed between two JSON-like states (removed keys map to None)."""
    out: dict[str, Any] = {}
    if isinstance(before, dict) and isinstance(after, dict):
        for k in sorted(set(before) | set(after), key=str):
            p = f"{prefix}.{k}" if prefix else str(k)
            if k not in after:
                out[p] = None
            elif k not in before:
                out[p] = after[k]
            elif before[k] != after[k]:
                out.update(diff_state(before[k], after[k], p))
        return out
    if before != after:
        out[prefix or "."] = after
    return out


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


class Trace:
    """The records of one episode; optionally streamed to a JSONL file as they come."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.records: list[dict[str, Any]] = []
        self._fh: TextIO | None = None
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            self._fh = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed in close()

    def add(self, record: dict[str, Any]) -> None:
        self.records.append(record)
        if self._fh is not None:
            self._fh.write(canonical_json(record) + "\n")
            self._fh.flush()

    def digest(self) -> str:
        """SHA-256 over the records without their timing fields."""
        h = hashlib.sha256()
        for r in self.records:
            h.update(canonical_json({k: v for k, v in r.items() if k not in NONDETERMINISTIC_KEYS}).encode())
            h.update(b"\n")
        return h.hexdigest()

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
