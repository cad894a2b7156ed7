"""Shared by the map site's tests: a text-mode driver on a fresh session, opened at ``/map/``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from embodiedweb.web.text_driver import TextDriver
from web_sites.registry import get_webapp


@contextmanager
def map_driver() -> Iterator[TextDriver]:
    """A :class:`TextDriver` on a new session of the sites, at ``/map/``; the session is dropped after."""
    app = get_webapp()
    sid = app.new_session_id()
    app.reset_session(sid)
    d = TextDriver(app)
    d.reset(sid, "/map/")
    try:
        yield d
    finally:
        app.drop_session(sid)


def map_snapshot(d: TextDriver) -> dict:
    """The map site's semantic state of ``d``'s session."""
    return get_webapp().snapshot(d.session).get("map", {})
