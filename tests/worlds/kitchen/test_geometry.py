"""The one-box visibility test agrees with the vectorised one (the simulator mixes both)."""

import numpy as np

from embodiedweb.worlds.kitchen import geometry


def test_box_visible_matches_visible_mask():
    rng = np.random.default_rng(0)
    n = 4000
    centers = rng.uniform([-2, 0, -2], [2, 2, 2], size=(n, 3))
    halves = rng.uniform(0.02, 0.6, size=(n, 3))
    disagreements = 0
    seen = 0
    for k in range(8):
        cam = np.array([rng.uniform(-1, 1), 0.9 + geometry.CAMERA_OFFSET, rng.uniform(-1, 1)])
        rot, hor = float(90 * (k % 4)), float([0, 30, -30, 60][k % 4])
        mask = geometry.visible_mask(cam, rot, hor, centers, halves)
        seen += int(mask.sum())
        for i in range(0, n, 7):
            one = geometry.box_visible(tuple(cam), rot, hor, centers[i].tolist(), halves[i].tolist())
            disagreements += one != bool(mask[i])
    assert seen > 500  # the sample covers both answers
    assert disagreements == 0
