"""The hard navigation tier's walking tours (``nav-hard-120`` ..., then the long tours ``nav-hard-144`` ...;
written with the rest of the tier by ``python -m embodiedweb.data_gen.hard_navigation``).

A tour task asks the agent to visit three places, each described as the tier describes a destination
(:mod:`embodiedweb.data_gen.described_places`: its kind and facts of its wiki infobox, a rank or a hop, never
its name or address), in any order, to stop at the one it visits last, and to walk at most ``limit_m``
metres in all, counted along the streets from the start corner. The limit is the shortest open tour from the
start through the three places (over every order; legs measured as the map's directions measure them,
:meth:`~embodiedweb.worlds.street.city.City.shortest_length`) times :data:`SLACK`, rounded to 50 m: room for
the rounding and for an agent that follows the map's routes, none for a wrong order.

What makes a tour hard is the planning: the agent identifies three places, asks the map how far apart they
are and chooses the order. Against lazy orders (:func:`lazy_orders`: the order the instruction lists the
places in, nearest first from wherever the walker stands, the places by their distance from the start
nearest or farthest first, by name) the generator holds each lazy order to :data:`LAZY_CAPS` of a split's
tours: none for the listed order, nearest first and farthest first (a shortcut agent's likeliest orders; with
a third, it would pass a third of the tours), a third for the others. That leaves no tour of two places (there,
one of nearest first and farthest first is the shortest order). The places are each other's look-alikes no closer than
:data:`~embodiedweb.data_gen.described_places.CLEAR_M`, and the first leg's and later legs' routes of the
shortest tour pass no other place of the tour (the walker first reaches each place on its own leg). A tour's
places are all of one split (the standard tier's split of each place), half the tours test, half train.

The **long tours** (``nav-hard-144`` ..., :data:`LONG_TOURS`; stop 34) are drawn by the same function from a seed
of their own: per split four tours of four places and eight of five (24 or 120 orders; 10 or 15 legs a planner
may look up), a limit of the shortest tour x :data:`LONG_SLACK` (kept within :data:`LONG_SLACK_RANGE`) that at
most :data:`MAX_FITTING` orders fit, and, besides the lazy orders, two planners that do not enumerate the orders
(:func:`planned_orders`: nearest first improved by :func:`two_opt`, :func:`cheapest_insertion`) each held to a
third of a split's long tours. Candidates are measured with precomputed node-to-place distances
(``city.distances_to``); only a tour that passes every other rule is measured again with the map's lengths. The
three-place family (:data:`THREE_PLACES`) draws exactly as before stop 34: its lines are byte-identical.

The **grand tours** (``nav-hard-168`` ..., :data:`GRAND_TOURS`; stop 35), from a third seed: per split six tours of
six places (720 orders, 21 legs), a limit of the shortest tour x :data:`GRAND_SLACK` (within
:data:`GRAND_SLACK_RANGE`) that exactly one order fits (:data:`GRAND_MAX_FITTING`), so an order estimated from
block counts rarely does; besides the long tours' capped orders a third planner, nearest first improved by 2-opt
and or-opt moves in turn (:func:`local_search`), is held to a third of a split. A family caps only the orders its
``lazy_caps`` names, so the long tours (which do not name the third planner) draw exactly as in stop 34.

The **appointment tours** (``nav-hard-180`` ..., :data:`APPOINTMENT_TOURS`; stop 36), from a fourth seed: per split
three tours of four places and three of five, each place with a time to be there by (``goal.tour[k].by``), a start
time and a walking pace (``embodied.watch``; the street view shows the walker's watch,
:mod:`embodiedweb.worlds.street.watch`) and no walking limit. :func:`draw_appointments` draws an order other than the
shortest walk as the answer and times it meets with :data:`ROOM_M` to spare, such that every other order misses one
by :data:`MISS_M` (also arriving anywhere within the goal radius, :func:`rim_walks`); no order of
:func:`appointment_orders` (the lazy orders, the planners, the shortest walk, earliest appointment first, least slack
first and EDF repaired by swaps) may meet them (:data:`APPOINTMENT_CAPS`: none), walked as the checker judges a walk
(:func:`walk_arrivals`). The best order cannot be read off the grid: it depends on the times.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from dataclasses import dataclass
from typing import Any

from embodiedweb.data_gen.described_places import (
    CLEAR_M,
    LazyCaps,
    as_walker_task,
    described_places,
    goal_description,
    shortcut_free,
    shortcut_targets,
    task_kind,
    walking,
    weight,
)
from embodiedweb.worlds.street.watch import clock_text

#: tours of three places (half test, half train)
N_TOURS = 24
#: places per tour (the three-place family)
PLACES = 3
#: the limit is the shortest tour times this, rounded to :data:`ROUND_M`; kept only when the rounded limit is
#: within :data:`SLACK_RANGE` of the shortest tour
SLACK = 1.10
ROUND_M = 50
SLACK_RANGE = (1.08, 1.12)
#: the shortest tour's length (m)
TOUR_M = (1200.0, 2400.0)
#: the share of a split's tours each lazy order (:func:`lazy_orders`) may walk within the limit: none for the
#: orders a shortcut agent is most likely to take (as listed, nearest first, farthest first), a third for the rest
LAZY_CAPS = {"listed": 0.0, "nearest": 0.0, "farthest": 0.0, "by distance": 1 / 3, "by name": 1 / 3}
#: at most this share of a split's tour places is described by a single fact (the tier's single destinations:
#: a quarter, :data:`~embodiedweb.data_gen.described_places.MAX_SINGLE`; most places near others have only one)
MAX_SINGLE_TOURS = 0.4
#: tours a place may be part of at most (within a family)
MAX_USES = 4
#: places of a tour are at least this far apart, and the start this far from each (walking metres)
APART_M = 150.0
#: extra steps per place over the walk's standard budget: its wiki look-up and its directions
STEPS_PER_PLACE = 45
#: the seed of the tours' own draw (the tier's single-destination tasks keep theirs)
TOUR_SEED = "29:tours"

#: the long tours (``nav-hard-144`` ...): per split, four tours of four places, then eight of five
LONG_PLACES = (4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5)
#: the long tours' limit: the shortest tour times this, rounded to :data:`ROUND_M`, kept within
#: :data:`LONG_SLACK_RANGE` (tighter than three places': a longer walk leaves more metres for the same share)
LONG_SLACK = 1.055
LONG_SLACK_RANGE = (1.04, 1.07)
#: the long tours' shortest walk (m)
LONG_TOUR_M = (2000.0, 3500.0)
#: at most this many orders (of 24 or 120) fit a long tour's limit
MAX_FITTING = 3
#: the long tours' lazy caps: besides :data:`LAZY_CAPS`' orders, two planners that do not enumerate
#: (:func:`planned_orders`: nearest first improved by 2-opt, cheapest insertion), each a third of a split's long tours
LONG_LAZY_CAPS = {**LAZY_CAPS, "nearest + 2-opt": 1 / 3, "cheapest insertion": 1 / 3}
#: extra steps per leg a planner may look up (the start to each place and each pair of places: 14 or 20 steps
#: for 4 or 5 places' 10 or 15 legs), over :data:`STEPS_PER_PLACE` for each place
STEPS_PER_LEG = 2
#: at most this share of a split's long-tour places is described by a single fact (40 of a split's 54 test places
#: have only single-fact descriptions: 0.4 left the draw six tours short)
LONG_MAX_SINGLE = 0.6
#: long tours a place may be part of at most (a split's 12 long tours visit 54 places of its 54-60)
LONG_MAX_USES = 5
#: the seed of the long tours' draw
LONG_TOUR_SEED = "34:long tours"

#: the grand tours (``nav-hard-168`` ...; stop 35): per split six tours of six places (720 orders, 21 legs)
GRAND_PLACES = (6,) * 6
#: the grand tours' limit: the shortest tour times this, rounded to :data:`ROUND_M`, kept within
#: :data:`GRAND_SLACK_RANGE` (so tight that one order fits: the runner-up is more than 2.5 % longer)
GRAND_SLACK = 1.03
GRAND_SLACK_RANGE = (1.025, 1.035)
#: the grand tours' shortest walk (m)
GRAND_TOUR_M = (2800.0, 4200.0)
#: at most this many orders (of 720) fit a grand tour's limit
GRAND_MAX_FITTING = 1
#: the grand tours' lazy caps: those of :data:`LONG_LAZY_CAPS` and a third planner, nearest first improved by
#: 2-opt and or-opt moves (:func:`local_search`), each at most a third of a split's grand tours
GRAND_LAZY_CAPS = {**LONG_LAZY_CAPS, "nearest + 2-opt + or-opt": 1 / 3}
#: the seed of the grand tours' draw
GRAND_TOUR_SEED = "35:grand tours"

#: the appointment tours (``nav-hard-180`` ...; stop 36): per split three tours of four places and three of five,
#: each place with a time to be there by; exactly one order of visits meets every appointment
APPOINTMENT_PLACES = (4, 4, 4, 5, 5, 5)
#: the appointment tours' walking pace (the instruction states it; the watch and the checker use it)
PACE_M_PER_MIN = 80
#: the order that meets every appointment reaches each place at least this many metres (1.5 minutes of walking)
#: before its watch would first show the appointment's minute (and so a minute's walk more before it is late)
ROOM_M = 120.0
#: every other order misses an appointment by at least this many metres past its minute (arriving at any node
#: within the goal radius, :func:`rim_walks`), so no other order passes by a lucky rounding
MISS_M = 40.0
#: the appointment tours' lazy caps: none for any order a walker could take without weighing the appointments
#: against the walks: the lazy orders, the three planners of the grand tours, the shortest open tour ("shortest
#: walk"), earliest appointment first ("EDF"; every order of appointments at the same minute) and the most urgent
#: place next (``least slack``: the least time to spare from where the walker stands)
APPOINTMENT_CAPS = {**{k: 0.0 for k in GRAND_LAZY_CAPS}, "shortest walk": 0.0, "EDF": 0.0, "least slack": 0.0,
                    "EDF + swaps": 0.0, "EDF + one swap": 0.0}
#: the order meeting every appointment walks at most this far (the step budget of a five-place tour of 4,300 m is
#: about 1,000 steps, the env's ``hard_max_steps`` 1,050)
APPOINTMENT_ROUTE_M = 4200.0
#: the appointment tours' shortest open walk (m) over every order
APPOINTMENT_TOUR_M = (1600.0, 3200.0)
#: deadline draws tried per candidate set of places and start
APPOINTMENT_DRAWS = 40
#: the start time is drawn from these minutes after midnight (09:00 to 15:55, in five-minute steps)
START_MIN = (9 * 60, 16 * 60, 5)
#: the seed of the appointment tours' draw
APPOINTMENT_SEED = "36:appointment tours"

NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


@dataclass(frozen=True)
class TourFamily:
    """How one family of tours is drawn (:data:`THREE_PLACES`, :data:`LONG_TOURS`)."""

    #: per split, the number of places of its 1st, 2nd ... tour (so a split has ``len(places)`` tours)
    places: tuple[int, ...]
    slack: float
    slack_range: tuple[float, float]
    tour_m: tuple[float, float]
    lazy_caps: dict[str, float]
    seed: str
    #: steps per look-up-able leg over :data:`STEPS_PER_PLACE` per place (0: the three-place budget)
    steps_per_leg: int = 0
    #: at most this many orders within the limit (``None``: any number short of all)
    max_fitting: int | None = None
    #: the other places are at most this far (walking) from the first drawn; the start at most ``ring_m`` from
    #: the first and ``start_m`` from each
    close_m: float = 1100.0
    ring_m: float = 1200.0
    start_m: float = 1500.0
    max_tries: int = 600000
    #: tours a place may be part of at most
    max_uses: int = MAX_USES
    #: at most this share of a split's tour places is described by a single fact
    max_single: float = MAX_SINGLE_TOURS
    #: the places have appointments (a time to be there by) instead of a limit on the walk
    appointments: bool = False

    @property
    def n_tours(self) -> int:
        """The family's tours (both splits)."""
        return 2 * len(self.places)


THREE_PLACES = TourFamily(places=(PLACES,) * (N_TOURS // 2), slack=SLACK, slack_range=SLACK_RANGE, tour_m=TOUR_M,
                          lazy_caps=LAZY_CAPS, seed=TOUR_SEED)
LONG_TOURS = TourFamily(places=LONG_PLACES, slack=LONG_SLACK, slack_range=LONG_SLACK_RANGE, tour_m=LONG_TOUR_M,
                        lazy_caps=LONG_LAZY_CAPS, seed=LONG_TOUR_SEED, steps_per_leg=STEPS_PER_LEG,
                        max_fitting=MAX_FITTING, close_m=1300.0, ring_m=1300.0, start_m=1800.0,
                        max_tries=200000, max_uses=LONG_MAX_USES, max_single=LONG_MAX_SINGLE)
GRAND_TOURS = TourFamily(places=GRAND_PLACES, slack=GRAND_SLACK, slack_range=GRAND_SLACK_RANGE, tour_m=GRAND_TOUR_M,
                         lazy_caps=GRAND_LAZY_CAPS, seed=GRAND_TOUR_SEED, steps_per_leg=STEPS_PER_LEG,
                         max_fitting=GRAND_MAX_FITTING, close_m=1300.0, ring_m=1300.0, start_m=1800.0,
                         max_tries=200000, max_uses=LONG_MAX_USES, max_single=LONG_MAX_SINGLE)

APPOINTMENT_TOURS = TourFamily(places=APPOINTMENT_PLACES, slack=1.0, slack_range=(0.0, math.inf),
                               tour_m=APPOINTMENT_TOUR_M, lazy_caps=APPOINTMENT_CAPS, seed=APPOINTMENT_SEED,
                               steps_per_leg=STEPS_PER_LEG, max_fitting=1, close_m=1300.0, ring_m=1300.0,
                               start_m=1800.0, max_tries=200000, max_uses=LONG_MAX_USES, max_single=LONG_MAX_SINGLE,
                               appointments=True)

INSTRUCTION = ("Visit {count} places, in any order: {descs}. Find out on the wiki which places they are, plan your walk "
               "with the map website's walking directions, walk to each and stop in front of the one you visit last. "
               "You can walk at most {limit:,} m in all, counted along the streets from the street corner whose signs "
               "you see, where you start.")


APPOINTMENT_INSTRUCTION = (
    "You have appointments at {count} places: {descs}. Find out on the wiki which places they are, plan your walk "
    "with the map website's walking directions, walk to each in time and stop in front of the one you visit last. "
    "You set out at {start} from the street corner whose signs you see, where you start, and walk {pace} m a "
    "minute; your watch, shown as you walk, tells the time. Being early is fine; you never need to wait.")


def tour_length(city: Any, nodes: list[str]) -> float:
    """The walk through ``nodes`` in turn, each leg the shortest route (the map's directions' length)."""
    return sum(city.shortest_length(a, b) for a, b in itertools.pairwise(nodes))


def lazy_orders(city: Any, start: str, listed: list[str], node: dict[str, str], name: dict[str, str],
                metres: Any = None) -> dict[str, list[str]]:
    """The orders a walker who does not plan might visit the places of ``listed`` (place ids) in:
    ``listed`` (as the instruction lists them), ``nearest`` (nearest first from wherever the walker stands,
    walking distance), ``by distance`` (by walking distance from the start, nearest first), ``farthest``
    (the same, farthest first) and ``by name`` (the places' names in alphabetical order). ``node``: each
    place's street node; ``name``: its name; ``metres(node, place)``: the walking distance (by default the
    map's, :meth:`~embodiedweb.worlds.street.city.City.shortest_length`)."""
    metres = metres or (lambda n, p: city.shortest_length(n, node[p]))
    from_start = {p: metres(start, p) for p in listed}
    greedy, here, left = [], start, list(listed)
    while left:
        nxt = min(left, key=lambda p: (metres(here, p), p))
        greedy.append(nxt)
        left.remove(nxt)
        here = node[nxt]
    by_dist = sorted(listed, key=lambda p: (from_start[p], p))
    return {"listed": list(listed), "nearest": greedy, "by distance": by_dist, "farthest": by_dist[::-1],
            "by name": sorted(listed, key=lambda p: (name[p].lower(), p))}


def open_length(start: str, order: list[str] | tuple[str, ...], node: dict[str, str], metres: Any) -> float:
    """The open walk from ``start`` through the places of ``order`` in turn, ``metres(node, place)`` a leg."""
    total, here = 0.0, start
    for p in order:
        total += metres(here, p)
        here = node[p]
    return total


def two_opt(start: str, order: list[str], node: dict[str, str], metres: Any) -> list[str]:
    """``order`` improved by 2-opt: reverse the first sub-sequence (by position) whose reversal shortens the
    open tour from ``start``, again until none does (what a planner who improves a first guess by hand does)."""
    order = list(order)
    best = open_length(start, order, node, metres)
    better = True
    while better:
        better = False
        for i, j in itertools.combinations(range(len(order)), 2):
            cand = order[:i] + order[i:j + 1][::-1] + order[j + 1:]
            got = open_length(start, cand, node, metres)
            if got < best - 1e-6:
                order, best, better = cand, got, True
                break
    return order


def or_opt(start: str, order: list[str], node: dict[str, str], metres: Any) -> list[str]:
    """``order`` improved by or-opt moves: take the first place (by position) whose removal and re-insertion at
    its best position shortens the open tour from ``start``, move it there, again until no move does (what a
    planner who shifts one stop of a guessed order at a time does)."""
    order = list(order)
    best = open_length(start, order, node, metres)
    better = True
    while better:
        better = False
        for i, p in enumerate(order):
            rest = order[:i] + order[i + 1:]
            got, k = min((open_length(start, rest[:k] + [p] + rest[k:], node, metres), k) for k in range(len(rest) + 1))
            if got < best - 1e-6:
                order, best, better = rest[:k] + [p] + rest[k:], got, True
                break
    return order


def local_search(start: str, order: list[str], node: dict[str, str], metres: Any) -> list[str]:
    """``order`` improved by :func:`two_opt` and :func:`or_opt` in turn until neither shortens it."""
    order = list(order)
    while True:
        got = or_opt(start, two_opt(start, order, node, metres), node, metres)
        if got == order:
            return order
        order = got


def cheapest_insertion(start: str, places: list[str], node: dict[str, str], metres: Any) -> list[str]:
    """The order built by cheapest insertion: begin with no place; insert, of the places left, the one whose
    best position (after the start, between two places or at the end of the open tour) adds the fewest metres
    there, until all are in."""
    order: list[str] = []
    left = sorted(places)
    while left:
        base = open_length(start, order, node, metres)
        best = min(((open_length(start, order[:k] + [p] + order[k:], node, metres) - base, p, k)
                    for p in left for k in range(len(order) + 1)), key=lambda c: (round(c[0], 6), c[1], c[2]))
        order.insert(best[2], best[1])
        left.remove(best[1])
    return order


def planned_orders(city: Any, start: str, listed: list[str], node: dict[str, str], name: dict[str, str],
                   metres: Any = None) -> dict[str, list[str]]:
    """The orders of :func:`lazy_orders` and of three planners that do not enumerate the orders:
    ``nearest + 2-opt`` (nearest first, improved by :func:`two_opt`), ``cheapest insertion``
    (:func:`cheapest_insertion`) and ``nearest + 2-opt + or-opt`` (nearest first, improved by
    :func:`local_search`). Arguments as :func:`lazy_orders`'. A family caps the orders its ``lazy_caps`` name."""
    metres = metres or (lambda n, p: city.shortest_length(n, node[p]))
    out = lazy_orders(city, start, listed, node, name, metres)
    out["nearest + 2-opt"] = two_opt(start, out["nearest"], node, metres)
    out["cheapest insertion"] = cheapest_insertion(start, listed, node, metres)
    out["nearest + 2-opt + or-opt"] = local_search(start, out["nearest"], node, metres)
    return out


def arrivals(start: str, order: list[str] | tuple[str, ...], node: dict[str, str], metres: Any) -> list[float]:
    """The metres walked on reaching each place of ``order`` in turn from ``start`` (``metres(node, place)`` a leg)."""
    out, total, here = [], 0.0, start
    for p in order:
        total += metres(here, p)
        out.append(total)
        here = node[p]
    return out


def meets(start: str, order: list[str] | tuple[str, ...], node: dict[str, str], metres: Any, due_m: dict[str, float],
          miss_m: float = 0.0) -> bool:
    """Walking ``order`` (each leg its shortest walk) reaches every place before ``due_m`` of it: the metres at which
    the walker's watch passes the minute of its appointment, ``(by + 1) x pace`` (``miss_m``: what a failing order
    must be past, so ``meets(..., miss_m=m)`` false means every appointment missed is missed by ``m`` or more)."""
    return all(a < due_m[p] + miss_m for p, a in zip(order, arrivals(start, order, node, metres), strict=True))


def least_slack(start: str, places: list[str], node: dict[str, str], metres: Any, due_m: dict[str, float]
                ) -> list[str]:
    """The order of a walker who goes next, from wherever it stands, to the place with the least time to spare
    (its appointment's metres minus the metres walked by the time it would get there)."""
    order: list[str] = []
    here, walked, left = start, 0.0, sorted(places)
    while left:
        nxt = min(left, key=lambda p: (due_m[p] - walked - metres(here, p), p))
        walked += metres(here, nxt)
        order.append(nxt)
        left.remove(nxt)
        here = node[nxt]
    return order


def lateness(start: str, order: list[str] | tuple[str, ...], node: dict[str, str], metres: Any,
             due_m: dict[str, float]) -> float:
    """The metres by which walking ``order`` misses its appointments, summed over the places (0: it meets all)."""
    return sum(max(0.0, a - due_m[p] + 1e-6) for p, a in zip(order, arrivals(start, order, node, metres), strict=True))


def edf_repaired(start: str, places: list[str], node: dict[str, str], metres: Any, due_m: dict[str, float]
                 ) -> list[str]:
    """Earliest appointment first, repaired by swaps of neighbouring visits: swap the first pair (by position)
    whose swap lowers the :func:`lateness`, again until no swap does (what a planner who fixes the diary's order
    by hand does)."""
    order = sorted(places, key=lambda p: (due_m[p], p))
    late = lateness(start, order, node, metres, due_m)
    better = True
    while better and late > 0:
        better = False
        for i in range(len(order) - 1):
            cand = order[:i] + [order[i + 1], order[i]] + order[i + 2:]
            got = lateness(start, cand, node, metres, due_m)
            if got < late - 1e-6:
                order, late, better = cand, got, True
                break
    return order


def edf_one_swap(start: str, places: list[str], node: dict[str, str], metres: Any, due_m: dict[str, float]
                 ) -> list[str]:
    """Earliest appointment first; when it misses one, the first swap of neighbouring visits (by position) that
    meets every appointment, if any (what a planner who tries each swap of the diary's order does)."""
    order = sorted(places, key=lambda p: (due_m[p], p))
    if lateness(start, order, node, metres, due_m) == 0:
        return order
    for i in range(len(order) - 1):
        cand = order[:i] + [order[i + 1], order[i]] + order[i + 2:]
        if lateness(start, cand, node, metres, due_m) == 0:
            return cand
    return order


def edf_one_move(start: str, places: list[str], node: dict[str, str], metres: Any, due_m: dict[str, float]
                 ) -> list[str]:
    """Earliest appointment first; when it misses one, the first order (by the place moved, then where to) made by
    moving one place elsewhere in it that meets every appointment, if any (a planner who tries moving each visit).
    Not capped: every appointment tour's order is one such move from earliest appointment first (holding this
    planner to none starved the draw: 2 of 12 tours in 200,000 tries); measured in docs/levels.md."""
    order = sorted(places, key=lambda p: (due_m[p], p))
    if lateness(start, order, node, metres, due_m) == 0:
        return order
    for i, p in enumerate(order):
        rest = order[:i] + order[i + 1:]
        for k in range(len(rest) + 1):
            cand = rest[:k] + [p] + rest[k:]
            if cand != order and lateness(start, cand, node, metres, due_m) == 0:
                return cand
    return order


def appointment_orders(city: Any, start: str, listed: list[str], node: dict[str, str], name: dict[str, str],
                       by: dict[str, int], pace: float, metres: Any = None) -> dict[str, list[str]]:
    """The orders of :func:`planned_orders` and those a walker could take without weighing appointments against
    walks: ``shortest walk`` (the shortest open tour over every order), ``EDF`` (earliest appointment first;
    ``by``: each place's appointment in minutes after the start) and ``least slack`` (:func:`least_slack`).
    Other arguments as :func:`lazy_orders`'."""
    metres = metres or (lambda n, p: city.shortest_length(n, node[p]))
    out = planned_orders(city, start, listed, node, name, metres)
    out["shortest walk"] = list(min(itertools.permutations(sorted(listed)),
                                    key=lambda o: (round(open_length(start, o, node, metres), 6), o)))
    out["EDF"] = sorted(listed, key=lambda p: (by[p], p))
    due = {p: (by[p] + 1) * pace for p in listed}
    out["least slack"] = least_slack(start, listed, node, metres, due)
    out["EDF + swaps"] = edf_repaired(start, listed, node, metres, due)
    out["EDF + one swap"] = edf_one_swap(start, listed, node, metres, due)
    return out


def draw_appointments(rng: random.Random, start: str, picked: list[str], node: dict[str, str], metres: Any,
                      shortest: tuple[str, ...], judge: Any = None) -> tuple[tuple[str, ...], dict[str, int]] | str:
    """An order of ``picked`` other than the ``shortest`` walk, and an appointment per place (minutes after the
    start) that this order meets with :data:`ROOM_M` to spare at every place and every other order misses by
    :data:`MISS_M` or more at some place; appointments at distinct minutes. Tries :data:`APPOINTMENT_DRAWS`
    times (a target order, then per place its tightest time or a later one) until ``judge(target, by)`` (when
    given) names no reason against them; else the last reason."""
    arr = {o: arrivals(start, o, node, metres) for o in itertools.permutations(picked)}
    orders = sorted(o for o in arr if o != shortest and arr[o][-1] <= APPOINTMENT_ROUTE_M)
    if not orders:
        return "no order short enough"
    why = "no order alone meets the appointments"
    for _ in range(APPOINTMENT_DRAWS):
        target = rng.choice(orders)
        by = {}
        for p, a in zip(target, arr[target], strict=True):
            tight = math.ceil((a + ROOM_M) / PACE_M_PER_MIN)
            by[p] = tight + (rng.randint(1, 12) if rng.random() < 0.5 else 0)
        if len(set(by.values())) < len(by):
            why = "appointments at one minute"
            continue
        due = {p: (m + 1) * PACE_M_PER_MIN for p, m in by.items()}
        if any(o != target and all(a < due[p] + MISS_M for p, a in zip(o, arr[o], strict=True)) for o in arr):
            why = "no order alone meets the appointments"
            continue
        why = judge(target, by) if judge is not None else None
        if why is None:
            return target, by
    return why


def walk_arrivals(city: Any, start: str, order: list[str] | tuple[str, ...], node: dict[str, str]) -> dict[str, float]:
    """Walking ``order`` leg by leg along the map's routes: the metres walked on first coming within the goal radius
    of each place of the tour (a leg may pass a place visited later: it is reached then, as the checker judges)."""
    from embodiedweb.domains.outdoor.common import GOAL_RADIUS_M
    from embodiedweb.worlds.street.watch import step_metres

    near = {p: city.within_walk(node[p], GOAL_RADIUS_M) | {node[p]} for p in order}
    path = [start]
    for p in order:
        path += city.route(path[-1], node[p])[1:]
    out: dict[str, float] = {}
    walked = 0.0
    for i, n in enumerate(path):
        if i:
            walked += step_metres(city, path[i - 1], n)
        for p in order:
            if p not in out and n in near[p]:
                out[p] = walked
    return out


def _capped_fit(city: Any, start: str, picked: list[str], node: dict[str, str], names: dict[str, str], metres: Any,
                family: TourFamily, used: dict[str, int], n_split: int, target: tuple[str, ...],
                by: dict[str, int]) -> str | None:
    """``"lazy order fits"`` when appointments ``by`` would let a capped order (:func:`appointment_orders`, as
    ``family.lazy_caps`` caps them; ``used``: the split's tours each already fits) meet every appointment on more
    than its share of the split's first ``n_split`` tours; else ``None`` (the rough lengths, ``metres``)."""
    listed = sorted(picked, key=lambda p: (by[p], p))
    due = {p: (m + 1) * PACE_M_PER_MIN for p, m in by.items()}
    lazy = appointment_orders(city, start, listed, node, names, by, PACE_M_PER_MIN, metres)
    hits = [k for k, o in lazy.items() if k in family.lazy_caps and meets(start, o, node, metres, due)]
    if any(used[k] + 1 > int(family.lazy_caps[k] * n_split + 1e-9) for k in hits):
        return "lazy order fits"
    return None


def rim_walks(city: Any, start: str, order: list[str] | tuple[str, ...], node: dict[str, str]) -> list[float]:
    """For each place of ``order``, the fewest metres a walk taking the places in that order can have walked on
    first coming within the goal radius of it (arriving at any node within the radius of each place before): a
    lower bound for any walk visiting the places in this order, as the checker's arrival rule judges arrival."""
    from embodiedweb.domains.outdoor.common import GOAL_RADIUS_M

    best = {start: 0.0}
    out = []
    for p in order:
        rim = sorted(city.within_walk(node[p], GOAL_RADIUS_M) | {node[p]})
        got = {}
        for x in rim:
            to_x = city.distances_to(x)
            got[x] = min(w + to_x.get(y, math.inf) for y, w in best.items())
        best = got
        out.append(min(got.values()))
    return out


def legs_of(n_places: int) -> int:
    """The legs a planner may look up on a tour of ``n_places``: the start to each place and each pair of places."""
    return n_places + n_places * (n_places - 1) // 2


def limit_of(best: float, slack: float = SLACK) -> int:
    """The walking limit (m) of a tour whose shortest walk is ``best`` metres (``slack``: the family's)."""
    return int(round(best * slack / ROUND_M) * ROUND_M)


def _passes_others(city: Any, order: list[str], start: str, node: dict[str, str]) -> bool:
    """Some leg of the walk through ``order`` passes within the goal radius of a tour place visited later (the
    walker would reach it before its own leg)."""
    from embodiedweb.domains.outdoor.common import GOAL_RADIUS_M

    near = {p: city.within_walk(node[p], GOAL_RADIUS_M) | {node[p]} for p in order}
    here = start
    for i, p in enumerate(order):
        leg = city.route(here, node[p])
        if any(n in near[q] for q in order[i + 1:] for n in leg):
            return True
        here = node[p]
    return False


def hard_tours(city: Any, first_id: int, description_seed: int, family: TourFamily = THREE_PLACES,
               stats: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The tour tasks of ``family`` (see the module docstring), ids from ``nav-hard-{first_id}``, the places
    described as the single-destination tier describes them (``description_seed``: its seed, so each place reads
    the same in both). ``stats``, when given, receives the draw's tries and rejections by reason."""
    from embodiedweb.data_gen.outdoor_tasks import _max_steps, _split, _task

    rng = random.Random(family.seed)
    n_tours, per_split = family.n_tours, len(family.places)
    boxes, names, described = described_places(city, description_seed)
    node = {p: city.place_node(p) for p in described}
    by_split = {s: sorted(p for p in described if _split(p) == s) for s in ("test", "train")}
    caps = LazyCaps()
    uses: dict[str, int] = {}
    singles = {"test": 0, "train": 0}
    lazy_hits: dict[tuple[str, str], int] = {}
    out: list[dict[str, Any]] = []
    between = {p: city.distances_to(node[p]) for p in described}  # walking metres from every node to p
    rings: dict[str, list[str]] = {}  # the nodes a tour whose first drawn place is p may start at
    walks: dict[str, dict[str, float]] = {}  # walking metres from a start to every place
    legs_m: dict[tuple[str, str], float] = {}  # the map's length of a leg (``city.shortest_length``)
    tries = 0
    why: dict[str, int] = {}
    long = family.max_fitting is not None

    def reject(reason: str) -> None:
        why[reason] = why.get(reason, 0) + 1

    while len(out) < n_tours and tries < family.max_tries:
        tries += 1
        split = ("test", "train")[tries % 2]
        n_done = sum(t["split"] == split for t in out)
        if n_done >= per_split:
            continue
        n_places = family.places[n_done]
        pool = [p for p in by_split[split] if uses.get(p, 0) < family.max_uses]
        first = rng.choices(pool, weights=[max(weight(d) for d in described[p]) for p in pool])[0]
        close = [p for p in pool if p != first and APART_M < between[p].get(node[first], math.inf) < family.close_m]
        if len(close) < n_places - 1:
            reject("no close places")
            continue
        picked = [first]
        for _ in range(n_places - 1):
            left = [p for p in close if p not in picked]
            picked.append(rng.choices(left, weights=[max(weight(d) for d in described[p]) for p in left])[0])
        if any(between[b].get(node[a], math.inf) <= APART_M for a, b in itertools.combinations(picked, 2)):
            reject("places too close")
            continue
        ring = rings.get(first)
        if ring is None:
            ring = rings[first] = sorted(n for n, d in between[first].items()
                                         if APART_M < d <= family.ring_m and city.degree(n) >= 3)
        start = rng.choice(ring)
        if any(not APART_M < between[p].get(start, math.inf) <= family.start_m for p in picked):
            reject("start")
            continue
        rough = {o: between[o[0]][start] + sum(between[b][node[a]] for a, b in itertools.pairwise(o))
                 for o in itertools.permutations(picked)}
        if not family.tour_m[0] * 0.98 <= min(rough.values()) <= family.tour_m[1] * 1.02:
            reject("length")
            continue
        metres = lambda n, p: between[p][n]  # noqa: E731
        if family.appointments:
            orders = rough
            shortest = min(orders, key=lambda o: (orders[o], o))
            if not family.tour_m[0] <= orders[shortest] <= family.tour_m[1]:
                reject("length or slack")
                continue
            n_split = n_done + 1

            used = {k: lazy_hits.get((split, k), 0) for k in family.lazy_caps}
            judge = functools.partial(_capped_fit, city, start, picked, node, names, metres, family, used, n_done + 1)
            drawn = draw_appointments(rng, start, picked, node, metres, shortest, judge)
            if isinstance(drawn, str):
                reject(drawn)
                continue
            best_order, by = drawn
            listed = sorted(picked, key=lambda p: (by[p], p))  # as a diary lists them: by time
            due = {p: (m + 1) * PACE_M_PER_MIN for p, m in by.items()}
            lazy = appointment_orders(city, start, listed, node, names, by, PACE_M_PER_MIN, metres)
            hits = [k for k, o in lazy.items() if k in family.lazy_caps and meets(start, o, node, metres, due)]
            limit = 0
        else:
            orders = rough  # until the tour is kept: then measured as the map measures, and checked again
            best_order = min(orders, key=lambda o: (orders[o], o))
            best = orders[best_order]
            limit = limit_of(best, family.slack)
            if not family.tour_m[0] <= best <= family.tour_m[1] or not family.slack_range[0] <= limit / best <= family.slack_range[1]:
                reject("length or slack")
                continue
            bad = [o for o in orders if orders[o] > limit]
            if not bad:
                reject("every order fits")
                continue
            if long and len(orders) - len(bad) > family.max_fitting:
                reject("too many orders fit")
                continue
            listed = list(rng.choice(sorted(bad)))
            lazy = (planned_orders if long else lazy_orders)(city, start, listed, node, names, metres)
            hits = [k for k, o in lazy.items() if k in family.lazy_caps and orders[tuple(o)] <= limit]
        n_split = n_done + 1
        if any(lazy_hits.get((split, k), 0) + 1 > int(family.lazy_caps[k] * n_split + 1e-9) for k in hits):
            reject("lazy order fits")
            continue
        if _passes_others(city, list(best_order), start, node):
            reject("passes another place")
            continue
        ends = [start, *(node[p] for p in picked)]
        for a in ends:  # the map's lengths, each pair measured once per draw (legs between places recur)
            for b in ends:
                if a != b and b != start and (a, b) not in legs_m:
                    legs_m[a, b] = city.shortest_length(a, b)
        leg = legs_m
        exact = {o: sum(leg[a, b] for a, b in itertools.pairwise([start, *(node[p] for p in o)]))
                 for o in itertools.permutations(picked)}
        if family.appointments:
            exact_m = lambda n, p: legs_m[n, node[p]]  # noqa: E731
            lazy = appointment_orders(city, start, listed, node, names, by, PACE_M_PER_MIN, exact_m)
            target_at = arrivals(start, best_order, node, exact_m)
            if (any(a > by[p] * PACE_M_PER_MIN - ROOM_M for p, a in zip(best_order, target_at, strict=True))
                    or any(o != best_order and meets(start, o, node, exact_m, due, MISS_M) for o in exact)
                    or sorted(k for k, o in lazy.items() if k in family.lazy_caps
                              and meets(start, o, node, exact_m, due)) != sorted(hits)):
                reject("the map's lengths differ")
                continue
            # a capped order walked along the map's routes may reach a later place on the way (and so walk
            # another order): judged as the checker judges the walk, it must miss an appointment too
            if any(k in family.lazy_caps and k not in hits
                   and all(walk_arrivals(city, start, o, node)[p] < due[p] for p in o) for k, o in lazy.items()):
                reject("a capped order's walk meets them")
                continue
            # arriving anywhere within the goal radius of each place (the checker's arrival rule) cannot make
            # another order meet every appointment
            if any(o != best_order and all(a < due[p] + MISS_M for p, a in zip(o, rim_walks(city, start, o, node),
                                                                                strict=True))
                   for o in exact):
                reject("another order meets them at the radius")
                continue
            best = min(exact.values())
            orders = {o: 0.0 if o == best_order else math.inf for o in exact}  # fitting_orders: the target alone
            limit = 1
        else:
            if (min(exact, key=lambda o: (exact[o], o)) != best_order or limit_of(exact[best_order], family.slack) != limit
                    or any((exact[o] <= limit) != (orders[o] <= limit) for o in orders)):
                reject("the map's lengths differ")
                continue
            orders, best = exact, exact[best_order]
        descs = {}
        for p in picked:
            ds = described[p]
            descs[p] = rng.choices(ds, weights=[weight(d) for d in ds])[0]
        n_single = sum(weight(d) == 1 for d in descs.values())
        if singles[split] + n_single > math.floor(family.max_single * sum(family.places)):
            reject("single facts")
            continue
        dist = walks.get(start)
        if dist is None:
            dist = walks[start] = walking(city, start, boxes)  # from the start to every place (a full Dijkstra)
        if not all(shortcut_free(city, start, p, descs[p], boxes, dist, nearest=False) for p in picked):
            reject("shortcut")
            continue
        # no look-alike of one place is another place of the tour or near one (walking to a look-alike
        # instead must not reach a place of the tour by chance)
        if any(t in picked or any(city.shortest_length(city.place_node(t), node[q]) <= CLEAR_M for q in picked)
               for p in picked for t in shortcut_targets(boxes, descs[p], dist) - {p} if city.place_node(t)):
            reject("look-alike near a tour place")
            continue
        rights = {p: caps.right(boxes, descs[p], dist, p) for p in picked}
        if not all(caps.admits(task_kind(descs[p]), split, rights[p]) for p in picked):
            reject("lazy rank cap")
            continue
        for p in picked:
            caps.add(task_kind(descs[p]), split, rights[p])
            uses[p] = uses.get(p, 0) + 1
        for k in hits:
            lazy_hits[(split, k)] = lazy_hits.get((split, k), 0) + 1
        singles[split] += n_single
        fitting = sorted(o for o in orders if orders[o] <= limit)
        path = [start]
        for p in best_order:
            path += city.route(path[-1], node[p])[1:]
        stops = [{"place": p, "node": node[p], "name": names[p], **goal_description(descs[p])} for p in listed]
        budget = _max_steps(len(path)) + STEPS_PER_PLACE * n_places + family.steps_per_leg * legs_of(n_places)
        if family.appointments:
            t0 = rng.randrange(*START_MIN)
            for st in stops:
                st["by"] = clock_text(t0 + by[st["place"]])
            text = "; ".join(f"by {st['by']} at {st['description']}" for st in stops[:-1])
            text += f"; and by {stops[-1]['by']} at {stops[-1]['description']}"
            task = _task("EWA-Navigation-v0", "", APPOINTMENT_INSTRUCTION.format(
                             count=NUMBERS[n_places], descs=text, start=clock_text(t0), pace=PACE_M_PER_MIN),
                         start, rng.uniform(0, 360),
                         {"tour": stops, "tour_m": round(best, 1), "route_m": round(exact[best_order], 1),
                          "best_order": list(best_order), "fitting_orders": [list(best_order)], "checkpoints": []},
                         split, budget, level="hard")
            task["embodied"]["watch"] = {"start": clock_text(t0), "pace_m_per_min": PACE_M_PER_MIN}
        else:
            phrases = [s["description"] for s in stops]
            text = "; ".join(phrases[:-1]) + "; and " + phrases[-1]
            task = _task("EWA-Navigation-v0", "", INSTRUCTION.format(count=NUMBERS[n_places], descs=text, limit=limit),
                         start, rng.uniform(0, 360),
                         {"tour": stops, "limit_m": limit, "tour_m": round(best, 1), "route_m": round(best, 1),
                          "best_order": list(best_order), "fitting_orders": [list(o) for o in fitting],
                          "checkpoints": []},
                         split, budget, level="hard")
        out.append(as_walker_task(task))
    if stats is not None:
        stats.update(tries=tries, rejected=dict(sorted(why.items())),
                     kept={s: sum(t["split"] == s for t in out) for s in ("test", "train")})
    if len(out) < n_tours:
        raise RuntimeError(f"only {len(out)} of {n_tours} tours could be drawn ({tries} tries; rejected: {why})")
    for i, t in enumerate(out):
        t["task_id"] = f"nav-hard-{first_id + i:03d}"
    return out
