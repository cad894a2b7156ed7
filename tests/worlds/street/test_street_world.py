"""StreetWorld: actions, bad input, observations, determinism; the CLI and the bench."""

from __future__ import annotations

import re

import numpy as np
import pytest

from embodiedweb.worlds.base import EmbodiedWorld
from embodiedweb.worlds.street import StreetWorld, load_city


@pytest.fixture
def world():
    w = StreetWorld()
    c = load_city()
    w.reset({"start": c.intersection_node("5th Ave", "W 42nd St"), "heading": 29}, 0)
    return w


def test_interface_and_text(world):
    assert isinstance(world, EmbodiedWorld) and world.kind == "street"
    t = world.text()
    assert "5th Ave & W 42nd St" in t
    assert "Facing 29 deg (northeast; on the map's grid, whose north is 29 deg up the avenues, north)." in t
    assert len(re.findall(r"\n- n\d+: ", t)) == 4 and "ahead" in t and "left" in t and "right" in t and "behind" in t
    acts = world.admissible_actions()
    assert acts[:3] == ["forward", "left", "right"]
    assert sorted(acts[3:]) == sorted(f"move [{n}]" for n, *_ in world.city.neighbors(world.node))


def test_forward_left_right_choose_by_relative_heading(world):
    c = world.city
    start = world.node
    nbs = {int(round((h - 29) % 360 / 90)) * 90 % 360: n for n, h, _, _ in c.neighbors(start)}
    assert world.execute("forward", {}) == "" and world.node == nbs[0]
    world.reset({"start": start, "heading": 29}, 0)
    assert world.execute("left", {}) == "" and world.node == nbs[270]
    assert "W 42nd St" in c.nodes[world.node].streets and abs(world.heading - 299) < 2
    world.reset({"start": start, "heading": 29}, 0)
    assert world.execute("right", {}) == "" and world.node == nbs[90]
    # mid-block: left turns around
    world.execute("forward", {})
    here = world.node
    assert world.execute("left", {}) == "" and world.heading == pytest.approx(
        c.edge(here, world.node)[1]) and abs(((world.heading - 119) + 180) % 360 - 180) > 150


def test_move_and_bad_input_leave_state_unchanged(world):
    before = world.semantic_state()
    for name, args in [("move", {"node_id": "n99999999"}), ("move", {"node_id": "n0"}), ("move", {}),
                       ("move", {"node_id": "<script>"}), ("jump", {}), ("MoveAhead", {})]:
        msg = world.execute(name, args)
        assert msg and isinstance(msg, str)
        assert world.semantic_state() == before
    nb = world.city.neighbors(world.node)[1][0]
    assert world.execute("move", {"node_id": nb}) == ""
    s = world.semantic_state()
    assert s["node"] == nb and s["path"] == [before["node"], nb] and s["visited"] == 2 and s["moves"] == 1


def test_dead_end_forward_error():
    from embodiedweb.worlds.street.city import City, Node

    c = City({"a": Node("a", 40.75, -73.98, ("x",)), "b": Node("b", 40.7501, -73.98, ("x",))},
             [("a", "b", 11.1, "x")])
    w = StreetWorld(c)
    w.reset({"start": "b", "heading": 0}, 0)
    msg = w.execute("forward", {})
    assert "No street ahead" in msg and w.node == "b"
    assert w.execute("right", {}) == "" and w.node == "a"
    assert w.admissible_actions() == ["forward", "move [b]"] or "move [b]" in w.admissible_actions()


def test_unknown_start_and_graph():
    w = StreetWorld()
    with pytest.raises(ValueError):
        w.reset({"start": "nope"}, 0)
    with pytest.raises(ValueError):
        w.reset({"graph": "mars"}, 0)


def test_image_deterministic_four_views(world):
    a = world.image((256, 256))
    assert a.shape == (256, 256, 3) and a.dtype == np.uint8
    assert np.array_equal(a, world.image((256, 256)))
    world.execute("forward", {})
    assert not np.array_equal(a, world.image((256, 256)))


def test_places_shown_in_views():
    c = load_city()
    if not c.places:
        pytest.skip("no places file")
    p = sorted(c.places.values(), key=lambda p: p.place_id)[0]
    w = StreetWorld()
    w.reset({"start": p.node_id}, 0)
    assert p.name in w.text()
    assert p.place_id in w.semantic_state()["places_here"]


def test_reset_deterministic_from_seed():
    w1, w2 = StreetWorld(), StreetWorld()
    w1.reset({}, 5)
    w2.reset({}, 5)
    assert w1.semantic_state() == w2.semantic_state()
    for a in ["forward", "right", "forward", "left"]:
        assert w1.execute(a, {}) == w2.execute(a, {})
    assert w1.text() == w2.text()


def test_cli_nodes_csv_and_stats(capsys):
    from embodiedweb.cli import main

    assert main(["city", "nodes", "--csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "node_id,lat,lng" and len(lines) == len(load_city().nodes) + 1
    nid, lat, lng = lines[1].split(",")
    assert nid == "n0" and 40.7 < float(lat) < 40.8 and -74.1 < float(lng) < -73.9
    assert main(["city", "stats"]) == 0
    assert '"components": 1' in capsys.readouterr().out


def test_bench_targets():
    from embodiedweb.benches.street import bench_street

    b = bench_street(quick=True)
    # speed targets are read from `make bench`, not asserted here (the machine is noisy)
    assert b["street_steps_per_s"] > 0 and b["route_ms"] > 0 and b["street_render_ms"] > 0
