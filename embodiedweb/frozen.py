"""Static data in a form Python's cyclic garbage collector can skip.

A collection walks every container the collector tracks, and a full collection walks all of them: with
the wiki, the recipes and the city loaded (about 100,000 lists and dicts), each full collection of an env
process took 60-100 ms, a pause that stalls every env of a lock-step vector env. A tuple holding only
untracked values, and a dict holding only untracked keys and values, are untracked by the collector the
first time it meets them: :func:`read_only` turns the lists of data read once and never changed (the
catalogs behind ``lru_cache`` loaders) into tuples, so the whole record drops out of every later
collection.
"""

from __future__ import annotations

from typing import Any

__all__ = ["read_only"]


def read_only(value: Any) -> Any:
    """``value`` (parsed JSON) with every list made a tuple, at every depth; dicts stay dicts (their keys are
    strings), other values as they are. Inner values are built before the containers that hold them, so the
    first collection that meets them untracks the lot: the tuples and dicts of atoms (a dict holding a dict
    stays tracked)."""
    if isinstance(value, list | tuple):
        return tuple(read_only(v) for v in value)
    if isinstance(value, dict):
        return {k: read_only(v) for k, v in value.items()}
    return value
