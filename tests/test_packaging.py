"""The distribution works alone: build the wheel and the sdist from a copy of the checkout, delete the copy,
install each into a fresh virtual environment made here (core dependencies only, no editable finder, no
checkout on the path), and there use every env id, the CLI and the extras' messages.

``EWA_PACKAGING_SRC`` builds from another tree instead of this checkout (how the test was shown to catch
the wheel that left ``embodiedweb/worlds`` out: run it against that commit's tree).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import textwrap
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
IGNORE = shutil.ignore_patterns(".venv", ".git", "*.egg-info", "build", "dist", "results", "__pycache__",
                                ".pytest_cache", ".ruff_cache", "runs")
SHIPPED = ("embodiedweb/_envs/cooking.toml", "embodiedweb/_data/cooking/tasks.jsonl",
           "embodiedweb/_data/recipes/recipes.json", "embodiedweb/_data/kitchens/kitchen_00.json",
           "web_sites/templates/base.html", "web_sites/static/style.css",
           "web_sites/recipes/templates/recipes/step.html", "web_sites/shop/templates/shop/product.html",
           "web_sites/map/templates/map/directions.html", "web_sites/wiki/templates/wiki/article.html",
           "embodiedweb/_data/city/streets.json", "embodiedweb/_data/wiki/cues.json",
           "embodiedweb/_data/geo/tasks.jsonl", "embodiedweb/_envs/geolocation.toml",
           "embodiedweb/play/templates/play.html", "embodiedweb/play/templates/start.html", "baselines/oracle.py",
           # reference tables the runtime reads (the geolocation oracle, via embodiedweb.tables)
           "embodiedweb/_data/tables/geo_countries.json", "embodiedweb/_data/tables/geo_places.json")

# run inside the fresh venv: every env id makes, resets and steps; prints one JSON line
SMOKE = textwrap.dedent("""
    import json, sys
    import gymnasium as gym
    import embodiedweb
    out = {"file": embodiedweb.__file__, "version": embodiedweb.__version__, "envs": {}}
    for env_id in embodiedweb.ENV_IDS:
        env = gym.make(env_id)
        obs, info = env.reset(seed=0)
        obs, reward, term, trunc, info = env.step(info["admissible_actions"][0])
        out["envs"][env_id] = {"suite": env.unwrapped.suite_version, "error": obs["last_action_error"]}
        env.close()
    print(json.dumps(out))
""")


def _run(cmd: list[str], cwd: Path, timeout: int = 900, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)


def _clean_env() -> dict[str, str]:
    """The environment of a new shell: no PYTHONPATH, no virtualenv of ours."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if not p.startswith(str(REPO)))
    return env


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> dict[str, Path]:
    """The wheel and the sdist built with ``python -m build`` from a copy that is deleted afterwards."""
    src_tree = Path(os.environ.get("EWA_PACKAGING_SRC") or REPO)
    src = tmp_path_factory.mktemp("src") / "embodiedweb"
    shutil.copytree(src_tree, src, ignore=IGNORE)
    out = tmp_path_factory.mktemp("dist")
    r = _run([sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(out), str(src)], cwd=out.parent)
    if r.returncode != 0:
        pytest.fail(f"python -m build failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    shutil.rmtree(src.parent)  # the checkout copy is out of reach from here on
    return {"wheel": next(out.glob("embodiedweb-*.whl")), "sdist": next(out.glob("embodiedweb-*.tar.gz"))}


def test_twine_check_is_clean(dists):
    r = _run([sys.executable, "-m", "twine", "check", "--strict", str(dists["wheel"]), str(dists["sdist"])],
             cwd=dists["wheel"].parent)
    assert r.returncode == 0, r.stdout + r.stderr


def test_every_package_directory_and_data_file_ships(dists):
    wheel = set(zipfile.ZipFile(dists["wheel"]).namelist())
    for needed in SHIPPED:
        assert needed in wheel, needed
    assert not any(n.startswith("tests/") for n in wheel)
    # every folder of the source packages that holds Python code is in the wheel
    for top in ("embodiedweb", "web_sites", "baselines"):
        for d in (REPO / top).rglob("*.py"):
            rel = d.relative_to(REPO).as_posix()
            if "__pycache__" not in rel:
                assert rel in wheel, f"{rel} is missing from the wheel (a folder without __init__.py?)"
    with tarfile.open(dists["sdist"]) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    for needed in ("pyproject.toml", "setup.py", "README.md", "LICENSE", "CHANGELOG.md", "CITATION.cff",
                   "data/cooking/tasks.jsonl", "envs/cooking.toml", "embodiedweb/worlds/__init__.py",
                   "web_sites/templates/base.html", "data/tables/places.json"):
        assert needed in names, f"{needed} is missing from the sdist"


@pytest.mark.parametrize("kind", ["wheel", "sdist"])
def test_installed_distribution_works_in_a_fresh_venv(dists, kind, tmp_path):
    home = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(home)
    py, ewa = home / "bin" / "python", home / "bin" / "ewa"
    env = _clean_env()
    r = _run([str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(dists[kind])],
             cwd=tmp_path, timeout=1500, env=env)
    assert r.returncode == 0, f"pip install {kind} failed:\n{r.stderr[-3000:]}"
    work = tmp_path / "work"
    work.mkdir()

    r = _run([str(py), "-c", SMOKE], cwd=work, env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    smoke = json.loads(r.stdout.strip().splitlines()[-1])
    assert smoke["file"].startswith(str(home)), smoke["file"]  # the installed copy, not a checkout
    assert len(smoke["envs"]) == len(list((REPO / "envs").glob("*.toml"))) and all(e["error"] == "" for e in smoke["envs"].values()), smoke

    r = _run([str(ewa), "envs"], cwd=work, env=env)
    assert r.returncode == 0 and all(e in r.stdout for e in smoke["envs"]), r.stderr[-2000:]
    r = _run([str(ewa), "describe", "--env", "EWA-Cooking-v0"], cwd=work, env=env)
    assert r.returncode == 0 and "PickupObject" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]

    out = work / "oracle.jsonl"
    r = _run([str(ewa), "eval", "--env", "all", "--agent", "oracle", "--limit", "1", "--out", str(out),
              "--no-progress"], cwd=work, env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["env_id"] for r in recs) == sorted(smoke["envs"])
    for rec in recs:
        assert rec["metrics"]["overall"] is True, rec
        assert rec["package_version"] == smoke["version"]
        assert rec["suite_version"] == smoke["envs"][rec["env_id"]]["suite"]

    r = _run([str(ewa), "report", str(out), "--html", str(work / "report.html")], cwd=work, env=env)
    assert r.returncode == 0 and "Versions" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    assert 'embodiedweb[plots]' in r.stderr and "Traceback" not in r.stderr, r.stderr[-2000:]

    # the core install has no browser extra: one line naming it, a non-zero exit, no traceback
    r = _run([str(ewa), "eval", "--env", "EWA-Cooking-v0", "--agent", "oracle", "--limit", "1",
              "--web-mode", "browser", "--no-progress"], cwd=work, env=env)
    assert r.returncode == 3, (r.returncode, r.stderr[-2000:])
    assert 'pip install "embodiedweb[browser]"' in r.stderr and "Traceback" not in r.stderr, r.stderr[-2000:]
    r = _run([str(ewa), "serve"], cwd=work, env=env, timeout=120)
    assert r.returncode == 3 and 'embodiedweb[serve]' in r.stderr and "Traceback" not in r.stderr, r.stderr
