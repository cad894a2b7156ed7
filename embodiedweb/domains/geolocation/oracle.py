"""The geolocation oracle: it knows the answer (the task's goal) and acts only through public actions.

It walks (by ``move [id]``) to the nearest viewpoint that shows a distinguishing cue of the place, opens
that cue's wiki article, and answers ``stop [lat, lng; continent; country; city; street]``. In the
settings that forbid walking (``static``/``passive``) it answers from where it stands (and in
``passive`` without the web), which cannot earn ``overall`` there.

With ``perturb`` (a ``random.Random``) it does the same research but names a wrong place: another city
of the same country (with that city's centre) when the wiki has one, otherwise another country's capital.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from embodiedweb.agents.script import Plan, ScriptAgent
from embodiedweb.tasks import Task

WIKI_ARTICLE = "/wiki/article/{slug}"


def answer_string(lat: float, lng: float, continent: str, country: str, city: str, street: str) -> str:
    return f"{lat:.4f}, {lng:.4f}; {continent}; {country}; {city}; {street}"


def path_to(sp: dict[str, Any], start: str, targets: set[str]) -> list[str]:
    """Viewpoints to walk through from ``start`` to the nearest of ``targets`` (breadth-first)."""
    prev: dict[str, str | None] = {start: None}
    q = deque([start])
    while q:
        n = q.popleft()
        if n in targets:
            out = []
            while n != start:
                out.append(n)
                n = prev[n]  # type: ignore[assignment]
            return out[::-1]
        for _h, nb in sorted(sp["nodes"][n]["neighbors"].items()):
            if nb not in prev:
                prev[nb] = n
                q.append(nb)
    return []


class GeolocationOracle(ScriptAgent):
    """See module docstring."""

    name = "oracle"

    def __init__(self, task: Task, perturb: random.Random | None = None, passive: bool = False,
                 static: bool = False) -> None:
        super().__init__()
        self.task = task
        self.perturb = perturb
        self.passive = passive
        self.static = static or passive

    def standpoint(self) -> dict[str, Any]:
        """The task's standpoint record."""
        from embodiedweb.worlds.geo.world import load_standpoints

        return load_standpoints()[self.task.embodied["standpoint"]]

    def target(self) -> dict[str, Any]:
        """The place to answer: the goal, or when perturbed another city of the country or another country's capital."""
        g = dict(self.task.goal)
        if self.perturb is None:
            return g
        from embodiedweb.tables import geo_cities, geo_countries
        from embodiedweb.worlds.geo.world import load_standpoints

        code = self.standpoint()["country_code"]
        same = sorted((r[0], r[1], r[2]) for r in geo_cities()[code] if r[0] != g["city"])
        if same and self.perturb.random() < 0.5:
            city, lat, lng = self.perturb.choice(same)
            return {**g, "city": city, "lat": lat, "lng": lng, "street": ""}
        others = sorted({s["country_code"] for s in load_standpoints().values() if s["country"] != g["country"]})
        c = geo_countries()[self.perturb.choice(others)]
        return {**g, "country": c["name"], "continent": c["continent"], "city": c["capital"],
                "lat": c["capital_ll"][0], "lng": c["capital_ll"][1], "street": ""}

    def research_plan(self) -> tuple[list[str], str]:
        """(viewpoints to walk through, slug of the article to read) for the nearest distinguishing cue."""
        sp = self.standpoint()
        cues = sp["distinguishing"]
        walk = path_to(sp, sp["start"], {c["node"] for c in cues})
        here = walk[-1] if walk else sp["start"]
        cue = next((c for c in cues if c["node"] == here), cues[0])
        return walk, cue["articles"][0]

    def search_article(self, slug: str) -> Plan:
        """The hard tier's way to an article: the name on the sign typed into the wiki's search box, then the
        result's link (what an agent with the discrete actions can do; a shelf's article has no ``goto``)."""
        from embodiedweb.agents.script import find_bid
        from web_sites.wiki import catalog

        title = catalog.get(slug, "hard")["title"]  # type: ignore[index]
        yield "goto [/wiki/]"
        box = find_bid(self.obs["web_text"], "searchbox", None)
        if box is not None:
            yield f"type [{box}] [{title}] [1]"
            link = find_bid(self.obs["web_text"], "link", title)
            if link is not None:
                yield f"click [{link}]"
                return
        yield "goto [" + WIKI_ARTICLE.format(slug=slug) + "]"

    def plan(self) -> Plan:
        """Walk the research path (unless static), read the cue's wiki article (unless passive), then answer the target."""
        t = self.target()
        walk, slug = self.research_plan()
        if not self.static:
            for node in walk:
                yield f"move [{node}]"
        if not self.passive:
            if self.obs.get("active") != "web":
                yield "switch_environment [look up the cue]"
            if self.standpoint().get("tier") == "hard":
                yield from self.search_article(slug)
            else:
                yield "goto [" + WIKI_ARTICLE.format(slug=slug) + "]"
        yield "stop [" + answer_string(t["lat"], t["lng"], t["continent"], t["country"], t["city"],
                                       t["street"]) + "]"
