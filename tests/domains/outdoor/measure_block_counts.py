"""Stop 35's measurement of how far block counts take a tour planner (issue 22, headroom): each long and grand tour
of the hard navigation tier, every order's open walk estimated from the street grid (the walk between two nodes as
the L1 distance in Manhattan's grid, rotated 29 degrees from north: what counting streets and avenues gives),
the estimated orders ranked, the ``k`` best measured with the map's lengths and the shortest of them walked.
Prints, per family and ``k``, on how many tours that order is within the limit, the rank of the shortest order
among the estimates, and how close the grid estimate is to the walk (the ratio over every leg)::

    PYTHONPATH=. python tests/domains/outdoor/measure_block_counts.py
"""

from __future__ import annotations

import itertools
import math
import statistics
from typing import Any

from embodiedweb.domains.outdoor.common import city
from embodiedweb.domains.outdoor.navigation import NavigationDomain
from embodiedweb.registration import spec_for
from embodiedweb.tasks import Task, load_tasks
from embodiedweb.worlds.street.geo import to_xy

#: Manhattan's street grid is turned this far clockwise from north
GRID_DEG = 29.0
FAMILIES = {"long": (144, 168), "grand": (168, 180)}


def grid_m(c: Any, a: str, b: str) -> float:
    """The L1 distance (m) between nodes ``a`` and ``b`` along the street grid's two axes."""
    (xa, ya), (xb, yb) = to_xy(c.nodes[a].lat, c.nodes[a].lng), to_xy(c.nodes[b].lat, c.nodes[b].lng)
    dx, dy, r = xb - xa, yb - ya, math.radians(GRID_DEG)
    return abs(dx * math.cos(r) - dy * math.sin(r)) + abs(dx * math.sin(r) + dy * math.cos(r))


def orders(t: Task, metres: Any) -> dict[tuple[str, ...], float]:
    """Every order of ``t``'s places with its open walk from the start, a leg measured by ``metres(a, b)``."""
    nodes = {s["place"]: s["node"] for s in t.goal["tour"]}
    start = t.embodied["start"]
    return {o: sum(metres(a, b) for a, b in itertools.pairwise([start, *(nodes[p] for p in o)]))
            for o in itertools.permutations(nodes)}


def main() -> None:
    """Print the measurement (see the module docstring)."""
    c = city()
    tasks = load_tasks(spec_for("EWA-Navigation-v0").level_tasks_path("hard"), NavigationDomain().validate_task)
    for family, (lo, hi) in FAMILIES.items():
        tours = [t for t in tasks if lo <= int(t.task_id[-3:]) < hi]
        fits: dict[int, int] = dict.fromkeys((1, 3, 5), 0)
        ranks, ratios = [], []
        for t in tours:
            exact = orders(t, c.shortest_length)
            est = orders(t, lambda a, b: grid_m(c, a, b))
            ranked = sorted(est, key=lambda o: (est[o], o))
            for k in fits:
                fits[k] += exact[min(ranked[:k], key=lambda o: (exact[o], o))] <= t.goal["limit_m"]
            ranks.append(ranked.index(tuple(t.goal["best_order"])) + 1)
            ends = [t.embodied["start"], *(s["node"] for s in t.goal["tour"])]
            ratios += [c.shortest_length(a, b) / grid_m(c, a, b) for a, b in itertools.combinations(ends, 2)]
        print(f"{family}: {len(tours)} tours; the best of the k best estimated orders within the limit: "
              + ", ".join(f"k={k}: {n}" for k, n in fits.items())
              + f"; the shortest order's rank among the estimates: {sorted(ranks)}; walk / grid estimate per leg: "
              f"mean {statistics.mean(ratios):.3f}, sd {statistics.pstdev(ratios):.3f}")


if __name__ == "__main__":
    main()
