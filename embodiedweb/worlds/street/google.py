"""Google Street View backend: panorama metadata and images through the Street View Static API.

Needs a key in ``GOOGLE_MAPS_API_KEY`` (or passed in) and the internet. Responses are cached on disk
(``~/.cache/embodiedweb/streetview`` by default, one file per request, keyed by a hash of the request
without the key) so a run can be repeated offline, and requests are spaced by ``min_interval_s`` (polite
rate limit). Without a key every call raises :class:`StreetViewError` with a clear message.

* :meth:`StreetView.metadata` - ``{"status", "pano_id", "lat", "lng", "date", ...}`` for a location;
* :meth:`StreetView.image` - JPEG bytes of one view (``heading``, ``pitch``, ``fov``, ``size``);
* :meth:`StreetView.views` - the four N/E/S/W views of a node as RGB arrays.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

META_URL = "https://maps.googleapis.com/maps/api/streetview/metadata"
IMAGE_URL = "https://maps.googleapis.com/maps/api/streetview"


class StreetViewError(RuntimeError):
    """A Street View request could not be made or failed."""


class StreetView:
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
