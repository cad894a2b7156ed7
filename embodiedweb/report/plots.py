"""Report figures as base64 PNGs (matplotlib, Agg backend), ready to embed in one HTML file."""

from __future__ import annotations

import base64
import io
from typing import Any

from embodiedweb.extras import missing
from embodiedweb.report.tables import ACC_KEYS, ACC_LABELS, env_label, metric
from embodiedweb.report.taxonomy import CATEGORIES, LABELS


def available() -> bool:
    """Whether the ``plots`` extra (matplotlib) is installed."""
    return not missing("plots")


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    _plt().close(fig)
    return base64.b64encode(buf.getvalue()).decode()


def _agents(numbers: dict[str, dict[str, Any]]) -> list[str]:
    from embodiedweb.report.tables import agent_sort_key

    return sorted({a for per in numbers.values() for a in per}, key=agent_sort_key)


def accuracy_bars(accuracy: dict[str, dict[str, dict[str, Any]]]) -> str | None:
    """One panel per metric (overall, web, embodied, completion): bars per env, one colour per agent."""
    if not accuracy:
        return None
    plt = _plt()
    envs = list(accuracy)
    agents = _agents(accuracy)
    fig, axes = plt.subplots(1, len(ACC_KEYS), figsize=(4 * len(ACC_KEYS), 3.2), sharey=True)
    width = 0.8 / max(1, len(agents))
    for ax, key in zip(axes, ACC_KEYS, strict=True):
        for i, a in enumerate(agents):
            xs = [j + i * width for j in range(len(envs))]
            ys = [100 * ((accuracy[e].get(a) or {}).get(key) or 0.0) for e in envs]
            ax.bar(xs, ys, width, label=a)
        ax.set_xticks([j + width * (len(agents) - 1) / 2 for j in range(len(envs))])
        ax.set_xticklabels([env_label(e) for e in envs], rotation=20)
        ax.set_title(f"{ACC_LABELS[key]} %")
        ax.set_ylim(0, 100)
    axes[0].legend(fontsize=8)
    return _png(fig)


def completion_distributions(records: list[dict[str, Any]]) -> str | None:
    """Histogram of per-episode completion, one panel per env, one outline per agent."""
    from embodiedweb.report.tables import group

    g = group(records)
    if not g:
        return None
    plt = _plt()
    fig, axes = plt.subplots(1, len(g), figsize=(4.2 * len(g), 3), squeeze=False)
    for ax, (e, agents) in zip(axes[0], g.items(), strict=True):
        for a, rs in agents.items():
            ax.hist([float(metric(r, "completion") or 0.0) for r in rs], bins=10, range=(0, 1), histtype="step",
                    linewidth=1.6, label=a)
        ax.set_title(f"{env_label(e)}: completion")
        ax.set_xlabel("completion")
    axes[0][0].set_ylabel("episodes")
    axes[0][0].legend(fontsize=8)
    return _png(fig)


def steps_histogram(records: list[dict[str, Any]]) -> str | None:
    """Steps per episode, one outline per agent (all envs)."""
    if not records:
        return None
    from embodiedweb.report.tables import agent_sort_key, row

    plt = _plt()
    by: dict[str, list[float]] = {}
    for r in records:
        by.setdefault(row(r), []).append(float(metric(r, "steps") or r.get("steps") or 0))
    hi = max(max(v) for v in by.values()) or 1
    fig, ax = plt.subplots(figsize=(6, 3))
    for a in sorted(by, key=agent_sort_key):
        ax.hist(by[a], bins=20, range=(0, hi), histtype="step", linewidth=1.6, label=a)
    ax.set_xlabel("steps per episode")
    ax.set_ylabel("episodes")
    ax.legend(fontsize=8)
    return _png(fig)


def taxonomy_shares(taxonomy: dict[str, dict[str, dict[str, Any]]]) -> str | None:
    """Stacked horizontal bars of the primary error categories' shares, one bar per env · agent."""
    rows = [(f"{env_label(e)} · {a}", s) for e, per in taxonomy.items() for a, s in per.items() if s["failures"]]
    if not rows:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(rows) + 1.5))
    cats = CATEGORIES + ("other",)
    left = [0.0] * len(rows)
    for c in cats:
        vals = [100 * s["primary"][c] for _, s in rows]
        ax.barh([r for r, _ in rows], vals, left=left, label=LABELS[c])
        left = [a + b for a, b in zip(left, vals, strict=True)]
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of failed episodes (primary category)")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=3)
    return _png(fig)
