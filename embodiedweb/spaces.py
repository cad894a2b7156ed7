"""Observation spaces: text that may hold any Unicode character."""

from __future__ import annotations

import string
from typing import Any

from gymnasium import spaces

_SAMPLE_CHARSET = string.ascii_letters + string.digits + string.punctuation + " \n\téèüßçñ—’°€£αβ中文字"


class UnicodeText(spaces.Text):
    """A :class:`gymnasium.spaces.Text` that contains any string up to ``max_length`` characters.

    Gymnasium's ``Text`` checks every character against a finite charset; page text can hold any
    Unicode character, so membership only checks the type and length. Sampling draws from a
    mixed charset (ASCII, accents, symbols, CJK).
    """

    def __init__(self, max_length: int, min_length: int = 0, seed: int | None = None) -> None:
        super().__init__(max_length=max_length, min_length=min_length, charset=_SAMPLE_CHARSET, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"UnicodeText({self.min_length}, {self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, UnicodeText) and other.min_length == self.min_length and \
            other.max_length == self.max_length
