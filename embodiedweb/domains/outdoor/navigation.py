"""EWA-Navigation-v0: get walking directions on the map site, walk them, stop at the destination.

Metrics: ``web`` = the map gave directions to the destination (asked for by its name, its address or a
point within the goal radius; from any start whose route passed near the walker as it asked) before the walk
first reached it, before the walk had come within a quarter of the way of it (directions fetched after
arriving, once the walker had found the destination without them, or from a corner far off, guided nothing); ``embodied`` = the agent stopped on the destination's node or
within :data:`~embodiedweb.domains.outdoor.common.GOAL_RADIUS_M` of it along the street; ``overall`` = both; ``completion`` = fraction of the sub-goals
(directions obtained, each checkpoint of the ground-truth route passed, destination reached on stop).

The hard tier's walking tours (``goal.tour``: several described places in any order within a walking limit)
have their own rules: :mod:`embodiedweb.domains.outdoor.tours`.
"""

from __future__ import annotations

import random
from typing import Any

from embodiedweb.domains.base import Episode
from embodiedweb.domains.outdoor.common import (
    StreetDomain,
    StreetOracle,
    arrival_step,
    city,
    guided,
    near,
    walk_start,
    way_ahead,
)
from embodiedweb.domains.outdoor.tours import check_tour, validate_tour
from embodiedweb.tasks import Task


class NavigationDomain(StreetDomain):
    """Get walking directions to a place on the map site, walk them, stop there.

    Env id ``EWA-Navigation-v0`` (``envs/navigation.toml``: tasks ``data/navigation/tasks.jsonl``, 400
    steps); the Manhattan street world; episodes start in the world.

    Checker (:meth:`check`): ``web`` = the map gave directions to the destination (``goal.dest_node``
    or within the goal radius) before the walk first reached it, whose route passed within
    :data:`~embodiedweb.domains.outdoor.common.DIRECTIONS_NEAR_M` of where the walker stood as it asked
    (:func:`~embodiedweb.domains.outdoor.common.guided`) (the hard tier's destination may be
    identified on the wiki or on the map's place pages, which show the same facts: neither is required);
    ``embodied`` = ``stop`` at the destination (:meth:`stopped_at`);
    ``overall`` = both; ``completion`` = the fraction of (directions obtained, each checkpoint of the
    ground-truth route walked, destination reached). A walking tour (``goal.tour``, the hard tier) is checked
    by :func:`~embodiedweb.domains.outdoor.tours.check_tour`.
    """

    name = "navigation"
    #: 2: directions count only when fetched before the walk first reached the destination
    #: 3: and only when the walker, as it asked, stood near their route (not from a corner far off)
    #: 4: the hard tier's walking tours (``goal.tour``): every place reached within a walking limit, directions
    #: to each before reaching it, a stop at one of them (single destinations are checked as in 3)
    #: 5: directions count only if the walk (a tour's leg) had not yet come within a quarter of the way of the goal
    #: (asked once the walker had found the goal without them, they guided nothing); a tour's directions planned
    #: ahead start at the start or a tour place; asked from the walker's own block (its name or a corner), they
    #: count wherever on the block it stood
    #: 6: a tour's directions planned ahead to a place start at the start or another place of the tour (from beside
    #: the place itself, a route of a few dozen metres, they planned no leg); a tour's walking limit counts the way
    #: from the walk's closest approach to each place's door (a walk turning back at the goal radius's rim is judged
    #: as the walk to the places: an order over the limit cut at the rim passed)
    checker_version = 6
    heuristic = "baselines.street_heuristic:NavigationHeuristic"
    prompt_guidance = ("You stand on a street in Manhattan and can use a web browser. Get walking directions on the "
                       "map site, then walk them in the street world and stop at the destination.")
    node_fields = ("dest_node",)

    difficulty_measures = ("route_m", "checkpoints", "oracle_switches", "oracle_steps")

    def task_measures(self, task: Task) -> dict[str, Any]:
        """The route's length and its checkpoints."""
        return {"route_m": round(float(task.goal["route_m"]), 1), "checkpoints": len(task.goal.get("checkpoints") or [])}

    def validate_task(self, task: Task) -> None:
        """As :meth:`StreetDomain.validate_task`; a tour's places instead of ``goal.dest_node``
        (:func:`~embodiedweb.domains.outdoor.tours.validate_tour`)."""
        if "tour" in task.goal:
            self.validate_start(task)
            validate_tour(task)
        else:
            super().validate_task(task)

    def stratum(self, task: Task) -> tuple[Any, ...]:
        """Checkpoints on the route or not."""
        return (bool(task.goal.get("checkpoints")),)

    def variety(self, task: Task) -> tuple[str, ...]:
        """Navigation variety: the destination place (a tour's places)."""
        if "tour" in task.goal:
            return ("+".join(s["place"] for s in task.goal["tour"]),)
        return (str(task.goal.get("dest_place", "")),)

    def takes_answer(self, task: Task) -> bool:
        """Walking to a place: ``stop`` carries no answer."""
        return False

    def check(self, episode: Episode) -> dict[str, Any]:
        """Passes when directions to the destination were looked up and the walk stopped there; checkpoints add to completion."""
        g = episode.task.goal
        if "tour" in g:
            return check_tour(episode)
        dirs = episode.web_state.get("map", {}).get("directions", [])
        arrived = arrival_step(episode.world_state, g["dest_node"])
        start = walk_start(episode.world_state, episode.task)
        way = city().shortest_length(start, g["dest_node"]) if start in city().nodes else 0.0
        # directions fetched after the walk first reached the destination, from a start far from the walker
        # (a route it never stood near), or once the walk had come within a quarter of the way, guided nothing
        web = any(near(d.get("to_node"), g["dest_node"]) and (arrived is None or int(d.get("at", 0)) < arrived)
                  and guided(episode.world_state, d) and way_ahead(episode.world_state, d, g["dest_node"], way)
                  for d in dirs)
        walked = set(episode.world_state.get("path", []))
        passed = [c in walked for c in g.get("checkpoints", [])]
        at = self.stopped_at(episode, g["dest_node"])
        subgoals = [web, *passed, at]
        return {"overall": web and at, "web": web, "embodied": at, "completion": sum(subgoals) / len(subgoals),
                "final_node": episode.world_state.get("node")}

    def oracle(self, task: Task, perturb: random.Random | None = None) -> Any:
        """A scripted :class:`NavigationOracle` for the task (:class:`TourOracle` for a tour)."""
        return TourOracle(task, perturb) if "tour" in task.goal else NavigationOracle(task, perturb)


class NavigationOracle(StreetOracle):
    """Directions on the map for the destination, then the shortest walk (the map's route), stop. A described
    destination (the hard tier) is first found on the wiki: a search for its facts, then its article."""

    def look_up(self, goal: dict[str, Any]) -> Any:
        """Find the destination's article on the wiki by searching the description's words (see
        :meth:`~embodiedweb.domains.outdoor.common.StreetOracle.find_article`)."""
        yield from self.find_article(goal["dest_place"], goal["description"])

    def plan(self) -> Any:
        """Ask for directions, walk to the destination and stop; a perturbation skips directions, stops short or turns wrong."""
        g = self.task.goal
        mode = self.perturb.choice(["no_directions", "stop_short", "wrong_turn"]) if self.perturb else None
        if g.get("description"):  # the hard tier: identify the described place on the wiki first
            yield from self.look_up(g)
        if mode != "no_directions":
            yield from self.ask_directions(g["dest_name"])
        yield from self.walk_to(g["dest_node"], drop_last=mode == "stop_short", wrong_turn=mode == "wrong_turn")
        yield "stop"


class TourOracle(StreetOracle):
    """A walking tour through the public interface: each place found on the wiki (its description's words in
    the search box, then its article), directions from the start corner to each place, the shortest order
    walked (chosen by the street graph's lengths, which the map's directions print), stop at the last place. A perturbation walks the order the instruction lists the places in (over
    the limit), skips the last place, or asks no directions."""

    def plan(self) -> Any:
        """Look the places up, ask the map, walk the shortest tour, stop."""
        g = self.task.goal
        stops = g["tour"]
        mode = self.perturb.choice(["listed_order", "skip_one", "no_directions"]) if self.perturb else None
        for s in stops:
            yield from self.find_article(s["place"], s["description"])
        if mode != "no_directions":
            for s in stops:
                yield from self.ask_directions(s["name"])
        order = [s["place"] for s in stops] if mode == "listed_order" else list(g["best_order"])
        if mode == "skip_one":
            order = order[:-1]
        by_place = {s["place"]: s for s in stops}
        for p in order:
            yield from self.walk_to(by_place[p]["node"])
        yield "stop"
