"""The accessibility tree's cache: a page seen again is not walked again, and never served stale."""

from __future__ import annotations

import gc

from embodiedweb.web import axtree
from web_sites.dom import parse_html

PAGE = """<html><head><title>Lab</title></head><body>
<h1 data-bid="1">Title</h1><p>Some text.</p>
<input data-bid="2" type="text" aria-label="Box" value="first">
<a data-bid="3" href="/x">Go</a></body></html>"""


def _uncached(doc) -> axtree.PageTree:
    return axtree.TreeBuilder(doc).build()


def test_a_cached_tree_equals_a_fresh_walk_and_follows_every_change_of_the_document(monkeypatch):
    walks: list[int] = []
    real = axtree.TreeBuilder.build

    def counted(self):
        walks.append(1)
        return real(self)

    monkeypatch.setattr(axtree.TreeBuilder, "build", counted)
    axtree._TREES.clear()
    doc = parse_html(PAGE)
    first = axtree.build_tree(doc)
    again = axtree.build_tree(parse_html(PAGE))  # another document of the same page: from the cache
    assert len(walks) == 1 and again == first == _uncached(doc)
    box = doc.find(".//input")
    box.set("value", "second")  # a typed value (the browser driver syncs form values into attributes)
    changed = axtree.build_tree(doc)
    assert "second" in changed.text and "first" not in changed.text and changed == _uncached(doc)
    doc.find(".//h1").text = "Other title"  # a text change
    assert "Other title" in axtree.build_tree(doc).text


def test_each_call_returns_its_own_tree():
    axtree._TREES.clear()
    doc = parse_html(PAGE)
    one = axtree.build_tree(doc)
    one.lines.append("extra")
    one.nodes.clear()
    one.all_ids.add("99")
    two = axtree.build_tree(doc)
    assert two == _uncached(doc) and "extra" not in two.lines and two.nodes


def test_the_cache_keeps_only_the_last_pages(monkeypatch):
    monkeypatch.setattr(axtree, "TREE_CACHE_SIZE", 3)
    axtree._TREES.clear()
    for i in range(5):
        axtree.build_tree(parse_html(PAGE.replace("Title", f"Title {i}")))
    assert len(axtree._TREES) == 3


NESTED = """<html><body><main><form><fieldset><legend>Size</legend>
<label data-bid="4">Quantity <input data-bid="5" type="number" value="2"></label>
<select data-bid="6" aria-label="Pick"><option>One (1)</option><option>Two</option></select></fieldset></form>
<ul><li><a data-bid="7" href="/y"><span>Deep <b>nested <i>link</i></b></span> text</a></li>
<li><button data-bid="8"><img alt="icon"> Press</button></li></ul>
<table><tr><td><div><p>A cell <em>with</em> inline words.</p></div></td></tr></table></main></body></html>"""


def test_building_a_tree_leaves_no_reference_cycles():
    """The walk is made of methods and module functions, not nested functions that call themselves: such a
    function is a reference cycle, and the walk's would hold the builder and the document until the garbage
    collector's next pass (a new page at almost every web step of random play)."""
    for page in (PAGE, NESTED):
        gc.collect()
        gc.disable()
        try:
            tree = axtree.TreeBuilder(parse_html(page)).build()
            assert "[7] link 'Deep nested link text'" in tree.text or page is PAGE
            del tree
            assert gc.collect() == 0
        finally:
            gc.enable()


MIXED = """<html><body><main>
<p>Brand: Harbor · Category: <a href="/c">Pantry</a> · Product id: <b>p0096</b>.</p>
<ul><li><a href="/e">Empire State Building</a>: a skyscraper, <em>1931</em>.</li><li>plain item</li></ul>
<nav aria-label="Steps"><a href="/n">Next</a> or go <a href="/p">back</a> now</nav>
<div>Intro <span>with <a href="/s">a link in a span</a> and</span> after it</div>
<table><tr><td><a href="/t">Cell link</a> (2)</td><td>plain cell</td></tr></table>
<label>Quantity <input type="number" value="2"> items</label>
<p>Only text, <i>inline</i> too.</p></main></body></html>"""


def _ids_of(tree: axtree.PageTree) -> list[int]:
    import re

    return [int(m.group(1)) for m in re.finditer(r"^\s*\[(\w+)\]", tree.text, re.M)]


def test_every_line_has_its_own_id_in_document_order():
    """A run of text after a link in the same block is a line with an id of its own, after the link's: the tree
    had "[2] paragraph 'Brand...'", "[3] link", "[2] StaticText '· Product id...'" (one id twice) and
    "[6] link 'Empire State Building'", "[5] listitem ': a skyscraper'" (ids out of order)."""
    from web_sites.framework import finish_page

    tree = axtree.TreeBuilder(finish_page(MIXED).doc).build()
    ids = _ids_of(tree)
    assert len(ids) == len(set(ids)) and ids == sorted(ids), tree.text
    text = tree.text
    for line in ("paragraph 'Brand: Harbor · Category:'", "link 'Pantry'", "StaticText '· Product id: p0096 .'",
                 "link 'Empire State Building'", "listitem ': a skyscraper, 1931 .'", "listitem 'plain item'",
                 "link 'Next'", "StaticText 'or go'", "link 'back'", "StaticText 'now'",
                 "StaticText 'Intro with'", "link 'a link in a span'", "cell '(2)'", "cell 'plain cell'",
                 "spinbutton 'Quantity items' value='2'", "paragraph 'Only text, inline too.'"):
        assert line in text, (line, text)
    # the text is what it was, in the same order (only split where a link is)
    words = " ".join(axtree.norm(line.split("'", 1)[1]) for line in tree.lines)
    assert words.index("Harbor") < words.index("Pantry") < words.index("p0096") < words.index("Empire")


def test_a_page_of_text_blocks_only_is_numbered_as_before():
    """Pages with no text after a link in a block get no extra element (their ids are what they were)."""
    from web_sites.framework import finish_page

    plain = "<html><body><main><h1>T</h1><p>One <b>two</b>.</p><p><a href='/x'>Link</a></p></main></body></html>"
    html = finish_page(plain).html
    assert "ewa-run" not in html and "[6] link 'Link'" in axtree.TreeBuilder(parse_html(html)).build().text
