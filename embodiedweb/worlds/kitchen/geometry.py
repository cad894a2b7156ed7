"""Camera geometry: which object boxes are in the agent's field of view and within reach.

An object counts as visible (AI2-THOR's notion: interactable) when some point of its box lies inside
the camera frustum (90 degree field of view, pitched by the camera horizon) no farther than the
visibility distance (1.5 m) from the camera. Candidate points: the box centre, the box point closest
to the camera, and the box points closest to points along the viewing ray.
"""

from __future__ import annotations

import math

import numpy as np

VISIBILITY_DISTANCE = 1.5
FOV_DEG = 90.0
CAMERA_OFFSET = 0.675  # camera height above the agent's reported y
_RAY_STEPS = (0.35, 0.7, 1.05, 1.4)


def camera_axes(rotation: float, horizon: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Forward, right and up unit vectors for a yaw (deg, 0 = +z, 90 = +x) and a horizon (deg, + = down)."""
    yaw, pitch = math.radians(rotation), math.radians(horizon)
    fwd = np.array([math.sin(yaw) * math.cos(pitch), -math.sin(pitch), math.cos(yaw) * math.cos(pitch)])
    right = np.array([math.cos(yaw), 0.0, -math.sin(yaw)])
    up = np.cross(fwd, right)
    return fwd, right, up


def visible_mask(cam: np.ndarray, rotation: float, horizon: float, centers: np.ndarray, halves: np.ndarray,
                 max_dist: float = VISIBILITY_DISTANCE, fov_deg: float = FOV_DEG) -> np.ndarray:
    """Boolean mask over boxes (N x 3 centres / half extents) that are in view and within ``max_dist``."""
    if len(centers) == 0:
        return np.zeros(0, dtype=bool)
    fwd, right, up = camera_axes(rotation, horizon)
    lo, hi = centers - halves, centers + halves
    tan_half = math.tan(math.radians(fov_deg / 2.0)) + 1e-6
    cands = [centers, np.clip(cam, lo, hi)]
    for t in _RAY_STEPS:
        cands.append(np.clip(cam + fwd * t, lo, hi))
    pts = np.stack(cands)  # K x N x 3
    v = pts - cam
    zc = v @ fwd
    xc = np.abs(v @ right)
    yc = np.abs(v @ up)
    dist = np.sqrt((v * v).sum(axis=-1))
    ok = (zc > 1e-6) & (xc <= zc * tan_half) & (yc <= zc * tan_half) & (dist <= max_dist)
    # a camera inside the box sees it
    inside = np.all((cam >= lo) & (cam <= hi), axis=1)
    return ok.any(axis=0) | inside


def box_distance(cam: tuple[float, float, float], center: list[float], half: tuple[float, float, float]) -> float:
    """Distance from a point to the nearest point of a box."""
    d2 = 0.0
    for c, m, h in zip(cam, center, half, strict=True):
        e = abs(c - m) - h
        if e > 0:
            d2 += e * e
    return math.sqrt(d2)
