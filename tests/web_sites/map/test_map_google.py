"""The map site's optional Google directions backend: off by default (never constructed), and when switched
on (``EMBODIEDWEB_MAP_GOOGLE=1``) used for places the gazetteer cannot resolve, through a fake
``requests`` session (no network)."""

from __future__ import annotations

import pytest

from embodiedweb.worlds.street import load_city
from embodiedweb.worlds.street.google import GoogleMaps
from tests.worlds.street.test_google_maps import KEY, FakeSession
from web_sites.map import site as map_site

pytest.importorskip("googlemaps")

from .conftest import map_driver, map_snapshot


@pytest.fixture
def driver(monkeypatch):
    monkeypatch.setattr(map_site.SITE, "_google", None)
    with map_driver() as d:
        yield d


_snap = map_snapshot


def _goto(d, frm, to):
    from urllib.parse import urlencode
    assert d.execute("goto", {"url": "/map/directions?" + urlencode({"from": frm, "to": to})}) == ""
    return d.tree().text


def test_without_opt_in_google_is_never_constructed(driver, monkeypatch):
    monkeypatch.delenv("EMBODIEDWEB_MAP_GOOGLE", raising=False)
    monkeypatch.setenv("GOOGLE_MAPS_API_KEY", KEY)

    def boom(*a, **kw):
        raise AssertionError("GoogleMaps constructed without the opt-in")

    monkeypatch.setattr(map_site, "GoogleMaps", boom)
    text = _goto(driver, "Nowhere Special Zzyzx", "350 5th Ave")
    assert "We could not find the starting point" in text and "Directions by Google" not in text
    _goto(driver, "350 5th Ave", "Broadway & W 42nd St")
    assert [d["from"] for d in _snap(driver)["directions"]] == ["350 5th Ave"]


def test_google_directions_for_unresolved_places(driver, monkeypatch, tmp_path):
    monkeypatch.setenv("EMBODIEDWEB_MAP_GOOGLE", "1")
    city = load_city()
    session = FakeSession()
    monkeypatch.setattr(map_site, "GoogleMaps", lambda city: GoogleMaps(api_key=KEY, cache_dir=tmp_path,
                                                                        session=session, city=city))
    # a place the gazetteer resolves still gets the site's own route, without asking Google
    own = _goto(driver, "350 5th Ave", "Broadway & W 42nd St")
    assert "Directions by Google" not in own and session.urls == []
    text = _goto(driver, "Zzyzx Empire Tower Lobby", "Broadway & W 42nd St")
    assert "Directions by Google" in text and "Total distance: 963 m" in text and "about 12 min" in text
    assert "Turn left onto W 42nd St" in text and len(session.urls) == 1
    rec = _snap(driver)["directions"]
    assert len(rec) == 2 and set(rec[1]) == set(rec[0])
    assert rec[1] == {"from": "Zzyzx Empire Tower Lobby", "to": "Broadway & W 42nd St",
                      "from_node": city.nearest_node(40.748440, -73.985664),
                      "to_node": city.nearest_node(40.755821, -73.986420), "length_m": 963.0, "at": 0}


def test_google_errors_are_shown_not_raised(driver, monkeypatch, tmp_path):
    monkeypatch.setenv("EMBODIEDWEB_MAP_GOOGLE", "1")
    monkeypatch.setattr(map_site, "GoogleMaps", lambda city: GoogleMaps(api_key="", cache_dir=tmp_path,
                                                                        session=FakeSession(), city=city))
    text = _goto(driver, "Zzyzx Empire Tower Lobby", "Broadway & W 42nd St")
    assert "Directions by Google are not available" in text and "GOOGLE_MAPS_API_KEY" in text
    monkeypatch.setattr(map_site.SITE, "_google", None)
    monkeypatch.setattr(map_site, "GoogleMaps", lambda city: GoogleMaps(
        api_key=KEY, cache_dir=tmp_path / "r", session=FakeSession(directions={"status": "REQUEST_DENIED",
                                                                               "error_message": "bad key"}),
        city=city))
    text = _goto(driver, "Zzyzx Empire Tower Lobby", "Broadway & W 42nd St")
    assert "Directions by Google are not available" in text and "REQUEST_DENIED" in text
    assert "directions" not in _snap(driver) or _snap(driver)["directions"] == []
