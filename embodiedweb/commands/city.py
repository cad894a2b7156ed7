"""``ewa city``: inspect the street graph (``ewa city nodes --csv``, ``ewa city stats``, ``ewa city route``)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def _graph(a: argparse.Namespace):
    from embodiedweb.worlds.street.world import (
        get_graph,  # loaded when the command runs: `ewa --help` stays quick
    )

    return get_graph(a.graph)


def cmd_city(a: argparse.Namespace) -> int:
    try:
        city = _graph(a)
    except (ValueError, FileNotFoundError) as e:
        print(f"ewa city: {e}", file=sys.stderr)
        return 2
    if a.what == "nodes":
        out = sys.stdout
        if a.csv:
            out.write("node_id,lat,lng\n")
            for nid in city.node_ids():
                n = city.nodes[nid]
                out.write(f"{nid},{n.lat:.6f},{n.lng:.6f}\n")
        else:
            for nid in city.node_ids():
                n = city.nodes[nid]
                out.write(json.dumps({"node_id": nid, "lat": n.lat, "lng": n.lng, "streets": list(n.streets)}) + "\n")
        return 0
    if a.what == "stats":
        print(json.dumps(city_stats(city)))
        return 0
    if a.what == "route":
        if len(a.args) != 2:
            print("ewa city route FROM TO  (place, address, intersection or node id)", file=sys.stderr)
            return 2
        la, lb = city.locate(a.args[0]), city.locate(a.args[1])
        if la is None or lb is None:
            print(f"ewa city: cannot find {a.args[0] if la is None else a.args[1]!r}", file=sys.stderr)
            return 2
        path = city.route(la.node_id, lb.node_id)
        print("\n".join(city.directions(path, lb.label)))
        print(f"{city.route_length(path):.0f} m, {len(path)} nodes")
        return 0
    return 2


def city_stats(city: Any) -> dict[str, Any]:
    import numpy as np

    lengths = [e[2] for nid in city.node_ids() for e in city.neighbors(nid)]
    degrees = [city.degree(n) for n in city.node_ids()]
    comps = city.components()
    return {"graph": city.name, "nodes": len(city.nodes), "edges": city.n_edges,
            "components": len(comps), "largest_component": len(comps[0]) if comps else 0,
            "intersections": sum(1 for d in degrees if d >= 3), "dead_ends": sum(1 for d in degrees if d == 1),
            "streets": len({s for n in city.nodes.values() for s in n.streets}),
            "edge_length_m": {"min": round(float(np.min(lengths)), 2), "median": round(float(np.median(lengths)), 2),
                              "max": round(float(np.max(lengths)), 2)} if lengths else {},
            "total_street_km": round(sum(lengths) / 2000.0, 2), "places": len(city.places),
            "bbox": [float(np.min(city._lat)), float(np.min(city._lng)), float(np.max(city._lat)),
                     float(np.max(city._lng))]}


def add_commands(sub: Any) -> None:
    p = sub.add_parser("city", help="the street graph: nodes (--csv), stats, route FROM TO")
    p.add_argument("what", choices=("nodes", "stats", "route"))
    p.add_argument("args", nargs="*")
    p.add_argument("--csv", action="store_true", help="nodes as node_id,lat,lng")
    p.add_argument("--graph", default="city", help="'city' (default) or 'touchdown:<folder>'")
    p.set_defaults(func=cmd_city)
