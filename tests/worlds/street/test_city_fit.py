"""How closely the embedded city follows the real streets, measured on the Touchdown panorama graph.

Reads ``../shared/data/touchdown/nodes.txt.gz`` (skipped when absent); nothing of it is stored in the
project. Two figures, both in a local metric projection:

* precision: of our nodes inside the panoramas' bounding box, the share within 20 m of a real panorama
  (target >= 85 %);
* recall: of the real panoramas inside our extent, the share within 25 m of one of our nodes (target
  >= 70 %). Our extent is the convex hull of our nodes (no buffer): every panorama inside the area our
  streets span counts, including ones on streets, plazas or driveways we do not model.
"""

from __future__ import annotations

import gzip
import math
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from embodiedweb.worlds.street.city import load_city
from embodiedweb.worlds.street.geo import to_xy

REPO = Path(__file__).resolve().parents[3]
TOUCHDOWN = REPO.parent / "shared" / "data" / "touchdown"


def _panoramas() -> np.ndarray:
    path = TOUCHDOWN / "nodes.txt.gz"
    if not path.is_file():
        pytest.skip("../shared/data/touchdown is not available")
    pts = []
    with gzip.open(path, "rt") as f:
        for line in f:
            p = line.strip().split(",")
            if len(p) >= 4:
                pts.append(to_xy(float(p[2]), float(p[3])))
    return np.array(pts)


def nearest_distances(a: np.ndarray, b: np.ndarray, cell: float = 30.0) -> np.ndarray:
    """For each point of ``a`` the distance to the nearest point of ``b`` (inf beyond ~2 cells)."""
    grid: dict[tuple[int, int], list[int]] = defaultdict(list)
    for k, (x, y) in enumerate(b):
        grid[(int(math.floor(x / cell)), int(math.floor(y / cell)))].append(k)
    keys = {key: np.array(v) for key, v in grid.items()}
    out = np.full(len(a), np.inf)
    for i, (x, y) in enumerate(a):
        cx, cy = int(math.floor(x / cell)), int(math.floor(y / cell))
        cand = [keys[(cx + dx, cy + dy)] for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (cx + dx, cy + dy) in keys]
        if cand:
            idx = np.concatenate(cand)
            out[i] = float(np.sqrt(np.min((b[idx, 0] - x) ** 2 + (b[idx, 1] - y) ** 2)))
    return out


def convex_hull(points: np.ndarray) -> np.ndarray:
    pts = sorted(set(map(tuple, points.tolist())))

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list = []
    upper: list = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return np.array(lower[:-1] + upper[:-1])


def inside_convex(points: np.ndarray, hull: np.ndarray) -> np.ndarray:
    ok = np.ones(len(points), dtype=bool)
    for i in range(len(hull)):
        a, b = hull[i], hull[(i + 1) % len(hull)]
        ok &= (b[0] - a[0]) * (points[:, 1] - a[1]) - (b[1] - a[1]) * (points[:, 0] - a[0]) >= 0
    return ok


def fit_figures() -> dict[str, float]:
    pano = _panoramas()
    city = load_city()
    ours = np.array([to_xy(city.nodes[n].lat, city.nodes[n].lng) for n in city.node_ids()])
    lo, hi = pano.min(axis=0), pano.max(axis=0)
    in_box = np.all((ours >= lo) & (ours <= hi), axis=1)
    d_ours = nearest_distances(ours[in_box], pano)
    hull = convex_hull(ours)
    in_extent = inside_convex(pano, hull)
    d_pano = nearest_distances(pano[in_extent], ours)
    return {"our_nodes_in_box": int(in_box.sum()), "precision_20m": float(np.mean(d_ours <= 20.0)),
            "panoramas_in_extent": int(in_extent.sum()), "recall_25m": float(np.mean(d_pano <= 25.0))}


def test_city_follows_real_streets():
    f = fit_figures()
    print(f)
    assert f["our_nodes_in_box"] >= 5000 and f["panoramas_in_extent"] >= 5000, f
    assert f["precision_20m"] >= 0.85, f
    assert f["recall_25m"] >= 0.70, f


def test_nearest_distances_matches_brute_force():
    rng = np.random.default_rng(0)
    a, b = rng.uniform(0, 200, (50, 2)), rng.uniform(0, 200, (300, 2))
    brute = np.sqrt(((a[:, None, :] - b[None, :, :]) ** 2).sum(-1)).min(1)
    fast = nearest_distances(a, b)
    ok = brute <= 30.0  # the grid search is exact within one cell
    assert np.allclose(fast[ok], brute[ok])
