"""``ewa bench``: the performance figures the issues name, as one JSON object."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from embodiedweb.benches.kitchen import bench_kitchen
from embodiedweb.benches.rl import bench_rl
from embodiedweb.benches.street import bench_street
from embodiedweb.benches.web import bench_web

# Every bench, by name; each returns a dict of figures. An explicit list: a bench that cannot be imported
# fails here, loudly, instead of silently dropping out of the figures.
BENCHES: list[tuple[str, Callable[..., dict[str, Any]]]] = [
    ("web", bench_web),
    ("kitchen", bench_kitchen),
    ("street", bench_street),
    ("rl", bench_rl),
]


def run_bench(quick: bool = False) -> dict[str, Any]:
    """Run every bench of :data:`BENCHES` and merge their figures into one dict (a failing bench adds ``<name>_error``)."""
    figures: dict[str, Any] = {}
    for _name, fn in BENCHES:
        try:
            figures.update(fn(quick=quick) if _takes_quick(fn) else fn())
        except Exception as e:  # one failing bench must not hide the others; a missing extra says which
            figures[f"{fn.__name__}_error"] = f"{type(e).__name__}: {e}"
    return figures


def _takes_quick(fn: Any) -> bool:
    return "quick" in inspect.signature(fn).parameters
