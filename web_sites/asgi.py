"""The FastAPI app that serves the sites over HTTP (browser mode and people).

Requests are bounded before a handler sees them: the URL (:data:`MAX_URL_BYTES`, else 414), the body
(:data:`MAX_BODY_BYTES`, else 413: a too-large ``Content-Length`` is refused before reading, a body
without one is read with a running count and refused as soon as it passes the cap), the number and the
size of form fields (:data:`MAX_FORM_FIELDS`, :data:`MAX_FIELD_BYTES`, else 413). The sites' forms are
small and plain (search boxes, quantities), so a POST body must be ``application/x-www-form-urlencoded``:
multipart (file uploads) and every other type are refused with 415 without reading the body.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from fastapi import FastAPI
from fastapi import Request as HTTPRequest
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.responses import Response as HTTPResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from web_sites.framework import SITES_DIR, Request, WebApp, parse_int

SESSION_COOKIE = "ewa_session"
#: a GET with this header renders the page from the session's state without changing it (the browser
#: driver reopens its tabs this way after a browser fault, so nothing is logged twice)
RESTORE_HEADER = "X-EWA-Restore"
_NO_STORE = {"Cache-Control": "no-store"}

#: the largest request body the sites read (their forms send a few hundred bytes)
MAX_BODY_BYTES = 1024 * 1024
#: the most fields a form body may carry, and the largest one (name or value, in bytes as sent)
MAX_FORM_FIELDS = 256
MAX_FIELD_BYTES = 64 * 1024
#: the longest path plus query string
MAX_URL_BYTES = 16 * 1024
FORM_TYPE = "application/x-www-form-urlencoded"


class RequestRefused(Exception):
    """A request refused before any handler runs: ``status`` (4xx), ``title`` and ``detail`` for the page."""

    def __init__(self, status: int, title: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.title, self.detail = status, title, detail


def declared_length(headers: Any) -> int | None:
    """The ``Content-Length`` a request declares (``None`` when it sends none); 400 when it is malformed."""
    raw = headers.get("content-length")
    if raw is None:
        return None
    n = parse_int(raw)
    if n is None or n < 0:
        raise RequestRefused(400, "Bad request", "The Content-Length header is not a byte count.")
    return n


async def read_body(request: HTTPRequest, limit: int) -> bytes:
    """The request body, never holding more than ``limit`` bytes of it: 413 when the declared length is over
    ``limit`` (nothing is read) or as soon as the bytes received pass it."""
    too_large = RequestRefused(413, "Request too large", f"The request body is over {limit} bytes.")
    declared = declared_length(request.headers)
    if declared is not None and declared > limit:
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_large
    return bytes(body)


def media_type(headers: Any) -> str:
    """The request's media type: ``Content-Type`` without parameters, lower case."""
    return headers.get("content-type", "").split(";", 1)[0].strip().lower()


async def read_form(request: HTTPRequest) -> dict[str, list[str]]:
    """The fields of a POST body (bounded; see the module docstring), in the order sent."""
    ctype = media_type(request.headers)
    if ctype not in ("", FORM_TYPE):
        raise RequestRefused(415, "Unsupported form encoding", f"The sites take forms as {FORM_TYPE}, not"
                             f" {ctype[:60]}{' (file uploads are not accepted)' if 'multipart' in ctype else ''}.")
    body = await read_body(request, MAX_BODY_BYTES)
    if not body:
        return {}
    if not ctype:
        raise RequestRefused(415, "Unsupported form encoding", f"A request body must be sent as {FORM_TYPE}.")
    if body.count(b"&") >= MAX_FORM_FIELDS:
        raise RequestRefused(413, "Request too large", f"A form may have at most {MAX_FORM_FIELDS} fields.")
    if any(len(part) > MAX_FIELD_BYTES for part in body.split(b"&")):
        raise RequestRefused(413, "Request too large", f"A form field may have at most {MAX_FIELD_BYTES} bytes.")
    form: dict[str, list[str]] = {}
    # as Starlette parses forms: bytes as Latin-1, then %-escapes as UTF-8 (bad ones become U+FFFD)
    for key, value in parse_qsl(body.decode("latin-1"), keep_blank_values=True):
        form.setdefault(key, []).append(value)
    return form


def is_navigation(request: HTTPRequest) -> bool:
    """Whether a request opens a page (a browser's navigation: typed, a link, a form) rather than fetching a
    resource of one (a stylesheet): ``Sec-Fetch-Mode: navigate``, or without Fetch Metadata, an ``Accept`` that
    asks for HTML."""
    mode = request.headers.get("sec-fetch-mode")
    if mode is not None:
        return mode.strip().lower() == "navigate"
    return "text/html" in request.headers.get("accept", "").lower()


def create_app(webapp: WebApp, default_session: str | None = None) -> FastAPI:
    """Wrap ``webapp`` in FastAPI. Requests without a session cookie get a fresh public session
    (or ``default_session``), so people can browse with ``ewa serve``. No route exposes state."""
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    # /static serves the pages' stylesheet, not pages: a page opened there (a typed URL, a missing file) is the
    # sites' own page, as in the text driver, which has no /static (Starlette's answer was its JSON 404,
    # '{"detail":"Not Found"}', or the stylesheet as text, where text mode shows "Page not found")
    static = StaticFiles(directory=str(SITES_DIR / "static"))

    def refusal_page(e: RequestRefused) -> HTTPResponse:
        # the body may be unread: close the connection rather than receive the rest of it
        return HTMLResponse(webapp.error_page(e.status, e.title, e.detail).html, status_code=e.status,
                            headers={**_NO_STORE, "Connection": "close"})

    @app.api_route("/{path:path}", methods=["GET", "POST"])
    async def dispatch(request: HTTPRequest, path: str) -> HTTPResponse:
        if path.startswith("static/") and request.method == "GET" and not is_navigation(request):
            try:
                out = await static.get_response(path[len("static/"):], request.scope)
                # revalidated every time (a cached copy would answer a navigation without asking the server)
                out.headers["Cache-Control"] = "no-cache"
                return out
            except HTTPException:
                pass  # no such file: the sites' 404 page
        try:
            raw_path = request.scope.get("raw_path") or request.scope["path"].encode()
            if len(raw_path) + len(request.scope.get("query_string") or b"") > MAX_URL_BYTES:
                raise RequestRefused(414, "Address too long", f"A URL may have at most {MAX_URL_BYTES} bytes.")
            form = await read_form(request) if request.method == "POST" else {}
        except RequestRefused as e:
            return refusal_page(e)
        session = request.cookies.get(SESSION_COOKIE, "")
        new_cookie = None
        if not session:
            session = default_session or webapp.new_session_id()
            new_cookie = session
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
