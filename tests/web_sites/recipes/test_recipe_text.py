"""What a recipe page says is what its steps do: a summary, title or ingredient line names no cooking method the
steps do not use ("stewed tomato" was microwaved), and every egg recipe says where to crack the egg (not into the
serving dish, where a raw egg would rest ahead of the step that serves it: the checker holds that placed early)."""

from __future__ import annotations

import json
import re

import pytest

from embodiedweb.data_gen import recipes as gen
from embodiedweb.paths import data_dir


def _shipped() -> list[dict]:
    """Every recipe the site can show: the standard collection and the hard tier's shelf."""
    out = []
    for name in ("recipes.json", "hard.long.json"):
        out += json.loads((data_dir() / "recipes" / name).read_text(encoding="utf-8"))
    return out


def _said(r: dict) -> str:
    """A recipe's summary, title and ingredient line, lower-case."""
    return " | ".join([r["name"], r["description"], ", ".join(r["ingredients"])]).lower()


def _steps(r: dict) -> str:
    return " | ".join(s["text"] for s in r["steps"]).lower()


def test_no_summary_names_a_method_its_steps_do_not_use():
    rs = _shipped()
    assert len(rs) == gen.N_RECIPES + gen.N_LONG
    bad = [(r["recipe_id"], method) for r in rs for method, words in gen.METHOD_WORDS.items()
           if re.search(words, _said(r)) and not re.search(words, _steps(r))]
    assert not bad, bad
    # the check sees what it is for: the old titles fail it
    old = {"recipe_id": "x", "name": "Sunny Lunch Bowl", "ingredients": ["Tomato"],
           "description": "A bowl of stewed tomato.", "steps": [{"text": "Heat a tomato slice in the microwave."}]}
    assert re.search(gen.METHOD_WORDS["stew"], _said(old)) and not re.search(gen.METHOD_WORDS["stew"], _steps(old))


@pytest.mark.parametrize("title", sorted({c.title for c in gen.COMPONENTS.values()}))
def test_every_component_title_names_only_its_own_method(title):
    comp = next(c for c in gen.COMPONENTS.values() if c.title == title)
    steps = " | ".join(t for t, _ops in comp.steps).lower()
    for method, words in gen.METHOD_WORDS.items():
        assert not re.search(words, title) or re.search(words, steps), (title, method)


def test_every_egg_recipe_says_where_to_crack_the_egg():
    """Each step that cracks an egg, or slices any food, says where: where it lies or on a counter top, not on/in
    the serving dish (food cut on the dish rests there ahead of the step that serves it: stop 33's review found a
    careful agent cutting bread in the serving bowl failing 424 of 424 episodes, reading "Slice the bread with a
    knife." alone)."""
    cracks = slices = 0
    for r in _shipped():
        dish = r["dish"].lower()
        on = "on" if r["dish"] == "Plate" else "in"
        for s in r["steps"]:
            cut = [op for op in s["ops"] if op["op"] == "slice"]
            cracks += any(op["obj"] == "Egg" for op in cut)
            slices += any(op["obj"] != "Egg" for op in cut)
            if cut:
                assert "counter top" in s["text"] and f"not {on} the {dish}" in s["text"], (r["recipe_id"], s["text"])
    assert cracks >= 50 and slices >= 300


def test_the_shipped_recipes_are_what_the_generator_writes():
    files = gen._files()
    for name, recipes in files.items():
        shipped = json.loads((data_dir() / "recipes" / name).read_text(encoding="utf-8"))
        assert shipped == recipes, name
