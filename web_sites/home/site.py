"""The home page listing every local site."""

from __future__ import annotations

from web_sites.framework import Ctx, Response, Site


class HomeSite(Site):
    """``/``: what the local web offers, with a link to each site."""

    name = "home"
    title = "Home"
    description = "Start page with links to every site."
    order = 0

    def register_routes(self) -> None:
        """Route "/" to the index page."""
        self.route("/", self.index)

    def index(self, ctx: Ctx) -> Response:
        """Render the home page."""
        return ctx.render("index.html")


SITE = HomeSite()
