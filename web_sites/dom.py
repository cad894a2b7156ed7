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


# --- how the accessibility tree reads elements (embodiedweb.web.axtree walks pages with these) -------------------
#: elements whose content is never shown as text
SKIP_TAGS = frozenset({"script", "style", "template", "noscript", "head", "title", "meta", "link"})
#: elements whose text runs on in the text around them
INLINE_TAGS = frozenset({"b", "i", "strong", "em", "span", "small", "code", "abbr", "time", "mark", "sub", "sup", "u",
                         "s", "bdi", "data", "q", "cite", "kbd", "var", "br", "wbr"})
TEXT_INPUTS = frozenset({"text", "search", "email", "url", "tel", "password", ""})
CONTAINER_ROLES = frozenset({"navigation", "main", "banner", "contentinfo", "form", "region", "dialog", "table",
                             "list", "complementary", "search", "group", "tablist", "menu"})
INTERACTIVE_ROLES = frozenset({"link", "button", "textbox", "searchbox", "checkbox", "radio", "combobox", "option",
                               "spinbutton", "slider", "switch", "tab", "menuitem"})
#: roles shown as one line each; their content is not split into text lines
LEAF_ROLES = frozenset(INTERACTIVE_ROLES | {"heading", "img", "progressbar", "alert", "status"})
#: the element that holds a run of text after a link or a block inside the same block (:func:`wrap_text_runs`)
RUN_TAG = "ewa-run"


def implicit_role(el: Any) -> str:
    """The ARIA role of an element: its ``role`` attribute, else the one HTML gives its tag (``""`` for none)."""
    tag = el.tag
    explicit = el.get("role")
    if explicit:
        return explicit.split()[0]
    if tag == "a":
        return "link" if el.get("href") is not None else ""
    if tag == "button":
        return "button"
    if tag == "input":
        t = (el.get("type") or "").lower()
        if t in ("submit", "button", "reset", "image"):
            return "button"
        if t == "checkbox":
            return "checkbox"
        if t == "radio":
            return "radio"
        if t == "number":
            return "spinbutton"
        if t == "range":
            return "slider"
        if t == "search":
            return "searchbox"
        if t in TEXT_INPUTS:
            return "textbox"
        return ""
    if tag == "textarea":
        return "textbox"
    if tag == "select":
        return "combobox"
    if tag == "option":
        return "option"
    if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
        return "heading"
    if tag == "img":
        return "img"
    if tag == "svg":
        return "img" if el.get("aria-label") else ""
    if tag == "nav":
        return "navigation"
    if tag == "main":
        return "main"
    if tag == "header":
        return "banner"
    if tag == "footer":
        return "contentinfo"
    if tag == "form":
        return "form" if el.get("aria-label") else ""
    if tag in ("section", "aside"):
        if el.get("aria-label"):
            return "region" if tag == "section" else "complementary"
        return ""
    if tag == "table":
        return "table"
    if tag in ("ul", "ol"):
        return "list" if el.get("aria-label") else ""
    if tag == "fieldset":
        return "group"
    if tag == "dialog":
        return "dialog"
    if tag == "progress":
        return "progressbar"
    return ""


def is_hidden(el: Any) -> bool:
    """Whether a browser leaves the element out of the accessibility tree (hidden, aria-hidden, a hidden input)."""
    return (el.get("hidden") is not None or el.get("aria-hidden") == "true"
            or (el.tag == "input" and (el.get("type") or "").lower() == "hidden"))


def _kind(el: Any, parent_tag: str) -> str:
    """How the tree walks ``el``: skip, leaf, container, inline or block (``TreeBuilder._visit``'s branches)."""
    tag = el.tag
    if not isinstance(tag, str) or tag in SKIP_TAGS or is_hidden(el) or (
            parent_tag in ("fieldset", "table") and tag in ("legend", "caption")):
        return "skip"
    role = implicit_role(el)
    if role in LEAF_ROLES:
        return "leaf"
    if role in CONTAINER_ROLES:
        return "container"
    return "inline" if tag in INLINE_TAGS else "block"


def _breaks_inside(el: Any) -> bool:
    """Whether an inline element holds something that ends a run of text (a link, a block...)."""
    for c in el:
        k = _kind(c, el.tag)
        if k in ("leaf", "container", "block") or (k == "inline" and _breaks_inside(c)):
            return True
    return False


#: where an HTML parser takes no element but the table's own (a browser would move a run out of the table)
_TABLE_PARTS = frozenset({"table", "thead", "tbody", "tfoot", "tr", "colgroup"})


def _visible(seq: list[Any], parent_tag: str) -> bool:
    """Whether texts and elements show any text in the tree (whitespace and skipped elements do not)."""
    for it in seq:
        if isinstance(it, str):
            if it.strip():
                return True
        elif _kind(it, parent_tag) != "skip" and "".join(it.itertext()).strip():
            return True
    return False


def _fill(parent: Any, seq: list[Any]) -> None:
    """Put texts and elements, in order, into an element that has none."""
    last = None
    for it in seq:
        if isinstance(it, str):
            if last is None:
                parent.text = (parent.text or "") + it
            else:
                last.tail = (last.tail or "") + it
        else:
            parent.append(it)
            last = it


def wrap_text_runs(body: Any) -> None:
    """Put every run of text that follows a link, a control or a block inside the same block (``<p>See <a>the
    map</a> for more.</p>``: " for more.") into an element of its own (``<ewa-run>``, inline in a browser), so that
    its line in the accessibility tree has an id of its own, after the link's: without it the run was a second line
    with its block's id ("[20] paragraph 'See'", "[21] link", "[20] StaticText 'for more.'"), or its block's
    first line came after the link's ("[21] link 'Empire State Building'", "[20] listitem ': ...'"). Text before the
    first such element stays in its block, which is shown with the block's id. (A label's text is a control's
    name, not a line: labels are left as they are.)"""
    _wrap_in(body, False)


def _flush(parent: Any, pending: list[Any], broken: bool, out: list[Any]) -> bool:
    """Append a run of ``parent``'s content to ``out``: wrapped in its own element when something already ended
    a run of the block and the run shows text (never inside table parts), else as it is. Returns whether it
    was wrapped."""
    if broken and parent.tag not in _TABLE_PARTS and _visible(pending, parent.tag):
        run = parent.makeelement(RUN_TAG, {})
        for x in pending:
            if not isinstance(x, str):
                x.tail = None
        _fill(run, pending)
        out.append(run)
        return True
    out.extend(pending)
    return False


def _wrap_in(parent: Any, broken: bool) -> bool:
    """Wrap the runs of ``parent``'s content (``broken``: something already ended a run of its block);
    returns whether something ended a run."""
    items: list[Any] = [parent.text] if parent.text else []
    for c in parent:
        items.append(c)
        if c.tail:
            items.append(c.tail)
    out: list[Any] = []
    pending: list[Any] = []
    wrapped = False
    for it in items:
        if isinstance(it, str):
            pending.append(it)
            continue
        k = _kind(it, parent.tag)
        if k == "skip" or (k == "inline" and not _breaks_inside(it)):
            pending.append(it)
            continue
        if pending:
            wrapped |= _flush(parent, pending, broken, out)
            pending = []
        out.append(it)
        if k == "container":
            _wrap_in(it, True)  # a container's line is its role and name: any text in it is a line of its own
        elif k == "block" and it.tag != "label":
            _wrap_in(it, False)
        elif k == "inline":
            _wrap_in(it, broken)
        broken = True
    if pending:
        wrapped |= _flush(parent, pending, broken, out)
    if wrapped:
        for c in list(parent):
            c.tail = None
            parent.remove(c)
        parent.text = None
        for x in out:
            if not isinstance(x, str):
                x.tail = None
        _fill(parent, out)
    return broken
