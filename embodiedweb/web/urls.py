"""Canonical URLs of the local sites and the rule that keeps agents on them.

Agents see URLs on the canonical origin ``http://ewa.local`` whatever port the server listens
on, so traces do not depend on the port and both drivers report the same ``web_url``.
"""

from __future__ import annotations

from urllib.parse import quote, urljoin, urlsplit

CANONICAL_ORIGIN = "http://ewa.local"
HOME_URL = CANONICAL_ORIGIN + "/"
_LOCAL_HOSTS = {"ewa.local", "localhost", "127.0.0.1"}


# What a browser percent-encodes in a URL's path and query (WHATWG URL standard; non-ASCII is
# always encoded as UTF-8), so both drivers report the same URL for the same typed address.
_ASCII = "".join(map(chr, range(0x21, 0x7F)))
_PATH_SAFE = "".join(c for c in _ASCII if c not in '"#<>?`{}')
_QUERY_SAFE = "".join(c for c in _ASCII if c not in "\"#<>'")


def browser_encode(path: str, query: str) -> str:
    """``path?query`` percent-encoded the way Chromium sends it."""
    out = quote(path or "/", safe=_PATH_SAFE)
    return out + ("?" + quote(query, safe=_QUERY_SAFE) if query else "")


class UrlRefused(ValueError):
    """A URL that is not one of the local sites."""


def to_local_path(url: str, base_path: str = "/") -> str:
    """Turn what an agent wrote (canonical URL, relative path, site name) into a local path+query.

    Raises :class:`UrlRefused` with a message for anything outside the local sites.
    """
    url = url.strip()
    if not url:
        raise UrlRefused("goto needs a URL, e.g. goto [http://ewa.local/]")
    parts = urlsplit(url)
    if parts.scheme and parts.scheme not in ("http", "https"):
        raise UrlRefused(f"goto refused: '{url}' is not a web page on the local sites (only {CANONICAL_ORIGIN}/...)")
    if parts.netloc:
        host = (parts.hostname or "").lower()
        if host not in _LOCAL_HOSTS:
            raise UrlRefused(
                f"goto refused: '{host}' is not reachable; only the local sites on {CANONICAL_ORIGIN}/ are "
                "(home, and the sites linked from it)")
        return browser_encode(_resolved(parts.path), parts.query)
    if not url.startswith("/") and "." in url.split("/")[0].split("?")[0] and url.split("/")[0] not in (".", ".."):
        raise UrlRefused(f"goto refused: '{url}' is not reachable; only the local sites on {CANONICAL_ORIGIN}/ are")
    p = urlsplit(urljoin(base_path if base_path.startswith("/") else "/" + base_path, url))
    return browser_encode(_resolved(p.path), p.query)


#: percent-encoded dot segments, which a browser resolves as dots (WHATWG URL standard)
_DOTS = {"%2e": ".", ".%2e": "..", "%2e.": "..", "%2e%2e": ".."}


def _resolved(path: str) -> str:
    """``path`` with its dot segments removed the way a browser does (RFC 3986, 5.2.4), always from the root:
    ``/../shop/cart`` is ``/shop/cart``. (``urljoin`` keeps what climbs above the root and drops the leading
    slash: ``/../@2130706433:8080/`` became ``@2130706433:8080/``, which the browser driver appended to its
    origin, so a red-team review reached another port on the machine.)"""
    out: list[str] = []
    segments = path.split("/")
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        seg = _DOTS.get(seg.lower(), seg)
        if seg == ".":
            if last:
                out.append("")
        elif seg == "..":
            if len(out) > 1:
                out.pop()
            if last:
                out.append("")
        else:
            out.append(seg)
    resolved = "/".join(out)
    return resolved if resolved.startswith("/") else "/" + resolved


def canonical(path: str) -> str:
    """Canonical URL of a local path+query."""
    return CANONICAL_ORIGIN + (path if path.startswith("/") else "/" + path)


def path_of(url: str) -> str:
    """Local path+query of any local URL (canonical or real origin)."""
    p = urlsplit(url)
    return (p.path or "/") + (f"?{p.query}" if p.query else "")
