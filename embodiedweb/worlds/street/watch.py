"""The walker's watch (the hard navigation tier's appointment tours) and the metres a walk covers.

A task with appointments gives its street world a ``watch`` config, ``{"start": "HH:MM", "pace_m_per_min": p}``:
the clock time at the start corner and the walking pace. Time passes only by walking: after ``w`` metres the
watch reads the start time plus ``floor(w / p)`` minutes (:func:`watch_minutes`), shown to the minute in the
walker's street view (:meth:`~embodiedweb.worlds.street.world.StreetWorld.text`). The tours' checker
(:mod:`embodiedweb.domains.outdoor.tours`) judges an appointment by the same reading, from the same metres
(:func:`path_metres`, summed move by move in the order the world adds them), so what the watch shows at a place
is what the checker counts.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any

#: a clock time as tasks write it: ``"09:40"`` (24 hours)
CLOCK_RE = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


def parse_clock(text: Any) -> int:
    """Minutes after midnight of ``"HH:MM"``; ``ValueError`` naming the bad value otherwise."""
    m = CLOCK_RE.match(text) if isinstance(text, str) else None
    if m is None:
        raise ValueError(f"{text!r} is not a clock time HH:MM (24 hours, e.g. '09:40')")
    return int(m.group(1)) * 60 + int(m.group(2))


def clock_text(minutes: int) -> str:
    """``"HH:MM"`` of ``minutes`` after midnight (past midnight it wraps around)."""
    minutes %= 24 * 60
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def watch_minutes(walked_m: float, pace_m_per_min: float) -> int:
    """Whole minutes on the watch after walking ``walked_m`` metres at ``pace_m_per_min`` (a watch shows the minute
    it is in: 79.9 m at 80 m a minute is still minute 0). The tiny tolerance absorbs float noise in sums of edge
    lengths (a walk of exactly 160 m summed as 159.99999999999997 reads 2 minutes)."""
    return int(math.floor(walked_m / pace_m_per_min + 1e-9))


def step_metres(city: Any, a: str, b: str) -> float:
    """The metres of one move from ``a`` to ``b``: the edge's length (a pair that is no edge, which the world never
    records, counts as the shortest walk between them; a repeated node as 0)."""
    if a == b:
        return 0.0
    e = city.edge(a, b)
    return e[2] if e is not None else city.shortest_length(a, b)


def metres_along(city: Any, path: Iterable[str]) -> list[float]:
    """The metres walked up to each node of ``path`` (node ids in turn; 0 at the first): :func:`step_metres` of each
    move, summed in order."""
    along: list[float] = []
    total, prev = 0.0, None
    for n in path:
        if prev is not None:
            total += step_metres(city, prev, n)
        along.append(total)
        prev = n
    return along


def path_metres(city: Any, path: Iterable[str]) -> float:
    """The metres walked along ``path`` (node ids in turn): the last of :func:`metres_along` (0 for no move)."""
    along = metres_along(city, path)
    return along[-1] if along else 0.0


def validate_watch(watch: Any) -> tuple[int, float]:
    """``(start minutes, pace)`` of a ``watch`` config; otherwise a ``ValueError`` whose message begins with the
    bad key (``"watch.start: ..."``)."""
    if not isinstance(watch, dict):
        raise ValueError(f"watch: must be an object {{'start': 'HH:MM', 'pace_m_per_min': number}}, not {watch!r}")
    try:
        start = parse_clock(watch.get("start"))
    except ValueError as e:
        raise ValueError(f"watch.start: {e}") from None
    pace = watch.get("pace_m_per_min")
    if isinstance(pace, bool) or not isinstance(pace, int | float) or not 0 < pace < 1000:
        raise ValueError(f"watch.pace_m_per_min: {pace!r} is not a walking pace in metres per minute (0-1000)")
    return start, float(pace)
