"""Optional dependencies ("extras") and the one-line message a missing one gives.

The core install carries what text mode needs. Each backend names its extra; using a backend without it
raises :class:`MissingExtra` (an ``ImportError``) whose message is the command to run, and the CLI prints
that line and exits with status 3 instead of a traceback.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

#: extra -> (what it enables, the import names it provides)
EXTRAS: dict[str, tuple[str, tuple[str, ...]]] = {
    "browser": ("web_mode='browser' (real Chromium through Playwright)", ("playwright", "fastapi", "uvicorn")),
    "serve": ("`ewa serve` and `ewa play` (the sites and human play over HTTP)", ("fastapi", "uvicorn")),
    "plots": ("the plots of `ewa report --html`", ("matplotlib",)),
    "llm": ("the LLM agent (an OpenAI-compatible endpoint)", ("openai",)),
    "google": ("the Google backends (Street View, geocoding and directions)", ("googlemaps", "requests")),
    "ai2thor": ("the AI2-THOR kitchen backend", ("ai2thor",)),
    "rl": ("Stable-Baselines3 training", ("stable_baselines3", "sb3_contrib", "torch")),
    "ray": ("`ewa eval --ray` (evaluation on a Ray cluster)", ("ray",)),
    "video": ("video recording (Gymnasium's RecordVideo)", ("moviepy",)),
}


class MissingExtra(ImportError):
    """A feature was used without the extra that installs its dependencies."""

    def __init__(self, extra: str, missing: str) -> None:
        what = EXTRAS[extra][0]
        super().__init__(f"{what} needs the '{extra}' extra ({missing} is not installed): "
                         f'pip install "embodiedweb[{extra}]"')
        self.extra = extra
        self.missing = missing


def missing(extra: str) -> list[str]:
    """The import names of ``extra`` that are not installed."""
    return [m for m in EXTRAS[extra][1] if importlib.util.find_spec(m) is None]


def require(extra: str) -> None:
    """Raise :class:`MissingExtra` when any module of ``extra`` is not installed."""
    gone = missing(extra)
    if gone:
        raise MissingExtra(extra, gone[0])


def load(module: str, extra: str) -> ModuleType:
    """``import module``, or :class:`MissingExtra` naming ``extra`` when that module is not installed."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name and module.split(".")[0] == e.name.split(".")[0]:
            raise MissingExtra(extra, e.name) from None
        raise
