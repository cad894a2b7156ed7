"""Street speed figures for ``ewa bench``: steps per second (text observations), route and render times."""

from __future__ import annotations

import random
import statistics
import time

from embodiedweb.worlds.street.city import load_city
from embodiedweb.worlds.street.world import StreetWorld


def bench_street(quick: bool = False) -> dict[str, float]:
    """``{"street_steps_per_s", "route_ms", "street_render_ms"}`` on one core, deterministic workload.

    Steps cycle through ``forward``/``left``/``right``/``move [first neighbour]`` and build the text
    observation after each (no images). ``route_ms`` is the median Dijkstra route between random node
    pairs across the whole city; ``street_render_ms`` the time to draw the four views at 512x512.
    """
    city = load_city()
    ids = city.node_ids()
    rng = random.Random(0)
    world = StreetWorld(city)
    world.reset({"start": ids[0]}, 0)
    seconds = 0.3 if quick else 1.0
    cycle = ("forward", "left", "forward", "right", "move")
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for name in cycle:
            if name == "move":
                nbs = city.neighbors(world.node)
                world.execute("move", {"node_id": nbs[rng.randrange(len(nbs))][0]})
            else:
                world.execute(name, {})
            world.text()
            steps += 1
    steps_per_s = steps / (time.perf_counter() - t0)
    n_routes = 100 if quick else 400
    times = []
    for _ in range(n_routes):
        a, b = ids[rng.randrange(len(ids))], ids[rng.randrange(len(ids))]
        t = time.perf_counter()
        city.route(a, b)
        times.append(time.perf_counter() - t)
    n_render = 5 if quick else 20
    t1 = time.perf_counter()
    for k in range(n_render):
        world.execute("forward" if k % 2 else "left", {})
        world.image((512, 512))
    render_ms = (time.perf_counter() - t1) * 1000 / n_render
    return {"street_steps_per_s": round(steps_per_s, 1), "route_ms": round(statistics.median(times) * 1000, 3),
            "street_render_ms": round(render_ms, 2)}
