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
        return browser_encode(parts.path, parts.query)
    if not url.startswith("/") and "." in url.split("/")[0]:
        raise UrlRefused(f"goto refused: '{url}' is not reachable; only the local sites on {CANONICAL_ORIGIN}/ are")
    joined = urljoin(base_path, url)
    p = urlsplit(joined)
    return browser_encode(p.path, p.query)


def canonical(path: str) -> str:
    """Canonical URL of a local path+query."""
    return CANONICAL_ORIGIN + (path if path.startswith("/") else "/" + path)


def path_of(url: str) -> str:
    """Local path+query of any local URL (canonical or real origin)."""
    p = urlsplit(url)
    return (p.path or "/") + (f"?{p.query}" if p.query else "")
