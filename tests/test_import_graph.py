"""One-way dependencies, read from the import graph (issue 17).

Every ``.py`` under ``embodiedweb/``, ``web_sites/`` and ``baselines/`` is parsed with :mod:`ast`; every
import it makes -- at module level *and* inside functions, relative ones resolved -- becomes an edge from
its file to the project file it names. The tests then assert

* no import circles between files (strongly connected components of more than one file);
* the layers below: a lower layer never imports a higher one.

Violations are reported as a list of ``file -> file`` edges, so one run shows all of them.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("embodiedweb", "web_sites", "baselines")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _files() -> dict[str, Path]:
    """module name -> file, for every project module."""
    out: dict[str, Path] = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            out[_module_name(path)] = path
    return out


MODULES = _files()


def _resolve(name: str) -> str | None:
    """The project module an import of ``name`` loads last (``a.b.c`` -> ``a.b.c`` or ``a.b``)."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def _imports(mod: str, path: Path) -> set[str]:
    """Project modules ``mod`` imports (module-level and function-level), relative imports resolved.

    ``from pkg import name`` counts as importing ``pkg.name`` when that is a module, else ``pkg``.
    Importing ``a.b.c`` also runs ``a/__init__`` and ``a/b/__init__``, but those package faces are not
    counted as edges: they are what every submodule import passes through, and counting them would turn
    each package into one circle. The package face's own imports are edges of its own file.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_pkg = path.name == "__init__.py"
    out: set[str] = set()
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                hit = _resolve(alias.name)
                if hit:
                    out.add(hit)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = mod.split(".") if is_pkg else mod.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                full = ".".join(base + ([node.module] if node.module else []))
            else:
                full = node.module or ""
            for alias in node.names:
                hit = _resolve(f"{full}.{alias.name}" if alias.name != "*" else full)
                if hit:
                    out.add(hit)
    out.discard(mod)
    return out


def _runtime_nodes(tree: ast.AST):
    """Every node of ``tree`` except those under ``if TYPE_CHECKING:`` (imports for annotations only,
    never run)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                todo.extend(child.orelse)
                continue
            todo.append(child)


GRAPH: dict[str, set[str]] = {mod: _imports(mod, path) for mod, path in MODULES.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    sccs: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        comp.append(top)
                        if top == node:
                            break
                    if len(comp) > 1:
                        sccs.append(sorted(comp))
    return sorted(sccs)


def _under(mod: str, prefixes: tuple[str, ...]) -> bool:
    return any(mod == p or mod.startswith(p + ".") for p in prefixes)


# ---------------------------------------------------------------------------------------------------------
# The layers, lowest first. A module is in the layer whose prefix is the longest that matches it. A module
# may import its own layer and the layers named in MAY_IMPORT (stdlib and third-party: any).
#
#   base      the small common base everything may use: paths, extras (optional-dependency messages),
#             versions, text (text normalisation), render (text drawn into images), tables (the reference
#             tables under data/tables), wikitext (the wiki's link markup), frozen (static data made read only).
#             Imports nothing above it.
#   worlds    embodiedweb.worlds: the embodied simulators. Import only the base.
#   sites     web_sites: the local websites. Import the base and the worlds' public model (the map site
#             shows the street world's city); a world knows nothing of the sites.
#   core      the library: env, actions, domains, tasks, web drivers, agents (the agent interface and the
#             scripted-agent base the oracles are written with), spaces, trace, registration, wrappers,
#             reports. Never imports baselines or data_gen.
#   baselines agents: may import core.
#   data_gen  generators of data/ files: may import core (never baselines).
#   apps      what runs the rest: the ``ewa`` command, evaluation (which makes agents by name), benches,
#             soak. May import every layer; nothing imports it.
# ---------------------------------------------------------------------------------------------------------
LAYERS: dict[str, tuple[str, ...]] = {
    "base": ("embodiedweb.paths", "embodiedweb.extras", "embodiedweb.versions", "embodiedweb.text",
             "embodiedweb.render", "embodiedweb.tables", "embodiedweb.wikitext", "embodiedweb.frozen"),
    "worlds": ("embodiedweb.worlds",),
    "sites": ("web_sites",),
    "core": ("embodiedweb",),
    "baselines": ("baselines",),
    "data_gen": ("embodiedweb.data_gen",),
    "apps": ("embodiedweb.cli", "embodiedweb.evaluate", "embodiedweb.episodes", "embodiedweb.ray_eval", "embodiedweb.bench",
             "embodiedweb.benches", "embodiedweb.soak", "embodiedweb.rl_bench",
             "embodiedweb.report", "embodiedweb.play"),
}
#: which layers each layer may import (besides itself)
MAY_IMPORT: dict[str, set[str]] = {
    "base": set(),
    "worlds": {"base"},
    "sites": {"base", "worlds"},
    "core": {"base", "worlds", "sites"},
    "baselines": {"base", "worlds", "sites", "core"},
    "data_gen": {"base", "worlds", "sites", "core"},
    "apps": {"base", "worlds", "sites", "core", "baselines"},
}

def layer_of(mod: str) -> str:
    best, best_len = "", -1
    for name, prefixes in LAYERS.items():
        for p in prefixes:
            if _under(mod, (p,)) and len(p) > best_len:
                best, best_len = name, len(p)
    assert best, f"{mod} is in no layer"
    return best


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for mod in sorted(graph):
        src = layer_of(mod)
        for dep in sorted(graph[mod]):
            dst = layer_of(dep)
            if dst != src and dst not in MAY_IMPORT[src]:
                bad.append(f"{mod} ({src}) -> {dep} ({dst})")
    return bad


def private_name_imports() -> list[str]:
    """``from other.package import _private``: a private name stays inside its package (files of one
    folder may share one; a site, say, must not take a world's)."""
    bad = []
    for mod, path in sorted(MODULES.items()):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        here = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                target = _resolve(node.module) or node.module
                there = target if MODULES.get(target, Path()).name == "__init__.py" else target.rpartition(".")[0]
                if there == here:
                    continue
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        bad.append(f"{mod}: from {'.' * node.level}{node.module or ''} import {alias.name}")
    return bad


def test_graph_sees_the_project():
    assert len(MODULES) > 100
    assert "embodiedweb.env" in GRAPH["embodiedweb.registration"] or any(
        "embodiedweb.env" in deps for deps in GRAPH.values())
    # relative imports resolve: embodiedweb/domains/cooking/domain.py uses them
    assert any(d.startswith("embodiedweb.") for d in GRAPH["embodiedweb.domains.cooking.domain"])


def test_no_import_circles():
    cycles = _cycles(GRAPH)
    assert not cycles, "import circles between files:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_layers_import_only_downwards():
    bad = layer_violations(GRAPH)
    assert not bad, "imports against the layers:\n" + "\n".join(bad)


def test_runtime_never_imports_data_gen():
    """Spelled out on its own (it is also part of the layers): nothing outside data_gen and the tests
    imports the data generators."""
    bad = [f"{m} -> {d}" for m in sorted(GRAPH) if layer_of(m) != "data_gen"
           for d in sorted(GRAPH[m]) if layer_of(d) == "data_gen"]
    assert not bad, "runtime imports data_gen:\n" + "\n".join(bad)


def test_no_private_names_across_files():
    bad = private_name_imports()
    assert not bad, "private names imported from another file:\n" + "\n".join(bad)


def test_cycle_finder_finds_a_circle():
    """The checker itself: a two-file loop and a three-file loop are found, a chain is not."""
    g = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c"}, "f": {"a"}}
    assert _cycles(g) == [["a", "b"], ["c", "d", "e"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_explicit_lists_name_every_site_bench_and_command():
    """The explicit lists that replaced discovery name every site, bench and world command there is."""
    from embodiedweb import bench, cli
    from web_sites.registry import SITES

    site_pkgs = {p.parent.name for p in (ROOT / "web_sites").glob("*/site.py")}
    assert len(SITES) == len(site_pkgs)
    assert {m.split(".")[1] for m in GRAPH["web_sites.registry"] if m.endswith(".site")} == site_pkgs
    # (candidate_lists: a check run by hand that a speed-up keeps DiscreteActions' lists, not a bench figure)
    bench_mods = {p.stem for p in (ROOT / "embodiedweb" / "benches").glob("*.py")} - {"__init__", "memory",
                                                                                      "env_memory", "candidate_lists"}
    assert {fn.__module__.rpartition(".")[2] for _n, fn in bench.BENCHES} == bench_mods
    command_mods = {f"embodiedweb.commands.{p.stem}" for p in (ROOT / "embodiedweb" / "commands").glob("*.py")
                    if p.stem != "__init__"}
    assert command_mods <= GRAPH["embodiedweb.cli"]
    assert cli.build_parser() is not None
