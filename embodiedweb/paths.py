"""Where the project's own data and env specs live, in a checkout and in an installed wheel."""

from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent
_REPO = _PKG.parent


def data_dir() -> Path:
    """The project's ``data/`` folder (``embodiedweb/_data`` when installed from a wheel)."""
    installed = _PKG / "_data"
    return installed if installed.is_dir() else _REPO / "data"


def envs_dir() -> Path:
    """The ``envs/`` folder of env specs (``embodiedweb/_envs`` when installed)."""
    installed = _PKG / "_envs"
    return installed if installed.is_dir() else _REPO / "envs"


def shared_data_dir() -> Path | None:
    """``../shared/data`` beside a checkout (test fixtures), or ``None`` when absent."""
    p = _REPO.parent / "shared" / "data"
    return p if p.is_dir() else None
