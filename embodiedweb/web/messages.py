"""What both web drivers say and check before acting: the shared error messages and the form-field rules.

The ``text`` and ``browser`` drivers must answer bad input with the very same words, so the
messages are built here. The checks run on the lxml element of the page the agent last saw
(the server page in text mode, the synced live DOM in browser mode), so both drivers decide alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from embodiedweb.web.axtree import PageTree
from web_sites.dom import text_content

TEXT_TYPES = {"text", "search", "email", "url", "tel", "password", "number", ""}
# HTML's "valid floating-point number" (what a number field keeps; anything else is sanitised to "")
_NUMBER = re.compile(r"-?(?:\d+|\d*\.\d+)(?:[eE][-+]?\d+)?")

NOT_A_WEB_ACTION = "'{name}' is not a web action"
CLOSE_LAST_TAB = "close_tab refused: this is the only open tab (open another with new_tab first)."
#: the most tabs open at once (a browser profile's sane limit; each tab costs memory, in Chromium too)
MAX_TABS = 20
TOO_MANY_TABS = f"{MAX_TABS} tabs are open, the most there can be; close one first (close_tab)."
NO_BACK = "go_back: there is no previous page in this tab."
NO_FORWARD = "go_forward: there is no next page in this tab."


def _bid_key(bid: str) -> tuple[int, int, str]:
    return (0, int(bid), "") if bid.isdigit() else (1, 0, bid)


def unknown_id(bid: Any, tree: PageTree, url: str) -> str:
    """The answer to an id that is not on the current page, listing the interactive ids."""
    ids = sorted((n.bid for n in tree.interactive), key=_bid_key)
    hint = f" Interactive ids on this page: {', '.join(ids[:40])}{' ...' if len(ids) > 40 else ''}." if ids else ""
    return f"No element with id [{bid}] on the current page ({url}).{hint}"


def disabled(bid: Any) -> str:
    return f"Element [{bid}] is disabled."


def not_editable(bid: Any) -> str:
    return f"Element [{bid}] is not editable (disabled or read-only)."


def no_tab(index: int, n_tabs: int) -> str:
    return f"No tab {index}; open tabs are 0..{n_tabs - 1}."


def input_type(el: Any) -> str:
    return (el.get("type") or "").lower() if el.tag == "input" else ""


def is_text_input(el: Any) -> bool:
    return el.tag == "input" and input_type(el) in TEXT_TYPES


def sanitize_value(typ: str, text: str) -> str | None:
    """The value a browser keeps when ``text`` is filled into an input of type ``typ``
    (``None``: a number field refuses it, as Playwright's fill does)."""
    if typ == "number":
        t = text.strip()
        if t and not _NUMBER.fullmatch(t):
            return None
        return t
    text = text.replace("\r", "").replace("\n", "")
    if typ in ("email", "url"):
        text = text.strip(" \t\f")
    return text


@dataclass
class TypePlan:
    """What ``type [id] [text]`` does to an element: ``kind`` is ``select``, ``textarea`` or ``input``."""

    kind: str
    value: str
    option: Any = None


def plan_type(el: Any, bid: Any, text: str, tree: PageTree) -> tuple[TypePlan | None, str]:
    """Decide what typing ``text`` into ``el`` means, or the error message if it cannot be done."""
    if el.get("disabled") is not None or el.get("readonly") is not None:
        return None, not_editable(bid)
    if el.tag == "select":
        opts = list(el.iter("option"))
        want = text.strip().lower()
        match = next((o for o in opts if text_content(o).strip().lower() == want
                      or (o.get("value") or "").lower() == want), None)
        if match is None:  # "10 inch" names "10 inch (+$6.00)": the label without its note, when unique
            bare = [o for o in opts if re.sub(r"\s*\([^()]*\)$", "", text_content(o).strip()).lower() == want]
            match = bare[0] if len(bare) == 1 else None
        if match is None:
            names = ", ".join(repr(text_content(o).strip()) for o in opts)
            return None, f"No option '{text}' in select [{bid}]; options are: {names}."
        return TypePlan("select", match.get("value") if match.get("value") is not None
                        else text_content(match), match), ""
    if el.tag == "textarea":
        return TypePlan("textarea", text.replace("\r\n", "\n").replace("\r", "\n")), ""
    if is_text_input(el):
        value = sanitize_value(input_type(el), text)
        if value is None:
            flag = re.fullmatch(r"\s*(\S+)\s+([01])\s*", text)  # `type 77 3 0`: the flag read as text
            hint = (f" To type {flag[1]} and choose Enter or not, bracket each part: type [{bid}] [{flag[1]}] "
                    f"[{flag[2]}]." if flag and sanitize_value(input_type(el), flag[1]) is not None else "")
            return None, f"Field [{bid}] takes a number; '{text}' is not one.{hint}"
        return TypePlan("input", value), ""
    node = tree.nodes.get(str(bid))
    what = node.role if node else el.tag
    return None, f"Element [{bid}] is a {what}, not a text field; type needs a textbox, searchbox or combobox."


def browser_recovered(what: str, tabs: int) -> str:
    """Said after a browser fault was recovered (browser mode)."""
    return (f"The browser failed ({what}) and was recovered: your {tabs} tab(s) were reopened at their "
            "last pages (their back/forward history is lost). The last action may or may not have taken "
            "effect: check the page.")
