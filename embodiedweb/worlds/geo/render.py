"""Render a viewpoint's views with Pillow: road and lane lines in their colours, cars on their side with
their plates (a pedestrian street: light paving, tram rails where trams run, no lines and no cars),
bollards, poles, plants, buildings, the sun and signs with their real text.

Sign text is drawn with DejaVu Sans when it is installed (Latin, Greek, Cyrillic, Arabic, Hebrew,
Georgian, Armenian, Tifinagh); when the font lacks a glyph (Thai, Devanagari, CJK, Hangul, Ethiopic)
the sign shows its Latin transliteration instead. Everything is deterministic (no randomness beyond a
hash of the viewpoint id).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from embodiedweb.render.text_image import font

COL = {"white": (245, 245, 245), "black": (20, 20, 20), "yellow": (245, 200, 20), "blue": (30, 70, 170),
       "green": (20, 120, 60), "maroon": (120, 20, 40), "grey": (110, 110, 115), "red": (200, 30, 30)}
ARCH_COL = {"haussmann": (225, 215, 190), "brick_terrace": (150, 70, 50), "gabled": (130, 60, 45),
            "baroque": (235, 205, 160), "plattenbau": (175, 175, 170), "stone_old": (190, 180, 160),
            "tiles": (90, 140, 190), "whitewashed": (245, 245, 240), "colonial": (240, 170, 90),
            "glass_towers": (120, 160, 190), "shophouse": (220, 190, 150), "neon": (90, 90, 110),
            "wooden": (200, 90, 70), "soviet": (200, 185, 160), "orthodox": (210, 200, 180),
            "mosque": (230, 220, 200), "modern_low": (200, 200, 200), "balconies_concrete": (190, 185, 175),
            "ochre": (205, 140, 70), "red_earth": (180, 100, 70), "temple": (200, 60, 40), "victorian": (170, 120, 90),
            "stone_commercial": (205, 195, 175), "brick_commercial": (160, 75, 55), "sandstone": (200, 160, 120),
            "georgian": (225, 210, 180), "painted_fronts": (90, 160, 200), "half_timbered": (235, 225, 200),
            "modern_block": (185, 190, 195), "old_town": (230, 200, 160), "modernista": (215, 200, 170),
            "balconies_iron": (235, 220, 195), "pombaline": (230, 215, 170), "plaster_blocks": (225, 215, 190),
            "neoclassical": (235, 230, 215), "tuff": (200, 140, 130), "chinese_old": (140, 90, 60),
            "colonnades": (240, 238, 228), "art_deco": (230, 220, 200), "bauhaus": (245, 245, 240),
            "limestone": (230, 215, 180), "iron_galleries": (200, 140, 160), "white_stone": (240, 238, 230)}


@lru_cache(maxsize=4)
def _notdef(size: int) -> bytes:
    return _glyph("\ue000", size)


@lru_cache(maxsize=4096)
def _glyph(ch: str, size: int) -> bytes:
    im = Image.new("L", (size * 3, size * 2))
    ImageDraw.Draw(im).text((2, 2), ch, font=font(size), fill=255)
    return im.tobytes()


def drawable(text: str, size: int = 12) -> bool:
    """Whether the font has a glyph for every visible character of ``text``."""
    if not isinstance(font(size), ImageFont.FreeTypeFont):
        return all(ord(c) < 128 for c in text)
    nd = _notdef(size)
    return all(c.isspace() or _glyph(c, size) != nd for c in set(text))


def sign_text(item: dict[str, Any], size: int = 12) -> str:
    """The text to draw on a sign: its own text when the font can draw it, else its transliteration."""
    text = item.get("text", "")
    if drawable(text, size):
        return text
    return item.get("translit") or "".join(c if ord(c) < 128 else "?" for c in text)


def _rng(seed: str) -> int:
    return int.from_bytes(hashlib.sha256(seed.encode()).digest()[:4], "big")


def _plate(d: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, item: dict[str, Any]) -> None:
    bg, fg = COL.get(item.get("bg", "white"), COL["white"]), COL.get(item.get("fg", "black"), COL["black"])
    style = item.get("style", "")
    d.rectangle([x, y, x + w, y + h], fill=bg, outline=(60, 60, 60))
    band = max(2, w // 8)
    if style == "eu":
        d.rectangle([x, y, x + band, y + h], fill=COL["blue"])
        d.point([(x + band // 2, y + h // 3)], fill=COL["yellow"])
    elif style in ("right_blue",):
        d.rectangle([x + w - band, y, x + w, y + h], fill=COL["blue"])
    elif style == "right_yellow":
        d.rectangle([x + w - band, y, x + w, y + h], fill=COL["yellow"])
    elif style == "red_stripes":
        d.line([x, y, x + w, y], fill=COL["red"], width=2)
        d.line([x, y + h, x + w, y + h], fill=COL["red"], width=2)
    elif style in ("flag_left", "flag_right"):
        fx = x if style == "flag_left" else x + w - band
        d.rectangle([fx, y, fx + band, y + h // 2], fill=(30, 90, 200))
        d.rectangle([fx, y + h // 2, fx + band, y + h], fill=(240, 200, 30))
    elif style == "blue_letters_left":
        d.rectangle([x, y, x + band, y + h], fill=COL["blue"])
    elif style == "red_border":
        d.rectangle([x, y, x + w, y + h], outline=COL["red"], width=1)
    elif style in ("top_blue", "pale_top"):
        d.rectangle([x, y, x + w, y + max(2, h // 4)], fill=COL["blue"] if style == "top_blue" else (150, 200, 240))
    elif style == "two_arms":
        d.rectangle([x + 2, y + 2, x + band, y + h - 2], fill=COL["red"])
        d.rectangle([x + w - band, y + 2, x + w - 2, y + h - 2], fill=COL["red"])
    if h >= 8:
        d.text((x + band + 2, y + (h - 9) // 2), "AB 123", fill=fg, font=font(max(7, h - 3)))


def _car(d: ImageDraw.ImageDraw, cx: int, base: int, w: int, plate: dict[str, Any] | None, colour: tuple) -> None:
    h = int(w * 0.6)
    d.rectangle([cx - w // 2, base - h, cx + w // 2, base], fill=colour, outline=(30, 30, 30))
    d.rectangle([cx - w // 2 + 4, base - h + 3, cx + w // 2 - 4, base - h // 2], fill=(150, 180, 200))
    d.ellipse([cx - w // 2 + 2, base - 6, cx - w // 2 + 10, base + 2], fill=(20, 20, 20))
    d.ellipse([cx + w // 2 - 10, base - 6, cx + w // 2 - 2, base + 2], fill=(20, 20, 20))
    pw, ph = max(12, w // 2), max(5, w // 8)
    _plate(d, cx - pw // 2, base - ph - 4, pw, ph, plate or {"style": "white_black"})


def _tree(d: ImageDraw.ImageDraw, x: int, ground: int, s: int, style: str) -> None:
    if style == "palm":
        d.line([x, ground, x + s // 6, ground - s], fill=(120, 90, 50), width=max(2, s // 12))
        top = (x + s // 6, ground - s)
        for dx, dy in ((-s // 2, s // 5), (s // 2, s // 5), (-s // 3, -s // 6), (s // 3, -s // 6), (0, -s // 4)):
            d.line([top, (top[0] + dx, top[1] + dy)], fill=(40, 130, 50), width=max(2, s // 14))
    elif style == "conifer":
        d.polygon([(x, ground - s), (x - s // 3, ground - s // 6), (x + s // 3, ground - s // 6)], fill=(20, 80, 40))
        d.rectangle([x - 2, ground - s // 6, x + 2, ground], fill=(90, 60, 30))
    elif style == "cactus":
        d.rectangle([x - s // 12, ground - s // 2, x + s // 12, ground], fill=(60, 140, 70))
        d.rectangle([x - s // 4, ground - s // 3, x - s // 12, ground - s // 4], fill=(60, 140, 70))
    else:
        trunk = (235, 235, 230) if style == "birch" else (100, 75, 45)
        leaf = {"jacaranda": (150, 110, 200), "bougainvillea": (200, 50, 140), "tropical": (30, 150, 60),
                "eucalyptus": (120, 150, 120)}.get(style, (50, 130, 50))
        d.rectangle([x - 2, ground - s // 2, x + 2, ground], fill=trunk)
        d.ellipse([x - s // 3, ground - s, x + s // 3, ground - s // 2 + 4], fill=leaf)


def _sign(d: ImageDraw.ImageDraw, x: int, y: int, item: dict[str, Any], maxw: int) -> int:
    size = 11
    text = sign_text(item, size)
    f = font(size)
    role = item.get("role", "shop")
    bg, fg = {"street": ((30, 110, 60), (255, 255, 255)), "phone": ((255, 255, 255), (20, 20, 20)),
              "domain": ((250, 235, 120), (20, 20, 20)), "city": ((120, 20, 40), (255, 230, 160))
              }.get(role, ((250, 250, 250), (30, 30, 30)))
    try:
        tw = int(d.textlength(text, font=f))
    except Exception:  # a layout engine problem must not stop rendering
        tw = 7 * len(text)
    tw = min(tw, maxw)
    d.rectangle([x, y, x + tw + 6, y + size + 6], fill=bg, outline=(40, 40, 40))
    d.text((x + 3, y + 2), text, fill=fg, font=f)
    return size + 9


def render_panel(items: list[dict[str, Any]], w: int, h: int, seed: str) -> Image.Image:
    """One view of a viewpoint as a ``w`` x ``h`` image with ``items`` drawn in it; ``seed`` fixes the scenery."""
    img = Image.new("RGB", (w, h), (150, 190, 230))
    d = ImageDraw.Draw(img)
    horizon = int(h * 0.45)
    kinds = {it["kind"] for it in items}
    r = _rng(seed)
    sun = next((it for it in items if it["kind"] == "sun"), None)
    if sun:
        d.ellipse([w // 2 - 14, 8, w // 2 + 14, 36], fill=(255, 235, 120))
    d.rectangle([0, horizon, w, h], fill=(120, 120, 110))
    building = next((it for it in items if it["kind"] == "building"), None)
    bcol = ARCH_COL.get(building["style"], (200, 200, 200)) if building else (200, 195, 185)
    if "road" in kinds:
        road = next(it for it in items if it["kind"] == "road")
        vx = w // 2
        paving = (175, 165, 150) if road.get("pedestrian") else (70, 70, 75)  # a pedestrian street is paved
        d.polygon([(vx - 6, horizon), (vx + 6, horizon), (w - w // 10, h), (w // 10, h)], fill=paving)
        if road.get("transit") == "trams":
            for side in (-1, 1):
                d.line([(vx + side * 2, horizon), (vx + side * (w // 12), h)], fill=(90, 90, 95), width=2)
        for side in (-1, 1):  # buildings along both sides
            xs = [0, vx - 10] if side < 0 else [vx + 10, w]
            top = horizon - int(h * 0.25)
            poly = [(xs[0], top), (xs[1], horizon - 4), (xs[1], horizon), (xs[0], h)] if side < 0 else \
                   [(xs[0], horizon - 4), (xs[1], top), (xs[1], h), (xs[0], horizon)]
            d.polygon(poly, fill=bcol)
        colour = COL.get(road.get("centre") or "", None)
        if colour:
            steps = 10
            for k in range(steps):
                if road.get("dashed") and k % 2:
                    continue
                t0, t1 = k / steps, (k + 1) / steps
                y0, y1 = horizon + (h - horizon) * t0, horizon + (h - horizon) * t1
                d.line([(vx, y0), (vx, y1)], fill=colour, width=max(1, int(1 + 3 * t1)))
        if road.get("edge"):
            ec = COL["yellow"]
            for side in (-1, 1):
                d.line([(vx + side * 6, horizon), (w // 2 + side * (w // 2 - w // 10 - 4), h)], fill=ec, width=2)
                if road["edge"] == "double_yellow":
                    d.line([(vx + side * 7, horizon), (w // 2 + side * (w // 2 - w // 10 - 10), h)], fill=ec, width=2)
        traffic = next((it for it in items if it["kind"] == "traffic"), None)
        plates = [it for it in items if it["kind"] == "plate"]
        side = -1 if (traffic and traffic["side"] == "left") else 1
        if traffic or plates:
            plate = plates[0] if plates else None
            _car(d, w // 2 + side * w // 6, int(h * 0.85), max(30, w // 4), plate, ((r >> 3) % 200, 60, 90))
        for k, p in enumerate(plates[1:3]):
            _plate(d, 6 + k * (w // 3), h - 14, max(24, w // 4), 10, p)
        if "bollard" in kinds:
            bol = next(it for it in items if it["kind"] == "bollard")
            for k in range(3):
                bx = w // 10 + 4 + k * 6 if side > 0 else w - w // 10 - 4 - k * 6
                by = h - 8 - k * int((h - horizon) / 4)
                bh = max(6, 18 - 5 * k)
                d.rectangle([bx - 2, by - bh, bx + 2, by], fill=COL["white"])
                if bol["style"] == "black_band":
                    d.rectangle([bx - 2, by - bh, bx + 2, by - bh + bh // 3], fill=COL["black"])
                else:
                    d.rectangle([bx - 1, by - bh + 2, bx + 1, by - bh + 4], fill=COL["red"])
    else:
        top = int(h * 0.12)
        d.rectangle([0, top, w, horizon + int(h * 0.2)], fill=bcol)
        for wx in range(8, w - 8, max(14, w // 8)):
            for wy in range(top + 8, horizon, 16):
                d.rectangle([wx, wy, wx + 7, wy + 9], fill=(90, 110, 130))
        d.rectangle([0, horizon + int(h * 0.2), w, h], fill=(160, 160, 150))
    # poles and plants
    for it in items:
        if it["kind"] == "pole":
            px = w - 14 if (r & 1) else 14
            colr = (120, 90, 60) if it["style"] == "wood_transformer" else (160, 160, 160)
            d.line([(px, int(h * 0.1)), (px, int(h * 0.8))], fill=colr, width=4)
            d.line([(0, int(h * 0.14)), (w, int(h * 0.12))], fill=(30, 30, 30), width=1)
            if it["style"] == "wood_transformer":
                d.rectangle([px + 3, int(h * 0.18), px + 11, int(h * 0.3)], fill=(150, 150, 155))
            elif it["style"] == "jp_stripe":
                for k in range(5):
                    c = COL["yellow"] if k % 2 else COL["black"]
                    d.line([(px + 4 + k * 3, int(h * 0.8) - k * 6), (px + 7 + k * 3, int(h * 0.8) - k * 6 - 6)],
                           fill=c, width=3)
            elif it["style"] == "concrete_holes":
                for k in range(6):
                    d.point([(px, int(h * 0.2) + k * 10)], fill=(60, 60, 60))
            elif it["style"] == "tangle":
                for k in range(4):
                    d.arc([0, int(h * 0.1) + 2 * k, w, int(h * 0.25) + 3 * k], 0, 180, fill=(20, 20, 20))
    plants = [it for it in items if it["kind"] == "vegetation" and it["style"] != "none"]
    for k, it in enumerate(plants):
        x = w // 6 + k * (w // 2) + ((r >> (4 + k)) % 10)
        _tree(d, x, int(h * 0.8), max(30, h // 3), it["style"])
    # signs
    y = int(h * 0.18)
    for it in items:
        if it["kind"] == "sign":
            x = 6 + ((r >> 7) % max(1, w // 6))
            y += _sign(d, x, y, it, w - x - 10)
            if y > h - 20:
                y = int(h * 0.18)
    return img


def render_views(views: dict[str, list[dict[str, Any]]], facing: str, size: tuple[int, int],
                 seed: str = "") -> np.ndarray:
    """The views as one RGB image: a 2 x 2 grid (N, E / S, W), or one panel when only N is visible."""
    w, h = int(size[0]), int(size[1])
    canvas = Image.new("RGB", (w, h), (30, 30, 30))
    d = ImageDraw.Draw(canvas)
    order = [k for k in ("N", "E", "S", "W") if k in views]
    if len(order) == 1:
        cells = {order[0]: (0, 0, w, h)}
    else:
        pw, ph = w // 2, h // 2
        cells = {k: ((i % 2) * pw, (i // 2) * ph, pw, ph) for i, k in enumerate(order)}
    for k, (x, y, pw, ph) in cells.items():
        if pw < 8 or ph < 8:
            continue
        panel = render_panel(views[k], pw - 2, ph - 2, f"{seed}:{k}")
        canvas.paste(panel, (x + 1, y + 1))
        d.rectangle([x + 2, y + 2, x + 16, y + 16], fill=(0, 0, 0))
        d.text((x + 5, y + 3), k, fill=(255, 255, 255), font=font(11))
        if k == facing:
            d.rectangle([x, y, x + pw - 1, y + ph - 1], outline=(255, 60, 60), width=2)
    return np.asarray(canvas, dtype=np.uint8)
