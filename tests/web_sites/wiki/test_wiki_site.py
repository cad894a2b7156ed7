"""The wiki site through the text driver: main page, FTS search, articles, categories, bad input, state."""

from __future__ import annotations

import re

import pytest

from baselines.script import find_bid
from embodiedweb.web.text_driver import TextDriver
from web_sites.registry import get_webapp
from web_sites.wiki import catalog
from web_sites.wiki.site import SITE, WikiSite


@pytest.fixture
def driver():
    app = get_webapp()
    sid = app.new_session_id()
    app.reset_session(sid)
    d = TextDriver(app)
    d.reset(sid, "/wiki/")
    yield d
    app.drop_session(sid)


def _search(d: TextDriver, q: str) -> str:
    box = find_bid(d.tree().text, "searchbox", "Search the wiki")
    assert box is not None
    assert d.execute("type", {"id": box, "text": q, "enter": True}) == ""
    return d.tree().text


def test_site_is_registered():
    assert isinstance(get_webapp().site("wiki"), WikiSite) and SITE.title == "Wiki"


def test_main_page(driver):
    text = driver.tree().text
    assert "heading 'Wiki: an encyclopedia of Manhattan and of places worldwide'" in text
    assert find_bid(text, "link", "Empire State Building") is not None
    assert find_bid(text, "link", "Museums") is not None


def test_search_finds_articles_by_body_words():
    store = get_webapp().store
    checked = 0
    for a in catalog.articles():
        if a["kind"] != "place" or not a["facts"].get("architect"):
            continue
        words = re.findall(r"[A-Za-z]{5,}", a["sections"][-1]["paragraphs"][0])[:2] + [a["facts"]["architect"]]
        hits, _ = SITE.search_db(store, " ".join(words))
        assert a["slug"] in [h["slug"] for h in hits], (a["slug"], words)
        checked += 1
    assert checked >= 80


def test_search_then_open_article_then_follow_links(driver):
    text = _search(driver, "Patience Fortitude")
    assert "heading 'Search results for “Patience Fortitude”'" in text
    assert "Patience" in text  # snippet
    driver.execute("click", {"id": find_bid(text, "link", "New York Public Library Main Branch")})
    assert driver.url.endswith("/wiki/article/nypl-main-branch")
    text = driver.tree().text
    assert "heading 'New York Public Library Main Branch' level=1" in text
    assert "table 'New York Public Library Main Branch'" in text  # the infobox, named by its caption
    assert "columnheader 'Completed'" in text and "cell '1911'" in text
    assert "heading 'History' level=2" in text and "heading 'Visiting' level=2" in text
    assert "1911" in text and "Carrère and Hastings" in text
    driver.execute("click", {"id": find_bid(text, "link", "Beaux-Arts")})
    assert driver.url.endswith("/wiki/article/beaux-arts")
    text = driver.tree().text
    assert find_bid(text, "link", "Grand Central Terminal") is not None
    driver.execute("click", {"id": find_bid(text, "link", "Architectural styles")})
    assert driver.url.endswith("/wiki/category/architectural-styles")
    assert find_bid(driver.tree().text, "link", "Art Deco") is not None
    snap = get_webapp().snapshot(driver.session)["wiki"]
    shown = snap.pop("shown")  # the results the search page listed, each with its snippet's text
    assert snap == {"views": ["nypl-main-branch", "beaux-arts"], "searches": ["Patience Fortitude"]}
    assert shown and shown[0]["slug"] == "nypl-main-branch" and "Patience" in shown[0]["snippet"]
    assert "\x02" not in shown[0]["snippet"] and len({(s["slug"], s["snippet"]) for s in shown}) == len(shown)


def test_answer_to_a_fact_question_is_on_the_page(driver):
    a = catalog.get("chrysler-building")
    driver.reset(driver.session, "/wiki/article/chrysler-building")
    text = driver.tree().text
    for key in ("year_built", "architect", "architectural_style", "height_m", "floors"):
        assert a["facts"][key] in text


def test_any_word_fallback_and_pagination(driver):
    text = _search(driver, "Flatiron zzzqqq")
    assert "any of them" in text and find_bid(text, "link", "Flatiron Building") is not None
    text = _search(driver, "Manhattan")
    assert find_bid(text, "link", "Next page") is not None
    driver.execute("click", {"id": find_bid(text, "link", "Next page")})
    assert "page=2" in driver.url and "Page 2 of" in driver.tree().text
    # paging does not count as a new search
    assert get_webapp().snapshot(driver.session)["wiki"]["searches"] == ["Flatiron zzzqqq", "Manhattan"]


ODD = ['"', '*', 'NEAR(', '-', "'", 'NEAR(a b', '"unterminated', 'a AND', 'OR', 'title:foo', '^x', '(', ')',
       '{a b}', 'a + b', 'é', 'Dag Hammarskjöld', '中文', '🙂', '%27%22', "'; DROP TABLE wiki_fts; --", '\\', ':', '"" ""',
       '* OR *', 'NOT', 'Nikola   Tesla', 'x' * 500, 'AND OR NOT NEAR']


@pytest.mark.parametrize("q", ODD)
def test_odd_queries_do_not_raise(driver, q):
    hits, _ = SITE.search_db(get_webapp().store, q)
    assert isinstance(hits, list)
    text = _search(driver, q)
    assert "Something went wrong" not in text
    assert "heading 'Search results for" in text or "heading 'Search the wiki'" in text


def test_diacritics_and_unicode_match():
    hits, _ = SITE.search_db(get_webapp().store, "Hammarskjold")
    assert "dag-hammarskjold-plaza" in [h["slug"] for h in hits]
    hits, _ = SITE.search_db(get_webapp().store, "Hammarskjöld")
    assert "dag-hammarskjold-plaza" in [h["slug"] for h in hits]
    hits, _ = SITE.search_db(get_webapp().store, "Carrere")
    assert "nypl-main-branch" in [h["slug"] for h in hits]


@pytest.mark.parametrize("path", ["/wiki/article/no-such-article", "/wiki/article/%27%22%3C", "/wiki/article",
                                  "/wiki/category/nope", "/wiki/search", "/wiki/search?q=", "/wiki/search?q=%20%20",
                                  "/wiki/search?q=Broadway&page=-3", "/wiki/search?q=Broadway&page=abc",
                                  "/wiki/search?q=Broadway&page=99999", "/wiki/categories"])
def test_bad_input_gives_clear_pages(driver, path):
    driver.reset(driver.session, path)
    text = driver.tree().text
    assert "Something went wrong" not in text
    assert find_bid(text, "searchbox", "Search the wiki") is not None
    if "article/" in path and "no-such" in path:
        assert "There is no article" in text
    if path.endswith("/category/nope"):
        assert "There is no category" in text
    if path.endswith("q=") or path.endswith("/search"):
        assert "Type a word" in text
    snap = get_webapp().snapshot(driver.session)["wiki"]
    assert snap["views"] == []


def test_every_article_renders_and_links_resolve(driver):
    app = get_webapp()
    from web_sites.framework import Request

    for a in catalog.articles()[::7]:
        resp = app.handle(Request.from_url("GET", f"/wiki/article/{a['slug']}", driver.session))
        assert resp.status == 200
        hrefs = set(re.findall(r'href="/wiki/article/([^"]+)"', resp.html))
        assert hrefs == set(a["links"])
    for slug in list(catalog.categories())[:20]:
        resp = app.handle(Request.from_url("GET", f"/wiki/category/{slug}", driver.session))
        assert resp.status == 200


def test_geolocation_cue_articles_are_served(driver):
    from embodiedweb.paths import data_dir

    if not (data_dir() / "wiki" / "cues.json").exists():
        pytest.skip("no geolocation cue articles generated")
    cues = [a for a in catalog.articles() if a.get("kind") == "geo"]
    assert cues
    a = cues[0]
    driver.reset(driver.session, f"/wiki/article/{a['slug']}")
    text = driver.tree().text
    assert f"heading '{a['title']}' level=1" in text.replace("\\'", "'")
    hits, _ = SITE.search_db(get_webapp().store, a["title"])
    assert a["slug"] in [h["slug"] for h in hits]
