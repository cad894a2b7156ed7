"""Text helpers shared by the sites and the worlds (the lowest layer: it imports nothing of the project)."""

from __future__ import annotations

import re
import unicodedata


def clean_text(text: str, limit: int = 200) -> str:
    """User input made safe to match and show: unprintable characters become spaces, runs of white space
    one space, the ends trimmed, at most ``limit`` characters."""
    t = "".join(ch if ch.isprintable() else " " for ch in str(text or ""))
    return re.sub(r"\s+", " ", t).strip()[:limit]


def fold(text: str) -> str:
    """A name as answers are matched on it: casefolded, ß -> ss and the like, accents stripped, punctuation to
    spaces, single spaces (``Carrère`` = ``carrere``, ``Łódź`` = ``lodz``)."""
    s = (text or "").replace("ß", "ss").replace("ẞ", "ss").replace("ı", "i").replace("İ", "I").replace("ł", "l")
    s = s.replace("Ł", "L").replace("đ", "d").replace("Đ", "D").replace("ø", "o").replace("Ø", "O")
    s = s.replace("æ", "ae").replace("Æ", "AE").replace("œ", "oe")
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c)).casefold()
    s = re.sub(r"[^\w]+", " ", s)
    return " ".join(s.split())


#: abbreviations in place and people's names, spelled out after :func:`fold` (``St.`` = ``Saint``)
NAME_ABBREVIATIONS = {"st": "saint", "ste": "sainte", "mt": "mount", "ft": "fort"}
