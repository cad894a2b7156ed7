"""``/wiki``: an encyclopedia of Manhattan places and topics and of the world's countries, cities and street
cues, with full-text search (SQLite FTS5).

Pages: ``/wiki/`` (main page: search box, featured articles, categories), ``/wiki/search?q=...&page=N``
(ranked results with snippets), ``/wiki/article/<slug>`` (title, lead, infobox table, sections,
internal links, categories), ``/wiki/category/<slug>`` and ``/wiki/categories``.

Search never passes user text to FTS5 as query syntax: every word becomes a quoted token
(:func:`web_sites.wiki.catalog.fts_query`); all words must match, and when none does the page falls
back to articles with any of the words.

Per-session state: articles viewed and searches made, in order. :meth:`WikiSite.snapshot` returns
``{"views": [slug, ...], "searches": [query, ...]}``.

A session may see a **shelf** of articles more (``{"extra": "hard"}`` in the site's session config, from a
task's ``web.sites.wiki``): the hard tier's articles (:data:`web_sites.wiki.catalog.SHELVES`). Its pages,
searches, categories and counts then hold them, searched in an index of their own (built on first use), so
that a session without the shelf sees exactly the standard wiki: the same pages, the same ranking.
"""

from __future__ import annotations

import random
import sqlite3
from typing import Any
from urllib.parse import urlencode

from markupsafe import Markup, escape

from web_sites.framework import Ctx, Response, Site
from web_sites.state import StateStore
from web_sites.wiki import catalog

PAGE_SIZE = 20
MAX_QUERY = 200


class WikiSite(Site):
    """The wiki website (see module docstring)."""

    name = "wiki"
    title = "Wiki"
    description = ("An encyclopedia of Manhattan (landmarks, neighborhoods, architecture, streets, transit) and "
                   "of the world's countries and cities and what their streets look like.")
    order = 40

    def register_routes(self) -> None:
        """Route the wiki's index, search, article and category pages."""
        self.route("/", self.index)
        self.route("/search", self.search)
        self.route("/article/{slug}", self.article)
        self.route("/article", self.article_missing)
        self.route("/categories", self.all_categories)
        self.route("/category/{cat}", self.category)

    def setup(self, store: StateStore) -> None:
        """Build the full-text article index and register the view and search log tables."""
        store.executescript(
            "CREATE VIRTUAL TABLE IF NOT EXISTS wiki_fts USING fts5("
            "slug UNINDEXED, title, body, tokenize = 'unicode61 remove_diacritics 2');"
            "DELETE FROM wiki_fts;")
        store.executemany("INSERT INTO wiki_fts (slug, title, body) VALUES (?, ?, ?)",
                          [(a["slug"], a["title"], catalog.article_text(a)) for a in catalog.articles()])
        store.register_session_table(
            "CREATE TABLE IF NOT EXISTS wiki_views (session TEXT, seq INTEGER, slug TEXT)", "wiki_views")
        store.register_session_table(
            "CREATE TABLE IF NOT EXISTS wiki_searches (session TEXT, seq INTEGER, query TEXT)", "wiki_searches")
        store.register_session_table(
            "CREATE TABLE IF NOT EXISTS wiki_shown (session TEXT, seq INTEGER, slug TEXT, snippet TEXT)", "wiki_shown")
        store.register_session_table("CREATE TABLE IF NOT EXISTS wiki_shelf (session TEXT, extra TEXT)", "wiki_shelf")

    def seed_session(self, store: StateStore, session: str, config: dict[str, Any], rng: random.Random) -> None:
        """A session starts with no article viewed and no search made; ``config["extra"]`` names a shelf of
        articles it sees as well (unknown names add nothing)."""
        extra = config.get("extra")
        if extra in catalog.SHELVES:
            store.execute("INSERT INTO wiki_shelf (session, extra) VALUES (?, ?)", (session, extra))
            table = f"wiki_fts_{extra}"
            store.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS {table} USING fts5("
                          "slug UNINDEXED, title, body, tokenize = 'unicode61 remove_diacritics 2')")
            if not (store.query_one(f"SELECT COUNT(*) AS n FROM {table}") or {}).get("n"):
                store.executemany(f"INSERT INTO {table} (slug, title, body) VALUES (?, ?, ?)",
                                  [(a["slug"], a["title"], catalog.article_text(a)) for a in catalog.articles(extra)])

    def snapshot(self, store: StateStore, session: str) -> dict[str, Any]:
        """Return the session's viewed article slugs, search queries and the results its search pages showed
        (each article listed with its snippet's text, once per different snippet), in order."""
        views = store.query("SELECT slug FROM wiki_views WHERE session = ? ORDER BY seq", (session,))
        searches = store.query("SELECT query FROM wiki_searches WHERE session = ? ORDER BY seq", (session,))
        shown = store.query("SELECT slug, snippet FROM wiki_shown WHERE session = ? ORDER BY seq", (session,))
        return {"views": [r["slug"] for r in views], "searches": [r["query"] for r in searches],
                "shown": [{"slug": r["slug"], "snippet": r["snippet"]} for r in shown]}

    # helpers ----------------------------------------------------------------------------------
    @staticmethod
    def _log(ctx: Ctx, table: str, column: str, value: str) -> None:
        row = ctx.store.query_one(f"SELECT COUNT(*) AS n FROM {table} WHERE session = ?", (ctx.session,))
        ctx.store.execute(f"INSERT INTO {table} (session, seq, {column}) VALUES (?, ?, ?)",
                          (ctx.session, row["n"] if row else 0, value))

    @staticmethod
    def _log_shown(ctx: Ctx, hits: list[dict[str, Any]]) -> None:
        """Log the results a search page lists, each (article, snippet text) once per session: what an agent
        read there (a snippet may quote the sentence a question asks about)."""
        seen = {(r["slug"], r["snippet"]) for r in ctx.store.query(
            "SELECT slug, snippet FROM wiki_shown WHERE session = ?", (ctx.session,))}
        row = ctx.store.query_one("SELECT COUNT(*) AS n FROM wiki_shown WHERE session = ?", (ctx.session,))
        seq = row["n"] if row else 0
        for h in hits:
            key = (h["slug"], h["snip"].replace("\x02", "").replace("\x03", ""))
            if key not in seen:
                seen.add(key)
                ctx.store.execute("INSERT INTO wiki_shown (session, seq, slug, snippet) VALUES (?, ?, ?, ?)",
                                  (ctx.session, seq, *key))
                seq += 1

    def _page(self, ctx: Ctx, template: str, status: int = 200, **kw: Any) -> Response:
        return ctx.render(template, status, catalog=catalog, text=catalog.render_text, **kw)

    @staticmethod
    def shelf(ctx: Ctx) -> str | None:
        """The shelf of articles the session sees as well (None: the standard wiki)."""
        row = ctx.store.query_one("SELECT extra FROM wiki_shelf WHERE session = ?", (ctx.session,))
        return row["extra"] if row and row["extra"] in catalog.SHELVES else None

    @staticmethod
    def search_db(store: StateStore, q: str, limit: int = 1000, extra: str | None = None
                  ) -> tuple[list[dict[str, Any]], bool]:
        """Ranked hits ``{slug, title, snippet}`` for free text ``q`` and whether the any-word fallback was used
        (``extra``: in the index of the standard articles and that shelf's)."""
        table = f"wiki_fts_{extra}" if extra in catalog.SHELVES else "wiki_fts"
        for mode in ("AND", "OR"):
            expr = catalog.fts_query(q, mode)
            if not expr:
                return [], False
            try:
                rows = store.query(
                    f"SELECT slug, title, snippet({table}, 2, char(2), char(3), '…', 14) AS snip "
                    f"FROM {table} WHERE {table} MATCH ? ORDER BY bm25({table}, 0.0, 10.0, 1.0), slug LIMIT ?",
                    (expr, limit))
            except sqlite3.Error:
                return [], False
            if rows or mode == "OR" or " " not in expr:
                return rows, mode == "OR" and bool(rows)
        return [], False

    # pages ------------------------------------------------------------------------------------
    def index(self, ctx: Ctx) -> Response:
        """Render the main page with featured articles and main categories."""
        featured = [a for a in (catalog.get(s) for s in catalog.FEATURED) if a]
        extra = self.shelf(ctx)
        cats = catalog.categories(extra)
        return self._page(ctx, "index.html", featured=featured, q="", n_articles=len(catalog.articles(extra)),
                          main_cats=[(k, cats[k][0], len(cats[k][1])) for k in cats
                                     if cats[k][0] in _MAIN_CATEGORIES])

    def search(self, ctx: Ctx) -> Response:
        """Render a page of full-text search results, logging the query on page 1."""
        q = " ".join(ctx.req.arg("q").split())[:MAX_QUERY]
        page = ctx.req.page_arg()
        if not q:
            return self._page(ctx, "search.html", q="", results=None, total=0, page=1, pages=0, fallback=False,
                              exact=None, page_url=None, message="Type a word or a name to search the wiki.")
        if page == 1:
            self._log(ctx, "wiki_searches", "query", q)
        extra = self.shelf(ctx)
        hits, fallback = self.search_db(ctx.store, q, extra=extra)
        pages = max(1, (len(hits) + PAGE_SIZE - 1) // PAGE_SIZE)
        page = min(page, pages)
        listed = hits[(page - 1) * PAGE_SIZE: page * PAGE_SIZE]
        results = [{"slug": h["slug"], "title": h["title"], "snippet": _snippet_html(h["snip"])} for h in listed]
        self._log_shown(ctx, listed)
        exact = next((a for a in catalog.articles(extra) if a["title"].lower() == q.lower()), None)

        def page_url(n: int) -> str:
            return "/wiki/search?" + urlencode({"q": q, "page": n})

        message = "" if hits else "No article matches your search. Try other words."
        return self._page(ctx, "search.html", q=q, results=results, total=len(hits), page=page, pages=pages,
                          fallback=fallback, exact=exact, page_url=page_url, message=message)

    def article(self, ctx: Ctx, slug: str) -> Response:
        """Render an article and log the view, or a 404 page."""
        a = catalog.get(slug, self.shelf(ctx))
        if a is None:
            return self._page(ctx, "notfound.html", 404, q="", slug=slug[:100])
        self._log(ctx, "wiki_views", "slug", a["slug"])
        cats = [(catalog.slugify(c), c) for c in a["categories"]]
        return self._page(ctx, "article.html", a=a, cats=cats, q="")

    def article_missing(self, ctx: Ctx) -> Response:
        """Render the not-found page for an article URL without a slug."""
        return self._page(ctx, "notfound.html", 404, q="", slug="")

    def all_categories(self, ctx: Ctx) -> Response:
        """Render the list of all categories with their sizes."""
        cats = catalog.categories(self.shelf(ctx))
        return self._page(ctx, "categories.html", q="", cats=[(k, v[0], len(v[1])) for k, v in cats.items()])

    def category(self, ctx: Ctx, cat: str) -> Response:
        """Render the members of a category, or a 404 page."""
        extra = self.shelf(ctx)
        members = catalog.category_members(cat, extra)
        if members is None:
            return self._page(ctx, "notfound.html", 404, q="", slug="", category=cat[:100])
        return self._page(ctx, "category.html", q="", name=catalog.categories(extra)[cat][0], members=members)


_MAIN_CATEGORIES = {"Landmarks", "Skyscrapers", "Museums", "Theatres", "Stations", "Parks", "Squares", "Churches",
                    "Libraries", "Hotels", "Markets", "Neighborhoods", "Architectural styles", "Architects",
                    "Streets and avenues", "Transit", "Lists", "Geolocation cues"}


def _snippet_html(snip: str) -> Markup:
    return Markup(str(escape(snip)).replace("\x02", "<mark>").replace("\x03", "</mark>"))


SITE = WikiSite()
