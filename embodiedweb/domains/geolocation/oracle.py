"""The geolocation oracle: it knows the answer (the task's goal) and acts only through public actions.

It walks to one adjacent viewpoint (when moving is allowed), opens the country's wiki article (when the
web is available), and answers ``stop [lat, lng; continent; country; city; street]``.

With ``perturb`` (a ``random.Random``) it names a wrong place: another city of the same country (with
that city's coordinates) when the suite has one, otherwise another country's capital.
"""

from __future__ import annotations

import random
from typing import Any

from baselines.script import Plan, ScriptAgent
from embodiedweb.tasks import Task

WIKI_ARTICLE = "/wiki/article/{slug}"


def answer_string(lat: float, lng: float, continent: str, country: str, city: str, street: str) -> str:
    return f"{lat:.4f}, {lng:.4f}; {continent}; {country}; {city}; {street}"


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

    def target(self) -> dict[str, Any]:
        g = dict(self.task.goal)
        if self.perturb is None:
            return g
        from embodiedweb.data_gen.geo import BY_CODE
        from embodiedweb.worlds.geo.world import load_standpoints

        sps = sorted(load_standpoints().values(), key=lambda s: s["id"])
        same = sorted({(s["city"], s["lat"], s["lng"], s["street"]) for s in sps
                       if s["country"] == g["country"] and s["city"] != g["city"]})
        if same and self.perturb.random() < 0.5:
            city, lat, lng, street = self.perturb.choice(same)
            return {**g, "city": city, "lat": lat, "lng": lng, "street": street}
        others = sorted({s["country_code"] for s in sps if s["country"] != g["country"]})
        c = BY_CODE[self.perturb.choice(others)]
        return {**g, "country": c["name"], "continent": c["continent"], "city": c["capital"],
                "lat": c["capital_ll"][0], "lng": c["capital_ll"][1], "street": ""}

    def plan(self) -> Plan:
        t = self.target()
        if not self.static:
            adm = [a for a in self.info.get("admissible_actions", []) if a.startswith("move [")]
            if adm:
                yield adm[0]
        if not self.passive:
            from embodiedweb.data_gen.geo import slugify

            if self.obs.get("active") != "web":
                yield "switch_environment [look up the country]"
            yield "goto [" + WIKI_ARTICLE.format(slug=slugify(t["country"])) + "]"
        yield "stop [" + answer_string(t["lat"], t["lng"], t["continent"], t["country"], t["city"],
                                       t["street"]) + "]"
