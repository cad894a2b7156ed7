"""The wiki's articles (``data/wiki/articles.json``) for the site, task generators and checkers.

Article text holds internal links written ``[[slug|label]]``; :func:`render_text` turns them into HTML
links (everything else escaped) and :func:`article_text` gives the plain text that the full-text index
and answer checks use.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from embodiedweb.frozen import read_only
from embodiedweb.paths import data_dir
from embodiedweb.wikitext import LINK_RX, article_text, plain_text, slugify

__all__ = ["articles", "by_slug", "get", "categories", "category_members", "render_text", "article_text",
           "plain_text", "fts_query", "FEATURED", "SHELVES"]

FEATURED = ("empire-state-building", "grand-central-terminal", "chrysler-building", "nypl-main-branch",
            "flatiron-building", "commissioners-plan-of-1811", "broadway", "art-deco")


def _cue_article(a: dict[str, Any]) -> dict[str, Any]:
    """A geolocation cue article (``data/wiki/cues.json``: plain paragraphs, a ``links`` list) in wiki form."""
    out = dict(a)
    out.setdefault("kind", "geo")
    out.setdefault("lead", a.get("summary", ""))
    out.setdefault("infobox", [])
    out.setdefault("categories", ["Geolocation cues"])
    out["see_also"] = list(a.get("links", []))
    return out


#: the shelves of articles a task may add for its sessions (``web.sites.wiki.extra``): files ``<name>.*.json``
#: of ``data/wiki`` (outside the standard tier's world digest, see :func:`embodiedweb.versions.world_digest`)
SHELVES = ("hard",)


def _read(path: Any) -> list[Any]:
    try:
        out = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return out if isinstance(out, list) else []


@lru_cache(maxsize=4)
def articles(extra: str | None = None) -> tuple[dict[str, Any], ...]:
    """All articles, sorted by slug: ``articles.json`` plus the geolocation cues of ``cues.json`` if present,
    plus, for ``extra`` (a shelf of :data:`SHELVES`), the articles of the files ``<extra>.*.json``: what only
    the sessions of a task that names the shelf see.

    On a slug clash the article of ``articles.json`` is kept (then the cues', then the shelf's).
    """
    folder = data_dir() / "wiki"
    with open(folder / "articles.json", encoding="utf-8") as f:
        arts = {a["slug"]: a for a in json.load(f)}
    extra_files = sorted(folder.glob(f"{extra}.*.json")) if extra in SHELVES else []
    for path in [folder / "cues.json", *extra_files]:
        for a in _read(path) if path.exists() else []:
            if isinstance(a, dict) and a.get("slug") and a.get("title") and a["slug"] not in arts:
                arts[a["slug"]] = _cue_article(a)
    return read_only(tuple(sorted(arts.values(), key=lambda a: a["slug"])))


@lru_cache(maxsize=4)
def by_slug(extra: str | None = None) -> dict[str, dict[str, Any]]:
    """Every article by its slug (with the shelf ``extra``'s)."""
    return {a["slug"]: a for a in articles(extra)}


def get(slug: str, extra: str | None = None) -> dict[str, Any] | None:
    """The article with this slug, or ``None`` (a shelf's article only with its ``extra``)."""
    return by_slug(extra).get(slug)


@lru_cache(maxsize=4)
def categories(extra: str | None = None) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Category slug -> (name, slugs of member articles sorted by title)."""
    cats: dict[str, tuple[str, list[dict[str, Any]]]] = {}
    for a in articles(extra):
        for c in a["categories"]:
            cats.setdefault(slugify(c), (c, []))[1].append(a)
    return {k: (name, tuple(a["slug"] for a in sorted(members, key=lambda a: (a["title"].lower(), a["slug"]))))
            for k, (name, members) in sorted(cats.items())}


def category_members(cat_slug: str, extra: str | None = None) -> list[dict[str, Any]] | None:
    """The articles of a category, or ``None`` for an unknown category."""
    c = categories(extra).get(cat_slug)
    return None if c is None else [by_slug(extra)[s] for s in c[1]]


def render_text(text: str) -> Markup:
    """HTML of one paragraph: escaped text with ``[[slug|label]]`` turned into article links."""
    out: list[str] = []
    pos = 0
    for m in LINK_RX.finditer(text):
        out.append(str(escape(text[pos:m.start()])))
        slug, label = m.group(1), m.group(2) or m.group(1)
        out.append(f'<a href="/wiki/article/{escape(slug)}">{escape(label)}</a>')
        pos = m.end()
    out.append(str(escape(text[pos:])))
    return Markup("".join(out))


_TOKEN = re.compile(r"\w+", re.UNICODE)


def fts_query(q: str, mode: str = "AND") -> str:
    """An FTS5 MATCH expression for free text: every word becomes a quoted token (no query syntax passes)."""
    toks = [t.replace('"', '""') for t in _TOKEN.findall(q)[:20]]
    return f" {mode} ".join(f'"{t}"' for t in toks)
