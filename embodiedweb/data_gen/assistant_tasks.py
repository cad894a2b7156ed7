"""Generate EWA-Assistant-v0's episodes (``data/assistant/tasks.jsonl``):
``python -m embodiedweb.data_gen.assistant_tasks`` (``--check``: compare with the shipped file).

An episode is a user giving 4-11 instructions one at a time, at home (a kitchen and the sites; 320
episodes) or out in Manhattan (the street and the sites; 120 *outings*). At home the turns come in blocks,
shuffled (the kitchen block and the closing question stay last):

* **recipes** (3 turns): open the first two results of a diet + ingredient search in new tabs; go back to
  the first one (a reference to the tabs just opened); say which of the two is quicker / has fewer steps
  (a reference, answered by name);
* **shopping** (2 turns, and a question at the end): order one more of "the food on the dining table"
  (grounded: only the kitchen shows which food it is), the cheapest product of that food at whichever store
  sells it for least, for pickup; another product "from the same store as last time" (a reference); at the
  end "what was the first thing I asked you to order?" (a reference back in time);
* **recipe lookup** (1 turn): open the quickest recipe of a kind (diet, level, a piece of equipment) that
  uses the food at a place in the kitchen, any of the quickest when several tie (grounded: the kind is one
  where the food decides the answer);
* **kitchen** (1 turn, always): put the food at one place into another (grounded, embodied).

Every episode has the kitchen block and two or three of the others, so every episode has a grounded turn
and a reference; the values that make each turn unambiguous (distinct names, no ties on time, steps or
price) are checked here.

An outing starts at a street node from which one place of its kind is seen (not "here"), farther than twice the
goal radius from it along the streets (stop 38: so the walk there and the walk back each need a walk): "what is the
museum you can see from here called?" (grounded: the street view names it) and then a fact about "it" from
the wiki (a year or the architect), or "order one X from the grocery store you can see from here"; "walk
over to it" (a reference); sometimes a recipes block before; "take me back to where we started" last.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
from typing import Any

from embodiedweb.data_gen.output import write_or_check
from embodiedweb.domains.assistant.grounding import FOODS, PLACE_WORDS, Target, targets
from embodiedweb.paths import data_dir
from web_sites.recipes import catalog as recipes
from web_sites.shop import catalog as shop

N_EPISODES = 320
#: episodes out in the city (ids after the kitchen ones)
N_STREET = 120
SEED = 18
DIETS = ("vegetarian", "vegan", "gluten-free")
DEST_TYPES = ("DiningTable", "Fridge", "SinkBasin")


def kitchen_state(kitchen_id: str, config: dict[str, Any] | None = None) -> dict[str, Any]:
    """The kitchen's semantic state at an episode's start (``config``: the task's ``embodied``, default the
    kitchen as it is)."""
    from embodiedweb.worlds.kitchen.world import KitchenWorld

    w = KitchenWorld()
    w.reset(config or {"kitchen_id": kitchen_id}, 0)
    return w.semantic_state()


def dressed_kitchen(i: int, kitchen_id: str, plain: dict[str, Any]) -> dict[str, Any]:
    """Episode ``i``'s ``embodied``: the kitchen with its food swapped by a permutation of :data:`FOODS` drawn
    for the episode, each piece where the kitchen keeps one (``remove`` every food type, ``add`` the swapped
    types at the same receptacles by id). Without it a kitchen always held the same food at the same place, so
    an agent that had learnt the train episodes' kitchens knew "the food in the fridge" of a test episode
    without looking (a red-team agent did, in 94 of 96 test episodes). ``teleport = "seen"``: what the closed
    fridge holds is named only once it is opened (else ``Teleport [Tomato]`` said "inside the closed Fridge", and
    a refused pickup gave a tomato's id and distance, without a look)."""
    from embodiedweb.domains.assistant.grounding import FOODS

    order = list(FOODS)
    random.Random(f"{SEED}-{i}-food").shuffle(order)
    swap = dict(zip(FOODS, order, strict=True))
    foods = [o for o in plain["objects"] if o["objectType"] in FOODS and o.get("parentReceptacles")]
    return {"kitchen_id": kitchen_id, "remove": sorted({o["objectType"] for o in plain["objects"]
                                                         if o["objectType"] in FOODS}),
            "add": [{"type": swap[o["objectType"]], "on": o["parentReceptacles"][0]} for o in foods],
            "teleport": "seen"}


def _label(name: str) -> str:
    return name.lower()


def recipes_block(rng: random.Random, used: set[tuple[str, str]], salt: str = "") -> list[dict[str, Any]] | None:
    """Open two search results, go back to the first, compare them. The comparison asks for the one that takes
    less time (has fewer steps) or more, a coin toss per episode (``salt``) that leaves ``rng`` as it was: the
    search results are sorted by name, and the first of two was the quicker one in 81 % of the turns, so
    answering the first result without opening either passed 112 of 140 test compare turns (until stop 33)."""
    combos = [(d, i) for d in DIETS for i in recipes.INGREDIENT_LABELS if (d, i) not in used]
    rng.shuffle(combos)
    for diet, ing in combos:
        hits = recipes.search("", [diet], "", [ing], [])
        if len(hits) < 2:
            continue
        a, b = hits[0], hits[1]
        if a["name"] == b["name"] or norm_in(a["name"], b["name"]):
            continue
        measures = [m for m in ("time", "steps") if _measure(a, m) != _measure(b, m)]
        if not measures:
            continue
        used.add((diet, ing))
        m = rng.choice(measures)
        win, lose = (a, b) if _measure(a, m) < _measure(b, m) else (b, a)
        if random.Random(f"{SEED}-{salt}-{diet}-{ing}-{m}-more").random() < 0.5:
            win, lose = lose, win
            what = "takes more time to make" if m == "time" else "has more steps"
        else:
            what = "takes less time to make" if m == "time" else "has fewer steps"
        return [
            turn("open_two", f"Find {diet} recipes with {_label(ing)} on the recipe site and open the first two "
                             "results, each in a new tab.", False, False, "domain", "web",
                 {"recipes": [a["recipe_id"], b["recipe_id"]], "diet": diet, "ingredient": ing},
                 {"diet": diet, "ing": _label(ing)}),
            turn("focus", "Go back to the tab of the one of those two that came first in the results.", True, False, "reference", "web",
                 {"recipe": a["recipe_id"]}),
            turn("compare", f"Which of those two {what}? Tell me its name.", True, False, "reference", "answer",
                 {"name": win["name"], "others": [lose["name"]], "measure": m}, {"what": what, "m": m}),
        ]
    return None


def _measure(r: dict[str, Any], m: str) -> int:
    return int(r["time_minutes"]) if m == "time" else len(r["steps"])


def norm_in(a: str, b: str) -> bool:
    """Whether one name contains the other (then naming one names both)."""
    from embodiedweb.domains.assistant.checks import names

    return names(a, b) or names(b, a)


def shopping_block(rng: random.Random, t: Target) -> tuple[list[dict[str, Any]], dict[str, Any]] | None:
    """Order the cheapest product of the food at a place (at its cheapest store); another product at that store."""
    offers = sorted((price, p["product_id"], s) for p in shop.products_for_type(t.food)
                    for s, price in shop.offers(p["product_id"]).items())
    if len(offers) < 2 or offers[0][0] == offers[1][0]:
        return None
    _, pid, store = offers[0]
    # products without options: the instruction names the product only, so no choice is left unsaid
    others = sorted(p["product_id"] for p in shop.products() if store in p["prices"] and not p.get("options")
                    and p["object_type"] not in (t.food,) and p["product_id"] != pid)
    qid = rng.choice(others)
    p, q = shop.product(pid), shop.product(qid)
    assert p is not None and q is not None
    if norm_in(p["name"], q["name"]):
        return None
    first = turn("order_grounded",
                 f"We're nearly out of the food {t.where}. Order one more of it: the cheapest product of that kind "
                 "the shop has, at whichever store sells it for least, for pickup in store.", False, True,
                 "grounding", "web", {"product": pid, "store": store, "delivery": "pickup", "food": t.food,
                                      "place": t.place}, {"where": t.where})
    second = turn("same_store", f"Also order one {q['name']} from the same store as last time, for pickup too.",
                  True, False, "reference", "web", {"product": qid, "store": store, "delivery": "pickup"},
                  {"q": q["name"]})
    recall = turn("recall", "Before we finish: what was the first thing I asked you to order today? Tell me the "
                            "product's name.", True, False, "reference", "answer",
                  {"name": p["name"], "others": [q["name"]]})
    return [first, second], recall


@functools.cache
def quickest_sets(diet: str, level: str, equipment: str) -> dict[str, tuple[str, ...]]:
    """Per food with recipes under these filters, the ids of its quickest ones (several when they tie)."""
    out = {}
    for food in FOODS:
        hits = recipes.search("", [diet] if diet else [], level, [food], [equipment] if equipment else [])
        if hits:
            fastest = min(r["time_minutes"] for r in hits)
            out[food] = tuple(sorted(r["recipe_id"] for r in hits if r["time_minutes"] == fastest))
    return out


def blind_rate(sets: dict[str, tuple[str, ...]]) -> float:
    """How often one recipe opened without knowing the food is among the quickest, the foods taken alike."""
    counts: dict[str, int] = {}
    for ids in sets.values():
        for rid in ids:
            counts[rid] = counts.get(rid, 0) + 1
    return max(counts.values()) / len(sets)


def lookup_block(rng: random.Random, t: Target) -> list[dict[str, Any]] | None:
    """Open the quickest recipe of a kind (diet, level, a piece of equipment) that uses the food at a place;
    any of the quickest when several tie. The kind is drawn among those whose quickest recipes for this food
    are quickest for no other food, and where one recipe opened blind (the food unseen) is right for the fewest
    foods: the instruction's words alone never tell the answer."""
    combos = [(diet, level) for diet in [*DIETS, ""] for level in ("", *recipes.DIFFICULTIES)]
    rng.shuffle(combos)  # the draw an episode made before equipment was part of the kind (keeps the others')
    pick = random.Random(f"{combos}-{t.place}-{t.food}")
    options = []
    for diet, level, equipment in sorted((d, lv, e) for d, lv in combos for e in ("", *recipes.EQUIPMENT_LABELS)):
        sets = quickest_sets(diet, level, equipment)
        mine = set(sets.get(t.food, ()))
        if len(sets) > 1 and mine and not any(mine & set(ids) for f, ids in sets.items() if f != t.food):
            options.append((blind_rate(sets), diet, level, equipment, sets[t.food]))
    if not options:
        return None
    least = min(o[0] for o in options)
    _, diet, level, equipment, ids = pick.choice([o for o in options if o[0] == least])
    kind = " ".join(w for w in (level, diet, "recipe") if w)
    needs = f", among those that need a {recipes.EQUIPMENT_LABELS[equipment].lower()}" if equipment else ""
    return [turn("recipe_grounded", f"On the recipe site, open the quickest {kind} that uses the food {t.where}"
                 f"{needs}; if several are equally quick, any of them will do.",
                 False, True, "grounding", "web", {"recipe": ids[0], "recipes": list(ids), "food": t.food,
                                                    "place": t.place, "diet": diet, "level": level,
                                                    "equipment": equipment},
                 {"kind": kind, "where": t.where, "needs": needs})]


def kitchen_block(rng: random.Random, state: dict[str, Any], t: Target) -> list[dict[str, Any]] | None:
    """Put the (single) food at a place into another place."""
    if len(t.objects) != 1:
        return None
    objs = {o["objectId"]: o for o in state["objects"]}
    dests = sorted(oid for oid, o in objs.items() if o["objectType"] in DEST_TYPES and oid != t.place
                   and sum(1 for x in objs.values() if x["objectType"] == o["objectType"]) == 1)
    if not dests:
        return None
    dest = rng.choice(dests)
    word = PLACE_WORDS[objs[dest]["objectType"]].replace("in the", "into the").replace("on the", "onto the")
    return [turn("move_grounded", f"In the kitchen, put the food {t.where} {word}.", False, True, "grounding",
                 "embodied", {"object": t.objects[0], "dest": dest, "food": t.food, "place": t.place},
                 {"where": t.where, "dest": word})]


#: how the user names a place's kind (categories whose places can be told apart by it)
CATEGORY_WORDS = {"station": "subway station", "church": "church", "theater": "theater", "museum": "museum",
                  "hotel": "hotel", "park": "park", "skyscraper": "skyscraper", "library": "library",
                  "university": "university building", "market": "market", "memorial": "memorial",
                  "store": "grocery store", "venue": "venue", "bridge": "bridge"}


def sightings() -> list[tuple[str, str]]:
    """``(node, place_id)``: the place is seen from the node (not "here") and is the only one of its kind
    there, so "the museum you can see from here" names it; sorted. The node is farther than twice the goal radius
    from the place along the streets (stop 38), so no spot within the place's radius is within the start's: "take me
    back to where we started" needs a walk back (a start 13 m from a walker standing at the theater passed it)."""
    from embodiedweb.domains.outdoor.common import GOAL_RADIUS_M
    from embodiedweb.worlds.street.city import load_city
    from embodiedweb.worlds.street.world import sight, walking_distances

    c = load_city()
    out = []
    for p in sorted(c.places.values(), key=lambda p: p.place_id):
        if not p.node_id or p.category not in CATEGORY_WORDS:
            continue
        near = walking_distances(c, p.node_id, 60.0)
        for nid in sorted(n for n, d in near.items() if d > 2 * GOAL_RADIUS_M):
            here, seen = sight(c, nid)
            if any(q.place_id == p.place_id for _, q in here) or not any(q.place_id == p.place_id for *_, q in seen):
                continue
            kinds = [q.category for *_, q in seen] + [q.category for _, q in here]
            if kinds.count(p.category) == 1:
                out.append((nid, p.place_id))
    return out


def street_episode(i: int, node: str, place_id: str, rng: random.Random) -> dict[str, Any] | None:
    """An outing: name the place of a kind in sight (or order at the grocery store in sight), a fact about it
    from the wiki, walk to it, (a recipes block first, sometimes), and back to the start at the end."""
    from embodiedweb.worlds.street.city import load_city
    from embodiedweb.worlds.street.world import sight

    c = load_city()
    p = c.places[place_id]
    here, seen = sight(c, node)
    others = sorted({q.name for *_, q in seen if q.place_id != place_id} | {q.name for _, q in here})
    word = CATEGORY_WORDS[p.category]
    turns: list[dict[str, Any]] = []
    if p.category == "store":
        store = p.data.get("store_id") or place_store(place_id)
        pool = sorted(x["product_id"] for x in shop.products() if store in x["prices"] and x["object_type"] is None
                      and not x.get("options"))
        q = shop.product(rng.choice(pool))
        assert q is not None
        turns.append(turn("order_seen", f"Order one {q['name']} from the {word} you can see from here, for pickup in "
                          "store.", False, True, "grounding", "web",
                          {"product": q["product_id"], "store": store, "delivery": "pickup", "place": place_id},
                          {"q": q["name"], "word": word}))
    else:
        turns.append(turn("name_seen", f"What is the {word} you can see from here called? Tell me its name.", False,
                          True, "grounding", "answer", {"name": p.name, "others": others, "place": place_id},
                          {"word": word}))
        d = c.places[place_id].data
        facts = []
        year = d.get("year_built") or d.get("opened")
        if year and str(year).isdigit():
            verb = "built" if d.get("year_built") else "opened"
            facts.append(turn("fact_year", f"In what year was it {verb}? The wiki will know.", True, False, "reference",
                              "answer", {"year": int(year), "place": place_id}, {"verb": verb}))
        if isinstance(d.get("architect"), str) and d["architect"] and "," not in d["architect"]:
            facts.append(turn("fact_architect", "Who was its architect? The wiki will know.", True, False,
                              "reference", "answer", {"name": d["architect"], "others": [], "place": place_id}))
        if not facts:
            return None
        turns.append(rng.choice(facts))
    turns.append(turn("walk_there", "Let's go there: walk over to it.", True, False, "reference", "embodied",
                      {"node": p.node_id, "place": place_id}))
    blocks = [turns]
    if rng.random() < 0.5 or len(turns) < 3:  # at least 4 turns with the way back
        r = recipes_block(rng, set(), f"street-{i}")
        if r is None:
            return None
        blocks.insert(0, r)
    turns = [t for b in blocks for t in b]
    turns.append(turn("go_back", "Now take me back to where we started.", True, False, "reference", "embodied",
                      {"node": node}))
    phrase(turns, random.Random(f"{SEED}-{i}-say"))
    heading = round(rng.uniform(0, 360), 1)
    return {
        "task_id": f"assist-{i:03d}", "env_id": "EWA-Assistant-v0",
        "split": "test" if i % 10 < 3 else "train", "start": "embodied",
        "instruction": turns[0]["text"],
        "embodied": {"world": "street", "start": node, "heading": heading}, "web": {"start_url": "/"},
        "goal": {"turns": turns},
        "meta": {"n_turns": len(turns), "blocks": (["recipes"] if len(blocks) > 1 else []) + ["outing"],
                 "max_steps": 120 + 25 * len(turns), "refers": sum(t["refers"] for t in turns),
                 "grounded": sum(t["grounded"] for t in turns)},
    }


def place_store(place_id: str) -> str:
    """The shop's store id of a store place."""
    import json

    from embodiedweb.paths import data_dir

    for p in json.loads((data_dir() / "places" / "places.json").read_text(encoding="utf-8")):
        if p["place_id"] == place_id:
            return str(p["store_id"])
    raise KeyError(place_id)


def turn(kind: str, text: str, refers: bool, grounded: bool, category: str, side: str,
         expect: dict[str, Any], slots: dict[str, Any] | None = None) -> dict[str, Any]:
    """One instruction: what it says, what it leans on, and what its checker expects (``slots``: the words
    its other phrasings need, dropped by :func:`phrase`)."""
    return {"kind": kind, "text": text, "refers": refers, "grounded": grounded, "category": category,
            "side": side, "expect": expect, "_slots": slots or {}}


#: other ways a user says each kind of instruction (the first phrasing is the one built with the turn); an
#: episode's turns each take one at random, so no fixed template covers the suite
PHRASES: dict[str, tuple[str, ...]] = {
    "open_two": ("Could you pull up {diet} recipes that have {ing} in them and open the top two hits in tabs of "
                 "their own?",
                 "I'd like to see {diet} dishes made with {ing}: search the recipe site and put the first two "
                 "results in two new tabs."),
    "focus": ("Switch back to whichever of those two was listed higher.",
              "Show me again the one that was higher up in the search results."),
    "compare": ("Between those two, which one {what}? Just the name, please.",
                "Of the pair you opened, tell me the name of the one that {what}."),
    "order_grounded": ("Something {where} is running low. Get me another one, the cheapest version of it on the "
                       "shop at the store where it costs least, and I'll pick it up.",
                       "Could you reorder the food {where}? Buy one unit of the cheapest product of that food, "
                       "from the store with the lowest price, for pickup."),
    "same_store": ("Also get one {q} while you're at it, same store as before, pickup again.",
                   "And one {q}, please, from that same store, for pickup."),
    "recall": ("One last thing: which product did I ask you to order first? Give me its name.",
               "Remind me of the name of the very first product I had you order."),
    "recipe_grounded": ("Find me the {kind} with the shortest cooking time that uses the food {where}{needs}, and "
                        "open it (any one of them, if several tie).",
                        "What's the fastest {kind} that uses the food {where}{needs}? Open it on the recipe site; "
                        "if a few are equally fast, any will do."),
    "move_grounded": ("Please move the food {where} {dest}.",
                      "Could you take the food {where} and put it {dest}?"),
    "order_seen": ("Buy one {q} at the {word} in sight from here; I'll pick it up.",
                   "Get me one {q} from the {word} you can see nearby, for pickup."),
    "name_seen": ("There's a {word} in view. What's it called?", "Tell me the name of the {word} you can see from "
                                                                  "where you stand."),
    "fact_year": ("Look it up: what year was it {verb}?", "When was it {verb}? Give me the year; check the wiki."),
    "fact_architect": ("Look it up: who designed it?", "Which architect designed it? Check the wiki."),
    "walk_there": ("Take me over there.", "Walk us to it, please."),
    "go_back": ("Let's head back to our starting point.", "Walk me back to where we began."),
}


def phrase(turns: list[dict[str, Any]], rng: random.Random) -> None:
    """Give each turn one of its phrasings (the built one or one of :data:`PHRASES`) and drop its slots."""
    for t in turns:
        slots = t.pop("_slots")
        k = rng.randrange(1 + len(PHRASES[t["kind"]]))
        if k:
            t["text"] = PHRASES[t["kind"]][k - 1].format(**slots)


def episode(i: int, kitchen_id: str, plain: dict[str, Any]) -> dict[str, Any] | None:
    """Episode ``i`` in ``kitchen_id`` (``plain``: its state undressed), or None when the kitchen does not allow
    the blocks drawn."""
    rng = random.Random(f"{SEED}-{i}")
    embodied = dressed_kitchen(i, kitchen_id, plain)
    state = kitchen_state(kitchen_id, embodied)
    tg = targets(state)
    singles = [t for t in tg if len(t.objects) == 1]
    if not singles:
        return None
    move_t = rng.choice(singles)
    kitchen = kitchen_block(rng, state, move_t)
    if kitchen is None:
        return None
    wanted = rng.choice([("recipes", "shopping"), ("recipes", "lookup"), ("shopping", "lookup"),
                         ("recipes", "shopping", "lookup"), ("recipes", "recipes", "shopping"),
                         ("recipes", "recipes", "shopping", "lookup")])
    blocks: list[list[dict[str, Any]]] = []
    closing: list[dict[str, Any]] = []
    used: set[tuple[str, str]] = set()
    for name in wanted:
        if name == "recipes":
            b = recipes_block(rng, used, f"home-{i}-{len(blocks)}")
        elif name == "shopping":
            got = shopping_block(rng, rng.choice(tg))
            b, closing = (got[0], [got[1]]) if got else (None, [])
        else:
            b = lookup_block(rng, rng.choice(tg))
        if b is None:
            return None
        blocks.append(b)
    rng.shuffle(blocks)
    turns = [t for b in blocks for t in b] + kitchen + closing
    phrase(turns, random.Random(f"{SEED}-{i}-say"))
    return {
        "task_id": f"assist-{i:03d}", "env_id": "EWA-Assistant-v0",
        "split": "test" if i % 10 < 3 else "train", "start": "web",
        "instruction": turns[0]["text"],
        "embodied": embodied, "web": {"start_url": "/"},
        "goal": {"turns": turns},
        "meta": {"n_turns": len(turns), "blocks": list(wanted), "max_steps": 40 + 25 * len(turns),
                 "refers": sum(t["refers"] for t in turns), "grounded": sum(t["grounded"] for t in turns)},
    }


def generate() -> list[dict[str, Any]]:
    """Every episode, in id order (deterministic)."""
    from embodiedweb.worlds.kitchen.kitchens import list_kitchens

    states = {k: kitchen_state(k) for k in list_kitchens()}
    kitchens = [k for k in sorted(states) if targets(states[k])]
    out: list[dict[str, Any]] = []
    i = attempt = 0
    while len(out) < N_EPISODES:
        k = kitchens[attempt % len(kitchens)]
        attempt += 1
        ep = episode(i, k, states[k])
        if ep is not None:
            out.append(ep)
            i += 1
        if attempt > 50 * N_EPISODES:
            raise RuntimeError("cannot draw enough assistant episodes")
    seen = sightings()
    # every place in turn (the stores first: they are few), a node it is seen from drawn per episode
    by_place: dict[str, list[str]] = {}
    for nid, pid in seen:
        by_place.setdefault(pid, []).append(nid)
    order = sorted(by_place, key=lambda pid: (not pid.endswith("-store"), pid))
    k = 0
    while len(out) < N_EPISODES + N_STREET:
        pid = order[k % len(order)]
        rng = random.Random(f"{SEED}-{i}")
        ep = street_episode(i, rng.choice(by_place[pid]), pid, rng)
        k += 1
        if ep is not None:
            out.append(ep)
            i += 1
        if k > 50 * N_STREET:
            raise RuntimeError("cannot draw enough assistant outings")
    return out


def render(tasks: list[dict[str, Any]]) -> str:
    """The JSONL text of the suite."""
    return "".join(json.dumps(t, sort_keys=True, ensure_ascii=False) + "\n" for t in tasks)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the shipped file instead of writing it")
    args = ap.parse_args(argv)
    return write_or_check(data_dir() / "assistant" / "tasks.jsonl", render(generate()), args.check, __spec__.name)


if __name__ == "__main__":
    sys.exit(main())
