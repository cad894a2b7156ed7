"""GeoWorld and the geolocation data: counts, views that never name the answer, determinism, bad input."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from embodiedweb.data_gen import geo as gen
from embodiedweb.paths import data_dir
from embodiedweb.worlds.geo import GeoWorld, load_standpoints
from embodiedweb.worlds.geo.render import drawable, sign_text

SPS = load_standpoints()
NAMES_OF_LANGUAGES_AND_SCRIPTS = ["Latin", "Cyrillic", "Greek", "Arabic", "Hebrew", "Devanagari", "Thai", "Hangul",
                                  "Korean", "Japanese", "Chinese", "Georgian", "Armenian", "Ethiopic", "Amharic",
                                  "English", "German", "French", "Spanish", "Portuguese", "Italian", "Russian",
                                  "Polish", "Turkish", "kana", "kanji", "Swahili", "Dutch", "Hindi"]


def test_counts_and_graphs():
    sps = list(SPS.values())
    assert len(sps) >= 142
    assert len({s["country"] for s in sps}) >= 40
    assert {s["continent"] for s in sps} >= {"Africa", "Asia", "Europe", "North America", "South America", "Oceania"}
    for s in sps:
        assert -90 <= s["lat"] <= 90 and -180 <= s["lng"] <= 180
        nodes = s["nodes"]
        assert 3 <= len(nodes) <= 5 and s["start"] in nodes
        assert all(re.fullmatch(rf"{s['id']}_\d", n) for n in nodes)
        assert 2 <= len(nodes[s["start"]]["neighbors"])
        for n, node in nodes.items():
            assert set(node["views"]) == {"N", "E", "S", "W"}
            for h, nb in node["neighbors"].items():
                assert nodes[nb]["neighbors"][gen.OPP[h]] == n  # undirected
        assert any(it.get("hint") for node in nodes.values() for v in node["views"].values() for it in v)


def _word(name: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.I) is not None


def test_views_never_name_the_answer_except_hints():
    for s in SPS.values():
        names = [s["country"], *gen.BY_CODE[s["country_code"]]["aliases"], s["city"], *s["city_aliases"]]
        names = [n for n in names if len(n) >= 3]
        for node in s["nodes"].values():
            for v in node["views"].values():
                for it in v:
                    if it.get("hint"):
                        continue
                    for n in names:
                        assert not _word(n, it["say"]), (s["id"], n, it["say"])
                    for n in NAMES_OF_LANGUAGES_AND_SCRIPTS:
                        assert not _word(n, it["say"]), (s["id"], n, it["say"])


def test_start_north_view_is_ambiguous_alone():
    # the passive view never holds a hint, and most passive views cannot tell the driving side
    sps = list(SPS.values())
    assert all(not it.get("hint") for s in sps for it in s["nodes"][s["start"]]["views"]["N"])
    with_side = sum(any(it["kind"] == "traffic" for it in s["nodes"][s["start"]]["views"]["N"]) for s in sps)
    assert with_side == 0


def test_generator_is_deterministic_and_matches_files():
    sps = gen.standpoints()
    with open(data_dir() / "geo" / "standpoints.json", encoding="utf-8") as f:
        assert json.load(f)["standpoints"] == json.loads(json.dumps(sps))
    assert gen.standpoints() == sps


def test_text_describes_four_views_and_neighbours():
    w = GeoWorld()
    w.reset({"standpoint": "g012"}, 0)
    t = w.text()
    assert t.count("Looking ") == 4 and "Adjacent viewpoints:" in t
    assert "Germany" not in t and "Berlin" not in t.replace("Hotel Berlin", "")


def test_moves_turns_and_state():
    w = GeoWorld()
    w.reset({"standpoint": "g012"}, 0)
    st = w.semantic_state()
    assert st["standpoint"] == "g012" and st["node"] == "g012_0" and st["visited"] == ["g012_0"]
    nbs = dict((h, n) for n, h in w.neighbors())
    assert w.execute("forward", {}) == ""
    assert w.node == nbs["N"]
    assert w.execute("left", {}) == "" and w.node == "g012_0" and w.heading == 180.0
    st = w.semantic_state()
    assert st["moves"] == 2 and st["turns"] == 1 and st["n_visited"] == 2
    assert w.execute("move", {"node_id": nbs["S"]}) == ""
    assert w.semantic_state()["visited"][-1] == nbs["S"]


@pytest.mark.parametrize("name,args,needle", [
    ("move", {"node_id": "g999_9"}, "Unknown viewpoint"),
    ("move", {"node_id": "g013_0"}, "Unknown viewpoint"),
    ("move", {}, "needs a viewpoint id"),
    ("fly", {}, "Invalid street action"),
])
def test_bad_input_changes_nothing(name, args, needle):
    w = GeoWorld()
    w.reset({"standpoint": "g012"}, 0)
    before = w.semantic_state()
    msg = w.execute(name, args)
    assert needle in msg
    assert w.semantic_state() == before


def test_non_adjacent_and_no_street_ahead():
    w = GeoWorld()
    sp = SPS["g012"]
    far = [n for n in sp["nodes"] if n != sp["start"] and n not in sp["nodes"][sp["start"]]["neighbors"].values()]
    w.reset({"standpoint": "g012"}, 0)
    if far:
        assert "not adjacent" in w.execute("move", {"node_id": far[0]})
    w.reset({"standpoint": "g140"}, 0)  # an east-west street: nothing straight north
    before = w.semantic_state()
    assert "No viewpoint ahead" in w.execute("forward", {})
    assert w.semantic_state() == before
    with pytest.raises(RuntimeError):
        GeoWorld().text()
    assert "reset" in GeoWorld().execute("forward", {})
    with pytest.raises(ValueError):
        w.reset({"standpoint": "nope"}, 0)


def test_passive_setting():
    w = GeoWorld(passive=True)
    w.reset({"standpoint": "g012"}, 0)
    t = w.text()
    assert t.count("Looking ") == 1 and "Looking north" in t
    assert "cannot move" in w.execute("forward", {})
    assert "cannot move" in w.execute("move", {"node_id": "g012_1"})
    assert w.semantic_state()["moves"] == 0 and w.admissible_actions() == []
    img = w.image((200, 120))
    assert img.shape == (120, 200, 3)


def test_images_deterministic_and_drawn():
    a, b = GeoWorld(), GeoWorld()
    for sid in ("g012", "g081", "g098", "g150"):
        a.reset({"standpoint": sid}, 0)
        b.reset({"standpoint": sid}, 1)
        ia, ib = a.image((320, 240)), b.image((320, 240))
        assert ia.shape == (240, 320, 3) and ia.dtype == np.uint8
        assert np.array_equal(ia, ib)
        assert len(np.unique(ia.reshape(-1, 3), axis=0)) > 10


def test_sign_glyph_fallback():
    assert sign_text({"text": "Friedrichstraße"}) == "Friedrichstraße"
    assert sign_text({"text": "Аптека", "translit": "Apteka"}) == "Аптека"
    thai = {"text": "ร้านขายยา", "translit": "ran khai ya"}
    assert sign_text(thai) == ("ร้านขายยา" if drawable("ร้านขายยา") else "ran khai ya")
    assert sign_text({"text": "薬局"}) in ("薬局", "??")
