"""``/shop``: FreshCart Market, an online grocery and kitchen shop with four Manhattan stores.

Pages: home (search box, categories, stores), search with filters, category pages, product pages with
each store's price and an add-to-cart form, stores, cart (grouped by store), checkout per store (deliver
to the kitchen or pick up in store), order confirmation and the list of orders.

URL scheme (all under ``/shop``):
    GET  /                         home
    GET  /search?q=&category=&store=&max_price=&sort=&page=
                                   search; ``sort`` is relevance | price_asc | price_desc | name
    GET  /category/{slug}          one category (same filters as search)
    GET  /product/{product_id}[?store=]  product page (``store`` preselects the store)
    GET  /stores, /stores/{store_id}     stores with addresses, coordinates and hours
    GET  /cart                     the cart
    POST /cart/add                 product_id, store, qty, opt_<group> (e.g. opt_size, opt_colour, opt_pack)
    POST /cart/update              line, qty
    POST /cart/remove              line
    POST /checkout                 store, delivery (kitchen | pickup)
    GET  /orders, /orders/{order_id}
    POST /orders/cancel            order_id: cancel an order that is not cancelled (a kitchen delivery only
                                   while it has not reached the kitchen, a pickup only while it has not been
                                   collected); its total leaves the budget's spent

Every POST redirects (PRG). Bad input (unknown product/store/option, a store without the product in
stock, a quantity that is not a whole number 1..99, an empty cart, no delivery choice, over budget, an
unknown, already cancelled, delivered or collected order to cancel) gives a message on the page (``role="alert"``) and changes
nothing.

Task config (``web.sites.shop`` of a task; every field optional, checked by
:func:`web_sites.shop.catalog.validate_config`)::

    {"budget": 25.0,                                   # dollars the session may spend in total
     "out_of_stock": [["chelsea", "p0071"], ...],      # [store_id, product_id] offers removed
     "cart": [{"product_id": "p0001", "store_id": "chelsea", "qty": 2,
               "options": {"size": "large"}}, ...]}     # initial cart lines

Snapshot (what checkers read; lists sorted, prices in dollars rounded to cents)::

    {"cart": [{"product_id", "store_id", "object_type", "options": {group: value}, "qty", "unit_price"}],
     "orders": [{"order_id": "ORD-00001", "store_id", "delivery": "kitchen" | "pickup",
                 "items": [{"product_id", "object_type", "options", "qty", "unit_price"}], "total",
                 "at", "status": "placed" | "collected" | "cancelled", "cancelled_at", "collected_at"}]}
                                                        # at: the env's step number the order was placed at;
                                                        # cancelled_at: the one it was cancelled at (else None);
                                                        # collected_at: the one a pickup was collected at

Order ids count per session from ``ORD-00001``. An order delivered to the kitchen queues one delivery
``{"object_type", "product_id", "name", "qty": 1}`` per object: ``qty`` x the pack's units, at most 6 a
line (:func:`web_sites.shop.catalog.delivery_units`). A cancelled order stays listed (status "Cancelled"),
its total no longer counts against the budget, and its deliveries that had not reached the kitchen are
withdrawn; checkers read only the live orders (:func:`web_sites.shop.catalog.live_orders`). A pickup order is
collected (status "Collected at <store>", ``collected_at``) when the env reports that the walker reached its store
at or after the step it was placed (:meth:`ShopSite.collect`, called by the shopping domain through
:func:`embodiedweb.domains.outdoor.pickups.sync_pickups`: the site itself knows no streets); a collected order can
no longer be cancelled, as a delivered one.
"""

from __future__ import annotations

import json
import random
from typing import Any
from urllib.parse import quote, urlencode

from web_sites.framework import Ctx, Response, Site, parse_float, parse_int
from web_sites.shop import catalog
from web_sites.state import StateStore

PAGE_SIZE = 20
MAX_QTY = 99
SORTS = {"relevance": "Best match", "price_asc": "Price: low to high", "price_desc": "Price: high to low",
         "name": "Name: A to Z"}
DELIVERY = {"kitchen": "Deliver to my kitchen", "pickup": "Pick up in store"}


def money(cents: int | None) -> str:
    """Cents as ``$D.CC`` (``—`` for ``None``)."""
    return "—" if cents is None else f"${cents // 100}.{cents % 100:02d}"


def cents(dollars: float) -> int:
    """Dollars as whole cents (rounded)."""
    return int(round(dollars * 100))


def _opts_key(options: dict[str, str]) -> str:
    return json.dumps(dict(sorted(options.items())), sort_keys=True)


def parse_qty(raw: str) -> tuple[int | None, str]:
    """A quantity from a form field, or ``None`` and the message to show."""
    text = raw.strip()
    if not text:
        return None, "Enter a quantity (a whole number from 1 to 99)."
    val = parse_float(text)
    if val is None:
        return None, f"'{text[:20]}' is not a quantity; enter a whole number from 1 to {MAX_QTY}."
    if val != val or val in (float("inf"), float("-inf")) or val != int(val):
        return None, f"The quantity must be a whole number from 1 to {MAX_QTY}."
    if val < 1:
        return None, "The quantity must be at least 1."
    if val > MAX_QTY:
        return None, f"The quantity can be at most {MAX_QTY}."
    return int(val), ""


class ShopSite(Site):
    """The shop website (see module docstring)."""

    name = "shop"
    title = "FreshCart Market"
    description = "Groceries and kitchenware from four Manhattan stores: compare prices, order for delivery or pickup."
    order = 20

    def register_routes(self) -> None:
        """Route the shop's catalogue, store, cart, checkout and order pages."""
        self.route("/", self.index)
        self.route("/search", self.search)
        self.route("/category/{slug}", self.category)
        self.route("/product/{pid}", self.product)
        self.route("/stores", self.stores)
        self.route("/stores/{sid}", self.store_page)
        self.route("/cart", self.cart)
        self.route("/cart/add", self.cart_add, methods=("POST",))
        self.route("/cart/update", self.cart_update, methods=("POST",))
        self.route("/cart/remove", self.cart_remove, methods=("POST",))
        self.route("/checkout", self.checkout, methods=("POST",))
        self.route("/orders", self.orders)
        self.route("/orders/cancel", self.cancel_order, methods=("POST",))
        self.route("/orders/{oid}", self.order_page)

    # state ------------------------------------------------------------------------------------
    def setup(self, store: StateStore) -> None:
        """Load the product and offer tables and register the per-session shop tables."""
        store.executescript(
            "CREATE TABLE IF NOT EXISTS shop_products (product_id TEXT PRIMARY KEY, name TEXT, name_lc TEXT,"
            " brand TEXT, category TEXT, category_name TEXT, object_type TEXT, haystack TEXT);"
            "CREATE TABLE IF NOT EXISTS shop_offers (product_id TEXT, store_id TEXT, price_cents INTEGER,"
            " PRIMARY KEY (product_id, store_id));")
        rows = []
        offers = []
        for p in catalog.products():
            hay = " ".join([p["name"], p["brand"], p["category_name"]]).lower()
            rows.append((p["product_id"], p["name"], p["name"].lower(), p["brand"], p["category"], p["category_name"],
                         p["object_type"], hay))
            offers += [(p["product_id"], s, cents(v)) for s, v in p["prices"].items()]
        with store.transaction():
            store.executemany("INSERT OR REPLACE INTO shop_products VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
            store.executemany("INSERT OR REPLACE INTO shop_offers VALUES (?, ?, ?)", offers)
        store.register_session_table(
            "CREATE TABLE IF NOT EXISTS shop_settings (session TEXT PRIMARY KEY, budget_cents INTEGER)",
            "shop_settings")
        store.register_session_table(
            "CREATE TABLE IF NOT EXISTS shop_stockouts (session TEXT, store_id TEXT, product_id TEXT)",
            "shop_stockouts")
        store.register_session_table(
            "CREATE TABLE IF NOT EXISTS shop_cart (session TEXT, line INTEGER, product_id TEXT, store_id TEXT,"
            " options TEXT, qty INTEGER)", "shop_cart")
        store.register_session_table(
            "CREATE TABLE IF NOT EXISTS shop_orders (session TEXT, seq INTEGER, order_id TEXT, store_id TEXT,"
            " delivery TEXT, total_cents INTEGER, at INTEGER, status TEXT DEFAULT 'placed', cancelled_at INTEGER,"
            " collected_at INTEGER)",
            "shop_orders")
        store.register_session_table(
            "CREATE TABLE IF NOT EXISTS shop_order_items (session TEXT, order_id TEXT, idx INTEGER,"
            " product_id TEXT, name TEXT, object_type TEXT, options TEXT, qty INTEGER, unit_cents INTEGER)",
            "shop_order_items")

    def seed_session(self, store: StateStore, session: str, config: dict[str, Any], rng: random.Random) -> None:
        """Seed a session's budget, stock-outs and cart from a validated task config."""
        catalog.validate_config(config)
        budget = config.get("budget")
        if budget is not None:
            store.execute("INSERT INTO shop_settings VALUES (?, ?)", (session, cents(float(budget))))
        for sid, pid in config.get("out_of_stock", []):
            store.execute("INSERT INTO shop_stockouts VALUES (?, ?, ?)", (session, str(sid), str(pid)))
        for i, line in enumerate(config.get("cart", []), 1):
            p = catalog.product(line["product_id"])
            assert p is not None
            opts = catalog.normalize_options(p, {str(k): str(v) for k, v in line.get("options", {}).items()})
            store.execute("INSERT INTO shop_cart VALUES (?, ?, ?, ?, ?, ?)",
                          (session, i, p["product_id"], line["store_id"], _opts_key(opts), int(line.get("qty", 1))))

    def snapshot(self, store: StateStore, session: str) -> dict[str, Any]:
        """Return the session's cart lines and placed orders, sorted for comparison."""
        oos = self._stockouts(store, session)
        cart = []
        for r in store.query("SELECT product_id, store_id, options, qty FROM shop_cart WHERE session = ?", (session,)):
            p = catalog.product(r["product_id"])
            opts = json.loads(r["options"])
            unit = catalog.price(r["product_id"], r["store_id"], opts, oos) if p else None
            cart.append({"product_id": r["product_id"], "store_id": r["store_id"],
                         "object_type": p["object_type"] if p else None, "options": opts, "qty": r["qty"],
                         "unit_price": unit})
        cart.sort(key=lambda c: (c["store_id"], c["product_id"], _opts_key(c["options"]), c["qty"]))
        orders = []
        for o in store.query("SELECT order_id, store_id, delivery, total_cents, at, status, cancelled_at, collected_at"
                             " FROM shop_orders WHERE session = ? ORDER BY order_id", (session,)):
            items = [{"product_id": i["product_id"], "object_type": i["object_type"],
                      "options": json.loads(i["options"]), "qty": i["qty"], "unit_price": i["unit_cents"] / 100}
                     for i in store.query("SELECT * FROM shop_order_items WHERE session = ? AND order_id = ?",
                                          (session, o["order_id"]))]
            items.sort(key=lambda i: (i["product_id"], _opts_key(i["options"]), i["qty"]))
            orders.append({"order_id": o["order_id"], "store_id": o["store_id"], "delivery": o["delivery"],
                           "items": items, "total": o["total_cents"] / 100, "at": o["at"],
                           "status": o["status"], "cancelled_at": o["cancelled_at"],
                           "collected_at": o["collected_at"]})
        return {"cart": cart, "orders": orders}

    @staticmethod
    def waiting_pickups(store: StateStore, session: str) -> list[dict[str, Any]]:
        """The session's pickup orders placed and not yet collected (nor cancelled): ``order_id``, ``store_id``,
        ``delivery``, ``status``, ``at``."""
        return store.query("SELECT order_id, store_id, delivery, status, at FROM shop_orders WHERE session = ? AND"
                           " delivery = 'pickup' AND status = 'placed' ORDER BY seq", (session,))

    @staticmethod
    def collect(store: StateStore, session: str, steps: dict[str, int]) -> int:
        """Mark the session's waiting pickup orders in ``steps`` (order id -> the step it was collected at, which
        the env's walk decides) collected; a cancelled, kitchen or already collected order is left as it is.
        Returns how many changed."""
        n = 0
        with store.transaction():
            for oid, step in sorted(steps.items()):
                n += store.execute("UPDATE shop_orders SET status = 'collected', collected_at = ? WHERE session = ?"
                                   " AND order_id = ? AND delivery = 'pickup' AND status = 'placed'",
                                   (int(step), session, oid)).rowcount
        return n

    @staticmethod
    def _stockouts(store: StateStore, session: str) -> set[tuple[str, str]]:
        return {(r["store_id"], r["product_id"]) for r in
                store.query("SELECT store_id, product_id FROM shop_stockouts WHERE session = ?", (session,))}

    def _offers(self, ctx: Ctx, pid: str) -> dict[str, int]:
        return {s: cents(v) for s, v in catalog.offers(pid, self._stockouts(ctx.store, ctx.session)).items()}

    def _budget(self, ctx: Ctx) -> dict[str, int] | None:
        row = ctx.store.query_one("SELECT budget_cents FROM shop_settings WHERE session = ?", (ctx.session,))
        if row is None or row["budget_cents"] is None:
            return None
        spent = ctx.store.query_one("SELECT COALESCE(SUM(total_cents), 0) AS s FROM shop_orders WHERE session = ?"
                                    " AND status != 'cancelled'", (ctx.session,))
        spent_c = int(spent["s"]) if spent else 0
        return {"budget": row["budget_cents"], "spent": spent_c, "remaining": row["budget_cents"] - spent_c}

    def _cart_lines(self, ctx: Ctx) -> list[dict[str, Any]]:
        oos = self._stockouts(ctx.store, ctx.session)
        out = []
        for r in ctx.store.query("SELECT line, product_id, store_id, options, qty FROM shop_cart WHERE session = ?"
                                 " ORDER BY line", (ctx.session,)):
            p = catalog.product(r["product_id"])
            if p is None:
                continue
            opts = json.loads(r["options"])
            unit = catalog.price(p["product_id"], r["store_id"], opts, oos)
            unit_c = None if unit is None else cents(unit)
            out.append({"line": r["line"], "product": p, "store_id": r["store_id"], "options": opts,
                        "options_text": catalog.option_text(p, opts), "qty": r["qty"], "unit_cents": unit_c,
                        "line_cents": None if unit_c is None else unit_c * r["qty"]})
        return out

    # rendering ----------------------------------------------------------------------------------
    def _page(self, ctx: Ctx, template: str, page_title: str, status: int = 200, **kw: Any) -> Response:
        row = ctx.store.query_one("SELECT COALESCE(SUM(qty), 0) AS n FROM shop_cart WHERE session = ?",
                                  (ctx.session,))
        return ctx.render(template, status=status, page_title=page_title, cart_count=int(row["n"]) if row else 0,
                          catalog=catalog, money=money, sorts=SORTS, delivery_labels=DELIVERY, **kw)

    def _not_found(self, ctx: Ctx, message: str) -> Response:
        return self._page(ctx, "notfound.html", "Not found", status=404, flash=message, flash_kind="error")

    # pages ----------------------------------------------------------------------------------------
    def index(self, ctx: Ctx) -> Response:
        """Render the shop home with product counts per category and the stores."""
        counts = {r["category"]: r["n"] for r in ctx.store.query(
            "SELECT category, COUNT(*) AS n FROM shop_products GROUP BY category")}
        return self._page(ctx, "index.html", "Shop home", counts=counts, stores=catalog.stores())

    def _filters(self, ctx: Ctx, category: str | None = None) -> tuple[dict[str, Any], list[str]]:
        req = ctx.req
        errors: list[str] = []
        f: dict[str, Any] = {"q": " ".join(req.arg("q").split())[:200], "category": "", "store": "",
                             "max_price": "", "max_cents": None, "sort": "relevance"}
        cat = category if category is not None else req.arg("category").strip()
        if cat:
            if catalog.category_name(cat) is None:
                errors.append(f"There is no category '{cat[:40]}'; showing all categories.")
            else:
                f["category"] = cat
        sid = req.arg("store").strip()
        if sid:
            if catalog.store(sid) is None:
                errors.append(f"There is no store '{sid[:40]}'; showing all stores.")
            else:
                f["store"] = sid
        mp = req.arg("max_price").strip()
        if mp:
            val = parse_float(mp.lstrip("$"))
            if val is not None and 0 <= val <= 1e6:  # (NaN fails the comparison)
                f["max_price"], f["max_cents"] = mp[:20], cents(val)
            else:
                errors.append(f"The maximum price must be a number of dollars, like 4.50; '{mp[:20]}' was ignored.")
        sort = req.arg("sort").strip()
        if sort:
            if sort in SORTS:
                f["sort"] = sort
            else:
                errors.append("Unknown sort order; showing the best matches first.")
        return f, errors

    def _run_search(self, ctx: Ctx, f: dict[str, Any]) -> list[dict[str, Any]]:
        words = [w for w in f["q"].lower().split() if w][:12]
        params: list[Any] = []
        store_cond = ""
        if f["store"]:
            store_cond = " AND o.store_id = ?"
            params.append(f["store"])
        params.append(ctx.session)
        where = ["1 = 1"]
        for w in words:
            where.append("instr(p.haystack, ?) > 0")
            params.append(w)
        if f["category"]:
            where.append("p.category = ?")
            params.append(f["category"])
        having = ["1 = 1"]
        if f["store"]:
            having.append("COUNT(o.store_id) > 0")
        if f["max_cents"] is not None:
            having.append("MIN(o.price_cents) <= ?")
            params.append(f["max_cents"])
        if f["sort"] == "price_asc":
            order = "min_price IS NULL, min_price, p.name, p.product_id"
        elif f["sort"] == "price_desc":
            order = "min_price IS NULL, min_price DESC, p.name, p.product_id"
        elif f["sort"] == "name" or not words:
            order = "p.name, p.product_id"
        else:  # products with more query words in their name first
            order = " + ".join("(instr(p.name_lc, ?) > 0)" for _ in words) + " DESC, p.name, p.product_id"
            params += words
        sql = (
            "SELECT p.product_id, p.name, p.brand, p.category, p.category_name, MIN(o.price_cents) AS min_price,"
            " COUNT(o.store_id) AS n_stores FROM shop_products p LEFT JOIN shop_offers o"
            f" ON o.product_id = p.product_id{store_cond} AND NOT EXISTS (SELECT 1 FROM shop_stockouts s"
            " WHERE s.session = ? AND s.store_id = o.store_id AND s.product_id = o.product_id)"
            f" WHERE {' AND '.join(where)} GROUP BY p.product_id HAVING {' AND '.join(having)} ORDER BY {order}")
        return ctx.store.query(sql, params)

    def _results_page(self, ctx: Ctx, category: str | None = None) -> Response:
        f, errors = self._filters(ctx, category)
        hits = self._run_search(ctx, f)
        page = ctx.req.page_arg()
        pages = max(1, (len(hits) + PAGE_SIZE - 1) // PAGE_SIZE)
        page = min(page, pages)
        params = [(k, f[k]) for k in ("q", "category", "store", "max_price", "sort") if f[k]
                  and not (k == "sort" and f[k] == "relevance")]
        base = f"{self.prefix}/category/{quote(category)}" if category else f"{self.prefix}/search"
        if category:
            params = [(k, v) for k, v in params if k != "category"]

        def page_url(n: int) -> str:
            return base + "?" + urlencode(params + [("page", str(n))])

        if category:
            title = catalog.category_name(category) or category
        elif f["q"]:
            title = f"Search results for “{f['q']}”"
        else:
            title = "All products"
        kw: dict[str, Any] = {}
        if errors:
            kw = {"flash": " ".join(errors), "flash_kind": "error"}
        return self._page(ctx, "search.html", title, f=f, results=hits[(page - 1) * PAGE_SIZE: page * PAGE_SIZE],
                          total=len(hits), page=page, pages=pages, page_url=page_url, heading=title,
                          store_name=(catalog.store(f["store"]) or {}).get("name", ""), **kw)

    def search(self, ctx: Ctx) -> Response:
        """Render search results for the request's query."""
        return self._results_page(ctx)

    def category(self, ctx: Ctx, slug: str) -> Response:
        """Render the products of a category, or 404 if it is unknown."""
        if catalog.category_name(slug) is None:
            return self._not_found(ctx, f"There is no category '{slug[:40]}'.")
        return self._results_page(ctx, slug)

    def product(self, ctx: Ctx, pid: str) -> Response:
        """Render a product with its price and stock at each store, or 404."""
        p = catalog.product(pid)
        if p is None:
            return self._not_found(ctx, f"There is no product with id '{pid[:40]}'.")
        offers = self._offers(ctx, pid)
        rows = [{"store": s, "price": offers.get(s["store_id"]), "in_stock": s["store_id"] in offers}
                for s in catalog.stores()]
        chosen = ctx.req.arg("store")
        return self._page(ctx, "product.html", p["name"], p=p, rows=rows,
                          chosen_store=chosen if catalog.store(chosen) else "")

    def stores(self, ctx: Ctx) -> Response:
        """Render the list of stores."""
        return self._page(ctx, "stores.html", "Our stores", stores=catalog.stores())

    def store_page(self, ctx: Ctx, sid: str) -> Response:
        """Render a store with its number of products, or 404."""
        s = catalog.store(sid)
        if s is None:
            return self._not_found(ctx, f"There is no store '{sid[:40]}'.")
        n = ctx.store.query_one("SELECT COUNT(*) AS n FROM shop_offers WHERE store_id = ?", (sid,))
        return self._page(ctx, "store.html", s["name"], s=s, n_products=n["n"] if n else 0)

    def cart(self, ctx: Ctx) -> Response:
        """Render the cart grouped by store with subtotals and the budget."""
        lines = self._cart_lines(ctx)
        groups = []
        for s in catalog.stores():
            mine = [ln for ln in lines if ln["store_id"] == s["store_id"]]
            if mine:
                sub = sum(ln["line_cents"] or 0 for ln in mine)
                groups.append({"store": s, "lines": mine, "subtotal": sub})
        return self._page(ctx, "cart.html", "Your cart", groups=groups, budget=self._budget(ctx))

    def orders(self, ctx: Ctx) -> Response:
        """Render the session's orders with item counts and the budget."""
        rows = ctx.store.query(
            "SELECT o.order_id, o.store_id, o.delivery, o.total_cents, o.status, (SELECT SUM(qty) FROM shop_order_items i"
            " WHERE i.session = o.session AND i.order_id = o.order_id) AS n_items FROM shop_orders o"
            " WHERE o.session = ? ORDER BY o.seq", (ctx.session,))
        for o in rows:
            o["shown_status"] = shown_status(o, self._delivered(ctx, o["order_id"]))
        return self._page(ctx, "orders.html", "Your orders", orders=rows, budget=self._budget(ctx))

    def order_page(self, ctx: Ctx, oid: str) -> Response:
        """Render one of the session's orders with its items, or 404."""
        o = ctx.store.query_one("SELECT * FROM shop_orders WHERE session = ? AND order_id = ?", (ctx.session, oid))
        if o is None:
            return self._not_found(ctx, f"There is no order '{oid[:40]}' in your account.")
        items = ctx.store.query("SELECT * FROM shop_order_items WHERE session = ? AND order_id = ? ORDER BY idx",
                                (ctx.session, oid))
        for it in items:
            p = catalog.product(it["product_id"])
            it["options_text"] = catalog.option_text(p, json.loads(it["options"])) if p else ""
        delivered = self._delivered(ctx, oid)
        return self._page(ctx, "order.html", f"Order {oid}", o=o, items=items, s=catalog.store(o["store_id"]),
                          delivered=delivered, shown_status=shown_status(o, delivered))

    def _delivered(self, ctx: Ctx, oid: str) -> bool:
        """Whether an order's items have reached the kitchen (the env placed them there)."""
        return ctx.store.query_one("SELECT 1 AS x FROM deliveries WHERE session = ? AND order_id = ? AND delivered = 1",
                                   (ctx.session, oid)) is not None

    # actions (POST, redirect after) ------------------------------------------------------------------
    def cart_add(self, ctx: Ctx) -> Response:
        """Validate store, stock, options and quantity, then add to (or merge into) a cart line and redirect."""
        req = ctx.req
        pid = req.arg("product_id").strip()
        p = catalog.product(pid)
        if p is None:
            return ctx.message_redirect(f"{self.prefix}/", f"There is no product with id '{pid[:40]}'.", "error")
        back = f"{self.prefix}/product/{pid}"
        sid = req.arg("store").strip()
        s = catalog.store(sid)
        if s is not None:
            back += "?" + urlencode({"store": sid})
        if not sid:
            return ctx.message_redirect(back, "Choose a store to buy from.", "error")
        if s is None:
            return ctx.message_redirect(back, f"There is no store '{sid[:40]}'.", "error")
        if sid not in self._offers(ctx, pid):
            return ctx.message_redirect(back, f"{s['name']} does not have {p['name']} in stock.", "error")
        raw_opts = {}
        for key in set(req.form) | set(req.query):
            if key.startswith("opt_"):
                raw_opts[key[4:]] = req.arg(key).strip()
        try:
            opts = catalog.normalize_options(p, raw_opts)
        except ValueError as e:
            return ctx.message_redirect(back, str(e), "error")
        qty, err = parse_qty(req.arg("qty"))
        if qty is None:
            return ctx.message_redirect(back, err, "error")
        key = _opts_key(opts)
        with ctx.store.transaction():
            row = ctx.store.query_one("SELECT line, qty FROM shop_cart WHERE session = ? AND product_id = ? AND"
                                      " store_id = ? AND options = ?", (ctx.session, pid, sid, key))
            if row is not None:
                if row["qty"] + qty > MAX_QTY:
                    return ctx.message_redirect(back, f"You can have at most {MAX_QTY} of one item in your cart.",
                                                "error")
                ctx.store.execute("UPDATE shop_cart SET qty = ? WHERE session = ? AND line = ?",
                                  (row["qty"] + qty, ctx.session, row["line"]))
            else:
                nxt = ctx.store.query_one("SELECT COALESCE(MAX(line), 0) + 1 AS n FROM shop_cart WHERE session = ?",
                                          (ctx.session,))
                ctx.store.execute("INSERT INTO shop_cart VALUES (?, ?, ?, ?, ?, ?)",
                                  (ctx.session, nxt["n"] if nxt else 1, pid, sid, key, qty))
        what = p["name"] + (f" ({catalog.option_text(p, opts)})" if p["options"] else "")
        return ctx.message_redirect(back, f"Added {qty} × {what} from {s['name']} to your cart.")

    def _line(self, ctx: Ctx) -> tuple[dict[str, Any] | None, str]:
        line = parse_int(ctx.req.arg("line"))  # (the cart's line numbers are SQLite INTEGERs)
        if line is None:
            return None, "That cart line does not exist."
        row = ctx.store.query_one("SELECT * FROM shop_cart WHERE session = ? AND line = ?", (ctx.session, line))
        return (row, "") if row else (None, "That cart line does not exist (it may have been removed).")

    def cart_update(self, ctx: Ctx) -> Response:
        """Set the quantity of a cart line and redirect to the cart."""
        back = f"{self.prefix}/cart"
        row, err = self._line(ctx)
        if row is None:
            return ctx.message_redirect(back, err, "error")
        qty, err = parse_qty(ctx.req.arg("qty"))
        if qty is None:
            return ctx.message_redirect(back, err + " To delete an item, use Remove.", "error")
        ctx.store.execute("UPDATE shop_cart SET qty = ? WHERE session = ? AND line = ?", (qty, ctx.session, row["line"]))
        p = catalog.product(row["product_id"])
        return ctx.message_redirect(back, f"Quantity of {p['name'] if p else row['product_id']} set to {qty}.")

    def cart_remove(self, ctx: Ctx) -> Response:
        """Delete a cart line and redirect to the cart."""
        back = f"{self.prefix}/cart"
        row, err = self._line(ctx)
        if row is None:
            return ctx.message_redirect(back, err, "error")
        ctx.store.execute("DELETE FROM shop_cart WHERE session = ? AND line = ?", (ctx.session, row["line"]))
        p = catalog.product(row["product_id"])
        return ctx.message_redirect(back, f"Removed {p['name'] if p else row['product_id']} from your cart.")

    def checkout(self, ctx: Ctx) -> Response:
        """Place an order for one store's cart lines within budget, queue kitchen deliveries, and redirect to it."""
        back = f"{self.prefix}/cart"
        sid = ctx.req.arg("store").strip()
        s = catalog.store(sid)
        lines = self._cart_lines(ctx)
        if not lines:
            return ctx.message_redirect(back, "Your cart is empty: add a product before checking out.", "error")
        if s is None:
            return ctx.message_redirect(back, "Choose which store's items to check out.", "error")
        mine = [ln for ln in lines if ln["store_id"] == sid]
        if not mine:
            return ctx.message_redirect(back, f"Your cart has no items from {s['name']}.", "error")
        delivery = ctx.req.arg("delivery").strip()
        if delivery not in DELIVERY:
            return ctx.message_redirect(back, f"Choose “{DELIVERY['kitchen']}” or “{DELIVERY['pickup']}” for your"
                                              f" order from {s['name']}.", "error")
        gone = [ln["product"]["name"] for ln in mine if ln["unit_cents"] is None]
        if gone:
            return ctx.message_redirect(back, f"{s['name']} no longer has {', '.join(gone)} in stock; remove it"
                                              " to check out.", "error")
        total = sum(ln["line_cents"] for ln in mine)
        budget = self._budget(ctx)
        if budget is not None and total > budget["remaining"]:
            return ctx.message_redirect(back, f"The order total {money(total)} is more than your remaining budget"
                                              f" of {money(budget['remaining'])}.", "error")
        with ctx.store.transaction():
            n = ctx.store.query_one("SELECT COUNT(*) AS n FROM shop_orders WHERE session = ?", (ctx.session,))
            seq = (n["n"] if n else 0) + 1
            oid = f"ORD-{seq:05d}"
            ctx.store.execute("INSERT INTO shop_orders (session, seq, order_id, store_id, delivery, total_cents, at)"
                              " VALUES (?, ?, ?, ?, ?, ?, ?)",
                              (ctx.session, seq, oid, sid, delivery, total, ctx.now))
            for idx, ln in enumerate(mine):
                p = ln["product"]
                ctx.store.execute("INSERT INTO shop_order_items VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                  (ctx.session, oid, idx, p["product_id"], p["name"], p["object_type"],
                                   _opts_key(ln["options"]), ln["qty"], ln["unit_cents"]))
                ctx.store.execute("DELETE FROM shop_cart WHERE session = ? AND line = ?", (ctx.session, ln["line"]))
                if delivery == "kitchen":
                    for _ in range(catalog.delivery_units(p, ln["options"], ln["qty"])):
                        ctx.app.add_delivery(ctx.session, oid, {"object_type": p["object_type"],
                                                                "product_id": p["product_id"], "name": p["name"],
                                                                "qty": 1})
        how = ("It will be delivered to your kitchen." if delivery == "kitchen"
               else f"Pick it up at {s['name']}, {s['address']}.")
        return ctx.message_redirect(f"{self.prefix}/orders/{oid}", f"Thank you! Order {oid} is placed. {how}")

    def cancel_order(self, ctx: Ctx) -> Response:
        """Cancel one of the session's orders: it stays listed as cancelled, its total is released from the
        budget and its deliveries not yet in the kitchen are withdrawn; redirect to it with a status line."""
        oid = ctx.req.arg("order_id").strip()
        if not oid:
            return ctx.message_redirect(f"{self.prefix}/orders", "Choose an order to cancel.", "error")
        o = ctx.store.query_one("SELECT * FROM shop_orders WHERE session = ? AND order_id = ?", (ctx.session, oid))
        if o is None:
            return ctx.message_redirect(f"{self.prefix}/orders", f"There is no order '{oid[:40]}' in your account to"
                                                                 " cancel.", "error")
        back = f"{self.prefix}/orders/{oid}"
        if o["status"] == "cancelled":
            return ctx.message_redirect(back, f"Order {oid} is already cancelled.", "error")
        if o["status"] == "collected":
            s = catalog.store(o["store_id"])
            return ctx.message_redirect(back, f"Order {oid} has already been picked up at "
                                              f"{s['name'] if s else o['store_id']}; it can no longer be cancelled.",
                                        "error")
        if o["delivery"] == "kitchen" and self._delivered(ctx, oid):
            return ctx.message_redirect(back, f"Order {oid} has already been delivered to your kitchen; it can no"
                                              " longer be cancelled.", "error")
        with ctx.store.transaction():
            ctx.store.execute("UPDATE shop_orders SET status = 'cancelled', cancelled_at = ? WHERE session = ? AND"
                              " order_id = ?", (ctx.now, ctx.session, oid))
            ctx.store.execute("UPDATE deliveries SET delivered = -1 WHERE session = ? AND order_id = ? AND"
                              " delivered = 0", (ctx.session, oid))
        s = catalog.store(o["store_id"])
        return ctx.message_redirect(back, f"Order {oid} from {s['name'] if s else o['store_id']} is cancelled;"
                                          f" {money(o['total_cents'])} is released.")


def shown_status(order: dict[str, Any], delivered: bool) -> str:
    """The status an order's page and the order list show, from the session's state: "Cancelled", "Collected at
    <store>", "Delivered to your kitchen" once a kitchen order's items reached the kitchen (the same test that
    refuses to cancel it), else "Placed". Until stop 39 a delivered order still showed "Placed"."""
    if order["status"] == "cancelled":
        return "Cancelled"
    if order["status"] == "collected":
        s = catalog.store(order["store_id"])
        return f"Collected at {s['name'] if s else order['store_id']}"
    if order["delivery"] == "kitchen" and delivered:
        return "Delivered to your kitchen"
    return "Placed"


SITE = ShopSite()
