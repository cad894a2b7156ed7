"""Red-team agents for the hard navigation tier's walking tours (stop 37): the appointment tours (``nav-hard-180``
..., ``embodied.watch``), the tours with a walking limit and the grand tours (see :mod:`tests.redteam`; the ideas
``test_hard_tours.py`` and ``test_appointment_tours.py`` already try, lazy orders, planners, a far corner's
directions, directions a step short, are not repeated here).

Shortcuts must fail; genuine alternatives must pass. The agents act only through action strings; cheaters know the
places and the answer order where the cheat needs it.

``python -m tests.domains.outdoor.redteam_tours`` prints their rates over every hard tour.
"""

from __future__ import annotations

import itertools
import math
from typing import Any
from urllib.parse import urlencode

from baselines.script import Plan
from embodiedweb.data_gen import hard_tours as gen
from embodiedweb.domains.outdoor.common import GOAL_RADIUS_M, city, near
from embodiedweb.domains.outdoor.navigation import TourOracle
from embodiedweb.tasks import Task
from tests.redteam import RedTeam, run

NAV = "EWA-Navigation-v0"
#: the episodes' step limit (the hard tier's env limit, ``hard_max_steps``)
MAX_STEPS = 1050


def hard_tours() -> list[Task]:
    """Every tour of the hard tier (all splits), validated."""
    from embodiedweb.domains.outdoor.navigation import NavigationDomain
    from embodiedweb.registration import spec_for
    from embodiedweb.tasks import load_tasks

    tasks = load_tasks(spec_for(NAV).level_tasks_path("hard"), NavigationDomain().validate_task)
    return [t for t in tasks if "tour" in t.goal]


def dated(task: Task) -> bool:
    """A tour with appointments."""
    return "watch" in task.embodied


class TourAgent(RedTeam, TourOracle):
    """The tour oracle as a red-team agent, with the walking skills the ideas share."""

    def nodes(self) -> dict[str, str]:
        return {s["place"]: s["node"] for s in self.task.goal["tour"]}

    def names(self) -> dict[str, str]:
        return {s["place"]: s["name"] for s in self.task.goal["tour"]}

    def to_street(self) -> Plan:
        if self.obs["active"] != "embodied":
            yield "switch_environment [walking]"

    def walk_nodes(self, path: list[str]) -> Plan:
        """Walk ``path`` (its first node is where the walker stands)."""
        yield from self.to_street()
        for n in path[1:]:
            yield f"move [{n}]"

    def plan_ahead(self) -> Plan:
        """Directions from the start corner to every place, as the oracle asks them."""
        for s in self.task.goal["tour"]:
            yield from self.ask_directions(s["name"])


# ------------------------------------------------------------------------------------------------ shortcuts
def rim_path(start: str, order: list[str] | tuple[str, ...], node: dict[str, str]) -> tuple[list[str], list[float]]:
    """The shortest walk taking the places in ``order``, each counted reached at any node within the goal radius
    (the walk cuts every corner the arrival rule allows), and the metres walked on reaching each: the walk
    :func:`embodiedweb.data_gen.hard_tours.rim_walks` bounds."""
    c = city()
    layers: list[dict[str, tuple[float, str | None]]] = [{start: (0.0, None)}]
    for p in order:
        rim = sorted(c.within_walk(node[p], GOAL_RADIUS_M) | {node[p]})
        prev = layers[-1]
        got: dict[str, tuple[float, str | None]] = {}
        for x in rim:
            to_x = c.distances_to(x)
            got[x] = min((w + to_x.get(y, math.inf), y) for y, (w, _b) in prev.items())
        layers.append(got)
    end = min(layers[-1], key=lambda x: layers[-1][x][0])
    ends = [end]
    for layer in reversed(layers[1:]):
        ends.append(layer[ends[-1]][1])
    ends.reverse()
    path = [ends[0]]
    for b in ends[1:]:
        path += c.route(path[-1], b)[1:]
    return path, [min(v[0] for v in layer.values()) for layer in layers[1:]]


def near_miss(task: Task) -> tuple[str, ...]:
    """The order, other than the one meeting every appointment, that misses them by the least (the largest lateness
    at any place when each place is reached at the goal radius's rim): the best a walker cutting corners can do in
    another order."""
    from embodiedweb.domains.outdoor.tours import appointments

    _start, pace, by = appointments(task)
    due = {s["place"]: (b + 1) * pace for s, b in zip(task.goal["tour"], by, strict=True)}
    node = {s["place"]: s["node"] for s in task.goal["tour"]}
    best = tuple(task.goal["best_order"])

    def late(o: tuple[str, ...]) -> float:
        return max(a - due[p] for p, a in zip(o, gen.rim_walks(city(), task.embodied["start"], o, node), strict=True))

    def first_order(o: tuple[str, ...]) -> tuple[str, ...]:
        path, _at = rim_path(task.embodied["start"], o, node)
        return tuple(sorted(node, key=lambda p: next((i for i, n in enumerate(path) if near(n, node[p])), math.inf)))

    # (an order whose rim walk passes a later place first walks another order: the one meeting them, perhaps)
    return min((o for o in itertools.permutations(node) if o != best and first_order(o) == o),
               key=lambda o: (late(o), o))


class RimCutterNearMiss(TourAgent):
    """Appointment tours: the order that misses the appointments by the least, every place touched only at the
    rim of its goal radius and the next leg walked on from there (the shortest walk the arrival rule allows in
    that order), directions planned ahead: the 40 m margin the generator keeps must hold."""

    breaks = ("embodied",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return dated(task)

    def plan(self) -> Plan:
        yield from self.plan_ahead()
        path, _at = rim_path(self.here(), near_miss(self.task), self.nodes())
        yield from self.walk_nodes(path)
        yield "stop"


def rim_fitting(task: Task) -> tuple[str, ...] | None:
    """Tours with a walking limit: the order outside the task's fitting orders (over the limit on the map's routes)
    whose walk cutting every corner at the goal radius (:func:`rim_path`) is shortest, when that walk is within the
    limit; else ``None``."""
    if dated(task):
        return None
    node = {s["place"]: s["node"] for s in task.goal["tour"]}
    fitting = {tuple(o) for o in task.goal["fitting_orders"]}
    rims = {o: gen.rim_walks(city(), task.embodied["start"], o, node)[-1]
            for o in itertools.permutations(node) if o not in fitting}
    best = min(rims, key=lambda o: (rims[o], o))
    return best if rims[best] <= task.goal["limit_m"] else None


class RimCutterOverTheLimit(TourAgent):
    """Tours with a walking limit: an order that is over the limit on the map's routes, walked turning back at the
    rim of every place's goal radius (20 m short of each), which brings it within the limit (on 24 of the 60 tours
    with a limit, 11 of them test), directions planned ahead: the places were not walked to. Passed all 24 before navigation checker
    version 6, which judges the limit as if the walk had gone to each place's door (:func:`~embodiedweb.domains.
    outdoor.tours.to_the_doors`)."""

    breaks = ("embodied",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return rim_fitting(task) is not None

    def plan(self) -> Plan:
        yield from self.plan_ahead()
        order = rim_fitting(self.task)
        path, at = rim_path(self.here(), order, self.nodes())
        if at[-1] > self.task.goal["limit_m"]:
            self.errors.append("the rim walk is over the limit")
        yield from self.walk_nodes(path)
        yield "stop"


def next_door(node: str) -> str | None:
    """The name of a spot the map places within 60 m of ``node`` but not at it (a street corner or a block, as the
    street signs name them): the nearest."""
    c = city()
    d = c.distances_to(node)
    for n in sorted(c.within_walk(node, 60.0), key=lambda n: (d.get(n, math.inf), n)):
        name = c.intersection_name(n)
        at = c.locate(name)
        if n != node and at is not None and at.node_id != node and d.get(at.node_id, math.inf) <= 60.0:
            return name
    return None


class DirectionsFromNextDoor(TourAgent):
    """Before walking, asks the map for directions from the start corner to the first place of the answer order
    (that leg it asks honestly) and to every other place from a street corner next to that place (within 60 m of
    it): routes of a few dozen metres that plan no leg of the tour; then walks the answer order without the map (it
    knows where the places are, as the map's place pages show)."""

    breaks = ("web",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        first = task.goal["best_order"][0]
        return all(next_door(s["node"]) for s in task.goal["tour"] if s["place"] != first)

    def plan(self) -> Plan:
        first = self.task.goal["best_order"][0]
        yield from self.ask_directions(self.names()[first])
        for s in self.task.goal["tour"]:
            if s["place"] == first:
                continue
            frm = next_door(s["node"])
            yield "goto [/map/directions?" + urlencode({"from": frm, "to": s["name"]}) + "]"
            if "End" not in self.obs["web_text"] and "Total distance" not in self.obs["web_text"]:
                self.errors.append(f"no route from {frm}")
        node = self.nodes()
        for p in self.task.goal["best_order"]:
            yield from self.walk_nodes(city().route(self.here(), node[p]))
        yield "stop"


class BackToTheFirst(TourAgent):
    """Appointment tours: the answer order on time, then back to the first place (long after its time) to stop
    there: the places' first arrivals were on time, and a walker may go on once its appointments are met (the
    place it visits last is then the first again)."""

    kind = "genuine"

    @classmethod
    def applies(cls, task: Task) -> bool:
        return dated(task)

    def plan(self) -> Plan:
        yield from self.plan_ahead()
        node = self.nodes()
        for p in self.task.goal["best_order"]:
            yield from self.walk_nodes(city().route(self.here(), node[p]))
        yield from self.walk_nodes(city().route(self.here(), node[self.task.goal["best_order"][0]]))
        yield "stop"


# ------------------------------------------------------------------------------------------------ genuine
class RimTurner(TourAgent):
    """The answer order, each place left as soon as the walk is within its goal radius (the nearest rim node on
    the way, then on to the next), directions planned ahead: what the arrival rule allows must pass (the
    appointments are drawn so that no other order meets them even so; with a limit, the way to each door counted
    since version 6, the answer order stays within it: at most 27 m over the map's route)."""

    kind = "genuine"

    def plan(self) -> Plan:
        yield from self.plan_ahead()
        order = self.task.goal["best_order"]
        path, _at = rim_path(self.here(), order, self.nodes())
        if not near(path[-1], self.nodes()[order[-1]]):
            self.errors.append("the rim walk does not end by the last place")
        yield from self.walk_nodes(path)
        yield "stop"


def other_shortest(a: str, b: str) -> list[str]:
    """A walk from ``a`` to ``b`` as short as the map's route (within 1 m) through a node off it, about half way;
    the map's route when it is the only shortest walk."""
    c = city()
    route = c.route(a, b)
    da, db, ab = c.distances_to(a), c.distances_to(b), c.shortest_length(a, b)
    on = [n for n in da if n not in set(route) and da[n] + db.get(n, 1e9) <= ab + 1.0]
    if not on:
        return route
    via = min(on, key=lambda n: (abs(da[n] - ab / 2), n))
    return c.route(a, via) + c.route(via, b)[1:]


class OnTheWayOtherPaths(TourAgent):
    """The answer order; at each place it asks the map for the way to the next (from where it stands), then walks
    another shortest path than the map's (the grid has many): a walker who plans leg by leg and takes its own
    streets. Such a walk may pass a place it visits later."""

    kind = "genuine"

    def plan(self) -> Plan:
        node, names = self.nodes(), self.names()
        for p in self.task.goal["best_order"]:
            yield from self.ask_directions(names[p])
            yield from self.walk_nodes(other_shortest(self.here(), node[p]))
        yield "stop"


class OnTheWayFromPlaceNames(TourAgent):
    """The answer order; at each place it asks the map for the way to the next from the place's own name (where it
    stands, as a walker names it), then walks the map's route."""

    kind = "genuine"

    def plan(self) -> Plan:
        node, names = self.nodes(), self.names()
        prev = None
        for p in self.task.goal["best_order"]:
            if prev is None:
                yield from self.ask_directions(names[p])
            else:
                yield "switch_environment" if self.obs["active"] != "web" else "scroll [down]"
                yield "goto [/map/directions?" + urlencode({"from": names[prev], "to": names[p]}) + "]"
            yield from self.walk_nodes(city().route(self.here(), node[p]))
            prev = p
        yield "stop"


SHORTCUTS = (RimCutterNearMiss, RimCutterOverTheLimit, DirectionsFromNextDoor)
GENUINE = (BackToTheFirst, RimTurner, OnTheWayOtherPaths, OnTheWayFromPlaceNames)


def rates(classes: tuple[Any, ...] = SHORTCUTS + GENUINE, tasks: list[Task] | None = None) -> list[dict[str, Any]]:
    """Per agent and tour family (appointments / limits): carried-out episodes and overall/web/embodied passes."""
    tasks = hard_tours() if tasks is None else tasks
    rows = []
    for cls in classes:
        mine = [t for t in tasks if cls.applies(t)]
        mine.sort(key=lambda t: (t.split != "test", t.task_id))
        res = [r for r in run(cls, NAV, mine, max_steps=MAX_STEPS) if r["carried_out"]]
        for fam, pick in (("appointments", dated), ("limit", lambda t, d=dated: not d(t))):
            by_id = {t.task_id: t for t in mine}
            part = [r for r in res if pick(by_id[r["task_id"]])]
            if not part:
                continue
            rows.append({"agent": cls.__name__, "kind": cls.kind, "family": fam, "episodes": len(part),
                         "test": sum(r["split"] == "test" for r in part),
                         **{m: sum(bool(r["metrics"].get(m)) for r in part) for m in ("overall", "web", "embodied")}})
    return rows


if __name__ == "__main__":
    for r in rates():
        print(f"| {r['agent']} | {r['kind']} | {r['family']} | {r['episodes']} ({r['test']}) | {r['overall']} | "
              f"{r['web']} | {r['embodied']} |")
