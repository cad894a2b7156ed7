"""EWA-Traveling-v0: walk to a landmark and answer a question whose answer is on its wiki page.

Metrics: ``embodied`` = the agent stopped on the landmark's node; ``web`` = the answer matches the
wiki fact; ``overall`` = both; ``completion`` = fraction of (article viewed, landmark reached, answer
right). Answers: numbers must match exactly (one number in the answer); names and styles match when
every word of the expected answer appears in a short answer (case, accents and punctuation aside).
"""

from __future__ import annotations

import random
import re
import unicodedata
from typing import Any
from urllib.parse import quote

from embodiedweb.domains.base import Episode
from embodiedweb.domains.outdoor.common import StreetDomain, StreetOracle
from embodiedweb.tasks import Task

_STOP = {"the", "a", "an", "and", "of", "&"}


def normalize(text: str) -> list[str]:
    t = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return [w for w in re.findall(r"[a-z0-9]+", t) if w not in _STOP]


def answer_matches(answer: str | None, gold: str, kind: str) -> bool:
    if not answer:
        return False
    if kind == "number":
        nums = re.findall(r"\d+(?:\.\d+)?", answer.replace(",", ""))
        return len(nums) == 1 and float(nums[0]) == float(gold)
    want, got = normalize(gold), normalize(answer)
    return bool(want) and all(w in got for w in want) and len(got) <= 2 * len(want) + 6


class TravelingDomain(StreetDomain):
    """See module docstring."""

    name = "traveling"
    node_fields = ("place_node",)

    def check(self, episode: Episode) -> dict[str, Any]:
        g = episode.task.goal
        viewed = g["slug"] in episode.web_state.get("wiki", {}).get("views", [])
        at = self.stopped_at(episode, g["place_node"])
        right = answer_matches(episode.answer, g["answer"], g["kind"])
        subgoals = [viewed, at, right]
        return {"overall": at and right, "web": right, "embodied": at, "completion": sum(subgoals) / 3}

    def oracle(self, task: Task, perturb: random.Random | None = None) -> Any:
        return TravelingOracle(task, perturb)


class TravelingOracle(StreetOracle):
    """Reads the landmark's wiki article, walks there (shortest path) and answers."""

    def plan(self) -> Any:
        g = self.task.goal
        mode = self.perturb.choice(["wrong_answer", "stop_short", "no_walk"]) if self.perturb else None
        if self.obs["active"] != "web":
            yield "switch_environment [look the landmark up on the wiki]"
        yield f"goto [/wiki/article/{quote(g['slug'])}]"
        if mode != "no_walk":
            yield from self.walk_to(g["place_node"], drop_last=mode == "stop_short")
        answer = g["answer"]
        if mode == "wrong_answer":
            answer = str(int(float(answer)) + 1) if g["kind"] == "number" else "I do not know"
        yield f"stop [{answer}]"
