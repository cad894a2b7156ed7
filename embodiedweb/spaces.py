"""Observation and action spaces.

Observations are :class:`gymnasium.spaces.Text` spaces over :data:`OBS_CHARSET` with per-field maximum
lengths (:data:`OBS_TEXT_MAX`): vector envs (shared memory writes each character's index in the charset),
``FlattenObservation`` and other libraries accept them. The env keeps every observation inside its space:
a field longer than its maximum is cut with a visible marker (``… (N characters in all)``), and a character
outside the charset (only text the agent typed can hold one: ``last_action``, ``message``, a typed form
value echoed in ``web_text``, an error that quotes the action) is shown as U+FFFD ``�`` in the observation
only; the trace and the sites keep the real text.

The charset is printable ASCII plus whitespace, a few Unicode blocks for typed text (Latin-1, Latin
Extended-A, punctuation, currency, arrows) and every character of the shipped data, sites and worlds
(:data:`_DATA_CHARS`, generated; ``tests/test_spaces.py`` checks the data against it, and
``python -m embodiedweb.spaces`` prints the characters of the data that are missing).
"""

from __future__ import annotations

import multiprocessing as mp
import re
import string
import sys
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.spaces.utils import flatten
from gymnasium.vector.utils.shared_memory import (
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)

_SAMPLE_CHARSET = string.ascii_letters + string.digits + string.punctuation + " \n\téèüßçñ—’°€£αβ中文字"

#: shown in an observation in place of a character outside :data:`OBS_CHARSET`
REPLACEMENT = "\ufffd"

#: every non-ASCII character of the shipped data (data/, web_sites/, the worlds' texts), generated
_DATA_CHARS = (
    "\xa3\xb0\xb1\xb2\xb7\xc1\xc5\xc6\xc9\xd6\xd7\xd8\xdf\xe0\xe1\xe2\xe3\xe4\xe5\xe6\xe7\xe8\xe9\xea\xec"
    "\xed\xee\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf8\xf9\xfa\xfc\xfe\u0101\u0103\u0105\u0107\u010c\u010d\u0110"
    "\u0111\u0113\u0119\u011b\u011f\u012b\u0130\u0131\u0141\u0142\u0144\u0148\u014c\u014d\u0151\u0152"
    "\u0153\u0159\u015a\u015b\u015e\u015f\u0161\u016b\u016f\u0171\u017a\u017c\u017e\u01a1\u01b0\u0218"
    "\u0219\u021b\u0391\u0395\u0397\u0398\u0399\u039b\u039d\u039e\u039f\u03a0\u03a3\u03a4\u03a6\u03a9"
    "\u03ac\u03ae\u03af\u03b1\u03b2\u03b3\u03b4\u03b5\u03b7\u03b8\u03b9\u03ba\u03bb\u03bc\u03bd\u03be"
    "\u03bf\u03c0\u03c1\u03c2\u03c3\u03c4\u03c5\u03c6\u03c7\u03c8\u03c9\u03cc\u03cd\u0404\u0406\u0407"
    "\u0410\u0411\u0412\u0413\u0414\u0415\u0417\u041a\u041b\u041c\u041d\u041e\u041f\u0420\u0421\u0422"
    "\u0423\u0425\u042b\u042d\u0430\u0431\u0432\u0433\u0434\u0435\u0436\u0437\u0438\u0439\u043a\u043b"
    "\u043c\u043d\u043e\u043f\u0440\u0441\u0442\u0443\u0444\u0446\u0447\u0448\u0449\u044a\u044b\u044c"
    "\u044d\u044f\u0454\u0456\u0457\u0491\u0531\u0533\u0534\u0535\u053d\u053f\u0540\u0544\u054e\u054f"
    "\u0561\u0562\u0563\u0564\u0565\u0566\u0569\u056b\u056e\u0571\u0572\u0574\u0575\u0576\u0577\u0578"
    "\u057a\u057e\u057f\u0580\u0581\u0582\u0583\u0587\u05d0\u05d1\u05d2\u05d3\u05d4\u05d5\u05d6\u05d7"
    "\u05d9\u05db\u05dc\u05dd\u05de\u05df\u05e0\u05e2\u05e3\u05e4\u05e6\u05e7\u05e8\u05e9\u05ea\u0621"
    "\u0623\u0624\u0625\u0627\u0628\u0629\u062a\u062c\u062d\u062e\u062f\u0631\u0632\u0633\u0634\u0635"
    "\u0636\u0637\u0638\u0639\u0641\u0642\u0643\u0644\u0645\u0646\u0647\u0648\u064a\u0663\u0902\u0906"
    "\u0908\u090f\u0915\u0916\u0917\u091a\u091c\u0921\u0924\u0925\u0926\u0928\u092a\u092c\u092e\u092f"
    "\u0930\u0932\u0935\u0939\u093e\u093f\u0940\u0941\u0947\u0948\u094b\u094d\u0e01\u0e02\u0e04\u0e07"
    "\u0e0a\u0e0b\u0e0d\u0e14\u0e15\u0e16\u0e17\u0e18\u0e19\u0e1a\u0e1e\u0e20\u0e21\u0e22\u0e23\u0e25"
    "\u0e27\u0e2a\u0e2b\u0e2d\u0e31\u0e32\u0e34\u0e35\u0e38\u0e39\u0e40\u0e41\u0e42\u0e43\u0e47\u0e48"
    "\u0e49\u10d0\u10d1\u10d2\u10d3\u10d4\u10d5\u10d6\u10d7\u10d8\u10da\u10db\u10dd\u10de\u10e0\u10e1"
    "\u10e2\u10e3\u10e4\u10e5\u10e6\u10e9\u10eb\u10ec\u1200\u1206\u1208\u120d\u1215\u1218\u121b\u122c"
    "\u122d\u1231\u1232\u1233\u1235\u1245\u1250\u1260\u1263\u1274\u1278\u127d\u1293\u1295\u12a0\u12ab"
    "\u12cb\u12f0\u12f2\u12f3\u12f5\u1308\u130e\u134b\u134c\u1e9e\u1ea1\u1ea3\u1ea5\u1ea7\u1ea9\u1ead"
    "\u1eb1\u1eb5\u1ebf\u1ec7\u1ed1\u1ed3\u1ed9\u1edd\u1edf\u1ee3\u1eef\u2013\u2014\u2018\u2019\u201c"
    "\u201d\u2026\u2032\u2033\u20ac\u2192\u2714\u2718\u2d30\u2d37\u2d49\u2d4d\u2d59\u2d5c\u308a\u30b3"
    "\u30c6\u30cb\u30d1\u30d3\u30db\u30eb\u30f3\u4e00\u4e01\u4e0a\u4e0b\u4e1c\u4e2d\u4e5d\u4e95\u4eac"
    "\u4fbf\u5229\u524d\u5317\u5357\u53e4\u53f0\u540d\u5546\u56db\u56fd\u574a\u57fa\u5802\u5927\u592e"
    "\u5b57\u5b5d\u5b89\u5c0f\u5c40\u5c4b\u5c71\u5ca1\u5cf6\u5dde\u5e02\u5e4c\u5e7f\u5e83\u5e97\u5e9c"
    "\u5fa1\u5fe0\u6210\u6587\u65b0\u65e5\u6625\u672c\u672d\u6761\u676d\u6771\u6b63\u6b66\u6c49\u6c5f"
    "\u6cb3\u6d77\u7063\u7199\u738b\u76ee\u798f\u7af9\u7b4b\u81fa\u836f\u85ac\u85e5\u884c\u8857\u897f"
    "\u8d85\u8def\u901a\u9053\u90fd\u9152\u9280\u94f6\u9580\u95e8\u962a\u9686\u96c4\u98ef\u99c5\u9ad8"
    "\uad11\uad6c\uad6d\uae08\uae38\ub0a8\ub300\ub3d9\ub85c\ubd80\ube75\uc0b0\uc11c\uc131\uc138\uc559"
    "\uc57d\uc6b8\uc758\uc778\uc804\uc810\uc885\uc8fc\uc911\uc9d1\ucc9c\ud154\ud3b8\ud55c\ud638"
)

_BLOCKS = ((0x00A0, 0x0180), (0x2010, 0x2028), (0x2030, 0x205F), (0x20A0, 0x20C0), (0x2190, 0x2200))


def _charset() -> str:
    chars = set(string.printable) | set(_DATA_CHARS) | {REPLACEMENT, "…"}
    for lo, hi in _BLOCKS:
        chars.update(chr(c) for c in range(lo, hi))
    return "".join(sorted(chars))


#: the characters an observation can hold (sorted, so the space and the index of a character are stable)
OBS_CHARSET: str = _charset()
_OUTSIDE = re.compile("[^" + "".join(re.escape(c) for c in OBS_CHARSET) + "]")

#: the maximum length of each text field of an observation. The longest seen over every oracle episode of
#: every env (text mode, 1,860 episodes, 129,594 steps): web_text 4,712, embodied_text 5,328,
#: instruction 436, web_tabs 243, web_url 183, last_action 96, message 75; the caps leave a margin of
#: three times or more.
OBS_TEXT_MAX: dict[str, int] = {
    "active": 16,
    "instruction": 2_048,
    "web_url": 1_024,
    "web_tabs": 2_048,
    "web_text": 16_384,
    "embodied_text": 16_384,
    "last_action": 2_048,
    "last_action_error": 2_048,
    "message": 2_048,
}


class ObsText(spaces.Text):
    """The :class:`gymnasium.spaces.Text` of an observation's text field (over :data:`OBS_CHARSET`), with
    fast and correct hooks for Gymnasium's async vector env (shared memory).

    It is a ``Text`` in every other respect (same ``contains``, ``sample``, equality, flattening). Gymnasium
    (1.x) writes a text into shared memory one character at a time in Python (``flatten``), and its
    ``AsyncVectorEnv`` reads the shared text fields once, at construction: every later observation of a
    ``Text`` field is that first, empty read (strings do not follow the buffer as arrays do). This class
    registers its own ``flatten`` (one numpy lookup for the whole text; the same array, the same
    ``KeyError`` for a character outside the charset) and its own shared memory: ``create_shared_memory``
    gives each env a row of ``max_length + 2`` int32, the text's length, the row's version (how many texts
    were written to it), then its code points (``write_to_shared_memory`` writes only the text, and reading
    decodes only its length: a field's ``max_length`` is several times its usual text, and the main process
    of an async vector env reads every field of every env at every step), and ``read_from_shared_memory``
    returns a live view, :class:`SharedTexts`, that decodes the buffer when read or copied (a row once per
    version) (``AsyncVectorEnv`` copies observations
    by default, giving a tuple of ``str`` as ``SyncVectorEnv`` does). Writing refuses what ``flatten``
    refuses: a character outside the charset (``KeyError``) and a text longer than ``max_length``
    (``IndexError``).
    """

    def __init__(self, max_length: int, min_length: int = 0, charset: str = OBS_CHARSET,
                 seed: int | None = None) -> None:
        super().__init__(max_length=max_length, min_length=min_length, charset=charset, seed=seed)
        chars = self.character_list
        codes = np.array([ord(c) for c in chars], dtype=np.uint32)
        #: the charset index of each code point (-1 outside the charset), and the code point of each index
        self._index_of = np.full(int(codes.max(initial=0)) + 1, -1, dtype=np.int32)
        self._index_of[codes] = np.arange(len(chars), dtype=np.int32)
        self._code_of = codes

    def to_indices(self, text: str) -> np.ndarray:
        """The flattened form of ``text`` (``gymnasium.spaces.flatten``): the charset index of each character,
        padded to ``max_length`` with ``len(charset)``; the checks of :meth:`check_codes`."""
        out = np.full(self.max_length, len(self.character_set), dtype=np.int32)
        codes = self.check_codes(text)
        out[: len(codes)] = self._index_of[codes]
        return out

    def check_codes(self, text: str) -> np.ndarray:
        """The code points of ``text`` (uint32), checked as Gymnasium's ``flatten`` checks a text: ``KeyError``
        for a character outside the charset (the first one), then ``IndexError`` past ``max_length``."""
        codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
        if len(codes):
            table = self._index_of
            if int(codes.max()) >= len(table) or (table[codes] < 0).any():
                inside = codes < len(table)
                bad = int(codes[int(np.argmax(~inside | (table[np.where(inside, codes, 0)] < 0)))])
                raise KeyError(chr(bad))
            if len(codes) > self.max_length:  # as Gymnasium's flatten fails on it
                raise IndexError(f"a text of {len(codes)} characters in a Text space of at most {self.max_length}")
        return codes

    def from_indices(self, indices: np.ndarray) -> str:
        """The text of a flattened row (indices at or past ``len(charset)`` are padding, skipped)."""
        row = np.asarray(indices)
        row = row[row < len(self.character_set)]
        return self._code_of[row].tobytes().decode("utf-32-le", "surrogatepass")


#: the codec of the code points in shared memory (int32 in the machine's byte order)
_SHARED_CODEC = "utf-32-le" if sys.byteorder == "little" else "utf-32-be"


#: the slots before the text in an env's row of an :class:`ObsText` field's shared memory: the text's length,
#: and how many texts were written to the row (the row's version: a reader decodes a row once per version)
_HEADER = 2
#: versions count modulo this (an int32 slot)
_VERSIONS = 2**31


def _decode_row(row: np.ndarray) -> str:
    """The text of one env's row of an :class:`ObsText` field's shared memory (:data:`_HEADER` slots, then the
    text's code points)."""
    return row[_HEADER: _HEADER + int(row[0])].tobytes().decode(_SHARED_CODEC, "surrogatepass")


class SharedTexts(Sequence[str]):
    """The ``n`` texts of an :class:`ObsText` field in an async vector env's shared memory, decoded on
    access: ``AsyncVectorEnv`` keeps this one object as its observation of the field, so it must follow the
    buffer. ``copy.deepcopy`` (which ``AsyncVectorEnv`` applies to the observations it returns, unless made
    with ``copy=False``) gives a plain tuple of ``str``."""

    def __init__(self, space: ObsText, data: np.ndarray) -> None:
        self._space, self._data = space, data
        #: each row's text as last decoded, with the row's version then: most fields do not change from step to
        #: step (the instruction, the tabs, the other world's view), so most reads decode nothing
        self._decoded: dict[int, tuple[int, str]] = {}

    def __len__(self) -> int:
        return len(self._data)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return tuple(self)[i]
        i = range(len(self._data))[i]  # a negative index counts from the end; past the end: IndexError
        row = self._data[i]
        version = int(row[1])
        hit = self._decoded.get(i)
        if hit is not None and hit[0] == version:
            return hit[1]
        text = _decode_row(row)
        self._decoded[i] = (version, text)
        return text

    def __iter__(self) -> Any:
        return iter([self[i] for i in range(len(self._data))])

    def __eq__(self, other: object) -> bool:
        return tuple(self) == (tuple(other) if isinstance(other, SharedTexts) else other)

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> tuple[str, ...]:
        return tuple(self)

    def __reduce__(self) -> Any:
        return tuple, (tuple(self),)

    def __repr__(self) -> str:
        return repr(tuple(self))


@flatten.register(ObsText)
def _flatten_obs_text(space: ObsText, x: str) -> np.ndarray:
    return space.to_indices(x)


@create_shared_memory.register(ObsText)
def _create_obs_text(space: ObsText, n: int = 1, ctx: Any = mp) -> Any:
    return ctx.Array(np.dtype(np.int32).char, n * (space.max_length + _HEADER))  # zeros: n empty texts


#: the text this process last wrote to each env's row of each ObsText buffer (by buffer, weakly: a buffer
#: that is gone takes its entries with it). A vector env's row is written by one process only (the env's
#: worker), so a text equal to the one written last is there already: most fields (the instruction, the
#: tabs, the other world's view) do not change from step to step.
_WRITTEN: weakref.WeakKeyDictionary[Any, dict[int, str]] = weakref.WeakKeyDictionary()


@write_to_shared_memory.register(ObsText)
def _write_obs_text(space: ObsText, index: int, values: str, shared_memory: Any) -> None:
    written = _WRITTEN.setdefault(shared_memory, {})
    if written.get(index) == values:
        return
    codes = space.check_codes(values)
    start = index * (space.max_length + _HEADER)
    destination = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)
    destination[start + _HEADER: start + _HEADER + len(codes)] = codes  # the text only: its length says where it ends
    destination[start] = len(codes)
    destination[start + 1] = (int(destination[start + 1]) + 1) % _VERSIONS  # a new text: readers decode it again
    written[index] = values


@read_from_shared_memory.register(ObsText)
def _read_obs_text(space: ObsText, shared_memory: Any, n: int = 1) -> SharedTexts:
    data = np.frombuffer(shared_memory.get_obj(), dtype=np.int32).reshape((n, space.max_length + _HEADER))
    return SharedTexts(space, data)


def obs_text_space(max_length: int) -> ObsText:
    """A text field of an observation: at most ``max_length`` characters of :data:`OBS_CHARSET`."""
    return ObsText(max_length=max_length, min_length=0, charset=OBS_CHARSET)


def fit_text(text: str, max_length: int, total: int | None = None) -> str:
    """``text`` inside ``obs_text_space(max_length)``: cut with a visible marker when longer, and every
    character outside :data:`OBS_CHARSET` replaced by :data:`REPLACEMENT`. ``total``: the length the
    marker gives (default ``len(text)``; the length of the original when ``text`` was cut before)."""
    if len(text) > max_length:
        marker = f"… ({total or len(text):,} characters in all)"
        text = text[: max(0, max_length - len(marker))] + marker if max_length > 2 * len(marker) \
            else text[:max_length]
    return _OUTSIDE.sub(REPLACEMENT, text)


class UnicodeText(spaces.Text):
    """A :class:`gymnasium.spaces.Text` that contains any string up to ``max_length`` characters (the
    action space: the agent may type any text).

    Gymnasium's ``Text`` checks every character against a finite charset; typed text can hold any
    Unicode character, so membership only checks the type and length. Sampling draws from a
    mixed charset (ASCII, accents, symbols, CJK).
    """

    def __init__(self, max_length: int, min_length: int = 0, seed: int | None = None) -> None:
        super().__init__(max_length=max_length, min_length=min_length, charset=_SAMPLE_CHARSET, seed=seed)

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a ``str`` whose length is within ``[min_length, max_length]``."""
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"UnicodeText({self.min_length}, {self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, UnicodeText) and other.min_length == self.min_length and \
            other.max_length == self.max_length


def data_chars(roots: list[Path] | None = None) -> set[str]:
    """Every character of the shipped data and sites (JSON, JSONL, templates, the package's sources)."""
    if roots is None:
        from embodiedweb.paths import data_dir

        here = Path(__file__).resolve().parent
        import web_sites

        roots = [data_dir(), Path(web_sites.__file__).resolve().parent, here]
    chars: set[str] = set()
    for root in roots:
        for p in root.rglob("*"):
            if p.is_file() and p.suffix in (".json", ".jsonl", ".py", ".html", ".txt", ".toml", ".css", ".js"):
                chars.update(p.read_text(encoding="utf-8"))
    return {c for c in chars if c.isprintable() or c in string.whitespace}


if __name__ == "__main__":  # pragma: no cover - maintenance
    gone = sorted(data_chars() - set(OBS_CHARSET))
    print("".join(gone).encode("unicode_escape").decode() if gone else "the charset covers the data")
