"""A missing extra is one line naming the extra to install, never an ImportError from deep inside."""

from __future__ import annotations

import sys

import pytest

from embodiedweb import extras
from embodiedweb.cli import main
from embodiedweb.extras import MissingExtra


def test_load_names_the_extra_only_for_its_own_module(tmp_path, monkeypatch):
    with pytest.raises(MissingExtra, match=r'pip install "embodiedweb\[llm\]"'):
        extras.load("ewa_no_such_module_xyz", "llm")
    # a module that is installed but broken inside is not reported as a missing extra
    (tmp_path / "ewa_broken_mod.py").write_text("import ewa_no_such_dependency_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="ewa_no_such_dependency_xyz"):
        extras.load("ewa_broken_mod", "llm")
    sys.modules.pop("ewa_broken_mod", None)


@pytest.mark.parametrize(("argv", "extra"), [
    (["eval", "--env", "EWA-Cooking-v0", "--agent", "oracle", "--limit", "1", "--web-mode", "browser"], "browser"),
    (["eval", "--env", "EWA-Cooking-v0", "--agent", "llm", "--llm-model", "m", "--limit", "1"], "llm"),
    (["eval", "--env", "EWA-Cooking-v0", "--agent", "oracle", "--limit", "1", "--ray"], "ray"),
    (["serve"], "serve"),
    (["play", "--env", "EWA-Cooking-v0", "--no-browser"], "serve"),
])
def test_cli_without_an_extra_says_which_and_exits_3(argv, extra, monkeypatch, capsys):
    real = extras.missing
    monkeypatch.setattr(extras, "missing", lambda name: list(extras.EXTRAS[name][1]) if name == extra
                        else real(name))
    assert main(argv) == 3
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and f'pip install "embodiedweb[{extra}]"' in err, err


def test_every_extra_is_declared_in_the_package_metadata():
    from importlib.metadata import metadata

    declared = set(metadata("embodiedweb").get_all("Provides-Extra") or [])
    assert set(extras.EXTRAS) | {"dev"} <= declared, declared
