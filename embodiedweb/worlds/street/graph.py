"""The street world's public graph API: a :class:`~embodiedweb.worlds.street.city.City` (the embedded
Manhattan, a Touchdown graph, any graph built with :func:`~embodiedweb.worlds.street.city.build_city`)
as a `networkx <https://networkx.org>`_ graph, for users' own analyses::

    import networkx as nx
    from embodiedweb.worlds.street.city import load_city

    g = load_city().to_networkx()
    nx.dijkstra_path_length(g, "n1392", "n9664", weight="length")  # 397.9 (metres), as City.route's

The graph has exactly the city's nodes and edges:

* nodes: the city's node ids (Touchdown: the panorama ids), with ``lat``, ``lng`` (degrees, WGS 84),
  ``name`` (:meth:`City.intersection_name`: ``"5th Ave & W 42nd St"``, ``"5th Ave between ..."``; a
  Touchdown node's id), ``streets`` (the street names meeting there, a tuple) and ``places`` (ids of the
  places snapped to the node, a tuple);
* edges: ``length`` (metres, to the centimetre: the weights :meth:`City.route` minimises) and ``street``
  (the street's name; ``""`` in a Touchdown graph). In the :class:`networkx.DiGraph` (``directed=True``)
  every street edge is two arcs, each with its ``heading`` (degrees clockwise from true north, as the
  walker faces going that way; a Touchdown link's recorded heading where it has one);
* graph attributes: ``name`` (``"city"``, ``"touchdown:<folder>"``) and ``compass_offset`` (the bearing
  directions call "north").

The graph is a copy: changing it does not change the city or its routes. The env's own router
(:meth:`City.route`, Dijkstra over chains of degree-2 nodes) stays the one the envs use, being about 50
times faster on the embedded city (median 1.1 ms a random pair against 57 ms); ``tests/worlds/street/test_networkx_graph.py`` checks it and every task's ground-truth
route against :func:`networkx.dijkstra_path_length`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx

    from .city import City


def to_networkx(city: City, directed: bool = False) -> nx.Graph | nx.DiGraph:
    """``city`` as a :class:`networkx.Graph` (or, with ``directed``, a :class:`networkx.DiGraph` of both
    directions of every edge); see the module docstring for the attributes."""
    import networkx as nx

    g: Any = nx.DiGraph() if directed else nx.Graph()
    g.graph.update(name=city.name, compass_offset=city.compass_offset)
    for nid in city.node_ids():
        node = city.nodes[nid]
        g.add_node(nid, lat=node.lat, lng=node.lng, name=city.intersection_name(nid),
                   streets=tuple(node.streets), places=tuple(p.place_id for p in city.places_at(nid)))
    for a in city.node_ids():
        for b, heading, length, street in city.neighbors(a):
            if directed:
                g.add_edge(a, b, length=length, street=street, heading=heading)
            elif not g.has_edge(a, b):
                g.add_edge(a, b, length=length, street=street)
    return g
