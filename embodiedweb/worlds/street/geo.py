"""Small geodesy helpers: a local metric projection, distances and bearings (degrees from north)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from itertools import combinations

LAT0 = 40.75  # reference latitude of the local projection (midtown Manhattan)
LNG0 = -73.98
# metres per degree at LAT0 (WGS84 ellipsoid series)
M_PER_DEG_LAT = 111132.95 - 559.82 * math.cos(2 * math.radians(LAT0)) + 1.175 * math.cos(4 * math.radians(LAT0))
M_PER_DEG_LNG = (111412.84 * math.cos(math.radians(LAT0)) - 93.5 * math.cos(3 * math.radians(LAT0))
                 + 0.118 * math.cos(5 * math.radians(LAT0)))


def to_xy(lat: float, lng: float) -> tuple[float, float]:
    """Local east/north metres from (LAT0, LNG0); accurate to well under 1 % across Manhattan."""
    return (lng - LNG0) * M_PER_DEG_LNG, (lat - LAT0) * M_PER_DEG_LAT


def to_latlng(x: float, y: float) -> tuple[float, float]:
    """The inverse of :func:`to_xy`: (lat, lng) of local east/north metres."""
    return LAT0 + y / M_PER_DEG_LAT, LNG0 + x / M_PER_DEG_LNG


def haversine_m(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Great-circle distance in metres (mean Earth radius)."""
    r = 6371008.8
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(min(1.0, math.sqrt(a)))


def haversine_km(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Great-circle distance in kilometres."""
    return haversine_m(lat1, lng1, lat2, lng2) / 1000.0


def bearing_deg(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Initial great-circle bearing from point 1 to point 2, degrees clockwise from north in [0, 360)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians(lng2 - lng1)
    y = math.sin(dl) * math.cos(p2)
    x = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return math.degrees(math.atan2(y, x)) % 360.0


def angle_diff(a: float, b: float) -> float:
    """Signed smallest difference ``a - b`` in (-180, 180]."""
    d = (a - b) % 360.0
    return d - 360.0 if d > 180.0 else d


#: The eight relative-direction words, clockwise from straight behind; word ``i`` is centred on
#: ``-180 + 45 * i`` degrees from the walker's heading (so each covers a 45-degree sector).
REL_WORDS = ("behind", "behind-left", "left", "ahead-left", "ahead", "ahead-right", "right", "behind-right")
_LEFT_SIDE = frozenset({"ahead-left", "left", "behind-left", "behind"})
_RIGHT_SIDE = frozenset({"ahead-right", "right", "behind-right", "behind"})


def relative_word(rel: float) -> str:
    """The word of the 45-degree sector a relative bearing falls in (``ahead`` is -22.5..+22.5 deg)."""
    return REL_WORDS[int(((rel % 360.0) + 180.0 + 22.5) // 45.0) % 8]


def _natural(rel: float) -> int:
    return int(((rel % 360.0) + 180.0 + 22.5) // 45.0) % 8


def _labels_uncached(rels: tuple[float, ...]) -> tuple[str, ...]:
    k = len(rels)
    nat = [_natural(r) for r in rels]
    if len(set(nat)) == k:
        return tuple(REL_WORDS[i] for i in nat)
    if k > 8:  # more neighbours than words: number the ones that share a sector (never in the city graph)
        seen: dict[int, int] = {}
        out = []
        for i in nat:
            seen[i] = seen.get(i, 0) + 1
            out.append(REL_WORDS[i] + ("" if seen[i] == 1 else f" {seen[i]}"))
        return tuple(out)
    # the neighbours in clockwise order from behind, and every order-keeping way to give them k of the 8
    # words; the best moves fewest neighbours away from their own sector (counted in sectors), then stays
    # closest in angle
    order = sorted(range(k), key=lambda j: ((rels[j] + 180.0) % 360.0, j))
    best: tuple[float, float, tuple[int, ...]] | None = None
    for words in combinations(range(8), k):
        for rot in range(k):
            steps = 0
            dev = 0.0
            assign = [0] * k
            for pos in range(k):
                j = order[(pos + rot) % k]
                wi = words[pos]
                assign[j] = wi
                s = abs(wi - nat[j]) % 8
                steps += min(s, 8 - s)
                dev += abs(angle_diff(rels[j], -180.0 + 45.0 * wi))
            cand = (steps, round(dev, 6), tuple(assign))
            if best is None or cand < best:
                best = cand
    assert best is not None
    return tuple(REL_WORDS[i] for i in best[2])


_LABEL_CACHE: dict[tuple[float, ...], tuple[str, ...]] = {}


def neighbour_labels(heading: float, options: Iterable[tuple[str, float]]) -> dict[str, str]:
    """One distinct relative-direction word per neighbour, for a walker facing ``heading``.

    ``options`` are ``(node id, absolute heading of the street towards it)``. Each neighbour gets the word
    of the 45-degree sector its relative bearing falls in (:func:`relative_word`). When two fall in one
    sector, the words are re-dealt keeping the neighbours' clockwise order, moving as few neighbours as
    possible (counted in sectors) to a free neighbouring word, then staying closest in angle; so at a
    node every neighbour has its own word and a word never jumps past another neighbour's. The street
    world's views, its ``forward``/``left``/``right`` and the map's turn words all come from this.
    """
    opts = list(options)
    rels = tuple(round(angle_diff(h, heading), 2) for _nb, h in opts)
    got = _LABEL_CACHE.get(rels)
    if got is None:
        got = _labels_uncached(rels)
        if len(_LABEL_CACHE) > 200000:
            _LABEL_CACHE.clear()
        _LABEL_CACHE[rels] = got
    return {nb: word for (nb, _h), word in zip(opts, got, strict=True)}


def pick_neighbor(action: str, heading: float, options: Iterable[tuple[str, float]]) -> str | None:
    """The neighbour ``forward``/``left``/``right`` walks to, from ``(node id, absolute heading)`` pairs,
    by the labels of :func:`neighbour_labels`:

    * ``forward``: the neighbour labelled ``ahead``; else the one labelled ``ahead-left``/``ahead-right``
      nearest to straight ahead; else none.
    * ``left`` (``right``): the neighbour labelled ``left`` (``right``); else, among those labelled
      ``ahead-left``, ``behind-left`` or ``behind`` (the right-hand ones for ``right``), the one nearest to
      90 degrees left (right); else none. So at a dead end or mid-block both turn the walker around.
    """
    opts = list(options)
    return pick_by_labels(action, heading, opts, neighbour_labels(heading, opts))


def pick_by_labels(action: str, heading: float, opts: list[tuple[str, float]], labels: dict[str, str]) -> str | None:
    """:func:`pick_neighbor` with the labels already computed (``labels`` from :func:`neighbour_labels`)."""
    if action == "forward":
        want, side, target = "ahead", frozenset({"ahead-left", "ahead-right"}), 0.0
    elif action == "left":
        want, side, target = "left", _LEFT_SIDE, -90.0
    elif action == "right":
        want, side, target = "right", _RIGHT_SIDE, 90.0
    else:
        return None
    exact = [nb for nb, w in labels.items() if w == want]
    if exact:
        return exact[0]
    rel = {nb: angle_diff(h, heading) for nb, h in opts}
    cands = [(abs(angle_diff(rel[nb], target)), nb) for nb, w in labels.items() if w in side]
    return min(cands)[1] if cands else None


COMPASS8 = ("north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest")
COMPASS4 = ("north", "east", "south", "west")


def compass8(heading: float) -> str:
    """The 8-point compass word of a bearing: each word covers 45 degrees (``north`` is 337.5..22.5)."""
    return COMPASS8[int(((heading % 360) + 22.5) // 45) % 8]


def compass4(heading: float) -> str:
    """The 4-point compass word (north, east, south, west) of a heading in degrees."""
    return COMPASS4[int(((heading % 360) + 45) // 90) % 4]
