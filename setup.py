"""Package layout: the code packages plus the top-level data/ and envs/ folders, which ship inside the
wheel as ``embodiedweb._data`` and ``embodiedweb._envs`` so that a plain ``pip install .`` gives working
envs (``embodiedweb.paths`` finds them there, or beside the package in a checkout)."""

from setuptools import find_packages, setup

PACKAGE_DATA_GLOBS = [f"**/*.{ext}" for ext in ("html", "css", "js", "json", "jsonl", "jsonl.gz", "toml", "txt", "svg",
                                                "md", "png")]

setup(
    packages=find_packages(include=["embodiedweb*", "web_sites*", "baselines*"])
    + ["embodiedweb._data", "embodiedweb._envs"],
    package_dir={"embodiedweb._data": "data", "embodiedweb._envs": "envs"},
    package_data={"": PACKAGE_DATA_GLOBS, "embodiedweb._data": ["**/*"], "embodiedweb._envs": ["*.toml"]},
    include_package_data=True,
)
