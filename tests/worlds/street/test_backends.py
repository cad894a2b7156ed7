"""Touchdown-format loader and the Google Street View backend (recorded responses, no network)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from embodiedweb.worlds.street import StreetWorld
from embodiedweb.worlds.street.google import StreetView, StreetViewError
from embodiedweb.worlds.street.touchdown import load_touchdown

SHARED = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "touchdown"


def _write_tiny(folder: Path, gz: bool) -> None:
    nodes = "a,10,40.7500,-73.9800\nb,10,40.7501,-73.9800\nc,10,40.7501,-73.9801\nbad line\nd,x,1,2\n"
    links = "a,0,b\nb,180,a\nb,270,c\nc,90,b\nz,0,a\n"
    for name, text in (("nodes", nodes), ("links", links)):
        if gz:
            with gzip.open(folder / f"{name}.txt.gz", "wt") as f:
                f.write(text)
        else:
            (folder / f"{name}.txt").write_text(text)


@pytest.mark.parametrize("gz", [False, True])
def test_tiny_touchdown_graph(tmp_path, gz):
    _write_tiny(tmp_path, gz)
    c = load_touchdown(tmp_path)
    assert sorted(c.nodes) == ["a", "b", "c"] and c.n_edges == 2
    assert c.edge("b", "c")[1] == 270.0 and c.edge("a", "b")[2] == pytest.approx(11.1, abs=0.1)
    assert c.route("a", "c") == ["a", "b", "c"]
    w = StreetWorld()
    w.reset({"graph": f"touchdown:{tmp_path}", "start": "a", "heading": 0}, 0)
    assert w.execute("forward", {}) == "" and w.node == "b"
    assert w.execute("left", {}) == "" and w.node == "c"


def test_missing_touchdown_files(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_touchdown(tmp_path)


def test_real_touchdown_graph():
    if not (SHARED / "nodes.txt.gz").is_file():
        pytest.skip("../shared/data/touchdown is not available")
    c = load_touchdown(SHARED)
    assert len(c.nodes) == 29641
    ids = c.node_ids()
    p = c.route(ids[0], ids[-1])
    assert p and p[0] == ids[0] and p[-1] == ids[-1]


class _Resp:
    def __init__(self, status: int, content: bytes) -> None:
        self.status_code, self.content = status, content


class FakeSession:
    """A requests-like session answering from responses recorded in the test."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict]] = []

    def get(self, url, params=None, timeout=None):
        self.calls.append((url, dict(params or {})))
        if url.endswith("/metadata"):
            if params.get("key") != "K":
                return _Resp(200, json.dumps({"status": "REQUEST_DENIED", "error_message": "bad key"}).encode())
            return _Resp(200, json.dumps({"status": "OK", "pano_id": "PANO1", "date": "2021-06",
                                          "location": {"lat": 40.7535, "lng": -73.9809}}).encode())
        import io

        from PIL import Image

        buf = io.BytesIO()
        Image.new("RGB", (8, 8), (int(params["heading"]) % 256, 0, 0)).save(buf, "JPEG")
        return _Resp(200, buf.getvalue())


def test_google_backend_with_recorded_responses(tmp_path):
    s = FakeSession()
    sv = StreetView(api_key="K", cache_dir=tmp_path, min_interval_s=0.0, session=s)
    meta = sv.metadata(40.7535, -73.9809)
    assert meta == {"status": "OK", "pano_id": "PANO1", "date": "2021-06", "lat": 40.7535, "lng": -73.9809}
    views = sv.views(40.7535, -73.9809, base_heading=29, size=(8, 8))
    assert sorted(views) == ["E", "N", "S", "W"] and views["N"].shape == (8, 8, 3)
    n_calls = len(s.calls)
    assert n_calls == 5 and all(c[1]["key"] == "K" for c in s.calls)
    # cached on disk: a second backend without a key and without network answers from the cache
    sv2 = StreetView(api_key="", cache_dir=tmp_path, session=FakeSession())
    assert sv2.metadata(40.7535, -73.9809)["pano_id"] == "PANO1"
    assert not any("K" in p.name for p in tmp_path.iterdir())


def test_google_backend_errors(tmp_path, monkeypatch):
    monkeypatch.delenv("GOOGLE_MAPS_API_KEY", raising=False)
    with pytest.raises(StreetViewError, match="GOOGLE_MAPS_API_KEY"):
        StreetView(cache_dir=tmp_path, session=FakeSession()).metadata(40.75, -73.98)
    with pytest.raises(StreetViewError, match="REQUEST_DENIED"):
        StreetView(api_key="wrong", cache_dir=tmp_path, session=FakeSession(), min_interval_s=0).metadata(40.7, -73.9)
