"""Per-episode records -> the paper's result tables (numbers, rich tables, HTML rows).

Records are the JSONL lines ``ewa eval`` (and human play) writes. Tables are generic over env ids and
metric keys: an env id's *family* is the ``report_family`` its domain declares, and

* Table 3 shape (cooking, and any env of family ``other``): per agent overall / web-only /
  embodied-only accuracy and completion rate;
* Table 2 shape (outdoor: navigation, shopping, traveling): one column group per env;
* Table 4 shape (geolocation): continent / country / city / street accuracy, mean distance (km) and
  mean GeoGuessr score; the metric keys present in the records decide the columns.

Rows are runs (:mod:`embodiedweb.runs`): one per run label (``oracle``, ``llm:gpt-4o-mini``, ``human``);
two run ids sharing a label are refused (:class:`MixedRuns`) unless each gets its own label (``split_runs``:
``label#<run id>``). Episodes that ended in an error (``status: "error"``) are counted apart (``errors``)
and left out of every rate and mean.

Rates are in 0..1 in the numbers and shown as percentages.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from embodiedweb.domains.base import REPORT_FAMILIES
from embodiedweb.runs import participant, run_id, run_label

ACC_KEYS = ("overall", "web", "embodied", "completion")
ACC_LABELS = {"overall": "Overall", "web": "Web-only", "embodied": "Embodied-only", "completion": "Completion"}
GEO_RATE_KEYS = ("continent", "country", "city", "street")
GEO_MEAN_KEYS = ("distance_km", "geoguessr_score")
AGENT_ORDER = ("oracle", "heuristic", "llm", "perturbed", "random")
ERRORS_NOTE = "errors = episodes ended by an agent or endpoint error (not in the episodes or rates)"


def env_label(env_id: str) -> str:
    """``EWA-Navigation-v0`` -> ``Navigation``."""
    m = re.match(r"^(?:EWA-)?(.+?)(?:-v\d+)?$", env_id)
    return m.group(1) if m else env_id


def env_family(env_id: str) -> str:
    """The table shape of ``env_id``: the ``report_family`` its domain declares (``cooking``, ``outdoor``,
    ``geolocation`` or ``other``; see :data:`embodiedweb.domains.base.REPORT_FAMILIES`); ``other`` for an env
    id no spec folder registers."""
    from embodiedweb.registration import domain_class

    try:
        cls = domain_class(env_id)
    except Exception:  # noqa: BLE001 - a plug-in domain that no longer imports: its records still show
        cls = None
    family = getattr(cls, "report_family", "other")
    return family if family in REPORT_FAMILIES else "other"


def agent_sort_key(agent: str) -> tuple[int, str]:
    """Known agents in a fixed order, other agents alphabetically, ``human`` last (as in the paper)."""
    if agent == "human":
        return (len(AGENT_ORDER) + 2, agent)
    for i, a in enumerate(AGENT_ORDER):
        if agent == a or agent.startswith(a + ":") or agent.startswith(a + "-"):
            return (i, agent)
    return (len(AGENT_ORDER) + 1, agent)


def episode_key(rec: dict[str, Any]) -> tuple[str, str, str, str]:
    """(env, task, run id, participant): human-play records of one task by two people are two episodes
    (agents' records have no participant)."""
    return str(rec["env_id"]), str(rec["task_id"]), run_id(rec), participant(rec)


def detail_key(rec: dict[str, Any]) -> tuple[str, str, str, str]:
    """(env, task, row, participant): a record's process/taxonomy details once rows are labelled."""
    return str(rec["env_id"]), str(rec["task_id"]), row(rec), participant(rec)


def row(rec: dict[str, Any]) -> str:
    """The report row (run label) of a record: ``_row`` once :func:`label_runs` ran, else :func:`tier_label`."""
    return str(rec.get("_row") or tier_label(rec))


def tier_label(rec: dict[str, Any]) -> str:
    """The run label, with the task tier when it is not the standard one (``oracle · hard``): runs of one
    agent on the standard and the hard tier are rows side by side, never merged."""
    level = rec.get("level") or (rec.get("selection") or {}).get("level")
    return f"{run_label(rec)} · {level}" if level and level != "standard" else run_label(rec)


def is_error(rec: dict[str, Any]) -> bool:
    return rec.get("status") == "error"


class MixedRuns(ValueError):
    """Two different runs would share one row label."""


def label_runs(records: list[dict[str, Any]], split_runs: bool = False) -> None:
    """Set each record's row (``_row``) to its run label. Raise :class:`MixedRuns` when two run ids share
    a label, unless ``split_runs``: then each of those rows is labelled ``label#<first 6 of run id>``
    (records older than run ids: ``label#old``)."""
    ids: dict[str, set[str]] = {}
    for r in records:
        ids.setdefault(tier_label(r), set()).add(run_id(r))
    shared = {lab: rids for lab, rids in ids.items() if len(rids) > 1}
    if shared and not split_runs:
        raise MixedRuns("different runs would be merged into one row (" + "; ".join(
            f"{lab}: {', '.join(sorted(rids))}" for lab, rids in sorted(shared.items()))
            + "). Pass --split-runs to show one row per run, or give them labels apart (ewa eval --run-label)")
    for r in records:
        lab = tier_label(r)
        if lab in shared:
            rid = run_id(r)
            lab = f"{lab}#{'old' if rid.startswith('agent:') else rid[:6]}"
        r["_row"] = lab


def load_records(paths: Iterable[str | Path]) -> list[dict[str, Any]]:
    """Records of every file, deduplicated by (env, task, run id, participant) — a later line or file wins — each
    with ``_source`` (the JSONL path, to find its ``.steps`` folder). Cut lines are skipped."""
    by_key: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for p in paths:
        path = Path(p)
        with open(path, encoding="utf-8") as f:
            for line in f:
                try:
                    rec = json.loads(line)
                    key = episode_key(rec)
                except (json.JSONDecodeError, KeyError, TypeError):
                    continue
                rec["_source"] = str(path)
                by_key.pop(key, None)
                by_key[key] = rec
    return list(by_key.values())


UNVERSIONED = "unversioned"


class MixedVersions(ValueError):
    """Records of one (env, run) row measured on different suite versions."""


def suite_versions(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, set[str]]]:
    """``{env_id: {agent: {suite versions}}}`` (records written before versions existed: ``unversioned``)."""
    out: dict[str, dict[str, set[str]]] = {}
    for r in records:
        out.setdefault(str(r["env_id"]), {}).setdefault(row(r), set()).add(
            str(r.get("suite_version") or UNVERSIONED))
    return out


def check_versions(records: list[dict[str, Any]]) -> None:
    """Raise :class:`MixedVersions` naming every row that would average different suite versions."""
    bad = [f"{e} / {a}: {', '.join(sorted(vs))}" for e, per in sorted(suite_versions(records).items())
           for a, vs in sorted(per.items()) if len(vs) > 1]
    if bad:
        raise MixedVersions("records of different suite versions would be averaged into one row ("
                            + "; ".join(bad) + "). Rerun them on one version, or pass --mix-versions to merge "
                            "them anyway")


def versions_table(records: list[dict[str, Any]]) -> Table:
    """Per env: the suite version(s) and package version(s) its records were measured with."""
    t = Table("Versions", ["Env", "Suite version", "Package version", "Episodes"],
              caption="suite version = checker rules + digest of tasks, world data and settings")
    per: dict[str, dict[str, Any]] = {}
    for r in records:
        d = per.setdefault(str(r["env_id"]), {"suite": set(), "pkg": set(), "n": 0})
        d["suite"].add(str(r.get("suite_version") or UNVERSIONED))
        d["pkg"].add(str(r.get("package_version") or UNVERSIONED))
        d["n"] += 1
    for e in sorted(per):
        d = per[e]
        t.rows.append([e, ", ".join(sorted(d["suite"])), ", ".join(sorted(d["pkg"])), str(d["n"])])
    return t


def metric(rec: dict[str, Any], key: str) -> Any:
    m = rec.get("metrics") or {}
    return m.get(key, rec.get(key))


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def group(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """``{env_id: {agent: [records]}}`` with env ids sorted and agents in :func:`agent_sort_key` order."""
    out: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for r in records:
        out.setdefault(str(r["env_id"]), {}).setdefault(row(r), []).append(r)
    return {e: {a: out[e][a] for a in sorted(out[e], key=agent_sort_key)} for e in sorted(out)}


def accuracy(recs: list[dict[str, Any]]) -> dict[str, Any]:
    """Episodes, errors (episodes that ended in an error, not in ``episodes``), mean of
    overall/web/embodied/completion (0..1) and mean steps over the episodes."""
    ok = [r for r in recs if not is_error(r)]
    out: dict[str, Any] = {"episodes": len(ok), "errors": len(recs) - len(ok)}
    for k in ACC_KEYS:
        out[k] = _mean([float(metric(r, k) or 0.0) for r in ok])
    out["steps"] = _mean([float(metric(r, "steps") or r.get("steps") or 0) for r in ok])
    return out


def geolocation(recs: list[dict[str, Any]]) -> dict[str, Any]:
    """Table 4 numbers: rates of the level keys and means of distance/score (over the records that have them)."""
    ok = [r for r in recs if not is_error(r)]
    out: dict[str, Any] = {"episodes": len(ok), "errors": len(recs) - len(ok)}
    for k in GEO_RATE_KEYS + GEO_MEAN_KEYS:
        vals = [float(v) for r in ok if (v := metric(r, k)) is not None]
        out[k] = _mean(vals)
    return out


#: z of a two-sided 95 % interval
Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a binomial rate (95 % by default); None when ``n`` is 0. Unlike
    p ± z·sqrt(p(1-p)/n) it stays inside 0..1 and is not empty at 0 % or 100 %."""
    if n <= 0:
        return None
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def is_human(rec: dict[str, Any]) -> bool:
    return rec.get("agent") == "human"


def human_accuracy(recs: list[dict[str, Any]]) -> dict[str, Any]:
    """Human play of one env and row: episodes, participants (distinct ids), overall accuracy and its
    95 % Wilson interval (episodes taken as independent trials)."""
    ok = [r for r in recs if not is_error(r)]
    wins = sum(1 for r in ok if metric(r, "overall"))
    ci = wilson_interval(wins, len(ok))
    return {"episodes": len(ok), "errors": len(recs) - len(ok),
            "participants": len({participant(r) for r in ok if participant(r)}),
            "overall": round(wins / len(ok), 4) if ok else None,
            "ci95": [round(ci[0], 4), round(ci[1], 4)] if ci else None}


def compute(records: list[dict[str, Any]]) -> dict[str, Any]:
    """All accuracy numbers: ``accuracy`` (every env), the Table 2/3/4 views and ``human`` (human-play
    accuracy per env with participants and a 95 % interval)."""
    g = group(records)
    acc = {e: {a: accuracy(rs) for a, rs in agents.items()} for e, agents in g.items()}
    t2: dict[str, dict[str, Any]] = {}
    t3: dict[str, dict[str, Any]] = {}
    t4: dict[str, dict[str, Any]] = {}
    for e, agents in g.items():
        fam = env_family(e)
        for a, rs in agents.items():
            if fam == "outdoor":
                t2.setdefault(a, {})[e] = acc[e][a]
            elif fam == "geolocation":
                t4.setdefault(e, {})[a] = {**geolocation(rs), **{k: acc[e][a][k] for k in ACC_KEYS}}
            else:
                t3.setdefault(e, {})[a] = acc[e][a]
    human = {e: {a: human_accuracy(rs) for a, rs in agents.items() if all(is_human(r) for r in rs)}
             for e, agents in g.items()}
    from embodiedweb.report.turns import compute_turns

    out = {"accuracy": acc, "table2": {a: t2[a] for a in sorted(t2, key=agent_sort_key)}, "table3": t3,
           "table4": t4, "human": {e: per for e, per in human.items() if per}, "turns": compute_turns(g)}
    notes = skipped_heuristic_notes(g)
    if notes:
        out["notes"] = notes
    return out


def skipped_heuristic_notes(g: dict[str, dict[str, list[dict[str, Any]]]]) -> dict[str, list[str]]:
    """Per env whose domain declares no heuristic (``Domain.heuristic = None``): a note for each heuristic
    run (rows whose records are of agent ``heuristic``) that has records on other envs but, skipped by
    ``ewa eval``, none on this one."""
    from embodiedweb.registration import domain_class

    rows = sorted({a for agents in g.values() for a, rs in agents.items()
                   if rs and rs[0].get("agent") == "heuristic"}, key=agent_sort_key)
    notes: dict[str, list[str]] = {}
    for e in sorted(g) if rows else ():
        try:
            cls = domain_class(e)
        except Exception:  # noqa: BLE001 - a plug-in domain that no longer imports: no note
            cls = None
        if cls is None or getattr(cls, "heuristic", None):
            continue
        missing = [a for a in rows if a not in g[e]]
        if missing:
            notes[e] = [f"{a}: skipped, the domain {cls.name!r} declares no heuristic" for a in missing]
    return notes


# ---------------------------------------------------------------------------------------------- rendering
@dataclass
class Table:
    """A rendered table: what rich and the HTML report both show."""

    title: str
    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)
    groups: list[tuple[str, int]] = field(default_factory=list)  # (header, span) above the columns
    caption: str = ""


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}"


def num(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def _with_notes(caption: str, notes: list[str]) -> str:
    return caption + "".join(f"; note: {n}" for n in notes)


def accuracy_tables(numbers: dict[str, Any]) -> list[Table]:
    tables: list[Table] = []
    notes: dict[str, list[str]] = numbers.get("notes") or {}
    for e, rows in numbers["table3"].items():
        fam = env_family(e)
        title = f"Table 3 · {env_label(e)} ({e})" if fam == "cooking" else f"{env_label(e)} ({e})"
        t = Table(title, ["Agent", "Episodes", "Errors", "Overall %", "Web-only %", "Embodied-only %",
                          "Completion %"],
                  caption=_with_notes("accuracy in %; completion = mean fraction of the task's conditions met; "
                                      + ERRORS_NOTE, notes.get(e, [])))
        for a, r in rows.items():
            t.rows.append([a, str(r["episodes"]), str(r["errors"]), *(pct(r[k]) for k in ACC_KEYS)])
        tables.append(t)
    t2 = numbers["table2"]
    if t2:
        envs = sorted({e for per in t2.values() for e in per})
        t = Table("Table 2 · Outdoor", ["Agent"] + [f"{lab}" for _ in envs for lab in
                                                     ("Overall %", "Web %", "Embodied %", "Completion %", "Errors")],
                  groups=[("", 1)] + [(f"{env_label(e)} ({e})", 5) for e in envs],
                  caption=_with_notes("per env: overall / web-only / embodied-only accuracy and completion rate "
                                      "(%); " + ERRORS_NOTE, [f"{e}: {n}" for e in envs for n in notes.get(e, [])]))
        for a, per in t2.items():
            cells = [a]
            for e in envs:
                r = per.get(e)
                cells += [pct(r[k]) if r else "–" for k in ACC_KEYS] + [str(r["errors"]) if r else "–"]
            t.rows.append(cells)
        tables.append(t)
    for e, rows in numbers["table4"].items():
        t = Table(f"Table 4 · {env_label(e)} ({e})",
                  ["Agent", "Episodes", "Errors", "Continent %", "Country %", "City %", "Street %", "Distance km",
                   "GeoGuessr score"],
                  caption=_with_notes("accuracy at each level (%), mean distance to the true location, mean "
                                      "GeoGuessr score; " + ERRORS_NOTE, notes.get(e, [])))
        for a, r in rows.items():
            t.rows.append([a, str(r["episodes"]), str(r["errors"]), *(pct(r[k]) for k in GEO_RATE_KEYS),
                           num(r["distance_km"]),
                           num(r["geoguessr_score"], 0)])
        tables.append(t)
    for e, rows in (numbers.get("turns") or {}).items():
        t = Table(f"Turns · {env_label(e)} ({e})",
                  ["Agent", "Episodes", "Teacher forcing", "Task success %", "Average progress %", "Turn success %",
                   "Reference err. %", "Grounding err. %", "Domain err. %", "Unreached %"],
                  caption="instructions one at a time: task success = every turn right; average progress = share of "
                          "turns right before the first wrong one; turn success = share of turns right (the step "
                          "success rate under teacher forcing); errors = wrong turns by what they needed, as a share "
                          "of all turns (unreached ones included); unreached = turns the episode ended before")
        for a, r in rows.items():
            tf = {(): "–", (False,): "no", (True,): "yes"}.get(tuple(r["teacher_forcing"]), "mixed")
            t.rows.append([a, str(r["episodes"]), tf, *(pct(r[k]) for k in (
                "task_success", "average_progress", "turn_success", "reference_errors", "grounding_errors",
                "domain_errors", "unreached"))])
        tables.append(t)
    human = numbers.get("human") or {}
    if human:
        t = Table("Human accuracy", ["Env", "Agent", "Participants", "Episodes", "Errors", "Overall %", "95 % CI"],
                  caption="human play (ewa play): overall accuracy over episodes with a 95 % Wilson score interval; "
                          "participants = distinct participant ids")
        for e, per in human.items():
            for a, r in per.items():
                ci = r["ci95"]
                t.rows.append([env_label(e), a, str(r["participants"]), str(r["episodes"]), str(r["errors"]),
                               pct(r["overall"]), f"{pct(ci[0])}–{pct(ci[1])}" if ci else "–"])
        tables.append(t)
    return tables


def print_tables(tables: list[Table], stderr: bool = False) -> None:
    from rich.console import Console
    from rich.table import Table as RichTable

    console = Console(stderr=stderr, width=max(100, 30 + 14 * max((len(t.columns) for t in tables), default=1)))
    for t in tables:
        heads = list(t.columns)
        if t.groups:
            for g, n, i in _group_starts(t.groups):
                for j in range(i - 1, i - 1 + n):
                    if g:
                        heads[j] = f"{env_label(g.split(' (')[0])}\n{heads[j]}"
        rt = RichTable(title=t.title, caption=t.caption or None)
        for i, c in enumerate(heads):
            rt.add_column(c, justify="left" if i == 0 or c in ("Env", "Agent") else "right")
        for row in t.rows:
            rt.add_row(*row)
        console.print(rt)


def _group_starts(groups: list[tuple[str, int]]) -> list[tuple[str, int, int]]:
    out, i = [], 1  # 1-based start column of each group
    for g, n in groups:
        out.append((g, n, i))
        i += n
    return out
