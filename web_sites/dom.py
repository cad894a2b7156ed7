"""The HTML documents the sites render and both web drivers read: plain ``lxml.etree`` elements.

``lxml.html`` would give ``HtmlElement`` objects, but it looks up each element's Python class in Python
every time an element is touched; the drivers walk every element of every page at every step, so plain
elements (the same parser and tree) make a text-mode step markedly cheaper.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

_PARSER = etree.HTMLParser()


def parse_html(html: str) -> Any:
    """The ``<html>`` element of a page (an empty page for empty input)."""
    root = etree.fromstring(html, _PARSER) if html and html.strip() else None
    return root if root is not None else etree.fromstring("<html><body></body></html>", _PARSER)


def to_html(doc: Any) -> str:
    """A document as an HTML string with its doctype."""
    return "<!DOCTYPE html>\n" + etree.tostring(doc, method="html", encoding="unicode")


def text_content(el: Any) -> str:
    """All text inside an element (what ``HtmlElement.text_content()`` gives)."""
    return "".join(el.itertext())
