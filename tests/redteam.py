"""What every env's red-team suite shares: the agent contract, the runner and the shortcut-rate table.

A red-team agent is a scripted agent (usually the env's oracle with one idea changed) that acts only
through action strings. Shortcut agents must fail; genuine alternatives must pass. ``applies`` says on
which tasks the agent's idea can be carried out at all; ``adapt`` may change the task the agent plays
(e.g. a kitchen with a second dish to hedge on); ``carried_out`` says whether the episode really did
what the agent stands for (no action failed but the ones the idea expects to fail), so a pass cannot
come from a plan that quietly fell back to the honest solution.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from baselines.base import Agent
from embodiedweb.tasks import Task


class RedTeam:
    """Mixin for a red-team agent class (put it before the oracle class in the bases)."""

    #: "shortcut" (must fail) or "genuine" (must pass)
    kind: ClassVar[str] = "shortcut"
    #: the metrics the agent's idea must break (each False on every carried-out episode), besides
    #: ``overall``: so a rule that stops checking that part is caught even when another part still fails
    breaks: ClassVar[tuple[str, ...]] = ()
    #: prefixes of actions (or of the agent's own notes) this agent expects to fail
    tolerated: ClassVar[tuple[str, ...]] = ()
    errors: list[str]

    @classmethod
    def applies(cls, task: Task) -> bool:
        return True

    @classmethod
    def adapt(cls, task: Task) -> Task:
        """The task as this agent plays it."""
        return task

    def carried_out(self) -> bool:
        return not [e for e in self.errors if not e.startswith(self.tolerated)]


class Runner(Agent):
    """Wraps a red-team class as an ``ewa eval`` agent (a fresh instance per task)."""

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.name = cls.__name__
        self.expert: Any = None

    def reset(self, env: Any, obs: dict[str, Any], info: dict[str, Any]) -> None:
        self.expert = self.cls(env.unwrapped.task)
        self.expert.reset(env, obs, info)

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> str:
        return self.expert.act(obs, info)


def suite(env_id: str) -> list[Task]:
    """Every task of an env (all splits), validated by its domain."""
    from embodiedweb.registration import load_specs
    from embodiedweb.tasks import load_tasks

    spec = next(s for s in load_specs() if s.id == env_id)
    return list(load_tasks(spec.tasks_path, spec.load_domain().validate_task))


def broken_parts(cls: Any, carried: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Carried-out episodes in which a metric the agent's idea must break (``cls.breaks``) came out true."""
    return [r for r in carried if any(r["metrics"].get(m) for m in getattr(cls, "breaks", ()))]


def assert_verdicts(cls: Any, carried: list[dict[str, Any]]) -> None:
    """Every carried-out episode of a genuine agent passes; none of a shortcut agent passes, and none keeps a
    metric its idea must break (``cls.breaks``)."""
    passed = [r for r in carried if r["metrics"]["overall"]]
    if cls.kind == "genuine":
        assert len(passed) == len(carried), failures([r for r in carried if not r["metrics"]["overall"]])
    else:
        assert not passed, failures(passed)
        assert not broken_parts(cls, carried), failures(broken_parts(cls, carried))


def pool(cls: Any, tasks: list[Task], seed: int = 0) -> list[Task]:
    """The tasks the agent applies to, test split first, each split shuffled with a fixed seed."""
    out: list[Task] = []
    for split in ("test", "train"):
        part = [t for t in tasks if t.split == split and cls.applies(t)]
        random.Random(f"{seed}:{cls.__name__}:{split}").shuffle(part)
        out += part
    return out


def run(cls: Any, env_id: str, tasks: list[Task], want: int | None = None, web_mode: str = "text",
        max_steps: int | None = None) -> list[dict[str, Any]]:
    """Episodes over ``tasks`` (as the agent adapts them) in order, until ``want`` of them carried the
    agent's idea out: ``{"task_id", "split", "metrics", "carried_out", "errors", "agent_error", "agent"}``
    each (``agent``: the red-team agent instance that played it)."""
    from embodiedweb.env import EmbodiedWebEnv
    from embodiedweb.evaluate import run_episode
    from embodiedweb.registration import load_specs

    played = [cls.adapt(t) for t in tasks]
    if not played:
        return []
    spec = next(s for s in load_specs() if s.id == env_id)
    env = EmbodiedWebEnv(spec.load_domain(), played, env_id=env_id, web_mode=web_mode,
                         max_steps=max_steps or 2 * spec.max_steps)
    agent = Runner(cls)
    out: list[dict[str, Any]] = []
    try:
        for t in played:
            if want is not None and sum(r["carried_out"] for r in out) >= want:
                break
            rec = run_episode(env, agent, t.task_id, seed=0)
            crashed = rec["metrics"].get("agent_error")
            out.append({"task_id": t.task_id, "split": t.split, "metrics": rec["metrics"], "agent_error": crashed,
                        "carried_out": not crashed and agent.expert.carried_out(), "errors": agent.expert.errors[:5],
                        "agent": agent.expert})
    finally:
        env.close()
    return out


def table(env_id: str, classes: tuple[Any, ...], n: int = 100) -> list[dict[str, Any]]:
    """Per agent: episodes that carried its idea out (test split first) and its overall/web/embodied rates."""
    tasks = suite(env_id)
    rows = []
    for cls in classes:
        if getattr(cls, "allowed", 0):  # a rule-blind choice: judged on the whole test split
            res = run(cls, env_id, [t for t in tasks if t.split == "test"])
            for r in res:
                r["metrics"] = r["metrics"] if r["carried_out"] else {}
        else:
            res = [r for r in run(cls, env_id, pool(cls, tasks), n) if r["carried_out"]]
        k = max(len(res), 1)
        rows.append({"env": env_id, "agent": cls.__name__, "kind": cls.kind, "episodes": len(res),
                     "test": sum(r["split"] == "test" for r in res),
                     **{m: sum(bool(r["metrics"].get(m)) for r in res) / k for m in ("overall", "web", "embodied")}})
    return rows


def markdown(rows: list[dict[str, Any]]) -> str:
    """A red-team table as the README and docs/checkers.md print them."""
    lines = ["| env | agent | kind | episodes (test) | overall | web | embodied |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        lines.append(f"| {r['env'].removeprefix('EWA-').removesuffix('-v0')} | {r['agent']} | {r['kind']} | "
                     f"{r['episodes']} ({r['test']}) | {r['overall']:.0%} | {r['web']:.0%} | {r['embodied']:.0%} |")
    return "\n".join(lines)


def failures(rows: list[dict[str, Any]], k: int = 3) -> list[tuple[str, list[str], list[str]]]:
    """A short account of some episodes for an assertion message."""
    return [(r["task_id"], [c for c, ok in (r["metrics"].get("conditions") or {}).items() if not ok][:3],
             r["errors"][:2]) for r in rows[:k]]
