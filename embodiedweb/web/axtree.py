"""Accessibility-tree text of a page: one element a line, ``[id] role 'name' props``.

Both web drivers build the tree with this module from the same DOM (the text driver from the
server's page, the browser driver from the live DOM with form values synced into attributes), so
the tree text is identical in both modes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from web_sites.dom import text_content

BID = "data-bid"
_WS = re.compile(r"\s+")
_SKIP = {"script", "style", "template", "noscript", "head", "title", "meta", "link"}
_INLINE = {"b", "i", "strong", "em", "span", "small", "code", "abbr", "time", "mark", "sub", "sup", "u", "s",
           "bdi", "data", "q", "cite", "kbd", "var", "br", "wbr"}
_TEXT_INPUTS = {"text", "search", "email", "url", "tel", "password", ""}
_CONTAINER_ROLES = {"navigation", "main", "banner", "contentinfo", "form", "region", "dialog", "table", "list",
                    "complementary", "search", "group", "tablist", "menu"}
_TEXT_BLOCK_ROLES = {"p": "paragraph", "li": "listitem", "td": "cell", "th": "columnheader", "dt": "term",
                     "dd": "definition", "caption": "caption", "figcaption": "caption", "blockquote": "blockquote",
                     "pre": "StaticText", "legend": "StaticText"}
INTERACTIVE_ROLES = {"link", "button", "textbox", "searchbox", "checkbox", "radio", "combobox", "option",
                     "spinbutton", "slider", "switch", "tab", "menuitem"}


def norm(text: str | None) -> str:
    return _WS.sub(" ", text or "").strip()


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
        return "\n".join(self.lines)

    @property
    def interactive(self) -> list[Node]:
        return [n for n in self.nodes.values() if n.role in INTERACTIVE_ROLES and "disabled" not in n.props]


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


def implicit_role(el: Any) -> str:
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
        if t in _TEXT_INPUTS:
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


def _hidden(el: Any) -> bool:
    return (el.get("hidden") is not None or el.get("aria-hidden") == "true"
            or (el.tag == "input" and (el.get("type") or "").lower() == "hidden"))


def _text_content(el: Any) -> str:
    parts: list[str] = []

    def walk(e: Any) -> None:
        if not isinstance(e.tag, str) or e.tag in _SKIP or _hidden(e):
            return
        if e.tag == "img":
            parts.append(e.get("alt") or "")
        if e.text:
            parts.append(e.text)
        for c in e:
            walk(c)
            if c.tail:
                parts.append(c.tail)
    walk(el)
    return norm(" ".join(parts))


class TreeBuilder:
    """Build the :class:`PageTree` of an lxml document."""

    def __init__(self, doc: Any) -> None:
        self.doc = doc
        self.lines: list[str] = []
        self.nodes: dict[str, Node] = {}
        self.all_ids: set[str] = set()
        self.labels: dict[str, str] = {}
        self.by_id: dict[str, Any] = {}

    def build(self) -> PageTree:
        body = self.doc.find(".//body")
        title_el = self.doc.find(".//title")
        title = norm(text_content(title_el)) if title_el is not None else ""
        if body is None:
            return PageTree([], {}, set(), title)
        for el in body.iter():
            if not isinstance(el.tag, str):
                continue
            b = el.get(BID)
            if b is not None:
                self.all_ids.add(b)
            if el.get("id"):
                self.by_id[el.get("id")] = el
            if el.tag == "label" and el.get("for"):
                self.labels[el.get("for")] = _text_content(el)
        self._walk(body, 0, None, [])
        return PageTree(self.lines, self.nodes, self.all_ids, title)

    # naming ----------------------------------------------------------------------------------
    def name_of(self, el: Any, role: str) -> str:
        if el.get("aria-label"):
            return norm(el.get("aria-label"))
        if el.get("aria-labelledby"):
            ids = el.get("aria-labelledby").split()
            return norm(" ".join(_text_content(self.by_id[i]) for i in ids if i in self.by_id))
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
                    return _text_content(parent)
                parent = parent.getparent()
            return norm(el.get("placeholder") or el.get("title") or el.get("name") or "")
        if tag == "img":
            return norm(el.get("alt") or el.get("title") or "")
        if role in _CONTAINER_ROLES:
            if tag == "table":
                cap = el.find("caption")
                if cap is not None:
                    return _text_content(cap)
            if tag == "fieldset":
                leg = el.find("legend")
                if leg is not None:
                    return _text_content(leg)
            return ""
        return _text_content(el) or norm(el.get("title") or "")

    def props_of(self, el: Any, role: str) -> dict[str, str]:
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
                p["value"] = quote(_text_content(chosen[0]))
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

    def _flush(self, run: list[str], block: Any, depth: int, state: dict[str, Any]) -> None:
        text = norm(" ".join(run))
        run.clear()
        if not text or block is None or block.get(BID) is None:
            return
        bid = block.get(BID)
        role = "StaticText"
        if bid not in state["flushed"]:
            role = implicit_role(block) or _TEXT_BLOCK_ROLES.get(block.tag, "StaticText")
            if role in INTERACTIVE_ROLES or role in _CONTAINER_ROLES:
                role = "StaticText"
            state["flushed"].add(bid)
        self.lines.append("\t" * depth + f"[{bid}] {role} {quote(text)}")

    def _walk(self, root: Any, depth: int, block: Any, run: list[str]) -> None:
        state = {"flushed": set()}

        def visit(el: Any, depth: int, block: Any, run: list[str], in_label: bool) -> None:
            for child in el:
                if not isinstance(child.tag, str):
                    if child.tail:
                        run.append(child.tail)
                    continue
                if child.tag in _SKIP or _hidden(child) or (child.tag in ("legend", "caption") and el.tag in (
                        "fieldset", "table")):
                    if child.tail:
                        run.append(child.tail)
                    continue
                role = implicit_role(child)
                if role in INTERACTIVE_ROLES or role in ("heading", "img", "progressbar", "alert", "status"):
                    self._flush(run, block, depth, state)
                    name = self.name_of(child, role)
                    if role == "img" and not name:
                        pass
                    else:
                        self._emit(child, role, name, depth)
                    if role == "combobox":
                        for opt in child.iter("option"):
                            self._emit(opt, "option", _text_content(opt), depth + 1)
                    elif role not in ("link", "button", "option", "heading", "img", "alert", "status"):
                        visit(child, depth + 1, child, [], in_label)
                    elif role in ("link", "heading", "alert", "status"):
                        # interactive descendants of a link or heading stay reachable
                        for sub in child.iter():
                            if sub is not child and isinstance(sub.tag, str) and implicit_role(sub) in (
                                    INTERACTIVE_ROLES - {"link"}) and not _hidden(sub):
                                self._emit(sub, implicit_role(sub), self.name_of(sub, implicit_role(sub)), depth + 1)
                    if child.tail:
                        run.append(child.tail)
                    continue
                associated_label = child.tag == "label" and (
                    (child.get("for") and child.get("for") in self.by_id)
                    or any(d.tag in ("input", "select", "textarea") for d in child.iter()))
                if role in _CONTAINER_ROLES:
                    self._flush(run, block, depth, state)
                    self._emit(child, role, self.name_of(child, role), depth)
                    sub: list[str] = []
                    visit(child, depth + 1, child, sub, in_label)
                    self._flush(sub, child, depth + 1, state)
                elif child.tag in _INLINE:
                    if child.text:
                        run.append(child.text)
                    visit(child, depth, block, run, in_label)
                else:
                    self._flush(run, block, depth, state)
                    sub = []
                    lab = in_label or associated_label
                    if not lab and child.text:
                        sub.append(child.text)
                    visit(child, depth, child, sub, lab)
                    if lab:
                        sub.clear()
                    self._flush(sub, child, depth, state)
                if child.tail and not in_label:
                    run.append(child.tail)

        if root.text:
            run.append(root.text)
        visit(root, depth, root if block is None else block, run, False)
        self._flush(run, root if block is None else block, depth, state)


def build_tree(doc: Any) -> PageTree:
    """The :class:`PageTree` of an lxml HTML document annotated with ``data-bid``."""
    return TreeBuilder(doc).build()
