"""``ewa bench``: the performance figures the issues name, as one JSON object."""

from __future__ import annotations

import importlib
from typing import Any

# (module, function) pairs; each returns a dict of figures. Missing modules are skipped.
BENCHES = [
    ("embodiedweb.web.bench", "bench_web"),
    ("embodiedweb.worlds.kitchen.bench", "bench_kitchen"),
    ("embodiedweb.worlds.street.bench", "bench_street"),
    ("embodiedweb.rl_bench", "bench_rl"),
]


def run_bench(quick: bool = False) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for mod_name, fn in BENCHES:
        try:
            mod = importlib.import_module(mod_name)
        except ModuleNotFoundError:
            continue
        try:
            figures.update(getattr(mod, fn)(quick=quick) if _takes_quick(getattr(mod, fn)) else getattr(mod, fn)())
        except Exception as e:  # one failing bench must not hide the others
            figures[f"{fn}_error"] = f"{type(e).__name__}: {e}"
    return figures


def _takes_quick(fn: Any) -> bool:
    import inspect

    return "quick" in inspect.signature(fn).parameters
