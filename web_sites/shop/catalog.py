"""The shop's stores and products (``data/shop/*.json``) for the site, task generators and checkers.

Prices are in dollars. A product's price at a store is its base price there plus the ``price_delta`` of
each chosen option (the same delta at every store), so the cheapest store for a product does not depend
on the options. A store not listed in a product's ``prices`` does not sell it (shown as out of stock); a
task can also mark offers out of stock for one session (``out_of_stock`` in the site config), and the
functions here take the same list so a generator or checker sees what the agent sees.

``python -m embodiedweb.data_gen.shop`` writes the data.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from embodiedweb.paths import data_dir

MAX_DELIVERY_UNITS = 6  # objects delivered into the kitchen per order line, at most

OutOfStock = Iterable[tuple[str, str] | list[str]]  # (store_id, product_id) pairs


def _load(name: str) -> Any:
    path = data_dir() / "shop" / name
    with open(path, encoding="utf-8") as f:
        return json.load(f)


@lru_cache(maxsize=1)
def stores() -> tuple[dict[str, Any], ...]:
    """The 4 stores, sorted by id: ``store_id``, ``name``, ``address``, ``neighborhood``, ``lat``, ``lng``,
    ``phone``, ``hours`` (``{"mon": "07:00-22:00" | "closed", ...}``)."""
    return tuple(sorted(_load("stores.json"), key=lambda s: s["store_id"]))


@lru_cache(maxsize=1)
def _stores_by_id() -> dict[str, dict[str, Any]]:
    return {s["store_id"]: s for s in stores()}


def store(store_id: str) -> dict[str, Any] | None:
    """The store with this id, or ``None``."""
    return _stores_by_id().get(store_id)


def store_ids() -> list[str]:
    """The ids of every store, in catalog order."""
    return [s["store_id"] for s in stores()]


def store_by_name(name: str) -> dict[str, Any] | None:
    """The store with this name (case-insensitive), if any."""
    want = name.strip().lower()
    return next((s for s in stores() if s["name"].lower() == want), None)


def store_coordinates(store_id: str) -> tuple[float, float]:
    """``(lat, lng)`` of a store (``KeyError`` for an unknown id)."""
    s = _stores_by_id()[store_id]
    return (s["lat"], s["lng"])


def store_locations() -> dict[str, tuple[float, float]]:
    """Each store's (lat, lng), by store id."""
    return {s["store_id"]: (s["lat"], s["lng"]) for s in stores()}


@lru_cache(maxsize=1)
def products() -> tuple[dict[str, Any], ...]:
    """Every product, sorted by id: ``product_id``, ``name``, ``brand``, ``category``, ``category_name``,
    ``description``, ``object_type`` (or ``None``), ``units`` (objects per item), ``options`` (groups
    ``{"name", "label", "choices": [{"value", "label", "price_delta", "units"?}]}``), ``prices``
    (``{store_id: base price}``)."""
    return tuple(sorted(_load("products.json"), key=lambda p: p["product_id"]))


@lru_cache(maxsize=1)
def _products_by_id() -> dict[str, dict[str, Any]]:
    return {p["product_id"]: p for p in products()}


def product(product_id: str) -> dict[str, Any] | None:
    """The product with this id, or ``None``."""
    return _products_by_id().get(product_id)


get = product


@lru_cache(maxsize=1)
def categories() -> tuple[tuple[str, str], ...]:
    """``(slug, label)`` of every category, in catalogue order."""
    seen: dict[str, str] = {}
    for p in products():
        seen.setdefault(p["category"], p["category_name"])
    order = ["produce", "bakery", "dairy-eggs", "pantry", "beverages", "snacks", "kitchenware", "household",
             "personal-care"]
    return tuple(sorted(seen.items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order else 99, kv[0])))


def category_name(slug: str) -> str | None:
    """The display name of a category slug, or ``None``."""
    return dict(categories()).get(slug)


def object_types() -> list[str]:
    """Every kitchen object type some product delivers, sorted."""
    return sorted({p["object_type"] for p in products() if p["object_type"]})


def products_for_type(object_type: str) -> list[dict[str, Any]]:
    """Products that deliver ``object_type`` into the kitchen (e.g. ``"Egg"``, ``"Pan"``), by id."""
    return [p for p in products() if p["object_type"] == object_type]


def _oos(out_of_stock: OutOfStock | None) -> set[tuple[str, str]]:
    return {(str(a), str(b)) for a, b in (out_of_stock or ())}


def offers(product_id: str, out_of_stock: OutOfStock | None = None) -> dict[str, float]:
    """``{store_id: base price}`` of the stores that have the product in stock (empty if unknown)."""
    p = product(product_id)
    if p is None:
        return {}
    gone = _oos(out_of_stock)
    return {s: v for s, v in sorted(p["prices"].items()) if (s, product_id) not in gone}


def price(product_id: str, store_id: str, options: dict[str, str] | None = None,
          out_of_stock: OutOfStock | None = None) -> float | None:
    """The unit price at a store with these options (``None`` if the store has it not in stock).

    ``options`` maps group name to choice value; missing groups take their first choice."""
    base = offers(product_id, out_of_stock).get(store_id)
    if base is None:
        return None
    p = product(product_id)
    assert p is not None
    return round(base + option_delta(p, options or {}), 2)


def cheapest_store(product_id: str, out_of_stock: OutOfStock | None = None) -> str | None:
    """The store with the lowest price for the product (never a tie), or ``None`` if no store has it."""
    offs = offers(product_id, out_of_stock)
    return min(offs, key=lambda s: (offs[s], s)) if offs else None


def dearest_store(product_id: str, out_of_stock: OutOfStock | None = None) -> str | None:
    """The store with the highest base price for the product (``None`` if no store has it in stock)."""
    offs = offers(product_id, out_of_stock)
    return max(offs, key=lambda s: (offs[s], s)) if offs else None


def stores_selling(product_id: str, out_of_stock: OutOfStock | None = None) -> list[str]:
    """The ids of the stores that have the product in stock."""
    return list(offers(product_id, out_of_stock))


# options ------------------------------------------------------------------------------------------
def _choice(group: dict[str, Any], value: str) -> dict[str, Any] | None:
    return next((c for c in group["choices"] if c["value"] == value), None)


def default_options(p: dict[str, Any]) -> dict[str, str]:
    """The product's first choice of each option group."""
    return {g["name"]: g["choices"][0]["value"] for g in p["options"]}


def normalize_options(p: dict[str, Any], options: dict[str, str]) -> dict[str, str]:
    """Every option group of the product with a valid choice (first choice when missing).

    Raises ``ValueError`` with a readable message for an unknown group or choice."""
    groups = {g["name"]: g for g in p["options"]}
    for name, value in options.items():
        g = groups.get(name)
        if g is None:
            raise ValueError(f"{p['name']} has no option '{name}'.")
        if _choice(g, value) is None:
            labels = ", ".join(c["label"] for c in g["choices"])
            raise ValueError(f"'{value}' is not a {g['label'].lower()} of {p['name']}; choose one of: {labels}.")
    out = default_options(p)
    out.update(options)
    return dict(sorted(out.items()))


def option_delta(p: dict[str, Any], options: dict[str, str]) -> float:
    """The price change of ``options`` over the base price (missing or unknown choices count as the first)."""
    total = 0.0
    for g in p["options"]:
        ch = _choice(g, options.get(g["name"], g["choices"][0]["value"])) or g["choices"][0]
        total += ch["price_delta"]
    return total


def option_text(p: dict[str, Any], options: dict[str, str]) -> str:
    """``"Size: Large, Colour: Red"`` (empty for products without options)."""
    parts = []
    for g in p["options"]:
        ch = _choice(g, options.get(g["name"], "")) or g["choices"][0]
        parts.append(f"{g['label']}: {ch['label']}")
    return ", ".join(parts)


def units_per_item(p: dict[str, Any], options: dict[str, str]) -> int:
    """Objects in one item: the chosen pack's ``units``, else the product's ``units``."""
    for g in p["options"]:
        ch = _choice(g, options.get(g["name"], "")) or g["choices"][0]
        if "units" in ch:
            return int(ch["units"])
    return int(p.get("units", 1))


def delivery_units(p: dict[str, Any], options: dict[str, str], qty: int) -> int:
    """How many ``object_type`` objects one order line delivers into the kitchen (0 for non-kitchen items)."""
    if not p.get("object_type"):
        return 0
    return min(MAX_DELIVERY_UNITS, qty * units_per_item(p, options))


def live_orders(orders: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """The orders of a shop snapshot that stand: every one not cancelled (an order recorded before orders
    had a status stands). What every checker reads: a cancelled order proves nothing, bought nothing and
    spent nothing."""
    return [o for o in orders or [] if o.get("status", "placed") != "cancelled"]


# task configuration ---------------------------------------------------------------------------------
def validate_config(config: Any, where: str = "web.sites.shop") -> None:
    """Check a task's shop config (see :mod:`web_sites.shop.site`); ``ValueError`` names the bad field."""
    if not isinstance(config, dict):
        raise ValueError(f"{where}: must be an object")
    unknown = set(config) - {"budget", "out_of_stock", "cart"}
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    budget = config.get("budget")
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int | float) or budget < 0):
        raise ValueError(f"{where}.budget: must be a number >= 0, got {budget!r}")
    oos = config.get("out_of_stock", [])
    if not isinstance(oos, list):
        raise ValueError(f"{where}.out_of_stock: must be a list of [store_id, product_id]")
    for i, pair in enumerate(oos):
        if not (isinstance(pair, list | tuple) and len(pair) == 2):
            raise ValueError(f"{where}.out_of_stock[{i}]: must be [store_id, product_id], got {pair!r}")
        if store(str(pair[0])) is None:
            raise ValueError(f"{where}.out_of_stock[{i}]: unknown store {pair[0]!r}")
        if product(str(pair[1])) is None:
            raise ValueError(f"{where}.out_of_stock[{i}]: unknown product {pair[1]!r}")
    cart = config.get("cart", [])
    if not isinstance(cart, list):
        raise ValueError(f"{where}.cart: must be a list of cart lines")
    for i, line in enumerate(cart):
        at = f"{where}.cart[{i}]"
        if not isinstance(line, dict):
            raise ValueError(f"{at}: must be an object")
        extra = set(line) - {"product_id", "store_id", "qty", "options"}
        if extra:
            raise ValueError(f"{at}: unknown field(s) {', '.join(sorted(extra))}")
        p = product(str(line.get("product_id")))
        if p is None:
            raise ValueError(f"{at}.product_id: unknown product {line.get('product_id')!r}")
        sid = line.get("store_id")
        if store(str(sid)) is None:
            raise ValueError(f"{at}.store_id: unknown store {sid!r}")
        if sid not in p["prices"]:
            raise ValueError(f"{at}.store_id: {sid} does not sell {p['product_id']}")
        qty = line.get("qty", 1)
        if isinstance(qty, bool) or not isinstance(qty, int) or not 1 <= qty <= 99:
            raise ValueError(f"{at}.qty: must be a whole number 1..99, got {qty!r}")
        opts = line.get("options", {})
        if not isinstance(opts, dict):
            raise ValueError(f"{at}.options: must be an object")
        try:
            normalize_options(p, {str(k): str(v) for k, v in opts.items()})
        except ValueError as e:
            raise ValueError(f"{at}.options: {e}") from None
