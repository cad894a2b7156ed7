"""Data out of code: the generators read their tables from ``data/tables/`` (no large literal tables in
``embodiedweb/data_gen``), and runtime code never imports a generator module."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from embodiedweb.paths import data_dir

ROOT = Path(__file__).resolve().parents[2]
DATA_GEN = ROOT / "embodiedweb" / "data_gen"
#: the most of a generator module's lines that may sit inside multi-line literals (a table is data)
MAX_LITERAL_SHARE = 0.30
RUNTIME = [ROOT / "embodiedweb", ROOT / "web_sites", ROOT / "baselines"]


def literal_lines(source: str) -> set[int]:
    """Lines inside list/dict/tuple/set displays or string constants spanning two or more lines
    (docstrings excluded)."""
    tree = ast.parse(source)
    lines: set[int] = set()
    for node in ast.walk(tree):
        end = getattr(node, "end_lineno", None)
        multi = end is not None and node.lineno < end
        if multi and (isinstance(node, ast.List | ast.Dict | ast.Tuple | ast.Set)
                      or (isinstance(node, ast.Constant) and isinstance(node.value, str))):
            lines.update(range(node.lineno, end + 1))
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) \
                and ast.get_docstring(node) is not None:
            doc = node.body[0]
            lines.difference_update(range(doc.lineno, doc.end_lineno + 1))
    return lines


def literal_share(source: str) -> float:
    return len(literal_lines(source)) / max(1, len(source.splitlines()))


def test_the_share_measure_sees_a_table_and_not_a_docstring():
    table = "X = {\n" + "".join(f"    'k{i}': ('a', 1.5),\n" for i in range(20)) + "}\n"
    code = '"""A docstring\nover\nthree lines."""\n\n\ndef f(x):\n    return x + 1\n'
    assert literal_share(code + table) > 0.6
    assert literal_share(code) == 0
    assert literal_share(code + "Y = [1,\n     2]\n") == 2 / 9


@pytest.mark.parametrize("path", sorted(DATA_GEN.glob("*.py")), ids=lambda p: p.name)
def test_generator_modules_hold_no_large_literal_tables(path):
    share = literal_share(path.read_text(encoding="utf-8"))
    assert share <= MAX_LITERAL_SHARE, (
        f"{path.name}: {share:.0%} of its lines are literals; move the table to data/tables/ "
        "(read it with embodiedweb.tables.load_table)")


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names += [node.module] + [f"{node.module}.{a.name}" for a in node.names]
    return names


def test_runtime_code_never_imports_a_generator_module():
    bad = []
    for top in RUNTIME:
        for path in sorted(top.rglob("*.py")):
            if DATA_GEN in path.parents:
                continue
            bad += [f"{path.relative_to(ROOT)}: {name}" for name in _imports(path)
                    if name == "embodiedweb.data_gen" or name.startswith("embodiedweb.data_gen.")]
    assert not bad, "runtime code imports a generator (read data/tables via embodiedweb.tables):\n" + "\n".join(bad)


def test_the_import_check_sees_function_level_imports(tmp_path):
    p = tmp_path / "m.py"
    p.write_text("def f():\n    from embodiedweb.data_gen.geo import BY_CODE\n    return BY_CODE\n")
    assert "embodiedweb.data_gen.geo" in _imports(p)


def test_every_table_is_described_and_read_by_a_generator():
    tables = sorted((data_dir() / "tables").glob("*.json"))
    assert {p.stem for p in tables} >= {"places", "geo_countries", "geo_places", "geo_cues", "wiki_texts", "shop"}
    sources = "\n".join(p.read_text(encoding="utf-8") for p in DATA_GEN.glob("*.py"))
    readme = (data_dir() / "tables" / "README.md").read_text(encoding="utf-8")
    for p in tables:
        table = json.loads(p.read_text(encoding="utf-8"))
        assert next(iter(table)) == "about" and table["about"], p.name
        assert f'load_table("{p.stem}")' in sources, f"{p.name}: no generator reads it"
        assert f"`{p.name}`" in readme, f"{p.name}: not listed in data/tables/README.md"
