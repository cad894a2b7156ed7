"""The recipe site through the text driver: search, filters, step view, bad input."""

from __future__ import annotations

import pytest

from baselines.script import find_bid
from embodiedweb.web.text_driver import TextDriver
from web_sites.recipes import catalog
from web_sites.registry import get_webapp


@pytest.fixture
def driver():
    app = get_webapp()
    sid = app.new_session_id()
    app.reset_session(sid)
    d = TextDriver(app)
    d.reset(sid, "/recipes/")
    yield d
    app.drop_session(sid)


def test_collection_size_and_pairs():
    rs = catalog.recipes()
    assert len(rs) >= 300
    pairs: dict[str, list[dict]] = {}
    for r in rs:
        if r["pair_id"]:
            pairs.setdefault(r["pair_id"], []).append(r)
    assert len(pairs) >= 60 and all(len(p) == 2 for p in pairs.values())
    for p in pairs.values():
        assert p[0]["name"] == p[1]["name"]
    singles = [r["name"] for r in rs if not r["pair_id"]]
    assert len(singles) == len(set(singles))
    assert not set(singles) & {p[0]["name"] for p in pairs.values()}


def test_every_pair_is_separable_with_the_filters():
    from embodiedweb.data_gen.cooking_tasks import constraint_for

    for r in catalog.recipes():
        c = constraint_for(r)
        if c is None:
            continue
        kw = {"diet": {"diets": [c["value"]]}, "difficulty": {"difficulty": c["value"]},
              "ingredient": {"ingredients": [c["value"]]}, "equipment": {"equipment": [c["value"]]}}[c["filter"]]
        hits = catalog.search(r["name"], **kw)
        assert [h["recipe_id"] for h in hits if h["name"] == r["name"]] == [r["recipe_id"]], r["recipe_id"]


def test_search_filter_and_step_through(driver):
    r = next(x for x in catalog.recipes() if x["pair_attr"] == "diet" and "vegan" in x["diet"])
    box = find_bid(driver.tree().text, "searchbox", "Recipe name")
    assert driver.execute("type", {"id": box, "text": r["name"], "enter": True}) == ""
    text = driver.tree().text
    assert text.count(f"link '{r['name']}'") == 2
    assert driver.execute("click", {"id": find_bid(text, "checkbox", "Vegan")}) == ""
    assert driver.execute("click", {"id": find_bid(driver.tree().text, "button", "Apply filters")}) == ""
    text = driver.tree().text
    assert "diet=vegan" in driver.url and text.count(f"link '{r['name']}'") == 1
    driver.execute("click", {"id": find_bid(text, "link", r["name"])})
    assert driver.url.endswith(f"/recipes/recipe/{r['recipe_id']}")
    driver.execute("click", {"id": find_bid(driver.tree().text, "link", "Start cooking: step 1")})
    n = len(r["steps"])
    for i in range(1, n + 1):
        text = driver.tree().text
        assert f"heading 'Step {i} of {n}'" in text and r["steps"][i - 1]["text"] in text
        assert (find_bid(text, "link", "Previous") is not None) == (i > 1)
        if i < n:
            driver.execute("click", {"id": find_bid(text, "link", "Next")})
    assert find_bid(driver.tree().text, "link", "Next") is None
    snap = get_webapp().snapshot(driver.session)["recipes"]
    assert snap["progress"] == {r["recipe_id"]: n} and snap["current"] == [r["recipe_id"], n]


@pytest.mark.parametrize("path", ["/recipes/recipe/r999", "/recipes/recipe/r001/step/0", "/recipes/recipe/r001/step/99",
                                  "/recipes/recipe/r001/step/x", "/recipes/search?q=%25%27%22;--&difficulty=odd&page=-4",
                                  "/recipes/search?q=" + "é" * 500])
def test_bad_input_gives_pages_not_errors(driver, path):
    assert driver.execute("goto", {"url": path}) == ""
    text = driver.tree().text
    assert "Something went wrong" not in text
    assert get_webapp().snapshot(driver.session).get("recipes") is None
