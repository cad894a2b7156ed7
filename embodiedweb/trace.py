"""Step traces: JSONL records of every step and a hash that ignores timings."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, TextIO

NONDETERMINISTIC_KEYS = ("timings",)
#: an episode's trace holds at most about this many characters of JSON; later records are cut
#: down to their essentials (see :class:`Trace`)
MAX_TRACE_CHARS = 64_000_000
#: what a record keeps once the trace is full (strings cut to ``FULL_STRING_CHARS``)
FULL_KEYS = ("step", "event", "task_id", "seed", "active", "action", "error", "web_url", "timings", "metrics")
FULL_STRING_CHARS = 300


APPEND = "[+]"  # path element of diff_state: elements appended to a list
ID_KEYS = ("objectId", "id", "node_id", "product_id", "order_id", "item_id")


def id_of(item: Any) -> Any:
    """The id of a list element (the first of :data:`ID_KEYS` it has), or None."""
    if isinstance(item, dict):
        for k in ID_KEYS:
            if k in item:
                return item[k]
    return None


def list_ids(items: list[Any]) -> list[Any] | None:
    """The ids of a list whose elements all carry a distinct id, else None."""
    ids = [id_of(x) for x in items]
    if not ids or None in ids or len({str(i) for i in ids}) != len(ids):
        return None
    return ids


def diff_state(before: Any, after: Any, prefix: str = "") -> dict[str, Any]:
    """Flat ``{path: new_value}`` of what changed between two JSON-like states (removed keys map to None).

    Paths are dotted keys. A list whose elements carry ids (:data:`ID_KEYS`) and keeps the same ids in
    the same order is diffed element by element, the element named ``[id]`` in the path (a kitchen
    step that moves one object records that object's changed fields, not the list of all objects).
    A non-empty list that only grew records the new elements under ``list.[+]`` (a walked path is not
    written out again at every step). Any other changed list is recorded whole.
    """
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
    if isinstance(before, list) and isinstance(after, list) and before != after and len(before) == len(after):
        ids = list_ids(before)
        if ids is not None and ids == list_ids(after):
            for i, b, a in zip(ids, before, after, strict=True):
                if b != a:
                    out.update(diff_state(b, a, f"{prefix}.[{i}]" if prefix else f"[{i}]"))
            return out
    if (isinstance(before, list) and isinstance(after, list) and prefix and 0 < len(before) < len(after)
            and after[:len(before)] == before):
        out[f"{prefix}.{APPEND}"] = after[len(before):]
        return out
    if before != after:
        out[prefix or "."] = after
    return out


def _short(value: Any) -> Any:
    if isinstance(value, str) and len(value) > FULL_STRING_CHARS:
        return f"{value[:FULL_STRING_CHARS]}… ({len(value):,} characters in all)"
    return value


def canonical_json(obj: Any) -> str:
    """``obj`` as compact JSON with sorted keys (what trace digests hash)."""
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


class Trace:
    """The records of one episode; optionally streamed to a JSONL file as they come.

    The trace is bounded (``max_chars``, default :data:`MAX_TRACE_CHARS`): a record that would take it
    over is cut down, in place, to :data:`FULL_KEYS` with short strings and marked ``"trace_full": true``
    (what changed is then no longer recorded; checkers read the states themselves, never the trace).
    """

    def __init__(self, path: str | Path | None = None, max_chars: int | None = None) -> None:
        self.records: list[dict[str, Any]] = []
        self.max_chars = MAX_TRACE_CHARS if max_chars is None else int(max_chars)
        self.chars = 0
        self._fh: TextIO | None = None
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            self._fh = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed in close()

    def add(self, record: dict[str, Any]) -> None:
        """Append a record (slimmed to its short key fields once ``max_chars`` would be exceeded) and write it to the file, if any."""
        line = canonical_json(record)
        if self.chars + len(line) > self.max_chars:
            slim = {k: _short(record[k]) for k in FULL_KEYS if k in record}
            record.clear()
            record.update(slim, trace_full=True)
            line = canonical_json(record)
        self.chars += len(line)
        self.records.append(record)
        if self._fh is not None:
            self._fh.write(line + "\n")
            self._fh.flush()

    def digest(self) -> str:
        """SHA-256 over the records without their timing fields."""
        h = hashlib.sha256()
        for r in self.records:
            h.update(canonical_json({k: v for k, v in r.items() if k not in NONDETERMINISTIC_KEYS}).encode())
            h.update(b"\n")
        return h.hexdigest()

    def close(self) -> None:
        """Close the trace file, if one is open."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None
