"""What an agent writes after ``goto`` becomes a local path on the sites, resolved the way a browser resolves it."""

from __future__ import annotations

import pytest

from embodiedweb.web.urls import UrlRefused, to_local_path


@pytest.mark.parametrize(("url", "base", "path"), [
    # climbing above the root stays at the root (stop 31: urljoin gave "@2130706433:18765/", which the browser
    # driver appended to its origin: another port on the machine, as a user name and a host)
    ("/../@2130706433:18765/", "/", "/@2130706433:18765/"), ("/x/../../@0x7f000001:1/", "/wiki/a", "/@0x7f000001:1/"),
    ("/../shop/cart", "/wiki/x", "/shop/cart"), ("../shop/cart", "/wiki/x", "/shop/cart"),
    ("http://ewa.local/../../x", "/", "/x"), ("/%2e%2e/x", "/", "/x"), ("/a/%2E/b/.%2e/c", "/", "/a/c"),
    ("/a/./b/../c", "/", "/a/c"), (".", "/wiki/a", "/wiki/"), ("..", "/wiki/a/b", "/wiki/"),
    ("step/2", "/recipes/recipe/r1/", "/recipes/recipe/r1/step/2"), ("?q=a.b", "/wiki/search", "/wiki/search?q=a.b"),
    ("wiki?q=a.b", "/", "/wiki?q=a.b"), ("http://ewa.local", "/", "/"),
])
def test_paths_resolve_from_the_root_like_a_browsers(url: str, base: str, path: str) -> None:
    got = to_local_path(url, base)
    assert got == path and got.startswith("/")


@pytest.mark.parametrize("url", ["example.com/x", "http://example.com/", "http://127.0.0.1@example.com/",
                                 "file:///etc/passwd", "javascript:alert(1)"])
def test_other_hosts_and_schemes_are_refused(url: str) -> None:
    with pytest.raises(UrlRefused):
        to_local_path(url, "/")
