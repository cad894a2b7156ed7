"""Mutation testing of the modules that score episodes (issue 24): ``make mutate`` / ``make mutate FULL=1``.

Drives mutmut 3 (pinned in the ``dev`` extra) in-process: the modules and their focused test files come
from ``tests/mutation/modules.toml``, mutants listed in ``tests/mutation/equivalent.toml`` are left out of
the kill rate. The sampled mode (default) draws a deterministic sample of mutants per module; ``--full``
tests every mutant. Prints the kill rate per module and writes ``results/mutation.json`` and
``results/mutation.md``. Refuses to start on a dirty git tree (the mutants are copies of the committed
source; a result has to name the commit it measured).
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
KILLED = {"killed", "timeout", "segfault"}  # a timeout or crash under a mutant is a detection too


def load_modules() -> list[dict]:
    return tomllib.loads((HERE / "modules.toml").read_text("utf-8"))["module"]


def load_equivalent() -> dict[str, str]:
    """``{mutant name: reason}`` of the mutants judged equivalent (no test can tell them apart)."""
    data = tomllib.loads((HERE / "equivalent.toml").read_text("utf-8"))
    out = {}
    for e in data.get("equivalent", []):
        if not str(e.get("reason", "")).strip():
            raise SystemExit(f"mutate: equivalent mutant {e.get('mutant')!r} has no reason")
        out[e["mutant"]] = e["reason"]
    return out


def dirty_tree() -> str:
    r = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        return "not a git checkout"
    return r.stdout.strip()


def git_head() -> str:
    r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return r.stdout.strip()


def module_key(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def function_of(mutant: str) -> str:
    """The function part of a mutant name (``embodiedweb.trace.xǁTraceǁdigest__mutmut_6`` -> ``digest``)."""
    mangled = mutant.partition("__mutmut_")[0].rpartition(".")[2]
    return mangled.split("ǁ")[-1].removeprefix("x_")


def order_key(name: str) -> str:
    return hashlib.sha256(name.encode()).hexdigest()


@contextlib.contextmanager
def quiet(enabled: bool):
    if not enabled:
        yield
        return
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        yield


def show(name: str) -> int:
    """The diff of mutant ``name`` of the last run (``mutmut show`` alone only knows pyproject's module)."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    path = name.rpartition(".")[0].replace(".", "/") + ".py"
    os.chdir(ROOT)
    if not (ROOT / "mutants" / path).exists():
        print(f"mutate: no mutants of {path}: run `make mutate` (with --module) first", file=sys.stderr)
        return 2
    try:
        diff = get_diff_for_mutant(name, path=path)
    except FileNotFoundError:
        print(f"mutate: {name} is not among the last run's mutants: run `make mutate` over its module first",
              file=sys.stderr)
        return 2
    print(f"# {name}\n{diff}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="test every mutant (for releases)")
    ap.add_argument("--sample", type=int, default=None, help="mutants per module in the sampled mode")
    ap.add_argument("--module", action="append", default=[], help="only modules whose name contains this")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default="results/mutation")
    ap.add_argument("--show", metavar="MUTANT", help="print a mutant's diff (from the last run's mutants/)")
    ap.add_argument("--allow-dirty", action="store_true", help=argparse.SUPPRESS)  # for the runner's own test
    args = ap.parse_args(argv)
    if args.show:
        return show(args.show)

    dirty = dirty_tree()
    if dirty and not args.allow_dirty:
        print("mutate: refusing to run on a dirty git tree (commit or stash your changes first)", file=sys.stderr)
        return 2

    modules = [m for m in load_modules() if not args.module or any(s in m["name"] for s in args.module)]
    if not modules:
        print("mutate: no module matches --module", file=sys.stderr)
        return 2
    equivalent = load_equivalent()
    t0 = time.monotonic()

    os.chdir(ROOT)
    shutil.rmtree(ROOT / "mutants", ignore_errors=True)  # every measurement starts from the committed source
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT]
    os.environ.pop("PYTHONPATH", None)

    import mutmut.__main__ as mm
    from mutmut.configuration import config
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.state import state
    from mutmut.stats import status_by_exit_code

    tests = sorted({t for m in modules for t in m["tests"] if (ROOT / t).exists()})
    cfg = config()
    cfg.only_mutate = sorted({m["path"] for m in modules})
    deselect = sorted({d for m in modules for d in m.get("deselect", [])})
    cfg.pytest_add_cli_args_test_selection = tests + [a for d in deselect for a in ("--deselect", d)]

    print(f"mutate: mutmut over {len(modules)} modules, tests: {' '.join(tests)}", flush=True)
    with quiet(True):
        os.makedirs("mutants", exist_ok=True)
        mm.copy_src_dir()
        mm.copy_also_copy_files()
        mm.setup_source_paths()
        mm.create_mutants(args.jobs)
        runner = mm.get_mutant_runner(args.jobs)
        mm.collect_or_load_stats(runner)

    def load(path: str) -> SourceFileMutationData:
        d = SourceFileMutationData(path=Path(path))
        d.load()
        return d

    chosen: dict[str, list[str]] = {}
    for m in modules:
        prefix = module_key(m["path"]) + "."
        names = [k for k in load(m["path"]).exit_code_by_key if k.startswith(prefix)]
        pats = m.get("functions")
        if pats:
            names = [n for n in names if any(fnmatch.fnmatch(function_of(n), p) for p in pats)]
        names = [n for n in names if n not in equivalent]
        names.sort(key=order_key)
        if not args.full:
            names = names[: args.sample or m.get("sample", 25)]
        chosen[m["name"]] = sorted(names)

    covered_fns = set(state().tests_by_mangled_function_name)
    to_run = [n for ns in chosen.values() for n in ns if n.partition("__mutmut_")[0] in covered_fns]
    print(f"mutate: {'full' if args.full else 'sampled'} mode, {sum(map(len, chosen.values()))} mutants "
          f"({len(to_run)} reached by a test)", flush=True)
    if to_run:
        with quiet(True):
            try:
                mm._run(to_run, args.jobs)
            except SystemExit as e:
                if e.code:
                    raise
    elapsed = time.monotonic() - t0

    rows = []
    for m in modules:
        codes = load(m["path"]).exit_code_by_key
        statuses = {}
        for n in chosen[m["name"]]:
            statuses[n] = "no tests" if n not in to_run else status_by_exit_code[codes.get(n)]
        killed = sum(s in KILLED for s in statuses.values())
        total = len(statuses)
        rows.append({
            "module": m["name"], "path": m["path"], "tests": m["tests"], "mutants": total, "killed": killed,
            "kill_rate": round(killed / total, 4) if total else None,
            "survivors": sorted(n for n, s in statuses.items() if s not in KILLED),
            "statuses": statuses,
            "equivalent": sorted(n for n in equivalent if n.startswith(module_key(m["path"]) + ".")),
        })

    mode = "full" if args.full else "sampled"
    report = {"mode": mode, "commit": git_head(), "tool": "mutmut", "seconds": round(elapsed, 1),
              "modules": rows}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", "utf-8")
    lines = [f"Mutation testing ({mode} mode, mutmut, commit {git_head()}, {elapsed:.0f} s)", "",
             "| module | mutants | killed | kill rate | equivalent (excluded) |", "| --- | ---: | ---: | ---: | ---: |"]
    for r in rows:
        rate = f"{100 * r['kill_rate']:.0f} %" if r["kill_rate"] is not None else "-"
        lines.append(f"| {r['module']} | {r['mutants']} | {r['killed']} | {rate} | {len(r['equivalent'])} |")
    tot = sum(r["mutants"] for r in rows)
    kil = sum(r["killed"] for r in rows)
    lines.append(f"| **all** | {tot} | {kil} | {100 * kil / max(tot, 1):.0f} % | {len(equivalent)} |")
    table = "\n".join(lines)
    out.with_suffix(".md").write_text(table + "\n", "utf-8")
    print(table)
    for r in rows:
        for n in r["survivors"]:
            print(f"  survived: {n} ({r['statuses'][n]})  -> python tests/mutation/run.py --show '{n}'")
    print(f"mutate: wrote {out.with_suffix('.json')} and {out.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
