"""EWA-Errand-v0, an example plug-in domain: walk to a place and report its street address.

It reuses the shipped street world and map site, so the whole domain is this file, its tasks and its spec
(``../errand.toml``). Metrics: ``web`` = the answer is the place's address (only the map site gives it);
``embodied`` = the agent stopped at the place (within the goal radius); ``overall`` = both;
``completion`` = the fraction of the two.
"""

from __future__ import annotations

import random
from typing import Any

from embodiedweb.domains.base import Episode
from embodiedweb.domains.outdoor.common import StreetDomain, StreetOracle
from embodiedweb.tasks import Task, TaskError


def _norm(text: str | None) -> str:
    return " ".join((text or "").lower().replace(",", " ").replace(".", " ").split())


class ErrandDomain(StreetDomain):
    """See module docstring. Everything the project needs to know about the domain is declared here."""

    name = "errand"
    # world: the street world, inherited from StreetDomain (``world = StreetWorld``)
    heuristic = None  # none: ``ewa eval --agent heuristic`` skips this env with a note
    prompt_guidance = ("You stand on a street in Manhattan and can use a web browser. Find the place on the map "
                       "site, walk there, and answer with its street address: stop [address].")
    report_family = "other"  # its own table in ``ewa report`` (Table 3's columns)
    node_fields = ("dest_node",)

    def validate_task(self, task: Task) -> None:
        super().validate_task(task)
        if not isinstance(task.goal.get("address"), str) or not task.goal["address"]:
            raise TaskError(f"task {task.task_id!r}: field 'goal.address': missing")

    def check(self, episode: Episode) -> dict[str, Any]:
        g = episode.task.goal
        web = bool(episode.answer) and _norm(g["address"]) in _norm(episode.answer)
        at = self.stopped_at(episode, g["dest_node"])
        return {"overall": web and at, "web": web, "embodied": at, "completion": (web + at) / 2,
                "final_node": episode.world_state.get("node")}

    def oracle(self, task: Task, perturb: random.Random | None = None) -> Any:
        return ErrandOracle(task, perturb)


class ErrandOracle(StreetOracle):
    """Directions to the place on the map (the page gives its address), the shortest walk, stop with it."""

    def plan(self) -> Any:
        g = self.task.goal
        mode = self.perturb.choice(["no_answer", "stop_short"]) if self.perturb else None
        yield from self.ask_directions(g["dest_name"])
        yield from self.walk_to(g["dest_node"], drop_last=mode == "stop_short")
        yield "stop" if mode == "no_answer" else f"stop [{g['address']}]"
