"""A plain (non-editable) install gives working envs and the CLI: build the wheel, install it into a
folder, and use it from a process that cannot see the checkout."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    # build from a copy without build leftovers (an editable install's egg-info would hide missing files)
    src = tmp_path_factory.mktemp("src") / "embodiedweb"
    shutil.copytree(REPO, src, ignore=shutil.ignore_patterns(".venv", ".git", "*.egg-info", "build", "dist", "results",
                                                             "__pycache__", ".pytest_cache", ".ruff_cache"))
    out = tmp_path_factory.mktemp("wheel")
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(src)],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        pytest.fail(f"wheel build failed: {r.stderr[-2000:]}")
    return next(out.glob("embodiedweb-*.whl"))


def test_wheel_ships_data_envs_and_templates(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("embodiedweb/_envs/cooking.toml", "embodiedweb/_data/cooking/tasks.jsonl",
                   "embodiedweb/_data/recipes/recipes.json", "embodiedweb/_data/kitchens/kitchen_00.json",
                   "web_sites/templates/base.html", "web_sites/static/style.css",
                   "web_sites/recipes/templates/recipes/step.html", "web_sites/shop/templates/shop/product.html",
                   "web_sites/map/templates/map/directions.html", "web_sites/wiki/templates/wiki/article.html",
                   "embodiedweb/_data/city/streets.json", "embodiedweb/_data/wiki/cues.json",
                   "embodiedweb/_data/geo/tasks.jsonl", "embodiedweb/_envs/geolocation.toml",
                   "embodiedweb/play/templates/play.html", "baselines/oracle.py"):
        assert needed in names, needed
    assert not any(n.startswith("tests/") for n in names)


def test_installed_wheel_works_without_the_checkout(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, timeout=600)
    code = (f"import embodiedweb, gymnasium as gym; assert embodiedweb.__file__.startswith({str(target)!r}); "
            "e = gym.make('EWA-Cooking-v0'); o, _ = e.reset(seed=0); o, *_ = e.step('goto [/recipes/]'); "
            "assert o['web_url'] == 'http://ewa.local/recipes/', o['web_url']; print('ok', len(e.unwrapped.tasks))")
    env = {**os.environ, "PYTHONPATH": str(target)}
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0 and r.stdout.startswith("ok"), r.stderr[-2000:]
    r = subprocess.run([sys.executable, "-m", "embodiedweb.cli", "envs"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=300)
    assert "EWA-Cooking-v0" in r.stdout, r.stderr[-2000:]
