"""The local websites (home, recipes, shop, map, wiki) served to agents and people.

Every page is rendered on the server from per-session semantic state held in SQLite
(:mod:`web_sites.state`). :mod:`web_sites.framework` is the tiny site framework; the FastAPI
app in :mod:`web_sites.asgi` and the in-process text driver both call the same dispatcher, so
the browser and the text mode see the very same pages.
"""

from web_sites.framework import Ctx, Request, Response, Site, WebApp

__all__ = ["Ctx", "Request", "Response", "Site", "WebApp"]
