"""The sites, listed, and the process-wide :class:`WebApp`."""

from __future__ import annotations

import threading

from web_sites.framework import Site, WebApp
from web_sites.home.site import SITE as HOME
from web_sites.map.site import SITE as MAP
from web_sites.recipes.site import SITE as RECIPES
from web_sites.shop.site import SITE as SHOP
from web_sites.wiki.site import SITE as WIKI

#: Every site, in the order the web app mounts them. An explicit list: a site whose module cannot be
#: imported fails here, loudly, instead of silently vanishing from the web.
SITES: tuple[Site, ...] = (HOME, MAP, RECIPES, SHOP, WIKI)

_lock = threading.Lock()
_app: WebApp | None = None


def get_webapp() -> WebApp:
    """The process-wide web app (created on first use, shared by every env in the process)."""
    global _app
    with _lock:
        if _app is None:
            _app = WebApp(list(SITES))
        return _app
