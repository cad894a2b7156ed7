"""Static data the garbage collector can skip: ``embodiedweb.frozen.read_only`` and the catalogs that use it."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from embodiedweb.frozen import read_only


def _lists(value: Any, path: str = "") -> list[str]:
    """The paths of every list inside ``value``."""
    if isinstance(value, list):
        return [path or "/"]
    if isinstance(value, tuple):
        return [p for i, v in enumerate(value) for p in _lists(v, f"{path}[{i}]")]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _lists(v, f"{path}.{k}")]
    return []


def test_read_only_makes_every_list_a_tuple_and_keeps_the_values():
    raw = {"a": [1, [2, "x"], {"b": [3.5, None]}], "c": "text", "d": [{"e": []}]}
    out = read_only(raw)
    assert out == {"a": (1, (2, "x"), {"b": (3.5, None)}), "c": "text", "d": ({"e": ()},)}
    assert _lists(out) == []
    assert raw["a"][1] == [2, "x"]  # the input is not changed


def test_a_read_only_record_of_atoms_drops_out_of_the_collector():
    record = read_only({"name": "x", "tags": ["a", "b"], "pos": [1.5, [2, 3]]})
    for _ in range(3):  # each collection may untrack one more level
        gc.collect()
    assert not gc.is_tracked(record)  # a list anywhere inside would keep it tracked
    assert not gc.is_tracked(record["pos"])


@pytest.mark.parametrize("load", ["wiki", "recipes", "recipes-hard"])
def test_the_catalogs_hold_no_list(load):
    """The wiki's and the recipes' records are read only: with lists, each full collection of an env process
    walked about 60,000 more containers (about 30 ms more per collection)."""
    if load == "wiki":
        from web_sites.wiki.catalog import articles
        records = articles()
    else:
        from web_sites.recipes.catalog import recipes
        records = recipes("hard" if load == "recipes-hard" else None)
    assert records
    assert _lists(records)[:3] == []


def test_the_city_graph_keeps_its_edges_in_tuples():
    from embodiedweb.worlds.street.city import load_city

    city = load_city()
    some = city.node_ids()[:50]
    assert all(type(city.neighbors(n)) is tuple for n in some)
    for _ in range(3):
        gc.collect()
    assert not any(gc.is_tracked(city.neighbors(n)) for n in some)
