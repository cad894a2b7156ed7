"""What the outdoor domains share: the street world, task validation, walking sub-goals, and the
oracle's street and map skills."""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from typing import Any
from urllib.parse import urlencode

from embodiedweb.agents.script import Plan, ScriptAgent
from embodiedweb.domains.base import Domain
from embodiedweb.tasks import Task, TaskError
from embodiedweb.worlds.base import EmbodiedWorld
from embodiedweb.worlds.street.world import VIEWS, StreetWorld


def city() -> Any:
    from embodiedweb.worlds.street.city import load_city

    return load_city()


#: A walk succeeds when it stops at the goal's node or this close to it along the streets (Touchdown and
#: VLN judge stops by such a radius; nodes are 10-15 m apart, so this is the goal node and its neighbours).
GOAL_RADIUS_M = 20.0


def near(node: str | None, goal: str, radius_m: float = GOAL_RADIUS_M) -> bool:
    """``node`` is ``goal`` or within ``radius_m`` of it by walking distance."""
    if node is None or node not in city().nodes:
        return False
    return node == goal or node in city().within_walk(goal, radius_m)


def _timed_path(world_state: dict[str, Any]) -> tuple[list[str], list[int]]:
    """The walk's nodes and the step each was reached at (a state without steps reads as all at step 0: the
    checks below then fail closed)."""
    path = list(world_state.get("path") or [])
    at = list(world_state.get("path_at") or [])
    return path, at if len(at) == len(path) else [0] * len(path)


def arrival(world_state: dict[str, Any], goal: str) -> tuple[int, int] | None:
    """``(index in the path, step)`` at which the walk first came within the goal radius of ``goal`` (None: it
    never did)."""
    path, at = _timed_path(world_state)
    return next(((k, t) for k, (node, t) in enumerate(zip(path, at, strict=True)) if near(node, goal)), None)


def arrival_step(world_state: dict[str, Any], goal: str) -> int | None:
    """The step at which the walk first came within the goal radius of ``goal`` (None: it never did)."""
    first = arrival(world_state, goal)
    return None if first is None else first[1]


def reached_since(world_state: dict[str, Any], goal: str, step: int) -> int | None:
    """The first step at or after ``step`` at which the walker was within the goal radius of ``goal``: ``step``
    itself when the node it stood on then is, else the step it reached such a node at (None: it never was).
    The pickup rule: an order placed at ``step`` is collected then (one truth for the checkers, through
    :func:`there_since`, and the shop's order status, :mod:`~embodiedweb.domains.outdoor.pickups`)."""
    path, at = _timed_path(world_state)
    first = max(bisect_right(at, step) - 1, 0)  # the node it stood on at ``step``
    c = city()
    around = c.within_walk(goal, GOAL_RADIUS_M) | {goal}  # (:func:`near`'s nodes, looked up once for the walk)
    return next((max(t, step) for node, t in zip(path[first:], at[first:], strict=True)
                 if node in around and node in c.nodes), None)


def there_since(world_state: dict[str, Any], goal: str, step: int) -> bool:
    """The walker was within the goal radius of ``goal`` at ``step`` or later: where it stood then, or a node
    it reached after (an order can only be picked up once it exists; :func:`reached_since`)."""
    return reached_since(world_state, goal, step) is not None


#: directions guide a walk only when the walker, as it asked, stood this close (by walking distance) to their route
DIRECTIONS_NEAR_M = 60.0


def stood_at(world_state: dict[str, Any], step: int) -> str | None:
    """The node the walker stood on at ``step`` (the last node of its path reached by then)."""
    path, at = _timed_path(world_state)
    return path[max(bisect_right(at, step) - 1, 0)] if path else None


#: directions guide a walk (or a tour's leg) only when, as they were asked for, at least this share of the way
#: was still ahead of the walker
GUIDED_SHARE = 0.25


def guided(world_state: dict[str, Any], directions: dict[str, Any], radius_m: float = DIRECTIONS_NEAR_M) -> bool:
    """Directions could guide the walk: when they were asked for (their ``at``), the walker stood within
    ``radius_m`` of their route (the map's shortest walk from ``from_node`` to ``to_node``), or on the block
    their start is on or ends at (a block's name, "W 47th St between 8th Ave & 9th Ave", which the map places at
    the block's middle node, or one of its corners: a walker anywhere on that block asked from where it stands). Directions from a corner
    far off, whose route the walker never stood near, tell it nothing about its own way."""
    here = stood_at(world_state, int(directions.get("at", 0)))
    frm, to = directions.get("from_node"), directions.get("to_node")
    if here is None or frm is None or to is None:
        return False
    c = city()
    if here != frm and frm in c.block_nodes(here):
        return True
    around = c.within_walk(here, radius_m) | {here}
    return any(n in around for n in c.route(frm, to) or [frm])


def walk_start(world_state: dict[str, Any], task: Task) -> str | None:
    """Where the walk began: the first node of the world's path (the task's start when nothing was recorded)."""
    return (world_state.get("path") or [task.embodied.get("start")])[0]


def way_ahead(world_state: dict[str, Any], directions: dict[str, Any], goal: str, way_m: float,
              since: int | None = None) -> bool:
    """Until the directions were asked for, the walk (from step ``since``, the leg's beginning; from the start by
    default) never came closer to ``goal`` than :data:`GUIDED_SHARE` of ``way_m`` (the walk's or the leg's whole
    way): directions fetched once the walker had found its way near the goal without them guided nothing, and
    walking back from there before asking changes nothing (its closest approach counts, not where it stood)."""
    path, at = _timed_path(world_state)
    asked = int(directions.get("at", 0))
    first = 0 if since is None else max(bisect_right(at, since) - 1, 0)
    last = bisect_right(at, asked)  # the nodes reached by the step it asked at
    if last <= first:
        return False
    to_goal = city().distances_to(goal)
    return min(to_goal.get(n, math.inf) for n in path[first:last]) >= GUIDED_SHARE * way_m


def checkpoints(path: list[str], n: int = 3) -> list[str]:
    """Up to ``n`` turn nodes of a route (where the street changes), as intermediate sub-goals."""
    c = city()
    turns = []
    for i in range(1, len(path) - 1):
        a, b = c.edge(path[i - 1], path[i]), c.edge(path[i], path[i + 1])
        if a and b and a[3] != b[3]:
            turns.append(path[i])
    if len(turns) > n:
        step = len(turns) / n
        turns = [turns[int(k * step)] for k in range(n)]
    return turns


class StreetDomain(Domain):
    """Base of the outdoor domains (navigation, shopping, traveling): the embedded city's street world
    (:class:`~embodiedweb.worlds.street.world.StreetWorld`); a task's ``embodied.start`` and its goal
    nodes (``node_fields``) must be nodes of the city. A ``stop`` counts as arriving within
    :data:`GOAL_RADIUS_M` walking distance of the goal node (:meth:`stopped_at`)."""

    #: check() reads the world and web states and the answer only
    completion_from_state = True

    world = StreetWorld
    report_family = "outdoor"

    def goal_distance(self, task: Task, world: EmbodiedWorld) -> float | None:
        """Walking distance from the agent's node to the goal node when the task has exactly one (``None`` for
        errands to several places)."""
        goals = [task.goal.get(f) for f in self.node_fields if task.goal.get(f)]
        node = getattr(getattr(world, "live", world), "node", None)
        if len(goals) != 1 or node is None:
            return None
        return city().distances_to(str(goals[0])).get(str(node), math.inf)

    def validate_task(self, task: Task) -> None:
        """Raise ``TaskError`` when ``embodied.start`` or a goal node field is not a city node, or
        ``embodied.view`` is not a street view style."""
        self.validate_start(task)
        for key in self.node_fields:
            if task.goal.get(key) not in city().nodes:
                raise TaskError(f"task {task.task_id!r}: field 'goal.{key}': unknown node {task.goal.get(key)!r}")

    @staticmethod
    def validate_start(task: Task) -> None:
        """Raise ``TaskError`` when ``embodied.start`` is not a city node or ``embodied.view`` no view style."""
        start = task.embodied.get("start")
        if start not in city().nodes:
            raise TaskError(f"task {task.task_id!r}: field 'embodied.start': unknown node {start!r}")
        view = task.embodied.get("view", "map")
        if view not in VIEWS:
            raise TaskError(f"task {task.task_id!r}: field 'embodied.view': {view!r} is not one of {', '.join(VIEWS)}")

    node_fields: tuple[str, ...] = ()

    @staticmethod
    def stopped_at(episode: Any, node: str) -> bool:
        """The episode ended with ``stop`` at ``node`` or within :data:`GOAL_RADIUS_M` of it along the street."""
        return episode.answer is not None and near(episode.world_state.get("node"), node)


#: result pages an oracle's wiki look-up reads per search word
MAX_RESULT_PAGES = 6


class StreetOracle(ScriptAgent):
    """Shared oracle skills: ask the map for directions, walk the shortest path, stop."""

    name = "oracle"

    def __init__(self, task: Task, perturb: random.Random | None = None) -> None:
        super().__init__()
        self.task = task
        self.perturb = perturb

    def here(self) -> str:
        """The node the walker stands on."""
        return self.env.unwrapped.world.semantic_state()["node"]

    def plain_map(self) -> bool:
        """The task's map session is plain (the hard tier): it takes no node ids."""
        return bool(self.task.web.get("sites", {}).get("map", {}).get("plain"))

    def find_article(self, slug: str, description: str) -> Plan:
        """Look a described place up the way an agent can: the wiki's search box with one word of the
        description at a time (its longer words first), paging through the results until the article's
        title is listed, then the article."""
        import re

        from embodiedweb.agents.script import find_bid
        from web_sites.wiki import catalog

        title = (catalog.get(slug) or {}).get("title", "")
        if self.obs["active"] != "web":
            yield "switch_environment"
        yield "goto [/wiki/]"
        words = sorted({w.lower() for w in re.findall(r"[^\W\d_][\w'’-]*", description) if len(w) >= 5},
                       key=lambda w: (-len(w), w))
        for word in words:
            box = find_bid(self.obs["web_text"], "searchbox", None)
            if box is None:
                break
            yield f"type [{box}] [{word}] [1]"
            for _ in range(MAX_RESULT_PAGES):
                if find_bid(self.obs["web_text"], "link", title) is not None:
                    yield f"goto [/wiki/article/{slug}]"
                    return
                nxt = find_bid(self.obs["web_text"], "link", "Next page")
                if nxt is None:
                    break
                yield f"click [{nxt}]"
        yield f"goto [/wiki/article/{slug}]"  # no search listed it (the discrete interface has no such goto)

    def ask_directions(self, to: str) -> Plan:
        """Switch to the web and open the map's directions from here to ``to``: from the node, or on a plain
        map from the corner's or block's name, which the walker's street signs show."""
        if self.obs["active"] != "web":
            yield "switch_environment"
        here = city().intersection_name(self.here()) if self.plain_map() else self.here()
        yield "goto [/map/directions?" + urlencode({"from": here, "to": to}) + "]"

    def walk_to(self, node: str, drop_last: bool = False, wrong_turn: bool = False) -> Plan:
        """Switch to the street and walk the route to ``node``; may stop short or take one wrong turn and quit."""
        if self.obs["active"] != "embodied":
            yield f"switch_environment [walk to {node}]"
        path = city().route(self.here(), node)
        steps = path[1:]
        if drop_last:  # stop short, clearly outside the goal radius
            while steps and city().shortest_length(steps[-1], node) <= 2 * GOAL_RADIUS_M:
                steps.pop()
        for i, nxt in enumerate(steps):
            if wrong_turn and i == len(steps) // 2:
                nbs = [nb for nb, *_ in city().neighbors(self.here()) if nb != nxt]
                if nbs:
                    yield f"move [{nbs[0]}]"
                    return
            yield f"move [{nxt}]"
