"""Generate the outdoor task suites: ``python -m embodiedweb.data_gen.outdoor_tasks``.

- ``data/navigation/tasks.jsonl``: start somewhere on the street graph, walk to a place (250-1,200 m).
- ``data/shopping/tasks.jsonl``: buy a product (with options) at the store a rule selects — the
  cheapest, the nearest by walking distance, or the cheapest within a walking radius — for pickup,
  then walk there. Rules are only used where their answer is unambiguous (prices never tie; walking
  distances and radii keep a margin of at least 100 m).
- ``data/traveling/tasks.jsonl``: walk to a landmark and answer a question about one of the details its
  wiki article records (``world_facts``: facts of this project's world, not of the real building).

Ground truth comes from the city graph (Dijkstra), the shop catalogue and the wiki facts. Every task
carries ``meta.max_steps`` sized to its route. Splits are by destination, so a place is never in both.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from embodiedweb.paths import data_dir

SEED = 11
N_NAV, N_SHOP, N_TRAVEL = 160, 240, 150
WEB_BUDGET = 40


def _split(key: str) -> str:
    return "train" if int(hashlib.sha256(key.encode()).hexdigest(), 16) % 2 else "test"


def _max_steps(path_len: int) -> int:
    return WEB_BUDGET + 2 * path_len + 20


def _start(city: Any, rng: random.Random, target: str, lo: float, hi: float, tries: int = 400
           ) -> tuple[str, list[str]] | None:
    ids = city.node_ids()
    for _ in range(tries):
        s = rng.choice(ids)
        if city.degree(s) < 3:  # start at an intersection, as a person would describe it
            continue
        if not lo <= city.distance_m(s, target) <= hi * 1.1:
            continue
        path = city.route(s, target)
        if path and lo <= city.route_length(path) <= hi:
            return s, path
    return None


def _task(env_id: str, tid: str, instruction: str, start: str, heading: float, goal: dict[str, Any],
          split: str, max_steps: int, start_in: str = "embodied", **meta: Any) -> dict[str, Any]:
    return {"task_id": tid, "env_id": env_id, "instruction": instruction, "start": start_in,
            "embodied": {"start": start, "heading": round(heading, 1)}, "web": {"start_url": "/"},
            "goal": goal, "split": split, "meta": {"max_steps": max_steps, **meta}}


def navigation(city: Any, places: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    from embodiedweb.domains.outdoor.common import checkpoints

    out = []
    snapped = [p for p in places if city.place_node(p["place_id"])]
    while len(out) < N_NAV:
        p = rng.choice(snapped)
        dest = city.place_node(p["place_id"])
        got = _start(city, rng, dest, 250, 1200)
        if got is None:
            continue
        start, path = got
        where = city.intersection_name(start)
        out.append(_task("EWA-Navigation-v0", f"nav-{len(out):03d}",
                         f"You are at {where}. Walk to {p['name']} ({p['address'].split(', New York')[0]}) and stop "
                         "there. Use the map website to get walking directions.",
                         start, rng.uniform(0, 360),
                         {"dest_node": dest, "dest_name": p["name"], "dest_place": p["place_id"],
                          "route_m": round(city.route_length(path), 1), "checkpoints": checkpoints(path)},
                         _split(p["place_id"]), _max_steps(len(path))))
    return out


def shopping(city: Any, rng: random.Random) -> list[dict[str, Any]]:
    from web_sites.shop import catalog

    store_node = {s["store_id"]: city.locate(s["name"]).node_id for s in catalog.stores()}
    products = [p for p in catalog.products() if len(catalog.stores_selling(p["product_id"])) >= 2]
    rules = ["cheapest", "nearest", "within"]
    out: list[dict[str, Any]] = []
    attempts = 0
    while len(out) < N_SHOP and attempts < 20000:
        attempts += 1
        rule = rules[len(out) % 3]
        p = rng.choice(products)
        selling = catalog.stores_selling(p["product_id"])
        start = rng.choice(city.node_ids())
        if city.degree(start) < 3:
            continue
        dist = {s: city.shortest_length(start, store_node[s]) for s in selling}
        offers = catalog.offers(p["product_id"])
        ranked = sorted(selling, key=lambda s: dist[s])
        if rule == "cheapest":
            store = catalog.cheapest_store(p["product_id"])
            text = "at the store that sells it for the lowest price"
        elif rule == "nearest":
            if dist[ranked[1]] - dist[ranked[0]] < 100:
                continue
            store = ranked[0]
            text = "at the store nearest to where you are now, by walking distance, that sells it"
        else:
            radius = rng.choice([1000, 1500, 2000, 2500])
            if any(abs(d - radius) < 100 for d in dist.values()):
                continue
            inside = [s for s in selling if dist[s] <= radius]
            if not inside or len(inside) == len(selling):
                continue  # the radius must matter
            store = min(inside, key=lambda s: offers[s])
            text = f"at the cheapest store that sells it within a {radius} m walk of where you are now"
        options: dict[str, str] = {}
        for group in p.get("options", []):
            options[group["name"]] = rng.choice(group["choices"])["value"]
        opt_text = catalog.option_text(p, options) if options else ""
        path = city.route(start, store_node[store])
        where = city.intersection_name(start)
        out.append(_task("EWA-Shopping-v0", f"shop-{len(out):03d}",
                         f"You are at {where}. On the shop website, buy one {p['name']}"
                         f"{' (' + opt_text + ')' if opt_text else ''} {text}; choose “Pick up in store”. "
                         "Then walk to that store and stop there. The map website gives walking distances.",
                         start, rng.uniform(0, 360),
                         {"product_id": p["product_id"], "options": options, "store_id": store,
                          "store_node": store_node[store], "rule": rule},
                         _split(p["product_id"]), _max_steps(len(path)) + 20, start_in="web", rule=rule))
    return out


#: fact key of the wiki's ``world_facts`` -> the question asked about it. The facts exist only in this
#: project's wiki (see :mod:`embodiedweb.data_gen.wiki`), so the answer has to be read from the article.
QUESTIONS: dict[str, str] = {
    "plaque_honoree": "Whose name is on the bronze plaque beside the main entrance of {name}?",
    "restoration_leads": "Who led the most recent restoration of {name}?",
    "tour_time": "At what time do the free Saturday guided walks of {name} leave?",
    "mosaic_length": "How long is the mosaic beside the main entrance of {name}?",
    "capsule_year": "In what year is the time capsule buried by the main entrance of {name} to be opened?",
    "exhibit_floor": "On which floor of {name} is the permanent exhibition on the history of the site?",
    "sculpture_animal": "What animal does the small bronze sculpture beside the main entrance of {name} show?",
}


def traveling(city: Any, rng: random.Random) -> list[dict[str, Any]]:
    """Questions in turn over :data:`QUESTIONS`; each asked of the place that has been asked least so far
    (ties drawn at random), so the suite spreads over places and over question kinds evenly."""
    articles = json.loads((data_dir() / "wiki" / "articles.json").read_text(encoding="utf-8"))
    places = sorted((a for a in articles if a.get("place_id") and a.get("world_facts")
                     and city.place_node(a["place_id"])), key=lambda a: a["slug"])
    asked: dict[str, int] = {a["slug"]: 0 for a in places}
    used: set[tuple[str, str]] = set()
    keys = list(QUESTIONS)
    out: list[dict[str, Any]] = []
    turn = 0
    while len(out) < N_TRAVEL and turn < 50 * N_TRAVEL:
        key = keys[turn % len(keys)]
        turn += 1
        cands = [a for a in places if key in a["world_facts"] and (a["slug"], key) not in used]
        if not cands:
            continue
        low = min(asked[a["slug"]] for a in cands)
        a = rng.choice([a for a in cands if asked[a["slug"]] == low])
        dest = city.place_node(a["place_id"])
        got = _start(city, rng, dest, 250, 1000)
        if got is None:
            continue
        start, path = got
        used.add((a["slug"], key))
        asked[a["slug"]] += 1
        fact = a["world_facts"][key]
        name = a["facts"].get("name", a["title"])
        out.append(_task("EWA-Traveling-v0", f"travel-{len(out):03d}",
                         f"You are at {city.intersection_name(start)}. Walk to {name} and stop there, answering "
                         f"this question from its wiki article: {QUESTIONS[key].format(name=name)} "
                         "Answer with stop [your answer].",
                         start, rng.uniform(0, 360),
                         {"place_id": a["place_id"], "place_node": dest, "slug": a["slug"], "fact": key,
                          "answer": fact["value"], "kind": fact["kind"]},
                         _split(a["place_id"]), _max_steps(len(path)) + 10, start_in="embodied"))
    return out


def main() -> None:
    from embodiedweb.worlds.street.city import load_city, read_places

    city = load_city()
    places = read_places()
    suites = {"navigation": navigation(city, places, random.Random(SEED)),
              "shopping": shopping(city, random.Random(SEED + 1)),
              "traveling": traveling(city, random.Random(SEED + 2))}
    for name, tasks in suites.items():
        path = data_dir() / name / "tasks.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            for t in tasks:
                f.write(json.dumps(t, ensure_ascii=False, sort_keys=True) + "\n")
        print(f"wrote {len(tasks)} {name} tasks to {path}")


if __name__ == "__main__":
    main()
