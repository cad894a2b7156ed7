"""Text helpers shared by the sites and the worlds (the lowest layer: it imports nothing of the project)."""

from __future__ import annotations

import re


def clean_text(text: str, limit: int = 200) -> str:
    """User input made safe to match and show: unprintable characters become spaces, runs of white space
    one space, the ends trimmed, at most ``limit`` characters."""
    t = "".join(ch if ch.isprintable() else " " for ch in str(text or ""))
    return re.sub(r"\s+", " ", t).strip()[:limit]
