"""Error taxonomy of failed episodes (Figure 5 of the Embodied Web Agents paper), by rules on the trace.

Each rule reads the :class:`embodiedweb.report.process.Analysis` of the agent's trace (and, where
said, the oracle's trace on the same task) and returns the first step where its evidence appears.
An episode may fall in several categories; its **primary** category is the one whose evidence comes
first (ties: the order of :data:`CATEGORIES`), and ``other`` when no rule fires, so primary shares
sum to 100 %.

Rules (``tail`` = :data:`STUCK_TAIL` steps, ``progress`` = a step with non-pose semantic atoms, or,
on the web, arriving at a path not seen before):

* ``stuck_embodied`` — the task needs the web (the oracle used it; assumed without an oracle) and the
  agent acted in the embodied world but never completed a web action; or the last ``tail`` or more
  steps (a final ``stop`` aside) were all in the embodied domain without progress.
* ``stuck_web`` — symmetric: the task needs the embodied world and the agent acted on the web but
  never completed an embodied action; or a web tail of ``tail`` or more steps without progress.
* ``switching_without_acting`` — two ``switch_environment`` steps with no successful non-switch action
  between them.
* ``instruction_action_misalignment`` — needs the oracle's trace: the agent arrived at a detail page
  the oracle never visited while the oracle visited a page of the same kind (same path with the
  segments that contain digits masked: another recipe, another product); or it changed the state of an
  object whose type the oracle never changed (e.g. sliced a tomato for an apple recipe); or, in worlds
  without an object list (streets), it ended farther from the oracle's final position than it started
  after moving.
* ``web_page_loops`` — the same URL (path + query) arrived at :data:`LOOP_VISITS` times with no web
  state change in between (the start page counts as a visit).
* ``repeated_actions`` — the same action string :data:`REPEAT_RUN` times in a row, or twice in a row
  with an error both times.
* ``failed_navigation_to_objects`` — an embodied action failed because of the object's reachability
  or identity: "not visible", "not interactable", "too far"/"m away", "no reachable position",
  an invalid/unknown object id, an unknown or unreachable street node.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from embodiedweb.report.process import Analysis, StepInfo, url_key, url_path

CATEGORIES = ("stuck_embodied", "stuck_web", "switching_without_acting", "instruction_action_misalignment",
              "web_page_loops", "repeated_actions", "failed_navigation_to_objects")
LABELS = {"stuck_embodied": "Stuck in embodied domain", "stuck_web": "Stuck in web domain",
          "switching_without_acting": "Switching without acting",
          "instruction_action_misalignment": "Instruction-action misalignment",
          "web_page_loops": "Web page loops", "repeated_actions": "Repeated actions",
          "failed_navigation_to_objects": "Failed navigation to objects", "other": "Other"}
STUCK_TAIL = 10
LOOP_VISITS = 3
REPEAT_RUN = 3
OBJECT_ERRORS = re.compile(r"not visible|not interactable|too far|\bm away\b|no reachable position|"
                           r"object id appears to be invalid|no object named|no object type or id|unknown object|invalid object|"
                           r"unknown node|no such node|not a neighbou?r|not reachable", re.I)


@dataclass
class Finding:
    category: str
    step: int
    evidence: str


def _web_step(s: StepInfo) -> bool:
    return s.domain == "web"


def _embodied_step(s: StepInfo) -> bool:
    return s.domain not in (None, "web", "meta")


def _progress(s: StepInfo, where: str, seen_new_path: bool) -> bool:
    if where == "embodied":
        return bool(s.world_atoms) and not s.error
    return (bool(s.web_atoms) or seen_new_path) and not s.error


def _stuck(an: Analysis, where: str, needed_other: bool, tail: int) -> Finding | None:
    other_ok = any(s.ok and (_web_step(s) if where == "embodied" else _embodied_step(s)) for s in an.steps)
    here = [s for s in an.steps if s.ok and (_embodied_step(s) if where == "embodied" else _web_step(s))]
    if needed_other and here and not other_ok:
        other = "web" if where == "embodied" else "embodied world"
        return Finding(f"stuck_{where}", an.steps[-1].step, f"never completed an action in the {other}")
    steps = an.steps[:-1] if an.steps and an.steps[-1].name == "stop" else an.steps
    run: list[StepInfo] = []
    for s in reversed(steps):
        if s.active != where or _progress(s, where, s.new_path):
            break
        run.append(s)
    if len(run) >= tail:
        return Finding(f"stuck_{where}", run[-1].step, f"last {len(run)} steps in the {where} domain without progress")
    return None


def switching_without_acting(an: Analysis) -> Finding | None:
    last_switch: StepInfo | None = None
    for s in an.steps:
        if s.name == "switch_environment" and not s.error:
            if last_switch is not None:
                return Finding("switching_without_acting", s.step,
                               f"switched at steps {last_switch.step} and {s.step} with no action between")
            last_switch = s
        elif s.ok and s.name != "switch_environment":
            last_switch = None
    return None


def _kind(path: str) -> str:
    return "/".join("*" if any(c.isdigit() for c in seg) else seg for seg in path.split("/"))


def _changed_types(an: Analysis) -> dict[str, int]:
    """Object type -> first step that changed an object of that type (world atoms on ``objects``/``held``)."""
    out: dict[str, int] = {}
    for s in an.steps:
        for _, path, value in s.world_atoms:
            ids = [c[1] for c in path if isinstance(c, tuple) and c[:1] == ("id",)]
            if not ids and path[:1] == ("held",) and value not in ("null", ""):
                ids = [value.strip('"')]
            for oid in ids:
                out.setdefault(str(oid).split("|")[0], s.step)
    return out


def _position(world: dict[str, Any]) -> tuple[float, float, bool] | None:
    """(a, b, is_latlng) of the agent in a world state, if it has one."""
    for holder in (world.get("agent"), world):
        if isinstance(holder, dict):
            for a, b, geo in (("lat", "lng", True), ("lat", "lon", True), ("x", "z", False)):
                if isinstance(holder.get(a), int | float) and isinstance(holder.get(b), int | float):
                    return float(holder[a]), float(holder[b]), geo
    return None


def _distance(p: tuple[float, float, bool], q: tuple[float, float, bool]) -> float:
    if p[2]:
        la1, lo1, la2, lo2 = map(math.radians, (p[0], p[1], q[0], q[1]))
        h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
        return 6371.0 * 2 * math.asin(math.sqrt(min(1.0, h)))
    return math.hypot(p[0] - q[0], p[1] - q[1])


def _final_world(trace: list[dict[str, Any]]) -> dict[str, Any]:
    from embodiedweb.report.process import Replayer

    rep = Replayer(trace[0], pose_keys=frozenset())
    for r in trace[1:]:
        rep.apply(r.get("changes") or {})
    return rep.state["world"]


def misalignment(an: Analysis, oracle: Analysis | None, trace: list[dict[str, Any]] | None = None,
                 oracle_trace: list[dict[str, Any]] | None = None) -> Finding | None:
    if oracle is None:
        return None
    found: list[Finding] = []
    o_paths = {url_path(s.url) for s in oracle.steps} | {oracle.start_path}
    o_kinds = {_kind(p) for p in o_paths}
    for s in an.steps:
        p = url_path(s.url)
        if s.new_path and s.skill == "inspect" and p not in o_paths and _kind(p) in o_kinds:
            found.append(Finding("instruction_action_misalignment", s.step, f"opened {p}, not the goal's page"))
            break
    o_types = _changed_types(oracle)
    if o_types:
        for t, step in sorted(_changed_types(an).items(), key=lambda kv: kv[1]):
            if t not in o_types:
                found.append(Finding("instruction_action_misalignment", step, f"acted on {t}, unrelated to the goal"))
                break
    if trace and oracle_trace and not (trace[0].get("world") or {}).get("objects"):
        start, end, goal = (_position(trace[0].get("world") or {}), _position(_final_world(trace)),
                            _position(_final_world(oracle_trace)))
        moved = [s for s in an.steps if s.skill == "move" and s.ok]
        if start and end and goal and moved and _distance(end, goal) > _distance(start, goal) + 1e-9:
            found.append(Finding("instruction_action_misalignment", moved[0].step, "walked away from the goal"))
    return min(found, key=lambda f: f.step) if found else None


def web_page_loops(an: Analysis, visits: int = LOOP_VISITS) -> Finding | None:
    count: Counter[str] = Counter({url_key(an.reset.get("web_url", "")): 1})
    prev = url_key(an.reset.get("web_url", ""))
    for s in an.steps:
        if s.web_atoms:
            count.clear()
        k = url_key(s.url)
        if k != prev:
            count[k] += 1
            if count[k] >= visits:
                return Finding("web_page_loops", s.step, f"arrived at {k} {count[k]} times without a state change")
        prev = k
    return None


def repeated_actions(an: Analysis, run: int = REPEAT_RUN) -> Finding | None:
    n = 0
    for i, s in enumerate(an.steps):
        n = n + 1 if i and s.action == an.steps[i - 1].action else 1
        if n >= run:
            return Finding("repeated_actions", s.step, f"{s.action!r} {n} times in a row")
        if n >= 2 and s.error and an.steps[i - 1].error:
            return Finding("repeated_actions", s.step, f"{s.action!r} repeated after failing")
    return None


def failed_navigation(an: Analysis) -> Finding | None:
    for s in an.steps:
        if s.error and s.domain not in ("web", "meta") and s.active != "web" and OBJECT_ERRORS.search(s.error):
            return Finding("failed_navigation_to_objects", s.step, s.error[:160])
    return None


def classify_episode(trace: list[dict[str, Any]], oracle_trace: list[dict[str, Any]] | None = None, *,
                     needs_web: bool | None = None, needs_embodied: bool | None = None,
                     tail: int = STUCK_TAIL) -> dict[str, Any]:
    """Categories of one episode: ``{"categories": {cat: {step, evidence}}, "primary": cat}``.

    ``needs_web``/``needs_embodied`` default to whether the oracle acted there (True without an oracle).
    """
    from embodiedweb.report.process import analyze

    an = analyze(trace)
    oracle = analyze(oracle_trace) if oracle_trace else None
    if needs_web is None:
        needs_web = True if oracle is None else any(_web_step(s) for s in oracle.steps)
    if needs_embodied is None:
        needs_embodied = True if oracle is None else any(_embodied_step(s) for s in oracle.steps)
    findings = [f for f in (_stuck(an, "embodied", needs_web, tail), _stuck(an, "web", needs_embodied, tail),
                            switching_without_acting(an), misalignment(an, oracle, trace, oracle_trace),
                            web_page_loops(an), repeated_actions(an), failed_navigation(an)) if f is not None]
    cats = {f.category: {"step": f.step, "evidence": f.evidence} for f in findings}
    primary = min(findings, key=lambda f: (f.step, CATEGORIES.index(f.category))).category if findings else "other"
    return {"categories": cats, "primary": primary}


def shares(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Shares of failures: ``any`` (an episode may count in several) and ``primary`` (sums to 1)."""
    n = len(results)
    anyc: Counter[str] = Counter()
    prim: Counter[str] = Counter()
    for r in results:
        anyc.update(list(r["categories"]))
        prim[r["primary"]] += 1
    keys = CATEGORIES + ("other",)
    return {"failures": n,
            "any": {k: round(anyc[k] / n, 4) if n else 0.0 for k in CATEGORIES},
            "primary": _round_to_total({k: prim[k] for k in keys}, n),
            "primary_counts": {k: prim[k] for k in keys}}


def _round_to_total(counts: dict[str, int], n: int, unit: int = 1000) -> dict[str, float]:
    """``count / n`` in steps of ``1 / unit`` (0.1 %) by largest remainder, so the shares sum to exactly 1."""
    if not n:
        return {k: 0.0 for k in counts}
    raw = {k: c * unit / n for k, c in counts.items()}
    base = {k: int(v) for k, v in raw.items()}
    left = unit - sum(base.values())
    for k in sorted(raw, key=lambda k: (base[k] - raw[k], k))[:left]:
        base[k] += 1
    return {k: v / unit for k, v in base.items()}
