"""The cooking checker: was the recipe followed on the web, and is the dish this recipe and only it?

It reads semantic state only: the recipe site's view log (each view stamped with the env's step
number), the shop's orders, and the kitchen's objects (their states, heat history and the step
number at which each was sliced or first heated by each appliance, and at which it last came to rest
in its receptacle).

**web** — the recipe was followed:
- every step page of the recipe viewed, in order (going back and forth is fine: some views
  ``t_1 < t_2 < ... < t_n`` of steps ``1..n`` exist, and the earliest such views are used);
- no step's kitchen work on the dish was done before that step's page was viewed, nor before an earlier
  step's work on the same component (a potato fried whole and sliced after, where the recipe slices it and
  fries the slices, was not made by the recipe; a component sliced
  or heated before the step that slices or heats it was read, or resting on the dish since before the step
  that puts it there was read, does not count as following it; a component taken off and put back after
  reading is placed then, one inside a container on the dish arrived when the later of the two was put, and
  one put on the dish raw to be cooked there, by a cook step already read, was served by that step);
- a missing ingredient was ordered for delivery to the kitchen: one item of it (a pack is one item; six
  of it, or two products of it, are not what "order one" asks);
- nothing else was ordered for delivery to the kitchen (orders cancelled before they reached the kitchen,
  :func:`~web_sites.shop.catalog.live_orders`, count for neither) (a gate, like the dish's: hedging by ordering
  every ingredient fails, and so does ordering what the kitchen has). It is listed in ``conditions``
  when it fails, and always for tasks whose instruction leaves the missing ingredient to be found
  (``goal.missing_told`` false, the hard tier).

**embodied** — the dish is this recipe, and only this recipe:
- one dish of the recipe's type holds a component for every final condition: the right type, the
  cooked/raw state, and heated by the appliance the recipe names (a pan's apple is not a microwaved
  one, nor a frying pan's a saucepan's, either way round; warming the whole dish later adds a heat source); a
  component served raw was never heated (a microwaved lettuce slice is not raw lettuce, though lettuce never
  counts as cooked);
- that dish holds nothing the recipe does not put on it, and one piece of each component (hedging with both
  versions on one plate fails, and so does every slice of a food where the recipe puts one),
  and is not also a complete version of another recipe of the same name (one component made both ways);
- no other dish in the kitchen holds every component of another recipe of the same name (hedging with
  one plate per version fails).

**completion** is the share of the sub-goals met: each step viewed in order (and not preceded by its work), the
order, and each final component on the dish made in the episode (a prepared leftover served counts no
component: :func:`made_components`); each broken gate (an extra order, something else on the dish, another
version served) takes one sub-goal's worth off, never below 0. Until checker version 9 a broken gate zeroed its
whole side, so an honest dish with one extra order scored 0.23 and a served leftover 0.69 (cook-hard-001).
"""

from __future__ import annotations

from typing import Any

from web_sites.recipes import catalog
from web_sites.shop import catalog as shop_catalog

#: The heat source that a recipe's cooking method means (a pan and a pot both sit on a burner).
HEAT_SOURCE = {"pan": "StoveBurner", "pot": "StoveBurner", "microwave": "Microwave", "toaster": "Toaster"}


#: the event of food heated on a burner in the vessel a cook step names (:mod:`~embodiedweb.worlds.kitchen.sim`):
#: "... in the saucepan" is the pot's heat, "... in the frying pan" the pan's
VESSEL_HEAT = {"pot": "StoveBurner:Pot", "pan": "StoveBurner:Pan"}


def final_of(recipe: dict[str, Any]) -> list[dict[str, Any]]:
    """The recipe's final conditions, each component a step cooks in a named vessel ("... in the saucepan": cook
    ``how`` ``pot``; "... in the frying pan": ``pan``) heated on a burner in that kind of vessel, not only by a
    burner: a step that names its vessel is done only with that kind, as one naming the microwave or the toaster
    (a whole egg fried in the dry frying pan is not boiled: until checker version 6 it passed, 322 of 322
    standard episodes; an egg "fried in the frying pan" cooked in the saucepan is not fried: until checker
    version 8 it passed, ``WrongVesselNamed``). Every cook step of the recipes names its vessel or appliance."""
    vessel: dict[str, str] = {}
    for step in recipe["steps"]:
        for op in step["ops"]:
            if op["op"] == "cook" and op.get("how") in VESSEL_HEAT:
                vessel[op["obj"]] = VESSEL_HEAT[op["how"]]
    for t, src in list(vessel.items()):
        vessel.setdefault(sliced_type(t), src)
    if not vessel:
        return list(recipe["final"])
    return [{**c, "heated_by": vessel[c["type"]]} if c["type"] in vessel and c.get("heated_by") == "StoveBurner"
            else c for c in recipe["final"]]


def sliced_type(object_type: str) -> str:
    """What slicing ``object_type`` makes (an egg cracks)."""
    return "EggCracked" if object_type == "Egg" else f"{object_type}Sliced"


def heat_sources(obj: dict[str, Any]) -> set[str]:
    """The appliances that have heated ``obj`` (from its history)."""
    return {h.split(":", 1)[1] for h in obj.get("history", []) if h.startswith("heated:")}


def raw(cond: dict[str, Any]) -> bool:
    """Whether ``cond`` is a component the recipe serves raw: uncooked, and heated by no appliance it names."""
    return cond.get("state", {}).get("isCooked") is False and not cond.get("heated_by")


def matches(obj: dict[str, Any], cond: dict[str, Any]) -> bool:
    """``obj`` is the component ``cond`` asks for: type, states and (among its heat sources) the named one. A
    component served raw was never heated: heat makes food no longer raw whether or not the kitchen marks it
    cooked (lettuce never is: until checker version 7 a raw lettuce slice microwaved on the finished dish passed,
    16 of 60 hard episodes that warmed a dish with a raw component)."""
    if obj["objectType"] != cond["type"]:
        return False
    if any(obj.get(k) != v for k, v in cond.get("state", {}).items()):
        return False
    if raw(cond) and ("heated" in obj.get("history", []) or heat_sources(obj)):
        return False
    src = cond.get("heated_by")
    return not src or src in heat_sources(obj)


def steps_viewed_in_order(views: list[list[Any]], recipe_id: str, n: int) -> list[int | None]:
    """For steps 1..n, the clock time of the earliest in-order view (``None`` from the first gap on).

    ``views`` are in the order they happened (the site's log), so their times never decrease."""
    out: list[int | None] = []
    want = 1
    for v in views:
        if want > n:
            break
        rid, step = v[0], v[1]
        t = v[2] if len(v) > 2 and v[2] is not None else 0
        if rid == recipe_id and step == want:
            out.append(t)
            want += 1
    return out + [None] * (n - len(out))


def work_steps(recipe: dict[str, Any]) -> dict[str, list[tuple[int, str]]]:
    """Component type -> the (step index from 0, stamp name) of each step that makes or heats it."""
    out: dict[str, list[tuple[int, str]]] = {}
    for i, step in enumerate(recipe["steps"]):
        for op in step["ops"]:
            if op["op"] == "slice":
                out.setdefault(sliced_type(op["obj"]), []).append((i, "sliced"))
            elif op["op"] == "cook":
                out.setdefault(op["obj"], []).append((i, f"heated:{HEAT_SOURCE[op['how']]}"))
    return out


def place_steps(recipe: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """(step index from 0, the component as a condition: type and state) of each step that puts one on the dish."""
    return [(i, {"type": op["obj"], "state": op.get("state", {})})
            for i, step in enumerate(recipe["steps"]) for op in step["ops"] if op["op"] == "place"]


def arrival(obj: dict[str, Any], dish_id: str, by_id: dict[str, dict[str, Any]]) -> int | None:
    """The clock time ``obj`` came to rest in ``dish_id``: the latest ``placedAt`` along its way up to the dish
    (it and each container between), ``None`` when the world does not record placing."""
    times = [obj.get("placedAt")]
    for pid in obj.get("parentReceptacles", []):
        if pid == dish_id:
            break
        times.append(by_id.get(pid, {}).get("placedAt"))
    return None if any(t is None for t in times) else max(times)


def early_work(recipe: dict[str, Any], comps: list[dict[str, Any]], times: list[int | None],
               dish_id: str | None = None, world: dict[str, Any] | None = None,
               why: dict[int, str] | None = None) -> set[int]:
    """Indices of steps whose work on these components was done before the step was (in order) viewed, or before
    the work of an earlier step on the same component (slices inherit the whole food's stamps: a potato fried
    whole and sliced after, where the recipe slices it and fries the slices, has its frying before its slicing).
    A cook step's work is any heating of the component, by the appliance it names or another (``heated``, the
    first heating's time): food cooked ahead by another appliance and then given a turn on the named one was
    cooked before its step was read. With ``dish_id`` (the dish ``comps`` rest on) a place step's work is the
    :func:`arrival` on the dish of each component it puts there (in ``world``'s objects), unless it went on the
    dish to be cooked there by an earlier step (:func:`cooked_there`).

    ``why`` (if given) gets, for each such step whose page was viewed in order, what happened in words a reader
    of the metrics can act on ("the PotatoSliced served was cooked before the episode began, not by this step": a
    prepared leftover served; until stop 39 the verdict named the step only, as if its page came late)."""
    req = work_steps(recipe)
    bad: set[int] = set()
    note = why if why is not None else {}
    for o in comps:
        stamps = o.get("stamps", {})
        kind = o["objectType"]
        for i, stamp in req.get(kind, []):
            done = [stamps.get(s) for s in ((stamp, "heated") if stamp.startswith("heated:") else (stamp,))]
            early = [t for t in done if t is not None and (times[i] is None or t < times[i])]
            if early:
                bad.add(i)
                if times[i] is not None:
                    note.setdefault(i, f"the {kind} served was {_verb(stamp)} {_when(min(early))}")
        # the component's work in the recipe's order: a step's work done before an earlier step's (a whole egg
        # fried in its shell and cracked after, where the recipe cracks it and fries what it cracked) is not it
        ordered = [(i, stamp, work_time(stamps, stamp)) for i, stamp in req.get(kind, [])]
        for k, (i, si, ti) in enumerate(ordered):
            for j, sj, tj in ordered[k + 1:]:
                if j > i and ti is not None and tj is not None and tj < ti:
                    bad.add(j)
                    note.setdefault(j, f"the {kind} served was {_verb(sj)} before it was {_verb(si)} (step {i + 1})")
    if dish_id is not None:
        by_id = {o["objectId"]: o for o in (world or {}).get("objects", [])}
        for i, cond in place_steps(recipe):
            for o in comps:
                if matches(o, cond):
                    t = arrival(o, dish_id, by_id)
                    if t is not None and (times[i] is None or t < times[i]) and not cooked_there(o, t, req, i, times):
                        bad.add(i)
                        if times[i] is not None:
                            note.setdefault(i, f"the {o['objectType']} served was on the dish {_when(t)}")
    return bad


def _verb(stamp: str) -> str:
    """A work stamp in words: ``sliced``, or ``heated``/``heated:<appliance>`` as "cooked"."""
    return "cooked" if stamp.startswith("heated") else stamp


def _when(t: int) -> str:
    """When early work was done: before the episode (what the task prepared is stamped before the env's first
    step, :data:`~embodiedweb.worlds.kitchen.world.SETUP_TIME`) or at an env step before the step's page was
    viewed."""
    return "before the episode began, not by this step" if t < 1 else f"at step {t}, before this page was viewed"


def work_time(stamps: dict[str, int], stamp: str) -> int | None:
    """When a step's work on a component was first done: for a cook step (``heated:<appliance>``) its first
    heating by any appliance (``heated``: a potato cooked whole in the microwave, sliced, then given a turn in
    the pan the recipe names, was cooked before it was sliced; until checker version 6 the order test read
    the named appliance's stamp only, so cooking the whole food another way passed); else the step's stamp."""
    if stamp.startswith("heated:"):
        times = [t for t in (stamps.get(stamp), stamps.get("heated")) if t is not None]
        return min(times) if times else None
    return stamps.get(stamp)


def cooked_there(obj: dict[str, Any], arrived: int, req: dict[str, list[tuple[int, str]]], place_step: int,
                 times: list[int | None]) -> bool:
    """``obj`` went on the dish raw to be cooked there: a cook step before ``place_step``, read (in order,
    ``times``) by the time it ``arrived``, first heated it by its appliance after that, and nothing heated it
    before it arrived (food microwaved on its plate is served by that step, not ahead of the next; put there
    before that step was read, it was placed early; food already cooked another way when it went on the dish,
    then given a turn in the named appliance, was placed early too: until checker version 6 only the named
    appliance's first heating was read)."""
    stamps = obj.get("stamps", {})
    first = stamps.get("heated")
    if first is not None and first < arrived:
        return False
    return any(j < place_step and stamp.startswith("heated:") and times[j] is not None and times[j] <= arrived
               and stamps.get(stamp, -1) >= arrived for j, stamp in req.get(obj["objectType"], []))


def held(world: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Receptacle id -> everything resting in or on it (at any depth), in the world's order: one pass over the
    objects for all the dishes a check looks into."""
    out: dict[str, list[dict[str, Any]]] = {}
    for o in world.get("objects", []):
        parents = o.get("parentReceptacles")
        if not parents:
            continue
        for r in (parents if len(parents) == 1 else dict.fromkeys(parents)):
            out.setdefault(r, []).append(o)
    return out


def contents(world: dict[str, Any], dish_id: str) -> list[dict[str, Any]]:
    """Everything resting in or on ``dish_id`` (at any depth)."""
    return held(world).get(dish_id, [])


def complete_for(recipe: dict[str, Any], comps: list[dict[str, Any]]) -> bool:
    """Every final component of ``recipe`` is among ``comps`` (extras allowed)."""
    return all(any(matches(o, c) for o in comps) for c in final_of(recipe))


def exactly(recipe: dict[str, Any], comps: list[dict[str, Any]]) -> bool:
    """``comps`` are a complete version of ``recipe`` with nothing else."""
    return complete_for(recipe, comps) and all(any(matches(o, c) for c in final_of(recipe)) for o in comps)


def same_name(recipe: dict[str, Any]) -> list[dict[str, Any]]:
    """The other recipes an instruction naming ``recipe`` could mean (same name)."""
    return [r for r in _by_name().get(recipe["name"], ()) if r["recipe_id"] != recipe["recipe_id"]]


#: (the standard collection, its recipes by name in its order): the checker runs at every step a reward is shaped
_NAMED: tuple[Any, dict[str, list[dict[str, Any]]]] | None = None


def _by_name() -> dict[str, list[dict[str, Any]]]:
    """The standard collection's recipes by name, in its order (rebuilt if the collection is another one)."""
    global _NAMED
    collection = catalog.recipes()
    if _NAMED is None or _NAMED[0] is not collection:
        named: dict[str, list[dict[str, Any]]] = {}
        for r in collection:
            named.setdefault(r["name"], []).append(r)
        _NAMED = (collection, named)
    return _NAMED[1]


def one_each(final: Any, comps: list[dict[str, Any]], owner: dict[int, int] | None = None
             ) -> tuple[list[bool], list[dict[str, Any]]]:
    """(each final condition met by a piece of its own, the pieces left over): a recipe puts one piece of each
    component on the dish ("Put the cooked apple slice on the plate"), so a second matching piece is as foreign
    as a piece that matches nothing (until checker version 6 every slice of the food could go on the dish).
    A largest matching of pieces to conditions (a piece may match more than one condition); ``owner`` (if given)
    gets condition index -> index in ``comps`` of the piece serving it."""
    owner = {} if owner is None else owner  # condition index -> piece index

    def take(k: int, seen: set[int]) -> bool:
        for ci, cond in enumerate(final):
            if ci in seen or not matches(comps[k], cond):
                continue
            seen.add(ci)
            if ci not in owner or take(owner[ci], seen):
                owner[ci] = k
                return True
        return False

    for k in range(len(comps)):
        take(k, set())
    used = set(owner.values())
    return [ci in owner for ci in range(len(final))], [o for k, o in enumerate(comps) if k not in used]


def judge_dish(recipe: dict[str, Any], world: dict[str, Any], on: dict[str, list[dict[str, Any]]] | None = None
               ) -> tuple[str | None, list[bool], list[dict[str, Any]]]:
    """The dish that best serves ``recipe``: (id, per-final-condition ok, its foreign contents); ``on`` is
    :func:`held` of ``world`` (made if not given)."""
    on = held(world) if on is None else on
    best: tuple[tuple[int, int, str], str | None, list[bool], list[dict[str, Any]]] | None = None
    dishes = sorted(o["objectId"] for o in world.get("objects", []) if o["objectType"] == recipe["dish"])
    final = final_of(recipe)
    for d in dishes:
        oks, extra = one_each(final, on.get(d, []))
        key = (-sum(oks), len(extra), d)
        if best is None or key < best[0]:
            best = (key, d, oks, extra)
    if best is None:
        return None, [False] * len(recipe["final"]), []
    return best[1], best[2], best[3]


def other_versions_served(recipe: dict[str, Any], world: dict[str, Any], dish_id: str | None,
                          on: dict[str, list[dict[str, Any]]] | None = None) -> list[str]:
    """Other recipes of the same name served: the judged dish is exactly one too, or another dish holds
    every component of one (``on``: :func:`held` of ``world``, made if not given)."""
    on = held(world) if on is None else on
    out = []
    for other in same_name(recipe):
        if dish_id and exactly(other, on.get(dish_id, [])):
            out.append(f"{other['recipe_id']} on {dish_id}")
        for o in world.get("objects", []):
            if o["objectType"] == other["dish"] and o["objectId"] != dish_id \
                    and complete_for(other, on.get(o["objectId"], [])):
                out.append(f"{other['recipe_id']} on {o['objectId']}")
    return out


def extra_orders(orders: list[dict[str, Any]], missing: str | None) -> list[str]:
    """What was ordered besides the missing ingredient (sorted names), for delivery or for pickup: "ordered nothing
    the kitchen has" means no order of it at all (until checker version 9 a pickup order of a tomato the kitchen
    has passed; it gains an agent nothing, but the rule now means what its name says)."""
    return sorted({str(i.get("object_type") or i.get("name") or i.get("product_id"))
                   for o in orders for i in o.get("items", [])
                   if not missing or i.get("object_type") != missing})


def check_cooking(goal: dict[str, Any], world: dict[str, Any], web: dict[str, Any]) -> dict[str, Any]:
    """Metrics (see module docstring) with every condition by name in ``conditions``."""
    recipe = catalog.get(goal["recipe_id"])
    if recipe is None:
        raise KeyError(f"unknown recipe {goal['recipe_id']!r}")
    rid, n = recipe["recipe_id"], len(recipe["steps"])
    views = web.get("recipes", {}).get("views", [])
    times = steps_viewed_in_order(views, rid, n)
    on = held(world)
    dish, final_ok, extra = judge_dish(recipe, world, on)
    comps = on.get(dish, []) if dish else []
    why: dict[int, str] = {}
    early = early_work(recipe, comps, times, dish, world, why)

    web_conds = [(f"step {i + 1} of {rid} viewed in order, before its work" + (f" ({why[i]})" if i in why else ""),
                  times[i] is not None and i not in early) for i in range(n)]
    missing = goal.get("missing")
    # a cancelled order was withdrawn before it reached the kitchen (the shop refuses it after): it counts for nothing
    orders = shop_catalog.live_orders(web.get("shop", {}).get("orders", []))
    if missing:
        # one item of it (as the shop's checker reads "buy one": a pack is one item, six of it are six; until
        # checker version 6 any quantity passed)
        items = sum(int(i.get("qty", 1)) for o in orders if o.get("delivery") == "kitchen"
                    for i in o["items"] if i.get("object_type") == missing)
        web_conds.append((f"ordered a {missing} for delivery to the kitchen", items == 1))
    also = extra_orders(orders, missing)
    web_gates = []
    if also or goal.get("missing_told") is False:
        web_gates.append(("ordered nothing the kitchen has" + (f" (also ordered {', '.join(also)})" if also else ""),
                          not also))

    labels = [f"{c['type']} {c.get('state', {})}"
              f"{' heated by ' + c['heated_by'].replace(':', ' in a ') if c.get('heated_by') else ''} "
              f"in the {recipe['dish']}" for c in final_of(recipe)]
    emb_conds = list(zip(labels, final_ok, strict=True))
    others = other_versions_served(recipe, world, dish, on)
    gates = [(f"nothing else in the {recipe['dish']}" + (f" (has {', '.join(sorted(o['objectType'] for o in extra))})"
                                                         if extra else ""), not extra),
             ("no other version served" + (f" ({', '.join(others)})" if others else ""), not others)]

    web_gates_ok = all(ok for _, ok in web_gates)
    web_ok = all(ok for _, ok in web_conds) and web_gates_ok
    gates_ok = all(ok for _, ok in gates)
    emb_ok = bool(emb_conds) and all(ok for _, ok in emb_conds) and gates_ok
    conditions = {label: ok for label, ok in web_conds + web_gates + emb_conds + gates}
    made = made_components(recipe, comps)
    counted = sum(ok for _, ok in web_conds) + sum(ok and made[k] for k, (_, ok) in enumerate(emb_conds)) \
        - sum(not ok for _, ok in web_gates + gates)
    return {"overall": web_ok and emb_ok, "web": web_ok, "embodied": emb_ok,
            "completion": max(counted, 0) / (len(web_conds) + len(emb_conds)), "conditions": conditions,
            "dish": dish}


def made_components(recipe: dict[str, Any], comps: list[dict[str, Any]]) -> list[bool]:
    """Per final condition: the piece serving it on the dish (:func:`one_each`) was made in the episode, none of
    the work the recipe's steps do on it (slicing, heating) stamped before the env's first step (what a task
    prepares: leftovers). ``completion`` counts a component only then: a prepared leftover served is on the dish,
    but nobody in the episode made it (until checker version 9 it earned the component, and a served leftover
    outscored an honest dish with one slip)."""
    owner: dict[int, int] = {}
    final = final_of(recipe)
    one_each(final, comps, owner)
    req = work_steps(recipe)

    def made(o: dict[str, Any]) -> bool:
        stamps = o.get("stamps", {})
        names = {n for _, stamp in req.get(o["objectType"], []) for n in (stamp, "heated", "sliced")}
        return not any(stamps.get(n) is not None and stamps[n] < 1 for n in names)

    return [ci in owner and made(comps[owner[ci]]) for ci in range(len(final))]
