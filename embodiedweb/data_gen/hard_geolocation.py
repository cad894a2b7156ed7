"""The geolocation hard tier: ``python -m embodiedweb.data_gen.hard_geolocation [--check]``.

Writes ``data/geo/hard.jsonl`` (the tasks), ``data/geo/hard.standpoints.json`` (their standpoints) and
``data/wiki/hard.chains.json`` (wiki articles that only hard sessions see), deterministically.

What makes a task hard (issue 22, item 5: no street-name signs; cues lead to a region, the wiki leads from
there to the city):

- **Non-capital cities only**, and **no hint**: no street-name sign, no web address, no phone number.
- **No cue of the city alone.** The standard tier's chain, transport emblem and dish (each explained by an
  article that names one city) are gone. What the streets show of the city is the sign of a **regional
  chain**: its article lists its shops in three to five cities, each in another country of the same
  continent (in alphabetical order, so the place in the list says nothing).
- **The country decides**: the street's own country cues (traffic side, licence plates, the centre
  line, the sun, the script of the shop signs) rule out every other country of the chain's list, each
  by a cue the wiki's country articles describe (:func:`rules_out`); the generator keeps only groups
  where that holds for every member, so the task is solvable from what is seen and read, never a guess.
- Each chain serves every city of its list: the same article is the research of three to five tasks,
  and which city it points to depends on the street the agent stands in.

The regional chain is made up like the standard tier's cues (a name no other place or cue has); the
wiki says where its shops are and nothing else. Standpoints keep the standard ones' streets, viewpoints
and country cues (new opaque ids); the split is the standard tier's split of the same place, so a place
of a hard test task is never a standard train task, and a chain groups places of one split only (its list
never names a train answer beside a test one).

Hard articles live in ``hard.chains.json``: the wiki shows them only to sessions whose task asks for
them (``web.sites.wiki.extra = "hard"``), so standard sessions, their searches and their pages are
unchanged; files named ``hard.*`` are outside the standard tier's world digest.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from embodiedweb.data_gen import geo, geo_cues
from embodiedweb.data_gen.geo_places import SPOTS
from embodiedweb.data_gen.output import write_or_check
from embodiedweb.paths import data_dir

#: the smallest and largest number of cities a regional chain lists
GROUP_MIN, GROUP_MAX = 3, 5
#: what the hard sessions' wiki config names (``web.sites.wiki.extra``)
WIKI_EXTRA = "hard"
SEED = "geo-hard-v1"


def plates_listed(code: str) -> set[str]:
    """The licence plates a country's article lists (the country's, and those of its streets' overrides)."""
    c = geo.BY_CODE[code]
    return set(c["plates"]) | {p for s in SPOTS if s[0] == code for p in s[7].get("plates", [])}


def southern_only(code: str) -> bool:
    """Whether the country's article places it wholly in the Southern Hemisphere."""
    return code not in geo.HEMISPHERE and geo.BY_CODE[code]["capital_ll"][0] < 0


def northern_only(code: str) -> bool:
    return code not in geo.HEMISPHERE and geo.BY_CODE[code]["capital_ll"][0] > 0


def seen_items(sp: dict[str, Any]) -> list[dict[str, Any]]:
    """Everything the standpoint's views show."""
    return [it for node in sp["nodes"].values() for items in node["views"].values() for it in items]


def rules_out(sp: dict[str, Any], other: str) -> list[str]:
    """The cues seen at ``sp`` that the wiki's article on country ``other`` contradicts (empty: ``other`` stays
    possible). Only cues a country article states outright count: the side of the road cars drive on, a
    licence plate it does not list, a centre-line colour other than its one, the sun on the side of the
    sky that hemisphere never sees it, and shop signs in a script it does not write."""
    o = geo.BY_CODE[other]
    why = []
    items = seen_items(sp)
    if any(it["kind"] == "traffic" and it["side"] != o["drive"] for it in items):
        why.append("traffic side")
    if any(it["kind"] == "plate" and it["style"] not in plates_listed(other) for it in items):
        why.append("plate")
    if o["centre"] and any(it["kind"] == "centre" and it["colour"] != o["centre"] for it in items):
        why.append("centre line")
    for it in items:
        if it["kind"] == "sun" and ((it["side"] == "south" and southern_only(other))
                                    or (it["side"] == "north" and northern_only(other))):
            why.append("sun")
            break
    own = set(geo.BY_CODE[sp["country_code"]]["scripts"]) - {"latin"}
    if own and any(it.get("role") == "shop" and it.get("translit") for it in items) and not own & set(o["scripts"]):
        why.append("script")
    return why


def _strip(sp: dict[str, Any]) -> dict[str, Any]:
    """The standpoint without hints and without the cues of its city alone, under new opaque ids."""
    # ids of the standard form (keyed hashes of other messages: no clash with the standard tier's ids)
    sid = geo_cues.opaque_id("s", "hard", sp["country_code"], sp["city"], sp["street"])
    ids = {old: geo_cues.opaque_id("v", "hard", sid, old) for old in sp["nodes"]}
    nodes = {}
    for old, node in sp["nodes"].items():
        views = {h: [it for it in items if not it.get("hint") and not it.get("distinguishing")]
                 for h, items in node["views"].items()}
        nodes[ids[old]] = {**node, "views": views, "neighbors": {h: ids[n] for h, n in node["neighbors"].items()}}
    return {**sp, "id": sid, "nodes": nodes, "start": ids[sp["start"]], "hints": [], "distinguishing": [],
            "tier": "hard"}


def _far_nodes(sp: dict[str, Any]) -> list[str]:
    """Viewpoints two or more moves from the start (a walk is needed to see what they show)."""
    dist = {sp["start"]: 0}
    frontier = [sp["start"]]
    while frontier:
        nxt = []
        for n in frontier:
            for m in sp["nodes"][n]["neighbors"].values():
                if m not in dist:
                    dist[m] = dist[n] + 1
                    nxt.append(m)
        frontier = nxt
    return sorted(n for n, d in dist.items() if d >= 2)


#: keyed shuffles tried per region; the grouping that places the most standpoints is kept
TRIES = 300
#: regions a chain keeps to: a continent, the Americas as one
REGION = {"North America": "Americas", "South America": "Americas"}


def _grouping_score(found: list[list[int]], base: list[dict[str, Any]]) -> tuple[int, int]:
    """(standpoints placed, pairs of a group whose signs are in one language): placing more comes first; then
    groups whose countries write their signs in one language, where the language does not tell them apart
    and the road, the plates and the sun must."""
    lang = [geo_cues.LANG[s["country_code"]] for s in base]
    same = sum(lang[a] == lang[b] for g in found for i, a in enumerate(g) for b in g[i + 1:])
    return sum(map(len, found)), same


def groups(sps: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Regional groups: three to five stripped standpoints of one region (a continent; the Americas), in
    different countries, each of whose streets rules out every other member's country. Per region the
    grouping that places the most standpoints (then has the most pairs in one language,
    :func:`_grouping_score`) over :data:`TRIES` keyed shuffles of a greedy pass is kept (deterministic)."""
    by_region: dict[str, list[dict[str, Any]]] = {}
    for sp in sps:
        by_region.setdefault(REGION.get(sp["continent"], sp["continent"]), []).append(sp)
    out = []
    for region in sorted(by_region):
        base = sorted(by_region[region], key=lambda s: s["id"])
        n = len(base)
        codes = [s["country_code"] for s in base]
        ok = [[i != j and codes[i] != codes[j] and bool(rules_out(base[i], codes[j])) and bool(rules_out(base[j], codes[i]))
               for j in range(n)] for i in range(n)]
        best: list[list[int]] = []
        for attempt in range(TRIES):
            pool = list(range(n))
            random.Random(f"{SEED}:{region}:{attempt}").shuffle(pool)
            found = []
            while pool:
                group = [pool.pop(0)]
                for cand in list(pool):
                    if len(group) == GROUP_MAX:
                        break
                    if all(ok[cand][g] for g in group):
                        group.append(cand)
                        pool.remove(cand)
                if len(group) >= GROUP_MIN:
                    found.append(group)
            if _grouping_score(found, base) > _grouping_score(best, base):
                best = found
        out += [[base[i] for i in group] for group in best]
    return out


def build() -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """(tasks, standpoints, wiki articles) of the hard tier."""
    base = [sp for sp in geo.standpoints() if not sp["capital"]]
    split = {t["embodied"]["standpoint"]: t["split"] for t in geo.tasks(geo.standpoints())}
    stripped = [_strip(sp) for sp in base]
    std_id = {s["id"]: b["id"] for s, b in zip(stripped, base, strict=True)}
    names = geo_cues.Names(geo._reserved_words() | {t for t, _c, _city in geo.gazetteer()["cue_terms"]})
    tasks, standpoints, articles = [], [], []
    # a chain's cities are all of one split: its article lists them all, so a chain mixing splits let an agent
    # rule out the cities it had met as train answers (the goal was left alone, or among two, on 24 of 36 test
    # tasks: an agent that never read a country cue passed 28 of 36)
    by_split = [groups([s for s in stripped if split[std_id[s["id"]]] == part]) for part in ("test", "train")]
    for k, group in enumerate(g for found in by_split for g in found):
        lead = group[0]
        name = names.word(geo_cues.LANG[lead["country_code"]], f"regional:{k}:{lead['id']}")
        slug = geo_cues.slugify(name)
        if slug in {a["slug"] for a in articles}:
            raise RuntimeError(f"slug clash {slug}")
        members = sorted(group, key=lambda s: (s["city"], s["country"]))
        listed = [f"[[{geo.city_slug(s['country_code'], s['city'])}|{s['city']}]] ({s['country']})" for s in members]
        rng = random.Random(f"{SEED}:{slug}")
        founded, shops = rng.randint(1950, 2012), rng.randint(25, 160)
        articles.append(geo.article(
            slug, name,
            f"{name} is a chain of shops founded in {founded}, with {shops} shops in {len(members)} cities of "
            f"{len(members)} countries. Its shop signs read “{name}” everywhere.",
            [("Shops", [f"{name} has shops in {geo.join_names(listed)}.",
                        "It has no shops in any other city; in each of these cities its shops are in the centre."])],
            [("Type", "regional chain"), ("Founded", str(founded)), ("Shops", str(shops)),
             ("Cities", ", ".join(s["city"] for s in members))],
            [geo.city_slug(s["country_code"], s["city"]) for s in members],
            ["Companies", "Regional chains"]))
        for sp in group:
            far = _far_nodes(sp)
            prng = random.Random(f"{SEED}:{sp['id']}")
            node, view = prng.choice(far), prng.choice("NESW")
            item = {"kind": "sign", "role": "chain", "text": name, "say": f'A shop sign reads "{name}".',
                    "hint": False, "distinguishing": True, "cue": "regional chain"}
            sp["nodes"][node]["views"][view].append(item)
            sp["distinguishing"] = [{"cue": "regional chain", "node": node, "view": view, "articles": [slug],
                                     "lookup": [name]}]
            sp["chain"] = {"name": name, "slug": slug, "cities": [s["city"] for s in members],
                           "ruled_out": {s["country"]: rules_out(sp, s["country_code"]) for s in members
                                         if s is not sp}}
            standpoints.append(sp)
    standpoints.sort(key=lambda s: s["id"])
    for n, sp in enumerate(standpoints):
        tasks.append({
            "task_id": f"geo-hard-{n:03d}", "env_id": "EWA-Geolocation-v0", "instruction": geo.INSTRUCTION,
            "embodied": {"standpoint": sp["id"]},
            "web": {"start_url": "/wiki/", "sites": {"wiki": {"extra": WIKI_EXTRA}}},
            "goal": {"lat": sp["lat"], "lng": sp["lng"], "continent": sp["continent"],
                     "continent_alt": sp["continent_alt"], "country": sp["country"], "city": sp["city"],
                     "city_aliases": sp["city_aliases"], "city_centre": sp["city_centre"], "street": sp["street"],
                     "street_aliases": sp["street_aliases"], "street_signed": geo.street_signed(sp)},
            "split": split[std_id[sp["id"]]], "start": "embodied",
            "meta": {"standpoint": sp["id"], "country_code": sp["country_code"], "hints": [], "capital": False,
                     "distinguishing": ["regional chain"], "chain": sp["chain"]["slug"],
                     "chain_cities": len(sp["chain"]["cities"]), "level": "hard"}})
    articles.sort(key=lambda a: a["slug"])
    return tasks, standpoints, articles


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the shipped files instead of writing")
    args = ap.parse_args(argv)
    tasks, standpoints, articles = build()
    module = "embodiedweb.data_gen.hard_geolocation"
    rc = write_or_check(data_dir() / "geo" / "hard.jsonl",
                        "".join(json.dumps(t, ensure_ascii=False, sort_keys=True) + "\n" for t in tasks), args.check, module)
    rc |= write_or_check(data_dir() / "geo" / "hard.standpoints.json",
                         json.dumps({"version": 2, "standpoints": standpoints}, ensure_ascii=False, indent=1,
                                    sort_keys=True) + "\n", args.check, module)
    rc |= write_or_check(data_dir() / "wiki" / "hard.chains.json",
                         json.dumps(articles, ensure_ascii=False, indent=1) + "\n", args.check, module)
    if not args.check:
        by_split = {s: sum(t["split"] == s for t in tasks) for s in ("train", "test")}
        print(f"{len(tasks)} hard geolocation tasks ({by_split}), {len(articles)} regional chains")
    return rc


if __name__ == "__main__":
    raise SystemExit(main())
