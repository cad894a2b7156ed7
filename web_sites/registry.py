"""Discovery of the installed sites and the process-wide :class:`WebApp`."""

from __future__ import annotations

import importlib
import pkgutil
import threading

import web_sites
from web_sites.framework import Site, WebApp

_lock = threading.Lock()
_app: WebApp | None = None


def discover_sites() -> list[Site]:
    """Every ``web_sites.<name>.site`` module's ``SITE`` object."""
    sites: list[Site] = []
    for info in pkgutil.iter_modules(web_sites.__path__):
        if not info.ispkg:
            continue
        try:
            mod = importlib.import_module(f"web_sites.{info.name}.site")
        except ModuleNotFoundError:
            continue
        site = getattr(mod, "SITE", None)
        if isinstance(site, Site):
            sites.append(site)
    return sites


def get_webapp() -> WebApp:
    """The process-wide web app (created on first use, shared by every env in the process)."""
    global _app
    with _lock:
        if _app is None:
            _app = WebApp(discover_sites())
        return _app
