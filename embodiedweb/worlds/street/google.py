"""Google backends: Street View images (the Street View Static API over ``requests``), and geocoding and
walking directions through the official ``googlemaps`` client (``pip install "embodiedweb[google]"``).

Both need a key in ``GOOGLE_MAPS_API_KEY`` (or passed in) and the internet. Responses are cached on disk,
one file per request, keyed by a hash of the request without the key, so a run can be repeated offline
(a cached request needs no key): ``~/.cache/embodiedweb/streetview`` and ``~/.cache/embodiedweb/googlemaps``
by default (``cache_dir``). Requests are rate limited: Street View's are spaced by ``min_interval_s``;
:class:`GoogleMaps` passes ``queries_per_second`` to ``googlemaps.Client``, which waits so that no more
are sent in any second. Without a key an uncached call raises :class:`StreetViewError` /
:class:`GoogleMapsError` with a clear message.

* :meth:`StreetView.metadata` - ``{"status", "pano_id", "lat", "lng", "date", ...}`` for a location;
* :meth:`StreetView.image` - JPEG bytes of one view (``heading``, ``pitch``, ``fov``, ``size``);
* :meth:`StreetView.views` - the four N/E/S/W views of a node as RGB arrays;
* :meth:`GoogleMaps.geocode` - a search text as a :class:`~embodiedweb.worlds.street.city.Location`
  (snapped to the nearest node of ``city`` when one is given);
* :meth:`GoogleMaps.directions` - a walk in the map site's directions structure (``from``, ``to``,
  ``from_node``, ``to_node``, ``length_m`` as the site records them; ``minutes``, ``steps`` as its page
  shows them; ``points``, the route's polyline).

``googlemaps`` has no Street View image call, so :class:`StreetView` keeps ``requests`` for it.
"""

from __future__ import annotations

import hashlib
import html as htmlmod
import io
import json
import os
import re
import time
from pathlib import Path
from typing import Any

import numpy as np

from .city import Location

META_URL = "https://maps.googleapis.com/maps/api/streetview/metadata"
IMAGE_URL = "https://maps.googleapis.com/maps/api/streetview"


class StreetViewError(RuntimeError):
    """A Street View request could not be made or failed."""


class StreetView:
    """Google Street View images and metadata (Static API), cached on disk and rate limited; see the module docstring."""

    def __init__(self, api_key: str | None = None, cache_dir: str | Path | None = None,
                 min_interval_s: float = 0.1, session: Any = None, timeout_s: float = 10.0) -> None:
        self.api_key = api_key if api_key is not None else os.environ.get("GOOGLE_MAPS_API_KEY", "")
        self.cache_dir = Path(cache_dir) if cache_dir else Path.home() / ".cache" / "embodiedweb" / "streetview"
        self.min_interval_s = min_interval_s
        self.timeout_s = timeout_s
        self._session = session
        self._last = 0.0
        self.requests_made = 0

    # ------------------------------------------------------------------ plumbing
    @property
    def session(self) -> Any:
        """A lazily created ``requests`` session."""
        if self._session is None:
            from embodiedweb.extras import load

            requests = load("requests", "google")

            self._session = requests.Session()
        return self._session

    def _cache_path(self, url: str, params: dict[str, Any], ext: str) -> Path:
        key = json.dumps([url, sorted((k, str(v)) for k, v in params.items())])
        return self.cache_dir / f"{hashlib.sha256(key.encode()).hexdigest()[:32]}.{ext}"

    def _get(self, url: str, params: dict[str, Any], ext: str) -> bytes:
        path = self._cache_path(url, params, ext)
        if path.is_file():
            return path.read_bytes()
        if not self.api_key:
            raise StreetViewError("Google Street View needs an API key: set GOOGLE_MAPS_API_KEY "
                                  "(or use the embedded city, graph='city').")
        wait = self.min_interval_s - (time.monotonic() - self._last)
        if wait > 0:
            time.sleep(wait)
        self._last = time.monotonic()
        try:
            resp = self.session.get(url, params={**params, "key": self.api_key}, timeout=self.timeout_s)
        except Exception as e:  # network errors of any requests-compatible session
            raise StreetViewError(f"Street View request failed: {type(e).__name__}: {e}") from e
        self.requests_made += 1
        if resp.status_code != 200:
            raise StreetViewError(f"Street View request failed with HTTP {resp.status_code}")
        data = resp.content
        if ext == "json":
            try:
                doc = json.loads(data)
            except ValueError as e:
                raise StreetViewError("Street View returned a response that is not JSON") from e
            if doc.get("status") in ("REQUEST_DENIED", "OVER_QUERY_LIMIT", "INVALID_REQUEST"):
                raise StreetViewError(f"Street View refused the request: {doc.get('status')} "
                                      f"{doc.get('error_message', '')}".strip())
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return data

    # ------------------------------------------------------------------ API
    def metadata(self, lat: float | None = None, lng: float | None = None, pano_id: str | None = None,
                 radius_m: int = 50) -> dict[str, Any]:
        """Metadata of the panorama nearest a location (or of ``pano_id``)."""
        params: dict[str, Any] = {"pano": pano_id} if pano_id else {"location": f"{lat:.6f},{lng:.6f}",
                                                                     "radius": radius_m, "source": "outdoor"}
        doc = json.loads(self._get(META_URL, params, "json"))
        out = {"status": doc.get("status", ""), "pano_id": doc.get("pano_id", ""), "date": doc.get("date", "")}
        loc = doc.get("location") or {}
        if "lat" in loc:
            out["lat"], out["lng"] = float(loc["lat"]), float(loc["lng"])
        return out

    def image(self, pano_id: str, heading: float, pitch: float = 0.0, fov: float = 90.0,
              size: tuple[int, int] = (640, 640)) -> bytes:
        """JPEG bytes of the Street View image of a panorama at this heading, pitch, fov and size."""
        params = {"pano": pano_id, "heading": round(heading % 360, 1), "pitch": pitch, "fov": fov,
                  "size": f"{int(size[0])}x{int(size[1])}"}
        return self._get(IMAGE_URL, params, "jpg")

    def views(self, lat: float, lng: float, base_heading: float = 0.0,
              size: tuple[int, int] = (320, 320)) -> dict[str, np.ndarray]:
        """The four views (N, E, S, W relative to ``base_heading``) of the panorama nearest a point."""
        from PIL import Image

        meta = self.metadata(lat, lng)
        if meta["status"] != "OK":
            raise StreetViewError(f"no Street View panorama near {lat:.6f},{lng:.6f} ({meta['status']})")
        out = {}
        for k, d in enumerate("NESW"):
            data = self.image(meta["pano_id"], base_heading + 90 * k, size=size)
            out[d] = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"), dtype=np.uint8)
        return out


GOOGLE_MAPS_CACHE = Path.home() / ".cache" / "embodiedweb" / "googlemaps"
_TAG = re.compile(r"<[^>]+>")
_BLOCK = re.compile(r"<div[^>]*>", re.IGNORECASE)


class GoogleMapsError(RuntimeError):
    """A geocoding or directions request could not be made or failed."""


def plain_instruction(html_text: str) -> str:
    """A step's ``html_instructions`` as plain text (``<div>`` notes become sentences)."""
    text = _BLOCK.sub(". ", html_text)
    text = htmlmod.unescape(_TAG.sub("", text))
    return re.sub(r"\s+", " ", text).strip()


class GoogleMaps:
    """Geocoding and walking directions through ``googlemaps.Client`` (see the module docstring).

    ``city`` (a :class:`~embodiedweb.worlds.street.city.City`) snaps results to its nearest nodes;
    ``session`` is a ``requests.Session``-compatible object handed to the client (tests inject one).
    ``requests_made`` counts the requests sent (cache misses).
    """

    def __init__(self, api_key: str | None = None, cache_dir: str | Path | None = None,
                 queries_per_second: int = 10, city: Any = None, session: Any = None,
                 timeout_s: float = 10.0, retry_timeout_s: float = 20.0, region: str = "us") -> None:
        self.api_key = api_key if api_key is not None else os.environ.get("GOOGLE_MAPS_API_KEY", "")
        self.cache_dir = Path(cache_dir) if cache_dir else GOOGLE_MAPS_CACHE
        self.queries_per_second = int(queries_per_second)
        self.city = city
        self.timeout_s = timeout_s
        self.retry_timeout_s = retry_timeout_s
        self.region = region
        self._session = session
        self._client: Any = None
        self.requests_made = 0

    # ------------------------------------------------------------------ plumbing
    @property
    def client(self) -> Any:
        """The ``googlemaps.Client`` (made on first use; needs the key)."""
        if self._client is None:
            from embodiedweb.extras import load

            googlemaps = load("googlemaps", "google")
            if not self.api_key:
                raise GoogleMapsError("Google geocoding and directions need an API key: set GOOGLE_MAPS_API_KEY "
                                      "(or use the map site's own search and directions).")
            try:
                self._client = googlemaps.Client(
                    key=self.api_key, queries_per_second=self.queries_per_second, timeout=self.timeout_s,
                    retry_timeout=self.retry_timeout_s, retry_over_query_limit=False,
                    requests_session=self._session)
            except ValueError as e:  # e.g. a key that is not a Google API key
                raise GoogleMapsError(f"Google Maps client: {e}") from e
        return self._client

    def cache_path(self, method: str, params: dict[str, Any]) -> Path:
        """The cache file for a request, keyed by a hash of the method and its params."""
        key = json.dumps([method, sorted((k, json.dumps(v, sort_keys=True)) for k, v in params.items())])
        return self.cache_dir / f"{method}-{hashlib.sha256(key.encode()).hexdigest()[:32]}.json"

    def _call(self, method: str, **params: Any) -> Any:
        path = self.cache_path(method, params)
        if path.is_file():
            try:
                return json.loads(path.read_text(encoding="utf-8"))
            except ValueError:
                pass  # a damaged cache file: ask again
        client = self.client
        from googlemaps import exceptions as gexc

        try:
            result = getattr(client, method)(**params)
        except gexc.ApiError as e:
            raise GoogleMapsError(f"Google {method} refused the request: {e}") from e
        except (gexc.HTTPError, gexc.Timeout, gexc.TransportError) as e:
            raise GoogleMapsError(f"Google {method} request failed: {type(e).__name__}: {e}") from e
        self.requests_made += 1
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(result, sort_keys=True), encoding="utf-8")
        tmp.replace(path)
        return result

    def _node(self, lat: float, lng: float) -> str:
        return self.city.nearest_node(lat, lng) if self.city is not None else ""

    # ------------------------------------------------------------------ API
    def geocode(self, text: str) -> Location | None:
        """The first geocoding result for ``text`` (``None`` when there is none)."""
        results = self._call("geocode", address=text, region=self.region)
        if not results:
            return None
        r = results[0]
        loc = r["geometry"]["location"]
        lat, lng = float(loc["lat"]), float(loc["lng"])
        kind = "place" if "establishment" in r.get("types", ()) else "address"
        return Location(self._node(lat, lng), lat, lng, r.get("formatted_address", text), kind,
                        r.get("place_id", ""))

    def directions(self, frm: str, to: str, mode: str = "walking") -> dict[str, Any] | None:
        """The first route from ``frm`` to ``to`` in the map site's directions structure (``None`` when
        Google finds none): ``from``, ``to`` (as asked), ``from_node``, ``to_node`` (the ``city`` nodes
        nearest its ends; ``""`` without a city), ``length_m`` (to 0.1 m), ``minutes`` (at least 1),
        ``steps`` (plain text), ``points`` (the route's ``(lat, lng)`` polyline)."""
        from googlemaps.convert import decode_polyline

        routes = self._call("directions", origin=frm, destination=to, mode=mode, region=self.region)
        if not routes:
            return None
        route = routes[0]
        legs = route.get("legs") or []
        if not legs:
            return None
        length = sum(float(leg["distance"]["value"]) for leg in legs)
        seconds = sum(float(leg["duration"]["value"]) for leg in legs)
        start, end = legs[0]["start_location"], legs[-1]["end_location"]
        poly = (route.get("overview_polyline") or {}).get("points", "")
        return {"from": frm, "to": to,
                "from_node": self._node(float(start["lat"]), float(start["lng"])),
                "to_node": self._node(float(end["lat"]), float(end["lng"])),
                "length_m": round(length, 1), "minutes": max(1, round(seconds / 60)),
                "steps": [plain_instruction(st.get("html_instructions", "")) for leg in legs
                          for st in leg.get("steps", [])],
                "points": [(p["lat"], p["lng"]) for p in decode_polyline(poly)] if poly else []}
