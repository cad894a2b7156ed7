"""The ``text`` web driver: the same server-rendered pages handled in-process, no browser.

It implements what a browser does with these pages: links, form submission (with the submitter,
implicit submission on Enter), checkboxes, radios, selects, tabs and history. Element ids and the
tree text come from the same page and builder as in the browser driver.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote_plus, unquote, urljoin

import numpy as np

from embodiedweb.web import messages as msg
from embodiedweb.web.axtree import BID, PageTree, build_tree, elements_by_bid, selected_options
from embodiedweb.web.driver import WebDriver, validate_key_comb
from embodiedweb.web.urls import UrlRefused, canonical, to_local_path
from web_sites.dom import text_content
from web_sites.framework import Request, WebApp

_TEXT_TYPES = msg.TEXT_TYPES
MAX_REDIRECTS = 10


def _crlf(text: str) -> str:
    """Line breaks as a browser sends them in form data."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n")


def form_urlencode(pairs: list[tuple[str, str]]) -> str:
    """``application/x-www-form-urlencoded`` as browsers write it (``*-._`` kept, ``~`` escaped)."""
    def q(text: str) -> str:
        return quote_plus(text, safe="*").replace("~", "%7E")
    return "&".join(f"{q(k)}={q(v)}" for k, v in pairs)


@dataclass
class _Tab:
    history: list[str] = field(default_factory=list)
    index: int = -1
    doc: Any = None
    elements: dict[str, Any] = field(default_factory=dict)
    tree: PageTree | None = None
    focus: str | None = None
    focus_start: str | None = None  # where Tab starts when nothing is focused (the last clicked element)
    scroll: int = 0

    @property
    def path(self) -> str:
        return self.history[self.index] if self.index >= 0 else "/"


def _as_served(path: str) -> str:
    """``path?query`` as the sites see it behind a web server: the path percent-decoded (an ASGI server decodes
    it before routing, so in browser mode ``/recipes/recipe/r001%2Fstep%2F1`` is step 1), the query as sent."""
    p, sep, query = path.partition("?")
    return unquote(p) + sep + query


class TextDriver(WebDriver):
    """A browser-free web session over :class:`web_sites.WebApp` (see module docstring)."""

    mode = "text"

    def __init__(self, app: WebApp) -> None:
        self.app = app
        self.session = ""
        self.tabs: list[_Tab] = []
        self._active = 0

    # public -----------------------------------------------------------------------------------
    def reset(self, session: str, start_path: str = "/") -> None:
        """Start session ``session`` with one tab opened at ``start_path``."""
        self.session = session
        self.tabs = [_Tab()]
        self._tab_ids = [self._new_tab_id()]
        self._active = 0
        self._navigate(self.tab, start_path, "GET", None)

    @property
    def tab(self) -> _Tab:
        """The active tab."""
        return self.tabs[self._active]

    @property
    def active_tab(self) -> int:
        """Index of the active tab."""
        return self._active

    @property
    def url(self) -> str:
        """The canonical URL of the active tab."""
        return canonical(self.tab.path)

    def tree(self) -> PageTree:
        """The accessibility tree of the active tab (built once per page)."""
        tab = self.tab
        if tab.tree is None:
            tab.tree = build_tree(tab.doc)
        return tab.tree

    def tab_titles(self) -> list[tuple[str, str]]:
        """``(title, canonical URL)`` of every open tab."""
        out = []
        for t in self.tabs:
            if t.tree is None:
                t.tree = build_tree(t.doc)
            out.append((t.tree.title, canonical(t.path)))
        return out

    def screenshot(self, size: tuple[int, int], marks: bool = True) -> np.ndarray:
        """The active page's text tree rendered as an image of ``size`` (``marks`` is ignored)."""
        from embodiedweb.render.text_image import text_page_image

        return text_page_image(self.tree().text, f"{self.url}", size)

    def execute(self, name: str, args: dict[str, Any]) -> str:
        """Run web action ``name`` with ``args`` and return its feedback message."""
        handler = getattr(self, f"_do_{name}", None)
        if handler is None:
            return msg.NOT_A_WEB_ACTION.format(name=name)
        return handler(**args)

    # actions ----------------------------------------------------------------------------------
    def _element(self, bid: str) -> tuple[Any, str]:
        el = self.tab.elements.get(str(bid))
        if el is None:
            return None, msg.unknown_id(bid, self.tree(), self.url)
        return el, ""

    def _do_click(self, id: str) -> str:
        el, err = self._element(id)
        if err:
            return err
        if el.get("disabled") is not None:
            return msg.disabled(id)
        tab = self.tab
        focusable = el
        while focusable is not None and not self._focusable(focusable):
            focusable = focusable.getparent()
        tab.focus = focusable.get(BID) if focusable is not None else None
        tab.focus_start = el.get(BID)
        target = el
        while target is not None and not self._clickable(target):
            target = target.getparent()
        if target is None:
            return ""
        tag, typ = target.tag, (target.get("type") or "").lower()
        if tag == "a":
            href = target.get("href") or ""
            if href.startswith("#") or href.lower().startswith("javascript:"):
                return ""
            return self._navigate(tab, urljoin(tab.path, href), "GET", None)
        if tag == "label":
            ctl = self._label_control(target)
            if ctl is None:
                return ""
            tab.focus = ctl.get(BID)
            if ctl.tag == "input" and (ctl.get("type") or "").lower() in ("checkbox", "radio"):
                self._toggle(ctl)
            return ""
        if tag == "input" and typ in ("checkbox", "radio"):
            self._toggle(target)
            return ""
        if tag == "option":
            self._select_option(target)
            return ""
        if (tag == "button" and typ in ("submit", "")) or (tag == "input" and typ in ("submit", "image")):
            form = self._form_of(target)
            if form is not None:
                return self._submit(form, target)
        return ""

    def _do_type(self, id: str, text: str, enter: bool = False) -> str:
        el, err = self._element(id)
        if err:
            return err
        plan, err = msg.plan_type(el, id, text, self.tree())
        if plan is None:
            return err
        tab = self.tab
        if plan.kind == "select":
            self._select_option(plan.option)
        elif plan.kind == "textarea":
            el.text = plan.value
        else:
            el.set("value", plan.value)
        tab.focus = el.get(BID)
        tab.tree = None
        if enter:
            return self._press_enter()
        return ""

    def _do_hover(self, id: str) -> str:
        _, err = self._element(id)
        return err

    def _do_press(self, key_comb: str) -> str:
        try:
            key = validate_key_comb(key_comb)
        except ValueError as e:
            return str(e)
        if key == "Enter":
            return self._press_enter()
        if key == "Alt+ArrowLeft":
            return self._do_go_back()
        if key == "Alt+ArrowRight":
            return self._do_go_forward()
        tab = self.tab
        el = tab.elements.get(tab.focus or "")
        mods, _, base = key.rpartition("+")
        if base == "Tab" and mods in ("", "Shift"):
            self._move_focus(-1 if mods else 1)
            return ""
        if el is None or mods not in ("", "Shift"):
            return ""
        editable = (msg.is_text_input(el) or el.tag == "textarea") and el.get("readonly") is None
        char = " " if base == "Space" else base if len(base) == 1 else ""
        if base == "Space" and el.tag == "input" and msg.input_type(el) in ("checkbox", "radio"):
            if msg.input_type(el) == "checkbox" or el.get("checked") is None:
                self._toggle(el)
        elif base == "Space" and (el.tag == "button" or (el.tag == "input" and msg.input_type(el) in (
                "submit", "image", "button", "reset"))):
            return self._do_click(el.get(BID))
        elif editable and char:
            self._set_text(el, self._get_text(el) + char)
        elif editable and base == "Backspace":
            self._set_text(el, self._get_text(el)[:-1])
        return ""

    @staticmethod
    def _get_text(el: Any) -> str:
        return (el.text or "") if el.tag == "textarea" else (el.get("value") or "")

    def _set_text(self, el: Any, text: str) -> None:
        if el.tag == "textarea":
            el.text = text
        else:
            el.set("value", text)
        self.tab.tree = None

    @staticmethod
    def _focusable(el: Any) -> bool:
        if not isinstance(el.tag, str) or el.get("disabled") is not None:
            return False
        tag, typ = el.tag, (el.get("type") or "").lower()
        tabindex = el.get("tabindex")
        return ((tag == "a" and el.get("href") is not None) or tag in ("button", "select", "textarea", "summary")
                or (tag == "input" and typ != "hidden") or (tabindex is not None and tabindex.strip().lstrip("-").isdigit()))

    def _move_focus(self, step: int) -> None:
        """Tab / Shift+Tab: the next focusable element in document order (one stop per radio group)."""
        tab = self.tab
        body = tab.doc.find(".//body")
        if body is None:
            return
        order: list[Any] = []
        all_els = [e for e in body.iter() if isinstance(e.tag, str)]
        self._focus_order(body, order)
        # radio groups: one stop, on the checked radio (else the first one in the direction of travel)
        groups: dict[tuple[Any, str], list[Any]] = {}
        for e in order:
            if e.tag == "input" and msg.input_type(e) == "radio" and e.get("name"):
                groups.setdefault((self._form_of(e), e.get("name")), []).append(e)
        cur = tab.elements.get(tab.focus or "")
        for members in groups.values():
            keep = next((r for r in members if r.get("checked") is not None), None)
            if keep is None:
                keep = cur if cur in members else (members[0] if step > 0 else members[-1])
            order = [e for e in order if e not in members or e is keep]
        pos_of = {id(e): i for i, e in enumerate(all_els)}
        if cur is not None and cur in order:
            i = order.index(cur) + step
        else:
            start = tab.elements.get(tab.focus_start or "")
            if start is None:
                i = 0 if step > 0 else len(order) - 1
            else:
                p = pos_of.get(id(start), -1)
                after = [k for k, e in enumerate(order) if pos_of[id(e)] > p]
                before = [k for k, e in enumerate(order) if pos_of[id(e)] < p]
                i = (after[0] if after else len(order)) if step > 0 else (before[-1] if before else -1)
        if 0 <= i < len(order):
            tab.focus = order[i].get(BID)
        else:
            tab.focus = None
            tab.focus_start = None

    def _focus_order(self, e: Any, order: list[Any]) -> None:
        """Append the focusable elements under ``e`` to ``order``, in document order (a method, not a nested
        function: one that calls itself is a reference cycle, left to the garbage collector)."""
        for c in e:
            if not isinstance(c.tag, str) or c.get("hidden") is not None or c.tag in ("script", "style", "template"):
                continue
            if self._focusable(c) and (c.get("tabindex") or "0").strip() != "-1":
                order.append(c)
            self._focus_order(c, order)

    def _do_scroll(self, direction: str) -> str:
        self.tab.scroll = max(0, self.tab.scroll + (1 if direction == "down" else -1))
        return ""

    def _do_new_tab(self) -> str:
        if len(self.tabs) >= msg.MAX_TABS:
            return msg.TOO_MANY_TABS
        self.tabs.append(_Tab())
        self._tab_ids.append(self._new_tab_id())
        self._active = len(self.tabs) - 1
        return self._navigate(self.tab, "/", "GET", None)

    def _do_close_tab(self) -> str:
        if len(self.tabs) == 1:
            return msg.CLOSE_LAST_TAB
        self.tabs.pop(self._active)
        self._tab_ids.pop(self._active)
        self._active = min(self._active, len(self.tabs) - 1)
        return ""

    def _do_tab_focus(self, index: int) -> str:
        if not 0 <= index < len(self.tabs):
            return msg.no_tab(index, len(self.tabs))
        self._active = index
        return ""

    def _do_goto(self, url: str) -> str:
        try:
            path = to_local_path(url, self.tab.path)
        except UrlRefused as e:
            return str(e)
        return self._navigate(self.tab, path, "GET", None)

    def _do_go_back(self) -> str:
        tab = self.tab
        if tab.index <= 0:
            return msg.NO_BACK
        tab.index -= 1
        return self._load(tab, tab.path)

    def _do_go_forward(self) -> str:
        tab = self.tab
        if tab.index >= len(tab.history) - 1:
            return msg.NO_FORWARD
        tab.index += 1
        return self._load(tab, tab.path)

    # mechanics --------------------------------------------------------------------------------
    @staticmethod
    def _clickable(el: Any) -> bool:
        tag = el.tag
        return ((tag == "a" and el.get("href") is not None) or tag in ("button", "option", "label")
                or (tag == "input" and (el.get("type") or "").lower() in ("checkbox", "radio", "submit", "image")))

    def _label_control(self, label: Any) -> Any:
        for_id = label.get("for")
        if for_id:
            found = label.getroottree().getroot().xpath(f'//*[@id="{for_id}"]') if '"' not in for_id else []
            return found[0] if found else None
        return next((d for d in label.iter() if d.tag in ("input", "select", "textarea")), None)

    def _toggle(self, el: Any) -> None:
        typ = (el.get("type") or "").lower()
        if typ == "checkbox":
            if el.get("checked") is not None:
                del el.attrib["checked"]
            else:
                el.set("checked", "")
        else:
            form = self._form_of(el)
            scope = form if form is not None else el.getroottree().getroot()
            for other in scope.iter("input"):
                if (other.get("type") or "").lower() == "radio" and other.get("name") == el.get("name"):
                    if other.get("checked") is not None:
                        del other.attrib["checked"]
            el.set("checked", "")
        self.tab.tree = None

    def _select_option(self, opt: Any) -> None:
        select = opt.getparent()
        while select is not None and select.tag != "select":
            select = select.getparent()
        if select is not None and select.get("multiple") is None:
            for o in select.iter("option"):
                if o.get("selected") is not None:
                    del o.attrib["selected"]
        opt.set("selected", "")
        self.tab.tree = None

    def _form_of(self, el: Any) -> Any:
        form_id = el.get("form")
        if form_id:
            found = el.getroottree().getroot().xpath(f'//form[@id="{form_id}"]') if '"' not in form_id else []
            if found:
                return found[0]
        parent = el.getparent()
        while parent is not None and parent.tag != "form":
            parent = parent.getparent()
        return parent

    def _press_enter(self) -> str:
        tab = self.tab
        el = tab.elements.get(tab.focus or "")
        if el is None:
            return ""
        typ = (el.get("type") or "").lower()
        if el.tag == "textarea" and el.get("readonly") is None:
            self._set_text(el, self._get_text(el) + "\n")
            return ""
        if el.tag == "input" and (typ in _TEXT_TYPES or typ in ("checkbox", "radio")):
            form = self._form_of(el)
            if form is None:
                return ""
            submitter = next((b for b in form.iter() if (b.tag == "button" and (b.get("type") or "submit").lower()
                                                             == "submit")
                              or (b.tag == "input" and (b.get("type") or "").lower() in ("submit", "image"))), None)
            if submitter is not None and submitter.get("disabled") is not None:
                return ""
            return self._submit(form, submitter)
        if el.tag in ("a", "button"):
            return self._do_click(el.get(BID))
        return ""

    def _submit(self, form: Any, submitter: Any) -> str:
        pairs: list[tuple[str, str]] = []
        root = form.getroottree().getroot()
        form_id = form.get("id")
        controls = list(form.iter())
        if form_id:
            controls += [c for c in root.iter() if c.get("form") == form_id and c not in controls]
        for c in controls:
            name = c.get("name")
            if not name or c.get("disabled") is not None or not isinstance(c.tag, str):
                continue
            if c.tag == "input":
                typ = (c.get("type") or "").lower()
                if typ in ("checkbox", "radio"):
                    if c.get("checked") is not None:
                        pairs.append((name, c.get("value") if c.get("value") is not None else "on"))
                elif typ in ("submit", "image", "button", "reset"):
                    if c is submitter:
                        pairs.append((name, c.get("value") or ""))
                elif typ == "file":
                    continue
                else:
                    pairs.append((name, c.get("value") or ""))
            elif c.tag == "button":
                if c is submitter:
                    pairs.append((name, c.get("value") or ""))
            elif c.tag == "select":
                for o in selected_options(c):
                    pairs.append((name, o.get("value") if o.get("value") is not None else text_content(o).strip()))
            elif c.tag == "textarea":
                pairs.append((name, c.text or ""))
        pairs = [(_crlf(k), _crlf(v)) for k, v in pairs]
        method = ((submitter.get("formmethod") if submitter is not None else None) or form.get("method") or "get").upper()
        action = (submitter.get("formaction") if submitter is not None else None) or form.get("action") or self.tab.path
        target = urljoin(self.tab.path, action)
        if method == "POST":
            data: dict[str, list[str]] = {}
            for k, v in pairs:
                data.setdefault(k, []).append(v)
            return self._navigate(self.tab, target, "POST", data)
        base = target.split("?", 1)[0]
        return self._navigate(self.tab, base + ("?" + form_urlencode(pairs) if pairs else ""), "GET", None)

    def _fetch(self, method: str, path: str, form: dict[str, list[str]] | None) -> tuple[str, Any, int]:
        for _ in range(MAX_REDIRECTS):
            resp = self.app.handle(Request.from_url(method, _as_served(path), self.session, form))
            if resp.redirect is None:
                return path, resp.doc, resp.status
            path = to_local_path(resp.redirect, path)
            method, form = "GET", None
        raise RuntimeError(f"too many redirects at {path}")

    def _navigate(self, tab: _Tab, path: str, method: str, form: dict[str, list[str]] | None) -> str:
        try:
            path = to_local_path(path, tab.path)
            final, doc, _ = self._fetch(method, path, form)
        except (UrlRefused, RuntimeError) as e:
            return str(e)
        if method == "GET" and tab.index >= 0 and path == tab.path:
            tab.history[tab.index] = final  # a browser replaces the entry when a GET goes to the same URL
        else:
            tab.history = tab.history[: tab.index + 1] + [final]
            tab.index = len(tab.history) - 1
        self._set_page(tab, doc)
        return ""

    def _load(self, tab: _Tab, path: str) -> str:
        try:
            _, doc, _ = self._fetch("GET", path, None)
        except RuntimeError as e:
            return str(e)
        self._set_page(tab, doc)
        return ""

    @staticmethod
    def _set_page(tab: _Tab, doc: Any) -> None:
        tab.doc = doc
        tab.elements = elements_by_bid(doc)
        tab.tree = None
        tab.focus = None
        tab.focus_start = None
        tab.scroll = 0

    def clone_doc(self) -> Any:
        """A deep copy of the active tab's document."""
        return copy.deepcopy(self.tab.doc)

