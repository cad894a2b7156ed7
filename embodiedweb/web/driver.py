"""The interface both web drivers (``text`` and ``browser``) implement."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from embodiedweb.web.axtree import PageTree

KEY_NAMES = {
    "Enter", "Tab", "Escape", "Backspace", "Delete", "Space", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight",
    "Home", "End", "PageUp", "PageDown", "Insert",
    *(f"F{i}" for i in range(1, 13)),
}
MODIFIERS = {"Control", "Shift", "Alt", "Meta", "ControlOrMeta"}


def validate_key_comb(comb: str) -> str:
    """Check a key combination like ``Enter``, ``Control+a``, ``Alt+ArrowLeft``; return it normalised.

    Raises ``ValueError`` with the accepted forms.
    """
    parts = [p for p in comb.strip().split("+")]
    if not comb.strip() or any(not p for p in parts):
        raise ValueError(f"'{comb}' is not a key combination; use e.g. Enter, Tab, Control+a, Alt+ArrowLeft")
    *mods, key = parts
    fixed_mods = []
    for m in mods:
        match = next((x for x in MODIFIERS if x.lower() == m.lower()), None)
        if match is None:
            raise ValueError(f"unknown modifier '{m}' in '{comb}'; modifiers are {', '.join(sorted(MODIFIERS))}")
        fixed_mods.append(match)
    named = next((k for k in KEY_NAMES if k.lower() == key.lower()), None)
    if named is None and len(key) != 1:
        raise ValueError(f"unknown key '{key}' in '{comb}'; keys are one character or one of "
                         f"{', '.join(sorted(KEY_NAMES))}")
    return "+".join([*fixed_mods, named or key])


class WebDriver(ABC):
    """A web session with tabs on the local sites, driven by parsed web actions.

    ``execute`` returns ``""`` on success or an error message; it never raises for bad input.
    """

    mode: str = ""
    #: a serial number per tab, in tab order (tabs are URLs in the state; a checker tells a tab opened during a
    #: turn from one that was there by these); ``_tabs_made`` counts the tabs made since the driver was
    _tab_ids: list[int]
    _tabs_made: int = 0

    def _new_tab_id(self) -> int:
        self._tabs_made += 1
        return self._tabs_made

    def tab_ids(self) -> list[int]:
        """The serial number of every tab, in order (a tab keeps its number until it is closed)."""
        return list(getattr(self, "_tab_ids", ()))

    @abstractmethod
    def reset(self, session: str, start_path: str = "/") -> None:
        """Close all tabs and open ``start_path`` in a single tab for session ``session``."""

    @abstractmethod
    def execute(self, name: str, args: dict[str, Any]) -> str:
        """Run one web action (``click``, ``type``, ``goto``, ...)."""

    @property
    @abstractmethod
    def url(self) -> str:
        """Canonical URL of the active tab."""

    @abstractmethod
    def tree(self) -> PageTree:
        """Accessibility tree of the active tab."""

    @abstractmethod
    def tab_titles(self) -> list[tuple[str, str]]:
        """``(title, canonical url)`` of every tab, in order."""

    @property
    @abstractmethod
    def active_tab(self) -> int:
        """Index of the active tab."""

    @abstractmethod
    def screenshot(self, size: tuple[int, int], marks: bool = True) -> np.ndarray:
        """RGB image (H, W, 3) of the active tab, with numbered boxes on elements if ``marks``."""

    def tabs_text(self) -> str:
        """One line per tab: index, title and URL, the active one marked."""
        return "\n".join(f"Tab {i}{' (active)' if i == self.active_tab else ''}: {t} — {u}"
                         for i, (t, u) in enumerate(self.tab_titles()))

    def close(self) -> None:  # noqa: B027 - optional
        """Release resources."""
