"""The HTML report: one self-contained file (tables, embedded PNG plots, a per-episode trajectory viewer)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jinja2 import Environment, select_autoescape

from embodiedweb.report import Report
from embodiedweb.report import plots as P
from embodiedweb.report.process import steps_file
from embodiedweb.report.tables import agent_sort_key, detail_key, metric, row
from embodiedweb.runs import participant

TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ title }}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 1300px; color: #222; }
table { border-collapse: collapse; margin: .4em 0 1.4em; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 3px 7px; text-align: right; }
th { background: #f0f0f0; } td:first-child, th:first-child { text-align: left; }
caption { caption-side: bottom; font-size: 11px; color: #666; text-align: left; }
h2 { border-bottom: 1px solid #ddd; padding-bottom: .2em; margin-top: 1.6em; }
.plot { max-width: 100%; } details { margin: .2em 0; } summary { cursor: pointer; }
.ep > summary { font-weight: 600; } .ok { color: #1a7f37; } .fail { color: #c62828; }
.step { border-left: 3px solid #ddd; margin: .3em 0 .3em .5em; padding-left: .6em; font-size: 13px; }
.step.web { border-color: #4a90d9; } .step.embodied { border-color: #e6a23c; }
.err { color: #c62828; } .agent { color: #444; } pre { white-space: pre-wrap; background: #fafafa; padding: .4em; font-size: 12px; }
.thumbs img { margin: 2px; border: 1px solid #ccc; vertical-align: top; } code { background: #f4f4f4; }
</style></head><body>
<h1>{{ title }}</h1>
<p>{{ n_records }} episodes from {% for s in sources %}<code>{{ s }}</code>{% if not loop.last %}, {% endif %}{% endfor %}.</p>
<h2 id="tables">Results</h2>
{% for t in tables %}
<table class="result"><caption>{{ t.caption }}</caption>
<thead><tr><th colspan="{{ t.columns|length }}" style="text-align:left">{{ t.title }}</th></tr>
{% if t.groups %}<tr>{% for g, n in t.groups %}<th colspan="{{ n }}">{{ g }}</th>{% endfor %}</tr>{% endif %}
<tr>{% for c in t.columns %}<th>{{ c }}</th>{% endfor %}</tr></thead>
<tbody>{% for row in t.rows %}<tr>{% for v in row %}<td>{{ v }}</td>{% endfor %}</tr>{% endfor %}</tbody></table>
{% endfor %}
<h2 id="plots">Plots</h2>
{% if no_plots %}<p>No plots: matplotlib is not installed (<code>pip install "embodiedweb[plots]"</code>).</p>{% endif %}
{% for name, png in plots %}<figure><img class="plot" alt="{{ name }}" src="data:image/png;base64,{{ png }}">
<figcaption>{{ name }}</figcaption></figure>{% endfor %}
<h2 id="viewer">Trajectory viewer</h2>
<p>{{ episodes|length }} episode(s) with saved steps{% if omitted %} ({{ omitted }} more not shown){% endif %}.</p>
{% for ep in episodes %}
<details class="ep"><summary><span class="{{ 'ok' if ep.overall else 'fail' }}">{{ '✔' if ep.overall else '✘' }}</span>
{{ ep.env_id }} · {{ ep.agent }} · {{ ep.task_id }} — {{ ep.steps|length - 1 }} steps, completion {{ ep.completion }}
{% if ep.run_error %} · <span class="fail">ended by an agent/endpoint error: {{ ep.run_error }}</span>{% endif %}{% if ep.primary %} · error: {{ ep.primary }}{% endif %}{% if ep.bifurcation %} · bifurcation at step {{ ep.bifurcation }}{% endif %}</summary>
{% if ep.categories %}<p>Error categories: {% for c, f in ep.categories.items() %}<b>{{ c }}</b> (step {{ f.step }}: {{ f.evidence }}){% if not loop.last %}; {% endif %}{% endfor %}</p>{% endif %}
{% for s in ep.steps %}
<div class="step {{ s.active }}"><b>{{ s.step }}</b> [{{ s.active }}] <code>{{ s.action if s.action is not none else '(reset)' }}</code>
{% if s.error %}<div class="err">error: {{ s.error }}</div>{% endif %}
{% if s.agent %}<div class="agent">agent{% if s.agent_tokens %} · tokens: {{ s.agent_tokens }}{% endif %}{% if s.agent.latency_s is defined and s.agent.latency_s is not none %} · latency {{ s.agent.latency_s }} s{% endif %}{% if s.agent.action is defined and s.agent.action != s.action %} · parsed action: <code>{{ s.agent.action }}</code>{% endif %}
{% if s.agent.reasoning %}<details><summary>reasoning ({{ s.agent.reasoning|string|length }} chars)</summary><pre>{{ s.agent.reasoning }}</pre></details>{% endif %}
{% if s.agent.completion is defined and s.agent.completion is not none %}<details><summary>raw completion ({{ s.agent.completion|string|length }} chars)</summary><pre>{{ s.agent.completion }}</pre></details>{% endif %}
{% if s.agent_extra %}<details><summary>more from the agent</summary><pre>{{ s.agent_extra }}</pre></details>{% endif %}</div>{% endif %}
{% if s.message %}<div>message: {{ s.message }}</div>{% endif %}
<div>url: {{ s.web_url }}</div>
<details><summary>observation text ({{ s.text|length }} chars){% if s.changes %}, changes: {{ s.changes_keys }}{% endif %}</summary><pre>{{ s.text }}</pre></details>
{% if s.web_screenshot or s.embodied_image %}<div class="thumbs">
{% if s.web_screenshot %}<img alt="web" src="data:image/png;base64,{{ s.web_screenshot }}">{% endif %}
{% if s.embodied_image %}<img alt="embodied" src="data:image/png;base64,{{ s.embodied_image }}">{% endif %}</div>{% endif %}
</div>{% endfor %}
</details>{% endfor %}
</body></html>
"""


#: keys of a step's ``agent`` part (``last_step_info()``) the viewer shows in their own places
AGENT_KEYS = ("completion", "action", "reasoning", "prompt_tokens", "completion_tokens", "latency_s")


def _load_steps(path: Path) -> list[dict[str, Any]]:
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                v = json.loads(line)
            except json.JSONDecodeError:
                continue
            ch = v.get("changes") or {}
            v["changes_keys"] = ", ".join(f"{d}: {', '.join(list(c)[:6])}" for d, c in ch.items() if c)
            side = v.get("agent")
            if isinstance(side, dict) and side:
                pt, ct = side.get("prompt_tokens"), side.get("completion_tokens")
                v["agent_tokens"] = (f"{pt if pt is not None else '?'} prompt + {ct if ct is not None else '?'} "
                                     "completion") if pt is not None or ct is not None else ""
                extra = {k: x for k, x in side.items() if k not in AGENT_KEYS}
                v["agent_extra"] = json.dumps(extra, ensure_ascii=False, indent=1, default=str) if extra else ""
            else:
                v.pop("agent", None)
            out.append(v)
    return out


def viewer_episodes(report: Report, limit: int = 200) -> tuple[list[dict[str, Any]], int]:
    """Episodes that have a ``.steps`` file (failures first, then by env, agent, task), at most ``limit``."""
    details = {e["key"]: e for e in report.episodes}
    recs = [r for r in report.records if steps_file(r) is not None]
    recs.sort(key=lambda r: (bool(metric(r, "overall")), r["env_id"], agent_sort_key(row(r)), r["task_id"]))
    out = []
    for r in recs[:limit]:
        d = details.get(detail_key(r), {})
        taxo = d.get("taxonomy") or {}
        path = steps_file(r)
        assert path is not None
        who = f"{row(r)} ({participant(r)})" if participant(r) else row(r)
        out.append({"env_id": r["env_id"], "agent": who, "task_id": r["task_id"],
                    "overall": bool(metric(r, "overall")), "completion": f"{float(metric(r, 'completion') or 0):.2f}",
                    "run_error": str(r.get("error") or "error")[:300] if r.get("status") == "error" else "",
                    "primary": taxo.get("primary"), "categories": taxo.get("categories") or {},
                    "bifurcation": (d.get("process") or {}).get("bifurcation"), "steps": _load_steps(path)})
    return out, max(0, len(recs) - limit)


def render_html(report: Report, sources: list[str], title: str = "embodiedweb report", viewer_limit: int = 200) -> str:
    plots = [("Accuracy per env and agent", P.accuracy_bars(report.numbers["accuracy"])),
             ("Completion distributions", P.completion_distributions(report.records)),
             ("Steps per episode", P.steps_histogram(report.records)),
             ("Error taxonomy: primary category shares", P.taxonomy_shares(report.numbers.get("taxonomy") or {}))
             ] if P.available() else []
    episodes, omitted = viewer_episodes(report, viewer_limit)
    env = Environment(autoescape=select_autoescape(default=True, default_for_string=True))
    return env.from_string(TEMPLATE).render(title=title, sources=sources, n_records=len(report.records),
                                            tables=report.tables, plots=[(n, p) for n, p in plots if p],
                                            episodes=episodes, omitted=omitted, no_plots=not P.available())


def write_html(report: Report, out: str | Path, sources: list[str], **kw: Any) -> Path:
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_html(report, sources, **kw), encoding="utf-8")
    return out
