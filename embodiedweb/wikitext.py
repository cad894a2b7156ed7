"""Wiki article text: ``[[slug|label]]`` links, slugs and plain text.

Shared by the wiki generator (:mod:`embodiedweb.data_gen.wiki`) and the runtime that reads the articles
(the wiki site's catalogue, task checkers), so that runtime code never imports a generator module.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

__all__ = ["LINK_RX", "slugify", "plain_text", "link_slugs", "article_text"]

LINK_RX = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]*))?\]\]")


def slugify(text: str) -> str:
    """The URL slug of a title: ASCII-folded, lower case, runs of other characters as ``-``."""
    s = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    s = re.sub(r"['’]", "", s)
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-")


def plain_text(text: str) -> str:
    """Text with ``[[slug|label]]`` links replaced by their labels."""
    return LINK_RX.sub(lambda m: m.group(2) if m.group(2) is not None else m.group(1).replace("-", " "), text)


def link_slugs(text: str) -> list[str]:
    """The slugs of every wiki link in ``text``, in order."""
    return [m.group(1) for m in LINK_RX.finditer(text)]


def article_text(article: dict[str, Any]) -> str:
    """The article's plain text: title, lead, headings and paragraphs, infobox values."""
    parts = [article["title"], plain_text(article["lead"])]
    for s in article["sections"]:
        parts.append(s["heading"])
        parts.extend(plain_text(t) for t in s["paragraphs"])
    parts.extend(f"{k}: {v}" for k, v in article.get("infobox", []))
    return "\n".join(parts)
