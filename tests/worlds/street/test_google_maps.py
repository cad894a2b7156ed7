"""The Google geocoding and directions backend over the official ``googlemaps`` client, with no network:
a fake ``requests`` session is handed to ``googlemaps.Client`` (its ``requests_session``), so the client's
own URL building, status handling and rate limiting run; the disk cache and the parsing into the map
site's directions structure are checked."""

from __future__ import annotations

import sys
from urllib.parse import parse_qs, urlparse

import googlemaps
import pytest
from googlemaps.convert import encode_polyline

from embodiedweb.extras import MissingExtra
from embodiedweb.worlds.street.city import load_city
from embodiedweb.worlds.street.google import GoogleMaps, GoogleMapsError, plain_instruction

KEY = "AIza-test-key"
ESB = {"lat": 40.748440, "lng": -73.985664}  # 350 5th Ave
TIMES_SQ = {"lat": 40.755821, "lng": -73.986420}  # Broadway & W 42nd St


def _geocode_body(text: str) -> dict:
    return {"status": "OK", "results": [{
        "formatted_address": "350 5th Ave, New York, NY 10118, USA", "place_id": "ChIJtcaxrqlZwokRfwmmibzPsTU",
        "types": ["establishment", "point_of_interest"], "geometry": {"location": ESB}}]}


def _directions_body() -> dict:
    steps = [{"html_instructions": "Head <b>north</b> on <b>5th Ave</b> toward <b>W 35th St</b>",
              "distance": {"value": 640}, "duration": {"value": 470}},
             {"html_instructions": "Turn <b>left</b> onto <b>W 42nd St</b>", "distance": {"value": 300},
              "duration": {"value": 220}},
             {"html_instructions": "Turn <b>right</b> onto <b>Broadway</b><div style=\"font-size:0.9em\">"
                                   "Destination will be on the left &amp; ahead</div>",
              "distance": {"value": 23}, "duration": {"value": 17}}]
    return {"status": "OK", "routes": [{
        "overview_polyline": {"points": encode_polyline([ESB, {"lat": 40.7536, "lng": -73.9818}, TIMES_SQ])},
        "legs": [{"distance": {"value": 963}, "duration": {"value": 707}, "start_location": ESB,
                  "end_location": TIMES_SQ, "steps": steps}]}]}


class _Resp:
    def __init__(self, body: dict, status: int = 200) -> None:
        self.status_code, self._body = status, body

    def json(self) -> dict:
        return self._body


class FakeSession:
    """A ``requests.Session`` stand-in: answers the geocoding and directions endpoints, records URLs."""

    def __init__(self, geocode: dict | None = None, directions: dict | None = None, status: int = 200) -> None:
        self.urls: list[str] = []
        self.geocode, self.directions, self.status = geocode, directions, status

    def get(self, url: str, **kwargs) -> _Resp:
        self.urls.append(url)
        q = {k: v[0] for k, v in parse_qs(urlparse(url).query).items()}
        if "/geocode/" in url:
            return _Resp(self.geocode or _geocode_body(q["address"]), self.status)
        if "/directions/" in url:
            return _Resp(self.directions or _directions_body(), self.status)
        raise AssertionError(f"unexpected URL {url}")


def _maps(tmp_path, session, **kw) -> GoogleMaps:
    return GoogleMaps(api_key=KEY, cache_dir=tmp_path, session=session, **kw)


def test_geocode_through_the_client_and_the_disk_cache(tmp_path):
    s = FakeSession()
    gm = _maps(tmp_path, s, city=load_city())
    loc = gm.geocode("Empire State Building")
    assert (loc.lat, loc.lng, loc.kind) == (ESB["lat"], ESB["lng"], "place")
    assert loc.label.startswith("350 5th Ave") and loc.place_id.startswith("ChIJ")
    assert loc.node_id == load_city().nearest_node(ESB["lat"], ESB["lng"])
    assert len(s.urls) == 1 and gm.requests_made == 1
    q = parse_qs(urlparse(s.urls[0]).query)
    assert q["address"] == ["Empire State Building"] and q["key"] == [KEY] and q["region"] == ["us"]
    # a second identical request performs no HTTP call
    assert gm.geocode("Empire State Building") == loc
    assert len(s.urls) == 1 and gm.requests_made == 1
    # the cache is keyed by request without the key: another client, without a key, reads it offline
    files = list(tmp_path.iterdir())
    assert len(files) == 1 and KEY not in files[0].read_text() and KEY not in files[0].name
    offline = GoogleMaps(api_key="", cache_dir=tmp_path, session=FakeSession(), city=load_city())
    assert offline.geocode("Empire State Building") == loc and offline.requests_made == 0
    # another request is another call
    gm.geocode("350 5th Ave")
    assert len(s.urls) == 2 and len(list(tmp_path.iterdir())) == 2


def test_directions_in_the_map_sites_structure(tmp_path):
    from embodiedweb.web.text_driver import TextDriver
    from web_sites.registry import get_webapp

    city = load_city()
    s = FakeSession()
    gm = _maps(tmp_path, s, city=city)
    d = gm.directions("350 5th Ave", "Broadway & W 42nd St")
    assert d["from"] == "350 5th Ave" and d["to"] == "Broadway & W 42nd St"
    assert d["from_node"] == city.nearest_node(ESB["lat"], ESB["lng"])
    assert d["to_node"] == city.nearest_node(TIMES_SQ["lat"], TIMES_SQ["lng"])
    assert d["length_m"] == 963.0 and d["minutes"] == 12
    assert d["steps"] == ["Head north on 5th Ave toward W 35th St", "Turn left onto W 42nd St",
                          "Turn right onto Broadway. Destination will be on the left & ahead"]
    assert d["points"][0] == pytest.approx((ESB["lat"], ESB["lng"]), abs=1e-5)
    assert d["points"][-1] == pytest.approx((TIMES_SQ["lat"], TIMES_SQ["lng"]), abs=1e-5)
    q = parse_qs(urlparse(s.urls[0]).query)
    assert (q["origin"], q["destination"], q["mode"]) == (["350 5th Ave"], ["Broadway & W 42nd St"], ["walking"])
    # the record the map site keeps for the same query has the same keys and types (but the step it was asked
    # at, which the site stamps on every route it records, Google's or its own)
    app = get_webapp()
    sid = app.new_session_id()
    app.reset_session(sid)
    try:
        TextDriver(app).reset(sid, "/map/directions?from=350+5th+Ave&to=Broadway+%26+W+42nd+St")
        rec = app.snapshot(sid)["map"]["directions"][0]
    finally:
        app.drop_session(sid)
    assert rec.pop("at") == 0  # (reset loads the page before the first step)
    assert set(rec) <= set(d) and all(type(d[k]) is type(v) for k, v in rec.items())
    assert (rec["from"], rec["to"], rec["to_node"]) == (d["from"], d["to"], d["to_node"])
    # cached: asking again sends nothing
    assert gm.directions("350 5th Ave", "Broadway & W 42nd St") == d and len(s.urls) == 1
    assert gm.directions("350 5th Ave", "Broadway & W 42nd St", mode="driving") == d and len(s.urls) == 2


def test_no_route_and_no_result(tmp_path):
    s = FakeSession(geocode={"status": "ZERO_RESULTS", "results": []},
                    directions={"status": "ZERO_RESULTS", "routes": []})
    gm = _maps(tmp_path, s)
    assert gm.geocode("nowhere at all") is None and gm.directions("a", "b") is None
    assert gm.geocode("nowhere at all") is None and len(s.urls) == 2  # "no result" is cached too


def test_rate_limit_is_the_clients_queries_per_second(tmp_path, monkeypatch):
    slept: list[float] = []
    monkeypatch.setattr(googlemaps.client.time, "sleep", slept.append)
    s = FakeSession()
    gm = _maps(tmp_path, s, queries_per_second=2)
    assert gm.client.queries_per_second == 2
    gm.geocode("a")
    gm.geocode("b")
    assert slept == []
    gm.geocode("a")  # cached: neither sent nor counted
    gm.geocode("c")  # the third in under a second: the client waits out the second
    assert len(s.urls) == 3 and len(slept) == 1 and 0 < slept[0] <= 1
    fast = _maps(tmp_path / "fast", FakeSession(), queries_per_second=10)
    slept.clear()
    for text in "abc":
        fast.geocode(text)
    assert slept == []


def test_errors(tmp_path, monkeypatch):
    monkeypatch.delenv("GOOGLE_MAPS_API_KEY", raising=False)
    with pytest.raises(GoogleMapsError, match="GOOGLE_MAPS_API_KEY"):
        GoogleMaps(cache_dir=tmp_path, session=FakeSession()).geocode("x")
    with pytest.raises(GoogleMapsError, match="Invalid API key"):
        GoogleMaps(api_key="wrong", cache_dir=tmp_path, session=FakeSession()).geocode("x")
    denied = FakeSession(geocode={"status": "REQUEST_DENIED", "error_message": "API key not valid"})
    gm = _maps(tmp_path, denied)
    for _ in range(2):  # refusals are not cached
        with pytest.raises(GoogleMapsError, match="REQUEST_DENIED"):
            gm.geocode("x")
    assert len(denied.urls) == 2 and not list(tmp_path.iterdir())
    with pytest.raises(GoogleMapsError, match="HTTPError"):
        _maps(tmp_path, FakeSession(status=403)).geocode("x")


def test_missing_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "googlemaps", None)
    with pytest.raises(MissingExtra, match=r"embodiedweb\[google\]"):
        _maps(tmp_path, FakeSession()).geocode("x")


def test_plain_instruction():
    assert plain_instruction("Turn <b>left</b>  onto <b>W 42nd St</b>") == "Turn left onto W 42nd St"
    assert plain_instruction('Go<div style="x">Pass &quot;A&quot;</div>') == 'Go. Pass "A"'
