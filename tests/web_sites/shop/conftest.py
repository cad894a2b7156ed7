"""Helpers for driving the shop through the text driver."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest

from embodiedweb.web.text_driver import TextDriver
from web_sites.framework import Request
from web_sites.registry import get_webapp


class Shopper:
    """A text-driver session on the shop with small helpers to find elements by role and name."""

    def __init__(self, config: dict[str, Any] | None = None, start: str = "/shop/") -> None:
        self.app = get_webapp()
        self.session = uuid.uuid4().hex
        self.app.reset_session(self.session, {"sites": {"shop": config or {}}})
        self.d = TextDriver(self.app)
        self.d.reset(self.session, start)

    @property
    def path(self) -> str:
        """The current URL's path (messages ride in the query string)."""
        return "/" + self.d.url.split("://", 1)[-1].split("/", 1)[-1].split("?", 1)[0]

    # reading ------------------------------------------------------------------------------------
    @property
    def text(self) -> str:
        return self.d.tree().text

    def bid(self, role: str, name: str | None = None, exact: bool = True, nth: int = 0) -> str:
        hits = [n.bid for n in self.d.tree().nodes.values()
                if n.role == role and (name is None or (n.name == name if exact else name.lower() in n.name.lower()))]
        hits.sort(key=int)
        assert len(hits) > nth, f"no {role} {name!r} on {self.d.url}:\n{self.text}"
        return hits[nth]

    def has(self, role: str, name: str, exact: bool = False) -> bool:
        """Whether a line of the tree text has this role and name (text blocks are not nodes)."""
        for m in re.finditer(r"^\s*\[\w+\] (\S+) '((?:[^'\\]|\\.)*)'", self.text, re.M):
            n = m.group(2).replace("\\'", "'").replace("\\\\", "\\")
            if m.group(1) == role and (n == name if exact else name.lower() in n.lower()):
                return True
        return False

    def alerts(self) -> list[str]:
        return [n.name for n in self.d.tree().nodes.values() if n.role == "alert"]

    def statuses(self) -> list[str]:
        return [n.name for n in self.d.tree().nodes.values() if n.role == "status"]

    def links(self) -> list[str]:
        return [n.name for n in self.d.tree().nodes.values() if n.role == "link"]

    def cells(self) -> list[str]:
        return re.findall(r"\] cell '((?:[^'\\]|\\.)*)'", self.text)

    # acting -------------------------------------------------------------------------------------
    def goto(self, url: str) -> None:
        assert self.d.execute("goto", {"url": url}) == ""

    def click(self, role: str, name: str, exact: bool = True, nth: int = 0) -> str:
        return self.d.execute("click", {"id": self.bid(role, name, exact, nth)})

    def type(self, role: str, name: str, text: str, enter: bool = False) -> str:
        return self.d.execute("type", {"id": self.bid(role, name), "text": text, "enter": enter})

    def post(self, path: str, form: dict[str, str]) -> None:
        """A hand-made POST (what a stale or forged form would send); then show the page it redirects to."""
        resp = self.app.handle(Request.from_url("POST", path, self.session, {k: [v] for k, v in form.items()}))
        assert resp.status == 303 and resp.redirect, (resp.status, resp.html[:500])
        self.goto(resp.redirect)

    def add(self, product_id: str, store_name: str, qty: str = "1", **options: str) -> str:
        self.goto(f"/shop/product/{product_id}")
        assert self.type("combobox", "Store", store_name) == ""
        for label, value in options.items():
            assert self.type("combobox", label, value) == ""
        assert self.type("spinbutton", "Quantity", qty) == ""
        return self.click("button", "Add to cart")

    def checkout(self, store_name: str, delivery: str | None = "Deliver to my kitchen") -> None:
        self.goto("/shop/cart")
        if delivery:
            sec = self.bid("region", f"Cart at {store_name}")
            radios = [n for n in self.d.tree().nodes.values() if n.role == "radio" and n.name == delivery
                      and int(n.bid) > int(sec)]
            assert radios, self.text
            self.d.execute("click", {"id": min(radios, key=lambda n: int(n.bid)).bid})
        assert self.click("button", f"Check out at {store_name}") == ""

    def snapshot(self) -> dict[str, Any]:
        return self.app.snapshot(self.session)["shop"]


@pytest.fixture
def shopper() -> Shopper:
    return Shopper()
