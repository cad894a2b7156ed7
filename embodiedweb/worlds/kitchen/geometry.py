"""Camera geometry: which object boxes are in the agent's field of view and within reach.

An object counts as visible (AI2-THOR's notion: interactable) when some point of its box lies inside
the camera frustum (90 degree field of view, pitched by the camera horizon) no farther than the
visibility distance (1.5 m) from the agent. As in AI2-THOR 2.x, that distance is measured from the
agent's body axis (a vertical segment from near the floor up to the camera, the capsule AI2-THOR uses
to collect candidate objects), so objects low in cabinets are reached like objects on the counter. Candidate points: the box centre, the box point closest
to the camera, and the box points closest to points along the viewing ray.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

VISIBILITY_DISTANCE = 1.5
FOV_DEG = 90.0
CAMERA_OFFSET = 0.675  # camera height above the agent's reported y
REACH_BELOW = 0.70  # the reach axis starts this far below the agent's reported y
_RAY_STEPS = (0.35, 0.7, 1.05, 1.4)


@lru_cache(maxsize=4096)
def _axes(rotation: float, horizon: float) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    yaw, pitch = math.radians(rotation), math.radians(horizon)
    cy, sy, cp, sp = math.cos(yaw), math.sin(yaw), math.cos(pitch), math.sin(pitch)
    fwd = (sy * cp, -sp, cy * cp)
    right = (cy, 0.0, -sy)
    up = (fwd[1] * right[2] - fwd[2] * right[1], fwd[2] * right[0] - fwd[0] * right[2],
          fwd[0] * right[1] - fwd[1] * right[0])
    return fwd, right, up


def camera_axes(rotation: float, horizon: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Forward, right and up unit vectors for a yaw (deg, 0 = +z, 90 = +x) and a horizon (deg, + = down)."""
    fwd, right, up = _axes(float(rotation), float(horizon))
    return np.array(fwd), np.array(right), np.array(up)


_T = np.array(_RAY_STEPS)[:, None, None]


def visible_mask(cam: np.ndarray, rotation: float, horizon: float, centers: np.ndarray, halves: np.ndarray,
                 max_dist: float = VISIBILITY_DISTANCE, fov_deg: float = FOV_DEG,
                 axis_low: float | None = None) -> np.ndarray:
    """Boolean mask over boxes (N x 3 centres / half extents) that are in view and within ``max_dist``.

    Distances are measured to the vertical segment from ``axis_low`` up to the camera (default: the
    camera height minus ``CAMERA_OFFSET + REACH_BELOW``)."""
    if axis_low is None:
        axis_low = float(cam[1]) - CAMERA_OFFSET - REACH_BELOW
    if len(centers) == 0:
        return np.zeros(0, dtype=bool)
    fwd, right, up = camera_axes(rotation, horizon)
    lo, hi = centers - halves, centers + halves
    tan_half = math.tan(math.radians(fov_deg / 2.0)) + 1e-6
    ray = cam + fwd * _T  # K x 1 x 3
    near = np.minimum(np.maximum(np.concatenate([cam[None, None, :], ray]), lo), hi)  # (K+1) x N x 3
    pts = np.concatenate([centers[None], near])
    v = pts - cam
    zc = v @ fwd
    xc = np.abs(v @ right)
    yc = np.abs(v @ up)
    below = np.maximum(axis_low - pts[..., 1], 0.0) + np.maximum(pts[..., 1] - cam[1], 0.0)
    dist = np.sqrt(v[..., 0] ** 2 + v[..., 2] ** 2 + below**2)
    ok = (zc > 1e-6) & (xc <= zc * tan_half) & (yc <= zc * tan_half) & (dist <= max_dist)
    # a camera inside the box sees it
    inside = np.all((cam >= lo) & (cam <= hi), axis=1)
    return ok.any(axis=0) | inside


def box_visible(cam: tuple[float, float, float], rotation: float, horizon: float, center: list[float],
                half: tuple[float, float, float] | list[float], max_dist: float = VISIBILITY_DISTANCE,
                fov_deg: float = FOV_DEG) -> bool:
    """:func:`visible_mask` for one box, in plain Python (cheaper than numpy for a few boxes, as when
    one object moved and the pose did not)."""
    fwd, right, up = _axes(float(rotation), float(horizon))
    axis_low = cam[1] - CAMERA_OFFSET - REACH_BELOW
    lo = [center[k] - half[k] for k in range(3)]
    hi = [center[k] + half[k] for k in range(3)]
    if all(lo[k] <= cam[k] <= hi[k] for k in range(3)):
        return True
    tan_half = math.tan(math.radians(fov_deg / 2.0)) + 1e-6
    pts = [center]
    for t in (0.0, *_RAY_STEPS):
        q = [cam[k] + fwd[k] * t for k in range(3)]
        pts.append([min(max(q[k], lo[k]), hi[k]) for k in range(3)])
    for p in pts:
        v = (p[0] - cam[0], p[1] - cam[1], p[2] - cam[2])
        zc = v[0] * fwd[0] + v[1] * fwd[1] + v[2] * fwd[2]
        if zc <= 1e-6:
            continue
        xc = abs(v[0] * right[0] + v[1] * right[1] + v[2] * right[2])
        yc = abs(v[0] * up[0] + v[1] * up[1] + v[2] * up[2])
        below = max(axis_low - p[1], 0.0) + max(p[1] - cam[1], 0.0)
        if xc <= zc * tan_half and yc <= zc * tan_half and math.sqrt(v[0] ** 2 + v[2] ** 2 + below ** 2) <= max_dist:
            return True
    return False


def box_distance(cam: tuple[float, float, float], center: list[float], half: tuple[float, float, float]) -> float:
    """Distance from the agent's reach axis (below the camera ``cam``) to the nearest point of a box."""
    d2 = 0.0
    for ax in (0, 2):
        e = abs(cam[ax] - center[ax]) - half[ax]
        if e > 0:
            d2 += e * e
    low = cam[1] - CAMERA_OFFSET - REACH_BELOW
    gap = max(center[1] - half[1] - cam[1], low - (center[1] + half[1]), 0.0)
    return math.sqrt(d2 + gap * gap)


def box_view_gaps(cam: tuple[float, float, float], rotation: float, horizon: float, center: list[float],
                  half: tuple[float, float, float] | list[float], max_dist: float = VISIBILITY_DISTANCE,
                  fov_deg: float = FOV_DEG) -> list[str]:
    """Where the box leaves the view, in the order ``behind``, ``left``, ``right``, ``above``, ``below``,
    ``beyond reach`` (those that apply to some corner; [] exactly when :func:`box_fully_in_view`): what
    an agent has to turn, look or move towards to see all of it."""
    fwd, right, up = _axes(float(rotation), float(horizon))
    axis_low = cam[1] - CAMERA_OFFSET - REACH_BELOW
    tan_half = math.tan(math.radians(fov_deg / 2.0)) + 1e-6
    gaps: set[str] = set()
    for sx in (-1, 1):
        for sy in (-1, 1):
            for sz in (-1, 1):
                p = (center[0] + sx * half[0], center[1] + sy * half[1], center[2] + sz * half[2])
                v = (p[0] - cam[0], p[1] - cam[1], p[2] - cam[2])
                zc = v[0] * fwd[0] + v[1] * fwd[1] + v[2] * fwd[2]
                xc = v[0] * right[0] + v[1] * right[1] + v[2] * right[2]
                yc = v[0] * up[0] + v[1] * up[1] + v[2] * up[2]
                if zc <= 1e-6:
                    gaps.add("behind")
                else:
                    if xc < -zc * tan_half:
                        gaps.add("left")
                    elif xc > zc * tan_half:
                        gaps.add("right")
                    if yc > zc * tan_half:
                        gaps.add("above")
                    elif yc < -zc * tan_half:
                        gaps.add("below")
                below = max(axis_low - p[1], 0.0) + max(p[1] - cam[1], 0.0)
                if math.sqrt(v[0] ** 2 + v[2] ** 2 + below ** 2) > max_dist:
                    gaps.add("beyond reach")
    return [g for g in ("behind", "left", "right", "above", "below", "beyond reach") if g in gaps]


def box_fully_in_view(cam: tuple[float, float, float], rotation: float, horizon: float, center: list[float],
                      half: tuple[float, float, float] | list[float], max_dist: float = VISIBILITY_DISTANCE,
                      fov_deg: float = FOV_DEG) -> bool:
    """Every corner of the box is inside the frustum and within reach. The frustum and the reach are
    convex, so then every object whose centre lies in the box is visible too."""
    fwd, right, up = _axes(float(rotation), float(horizon))
    axis_low = cam[1] - CAMERA_OFFSET - REACH_BELOW
    tan_half = math.tan(math.radians(fov_deg / 2.0)) + 1e-6
    for sx in (-1, 1):
        for sy in (-1, 1):
            for sz in (-1, 1):
                p = (center[0] + sx * half[0], center[1] + sy * half[1], center[2] + sz * half[2])
                v = (p[0] - cam[0], p[1] - cam[1], p[2] - cam[2])
                zc = v[0] * fwd[0] + v[1] * fwd[1] + v[2] * fwd[2]
                if zc <= 1e-6:
                    return False
                xc = abs(v[0] * right[0] + v[1] * right[1] + v[2] * right[2])
                yc = abs(v[0] * up[0] + v[1] * up[1] + v[2] * up[2])
                below = max(axis_low - p[1], 0.0) + max(p[1] - cam[1], 0.0)
                if xc > zc * tan_half or yc > zc * tan_half or \
                        math.sqrt(v[0] ** 2 + v[2] ** 2 + below ** 2) > max_dist:
                    return False
    return True
