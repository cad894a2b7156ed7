"""In-store pickup: when a pickup order counts as collected (stop 37, the shopping playthroughs' "Status: Placed"
after the walk).

A live pickup order is collected at the first step at or after the step it was placed at when the walker stands
within :data:`~embodiedweb.domains.outdoor.common.GOAL_RADIUS_M` of its store's node
(:func:`~embodiedweb.domains.outdoor.common.reached_since`, the rule the errands' and baskets' checkers read through
:func:`~embodiedweb.domains.outdoor.common.there_since`). A cancelled or kitchen order is never collected. After
every step that may have moved the walker or placed an order, the shopping domain records the collections in the
shop session's state (:func:`sync_pickups`: the order's status ``collected`` and ``collected_at``), which the
shop's Orders pages show in text and browser mode alike.
"""

from __future__ import annotations

from typing import Any

from embodiedweb.domains.outdoor.baskets import store_nodes
from embodiedweb.domains.outdoor.common import reached_since


def collected_step(world_state: dict[str, Any], order: dict[str, Any]) -> int | None:
    """The step ``order`` (a shop snapshot's order, or a row with ``store_id``, ``delivery``, ``status``, ``at``)
    was collected at by the walk of ``world_state``; None when it is not a live pickup order, its store is
    unknown, or the walker was never within the arrival radius of the store once it was placed."""
    node = store_nodes().get(str(order.get("store_id")))
    if node is None or order.get("delivery") != "pickup" or order.get("status") == "cancelled":
        return None
    return reached_since(world_state, node, int(order.get("at") or 0))


def walk_of(world: Any) -> dict[str, Any]:
    """The walk's part of the world's semantic state (``path``, ``path_at``: what the pickup rule reads), without
    computing the rest of it (the places in sight are most of a step's state cost); the whole state for a world
    that keeps no such lists."""
    live = getattr(world, "live", world)
    path, at = getattr(live, "path", None), getattr(live, "path_at", None)
    if not isinstance(path, list) or not isinstance(at, list):
        return world.semantic_state()
    return {"path": path, "path_at": at}


def sync_pickups(world: Any, webapp: Any, session: str) -> bool:
    """Mark the session's waiting pickup orders that the walk (``world``'s semantic state) has collected as
    collected in the shop's state; True when an order changed (no shop site, or nothing waiting: False)."""
    shop = webapp.site("shop")
    if shop is None:
        return False
    waiting = shop.waiting_pickups(webapp.store, session)
    if not waiting:
        return False
    done = {o["order_id"]: step for o in waiting if (step := collected_step(walk_of(world), o)) is not None}
    return bool(done) and shop.collect(webapp.store, session, done) > 0
