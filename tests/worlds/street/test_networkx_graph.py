"""The street world's networkx graph API, and every ground-truth route checked against networkx's Dijkstra.

Ground truth of the outdoor envs comes from the fast router (:meth:`City.route`, Dijkstra over chains):
navigation's ``goal.route_m`` and checkpoints, the walking distances the shopping rules compare, the
routes of traveling and the lengths the map site prints. Each is checked here against
:func:`networkx.dijkstra_path_length` on :meth:`City.to_networkx` to 1 cm, over every task of every split.
"""

from __future__ import annotations

import math
import random
import re
from pathlib import Path
from urllib.parse import urlencode

import gymnasium as gym
import networkx as nx
import pytest

import embodiedweb  # noqa: F401
from embodiedweb.worlds.street.city import City, Node, load_city
from embodiedweb.worlds.street.touchdown import load_touchdown

TOUCHDOWN = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "touchdown"
CM = 0.01
ROUNDED = 0.05 + 1e-6  # a length stored to 0.1 m
_TOTAL = re.compile(r"Total distance: (\d+) m")
OUTDOOR = ("EWA-Navigation-v0", "EWA-Shopping-v0", "EWA-Traveling-v0")


@pytest.fixture(scope="module")
def city() -> City:
    return load_city()


@pytest.fixture(scope="module")
def graph(city) -> nx.Graph:
    return city.to_networkx()


@pytest.fixture(scope="module")
def tasks() -> dict[str, list]:
    out = {}
    for env_id in OUTDOOR:
        env = gym.make(env_id)
        out[env_id] = list(env.unwrapped.tasks)
        env.close()
    return out


class Dijkstra:
    """networkx single-source Dijkstra from each target, memoised (the graph is undirected)."""

    def __init__(self, g: nx.Graph) -> None:
        self.g, self.memo = g, {}

    def __call__(self, a: str, b: str) -> float:
        if b not in self.memo:
            self.memo[b] = nx.single_source_dijkstra_path_length(self.g, b, weight="length")
        return self.memo[b].get(a, math.inf)


def _same_graph(city: City, g: nx.Graph) -> None:
    assert set(g.nodes) == set(city.nodes) and g.number_of_nodes() == len(city)
    edges = {frozenset((a, b)): (d, s) for a in city.node_ids() for b, _h, d, s in city.neighbors(a)}
    assert g.number_of_edges() == city.n_edges == len(edges)
    assert {frozenset(e) for e in g.edges} == set(edges)
    for a, b, attrs in g.edges(data=True):
        assert (attrs["length"], attrs["street"]) == edges[frozenset((a, b))]
    for nid, attrs in g.nodes(data=True):
        node = city.nodes[nid]
        assert (attrs["lat"], attrs["lng"], attrs["streets"]) == (node.lat, node.lng, tuple(node.streets))
        assert attrs["name"] == city.intersection_name(nid)


def test_networkx_graph_has_exactly_the_city(city, graph):
    _same_graph(city, graph)
    assert graph.graph == {"name": city.name, "compass_offset": city.compass_offset}
    n = city.intersection_node("5th Ave", "W 42nd St")
    assert graph.nodes[n]["name"] == "5th Ave & W 42nd St"
    for pid, p in city.places.items():
        if p.node_id:
            assert pid in graph.nodes[p.node_id]["places"]
    assert nx.is_connected(graph)
    # a copy: changing it leaves the city as it was
    graph2 = city.to_networkx()
    graph2.remove_node(n)
    assert n in city.nodes and city.degree(n) == graph.degree(n) == 4


def test_directed_graph_has_both_headings(city):
    dg = city.to_networkx(directed=True)
    assert isinstance(dg, nx.DiGraph) and dg.number_of_edges() == 2 * city.n_edges
    for a in city.node_ids()[:500]:
        for b, h, d, s in city.neighbors(a):
            assert dg.edges[a, b] == {"length": d, "street": s, "heading": h}


def test_router_equals_networkx_on_random_pairs(city, graph):
    rng = random.Random(7)
    ids = city.node_ids()
    for _ in range(150):
        a, b = rng.choice(ids), rng.choice(ids)
        path = city.route(a, b)
        assert path[0] == a and path[-1] == b
        assert nx.path_weight(graph, path, weight="length") == pytest.approx(city.route_length(path), abs=CM)
        assert city.route_length(path) == pytest.approx(nx.dijkstra_path_length(graph, a, b, "length"), abs=CM)


def test_every_ground_truth_route_is_networkx_shortest(city, graph, tasks):
    sp = Dijkstra(graph)
    checked = 0
    for t in tasks["EWA-Navigation-v0"]:
        s, g = t.embodied["start"], t.goal["dest_node"]
        best = sp(s, g)
        assert city.shortest_length(s, g) == pytest.approx(best, abs=CM), t.task_id
        # stored rounded to 0.1 m: equal to networkx's length rounded so (to the last bit of the sum)
        assert abs(t.goal["route_m"] - best) <= ROUNDED, t.task_id
        assert t.goal["route_m"] == round(city.shortest_length(s, g), 1), t.task_id
        for c in t.goal["checkpoints"]:  # each checkpoint lies on a shortest route
            assert sp(s, c) + sp(c, g) == pytest.approx(best, abs=CM), (t.task_id, c)
        checked += 1
    for t in tasks["EWA-Traveling-v0"]:
        s, g = t.embodied["start"], t.goal["place_node"]
        assert city.shortest_length(s, g) == pytest.approx(sp(s, g), abs=CM), t.task_id
        checked += 1
    shop = tasks["EWA-Shopping-v0"]
    stores = {t.goal["store_id"]: t.goal["store_node"] for t in shop}
    assert len(stores) >= 4
    for t in shop:  # the walk, and every walking distance a store rule compares
        s = t.embodied["start"]
        for node in stores.values():
            assert city.shortest_length(s, node) == pytest.approx(sp(s, node), abs=CM), (t.task_id, node)
        checked += 1
    for p in city.places.values():  # "the store nearest to <place>" rules
        if p.node_id:
            for node in stores.values():
                assert city.shortest_length(p.node_id, node) == pytest.approx(sp(p.node_id, node), abs=CM)
    assert checked == sum(len(v) for v in tasks.values()) >= 550


def test_map_site_prints_networkx_shortest_lengths(city, graph, tasks):
    from embodiedweb.web.text_driver import TextDriver
    from web_sites.registry import get_webapp

    app = get_webapp()
    sid = app.new_session_id()
    app.reset_session(sid)
    d = TextDriver(app)
    d.reset(sid, "/map/")
    sp = Dijkstra(graph)
    # the navigation tasks' walks (the map site routes with the same router for the other envs' tasks,
    # whose lengths test_every_ground_truth_route_is_networkx_shortest checks)
    pairs = sorted({(t.embodied["start"], t.goal["dest_node"]) for t in tasks["EWA-Navigation-v0"]})
    try:
        for a, b in pairs:
            d.reset(sid, "/map/directions?" + urlencode({"from": a, "to": b}))
            rec = app.snapshot(sid)["map"]["directions"][-1]
            assert (rec["from_node"], rec["to_node"]) == (a, b)
            assert abs(rec["length_m"] - sp(a, b)) <= ROUNDED, (a, b)
            assert abs(int(_TOTAL.search(d.tree().text).group(1)) - sp(a, b)) <= 0.5 + 1e-6, (a, b)
    finally:
        app.drop_session(sid)
    assert len(pairs) >= 150  # distinct (start, destination) pairs of the 160 tasks


def test_networkx_finds_a_shorter_route_when_the_router_is_wrong(city):
    """The check can fail: a graph whose fast router takes a detour is caught by networkx."""
    nodes = {k: Node(k, 40.75 + i * 1e-4, -73.98, ()) for i, k in enumerate("abcd")}
    c = City(nodes, [("a", "b", 10.0, "x"), ("b", "d", 10.0, "x"), ("a", "c", 9.0, "y"), ("c", "d", 9.0, "y")])
    g = c.to_networkx()
    assert nx.dijkstra_path_length(g, "a", "d", "length") == c.shortest_length("a", "d") == 18.0
    c.route = lambda a, b: ["a", "b", "d"]  # type: ignore[method-assign]  # a detour of 2 m
    assert c.shortest_length("a", "d") != pytest.approx(nx.dijkstra_path_length(g, "a", "d", "length"), abs=CM)


@pytest.mark.parametrize("tail", [False, True])
def test_router_goes_the_shorter_way_round_a_loop(tail):
    """A loop chain (both ends at one junction, or a pure cycle): the fast router agrees with networkx
    whichever way round is shorter (it used to pick by node count, and the far side's distance)."""
    nodes = {k: Node(k, 40.75 + i * 1e-4, -73.98, ()) for i, k in enumerate("abcdef")}
    edges = [("a", "b", 10.0, "x"), ("b", "f", 10.0, "x"), ("f", "d", 10.0, "x"), ("a", "c", 9.0, "y"),
             ("c", "d", 9.0, "y")] + ([("a", "e", 5.0, "z")] if tail else [])
    c = City({k: v for k, v in nodes.items() if tail or k != "e"}, edges)
    g = c.to_networkx()
    for a in c.node_ids():
        for b in c.node_ids():
            path = c.route(a, b)
            assert path[0] == a and path[-1] == b and nx.is_simple_path(g, path) or a == b
            assert c.route_length(path) == pytest.approx(nx.dijkstra_path_length(g, a, b, "length"), abs=CM), (a, b)
    assert c.route("a", "d") == ["a", "c", "d"] and c.route("d", "a") == ["d", "c", "a"]


def test_tiny_touchdown_as_networkx(tmp_path):
    (tmp_path / "nodes.txt").write_text("a,10,40.7500,-73.9800\nb,10,40.7501,-73.9800\nc,10,40.7501,-73.9801\n")
    (tmp_path / "links.txt").write_text("a,0,b\nb,180,a\nb,270,c\n")
    c = load_touchdown(tmp_path)
    g = c.to_networkx()
    _same_graph(c, g)
    assert g.nodes["a"]["name"] == "a" and g.edges["a", "b"]["street"] == ""
    dg = c.to_networkx(directed=True)
    assert dg.edges["b", "c"]["heading"] == 270.0 and dg.edges["a", "b"]["heading"] == 0.0
    assert nx.dijkstra_path_length(g, "a", "c", "length") == pytest.approx(c.shortest_length("a", "c"), abs=CM)


def test_real_touchdown_as_networkx():
    if not (TOUCHDOWN / "nodes.txt.gz").is_file():
        pytest.skip("../shared/data/touchdown is not available")
    c = load_touchdown(TOUCHDOWN)
    g = c.to_networkx()
    _same_graph(c, g)
    rng = random.Random(3)
    ids = c.node_ids()
    sources = [rng.choice(ids) for _ in range(4)]
    for s in sources:
        dist = nx.single_source_dijkstra_path_length(g, s, weight="length")
        for b in rng.sample(ids, 40):
            assert c.shortest_length(s, b) == pytest.approx(dist.get(b, math.inf), abs=CM), (s, b)
