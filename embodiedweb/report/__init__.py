"""``ewa report``: paper-style tables, process metrics and error taxonomy from per-episode JSONL records,
printed with rich and written as one self-contained HTML file (plots and a trajectory viewer).

:func:`build_report` does the work; the modules are ``tables`` (accuracy tables), ``process``
(WebStep-style process metrics from the semantic trace), ``taxonomy`` (error categories of failed
episodes), ``plots`` (matplotlib figures) and ``html`` (the HTML file).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from embodiedweb.report import process as proc
from embodiedweb.report import taxonomy as tax
from embodiedweb.report.tables import (
    Table,
    accuracy_tables,
    agent_sort_key,
    check_versions,
    compute,
    detail_key,
    env_label,
    group,
    is_error,
    label_runs,
    load_records,
    metric,
    num,
    pct,
    versions_table,
)

__all__ = ["Report", "build_report", "process_tables", "taxonomy_tables"]


@dataclass
class Report:
    records: list[dict[str, Any]]
    numbers: dict[str, Any]
    tables: list[Table]
    episodes: list[dict[str, Any]] = field(default_factory=list)  # per-episode process + taxonomy


def build_report(paths: list[str | Path], *, process: bool = True, oracle_cache: str | Path | None = None,
                 oracles: proc.OracleTraces | None = None, mix_versions: bool = False,
                 split_runs: bool = False) -> Report:
    """Load the records of ``paths`` and compute every table (process metrics and taxonomy need traces:
    ``ewa eval --save-steps``; the oracle's traces are computed on demand in text mode).

    Rows are run labels; raises :class:`~embodiedweb.report.tables.MixedRuns` when two runs share a
    label, unless ``split_runs`` (one row per run), and :class:`~embodiedweb.report.tables.MixedVersions`
    when one row would average records of different suite versions, unless ``mix_versions``."""
    records = load_records(paths)
    label_runs(records, split_runs)
    if not mix_versions:
        check_versions(records)
    numbers = compute(records)
    episodes: list[dict[str, Any]] = []
    if process:
        if oracles is None:
            cache = oracle_cache
            if cache is None and paths and proc.steps_dir(paths[0]).exists():
                cache = proc.steps_dir(paths[0]) / "_oracle"
            oracles = proc.OracleTraces(cache)
            own = True
        else:
            own = False
        try:
            episodes = episode_details(records, oracles)
        finally:
            if own:
                oracles.close()
    numbers["process"], numbers["taxonomy"] = aggregate_details(records, episodes)
    tabs = [versions_table(records)] + accuracy_tables(numbers) + process_tables(numbers["process"]) + taxonomy_tables(numbers["taxonomy"])
    return Report(records, numbers, tabs, episodes)


def episode_details(records: list[dict[str, Any]], oracles: proc.OracleTraces) -> list[dict[str, Any]]:
    """For each record with a trace file: its process metrics and (when it failed) its error categories."""
    out = []
    for r in records:
        if is_error(r):  # ended by an agent or endpoint error: no process or error category of the agent
            continue
        tf = proc.trace_file(r)
        if tf is None:
            continue
        trace = proc.load_trace(tf)
        if not trace or trace[0].get("event") != "reset":
            continue
        o = oracles.get(str(r["env_id"]), str(r["task_id"]), r.get("seed", trace[0].get("seed")))
        d: dict[str, Any] = {"key": detail_key(r), "process": proc.episode_process(trace, o)}
        if not metric(r, "overall"):
            d["taxonomy"] = tax.classify_episode(trace, o)
        out.append(d)
    return out


def aggregate_details(records: list[dict[str, Any]], episodes: list[dict[str, Any]]
                      ) -> tuple[dict[str, Any], dict[str, Any]]:
    by_key = {e["key"]: e for e in episodes}
    process: dict[str, dict[str, Any]] = {}
    taxonomy: dict[str, dict[str, Any]] = {}
    for env_id, agents in group(records).items():
        for agent, recs in agents.items():
            eps = [by_key[k] for r in recs if (k := detail_key(r)) in by_key]
            if eps:
                process.setdefault(env_id, {})[agent] = proc.aggregate([e["process"] for e in eps])
            failed = [r for r in recs if not metric(r, "overall") and not is_error(r)]
            classified = [by_key[k]["taxonomy"] for r in failed
                          if (k := detail_key(r)) in by_key]
            if failed:
                taxonomy.setdefault(env_id, {})[agent] = {**tax.shares(classified),
                                                          "failed_episodes": len(failed),
                                                          "without_trace": len(failed) - len(classified)}
    return process, taxonomy


def process_tables(process: dict[str, dict[str, Any]]) -> list[Table]:
    if not process:
        return []
    t = Table("Process metrics (vs the oracle on the same task)",
              ["Env", "Agent", "Episodes", "Coverage %", "GUI / semantic", "Bifurcated %", "Bifurcation step"],
              caption="coverage = oracle's pre-commit pages visited before the agent's first commit; "
                      "bifurcation = first step off every oracle-equivalent path")
    skills = [s for s in proc.SKILLS if any(s in a["skills"] or s in a["oracle_skills"]
                                            for per in process.values() for a in per.values())]
    s = Table("Skill invocation (count, ratio to the oracle)", ["Env", "Agent", *skills],
              caption="per skill: steps of the agent (×ratio to the oracle's steps on the same tasks)")
    for env_id, per in process.items():
        for agent in sorted(per, key=agent_sort_key):
            a = per[agent]
            t.rows.append([env_label(env_id), agent, str(a["episodes"]), pct(a["coverage"]),
                           num(a["gui_per_semantic"], 2), pct(a["bifurcation_rate"]), num(a["bifurcation_step"])])
            row = [env_label(env_id), agent]
            for k in skills:
                c, ratio = a["skills"].get(k, 0), a["skill_ratio"].get(k)
                row.append(f"{c} ({ratio:.2f}×)" if ratio is not None else str(c))
            s.rows.append(row)
    return [t, s]


def taxonomy_tables(taxonomy: dict[str, dict[str, Any]]) -> list[Table]:
    if not taxonomy:
        return []
    cats = tax.CATEGORIES + ("other",)
    out = []
    for kind, title in (("primary", "Error taxonomy · primary category (% of failures; rows sum to 100)"),
                        ("any", "Error taxonomy · any category (% of failures; an episode may count in several)")):
        t = Table(title, ["Env", "Agent", "Failures", *(tax.LABELS[c] for c in (cats if kind == "primary"
                                                                                 else tax.CATEGORIES))],
                  caption="failures without a trace file are not classified (see --save-steps)")
        for env_id, per in taxonomy.items():
            for agent in sorted(per, key=agent_sort_key):
                sh = per[agent]
                n = f"{sh['failures']}" + (f" (+{sh['without_trace']} untraced)" if sh["without_trace"] else "")
                t.rows.append([env_label(env_id), agent, n,
                               *(pct(sh[kind].get(c)) if sh["failures"] else "–"
                                 for c in (cats if kind == "primary" else tax.CATEGORIES))])
        out.append(t)
    return out
