"""Deterministic generator of the project's own kitchens (AI2-THOR vocabulary, our own layouts).

A kitchen is a rectangular room with counter runs along one to three walls ("single", "galley",
"L", "U"), an optional dining table or island, a fridge at the end of a run, a stove (four burners and
four knobs), a sink (Sink, SinkBasin, Faucet), a microwave, and optionally a toaster and a coffee
machine; cabinets and drawers sit under the counters, upper cabinets above. Food and tools are drawn
per kitchen, so some kitchens lack some ingredients. Everything comes from ``random.Random(seed)``.
"""

from __future__ import annotations

import math
import random
from typing import Any

from . import vocab
from .objects import make_object_id

COUNTER_Y, COUNTER_DEPTH = 0.90, 0.60
FOODS = ("Apple", "Bread", "Egg", "Lettuce", "Potato", "Tomato")
TOOLS = {"Knife": 0.9, "ButterKnife": 0.7, "Pan": 0.9, "Pot": 0.8, "Plate": 0.9, "Bowl": 0.8, "Mug": 0.8,
         "Cup": 0.7, "Spatula": 0.6, "Spoon": 0.6, "Fork": 0.6, "SaltShaker": 0.6, "PepperShaker": 0.6,
         "DishSponge": 0.5, "Kettle": 0.3, "Ladle": 0.3}
STYLES = ("single", "galley", "L", "U")
# preferred homes per type (first fitting one is tried in a random order weighted by listing)
HOMES = {
    "Apple": ("CounterTop", "DiningTable", "Fridge", "Bowl"), "Bread": ("CounterTop", "DiningTable"),
    "Egg": ("Fridge", "CounterTop", "Bowl"), "Lettuce": ("Fridge", "CounterTop", "DiningTable"),
    "Potato": ("CounterTop", "Fridge", "DiningTable", "Cabinet"), "Tomato": ("Fridge", "CounterTop", "Plate"),
    "Knife": ("CounterTop", "Drawer", "DiningTable"), "ButterKnife": ("Drawer", "CounterTop"),
    "Pan": ("StoveBurner", "Cabinet", "CounterTop"), "Pot": ("StoveBurner", "Cabinet", "CounterTop"),
    "Kettle": ("StoveBurner", "CounterTop"), "Plate": ("Cabinet", "CounterTop", "DiningTable"),
    "Bowl": ("Cabinet", "CounterTop", "DiningTable"), "Mug": ("CoffeeMachine", "Cabinet", "CounterTop"),
    "Cup": ("Cabinet", "CounterTop", "DiningTable"), "Spatula": ("Drawer", "CounterTop"),
    "Spoon": ("Drawer", "CounterTop"), "Fork": ("Drawer", "DiningTable"), "Ladle": ("Drawer", "CounterTop"),
    "SaltShaker": ("CounterTop", "Cabinet"), "PepperShaker": ("CounterTop", "Cabinet"),
    "DishSponge": ("SinkBasin", "CounterTop"),
}


class _Builder:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.objects: list[dict[str, Any]] = []
        self.ids: set[str] = set()
        self.contents: dict[str, list[str]] = {}

    def add(self, otype: str, pos: list[float], size: tuple[float, float, float] | None = None,
            parent: str | None = None, state: dict[str, Any] | None = None, **extra: Any) -> str:
        pos = [round(v, 3) for v in pos]
        oid = make_object_id(otype, pos)
        while oid in self.ids:
            pos[0] = round(pos[0] + 0.01, 3)
            oid = make_object_id(otype, pos)
        self.ids.add(oid)
        spec: dict[str, Any] = {"objectId": oid, "objectType": otype, "position": pos}
        if size is not None:
            spec["size"] = [round(v, 3) for v in size]
        if parent:
            spec["parent"] = parent
            self.contents.setdefault(parent, []).append(oid)
        if state:
            spec["state"] = state
        spec.update(extra)
        self.objects.append(spec)
        return oid

    def spec(self, oid: str) -> dict[str, Any]:
        return next(o for o in self.objects if o["objectId"] == oid)


def _wall_frame(wall: str, w: float, d: float) -> tuple[tuple[float, float], tuple[float, float], float]:
    """(origin on the wall, unit direction along the run, inward normal angle) for a wall."""
    hw, hd = w / 2, d / 2
    return {
        "north": ((-hw, hd), (1.0, 0.0), 180.0),
        "south": ((hw, -hd), (-1.0, 0.0), 0.0),
        "west": ((-hw, -hd), (0.0, 1.0), 90.0),
        "east": ((hw, hd), (0.0, -1.0), 270.0),
    }[wall]


def generate_kitchen(index: int, seed: int = 2024) -> dict[str, Any]:
    """Generate kitchen number ``index`` (scene dict as stored in ``data/kitchens/kitchen_XX.json``)."""
    rng = random.Random(seed * 1000 + index)
    style = STYLES[index % len(STYLES)]
    w = rng.choice((4.0, 4.5, 5.0, 5.5, 6.0))
    d = rng.choice((4.0, 4.5, 5.0, 5.5))
    walls = {"single": ["north"], "galley": ["north", "south"], "L": ["north", "west"],
             "U": ["west", "north", "east"]}[style]
    rng.shuffle(walls)
    b = _Builder(rng)
    hw, hd = w / 2, d / 2

    # --- runs of counter along walls; corners are left to the first run that claims them
    runs = []
    for wall in walls:
        (ox, oz), (ux, uz), normal = _wall_frame(wall, w, d)
        length = w if wall in ("north", "south") else d
        start, end = 0.0, length
        # north/south runs span the whole wall; west/east runs stop at their corners
        if wall == "west":
            start = COUNTER_DEPTH if "south" in walls else 0.0
            end = length - COUNTER_DEPTH if "north" in walls else length
        elif wall == "east":
            start = COUNTER_DEPTH if "north" in walls else 0.0
            end = length - COUNTER_DEPTH if "south" in walls else length
        runs.append({"wall": wall, "origin": (ox, oz), "dir": (ux, uz), "normal": normal,
                     "start": start, "end": end})

    def along(run: dict[str, Any], s: float, depth: float) -> tuple[float, float]:
        (ox, oz), (ux, uz) = run["origin"], run["dir"]
        nx, nz = math.sin(math.radians(run["normal"])), math.cos(math.radians(run["normal"]))
        return ox + ux * s + nx * depth, oz + uz * s + nz * depth

    def box(run: dict[str, Any], s0: float, s1: float, depth: float, hy: float) -> tuple[float, float, float]:
        half_run, half_depth = (s1 - s0) / 2, depth / 2
        if run["wall"] in ("north", "south"):
            return (half_run, hy, half_depth)
        return (half_depth, hy, half_run)

    # --- fridge at the end of the first run
    fr_run = runs[0]
    fridge_at_start = rng.random() < 0.5
    if fridge_at_start:
        fs0, fs1 = fr_run["start"], fr_run["start"] + 0.9
        fr_run["start"] = fs1
    else:
        fs0, fs1 = fr_run["end"] - 0.9, fr_run["end"]
        fr_run["end"] = fs0
    fx, fz = along(fr_run, (fs0 + fs1) / 2, 0.4)
    b.add("Fridge", [fx, 0.9, fz], box(fr_run, fs0, fs1, 0.8, 0.9), rotation=fr_run["normal"])
    fridge_box = (fx, fz, box(fr_run, fs0, fs1, 0.8, 0.9))

    # --- counters and what is built into them
    slots: list[tuple[dict[str, Any], float]] = []
    counters: list[str] = []
    for run in runs:
        s0, s1 = run["start"], run["end"]
        if s1 - s0 < 0.6:
            continue
        cx, cz = along(run, (s0 + s1) / 2, COUNTER_DEPTH / 2)
        run["counter"] = b.add("CounterTop", [cx, COUNTER_Y, cz], box(run, s0, s1, COUNTER_DEPTH, 0.05),
                               rotation=run["normal"])
        counters.append(run["counter"])
        n = int((s1 - s0) // 0.6)
        pad = ((s1 - s0) - n * 0.6) / 2
        for i in range(n):
            slots.append((run, s0 + pad + 0.3 + 0.6 * i))
    rng.shuffle(slots)
    specials = ["stove", "sink", "microwave"] + [a for a, p in (("toaster", 0.75), ("coffee", 0.7))
                                                 if rng.random() < p]
    assigned: dict[str, tuple[dict[str, Any], float]] = {}
    for name in specials:
        if slots:
            assigned[name] = slots.pop()
    plain = list(slots)
    fixtures: dict[str, list[str]] = {"StoveBurner": [], "Cabinet": [], "Drawer": []}
    top = COUNTER_Y + 0.05
    for name, (run, s) in assigned.items():
        if name == "stove":
            for j, (a, dd) in enumerate(((-0.14, 0.18), (0.14, 0.18), (-0.14, 0.42), (0.14, 0.42))):
                bx, bz = along(run, s + a, dd)
                burner = b.add("StoveBurner", [bx, top + 0.02, bz], rotation=run["normal"])
                fixtures["StoveBurner"].append(burner)
                kx, kz = along(run, s - 0.21 + 0.14 * j, 0.64)
                b.add("StoveKnob", [kx, COUNTER_Y - 0.08, kz], controls=burner, rotation=run["normal"])
            ox_, oz_ = along(run, s, 0.3)
            fixtures["Cabinet"].append(b.add("Cabinet", [ox_, 0.4, oz_], box(run, s - 0.3, s + 0.3, 0.6, 0.35),
                                             rotation=run["normal"]))
        elif name == "sink":
            sx, sz = along(run, s, 0.33)
            sink = b.add("Sink", [sx, top - 0.02, sz], box(run, s - 0.28, s + 0.28, 0.5, 0.06), rotation=run["normal"])
            fixtures["SinkBasin"] = [b.add("SinkBasin", [sx, top - 0.08, sz], box(run, s - 0.24, s + 0.24, 0.4, 0.08),
                                           parent=None, rotation=run["normal"], name=f"{sink}|SinkBasin")]
            fx2, fz2 = along(run, s, 0.06)
            b.add("Faucet", [fx2, top + 0.15, fz2], controls=fixtures["SinkBasin"][0], rotation=run["normal"])
            ox_, oz_ = along(run, s, 0.3)
            fixtures["Cabinet"].append(b.add("Cabinet", [ox_, 0.4, oz_], box(run, s - 0.3, s + 0.3, 0.6, 0.35),
                                             rotation=run["normal"]))
        elif name == "microwave":
            mx, mz = along(run, s, 0.28)
            fixtures["Microwave"] = [b.add("Microwave", [mx, top + 0.17, mz], rotation=run["normal"])]
            plain.append((run, s))
        elif name == "toaster":
            tx, tz = along(run, s, 0.25)
            fixtures["Toaster"] = [b.add("Toaster", [tx, top + 0.1, tz], rotation=run["normal"])]
            plain.append((run, s))
        elif name == "coffee":
            cx, cz = along(run, s, 0.25)
            fixtures["CoffeeMachine"] = [b.add("CoffeeMachine", [cx, top + 0.2, cz], rotation=run["normal"])]
            plain.append((run, s))
    plain.sort(key=lambda rs: (rs[0]["wall"], rs[1]))
    for run, s in plain:
        ox_, oz_ = along(run, s, 0.3)
        if rng.random() < 0.55:
            fixtures["Drawer"].append(b.add("Drawer", [ox_, 0.78, oz_], box(run, s - 0.27, s + 0.27, 0.55, 0.07),
                                            rotation=run["normal"]))
            fixtures["Cabinet"].append(b.add("Cabinet", [ox_, 0.36, oz_], box(run, s - 0.3, s + 0.3, 0.6, 0.3),
                                             rotation=run["normal"]))
        else:
            fixtures["Cabinet"].append(b.add("Cabinet", [ox_, 0.42, oz_], box(run, s - 0.3, s + 0.3, 0.6, 0.38),
                                             rotation=run["normal"]))
        if rng.random() < 0.5:
            ux_, uz_ = along(run, s, 0.18)
            fixtures["Cabinet"].append(b.add("Cabinet", [ux_, 1.75, uz_], box(run, s - 0.3, s + 0.3, 0.35, 0.35),
                                             rotation=run["normal"]))
    fixtures["CounterTop"] = counters

    # --- dining table / island
    table_box = None
    if style != "U" or rng.random() < 0.5:
        tw, td = rng.choice(((0.7, 0.45), (0.6, 0.4), (0.8, 0.5)))
        tx = rng.choice((-0.25, 0.0, 0.25))
        tz = rng.choice((-0.25, 0.0, 0.25))
        table_box = (tx, tz, (tw, 0.38, td))
        fixtures["DiningTable"] = [b.add("DiningTable", [tx, 0.38, tz], (tw, 0.38, td))]
    if rng.random() < 0.6:
        gx, gz = (hw - 0.3) * rng.choice((-1, 1)), -hd + 0.3 if "south" not in walls else hd - 0.3
        b.add("GarbageCan", [gx, 0.25, gz])

    # --- reachable grid
    reach = []
    steps_x = int(round(w / 0.25))
    steps_z = int(round(d / 0.25))
    for i in range(steps_x + 1):
        for j in range(steps_z + 1):
            x, z = -hw + 0.25 * i, -hd + 0.25 * j
            x, z = round(x * 4) / 4, round(z * 4) / 4
            if not ok_point(x, z, walls, hw, hd, fridge_box, table_box):
                continue
            reach.append((x, z))
    reach = _largest_component(reach)

    # --- food and tools
    present = [f for f in FOODS if rng.random() < 0.7]
    while len(present) < 3:
        f = rng.choice([f for f in FOODS if f not in present])
        present.append(f)
    missing = FOODS[index % len(FOODS)]
    if index % 3 == 0 and missing in present and len(present) > 3:
        present.remove(missing)
    items = []
    for f in FOODS:
        if f in present:
            items += [f] * (2 if rng.random() < 0.2 else 1)
    for t, p in TOOLS.items():
        if rng.random() < p:
            items.append(t)
    for item in items:
        homes = list(HOMES.get(item, ("CounterTop",)))
        weights = [2 ** (len(homes) - k) for k in range(len(homes))]
        order = []
        while homes:
            k = rng.choices(range(len(homes)), weights=weights)[0]
            order.append(homes.pop(k))
            weights.pop(k)
        for home in order:
            cands = [oid for oid in _all_of(b, home) if _room(b, oid) >= vocab.unit_size(item)]
            if home == "StoveBurner":
                cands = [c for c in cands if not b.contents.get(c)]
            if not cands:
                continue
            rec = rng.choice(sorted(cands))
            _place(b, item, rec)
            break
    start = min(reach, key=lambda p: (abs(p[0]) + abs(p[1]), p))
    room = {"width": w, "depth": d, "walls": walls, "style": style}
    return {"sceneName": f"kitchen_{index:02d}", "generator": {"seed": seed, "index": index}, "room": room,
            "gridSize": 0.25, "horizonStep": 30,
            "agent": {"x": start[0], "y": 0.9, "z": start[1], "rotation": runs[0]["normal"], "horizon": 30.0},
            "reachable": [list(p) for p in reach], "objects": b.objects}


def ok_point(x: float, z: float, walls: list[str], hw: float, hd: float,
             fridge_box: tuple[float, float, tuple[float, float, float]],
             table_box: tuple[float, float, tuple[float, float, float]] | None) -> bool:
    """Whether the agent (radius ~0.25 m) can stand at (x, z)."""
    margin = {"north": hd - z, "south": z + hd, "west": x + hw, "east": hw - x}
    for wall, m in margin.items():
        need = COUNTER_DEPTH + 0.25 if wall in walls else 0.3
        if m < need - 1e-6:
            return False
    for bx, bz, (hx, _, hz) in [fridge_box] + ([table_box] if table_box else []):
        if abs(x - bx) < hx + 0.3 and abs(z - bz) < hz + 0.3:
            return False
    return True


def _largest_component(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    keys = {(round(x * 4), round(z * 4)) for x, z in points}
    seen: set[tuple[int, int]] = set()
    best: list[tuple[int, int]] = []
    for k in sorted(keys):
        if k in seen:
            continue
        comp, stack = [], [k]
        seen.add(k)
        while stack:
            c = stack.pop()
            comp.append(c)
            for dx, dz in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                n = (c[0] + dx, c[1] + dz)
                if n in keys and n not in seen:
                    seen.add(n)
                    stack.append(n)
        if len(comp) > len(best):
            best = comp
    return sorted((x / 4, z / 4) for x, z in best)


def _all_of(b: _Builder, otype: str) -> list[str]:
    return [o["objectId"] for o in b.objects if o["objectType"] == otype]


def _room(b: _Builder, rec: str) -> float:
    spec = b.spec(rec)
    used = sum(vocab.unit_size(b.spec(c)["objectType"]) for c in b.contents.get(rec, []))
    return vocab.CAPACITY.get(spec["objectType"], 10.0) - used


def _place(b: _Builder, otype: str, rec: str) -> str:
    spec = b.spec(rec)
    rx, ry, rz = spec["position"]
    rh = spec.get("size") or vocab.half_size(spec["objectType"])
    oh = vocab.half_size(otype)
    n = len(b.contents.get(rec, []))
    mx, mz = max(rh[0] - oh[0], 0.0) * 0.8, max(rh[2] - oh[2], 0.0) * 0.8
    u = b.rng.uniform(-1, 1) if n else 0.3 * b.rng.uniform(-1, 1)
    v = b.rng.uniform(-1, 1)
    inside = spec["objectType"] in ("Fridge", "Cabinet", "Drawer", "Microwave", "SinkBasin", "Bowl", "Pot",
                                    "Pan", "CoffeeMachine")
    y = ry - rh[1] * 0.2 + oh[1] if inside else ry + rh[1] + oh[1]
    if spec["objectType"] == "Fridge":
        y = 0.75 + 0.3 * (n % 3)
    state = {"temperature": "Cold"} if spec["objectType"] == "Fridge" else None
    return b.add(otype, [rx + u * mx, y, rz + v * mz], parent=rec, state=state)


def generate_all(count: int = 30, seed: int = 2024) -> list[dict[str, Any]]:
    """Generate ``count`` kitchens."""
    return [generate_kitchen(i, seed) for i in range(count)]
