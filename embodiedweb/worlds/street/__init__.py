"""The street world: the embedded Manhattan street graph, Touchdown and Google Street View backends.

Names are imported lazily, so that light helpers (``.geo``) can be used without loading the city."""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {"City": ".city", "Location": ".city", "Node": ".city", "Place": ".city", "build_city": ".city",
            "load_city": ".city", "StreetWorld": ".world", "to_networkx": ".graph"}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
