"""Generate the shop's stores and products: ``data/shop/stores.json`` and ``data/shop/products.json``.

Run ``python -m embodiedweb.data_gen.shop``. The output is deterministic (a fixed seed, sorted keys).

Stores are the project's own invented shops at real Manhattan street addresses with their real
coordinates. Products are written here from templates: name, brand, category, description, options
(size / colour / pack, each choice with a ``price_delta`` in dollars, pack choices with ``units``), the
``object_type`` of kitchen ingredients and tools that can be delivered into a kitchen, and one base
price per store that sells the product (the stores and the catalogue are in
``data/tables/shop.json``). Every price ends in 9 cents and the prices of one product at
different stores are at least 10 cents apart, so "the cheapest (or dearest) store" is never a tie.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from embodiedweb.paths import data_dir
from embodiedweb.tables import load_table

SEED = "embodiedweb-shop-v1"
MIN_GAP = 0.10  # smallest difference between two stores' prices of one product

_TABLE = load_table("shop")  # data/tables/shop.json
STORES: list[dict[str, Any]] = _TABLE["stores"]

# general price level of each store (a product's own noise is larger, so every store is cheapest for some)
STORE_LEVEL: dict[str, float] = _TABLE["store_level"]

CATEGORIES: list[tuple[str, str]] = [tuple(c) for c in _TABLE["categories"]]  # type: ignore[misc]

INGREDIENT_TYPES = ("Apple", "Bread", "Egg", "Lettuce", "Potato", "Tomato")
TOOL_TYPES = ("Knife", "ButterKnife", "Pan", "Pot", "Plate", "Bowl", "Mug", "Cup", "Spatula")

# the catalogue: (name, brand, base price, object_type, [option groups], units per item); an option group is
# {name, label, choices: [{value, label, price_delta (dollars), units (packs only)}]}
Row = tuple[str, str, float, str | None, list[dict[str, Any]], int]
CATALOG: dict[str, list[Row]] = {cat: [tuple(r) for r in rows]  # type: ignore[misc]
                                 for cat, rows in _TABLE["catalog"].items()}

_DESC: dict[str, list[str]] = _TABLE["descriptions"]


def _ninety_nine(x: float) -> float:
    """Round a price to the nearest amount ending in 9 cents (at least 0.29)."""
    cents = max(29, int(round(x * 100)))
    return round(max(29, (cents // 10) * 10 + 9 - (10 if cents % 10 < 4 else 0)) / 100, 2)


def _store_prices(base: float, store_ids: list[str], rng: random.Random) -> dict[str, float]:
    raw = {s: _ninety_nine(base * STORE_LEVEL[s] * rng.uniform(0.85, 1.15)) for s in store_ids}
    order = sorted(store_ids, key=lambda s: (raw[s], rng.random()))
    out: dict[str, float] = {}
    prev = None
    for s in order:
        p = raw[s]
        if prev is not None and p < prev + MIN_GAP - 1e-9:
            p = round(prev + MIN_GAP, 2)
        out[s] = p
        prev = p
    return {s: out[s] for s in sorted(out)}


def _sells(otype: str | None, rng: random.Random) -> int:
    r = rng.random()
    k = 4 if r < 0.45 else 3 if r < 0.75 else 2 if r < 0.93 else 1
    return max(k, 2) if otype else k


def _description(name: str, brand: str, cat: str, otype: str | None, units: int, opts: list[dict[str, Any]],
                 rng: random.Random) -> str:
    parts = [f"{name} by {brand}."]
    parts += rng.sample(_DESC[cat], 2)
    if units > 1 and not any(g["name"] == "pack" for g in opts):
        parts.append(f"Contains {units}.")
    for g in opts:
        parts.append(f"Available in {len(g['choices'])} {g['label'].lower()} choices.")
    return " ".join(parts)


def build() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The stores and products (deterministic)."""
    rng = random.Random(SEED)
    store_ids = [s["store_id"] for s in STORES]
    products: list[dict[str, Any]] = []
    n = 0
    for cat, label in CATEGORIES:
        for name, brand, base, otype, opts, units in CATALOG[cat]:
            n += 1
            prng = random.Random(f"{SEED}:{name}:{brand}")
            sellers = sorted(prng.sample(store_ids, _sells(otype, prng)))
            products.append({
                "product_id": f"p{n:04d}", "name": name, "brand": brand, "category": cat,
                "category_name": label,
                "description": _description(name, brand, cat, otype, units, opts, prng),
                "object_type": otype, "units": units, "options": json.loads(json.dumps(opts)),
                "base_price": base, "prices": _store_prices(base, sellers, prng),
            })
    # every store sells at least one product of every kitchen object type
    for otype in INGREDIENT_TYPES + TOOL_TYPES:
        typed = [p for p in products if p["object_type"] == otype]
        for s in store_ids:
            if not any(s in p["prices"] for p in typed):
                p = typed[0]
                prng = random.Random(f"{SEED}:{p['product_id']}:fill")
                p["prices"] = _store_prices(p["base_price"], sorted([*p["prices"], s]), prng)
    del rng
    for p in products:
        del p["base_price"]
    return json.loads(json.dumps(STORES)), products


def check(stores: list[dict[str, Any]], products: list[dict[str, Any]]) -> None:
    """Invariants the tasks rely on (raise ``ValueError`` naming the product)."""
    if len(stores) != 4:
        raise ValueError(f"expected 4 stores, got {len(stores)}")
    if len(products) < 200:
        raise ValueError(f"expected at least 200 products, got {len(products)}")
    sids = {s["store_id"] for s in stores}
    for p in products:
        prices = sorted(p["prices"].values())
        if not prices or set(p["prices"]) - sids:
            raise ValueError(f"{p['product_id']}: bad store prices {p['prices']}")
        if any(b - a < 0.015 for a, b in zip(prices, prices[1:], strict=False)):
            raise ValueError(f"{p['product_id']}: two stores' prices are within a cent: {p['prices']}")
    for otype in INGREDIENT_TYPES + TOOL_TYPES:
        if not any(p["object_type"] == otype for p in products):
            raise ValueError(f"no product has object_type {otype}")


def write(out_dir: Path | None = None) -> Path:
    out = out_dir or data_dir() / "shop"
    out.mkdir(parents=True, exist_ok=True)
    stores, products = build()
    check(stores, products)
    for name, obj in (("stores.json", stores), ("products.json", products)):
        with open(out / name, "w", encoding="utf-8") as f:
            json.dump(obj, f, indent=1, sort_keys=True, ensure_ascii=False)
            f.write("\n")
    return out


def main() -> None:
    out = write()
    stores, products = build()
    typed = sum(1 for p in products if p["object_type"])
    print(f"wrote {len(stores)} stores and {len(products)} products ({typed} kitchen items) to {out}")


if __name__ == "__main__":
    main()
