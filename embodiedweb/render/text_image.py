"""Render text (a page's tree, a scene description) into an RGB image with Pillow."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

_FONT_CANDIDATES = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "DejaVuSans.ttf"]


@lru_cache(maxsize=8)
def font(size: int = 12) -> ImageFont.ImageFont:
    """A TrueType font when one is installed, else Pillow's built-in font (deterministic either way)."""
    for path in _FONT_CANDIDATES:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return ImageFont.load_default(size)


def text_page_image(text: str, header: str, size: tuple[int, int]) -> np.ndarray:
    """A page-like picture of ``text`` under a header bar (used for web images in text mode)."""
    w, h = size
    img = Image.new("RGB", (w, h), (250, 250, 250))
    draw = ImageDraw.Draw(img)
    f = font(11)
    draw.rectangle([0, 0, w, 18], fill=(36, 64, 92))
    draw.text((4, 3), header[:120], fill=(255, 255, 255), font=f)
    y = 22
    for line in text.splitlines():
        if y > h - 12:
            break
        draw.text((4 + 8 * line.count("\t"), y), line.strip()[:200], fill=(20, 20, 20), font=f)
        y += 13
    return np.asarray(img, dtype=np.uint8)
