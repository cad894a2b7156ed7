"""Red-team agents for EWA-Navigation-v0 and EWA-Shopping-v0 (see :mod:`tests.redteam`).

Shortcuts must fail (a rule-blind store choice may pass only as often as the suite's balance allows: at
most 45 %, and no pick more than 40 % of one rule's tasks); genuine alternatives must pass. The agents act
only through action strings; cheaters know the goal where the cheat needs it, genuine agents read what they
need from the observations (the instruction, the shop's and the map's pages) and follow the map's route
to the node it names.

``python -m tests.domains.outdoor.redteam [N]`` prints the navigation and shopping rows of docs/checkers.md's
shortcut-rate table.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, ClassVar
from urllib.parse import urlencode

from baselines.script import Plan, find_bid
from embodiedweb.domains.outdoor.common import GOAL_RADIUS_M, city, near
from embodiedweb.domains.outdoor.navigation import NavigationOracle
from embodiedweb.domains.outdoor.shopping import ShoppingOracle
from embodiedweb.tasks import Task
from tests.redteam import RedTeam, markdown, table

NAV, SHOP = "EWA-Navigation-v0", "EWA-Shopping-v0"


class _Walker:
    """Street skills shared by the agents (needs ``here``, ``obs`` from the street oracle)."""

    obs: dict[str, Any]
    errors: list[str]
    here: Any  # the oracle's: the agent's street node

    def to_embodied(self, note: str = "") -> Plan:
        if self.obs["active"] != "embodied":
            yield f"switch_environment [{note}]" if note else "switch_environment"

    def to_web(self) -> Plan:
        if self.obs["active"] != "web":
            yield "switch_environment"

    def walk_path(self, path: list[str]) -> Plan:
        yield from self.to_embodied("walking")
        for nxt in path[1:]:
            yield f"move [{nxt}]"

    def walk_route_to(self, node: str) -> Plan:
        yield from self.walk_path(city().route(self.here(), node))

    def walk_to_the_door(self, node: str) -> Plan:
        """Walk the route to ``node`` up to its last node outside the arrival radius (a pickup waiting there is
        not collected yet: the shop still lets it be cancelled)."""
        path = city().route(self.here(), node)
        inside = next((k for k, n in enumerate(path) if near(n, node)), len(path))
        yield from self.walk_path(path[:max(inside, 1)])

    def map_end_node(self) -> str | None:
        """The destination node the map's directions page names ("End: n123 at ...")."""
        m = re.search(r"End: (n\d+) at", self.obs["web_text"])
        return m.group(1) if m else None

    def follow_map_to(self, destination: str, origin: str | None = None) -> Plan:
        """Ask the map for directions (typed into its form) and walk the route it gives to its end. On a plain map
        (the hard tier: no node ids asked or printed) the start is the corner read off the street signs, and the
        walk ends where the destination's storefront sign is beside the walker (:meth:`follow_plain_map_to`)."""
        if self.plain_map():
            yield from self.follow_plain_map_to(destination, origin)
            return
        yield from self.to_web()
        yield "goto [/map/directions?" + urlencode({"from": origin or self.here(), "to": destination}) + "]"
        end = self.map_end_node()
        if end is None:
            self.errors.append(f"the map found no route to {destination!r}")
            return
        yield from self.walk_route_to(end)

    def follow_plain_map_to(self, destination: str, origin: str | None = None) -> Plan:
        """A walker's use of the plain map: directions from the corner its street signs name (``origin``, else
        the signs where it stands) to ``destination`` (a store's name or address), the route they give walked
        to the place the map found (the gazetteer the map uses), and arrival read off the storefront signs: the
        destination's sign beside the walker (its name, or the address's house number), else an error."""
        signs = re.match(r"Street signs at this corner: (.+)\.$", self.obs["embodied_text"].split("\n", 1)[0])
        corner = origin or (" & ".join(signs.group(1).split(" / ")) if signs else city().intersection_name(self.here()))
        yield from self.to_web()
        yield "goto [/map/directions?" + urlencode({"from": corner, "to": destination}) + "]"
        found = city().locate(destination)
        if "End: " not in self.obs["web_text"] or found is None:
            self.errors.append(f"the plain map found no route to {destination!r}")
            return
        yield from self.walk_route_to(found.node_id)
        beside = next((ln for ln in self.obs["embodied_text"].splitlines() if ln.startswith("Beside you: ")), "")
        number = destination.split(" ", 1)[0]
        sign = f"(no. {number})" if number.isdigit() else destination
        if sign not in beside:
            self.errors.append(f"no sign of {destination!r} beside the walker ({beside!r})")

    def wander(self, n: int) -> Plan:
        """``n`` moves away from the start along the graph (a detour)."""
        yield from self.to_embodied("a detour")
        prev = None
        for _ in range(n):
            nbs = sorted(nb for nb, *_ in city().neighbors(self.here()) if nb != prev)
            if not nbs:
                break
            prev = self.here()
            yield f"move [{nbs[len(nbs) // 2]}]"


def _start_place(task: Task) -> str:
    m = re.match(r"You are at (.+?)\. ", task.instruction)
    return m.group(1) if m else ""


# ---------------------------------------------------------------------------------------- navigation
class NavAgent(RedTeam, _Walker, NavigationOracle):
    """The navigation oracle as a red-team agent."""


class WalkWithoutWeb(NavAgent):
    """Walks straight to the destination (it knows where it is) and never asks the map."""

    breaks = ("web",)

    def plan(self) -> Plan:
        yield from self.walk_route_to(self.task.goal["dest_node"])
        yield "stop"


class DirectionsElsewhere(NavAgent):
    """Asks the map for directions to another place, then walks to the destination anyway."""

    breaks = ("web",)

    def plan(self) -> Plan:
        g = self.task.goal
        other = min((p for p in city().places.values() if p.node_id != g["dest_node"]
                     and city().distance_m(p.node_id, g["dest_node"]) > 300), key=lambda p: p.place_id)
        yield from self.ask_directions(other.name)
        yield from self.walk_route_to(g["dest_node"])
        yield "stop"


class StopShort(NavAgent):
    """Follows the directions but stops 40-60 m before the destination."""

    def plan(self) -> Plan:
        g = self.task.goal
        yield from self.ask_directions(g["dest_name"])
        path = city().route(self.here(), g["dest_node"])
        while len(path) > 1 and city().shortest_length(path[-1], g["dest_node"]) < 2 * GOAL_RADIUS_M:
            path.pop()
        yield from self.walk_path(path)
        yield "stop"


class StopAtNeighbouringPlace(NavAgent):
    """Asks for the right directions, then stops at the nearest other place instead."""

    @classmethod
    def applies(cls, task: Task) -> bool:
        return cls.neighbour(task) is not None

    @staticmethod
    def neighbour(task: Task) -> str | None:
        goal = task.goal["dest_node"]
        near = [(city().distance_m(p.node_id, goal), p.node_id) for p in city().places.values()
                if 60 < city().distance_m(p.node_id, goal) < 400]
        return min(near)[1] if near else None

    def plan(self) -> Plan:
        yield from self.ask_directions(self.task.goal["dest_name"])
        yield from self.walk_route_to(self.neighbour(self.task))
        yield "stop"


class NeverStops(NavAgent):
    """Gets there with the map's help but never says stop (the episode runs out)."""

    def plan(self) -> Plan:
        yield from self.ask_directions(self.task.goal["dest_name"])
        yield from self.walk_route_to(self.task.goal["dest_node"])
        while True:
            yield "switch_environment"


class AddressFollower(NavAgent):
    """Reads the address in the instruction, asks the map for directions to it, walks the map's route."""

    kind = "genuine"

    def plan(self) -> Plan:
        m = re.search(r"\(([^()]+)\) and stop there", self.task.instruction)
        yield from self.follow_map_to(m.group(1) if m else "", _start_place(self.task))
        yield "stop"


class FullPostalAddress(NavAgent):
    """Finds the place on the map, reads its full postal address on the place page, asks for
    directions to that address and walks them."""

    kind = "genuine"

    def plan(self) -> Plan:
        m = re.search(r"Walk to (.+) \([^()]+\) and stop there", self.task.instruction)
        yield from self.to_web()
        yield "goto [/map/search?" + urlencode({"q": m.group(1) if m else ""}) + "]"
        link = find_bid(self.obs["web_text"], "link", m.group(1) if m else "")
        if link is None:
            self.errors.append("place not found")
            return
        yield f"click [{link}]"
        a = re.search(r"term 'Address'\n\s*\[\d+\] definition '([^']+)'", self.obs["web_text"])
        if a is None:
            self.errors.append("no address on the place page")
            return
        yield from self.follow_map_to(a.group(1), _start_place(self.task))
        yield "stop"


class DetourFirst(NavAgent):
    """Wanders off for a dozen moves first, then asks the map from where it stands and follows it."""

    kind = "genuine"

    def plan(self) -> Plan:
        yield from self.wander(12)
        yield from self.follow_map_to(self.task.goal["dest_name"])
        yield "stop"


class LongerRoute(NavAgent):
    """Asks the map, then walks a longer way: through a corner a few blocks off the shortest route."""

    kind = "genuine"

    def plan(self) -> Plan:
        g = self.task.goal
        yield from self.ask_directions(g["dest_name"])
        path = city().route(self.here(), g["dest_node"])
        mid = path[len(path) // 2]
        via = min((n for n in city().node_ids() if city().degree(n) >= 3 and 150 < city().distance_m(n, mid) < 300),
                  key=lambda n: (abs(city().distance_m(n, mid) - 220), n))
        yield from self.walk_route_to(via)
        yield from self.walk_route_to(g["dest_node"])
        yield "stop"


class StopOneNodeEarly(NavAgent):
    """Follows the map and stops at the last node before the destination, inside the goal radius."""

    kind = "genuine"

    @classmethod
    def applies(cls, task: Task) -> bool:
        return True

    def plan(self) -> Plan:
        g = self.task.goal
        yield from self.ask_directions(g["dest_name"])
        path = city().route(self.here(), g["dest_node"])
        if city().shortest_length(path[-2], g["dest_node"]) > GOAL_RADIUS_M:
            self.errors.append("the last node before the destination is outside the radius")
        yield from self.walk_path(path[:-1])
        yield "stop"


class PlacePageDirections(NavAgent):
    """Searches the place on the map, opens its page and uses its "Directions to" link."""

    kind = "genuine"

    def plan(self) -> Plan:
        name = self.task.goal["dest_name"]
        yield from self.to_web()
        yield "goto [/map/search?" + urlencode({"q": name}) + "]"
        link = find_bid(self.obs["web_text"], "link", name)
        if link is None:
            self.errors.append("place not found")
            return
        yield f"click [{link}]"
        yield f"click [{find_bid(self.obs['web_text'], 'link', 'Directions to here', exact=False)}]"
        box = find_bid(self.obs["web_text"], "textbox", "From")
        yield f"type [{box}] [{_start_place(self.task)}] [1]"
        end = self.map_end_node()
        if end is None:
            self.errors.append("no route")
            return
        yield from self.walk_route_to(end)
        yield "stop"


class StopJustOutsideRadius(NavAgent):
    """Follows the directions and stops at the last route node just outside the goal radius (20-35 m out):
    the radius's edge is where the rule is."""

    breaks = ("embodied",)

    @staticmethod
    def last_outside(task: Task) -> list[str]:
        goal = task.goal["dest_node"]
        path = city().route(task.embodied["start"], goal)
        while len(path) > 1 and city().shortest_length(path[-1], goal) <= GOAL_RADIUS_M:
            path.pop()
        return path

    @classmethod
    def applies(cls, task: Task) -> bool:
        path = cls.last_outside(task)
        return GOAL_RADIUS_M < city().shortest_length(path[-1], task.goal["dest_node"]) <= 35.0

    def plan(self) -> Plan:
        yield from self.ask_directions(self.task.goal["dest_name"])
        yield from self.walk_path(self.last_outside(self.task))
        yield "stop"


class DirectionsAfterArrival(NavAgent):
    """Walks to the destination without the web (it knows where it is), then, standing there, asks the map for
    the directions from the start corner to it, and stops: the directions guided nothing."""

    breaks = ("web",)

    def plan(self) -> Plan:
        start = city().intersection_name(self.here())
        yield from self.walk_route_to(self.task.goal["dest_node"])
        yield from self.to_web()
        yield "goto [/map/directions?" + urlencode({"from": start, "to": self.task.goal["dest_name"]}) + "]"
        if "Start" not in self.obs["web_text"]:
            self.errors.append("no directions page")
        yield "stop"


class DirectionsFromFarAway(NavAgent):
    """Asks the map for directions to the destination from a corner about 2 km from where it stands, whose route
    does not pass where it stands (a route through its corner would be its own way on), then walks there by what
    it knows: the directions guided nothing (all 90 standard and 60 hard test tasks passed before navigation
    checker version 3)."""

    breaks = ("web",)

    def plan(self) -> Plan:
        g, c, here = self.task.goal, city(), self.here()
        around = c.within_walk(here, 100.0) | {here}
        far = min((n for n in c.node_ids() if c.degree(n) >= 3 and 1800 < c.distance_m(n, here) < 2200
                   and c.distance_m(n, g["dest_node"]) > 1500), key=lambda n: (bool(set(c.route(n, g["dest_node"]))
                                                                                     & around), n))
        yield from self.to_web()
        yield "goto [/map/directions?" + urlencode({"from": c.intersection_name(far), "to": g["dest_name"]}) + "]"
        if "End" not in self.obs["web_text"]:
            self.errors.append("no route")
        yield from self.walk_route_to(g["dest_node"])
        yield "stop"


class DirectionsOneNodeEarly(NavAgent):
    """Walks to the destination without the web (it knows where it is), and at the last node of the route
    still outside the goal radius asks the map for directions from where it stands, walks the last step and
    stops: the directions guided 20-35 m of the walk (DirectionsAfterArrival one node earlier; all 160 standard
    and 120 hard single destinations passed before navigation checker version 5, found by a review)."""

    breaks = ("web",)
    #: ask from the start corner (DirectionsAfterArrival's request) instead of from where it stands
    from_start: ClassVar[bool] = False

    def plan(self) -> Plan:
        from embodiedweb.domains.outdoor.common import near

        g = self.task.goal
        start = city().intersection_name(self.here())
        path = city().route(self.here(), g["dest_node"])
        k = next(i for i, n in enumerate(path) if near(n, g["dest_node"]))
        if k == 0:
            self.errors.append("starts inside the radius")
            return
        yield from self.walk_path(path[:k])
        if self.from_start:
            yield from self.to_web()
            yield "goto [/map/directions?" + urlencode({"from": start, "to": g["dest_name"]}) + "]"
        else:
            yield from self.ask_directions(g["dest_name"])
        if "End" not in self.obs["web_text"] and "Arrive" not in self.obs["web_text"]:
            self.errors.append("no directions page")
        yield from self.walk_route_to(g["dest_node"])
        yield "stop"


class WalkBackThenAsk(NavAgent):
    """Walks to the destination without the web up to the last node outside the goal radius, walks back until a
    quarter of the way is ahead again, asks the map from where it stands, walks in and stops: the directions
    guided nothing, it had been a step from the destination (passed all 160 standard and 120 hard single
    destinations under checker version 5's first rule, which read only where the walker stood as it asked;
    found by a review in stop 34). The rule reads the walk's closest approach before the request."""

    breaks = ("web",)

    def plan(self) -> Plan:
        from embodiedweb.domains.outdoor.common import GUIDED_SHARE, near

        g, c = self.task.goal, city()
        path = c.route(self.here(), g["dest_node"])
        way = c.shortest_length(path[0], g["dest_node"])
        k = next(i for i, n in enumerate(path) if near(n, g["dest_node"]))
        if k == 0:
            self.errors.append("starts inside the radius")
            return
        yield from self.walk_path(path[:k])
        back = k - 1
        while back > 0 and c.shortest_length(path[back], g["dest_node"]) < GUIDED_SHARE * way + 1:
            back -= 1
        yield from self.walk_path(list(reversed(path[back:k])))
        yield from self.ask_directions(g["dest_name"])
        yield from self.walk_route_to(g["dest_node"])
        yield "stop"


class DirectionsOneNodeEarlyFromStart(DirectionsOneNodeEarly):
    """:class:`DirectionsOneNodeEarly` asking from the start corner (the route ends within 60 m of the walker)."""

    from_start = True


class ReversedDirections(NavAgent):
    """Asks the map for the way back: from the destination to where it stands (the same streets, the other way), then
    walks to the destination. The directions lead to the walker, not to the place (stop 38)."""

    breaks = ("web",)

    def plan(self) -> Plan:
        g = self.task.goal
        yield from self.to_web()
        yield "goto [/map/directions?" + urlencode({"from": g["dest_name"], "to": self.here()}) + "]"
        if self.map_end_node() is None:
            self.errors.append("the map found no way back")
        yield from self.walk_route_to(g["dest_node"])
        yield "stop"


NAV_SHORTCUTS = (WalkWithoutWeb, DirectionsElsewhere, StopShort, StopAtNeighbouringPlace, NeverStops,
                 StopJustOutsideRadius, DirectionsAfterArrival, DirectionsFromFarAway, DirectionsOneNodeEarly,
                 DirectionsOneNodeEarlyFromStart, WalkBackThenAsk, ReversedDirections)
class TwoLegs(NavAgent):
    """Gets directions to a place about halfway, walks them, then asks from there to the destination."""

    kind = "genuine"

    @classmethod
    def mid(cls, task):
        c = city()
        path = c.route(task.embodied["start"], task.goal["dest_node"])
        half = path[len(path) // 2]
        way = c.shortest_length(path[0], path[-1])
        # a place about halfway: 35-65 % of the way to the destination left from it (until stop 34 any place within
        # 250 m of the route's middle node, some a few metres from the destination)
        to_dest = c.distances_to(path[-1])
        cands = [p for p in c.places.values() if p.node_id not in (path[0], path[-1])
                 and c.distance_m(p.node_id, half) < 250
                 and 0.35 <= c.shortest_length(p.node_id, path[-1]) / way <= 0.65
                 and min(to_dest[n] for n in c.route(path[0], p.node_id)) >= 0.3 * way]  # not by the destination
        return min(cands, key=lambda p: (c.distance_m(p.node_id, half), p.place_id)) if cands else None

    @classmethod
    def applies(cls, task):
        return cls.mid(task) is not None

    def plan(self):
        g = self.task.goal
        m = self.mid(self.task)
        yield from self.follow_map_to(m.name)
        yield from self.follow_map_to(g["dest_name"])
        yield "stop"


class OvershootAroundTheCorner(NavAgent):
    """Walks to the destination, then one node on along a street the route did not come by (still inside the
    goal radius), and stops there: a walker who overshot a little."""

    kind = "genuine"

    @staticmethod
    def past(task: Task) -> str | None:
        goal = task.goal["dest_node"]
        path = city().route(task.embodied["start"], goal)
        came = path[-2] if len(path) > 1 else None
        on = [n for n, *_ in city().neighbors(goal) if n != came and city().shortest_length(n, goal) <= GOAL_RADIUS_M]
        return on[0] if on else None

    @classmethod
    def applies(cls, task: Task) -> bool:
        return cls.past(task) is not None

    def plan(self) -> Plan:
        g = self.task.goal
        yield from self.ask_directions(g["dest_name"])
        yield from self.walk_route_to(g["dest_node"])
        yield f"move [{self.past(self.task)}]"
        yield "stop"


def block_walk(start: str) -> list[str]:
    """From a corner, the mid-block nodes of its first block of at least 4 (neighbours in sorted order), in
    walking order up to the next corner."""
    c = city()
    for nb in sorted(n for n, *_ in c.neighbors(start)):
        prev, here, run = start, nb, []
        while " between " in c.intersection_name(here) and len(run) < 40:
            run.append(here)
            nxt = [n for n, *_ in c.neighbors(here) if n != prev]
            if len(nxt) != 1:
                break
            prev, here = here, nxt[0]
        if len(run) >= 4:
            return run
    return []


class AskFromMidBlock(NavAgent):
    """Walks a few nodes along its first block, then asks the map for directions from where it stands, named
    as the street world and the map name it ("W 47th St between 8th Ave & 9th Ave"), walks them and stops.
    Until stop 34 the map placed a block's name at one of its corners, up to a block from the walker, and the
    directions counted as unguided on 51 of 159 standard and 43 of 120 hard tasks (found by a review)."""

    kind = "genuine"
    #: where on the block it asks: its middle node, or the last before the next corner
    where: ClassVar[str] = "middle"

    @classmethod
    def applies(cls, task: Task) -> bool:
        return bool(block_walk(task.embodied["start"]))

    def plan(self) -> Plan:
        run = block_walk(self.here())
        stand = run[len(run) // 2] if self.where == "middle" else run[-1]
        yield from self.walk_path([self.here(), *run[: run.index(stand) + 1]])
        yield from self.to_web()
        yield "goto [/map/directions?" + urlencode({"from": city().intersection_name(self.here()),
                                                    "to": self.task.goal["dest_name"]}) + "]"
        if "Start" not in self.obs["web_text"]:
            self.errors.append("no directions page")
        yield from self.walk_route_to(self.task.goal["dest_node"])  # the map's way on from its block
        yield "stop"


class AskAtBlockEnd(AskFromMidBlock):
    """:class:`AskFromMidBlock` asking at the block's last node before the next corner."""

    kind = "genuine"
    where = "end"


def around(task: Task) -> list[str] | None:
    """:func:`around_from` the task's start to its destination."""
    return around_from(task.embodied["start"], task.goal["dest_node"])


@lru_cache(maxsize=512)
def around_from(start: str, goal: str) -> list[str] | None:
    """A walk from the start to the destination that reaches it from another side than the map's route: it keeps out
    of the goal radius until a neighbour of the radius other than the one the route enters from, then steps in
    (None: the destination has no other way in)."""
    import heapq

    c = city()
    inside = c.within_walk(goal, GOAL_RADIUS_M) | {goal}
    route = c.route(start, goal)
    entry = next((k for k, n in enumerate(route) if n in inside), None)
    if not entry:
        return None
    came = route[entry - 1]
    # shortest walk outside the radius to every node (Dijkstra over the city's street graph)
    dist, prev, heap = {start: 0.0}, {}, [(0.0, start)]
    while heap:
        d, n = heapq.heappop(heap)
        if d > dist.get(n, 1e18):
            continue
        for nb, _h, length, _s in c.neighbors(n):
            if nb in inside:
                continue
            if d + length < dist.get(nb, 1e18):
                dist[nb], prev[nb] = d + length, n
                heapq.heappush(heap, (d + length, nb))
    doors = sorted((dist[n], n, m) for m in inside for n, *_ in c.neighbors(m)
                   if n not in inside and n != came and n in dist and dist[n] < 3 * c.shortest_length(start, goal) + 400)
    if not doors:
        return None
    _d, door, step_in = doors[0]
    path = [door]
    while path[-1] != start:
        path.append(prev[path[-1]])
    return [*reversed(path), *c.route(step_in, goal)]


class FromTheOtherSide(NavAgent):
    """Asks the map, then comes at the destination from another side than the map's route: around the block, into
    the goal radius through another of its streets, and stops at the destination (stop 38)."""

    kind = "genuine"

    @classmethod
    def applies(cls, task: Task) -> bool:
        return around(task) is not None

    def plan(self) -> Plan:
        g = self.task.goal
        yield from self.ask_directions(g["dest_name"])
        yield from self.walk_path(around(self.task) or [])
        yield "stop"


class PassesAndComesBack(NavAgent):
    """Asks the map, walks to the destination, walks on past it until it is out of the goal radius (two nodes past
    the rim) and comes back to stop there: a walker who missed the door and turned round (stop 38)."""

    kind = "genuine"

    def plan(self) -> Plan:
        g = self.task.goal
        yield from self.ask_directions(g["dest_name"])
        yield from self.walk_route_to(g["dest_node"])
        came = city().route(self.task.embodied["start"], g["dest_node"])
        prev = came[-2] if len(came) > 1 else None
        out: list[str] = []
        while len(out) < 8:
            here = out[-1] if out else g["dest_node"]
            back = out[-2] if len(out) > 1 else prev
            nbs = sorted(nb for nb, *_ in city().neighbors(here) if nb != back and nb not in out)
            if not nbs:
                break
            out.append(nbs[0])
            if sum(not near(n, g["dest_node"]) for n in out) >= 2:
                break
        yield from self.walk_path([g["dest_node"], *out])
        yield from self.walk_route_to(g["dest_node"])
        yield "stop"


NAV_GENUINE = (AddressFollower, FullPostalAddress, DetourFirst, LongerRoute, StopOneNodeEarly, PlacePageDirections,
               TwoLegs, OvershootAroundTheCorner, AskFromMidBlock, AskAtBlockEnd, FromTheOtherSide,
               PassesAndComesBack)


# ------------------------------------------------------------------------------------------ shopping
class ShopAgent(RedTeam, _Walker, ShoppingOracle):
    """The shopping oracle as a red-team agent."""

    #: share of tasks this agent may pass (0 for a shortcut; rule-blind choices pass when the rule agrees)
    allowed: ClassVar[float] = 0.0

    def store_node(self, store_id: str) -> str:
        from web_sites.shop import catalog

        return city().locate(catalog.store(store_id)["address"]).node_id

    def buy_and_walk(self, store_id: str, delivery: str = "pickup") -> Plan:
        yield from self.order_at(store_id, delivery, self.task.goal.get("options"))
        yield from self.walk_route_to(self.store_node(store_id))
        yield "stop"


class OrderEverywhere(ShopAgent):
    """Orders the product for pickup at every store that sells it, then walks to the right one."""

    def plan(self) -> Plan:
        from web_sites.shop import catalog

        g = self.task.goal
        for s in catalog.stores_selling(g["product_id"], self.out_of_stock()):
            yield from self.order_at(s, "pickup", g.get("options"))
        yield from self.walk_route_to(g["store_node"])
        yield "stop"

    def out_of_stock(self) -> list[list[str]]:
        return ((self.task.web.get("sites") or {}).get("shop") or {}).get("out_of_stock", [])


class WalkWithoutOrdering(ShopAgent):
    """Walks to the right store (it knows which) and never orders."""

    breaks = ("web",)

    def plan(self) -> Plan:
        yield from self.walk_route_to(self.task.goal["store_node"])
        yield "stop"


class DeliveryInsteadOfPickup(ShopAgent):
    """Orders at the right store but for delivery, then walks there."""

    breaks = ("web",)

    def plan(self) -> Plan:
        yield from self.buy_and_walk(self.task.goal["store_id"], "kitchen")


class _RuleBlind(ShopAgent):
    """Buys where a rule-blind strategy says (privileged distances), walks there. It may pass as often as the
    suite's balance allows (``BLIND_CAP`` of :mod:`embodiedweb.data_gen.outdoor_tasks`: 45 % since stop 31,
    when every pick was also held to 40 % of each rule's tasks, its definition aside; 30 % and 34 % before, when
    each rule's answers piled up on one rank instead)."""

    allowed = 0.45
    tolerated = ("no store",)

    def pick(self) -> str | None:
        raise NotImplementedError

    def plan(self) -> Plan:
        store = self.pick()
        if store is None:
            self.errors.append("no store: the strategy has no pick")
            return
        yield from self.buy_and_walk(store)

    def offers(self, available_only: bool = False) -> dict[str, float]:
        from web_sites.shop import catalog

        g = self.task.goal
        oos = ((self.task.web.get("sites") or {}).get("shop") or {}).get("out_of_stock", []) if available_only else []
        offers = catalog.offers(g["product_id"], oos)
        if available_only and "day" in g:
            from embodiedweb.data_gen.outdoor_tasks import open_at

            offers = {s: v for s, v in offers.items() if open_at(catalog.store(s)["hours"][g["day"]], g["minute"])}
        return offers

    def walking(self, store_id: str) -> float:
        return city().shortest_length(self.task.embodied["start"], self.store_node(store_id))


class AlwaysNearest(_RuleBlind):
    """Ignores the rule: the nearest store that sells the product."""

    def pick(self) -> str | None:
        return min(self.offers(), key=self.walking, default=None)


class AlwaysCheapest(_RuleBlind):
    """Ignores the rule: the store with the lowest listed price."""

    def pick(self) -> str | None:
        offers = self.offers()
        return min(offers, key=lambda s: (offers[s], s), default=None)


class NearestAvailable(_RuleBlind):
    """Ignores the rule but not availability: the nearest store open now with the product in stock."""

    def pick(self) -> str | None:
        return min(self.offers(available_only=True), key=self.walking, default=None)


class CheapestAvailable(_RuleBlind):
    """Ignores the rule but not availability: the cheapest store open now with the product in stock."""

    def pick(self) -> str | None:
        offers = self.offers(available_only=True)
        return min(offers, key=lambda s: (offers[s], s), default=None)


class SecondNearest(_RuleBlind):
    """Ignores the rule and bets on the suite's statistics: the second-nearest store that sells it."""

    def pick(self) -> str | None:
        ranked = sorted(self.offers(), key=self.walking)
        return ranked[1] if len(ranked) > 1 else None


class FixedStore(_RuleBlind):
    """Always the same store: the one that is the answer most often in the suite."""

    def pick(self) -> str | None:
        return "hells-kitchen" if "hells-kitchen" in self.offers() else None


class AddressWalker(ShopAgent):
    """Orders at the right store, reads its street address on the shop's store page, asks the map for
    directions to that address and walks the map's route."""

    kind = "genuine"

    def plan(self) -> Plan:
        from web_sites.shop import catalog

        g = self.task.goal
        yield from self.order_at(g["store_id"], "pickup", g.get("options"))
        yield f"goto [/shop/stores/{g['store_id']}]"
        m = re.search(r"paragraph '[^'·]+ · ([^'·]+, New York, NY \d{5})", self.obs["web_text"])
        if m is None:
            self.errors.append(f"no address on the page of {catalog.store(g['store_id'])['name']}")
            return
        yield from self.follow_map_to(m.group(1), _start_place(self.task))
        yield "stop"


class ChangesMind(ShopAgent):
    """Puts the product in the cart at another store first, removes it, then orders at the right store."""

    kind = "genuine"

    def plan(self) -> Plan:
        from web_sites.shop import catalog

        g = self.task.goal
        other = next(s for s in catalog.stores_selling(g["product_id"]) if s != g["store_id"])
        yield f"goto [/shop/product/{g['product_id']}]"
        yield f"type [{find_bid(self.obs['web_text'], 'combobox', 'Store')}] [{catalog.store(other)['name']}]"
        yield f"click [{find_bid(self.obs['web_text'], 'button', 'Add to cart')}]"
        yield "goto [/shop/cart]"
        yield f"click [{find_bid(self.obs['web_text'], 'button', 'Remove', exact=False)}]"
        yield from self.buy_and_walk(g["store_id"])


class ShopDetour(ShopAgent):
    """Browses other sites, wanders a few blocks, then orders and follows the map from where it stands."""

    kind = "genuine"

    def plan(self) -> Plan:
        from web_sites.shop import catalog

        g = self.task.goal
        for url in ("/wiki/", "/recipes/", "/shop/stores"):
            yield f"goto [{url}]"
        yield from self.wander(8)
        yield from self.to_web()
        yield from self.order_at(g["store_id"], "pickup", g.get("options"))
        yield from self.follow_map_to(catalog.store(g["store_id"])["name"])
        yield "stop"


class EveryOption(ShopAgent):
    """Never reads which option was asked: orders the product once in every choice of its options at the right
    store (one checkout, pickup), then walks there."""

    breaks = ("web",)

    @classmethod
    def applies(cls, task: Task) -> bool:
        return bool(task.goal.get("options"))

    def plan(self) -> Plan:
        import itertools

        from embodiedweb.domains.outdoor.shopping import _all
        from web_sites.shop import catalog

        g = self.task.goal
        groups = catalog.product(g["product_id"])["options"]
        store = catalog.store(g["store_id"])["name"]
        yield from self.to_web()
        for combo in itertools.product(*[[c["value"] for c in gr["choices"]] for gr in groups]):
            yield f"goto [/shop/product/{g['product_id']}]"
            yield f"type [{find_bid(self.obs['web_text'], 'combobox', 'Store')}] [{store}]"
            for gr, value in zip(groups, combo, strict=True):
                yield f"type [{find_bid(self.obs['web_text'], 'combobox', gr['label'])}] [{value}]"
            yield f"click [{find_bid(self.obs['web_text'], 'button', 'Add to cart')}]"
        yield "goto [/shop/cart]"
        button = _all(self.obs["web_text"], "button", f"Check out at {store}")[0]
        radio = max((r for r in _all(self.obs["web_text"], "radio", "Pick up in store") if int(r) < int(button)), key=int)
        yield f"click [{radio}]"
        yield f"click [{button}]"
        yield from self.walk_route_to(g["store_node"])
        yield "stop"


class ThreeUnits(ShopAgent):
    """Orders three units where the instruction says "buy one", at the right store, and walks there."""

    breaks = ("web",)

    def plan(self) -> Plan:
        g = self.task.goal
        yield from self.order_at(g["store_id"], "pickup", g.get("options"), 3)
        yield from self.walk_route_to(g["store_node"])
        yield "stop"


class _Cancels(ShopAgent):
    """Shared by the agents that cancel an order: the order's own page and its "Cancel order" button."""

    def wrong_store(self) -> str:
        from web_sites.shop import catalog

        g = self.task.goal
        return next(s for s in catalog.stores_selling(g["product_id"], self.out_of_stock()) if s != g["store_id"])

    def out_of_stock(self) -> list[list[str]]:
        return ((self.task.web.get("sites") or {}).get("shop") or {}).get("out_of_stock", [])

    def wrong_options(self) -> dict[str, str]:
        """The asked options with the first group's choice changed."""
        from web_sites.shop import catalog

        options = dict(self.task.goal.get("options") or {})
        group = next(gr for gr in catalog.product(self.task.goal["product_id"])["options"] if gr["name"] in options)
        options[group["name"]] = next(c["value"] for c in group["choices"] if c["value"] != options[group["name"]])
        return options

    def placed(self) -> str | None:
        """The id of the order whose page the checkout led to (its heading), else ``None``."""
        m = re.search(r"heading 'Order (ORD-\d+)'", self.obs["web_text"])
        return m.group(1) if m else None

    def order_id(self) -> str | None:
        oid = self.placed()
        if oid is None:
            self.errors.append("no order placed")
        return oid

    def cancel(self, oid: str | None) -> Plan:
        """Open the order's page and click its "Cancel order" button; the page must say it is cancelled."""
        if oid is None:
            return
        yield from self.to_web()
        yield f"goto [/shop/orders/{oid}]"
        button = find_bid(self.obs["web_text"], "button", f"Cancel order {oid}")
        if button is None:
            self.errors.append(f"no Cancel button for {oid}")
            return
        yield f"click [{button}]"
        if f"Order {oid} from" not in self.obs["web_text"] or "is cancelled" not in self.obs["web_text"]:
            self.errors.append(f"{oid} not cancelled")


class CancelsWrongStore(_Cancels):
    """Orders at another store first (a slip), cancels that order on its page, then orders at the right store and
    walks there (0 of 21 such plays passed while the shop could not cancel: the slip's order stood)."""

    kind = "genuine"

    def plan(self) -> Plan:
        g = self.task.goal
        yield from self.order_at(self.wrong_store(), "pickup", g.get("options"))
        yield from self.cancel(self.order_id())
        yield from self.buy_and_walk(g["store_id"])


class CancelsWrongOption(_Cancels):
    """Orders the product with another option at the right store, cancels it, orders the asked option and walks."""

    kind = "genuine"

    @classmethod
    def applies(cls, task: Task) -> bool:
        return bool(task.goal.get("options"))

    def plan(self) -> Plan:
        g = self.task.goal
        yield from self.order_at(g["store_id"], "pickup", self.wrong_options())
        yield from self.cancel(self.order_id())
        yield from self.buy_and_walk(g["store_id"])


class CancelsWrongDelivery(_Cancels):
    """Orders at the right store for delivery to the kitchen (a slip), cancels it on its page before leaving the
    web (once the agent is in the street, a kitchen delivery has arrived and the shop refuses), then orders for
    pickup and walks there."""

    kind = "genuine"

    def plan(self) -> Plan:
        g = self.task.goal
        yield from self.order_at(g["store_id"], "kitchen", g.get("options"))
        yield from self.cancel(self.order_id())
        yield from self.buy_and_walk(g["store_id"])


class WrongOrderKept(_Cancels):
    """Orders at another store, then at the right one without cancelling the first, and walks to the right one:
    the slip's order still stands."""

    breaks = ("web",)

    def plan(self) -> Plan:
        g = self.task.goal
        yield from self.order_at(self.wrong_store(), "pickup", g.get("options"))
        self.order_id()
        yield from self.buy_and_walk(g["store_id"])


class CancelsTheRightOne(_Cancels):
    """Orders at the right store and at another, then cancels the right store's order and walks to the right
    store: what stands was bought at the wrong store."""

    breaks = ("web",)

    def plan(self) -> Plan:
        g = self.task.goal
        yield from self.order_at(g["store_id"], "pickup", g.get("options"))
        right = self.order_id()
        yield from self.order_at(self.wrong_store(), "pickup", g.get("options"))
        self.order_id()
        yield from self.cancel(right)
        yield from self.walk_route_to(g["store_node"])
        yield "stop"


class CancelsOnArrival(_Cancels):
    """Orders at the right store, walks to its door, cancels the order there, steps in and stops: nothing was
    bought. (Until stop 37 it cancelled at the store; a collected order can no longer be cancelled, so the last
    moment is at the door, outside the arrival radius.)"""

    breaks = ("web",)

    def plan(self) -> Plan:
        g = self.task.goal
        yield from self.order_at(g["store_id"], "pickup", g.get("options"))
        oid = self.order_id()
        yield from self.walk_to_the_door(g["store_node"])
        yield from self.cancel(oid)
        yield from self.walk_route_to(g["store_node"])
        yield "stop"


class OrderEverywhereKeepNearest(_RuleBlind, _Cancels):
    """Orders at every store that has the product, walks to the nearest, and cancels the other orders at its door: a
    rule-blind pick (the kept order is the nearest store's), no better than :class:`AlwaysNearest`."""

    def pick(self) -> str | None:
        return min(self.offers(), key=self.walking, default=None)

    def plan(self) -> Plan:
        from web_sites.shop import catalog

        g = self.task.goal
        keep = self.pick()
        if keep is None:
            self.errors.append("no store: the strategy has no pick")
            return
        others = []
        for s in catalog.stores_selling(g["product_id"], self.out_of_stock()):
            yield from self.order_at(s, "pickup", g.get("options"))
            oid = self.order_id()
            if s != keep:
                others.append(oid)
        yield from self.walk_to_the_door(self.store_node(keep))  # (inside, the kept order is collected)
        for oid in others:
            yield from self.cancel(oid)
        yield from self.walk_route_to(self.store_node(keep))
        yield "stop"


SHOP_SHORTCUTS = (OrderEverywhere, WalkWithoutOrdering, DeliveryInsteadOfPickup, AlwaysNearest, AlwaysCheapest,
                  NearestAvailable, CheapestAvailable, SecondNearest, FixedStore, EveryOption, ThreeUnits,
                  WrongOrderKept, CancelsTheRightOne, CancelsOnArrival, OrderEverywhereKeepNearest)
SHOP_GENUINE = (AddressWalker, ChangesMind, ShopDetour, CancelsWrongStore, CancelsWrongOption, CancelsWrongDelivery)
SUITES = {NAV: NAV_SHORTCUTS + NAV_GENUINE, SHOP: SHOP_SHORTCUTS + SHOP_GENUINE}


if __name__ == "__main__":
    import sys

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    print(markdown([row for env_id, classes in SUITES.items() for row in table(env_id, classes, n)]))
