"""Four directional street views (N, E, S, W) drawn with Pillow, deterministic for a node.

Each view is a simple one-point perspective: sky, the street running away (when a street leaves the node
in that direction), facades on both sides whose colours and windows come from a hash of the node and the
direction, storefront signs with the names of places in that direction, and a green street-name sign when
a street leaves the node in that direction. The four views are tiled 2x2 (N E / S W) and labelled.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image, ImageDraw

from embodiedweb.render.text_image import font

from .geo import angle_diff

if TYPE_CHECKING:
    from .city import City, Place

DIRS = ("N", "E", "S", "W")
_PALETTE = [(164, 92, 74), (190, 170, 140), (120, 120, 128), (150, 110, 90), (205, 190, 160), (96, 104, 120),
            (176, 140, 100), (140, 150, 160), (200, 160, 120), (110, 90, 80)]


def _seed(*parts: str) -> int:
    return int.from_bytes(hashlib.blake2b("|".join(parts).encode(), digest_size=8).digest(), "big")


def view_contents(city: City, node_id: str, seen: list[tuple[float, float, Place]]) -> dict[str, dict]:
    """For each of N/E/S/W (the map's grid directions, ``city.compass_offset`` is north): the streets
    leaving that way and the places in sight that way, ``[(walking m, name)]`` nearest first. ``seen`` is
    what the world sees from the node, ``[(walking m, bearing deg, place)]`` nearest first
    (:func:`~embodiedweb.worlds.street.world.sight`); each place goes the way of its bearing."""
    out: dict[str, dict] = {d: {"streets": [], "places": []} for d in DIRS}
    base = city.compass_offset
    for _nb, h, _dist, street in city.neighbors(node_id):
        d = DIRS[int(((angle_diff(h, base) % 360) + 45) // 90) % 4]
        if street and street not in out[d]["streets"]:
            out[d]["streets"].append(street)
    for dist, bearing, place in seen:
        d = DIRS[int(((angle_diff(bearing, base) % 360) + 45) // 90) % 4]
        out[d]["places"].append((dist, place.name))
    return out


def _draw_view(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], node_id: str, d: str,
               content: dict, title: str, walker: bool = False) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    rng = _seed(node_id, d)
    horizon = y0 + int(h * 0.45)
    cx = x0 + w // 2
    # sky and ground
    draw.rectangle([x0, y0, x1, horizon], fill=(170, 200, 228))
    draw.rectangle([x0, horizon, x1, y1], fill=(128, 128, 128))
    has_street = bool(content["streets"])
    road_half = int(w * 0.32) if has_street else int(w * 0.06)
    draw.polygon([(cx - 4, horizon), (cx + 4, horizon), (x0 + w // 2 + road_half, y1), (x0 + w // 2 - road_half, y1)],
                 fill=(70, 70, 74))
    if has_street:
        for k in range(4):  # lane dashes
            yy = horizon + int((y1 - horizon) * (0.2 + 0.2 * k))
            draw.line([(cx, yy), (cx, yy + max(2, h // 40))], fill=(235, 210, 80), width=2)
    # facades on both sides, receding
    for side in (-1, 1):
        n_b = 3 + (rng >> (3 if side < 0 else 7)) % 3
        for k in range(n_b):
            r = _seed(node_id, d, str(side), str(k))
            col = _PALETTE[r % len(_PALETTE)]
            f_near = 1.0 - k / n_b
            f_far = 1.0 - (k + 1) / n_b
            xa = cx + side * int((w // 2) * (0.22 + 0.78 * f_near))
            xb = cx + side * int((w // 2) * (0.22 + 0.78 * f_far))
            top_a = horizon - int(h * (0.30 + 0.12 * ((r >> 8) % 4)) * (0.35 + 0.65 * f_near))
            top_b = horizon - int(h * (0.30 + 0.12 * ((r >> 8) % 4)) * (0.35 + 0.65 * f_far))
            bot_a = horizon + int((y1 - horizon) * 0.55 * f_near)
            bot_b = horizon + int((y1 - horizon) * 0.55 * f_far)
            draw.polygon([(xa, top_a), (xb, top_b), (xb, bot_b), (xa, bot_a)], fill=col, outline=(40, 40, 40))
            # windows
            for q in range(1, 4):
                yy_a = top_a + (bot_a - top_a) * q // 5
                yy_b = top_b + (bot_b - top_b) * q // 5
                draw.line([(xa, yy_a), (xb, yy_b)], fill=(60, 70, 90), width=1)
    # storefront signs with place names
    f_small = font(max(9, h // 18))
    for i, (dist, name) in enumerate(content["places"][:3]):
        sy = y0 + int(h * 0.52) + i * (h // 8)
        side_left = i % 2 == 0
        sx0 = x0 + 4 if side_left else cx + 6
        sx1 = cx - 6 if side_left else x1 - 4
        draw.rectangle([sx0, sy, sx1, sy + h // 10], fill=(250, 245, 230), outline=(30, 30, 30))
        sign = name[:28] if walker else f"{name[:28]} {round(round(dist, 2))}m"  # (as the text says: ``world.shown_m``)
        draw.text((sx0 + 3, sy + 1), sign, fill=(20, 20, 20), font=f_small)
    # street-name sign (at intersections)
    if has_street and content.get("intersection"):
        label = " / ".join(content["streets"][:2])
        draw.rectangle([cx - w // 3, y0 + 22, cx + w // 3, y0 + 22 + h // 10], fill=(20, 110, 60),
                       outline=(240, 240, 240))
        draw.text((cx - w // 3 + 4, y0 + 24), label[:34], fill=(255, 255, 255), font=f_small)
    # title bar
    draw.rectangle([x0, y0, x1, y0 + 16], fill=(30, 30, 30))
    draw.text((x0 + 4, y0 + 2), title[:60], fill=(255, 255, 255), font=font(11))
    draw.rectangle([x0, y0, x1 - 1, y1 - 1], outline=(0, 0, 0))


def render_views(city: City, node_id: str, heading: float, seen: list[tuple[float, float, Place]],
                 size: tuple[int, int] = (512, 512), walker: bool = False) -> np.ndarray:
    """The four views of ``node_id`` tiled 2x2 (N E / S W) into an RGB uint8 array of ``size`` (w, h);
    ``seen`` as in :func:`view_contents`. ``walker``: signs without distances and titles without the node
    id (the street world's ``walker`` view)."""
    w, h = max(64, int(size[0])), max(64, int(size[1]))
    img = Image.new("RGB", (w, h), (0, 0, 0))
    draw = ImageDraw.Draw(img)
    contents = view_contents(city, node_id, seen)
    crossing = len({s for c in contents.values() for s in c["streets"]}) > 1
    for c in contents.values():
        c["intersection"] = crossing
    names = {"N": "north", "E": "east", "S": "south", "W": "west"}
    facing = city.compass(heading)  # the grid direction the views are named by
    for k, d in enumerate(DIRS):
        bx, by = (k % 2) * (w // 2), (k // 2) * (h // 2)
        title = f"{names[d]}{' (facing)' if names[d] == facing else ''}" + ("" if walker else f" - {node_id}")
        _draw_view(draw, (bx, by, bx + w // 2, by + h // 2), node_id, d, contents[d], title, walker)
    return np.asarray(img, dtype=np.uint8)
