"""The embedded city graph: structure, geometry, routing, directions, geocoding, determinism."""

from __future__ import annotations

import heapq
import json
import math
import random

import pytest

from embodiedweb.worlds.street.city import City, Node, build_city, load_city, streets_path
from embodiedweb.worlds.street.geo import angle_diff, bearing_deg, haversine_m


@pytest.fixture(scope="module")
def city() -> City:
    return load_city()


def test_size_and_one_component(city):
    assert len(city.nodes) > 10000
    comps = city.components()
    assert len(comps) == 1 and len(comps[0]) == len(city.nodes)
    assert all(nid == f"n{i}" for i, nid in enumerate(city.node_ids()))


def test_edges_consistent_with_coordinates(city):
    lengths = []
    for nid in city.node_ids():
        a = city.nodes[nid]
        for nb, h, d, street in city.neighbors(nid):
            b = city.nodes[nb]
            assert abs(d - haversine_m(a.lat, a.lng, b.lat, b.lng)) < 0.05
            assert abs(angle_diff(h, bearing_deg(a.lat, a.lng, b.lat, b.lng))) < 0.05
            back = city.edge(nb, nid)
            assert back is not None and abs(angle_diff(back[1], h + 180)) < 0.1 and back[3] == street
            assert street in a.streets and street in b.streets
            lengths.append(d)
    lengths.sort()
    assert lengths[len(lengths) // 2] == pytest.approx(12.5, abs=1.0)  # panorama-like spacing
    assert lengths[-1] <= 17.0
    assert sum(1 for x in lengths if 10.0 <= x <= 15.0) / len(lengths) > 0.95


@pytest.mark.parametrize("ave,street", [("5th Ave", "W 42nd St"), ("8th Ave", "W 34th St"),
                                        ("Lexington Ave", "E 50th St"), ("6th Ave", "W 23rd St")])
def test_intersections_joined(city, ave, street):
    nid = city.intersection_node(ave, street)
    assert nid is not None
    assert city.degree(nid) == 4
    names = {s for *_, s in city.neighbors(nid)}
    assert ave in names and any(s.endswith(street.split(" ", 1)[1]) for s in names)
    heads = sorted(h for _, h, _, _ in city.neighbors(nid))
    assert all(abs(angle_diff(h, heads[0]) % 90) < 3 or abs(angle_diff(h, heads[0]) % 90) > 87 for h in heads)
    assert city.intersection_name(nid) in (f"{ave} & {street}", f"{ave} & {street.replace('W ', 'E ')}")


def test_fifth_and_42nd_is_one_node_with_four_streets(city):
    nid = city.intersection_node("5th Ave", "W 42nd St")
    assert nid == city.intersection_node("Fifth Avenue", "East 42nd Street") == city.intersection_node("42nd", "5th")
    assert city.degree(nid) == 4
    assert city.intersection_name(nid) == "5th Ave & W 42nd St"
    # written without the ordinal's ending, the "St" is Street ("W 42 St" was "w 42st"); "Av." is Avenue
    assert nid == city.intersection_node("5 Av.", "W 42 St") == city.intersection_node("Fifth Av.", "W 42 Street")
    n = city.nodes[nid]
    assert haversine_m(n.lat, n.lng, 40.7535, -73.9809) < 40  # the real corner (NYPL / Bryant Park)


def test_broadway_diagonal_and_squares(city):
    times_sq = city.intersection_node("Broadway", "W 42nd St")
    herald = city.intersection_node("Broadway", "W 34th St")
    assert times_sq and herald
    t, h = city.nodes[times_sq], city.nodes[herald]
    assert haversine_m(t.lat, t.lng, 40.7559, -73.9866) < 60
    assert haversine_m(h.lat, h.lng, 40.7499, -73.9880) < 60
    assert city.intersection_node("Broadway", "E 14th St") or city.intersection_node("Broadway", "W 14th St")


def test_streets_interrupted_where_blocks_are_built_over(city):
    assert city.intersection_node("Madison Ave", "E 43rd St") is not None
    assert city.intersection_node("Park Ave", "E 43rd St") is None  # Grand Central
    corner = city.intersection_node("5th Ave", "41st St")  # E 41st St starts at 5th Ave ...
    assert corner and "W 41st St" not in city.nodes[corner].streets  # ... W 41st St not: Bryant Park


def _brute_force(city: City, src: str) -> dict[str, float]:
    dist = {src: 0.0}
    heap = [(0.0, src)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, _h, w, _s in city.neighbors(u):
            if d + w < dist.get(v, math.inf):
                dist[v] = d + w
                heapq.heappush(heap, (d + w, v))
    return dist


def _small_city() -> City:
    """A 5x4 grid with uneven edge lengths, a diagonal, a dead end and long degree-2 chains."""
    rng = random.Random(3)
    nodes, edges = {}, []
    for i in range(5):
        for j in range(4):
            nid = f"n{i * 4 + j}"
            nodes[nid] = Node(nid, 40.75 + i * 0.0004 + rng.uniform(0, 1e-4), -73.98 + j * 0.0005, ("s",))
    for i in range(5):
        for j in range(4):
            if j < 3:
                edges.append((f"n{i * 4 + j}", f"n{i * 4 + j + 1}", rng.uniform(10, 60), f"row{i}"))
            if i < 4:
                edges.append((f"n{i * 4 + j}", f"n{(i + 1) * 4 + j}", rng.uniform(10, 60), f"col{j}"))
    edges.append(("n0", "n19", 400.0, "diag"))
    nodes["n20"] = Node("n20", 40.749, -73.98, ("stub",))
    edges.append(("n0", "n20", 15.0, "stub"))
    return City(nodes, edges)


def test_route_optimal_vs_brute_force_small_graph():
    c = _small_city()
    for a in c.node_ids():
        truth = _brute_force(c, a)
        for b in c.node_ids():
            p = c.route(a, b)
            assert p[0] == a and p[-1] == b
            assert c.route_length(p) == pytest.approx(truth[b], abs=1e-6)


def test_route_optimal_on_city_sample(city):
    rng = random.Random(7)
    ids = city.node_ids()
    for _ in range(3):
        a = rng.choice(ids)
        truth = _brute_force(city, a)
        for b in rng.sample(ids, 40) + [a, city.neighbors(a)[0][0]]:
            p = city.route(a, b)
            assert p[0] == a and p[-1] == b and len(set(p)) == len(p)
            assert city.route_length(p) == pytest.approx(truth[b], abs=1e-6)


@pytest.mark.parametrize("radius", [0.0, 12.0, 20.0, 45.0])
def test_within_walk_is_every_node_within_the_radius(city, radius):
    """The nodes near a goal are exactly those whose shortest route to it is within the radius (checked against
    every node of the city), whatever the cache holds; a small graph's edge exactly at the radius is in."""
    rng = random.Random(11)
    for goal in rng.sample(city.node_ids(), 12):
        want = {n for n, d in _brute_force(city, goal).items() if city.shortest_length(n, goal) <= radius}
        assert city.within_walk(goal, radius) == want and city.within_walk(goal, radius) == want, goal
        assert goal in want
    c = _small_city()
    edge = c.neighbors("n0")[0]
    assert edge[0] in c.within_walk("n0", edge[2]) and edge[0] not in c.within_walk("n0", edge[2] - 0.01)
    assert c.within_walk("nope", 20.0) == frozenset()


def test_route_unknown_nodes(city):
    assert city.route("n0", "nope") == [] and city.route("x", "n0") == []
    assert city.route("n5", "n5") == ["n5"]
    with pytest.raises(ValueError):
        city.route_length(["n0", "n5000"])


def test_directions_text(city):
    a = city.intersection_node("5th Ave", "W 34th St")
    b = city.intersection_node("6th Ave", "W 42nd St")
    path = city.route(a, b)
    steps = city.directions(path, "Bryant Park")
    assert steps[0].startswith(f"1. Head north on 5th Ave (towards {path[1]}) for ") or \
        steps[0].startswith(f"1. Head west on W 34th St (towards {path[1]})")
    assert any("Turn left onto" in s or "Turn right onto" in s for s in steps)
    assert steps[-1] == f"{len(steps)}. Arrive at Bryant Park ({b})"
    total = sum(leg["length_m"] for leg in city.legs(path))
    assert total == pytest.approx(city.route_length(path), abs=1.0)
    # 5th Ave north 8 blocks then 6th Ave: the legs name real streets
    assert {leg["street"] for leg in city.legs(path)} <= {"5th Ave", "W 42nd St", "6th Ave", "W 34th St",
                                                          "Broadway"} | {f"W {n}th St" for n in range(35, 42)}


def test_directions_turn_side():
    c = load_city()
    a = c.intersection_node("5th Ave", "W 40th St")
    mid = c.intersection_node("5th Ave", "W 42nd St")
    b = c.intersection_node("6th Ave", "W 42nd St")
    p = c.route(a, mid)[:-1] + c.route(mid, b)
    steps = c.directions(p)
    assert steps[0].startswith("1. Head north on 5th Ave (towards n") and " for 1" in steps[0]  # ~170 m
    assert steps[1].startswith(f"2. Turn left onto W 42nd St (left at {mid}) and walk west for ")


def test_parse_address(city):
    loc = city.parse_address("5th Ave & W 42nd St")
    assert loc and loc.kind == "intersection" and loc.node_id == city.intersection_node("5th Ave", "W 42nd St")
    esb = city.parse_address("350 5th Ave")  # Empire State Building, 5th Ave at 33rd-34th St
    assert esb and esb.kind == "address"
    assert "5th Ave" in city.nodes[esb.node_id].streets
    assert haversine_m(esb.lat, esb.lng, 40.7484, -73.9857) < 150
    moma = city.parse_address("11 W 53rd St")
    assert moma and haversine_m(moma.lat, moma.lng, 40.7614, -73.9776) < 150
    for bad in ["", "   ", "foo & bar", "99999 Nowhere Rd", "\x00\x07", "a" * 500, "5th Ave & 5th Ave"]:
        assert city.parse_address(bad) is None


def test_nearest_node_and_locate(city):
    nid = city.intersection_node("7th Ave", "W 34th St")
    n = city.nodes[nid]
    assert city.nearest_node(n.lat + 1e-6, n.lng) == nid
    assert city.locate(nid).node_id == nid
    assert city.locate("n99999999") is None


def test_build_is_deterministic():
    doc = json.loads(streets_path().read_text())
    c1, c2 = build_city(doc), build_city(doc)
    assert [(n.node_id, n.lat, n.lng, n.streets) for n in c1.nodes.values()] == \
        [(n.node_id, n.lat, n.lng, n.streets) for n in c2.nodes.values()]
    assert all(c1.neighbors(n) == c2.neighbors(n) for n in c1.node_ids())


def test_streets_file_is_our_own_description():
    doc = json.loads(streets_path().read_text())
    assert 50 <= len(doc["streets"]) <= 500
    for s in doc["streets"]:
        assert set(s) >= {"name", "kind", "points"} and len(s["points"]) >= 2
        for lat, lng in s["points"]:
            assert 40.70 < lat < 40.80 and -74.03 < lng < -73.93


def test_places_snapped():
    c = load_city()
    c2 = City(dict(c.nodes), [(a, e[0], e[2], e[3]) for a in c.node_ids() for e in c.neighbors(a)])
    c2.set_places([{"place_id": "esb", "name": "Empire State Building", "lat": 40.7484, "lng": -73.9857,
                    "category": "skyscraper"}, {"place_id": "far", "name": "Far", "lat": 41.5, "lng": -73.0},
                   {"name": "broken"}])
    assert list(c2.places) == ["esb"]
    node = c2.place_node("esb")
    assert node and c2.distance_m(node, c2.nearest_node(40.7484, -73.9857)) == 0
    assert c2.place_node("far") is None
    assert [p.place_id for p in c2.places_at(node)] == ["esb"]
    assert c2.find_place("empire state building").place_id == "esb"
    assert c2.search_places("skyscraper")[0].place_id == "esb"
    assert c2.locate("Empire State Building").kind == "place"
