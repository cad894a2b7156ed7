"""``/recipes``: search with filters, recipe overviews, and a step-by-step view ("Step i of n").

Per-session state: which recipe steps were viewed, in order, each with the episode clock (the env's
step number) at which it was viewed (``recipe_views``), and the shelf of recipes the session sees as well
(``{"extra": "hard"}`` in the site's session config, from a task's ``web.sites.recipes``: the long recipes of
the hard tier, :data:`web_sites.recipes.catalog.SHELVES`; a session without it sees exactly the standard
collection). The checker reads it through
:meth:`RecipeSite.snapshot`: ``{"views": [[recipe_id, step, t], ...], "progress": {recipe_id: highest
step viewed}, "current": [recipe_id, step] | None}``.
"""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import urlencode

from web_sites.framework import BadRequest, Ctx, Response, Site, parse_int
from web_sites.recipes import catalog
from web_sites.state import StateStore

PAGE_SIZE = 12


class RecipeSite(Site):
    """The recipe website (see module docstring)."""

    name = "recipes"
    title = "Recipes"
    description = "Find a recipe by name, diet, difficulty, ingredients and equipment; cook it step by step."
    order = 10

    def register_routes(self) -> None:
        """Route the recipe index, search, overview and step pages."""
        self.route("/", self.index)
        self.route("/search", self.search)
        self.route("/recipe/{rid}", self.overview)
        self.route("/recipe/{rid}/step/{num}", self.step)

    def setup(self, store: StateStore) -> None:
        """Register the per-session recipe view log table."""
        store.register_session_table(
            "CREATE TABLE IF NOT EXISTS recipe_views (session TEXT, seq INTEGER, recipe_id TEXT, step INTEGER,"
            " t INTEGER)",
            "recipe_views")
        store.register_session_table("CREATE TABLE IF NOT EXISTS recipe_shelf (session TEXT, extra TEXT)",
                                     "recipe_shelf")

    def snapshot(self, store: StateStore, session: str) -> dict[str, Any]:
        """Return the session's step views, furthest step per recipe and current step, or {} if none."""
        rows = store.query("SELECT recipe_id, step, t FROM recipe_views WHERE session = ? ORDER BY seq", (session,))
        if not rows:
            return {}
        progress: dict[str, int] = {}
        for r in rows:
            progress[r["recipe_id"]] = max(progress.get(r["recipe_id"], 0), r["step"])
        return {"views": [[r["recipe_id"], r["step"], r["t"]] for r in rows], "progress": dict(sorted(progress.items())),
                "current": [rows[-1]["recipe_id"], rows[-1]["step"]]}

    @staticmethod
    def shelf(ctx: Ctx) -> str | None:
        """The shelf of recipes the session sees as well (None: the standard collection)."""
        row = ctx.store.query_one("SELECT extra FROM recipe_shelf WHERE session = ?", (ctx.session,))
        return row["extra"] if row and row["extra"] in catalog.SHELVES else None

    # pages ----------------------------------------------------------------------------------
    def _filters(self, ctx: Ctx) -> dict[str, Any]:
        req = ctx.req
        return {
            "q": req.arg("q").strip()[:200],
            "diets": [d for d in req.args("diet") if d in catalog.DIETS],
            "difficulty": req.arg("difficulty") if req.arg("difficulty") in catalog.DIFFICULTIES else "",
            "ingredients": [i for i in req.args("ingredient") if i in catalog.INGREDIENT_LABELS],
            "equipment": [e for e in req.args("equipment") if e in catalog.EQUIPMENT_LABELS],
        }

    def _page(self, ctx: Ctx, template: str, **kw: Any) -> Response:
        return ctx.render(template, catalog=catalog, **kw)

    def index(self, ctx: Ctx) -> Response:
        """Render the empty search form."""
        return self._page(ctx, "search.html", f=self._filters(ctx), results=None, page=1, pages=0, total=0,
                          page_url=None)

    def search(self, ctx: Ctx) -> Response:
        """Render a page of recipes matching the query and filters."""
        f = self._filters(ctx)
        hits = catalog.search(f["q"], f["diets"], f["difficulty"], f["ingredients"], f["equipment"], self.shelf(ctx))
        page = ctx.req.page_arg()
        pages = max(1, (len(hits) + PAGE_SIZE - 1) // PAGE_SIZE)
        page = min(page, pages)
        params = [("q", f["q"])] + [("diet", d) for d in f["diets"]] + (
            [("difficulty", f["difficulty"])] if f["difficulty"] else []) + [
            ("ingredient", i) for i in f["ingredients"]] + [("equipment", e) for e in f["equipment"]]

        def page_url(n: int) -> str:
            return "/recipes/search?" + urlencode(params + [("page", str(n))])

        return self._page(ctx, "search.html", f=f, results=hits[(page - 1) * PAGE_SIZE: page * PAGE_SIZE],
                          total=len(hits), page=page, pages=pages, page_url=page_url)

    def overview(self, ctx: Ctx, rid: str) -> Response:
        """Render a recipe's overview, or 404."""
        r = catalog.shown(rid, self.shelf(ctx))
        if r is None:
            return ctx.app.error_page(404, "Recipe not found", f"There is no recipe {rid!r}.")
        return self._page(ctx, "recipe.html", r=r)

    def step(self, ctx: Ctx, rid: str, num: str) -> Response:
        """Render one step of a recipe and log the view; 400 on a non-number, 404 out of range."""
        r = catalog.shown(rid, self.shelf(ctx))
        if r is None:
            return ctx.app.error_page(404, "Recipe not found", f"There is no recipe {rid!r}.")
        n = len(r["steps"])
        i = parse_int(num)
        if i is None:
            raise BadRequest(f"'{num[:20]}' is not a step number: {r['name']} has steps 1 to {n}.", "Bad step number")
        if not 1 <= i <= n:
            return ctx.app.error_page(404, "Step not found", f"{r['name']} has steps 1 to {n}.")
        row = ctx.store.query_one("SELECT COUNT(*) AS n FROM recipe_views WHERE session = ?", (ctx.session,))
        ctx.store.execute("INSERT INTO recipe_views VALUES (?, ?, ?, ?, ?)",
                          (ctx.session, row["n"] if row else 0, rid, i, ctx.now))
        return self._page(ctx, "step.html", r=r, i=i, n=n, step=r["steps"][i - 1])

    def seed_session(self, store: StateStore, session: str, config: dict[str, Any], rng: random.Random) -> None:
        """A session starts with no recipe viewed; ``config["extra"]`` names a shelf of recipes it sees as well
        (unknown names add nothing)."""
        if config.get("extra") in catalog.SHELVES:
            store.execute("INSERT INTO recipe_shelf (session, extra) VALUES (?, ?)", (session, config["extra"]))


SITE = RecipeSite()
