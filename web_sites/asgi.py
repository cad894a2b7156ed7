"""The FastAPI app that serves the sites over HTTP (browser mode and people)."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi import Request as HTTPRequest
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.responses import Response as HTTPResponse
from fastapi.staticfiles import StaticFiles

from web_sites.framework import SITES_DIR, Request, WebApp

SESSION_COOKIE = "ewa_session"
#: a GET with this header renders the page from the session's state without changing it (the browser
#: driver reopens its tabs this way after a browser fault, so nothing is logged twice)
RESTORE_HEADER = "X-EWA-Restore"
_NO_STORE = {"Cache-Control": "no-store"}


def create_app(webapp: WebApp, default_session: str | None = None) -> FastAPI:
    """Wrap ``webapp`` in FastAPI. Requests without a session cookie get a fresh public session
    (or ``default_session``), so people can browse with ``ewa serve``. No route exposes state."""
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    app.mount("/static", StaticFiles(directory=str(SITES_DIR / "static")), name="static")

    @app.api_route("/{path:path}", methods=["GET", "POST"])
    async def dispatch(request: HTTPRequest, path: str) -> HTTPResponse:
        session = request.cookies.get(SESSION_COOKIE, "")
        new_cookie = None
        if not session:
            session = default_session or webapp.new_session_id()
            new_cookie = session
        form: dict[str, list[str]] = {}
        if request.method == "POST":
            data = await request.form()
            for key in data:
                form[key] = [str(v) for v in data.getlist(key)]
        url = "/" + path + (f"?{request.url.query}" if request.url.query else "")
        req = Request.from_url(request.method, url, session, form)
        req.restore = request.method == "GET" and request.headers.get(RESTORE_HEADER) == "1"
        resp = webapp.handle(req)
        if resp.redirect is not None:
            out: HTTPResponse = RedirectResponse(resp.redirect, status_code=303, headers=_NO_STORE)
        else:
            out = HTMLResponse(resp.html, status_code=resp.status, headers=_NO_STORE)
        if new_cookie:
            out.set_cookie(SESSION_COOKIE, new_cookie, httponly=True, samesite="lax")
        return out

    return app
