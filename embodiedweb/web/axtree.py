"""Accessibility-tree text of a page: one element a line, ``[id] role 'name' props``.

Both web drivers build the tree with this module from the same DOM (the text driver from the
server's page, the browser driver from the live DOM with form values synced into attributes), so
the tree text is identical in both modes.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from web_sites.dom import (
    CONTAINER_ROLES,
    INLINE_TAGS,
    INTERACTIVE_ROLES,
    LEAF_ROLES,
    RUN_TAG,
    SKIP_TAGS,
    implicit_role,
    text_content,
)

__all__ = ["BID", "INTERACTIVE_ROLES", "Node", "PageTree", "TreeBuilder", "build_tree", "elements_by_bid", "implicit_role",
           "norm", "quote", "selected_options"]

BID = "data-bid"
# the roles and tags of the walk are the sites' (web_sites.dom): the sites wrap runs of text with them too
_SKIP = SKIP_TAGS
_INLINE = INLINE_TAGS
_CONTAINER_ROLES = CONTAINER_ROLES
_TEXT_BLOCK_ROLES = {"p": "paragraph", "li": "listitem", "td": "cell", "th": "columnheader", "dt": "term",
                     "dd": "definition", "caption": "caption", "figcaption": "caption", "blockquote": "blockquote",
                     "pre": "StaticText", "legend": "StaticText"}
_INTERACTIVE_NOT_LINK = frozenset(INTERACTIVE_ROLES - {"link"})
_LEAF_ROLES = LEAF_ROLES


def norm(text: str | None) -> str:
    """Whitespace runs as one space, trimmed (``str.split`` splits on exactly what ``\\s`` matches)."""
    return " ".join(text.split()) if text else ""


def quote(text: str) -> str:
    """Single-quoted with backslash escapes, so that every element stays on one line."""
    esc = text.replace("\\", "\\\\").replace("'", "\\'").replace("\r", "\\r").replace("\n", "\\n")
    return "'" + esc + "'"


@dataclass
class Node:
    """One element of the page as the agent sees it."""

    bid: str
    tag: str
    role: str
    name: str
    props: dict[str, str] = field(default_factory=dict)


@dataclass
class PageTree:
    """Lines of the tree text plus an index of every id on the page."""

    lines: list[str]
    nodes: dict[str, Node]
    all_ids: set[str]
    title: str = ""

    @property
    def text(self) -> str:
        """The tree's lines joined into one text."""
        return "\n".join(self.lines)

    @property
    def interactive(self) -> list[Node]:
        """The nodes with an interactive role that are not disabled."""
        return [n for n in self.nodes.values() if n.role in INTERACTIVE_ROLES and "disabled" not in n.props]


def elements_by_bid(doc: Any) -> dict[str, Any]:
    """Every element of a page that has a ``data-bid``, by that id (what actions name)."""
    return {el.get(BID): el for el in doc.iter() if isinstance(el.tag, str) and el.get(BID) is not None}


def selected_options(select: Any) -> list[Any]:
    """The options a browser shows as selected: for a single select the last one marked
    ``selected``, or else the first enabled option (HTML's selectedness setting algorithm)."""
    opts = list(select.iter("option"))
    marked = [o for o in opts if o.get("selected") is not None]
    if select.get("multiple") is not None:
        return marked
    if marked:
        return marked[-1:]
    first = next((o for o in opts if o.get("disabled") is None), None)
    return [first] if first is not None else []


def _select_of(option: Any) -> Any:
    parent = option.getparent()
    while parent is not None and parent.tag != "select":
        parent = parent.getparent()
    return parent


# what a browser leaves out of the accessibility tree: hidden and aria-hidden elements, hidden inputs
_HIDDEN = etree.XPath("descendant-or-self::*[@hidden or @aria-hidden='true' or (self::input and "
                      "translate(@type, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') = 'hidden')]")
_ALL_BIDS = etree.XPath(f"descendant-or-self::*/@{BID}", smart_strings=False)
_WITH_ID = etree.XPath("descendant-or-self::*[@id != '']")
_LABELS_FOR = etree.XPath("descendant-or-self::label[@for != '']")


def _text_content(el: Any, hidden: set[Any]) -> str:
    tag = el.tag
    if len(el) == 0 and tag != "img":  # most names: a link or button with plain text
        return "" if not isinstance(tag, str) or tag in _SKIP or el in hidden else norm(el.text)
    parts: list[str] = []
    _text_parts(el, hidden, parts)
    return norm(" ".join(parts))


def _text_parts(e: Any, hidden: set[Any], parts: list[str]) -> None:
    """Append the texts of ``e`` and its descendants to ``parts``, in document order. (A module function, not a
    nested one: a nested function that calls itself is a reference cycle, left to the garbage collector.)"""
    if not isinstance(e.tag, str) or e.tag in _SKIP or e in hidden:
        return
    if e.tag == "img":
        parts.append(e.get("alt") or "")
    if e.text:
        parts.append(e.text)
    for c in e:
        _text_parts(c, hidden, parts)
        if c.tail:
            parts.append(c.tail)


class TreeBuilder:
    """Build the :class:`PageTree` of an lxml document."""

    def __init__(self, doc: Any) -> None:
        self.doc = doc
        self.lines: list[str] = []
        self.nodes: dict[str, Node] = {}
        self.all_ids: set[str] = set()
        self.labels: dict[str, str] = {}
        self.by_id: dict[str, Any] = {}
        self.hidden: set[Any] = set()

    def text_of(self, el: Any) -> str:
        """The visible text inside ``el`` (img alt text included), whitespace-normalized."""
        return _text_content(el, self.hidden)

    def build(self) -> PageTree:
        """Walk the document body into a :class:`PageTree` (an empty one, with the title, when there is no body)."""
        body = self.doc.find(".//body")
        title_el = self.doc.find(".//title")
        title = norm(text_content(title_el)) if title_el is not None else ""
        if body is None:
            return PageTree([], {}, set(), title)
        # element proxies stay alive in these sets and dicts, so identity (``in``) works on them
        self.hidden = set(_HIDDEN(body))
        self.all_ids = set(_ALL_BIDS(body))
        self.by_id = {el.get("id"): el for el in _WITH_ID(body)}
        for el in _LABELS_FOR(body):
            self.labels[el.get("for")] = self.text_of(el)
        self._walk(body, 0, None, [])
        return PageTree(self.lines, self.nodes, self.all_ids, title)

    # naming ----------------------------------------------------------------------------------
    def name_of(self, el: Any, role: str) -> str:
        """The accessible name of ``el``: ``aria-label``, ``aria-labelledby`` text, then role/tag fallbacks."""
        if el.get("aria-label"):
            return norm(el.get("aria-label"))
        if el.get("aria-labelledby"):
            ids = el.get("aria-labelledby").split()
            return norm(" ".join(self.text_of(self.by_id[i]) for i in ids if i in self.by_id))
        tag = el.tag
        if tag in ("input", "select", "textarea"):
            t = (el.get("type") or "").lower()
            if tag == "input" and t in ("submit", "button", "reset"):
                return norm(el.get("value") or ("Submit" if t == "submit" else ""))
            if el.get("id") and el.get("id") in self.labels:
                return self.labels[el.get("id")]
            parent = el.getparent()
            while parent is not None:
                if parent.tag == "label":
                    return self.text_of(parent)
                parent = parent.getparent()
            return norm(el.get("placeholder") or el.get("title") or el.get("name") or "")
        if tag == "img":
            return norm(el.get("alt") or el.get("title") or "")
        if role in _CONTAINER_ROLES:
            if tag == "table":
                cap = el.find("caption")
                if cap is not None:
                    return self.text_of(cap)
            if tag == "fieldset":
                leg = el.find("legend")
                if leg is not None:
                    return self.text_of(leg)
            return ""
        return self.text_of(el) or norm(el.get("title") or "")

    def props_of(self, el: Any, role: str) -> dict[str, str]:
        """The displayed properties of ``el`` for its role (heading level, checked state, ...)."""
        p: dict[str, str] = {}
        tag = el.tag
        if role == "heading":
            lvl = el.get("aria-level") or (tag[1] if tag in ("h1", "h2", "h3", "h4", "h5", "h6") else "2")
            p["level"] = lvl
        if role in ("checkbox", "radio", "switch"):
            p["checked"] = "true" if el.get("checked") is not None or el.get("aria-checked") == "true" else "false"
        if role in ("textbox", "searchbox", "spinbutton", "slider"):
            val = text_content(el) if tag == "textarea" else el.get("value")
            if val:
                p["value"] = quote(norm(val) if tag != "textarea" else val.strip())
            if el.get("required") is not None:
                p["required"] = ""
        if role == "combobox" and tag == "select":
            chosen = selected_options(el)
            if chosen:
                p["value"] = quote(self.text_of(chosen[0]))
        if role == "option":
            select = _select_of(el) if tag == "option" else None
            if (el.get("selected") is not None if select is None else el in selected_options(select)):
                p["selected"] = ""
        if el.get("disabled") is not None or el.get("aria-disabled") == "true":
            p["disabled"] = ""
        if el.get("aria-current"):
            p["current"] = el.get("aria-current")
        if el.get("aria-expanded"):
            p["expanded"] = el.get("aria-expanded")
        if role == "progressbar" and el.get("value"):
            p["value"] = el.get("value")
        return p

    # walk --------------------------------------------------------------------------------------
    def _emit(self, el: Any, role: str, name: str, depth: int) -> None:
        bid = el.get(BID)
        if bid is None:
            return
        props = self.props_of(el, role)
        node = Node(bid, el.tag, role, name, props)
        self.nodes[bid] = node
        tail = "".join(f" {k}={v}" if v else f" {k}" for k, v in props.items())
        self.lines.append("\t" * depth + f"[{bid}] {role} {quote(name)}{tail}")

    def _flush(self, run: list[str], block: Any, depth: int, state: dict[str, Any], owner: Any = None) -> None:
        """A line of the text of ``run``, with ``block``'s id; its role is that of ``owner`` (default ``block``: the
        block a run of text (:data:`RUN_TAG`) is in) the first time ``owner`` shows text, else StaticText."""
        text = norm(" ".join(run))
        run.clear()
        if not text or block is None or block.get(BID) is None:
            return
        bid = block.get(BID)
        owner = block if owner is None else owner
        role = "StaticText"
        if owner.get(BID) not in state["flushed"]:
            role = implicit_role(owner) or _TEXT_BLOCK_ROLES.get(owner.tag, "StaticText")
            if role in INTERACTIVE_ROLES or role in _CONTAINER_ROLES:
                role = "StaticText"
            state["flushed"].add(owner.get(BID))
        self.lines.append("\t" * depth + f"[{bid}] {role} {quote(text)}")

    def _walk(self, root: Any, depth: int, block: Any, run: list[str]) -> None:
        state: dict[str, Any] = {"flushed": set()}
        if root.text:
            run.append(root.text)
        self._visit(root, depth, root if block is None else block, run, False, state)
        self._flush(run, root if block is None else block, depth, state)

    def _visit(self, el: Any, depth: int, block: Any, run: list[str], in_label: bool, state: dict[str, Any]) -> None:
        """Walk ``el``'s children (a method, not a nested function: one that calls itself is a reference cycle,
        and this one would hold the builder and the document until the garbage collector's next pass)."""
        hidden = self.hidden
        skip_captions = el.tag in ("fieldset", "table")
        for child in el:
            tag = child.tag
            tail = child.tail
            if not isinstance(tag, str) or tag in _SKIP or child in hidden or (
                    skip_captions and tag in ("legend", "caption")):
                if tail:
                    run.append(tail)
                continue
            role = implicit_role(child)
            if role in _LEAF_ROLES:
                if run:
                    self._flush(run, block, depth, state)
                name = self.name_of(child, role)
                if role != "img" or name:
                    self._emit(child, role, name, depth)
                if role == "combobox":
                    for opt in child.iter("option"):
                        self._emit(opt, "option", self.text_of(opt), depth + 1)
                elif role not in ("link", "button", "option", "heading", "img", "alert", "status"):
                    self._visit(child, depth + 1, child, [], in_label, state)
                elif role in ("link", "heading", "alert", "status"):
                    # interactive descendants of a link or heading stay reachable
                    for sub in child.iter():
                        if sub is not child and isinstance(sub.tag, str) and sub not in hidden:
                            sub_role = implicit_role(sub)
                            if sub_role in _INTERACTIVE_NOT_LINK:
                                self._emit(sub, sub_role, self.name_of(sub, sub_role), depth + 1)
                if tail:
                    run.append(tail)
                continue
            if role in _CONTAINER_ROLES:
                if run:
                    self._flush(run, block, depth, state)
                self._emit(child, role, self.name_of(child, role), depth)
                sub_run: list[str] = []
                self._visit(child, depth + 1, child, sub_run, in_label, state)
                if sub_run:
                    self._flush(sub_run, child, depth + 1, state)
            elif tag in _INLINE:
                if child.text:
                    run.append(child.text)
                self._visit(child, depth, block, run, in_label, state)
            else:
                if run:
                    self._flush(run, block, depth, state)
                sub_run = []
                lab = in_label or (tag == "label" and (
                    (child.get("for") and child.get("for") in self.by_id)
                    or any(d.tag in ("input", "select", "textarea") for d in child.iter())))
                if not lab and child.text:
                    sub_run.append(child.text)
                self._visit(child, depth, child, sub_run, lab, state)
                if sub_run and not lab:
                    self._flush(sub_run, child, depth, state, block if tag == RUN_TAG else None)
            if tail and not in_label:
                run.append(tail)


#: how many pages' trees :func:`build_tree` keeps (a few MB)
TREE_CACHE_SIZE = 256
_TREES: OrderedDict[bytes, PageTree] = OrderedDict()


def build_tree(doc: Any) -> PageTree:
    """The :class:`PageTree` of an lxml HTML document annotated with ``data-bid``.

    The tree is a function of the document alone (every element, attribute and text the walk reads is in
    its serialization), so the trees of the last :data:`TREE_CACHE_SIZE` documents are kept by a digest of
    that serialization: a page seen again (going back, a site's header links, another env on the same
    page) is not walked again, which is most page loads of random play. Each call returns its own lists,
    dict and set (the :class:`Node` records are shared: nothing changes a node once built)."""
    key = hashlib.blake2b(etree.tostring(doc, encoding="utf-8"), digest_size=16).digest()
    tree = _TREES.get(key)
    if tree is None:
        tree = _TREES[key] = TreeBuilder(doc).build()
        if len(_TREES) > TREE_CACHE_SIZE:
            _TREES.popitem(last=False)
    else:
        _TREES.move_to_end(key)
    return PageTree(list(tree.lines), dict(tree.nodes), set(tree.all_ids), tree.title)
