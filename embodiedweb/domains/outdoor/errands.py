"""Errands with several goals in one episode (the shopping hard tier, issue 22 item 2): two purchases under
different store rules, or a purchase and a landmark question, in an order the agent chooses.

A task's ``goal.errands`` lists the goals, each one of:

- ``{"kind": "buy", "product_id", "options", "store_id", "store_node", "rule"}``: one unit of the product
  with the options ordered for pickup at the rule's store and nothing else of the product anywhere
  (:func:`purchase_ok`; cancelled orders do not count, :func:`~web_sites.shop.catalog.live_orders`), and the
  walk reaches the store once the live order is placed (the agent stands within
  :data:`~embodiedweb.domains.outdoor.common.GOAL_RADIUS_M` of it then, or a node of its path after is: it
  went there to pick it up);
- ``{"kind": "ask", "place_id", "place_node", "slug", "fact", "answer", "kind_of_answer"}``: the landmark's
  article viewed this episode, the answer (``stop [answer]``) right by the traveling tier's judge, and the
  walk reaches the landmark.

The oracle is :class:`~embodiedweb.domains.outdoor.shopping.ErrandOracle`. The checker (:func:`check_errands`, called by :meth:`ShoppingDomain.check
<embodiedweb.domains.outdoor.shopping.ShoppingDomain.check>` for such tasks) reads the shop's orders, the
wiki's view log, the answer and the street world's path - the semantic state, never pages: ``web`` = every
order right (and, with a question, the article viewed and the answer right); ``embodied`` = every errand's
place reached and the episode ended with ``stop`` at one of them (whichever the agent kept for last);
``overall`` = both; ``completion`` = the fraction of the sub-goals (per purchase: ordered right, reached;
per question: article viewed, answer right, reached; the stop).
"""

from __future__ import annotations

from typing import Any

from embodiedweb.domains.base import Episode
from embodiedweb.domains.outdoor.common import GOAL_RADIUS_M, city, near, there_since
from embodiedweb.tasks import Task, TaskError


def near_nodes(node: str) -> frozenset[str]:
    """The nodes within the goal radius of ``node`` by walking distance (where standing counts as there)."""
    from embodiedweb.worlds.street.world import walking_distances

    return frozenset(walking_distances(city(), node, GOAL_RADIUS_M))


def place_of(errand: dict[str, Any]) -> str:
    """The street node an errand takes the walker to."""
    return errand["store_node"] if errand["kind"] == "buy" else errand["place_node"]


def holds(item: dict[str, Any], product_id: str, options: dict[str, str] | None) -> bool:
    """An order line is at least one of ``product_id`` with every option of ``options``."""
    return item.get("product_id") == product_id and all(
        (item.get("options") or {}).get(k) == v for k, v in (options or {}).items()) and int(item.get("qty", 0)) >= 1


def purchase_ok(orders: list[dict[str, Any]], errand: dict[str, Any]) -> bool:
    """What was bought of the errand's product is exactly what it asks: a pickup order at its store holds the
    product with its options, and every unit of the product ordered anywhere (any store, any delivery) is one
    of those, ``qty`` of them in all (one unless the errand says). Ordering every option, extra units, or
    another store's order of it is no way to follow the instruction."""
    pid, options = errand["product_id"], errand.get("options")
    lines = [(o, i) for o in orders for i in o["items"] if i.get("product_id") == pid]
    return bool(lines) and all(
        o["store_id"] == errand["store_id"] and o.get("delivery") == "pickup" and holds(i, pid, options)
        for o, i in lines) and sum(int(i.get("qty", 0)) for _o, i in lines) == int(errand.get("qty", 1))


def placed_at(orders: list[dict[str, Any]], errand: dict[str, Any]) -> int:
    """The step at which the errand's product was first ordered at its store (0 for an order without a step);
    ``orders`` are the live ones (a cancelled order's step is not when anything waited at the store)."""
    return min((int(o.get("at") or 0) for o in orders if o["store_id"] == errand["store_id"]
                and any(i.get("product_id") == errand["product_id"] for i in o["items"])), default=0)


def check_errands(episode: Episode) -> dict[str, Any]:
    """The metrics of an errands task (see the module docstring)."""
    from embodiedweb.domains.outdoor.traveling import fact_read, judge_answer
    from web_sites.shop.catalog import live_orders

    errands = episode.task.goal["errands"]
    # a cancelled order bought nothing: neither the purchase nor the walk's timing reads it
    orders = live_orders(episode.web_state.get("shop", {}).get("orders", []))
    walked = set(episode.world_state.get("path", []))
    web_ok, reached, subgoals, verdicts = [], [], [], {}
    for e in errands:
        if e["kind"] == "buy":  # the store reached once the order existed (passing it before picks nothing up)
            got = there_since(episode.world_state, e["store_node"], placed_at(orders, e))
        else:
            got = bool(walked & near_nodes(place_of(e)))
        reached.append(got)
        if e["kind"] == "buy":
            ok = purchase_ok(orders, e)
            web_ok.append(ok)
            subgoals += [ok, got]
        else:
            viewed = fact_read(episode.web_state, e)
            verdict = judge_answer(episode.answer, {"slug": e["slug"], "fact": e["fact"]})
            verdicts[e["place_id"]] = verdict
            web_ok.append(viewed and verdict.ok)
            subgoals += [viewed, verdict.ok, got]
    node = episode.world_state.get("node")
    stopped = episode.answer is not None and any(near(node, place_of(e)) for e in errands)
    subgoals.append(stopped)
    web, embodied = all(web_ok), all(reached) and stopped
    out: dict[str, Any] = {"overall": web and embodied, "web": web, "embodied": embodied,
                           "completion": sum(subgoals) / len(subgoals), "errands_done": sum(
                               w and r for w, r in zip(web_ok, reached, strict=True)), "errands": len(errands)}
    wrong = [v.reason for v in verdicts.values() if not v.ok]
    if wrong:
        out["answer_error"] = wrong[0]
    return out


def validate_errands(task: Task) -> None:
    """Raise ``TaskError`` naming the task and the field for a malformed errand."""
    from embodiedweb.domains.outdoor.traveling import fact_of
    from web_sites.shop import catalog

    errands = task.goal.get("errands")
    tid = task.task_id
    if not isinstance(errands, list) or len(errands) < 2:
        raise TaskError(f"task {tid!r}: field 'goal.errands': must list at least two errands")
    for k, e in enumerate(errands):
        where = f"goal.errands[{k}]"
        if not isinstance(e, dict) or e.get("kind") not in ("buy", "ask"):
            raise TaskError(f"task {tid!r}: field '{where}.kind': must be 'buy' or 'ask'")
        node_key = "store_node" if e["kind"] == "buy" else "place_node"
        if e.get(node_key) not in city().nodes:
            raise TaskError(f"task {tid!r}: field '{where}.{node_key}': unknown node {e.get(node_key)!r}")
        if e["kind"] == "buy":
            product = catalog.product(str(e.get("product_id", "")))
            if product is None:
                raise TaskError(f"task {tid!r}: field '{where}.product_id': unknown product {e.get('product_id')!r}")
            if catalog.store(str(e.get("store_id", ""))) is None:
                raise TaskError(f"task {tid!r}: field '{where}.store_id': unknown store {e.get('store_id')!r}")
            try:
                catalog.normalize_options(product, {str(a): str(b) for a, b in (e.get("options") or {}).items()})
            except (ValueError, AttributeError) as err:
                raise TaskError(f"task {tid!r}: field '{where}.options': {err}") from None
        else:
            fact = fact_of({"slug": e.get("slug"), "fact": e.get("fact")})
            if fact is None or str(fact["value"]) != str(e.get("answer")):
                raise TaskError(f"task {tid!r}: field '{where}.answer': does not agree with the article "
                                f"{e.get('slug')!r}'s fact {e.get('fact')!r}; regenerate the suite")


def tour(start: str, errands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The errands in the order of the shortest walk through their places from ``start`` (ties: as listed)."""
    from itertools import permutations

    def length(order: tuple[int, ...]) -> float:
        nodes = [start] + [place_of(errands[i]) for i in order]
        return sum(city().shortest_length(a, b) for a, b in zip(nodes, nodes[1:], strict=False))

    best = min(permutations(range(len(errands))), key=lambda o: (length(o), o))
    return [errands[i] for i in best]
