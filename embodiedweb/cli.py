"""The ``ewa`` command: eval, bench, serve, describe, and the world tools."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from embodiedweb.commands import alfred, city
from embodiedweb.extras import MissingExtra, require
from embodiedweb.sampling import SUBSETS
from embodiedweb.tasks import LEVELS


def _env_ids(arg: str) -> list[str]:
    from embodiedweb import registered_ids

    ids = registered_ids()
    if arg == "all":
        return ids
    wanted = [a.strip() for a in arg.split(",") if a.strip()]
    unknown = [w for w in wanted if w not in ids]
    if unknown:
        raise SystemExit(f"ewa: unknown env id(s) {', '.join(unknown)}; registered: {', '.join(ids) or 'none'}")
    return wanted


def vision_env_kwargs(vision: bool, view: str = "first_person") -> dict[str, Any]:
    """The env options ``--vision`` adds: images, and in a world with a first-person camera (the kitchen)
    that camera's frame as ``embodied_image`` (``--vision-view first_person``, the default, as the paper's
    vision baselines saw AI2-THOR), or the top-down map (``--vision-view top_down``)."""
    if not vision:
        return {}
    return {"render_images": True, **({"embodied_view": "auto"} if view == "first_person" else {})}


def cmd_eval(a: argparse.Namespace) -> int:
    """``ewa eval``: evaluate an agent on the chosen envs and print the table; returns the exit status."""
    from embodiedweb.evaluate import EvalFailed, Stopped, evaluate, print_table

    ids = _env_ids(a.env)
    if not ids:
        print("ewa eval: no env is registered yet", file=sys.stderr)
        return 2
    if a.vision and a.web_mode != "browser":
        print("ewa eval: --vision needs --web-mode browser (for screenshots of the real page; text mode has "
              "only the tree text)", file=sys.stderr)
        return 2
    if a.web_mode == "browser":
        require("browser")
    if a.agent == "llm":
        require("llm")
    out = Path(a.out) if a.out else None
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
    env_kwargs: dict[str, Any] = {}
    if a.max_steps:
        env_kwargs["max_steps"] = a.max_steps
    if a.curriculum is not None:
        env_kwargs["curriculum"] = a.curriculum
    if a.level != "standard":  # (standard: no key, so the run ids of standard runs are as before levels)
        from embodiedweb.registration import spec_for

        without = [i for i in ids if a.level not in getattr(spec_for(i), "levels", ("standard",))]
        if without and a.env == "all":
            print(f"note: no {a.level} tasks in {', '.join(without)}; evaluating "
                  f"{', '.join(i for i in ids if i not in without) or 'nothing'}", file=sys.stderr)
            ids = [i for i in ids if i not in without]
        elif without:
            print(f"ewa eval: {', '.join(without)} has no {a.level} tasks (levels of each env: "
                  f"{'; '.join(f'{i}: ' + ', '.join(spec_for(i).levels) for i in without)})", file=sys.stderr)
            return 2
        if not ids:
            print(f"ewa eval: no env has {a.level} tasks", file=sys.stderr)
            return 2
        if a.curriculum is not None:
            print("ewa eval: --curriculum levels are measured on the standard tier only; drop --curriculum or "
                  f"--level {a.level}", file=sys.stderr)
            return 2
        if a.subset:
            print(f"ewa eval: the named subsets list standard tasks; --subset does not apply to --level {a.level} "
                  "(use --limit for a stratified sample)", file=sys.stderr)
            return 2
        env_kwargs["level"] = a.level
    if a.teacher_forcing:
        from embodiedweb.registration import domain_class

        single = [i for i in ids if not getattr(domain_class(i), "multi_turn", False)]
        if single:
            print(f"ewa eval: --teacher-forcing needs envs that give instructions one at a time; not {', '.join(single)}",
                  file=sys.stderr)
            return 2
        env_kwargs["teacher_forcing"] = True
        if not a.run_label:
            a.run_label = f"{a.agent}{':' + a.llm_model if a.agent == 'llm' and a.llm_model else ''}+teacher-forcing"
    agent_kwargs: dict[str, Any] = {}
    if a.agent == "llm":
        if not a.llm_model:
            raise SystemExit("ewa eval --agent llm needs --llm-model (and --llm-base-url for a local server)")
        agent_kwargs = {"base_url": a.llm_base_url, "model": a.llm_model, "api_key": a.llm_api_key,
                        "vision": a.vision, "price_in": a.llm_price_in, "price_out": a.llm_price_out,
                        **_llm_settings(a)}
    env_kwargs.update(vision_env_kwargs(a.vision, a.vision_view))
    kept = f"are in {out}, and the same command resumes the run" if out else "were not saved (no --out)"
    from baselines.registry import AgentSpecError

    try:
        summary, records = evaluate(ids, a.agent, limit=a.limit, split=a.split, subset=a.subset, web_mode=a.web_mode, out=out,
                                    seed=a.seed, progress=not a.no_progress, env_kwargs=env_kwargs,
                                    agent_kwargs=agent_kwargs, save_steps=a.save_steps, workers=a.workers,
                                    retry_errors=a.retry_errors, run_label=a.run_label, ray_address=a.ray)
    except AgentSpecError as e:  # --agent names no agent and no importable plug-in
        print(f"ewa eval: {e}", file=sys.stderr)
        return 2
    except Stopped as e:  # SIGTERM or SIGINT: one line, and the shell's exit code for that signal
        print(f"ewa eval: stopped by {e} after {e.finished or 0} episode(s); the finished episodes {kept}",
              file=sys.stderr)
        return e.exit_code
    except EvalFailed as e:  # a worker died or an episode raised: the other workers were stopped
        print(f"ewa eval: {e}; the run was stopped, the finished episodes {kept}", file=sys.stderr)
        if e.detail:
            print(f"worker traceback:\n{e.detail.rstrip()}", file=sys.stderr)
        return 1
    label = records[0]["run_label"] if records else a.agent
    print_table(summary, f"{label} · {a.web_mode} mode", stderr=a.json)
    if a.json:
        print(json.dumps({"results": summary}, sort_keys=True))
    errors = [r for r in records if r.get("status") == "error"]
    if errors:  # not failures of the agent: the run is incomplete
        retry = " (rerun with --retry-errors to retry them)" if out else ""
        print(f"ewa eval: {len(errors)} of {len(records)} episode(s) ended in an error, not counted in accuracy"
              f"{retry}; first: {str(errors[0].get('error', ''))[:200]}", file=sys.stderr)
        return 1
    return 0


def _llm_settings(a: argparse.Namespace) -> dict[str, Any]:
    """The LLM agent's sampling flags (they are run settings: another temperature is another run)."""
    kw: dict[str, Any] = {"temperature": a.temperature, "max_tokens": a.max_tokens}
    if a.system_prompt:
        try:
            kw["system_prompt"] = Path(a.system_prompt).read_text(encoding="utf-8")
        except OSError as e:
            raise SystemExit(f"ewa eval: --system-prompt: cannot read {a.system_prompt} ({e.strerror})") from None
    return kw


def cmd_bench(a: argparse.Namespace) -> int:
    """``ewa bench``: print the performance figures of :func:`embodiedweb.bench.run_bench`."""
    from embodiedweb.bench import run_bench

    figures = run_bench(quick=a.quick)
    if not a.json:
        for k, v in figures.items():
            print(f"{k:>34}: {v}", file=sys.stderr)
    print(json.dumps(figures, sort_keys=True))
    return 0


def cmd_serve(a: argparse.Namespace) -> int:
    """``ewa serve``: serve the local sites for people over HTTP (the ``serve`` extra)."""
    require("serve")
    import uvicorn

    from web_sites.asgi import create_app
    from web_sites.registry import get_webapp

    print(f"Serving the local sites on http://{a.host}:{a.port}/ (Ctrl+C to stop)", file=sys.stderr)
    uvicorn.run(create_app(get_webapp()), host=a.host, port=a.port, log_level="warning")
    return 0


def cmd_play(a: argparse.Namespace) -> int:
    """``ewa play``: human-play mode in the browser; results append to ``--out`` as agent ``human``."""
    import threading
    import webbrowser

    import gymnasium as gym

    require("serve")
    import uvicorn

    import embodiedweb  # noqa: F401
    from embodiedweb.play.server import PlayPool, create_play_app

    env_id = _env_ids(a.env)[0]

    def make_env() -> Any:
        return gym.make(env_id, web_mode="text")

    env = make_env()
    base = env.unwrapped
    if a.task:
        base.tasks.get(a.task)  # a clear error for an unknown id
        ids = [a.task]
    else:
        ids = [t.task_id for t in base.tasks if a.split in ("all", t.split)]
    pool = PlayPool(make_env, ids, Path(a.out) if a.out else None, seed=a.seed, max_sessions=a.max_sessions,
                    idle_timeout=a.idle_timeout, env_id=base.env_id)
    pool.free.append(env)  # the first session plays on it
    url = f"http://{a.host}:{a.port}/"
    print(f"Human play: open {url} (results go to {a.out}; up to {a.max_sessions} participants at once; "
          "Ctrl+C to stop)", file=sys.stderr)
    if not a.no_browser:
        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    try:
        uvicorn.run(create_play_app(pool, host=a.host), host=a.host, port=a.port, log_level="warning")
    finally:
        pool.close_all()
    return 0


def cmd_describe(a: argparse.Namespace) -> int:
    """``ewa describe``: print an env's action set as given to prompts."""
    import gymnasium as gym

    import embodiedweb  # noqa: F401

    env = gym.make(_env_ids(a.env)[0])
    print(env.unwrapped.describe_actions())
    env.close()
    return 0


def cmd_envs(a: argparse.Namespace) -> int:
    """``ewa envs``: print each registered env id with its description."""
    from embodiedweb.registration import load_specs

    for s in load_specs():
        print(f"{s.id}\t{s.description}")
    return 0


def cmd_curricula(a: argparse.Namespace) -> int:
    """The curriculum levels: tasks per env, level and split, mean score and measures (Markdown table)."""
    from embodiedweb.curricula import level_table
    from embodiedweb.registration import load_specs

    rows = level_table(load_specs(), _env_ids(a.env) if a.env else None)
    if a.json:
        print(json.dumps(rows, sort_keys=True))
        return 0
    print("| env | level | split | tasks | score | measures (means) |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        measures = ", ".join(f"{k} {v:.1f}" for k, v in r.items()
                             if k not in ("env_id", "level", "split", "tasks", "score"))
        print(f"| {r['env_id']} | {r['level']} | {r['split']} | {r['tasks']} | {r['score']:.3f} | {measures} |")
    return 0


def cmd_report(a: argparse.Namespace) -> int:
    """Paper-style tables, process metrics and error taxonomy of per-episode JSONL files."""
    from embodiedweb.report import build_report
    from embodiedweb.report.tables import print_tables

    missing = [r for r in a.results if not Path(r).exists()]
    if missing:
        raise SystemExit(f"ewa report: no such file: {', '.join(missing)}")
    from embodiedweb.report.tables import MixedRuns, MixedVersions

    try:
        report = build_report(a.results, process=not a.no_process, oracle_cache=a.oracle_cache,
                              mix_versions=a.mix_versions, split_runs=a.split_runs)
    except (MixedVersions, MixedRuns) as e:
        print(f"ewa report: {e}", file=sys.stderr)
        return 2
    print_tables(report.tables, stderr=a.json)
    if a.html:
        from embodiedweb.report.html import write_html
        from embodiedweb.report.plots import available

        out = write_html(report, a.html, [str(r) for r in a.results], viewer_limit=a.viewer_limit)
        print(f"HTML report: {out}", file=sys.stderr)
        if not available():
            print('The report has no plots: matplotlib is not installed (pip install "embodiedweb[plots]")',
                  file=sys.stderr)
    if a.json:
        print(json.dumps(report.numbers, sort_keys=True, default=str))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The ``ewa`` argument parser with every subcommand."""
    p = argparse.ArgumentParser(prog="ewa", description="Embodied web agent environments.")
    sub = p.add_subparsers(dest="cmd", required=True)

    e = sub.add_parser("eval", help="evaluate an agent on envs and print the paper-style table")
    e.add_argument("--env", default="all", help="env id, comma-separated ids, or 'all'")
    e.add_argument("--agent", default="oracle", help="oracle, random, perturbed, heuristic, llm, or a plug-in "
                   "module:Class / module:factory implementing embodiedweb.agents.base.AgentProtocol")
    e.add_argument("--limit", type=int, default=None, help="at most N tasks per env: a sample spread over the "
                   "env's strata (difficulty level, recipe kind, store rule, question kind, continent), fixed by --seed")
    e.add_argument("--split", default="test", choices=["all", "train", "test", "dev"],
                   help="which tasks (default: the test split; train only when asked)")
    e.add_argument("--subset", default=None, choices=sorted(SUBSETS),
                   help="a named fixed subset of the split: lite = 10%% of each env's tasks (at least 20), stable "
                        "across versions, for cheap LLM runs")
    e.add_argument("--level", default="standard", choices=list(LEVELS),
                   help="the task tier: standard (default) or hard (envs whose spec names hard_tasks; see the "
                        "README's Levels and docs/levels.md)")
    e.add_argument("--web-mode", default="text", choices=["text", "browser"])
    e.add_argument("--out", default=None, help="per-episode JSONL (appended; a rerun of the same agent, model "
                   "and settings resumes)")
    e.add_argument("--seed", type=int, default=0, help="episode seeds; the LLM agent also sends it as the "
                   "request's seed (servers that support it sample reproducibly)")
    e.add_argument("--max-steps", type=int, default=None)
    e.add_argument("--curriculum", type=int, default=None, choices=range(4), metavar="LEVEL",
                   help="only the tasks of one difficulty level, 0 (easiest) to 3 (see `ewa curricula`)")
    e.add_argument("--teacher-forcing", action="store_true",
                   help="multi-turn envs (EWA-Assistant-v0): after a wrong instruction, restore the state a correct "
                        "agent would have, so every instruction is scored on its own (step success rate)")
    e.add_argument("--json", action="store_true", help="last stdout line is one JSON object")
    e.add_argument("--no-progress", action="store_true")
    e.add_argument("--retry-errors", action="store_true",
                   help="run again the episodes of this run that ended in an agent or endpoint error "
                        "(kept and reported as errors otherwise)")
    e.add_argument("--run-label", default=None, help="readable name of this run in `ewa report` rows "
                   "(default: the agent's, e.g. oracle or llm:MODEL)")
    e.add_argument("--workers", type=int, default=1, help="run episodes in N processes (results do not depend on N)")
    e.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="run episodes in Ray actors (the 'ray' extra): on a local Ray instance, or on the cluster "
                        "at ADDRESS (auto, HOST:PORT, ray://HOST:PORT); actors: --workers, else the cluster's CPUs")
    e.add_argument("--save-steps", action="store_true",
                   help="also write every step (action, observation text, thumbnails, trace) beside --out, "
                        "for the trajectory viewer of `ewa report`")
    g = e.add_argument_group("LLM agent (--agent llm): any OpenAI-compatible endpoint")
    g.add_argument("--llm-base-url", default=None, help="e.g. http://localhost:8000/v1 (default: OPENAI_BASE_URL)")
    g.add_argument("--llm-model", default=None)
    g.add_argument("--llm-api-key", default=None, help="default: OPENAI_API_KEY")
    g.add_argument("--llm-price-in", type=float, default=0.0, help="USD per million prompt tokens")
    g.add_argument("--llm-price-out", type=float, default=0.0, help="USD per million completion tokens")
    g.add_argument("--temperature", type=float, default=0.0, help="sampling temperature (default 0)")
    g.add_argument("--max-tokens", type=int, default=1024, help="completion token limit per step (default 1024)")
    g.add_argument("--system-prompt", default=None, metavar="FILE",
                   help="system prompt text instead of the built-in one ({domain} and {actions} are filled in)")
    g.add_argument("--vision", action="store_true", help="send screenshots of the page and embodied images "
                   "(needs --web-mode browser)")
    g.add_argument("--vision-view", choices=("first_person", "top_down"), default="first_person",
                   help="with --vision, the kitchen image sent: the agent's first-person camera frame (default) "
                   "or the top-down map (worlds without a camera always send their map)")
    e.set_defaults(func=cmd_eval)

    b = sub.add_parser("bench", help="performance figures as JSON")
    b.add_argument("--json", action="store_true")
    b.add_argument("--quick", action="store_true", help="fewer repetitions")
    b.set_defaults(func=cmd_bench)

    s = sub.add_parser("serve", help="serve the local sites for people")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8765)
    s.set_defaults(func=cmd_serve)

    pl = sub.add_parser("play", help="human-play mode in your browser (results append to --out as agent 'human')")
    pl.add_argument("--env", required=True)
    pl.add_argument("--task", default=None, help="one task id (default: every task of --split, spread over "
                    "participants, least-played first, never twice to one participant)")
    pl.add_argument("--split", default="test", choices=["all", "train", "test", "dev"])
    pl.add_argument("--host", default="127.0.0.1")
    pl.add_argument("--port", type=int, default=8766)
    pl.add_argument("--out", default="results/human.jsonl")
    pl.add_argument("--seed", type=int, default=0)
    pl.add_argument("--no-browser", action="store_true", help="do not open a browser window")
    pl.add_argument("--max-sessions", type=int, default=8, help="participants playing at once (one env each)")
    pl.add_argument("--idle-timeout", type=float, default=1800.0,
                    help="seconds after which an idle participant's session is closed")
    pl.set_defaults(func=cmd_play)

    d = sub.add_parser("describe", help="print the action set of an env (as given to prompts)")
    d.add_argument("--env", required=True)
    d.set_defaults(func=cmd_describe)

    v = sub.add_parser("envs", help="list the registered env ids")
    v.set_defaults(func=cmd_envs)

    c = sub.add_parser("curricula", help="print the curriculum levels (gym.make(id, curriculum=L)): tasks per "
                       "env, level and split, with the mean difficulty score and measures")
    c.add_argument("--env", default=None, help="env ids, comma-separated, or all (default)")
    c.add_argument("--json", action="store_true", help="one JSON list of rows")
    c.set_defaults(func=cmd_curricula)

    r = sub.add_parser("report", help="paper-style tables, process metrics, error taxonomy and an HTML report")
    r.add_argument("results", nargs="+", help="per-episode JSONL files of `ewa eval` (and human play)")
    r.add_argument("--html", default=None, help="write a self-contained HTML report (plots, trajectory viewer)")
    r.add_argument("--json", action="store_true", help="last stdout line is one JSON object with the numbers")
    r.add_argument("--no-process", action="store_true", help="skip process metrics and taxonomy (no oracle runs)")
    r.add_argument("--oracle-cache", default=None, help="folder caching the oracle's traces "
                   "(default: <first results>.steps/_oracle when that folder exists)")
    r.add_argument("--viewer-limit", type=int, default=200, help="at most N episodes in the trajectory viewer")
    r.add_argument("--mix-versions", action="store_true", help="average records of different suite versions "
                   "into one row (refused by default: their tasks, world or rules differ)")
    r.add_argument("--split-runs", action="store_true", help="one row per run when runs share a label "
                   "(label#<run id>); refused by default: they differ in model or settings")
    r.set_defaults(func=cmd_report)

    alfred.add_commands(sub)
    city.add_commands(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """The ``ewa`` entry point: parse ``argv`` and run the subcommand; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except MissingExtra as e:
        print(f"ewa {args.cmd}: {e}", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
