"""The hard tier of EWA-Shopping-v0 (``level="hard"``, ``data/shopping/hard.jsonl``) and the level plumbing.

The oracle solves every hard task through the public interface; an order that gets one hard thing wrong
(quantity, option, budget, a store out of stock) fails; unknown levels and envs without hard tasks are
errors that say so; the standard tier's ids, trace digests and suite version are as before levels existed.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401  (registers the envs)
from baselines.registry import make_agent
from embodiedweb.domains.base import Episode
from embodiedweb.domains.outdoor.shopping import ShoppingDomain, ShoppingOracle
from embodiedweb.episodes import run_episode
from embodiedweb.registration import spec_for
from embodiedweb.tasks import Task, TaskError, load_tasks
from web_sites.shop import catalog

SHOP = "EWA-Shopping-v0"
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def env():
    e = gym.make(SHOP, level="hard")
    yield e
    e.close()


@pytest.fixture(scope="module")
def hard_tasks() -> list[Task]:
    """The single-purchase hard tasks (the errands that follow them: ``test_errands.py``; the baskets:
    ``test_basket_errands.py``)."""
    return [t for t in load_tasks(spec_for(SHOP).level_tasks_path("hard"), ShoppingDomain().validate_task)
            if "errands" not in t.goal and "basket" not in t.goal]


class Variant(ShoppingOracle):
    """The oracle's plan with one thing changed: the store, the options or the quantity it orders; it then
    walks to the goal store, so only the order can be at fault."""

    def __init__(self, task: Task, store: str | None = None, options: dict[str, str] | None = None,
                 qty: int | None = None) -> None:
        super().__init__(task)
        g = task.goal
        self.store = store or g["store_id"]
        self.options = dict(g["options"]) if options is None else options
        self.qty = g["qty"] if qty is None else qty

    def plan(self) -> Any:
        g = self.task.goal
        yield from self.order_at(self.store, "pickup", self.options, self.qty)
        yield from self.ask_directions(catalog.store(g["store_id"])["name"])
        yield from self.walk_to(g["store_node"])
        yield "stop"


def play(env: Any, agent: Any, task_id: str) -> dict[str, Any]:
    """One episode of a script agent; the final metrics and the shop's orders."""
    obs, info = env.reset(seed=0, options={"task_id": task_id})
    agent.reset(env, obs, info)
    done = False
    while not done:
        obs, _, term, trunc, info = env.step(agent.act(obs, info))
        done = term or trunc
    return {**info["metrics"], "orders": env.unwrapped.webapp.snapshot(env.unwrapped.session)["shop"]["orders"]}


def first(tasks: list[Task], rule: str | None = None, split: str = "test") -> Task:
    return next(t for t in tasks if t.split == split and (rule is None or t.goal["rule"] == rule))


# the suite ------------------------------------------------------------------------------------------------
def test_hard_suite_shape(hard_tasks):
    assert len(hard_tasks) == 120
    assert [t.task_id for t in hard_tasks] == [f"shop-hard-{i:03d}" for i in range(120)]
    assert sum(t.split == "test" for t in hard_tasks) == 60
    from collections import Counter

    from embodiedweb.data_gen.hard_shopping import HARD_RULE_COUNTS, NUMBER_RULES

    assert Counter((t.goal["rule"], t.split) for t in hard_tasks) == {
        (r, sp): n // 2 for r, n in HARD_RULE_COUNTS.items() for sp in ("train", "test")}
    all_stocked = number_gone = 0
    for t in hard_tasks:
        g, p = t.goal, catalog.product(t.goal["product_id"])
        assert g["options"] != catalog.default_options(p), t.task_id  # an option that is not the default
        assert 2 <= g["qty"] <= 5
        shop = t.web["sites"]["shop"]
        assert shop["budget"] == g["budget"]
        gone = {s for s, pid in shop["out_of_stock"] if pid == g["product_id"]}
        # stock differs by store, the answer has it (a budget or a radius: some tasks, of products four stores sell,
        # see NUMBER_RULES)
        assert (gone or g["rule"] in NUMBER_RULES) and g["store_id"] not in gone
        assert len(catalog.stores_selling(g["product_id"])) == 4 or g["rule"] not in NUMBER_RULES
        all_stocked += not gone
        number_gone += bool(gone) and g["rule"] in NUMBER_RULES
        total = round(catalog.price(g["product_id"], g["store_id"], g["options"]) * g["qty"], 2)
        assert total <= g["budget"], t.task_id  # the right order fits the budget
        assert f"{g['qty']} ×" in t.instruction and catalog.option_text(p, g["options"]) in t.instruction
    # a store out of stock in most tasks still, and in some of those with a budget or a radius (14 of 60 at stop 33)
    assert all_stocked <= 0.4 * len(hard_tasks) and number_gone >= 10, (all_stocked, number_gone)


def test_generator_is_deterministic():
    """``--check``: the generator writes the shipped file byte for byte."""
    r = subprocess.run([sys.executable, "-m", "embodiedweb.data_gen.hard_shopping", "--check"], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr


def test_oracle_solves_every_hard_task(hard_tasks):
    """Through the public interface (actions only), every hard task, both splits."""
    e = gym.make(SHOP, level="hard")
    agent = make_agent("oracle")
    try:
        for i, t in enumerate(hard_tasks):
            rec = run_episode(e, agent, t.task_id, seed=i)
            assert rec["metrics"]["overall"] and rec["metrics"]["completion"] == 1.0, (t.task_id, rec["metrics"])
            assert rec["metrics"]["qty_ordered"] == t.goal["qty"] and rec["level"] == "hard"
    finally:
        e.close()


def test_perturbed_oracle_fails(env, hard_tasks):
    tests = [t for t in hard_tasks if t.split == "test"][:12]
    for i, t in enumerate(tests):
        m = play(env, ShoppingDomain().oracle(t, perturb=random.Random(i)), t.task_id)
        assert not m["overall"], t.task_id


# one hard thing wrong -------------------------------------------------------------------------------------
def test_right_order_passes(env, hard_tasks):
    t = first(hard_tasks)
    m = play(env, Variant(t), t.task_id)
    assert m["overall"] and m["qty_ordered"] == t.goal["qty"]


@pytest.mark.parametrize("delta", [-1, 1])
def test_wrong_quantity_fails(env, hard_tasks, delta):
    def fits(t: Task) -> bool:  # the shop takes the wrong quantity too: the checker has to catch it
        g = t.goal
        return catalog.price(g["product_id"], g["store_id"], g["options"]) * (g["qty"] + delta) <= g["budget"]

    t = next(t for t in hard_tasks if t.split == "test" and fits(t))
    m = play(env, Variant(t, qty=t.goal["qty"] + delta), t.task_id)
    assert len(m["orders"]) == 1  # an order was placed, at the right store, for pickup
    assert m["qty_ordered"] == t.goal["qty"] + delta
    assert not m["web"] and not m["overall"] and m["embodied"]


def test_default_option_fails(env, hard_tasks):
    """The options the product page preselects (the first choice of each group) are not the ones asked."""
    t = first(hard_tasks)
    m = play(env, Variant(t, options=catalog.default_options(catalog.product(t.goal["product_id"]))), t.task_id)
    assert len(m["orders"]) == 1 and not m["web"] and not m["overall"]


def test_out_of_stock_store_fails(env, hard_tasks):
    """A store that is out of the product today refuses it: no order, no pass."""
    t = next(t for t in hard_tasks if t.split == "test" and t.web["sites"]["shop"]["out_of_stock"])
    gone = t.web["sites"]["shop"]["out_of_stock"][0][0]
    m = play(env, Variant(t, store=gone), t.task_id)
    assert m["orders"] == [] and not m["web"] and not m["overall"]


def test_over_budget_store_fails(env, hard_tasks):
    """In a budget task, the nearest store with stock is over the budget: the shop refuses the order."""
    t = first(hard_tasks, "nearest_in_budget")
    g = t.goal
    gone = {s for s, _ in t.web["sites"]["shop"]["out_of_stock"]}
    over = [s for s in catalog.stores_selling(g["product_id"]) if s not in gone
            and catalog.price(g["product_id"], s, g["options"]) * g["qty"] > g["budget"]]
    assert over
    m = play(env, Variant(t, store=over[0]), t.task_id)
    assert m["orders"] == [] and not m["web"] and not m["overall"]


# a slip corrected: cancel the wrong order, order the right one ---------------------------------------------
class Corrects(Variant):
    """Orders one thing wrong (``store``, ``options`` or ``qty`` as :class:`Variant` takes them), cancels that
    order on its page with the "Cancel order" button unless ``cancel`` is false, then orders what was asked and
    walks to the goal store: the genuine alternative of an agent that notices its slip."""

    def __init__(self, task: Task, cancel: bool = True, **wrong: Any) -> None:
        super().__init__(task, **wrong)
        self.cancel = cancel
        self.cancelled: list[str] = []

    def plan(self) -> Any:
        import re

        from embodiedweb.agents.script import find_bid

        g = self.task.goal
        yield from self.order_at(self.store, "pickup", self.options, self.qty)
        m = re.search(r"heading 'Order (ORD-\d+)'", self.obs["web_text"])
        assert m, self.obs["web_text"][:800]
        if self.cancel:
            yield f"goto [/shop/orders/{m.group(1)}]"
            yield f"click [{find_bid(self.obs['web_text'], 'button', f'Cancel order {m.group(1)}')}]"
            assert f"Order {m.group(1)} from" in self.obs["web_text"], self.obs["web_text"][:800]
            self.cancelled.append(m.group(1))
        yield from self.order_at(g["store_id"], "pickup", g["options"], g["qty"])
        yield from self.ask_directions(catalog.store(g["store_id"])["name"])
        yield from self.walk_to(g["store_node"])
        yield "stop"


def _slips(t: Task) -> dict[str, dict[str, Any]]:
    """The wrong orders a slip can place on task ``t`` that the shop takes (in stock, within the budget)."""
    g = t.goal
    gone = {s for s, pid in t.web["sites"]["shop"]["out_of_stock"] if pid == g["product_id"]}
    p = catalog.product(g["product_id"])
    group = next(gr for gr in p["options"] if gr["name"] in g["options"])
    other = next(c["value"] for c in group["choices"] if c["value"] != g["options"][group["name"]])
    out = {"option": {"options": {**g["options"], group["name"]: other}}, "qty": {"qty": g["qty"] + 1}}
    stores = [s for s in catalog.stores_selling(g["product_id"]) if s != g["store_id"] and s not in gone]
    out["store"] = {"store": stores[0]} if stores else {}
    return {k: v for k, v in out.items() if v and _fits(t, **v)}


def _fits(t: Task, store: str | None = None, options: dict[str, str] | None = None, qty: int | None = None) -> bool:
    g = t.goal
    return catalog.price(g["product_id"], store or g["store_id"], options or g["options"]) * (qty or g["qty"]) \
        <= g["budget"] + 1e-9


@pytest.mark.parametrize("slip", ["option", "store", "qty"])
def test_a_cancelled_slip_then_the_right_order_passes(env, hard_tasks, slip):
    """Through env.step: a wrong option, store or quantity ordered, cancelled on its page, then the right order:
    passes on every test task where the shop takes the slip (0 passed while the shop could not cancel); the
    same slip left standing fails."""
    tasks = [t for t in hard_tasks if t.split == "test" and slip in _slips(t)][:8]
    assert len(tasks) >= 4
    for t in tasks:
        agent = Corrects(t, **_slips(t)[slip])
        m = play(env, agent, t.task_id)
        assert m["overall"] and m["completion"] == 1.0, (t.task_id, m)
        assert [o["status"] for o in m["orders"]] == ["cancelled", "collected"] and agent.cancelled == ["ORD-00001"]
        assert m["spent"] == m["orders"][1]["total"]  # the cancelled order spent nothing
    t = tasks[0]
    kept = play(env, Corrects(t, cancel=False, **_slips(t)[slip]), t.task_id)
    assert not kept["web"] and not kept["overall"]


def test_cancelling_releases_the_budget_for_the_right_order(env, hard_tasks):
    """A slip that takes most of the budget: the right order is refused while the slip stands, and taken once the
    slip is cancelled (the shop releases its total)."""
    def blocks(t: Task, wrong: dict[str, Any]) -> bool:
        g = t.goal
        slip = catalog.price(g["product_id"], wrong.get("store") or g["store_id"], wrong.get("options") or g["options"]) \
            * (wrong.get("qty") or g["qty"])
        right = catalog.price(g["product_id"], g["store_id"], g["options"]) * g["qty"]
        return slip + right > g["budget"] + 1e-9

    t, wrong = next((t, w) for t in hard_tasks if t.split == "test" for w in _slips(t).values() if blocks(t, w))
    kept = play(env, Corrects(t, cancel=False, **wrong), t.task_id)
    assert len(kept["orders"]) == 1 and not kept["overall"]  # the shop refused the right order: over budget
    fixed = play(env, Corrects(t, **wrong), t.task_id)
    assert fixed["overall"] and [o["status"] for o in fixed["orders"]] == ["cancelled", "collected"], fixed


def _episode(goal: dict[str, Any], orders: list[dict[str, Any]]) -> Episode:
    t = Task(task_id="t", env_id=SHOP, instruction="i", goal=goal)
    return Episode(task=t, world_state={"node": goal["store_node"], "path": [goal["store_node"]]},
                   web_state={"shop": {"orders": orders}}, answer="stop", steps=1, switches=0)


def test_checker_rules_on_end_states(hard_tasks):
    """The checker alone: exact quantity, no item with other options anywhere, spending within the budget."""
    t = first(hard_tasks)
    g = t.goal
    unit = catalog.price(g["product_id"], g["store_id"], g["options"])

    def order(qty: int, options: dict[str, str] | None = None, total: float | None = None) -> dict[str, Any]:
        return {"order_id": "ORD-00001", "store_id": g["store_id"], "delivery": "pickup",
                "items": [{"product_id": g["product_id"], "options": options or g["options"], "qty": qty}],
                "total": round(unit * qty, 2) if total is None else total}

    d = ShoppingDomain()
    assert d.check(_episode(g, [order(g["qty"])]))["web"]
    assert not d.check(_episode(g, [order(g["qty"] + 1)]))["web"]
    no_budget = {k: v for k, v in g.items() if k != "budget"}  # (so that only the option is at fault)
    wrong = catalog.default_options(catalog.product(g["product_id"]))
    assert d.check(_episode(no_budget, [order(g["qty"])]))["web"]
    assert not d.check(_episode(no_budget, [order(g["qty"]), order(1, wrong)]))["web"]  # an extra wrong-option item
    # one more unit of the very item, delivered to the kitchen from the same store: more than asked (red team)
    delivered = {**order(1), "order_id": "ORD-00002", "delivery": "kitchen"}
    assert not d.check(_episode(no_budget, [order(g["qty"]), delivered]))["web"]
    m = d.check(_episode(g, [order(g["qty"], total=g["budget"] + 0.01)]))
    assert not m["web"] and m["spent"] == round(g["budget"] + 0.01, 2)
    # cancelled orders count for nothing (shopping checker version 8): not the purchase, not an extra, not spending
    def cancelled(o: dict[str, Any]) -> dict[str, Any]:
        return {**o, "order_id": "ORD-00009", "status": "cancelled", "cancelled_at": 9}

    assert d.check(_episode(no_budget, [cancelled(order(1, wrong)), order(g["qty"])]))["web"]
    assert d.check(_episode(g, [cancelled(order(g["qty"], total=g["budget"])), order(g["qty"])]))["web"]
    m = d.check(_episode(g, [cancelled(order(g["qty"]))]))
    assert not m["web"] and m["spent"] == 0 and m["qty_ordered"] == 0
    # a standard goal (no qty, no budget) asks for one unit ("buy one"; shopping checker version 4: seven passed
    # before), and has no extra metrics
    std = {k: v for k, v in g.items() if k not in ("qty", "budget")}
    m = d.check(_episode(std, [order(1)]))
    assert m["web"] and "qty_ordered" not in m and "spent" not in m
    assert not d.check(_episode(std, [order(7)]))["web"]


def test_hard_task_validation_names_task_and_field(tmp_path, hard_tasks):
    rec = hard_tasks[0].to_json()
    for field, value, where in (("qty", 0, "goal.qty"), ("qty", "3", "goal.qty"), ("budget", -1, "goal.budget"),
                                ("options", {"size": "huge"}, "goal.options")):
        bad = {**rec, "goal": {**rec["goal"], field: value}}
        path = tmp_path / "hard.jsonl"
        path.write_text(json.dumps(bad) + "\n")
        with pytest.raises(TaskError) as e:
            load_tasks(path, ShoppingDomain().validate_task)
        assert "'shop-hard-000'" in str(e.value) and f"field '{where}'" in str(e.value), str(e.value)


# levels -------------------------------------------------------------------------------------------------------
def test_level_errors():
    with pytest.raises(gym.error.Error, match="unknown level 'expert': the levels are standard, hard"):
        gym.make(SHOP, level="expert")
    with pytest.raises(gym.error.Error, match="EWA-Assistant-v0 has no hard tasks"):
        gym.make("EWA-Assistant-v0", level="hard")
    with pytest.raises(gym.error.Error, match="standard tier only"):
        gym.make(SHOP, level="hard", curriculum=0)


def test_cli_level_errors():
    def ewa(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "embodiedweb.cli", "eval", "--no-progress", *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=300)

    r = ewa("--env", SHOP, "--level", "expert")
    assert r.returncode == 2 and "invalid choice: 'expert'" in r.stderr and "'hard'" in r.stderr
    r = ewa("--env", "EWA-Assistant-v0", "--level", "hard")
    assert r.returncode == 2 and "EWA-Assistant-v0 has no hard tasks" in r.stderr


def test_levels_in_versions_and_records(tmp_path):
    from embodiedweb.evaluate import evaluate

    std, hard = gym.make(SHOP), gym.make(SHOP, level="hard")
    try:
        assert std.unwrapped.level == "standard" and hard.unwrapped.level == "hard"
        assert hard.unwrapped.suite_version.endswith("-hard") and std.unwrapped.suite_version.count("-") == 1
        assert {t.task_id for t in std.unwrapped.tasks}.isdisjoint(t.task_id for t in hard.unwrapped.tasks)
        assert gym.make(SHOP, level="standard").unwrapped.suite_version == std.unwrapped.suite_version
    finally:
        std.close()
        hard.close()
    _, recs = evaluate([SHOP], "oracle", limit=2, env_kwargs={"level": "hard"}, progress=False,
                       out=tmp_path / "r.jsonl")
    assert len(recs) == 2 and all(r["level"] == "hard" and r["selection"]["level"] == "hard"
                                  and r["split"] == "test" and r["task_id"].startswith("shop-hard-") for r in recs)
    assert all(r["suite_version"].endswith("-hard") for r in recs)


#: oracle trace digests of standard tasks measured before levels existed (``ewa eval --env all --agent oracle
#: --split all``, the task's seed); the standard tier must be byte for byte what it was. Moved in stop 28, when
#: the kitchen's state gained each object's placedAt (cooking checker version 3), and in stop 29, when the
#: street world's state gained the step each node of the path was reached at (``path_at``), the map's
#: directions, the shop's orders the step they were made at (``at``) and the wiki the search results it showed
#: (``shown``), for the checkers' timing rules: with those fields left out of the states (and the navigation
#: checker's arrival rule off, which needs them) the traces give the earlier digests, pinned in the comments;
#: and in stop 31, when the shopping tasks were regenerated (the shopping lines are other tasks since) and the
#: recipe steps put "Next" before "Previous"; and in stop 32, when the shop's order page gained its status line and
#: "Cancel order" button and the snapshot's orders "status" and "cancelled_at", pages kept the same element ids (a
#: hidden status line on every page, a run of text after a link an element of its own), and the shopping tasks were
#: regenerated once more (the shopping lines are other tasks since); and in stop 37, when the shop's orders gained
#: "collected_at" and a pickup the walk reached became "collected" (with the field and the env's pickup sync left
#: out, the shopping traces and the kitchen-delivery cooking one give the earlier digests, pinned in the comments)
STANDARD_DIGESTS = {
    ("EWA-Shopping-v0", "shop-000", 0): "9410d153948af2fff50410c0b154545a44d0187d73dd6dcd547bb20acc28ddda",  # c40b20f6
    ("EWA-Shopping-v0", "shop-001", 1): "cbab701a59c06fdea7fa75ae2b4cae330815a27b36851452aac777b79077bc7f",  # 7402dd65
    ("EWA-Shopping-v0", "shop-117", 117): "97336720561dcf03d57ee34c475e2b225a4167c730743d610990f13437260405",  # 3427c880
    ("EWA-Navigation-v0", "nav-000", 0): "2aafcdaeeb8217d09c21c121f689a891a87b12c75708123e037a8c8d0dc05729",  # 3e4480f3
    ("EWA-Traveling-v0", "travel-003", 3): "fa427555261a120336b8bf67dc3a1ce0d82acd303ab585c7613e57134d3dc201",  # fda1c92e
    # (before stop 28: c156da8e..., 3cc023bc...; stop 31 regenerated the shopping tasks and put the recipe steps'
    # "Next" before "Previous": aa3db747..., 7bf0a874..., 2a4595cf..., f3281a79..., db3e584a...; before stop 32's
    # order page and element ids: a0080c88..., b9d4ddc6..., c3760588..., 4ab668d8..., 7adda106...; the two cooking
    # ones moved in stop 33 with the slice step's text, "... with a knife where it lies or on a counter top, not on
    # the plate" (with the recipes as they were before it, the cooking checker 6 and the kitchen's pot event give
    # the old digests: aa0f60e0..., bd02223c...)
    # (both cooking digests moved in stop 38 with cooking checker 8: the kitchen records food heated in the frying
    # pan, "heated:StoveBurner:Pan", and the checker reads it; with stop 37's cooking checker, domain and kitchen
    # code they are 9f58a8b9... and e4d4e8b0... again)
    ("EWA-Cooking-v0", "cooking-r001-0", 0): "d6dab8d238504d0c32ed6ff1d7996eb86c24c0334e4cd8d1220d7f9c31e06905",
    # (cooking-r001-3 orders to the kitchen: its digest moved in stop 37 with the orders' "collected_at", fb8fe9c4...
    # without it)
    ("EWA-Cooking-v0", "cooking-r001-3", 3): "ed4bd9809a5ccf3455d80bed9af3b5347e7d9b9cae69fc7e47f89f30464df3a8",
}


_DIGEST_SCRIPT = """
import json, sys
import gymnasium as gym
import embodiedweb
from baselines.registry import make_agent
from embodiedweb.episodes import run_episode
out = []
for env_id, task_id, seed in json.loads(sys.argv[1]):
    e = gym.make(env_id, level="standard")
    rec = run_episode(e, make_agent("oracle"), task_id, seed=seed)
    e.close()
    out.append([rec["trace_digest"], rec["level"], bool(rec["metrics"]["overall"])])
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def standard_runs():
    """The oracle's records of the standard tasks, run in a fresh process: the digests are of the suite as a
    user gets it, whatever other tests added to this process's web app (e.g. the line world's form lab)."""
    keys = sorted(STANDARD_DIGESTS)
    root = Path(__file__).resolve().parents[3]
    r = subprocess.run([sys.executable, "-c", _DIGEST_SCRIPT, json.dumps(keys)], capture_output=True, text=True,
                       cwd=root, env={**os.environ, "PYTHONPATH": str(root)}, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    return dict(zip(keys, json.loads(r.stdout.strip().splitlines()[-1]), strict=True))


@pytest.mark.parametrize("key", sorted(STANDARD_DIGESTS))
def test_standard_digests_unchanged(key, standard_runs):
    digest, level, overall = standard_runs[key]
    assert digest == STANDARD_DIGESTS[key] and level == "standard" and overall


def test_standard_shopping_suite_version_unchanged():
    """The hard task file is no part of the standard tier's world digest (task files are left out). (The checker
    version went from 1 to 2 with the hard tier's quantity rule, to 3 with the answer judge's decimal comma and to 4
    with stop 29's exact purchase and errand timing rules, to 5 with clock times in words (the digest moved with
    that stop's country articles), to 6 with stop 30's hedges in words, bare hours and margins, and to 7 with stop
    31's free-standing hours (the standard tasks were regenerated then, per-rule balance), to 8 with stop 32's
    cancelled orders (the standard tasks regenerated again: d28d725c594e until then), and to 9 with stop 33's
    traveling judge version 8 (an errand's number answer: denied values, other true facts, Roman years), and to 10
    with stop 34's traveling judge version 9 (names within one list item, hyphenated surnames written with a space
    or an en dash, denied options; the digest did not move: no task file or world text changed). In stop 35 the
    digest moved, c10-4c2ca462dab8 until then, with the wiki's lead sentences of its five educational institutions,
    "is a educational institution" now "is an educational institution" (data/wiki/articles.json, which every env's
    world digest covers; no task, world fact or trace digest changed), and the checker version went to 11 with
    stop 35's traveling judge version 10 (no name of two people's words, denied people), and to 12 with stop
    36's traveling judge version 11 (no word that is never a name read as an initial, durations), and to 13 with
    stop 38's traveling judge version 12 (a denial taken back in other words offers both), and to 14 with stop 39's
    traveling judge version 13 (an item of a list the judge cannot read is another value); in stop 39 the digest
    moved too (c14-ce103c7fd802 until then) with Novosibirsk's and Vladivostok's continents (data/geo). In stop 37
    (c12-5fc12894a1f9 until then) the digest moved with the geolocation cities' names in their countries' first
    script (data/geo, data/wiki/cues.json, which every env's world digest covers); in stop 38 (c12-f7cae4f7214d
    until then) with the geolocation start views that said one building twice (data/geo/standpoints.json). In stop
    33 the digest moved too, 7a73b45fc6cd until then: ten instructions' "a 800 m walk" became "an 800 m walk"
    (the same tasks otherwise), and the world data every env's world digest covers changed (the geolocation
    cities' abbreviations in data/geo and data/wiki/cues.json, the recipe texts in data/recipes); the
    digest, 02910e9d38ee until then, moved in stop 28 with the wiki's chain articles (data/wiki/cues.json) and the
    geolocation signs (data/geo/standpoints.json), which
    every env's world digest covers.)"""
    e = gym.make(SHOP)
    try:
        assert e.unwrapped.suite_version == "c14-6dd850b627a6"
    finally:
        e.close()


def test_errand_rules_say_where_distances_are_measured_from():
    """An errand's rules measure "nearest" and walks from the start (the checker does); the instruction says so
    (it said "where you are now", and an agent that measured from the store it had just reached failed 20 of
    60 buy-only errands, a fair reading of it)."""
    import json

    from embodiedweb.paths import data_dir

    tasks = [json.loads(line) for line in (data_dir() / "shopping" / "hard.jsonl").read_text("utf-8").splitlines()]
    errands = [t for t in tasks if t["goal"].get("rule") == "errands"]
    assert len(errands) == 80
    for t in errands:
        assert "measured from here, where you start" in t["instruction"] and "where you are now" not in t["instruction"]


def test_stores_learnt_per_rule_do_not_pick_the_store():
    """The train split's answers of each rule, most common first, tried past the stores out of stock (what an agent
    that learnt the tier would do without reading a price or a distance): they picked the store of 35 of the 60
    single test purchases (21 of 23 "nearest to a named place") and of every purchase of 24 of 40 test errands
    before the generator capped every order of the stores per rule (stop 30)."""
    from collections import Counter, defaultdict

    every = list(load_tasks(spec_for("EWA-Shopping-v0").level_tasks_path("hard"), ShoppingDomain().validate_task))
    buys = [(t, e) for t in every if "basket" not in t.goal
            for e in (t.goal.get("errands") or [dict(t.goal, kind="buy")]) if e["kind"] == "buy"]
    prior: dict[tuple[bool, str], Counter[str]] = defaultdict(Counter)
    for t, e in buys:
        if t.split == "train":
            prior[("errands" in t.goal, e["rule"])][e["store_id"]] += 1
    right: dict[str, bool] = {}
    single = 0
    for t, e in buys:
        if t.split != "test":
            continue
        shop = (t.web.get("sites") or {}).get("shop") or {}
        gone = {s for s, pid in shop.get("out_of_stock", []) if pid == e["product_id"]}
        sells = [s for s in catalog.stores_selling(e["product_id"]) if s not in gone]
        order = [s for s, _n in prior[("errands" in t.goal, e["rule"])].most_common()] + sorted(sells)
        pick = next(s for s in order if s in sells) == e["store_id"]
        right[t.task_id] = right.get(t.task_id, True) and pick
        single += pick and "errands" not in t.goal
    errands = [t for t in every if t.split == "test" and "errands" in t.goal and t.task_id in right]
    # a third: a blind guess among the three stores with stock (11 of 60 at stop 30, when the store a stock-blind
    # reading picks was always out of stock; 18 of 60 since stop 31, when it is not always, see below)
    assert single <= 60 / 3, single
    assert sum(right[t.task_id] for t in errands) <= 0.4 * len(errands), (sum(right[t.task_id] for t in errands), len(errands))


def test_no_rule_blind_pick_answers_much_of_one_rule():
    """Per rule and split, no rule-blind pick but the rule's own definition answers more than half of the single
    purchases (``RULE_RANK_CAP``): a rank by distance or price, a fixed store, a budget or a radius read without
    its number ("the nearest but the dearest", "the cheapest of the two nearest": ``CONDITION_READINGS``), a
    budget checked at the listed prices or for one item (``hard_picks``), and for the store nearest to a named
    place the place's own ranks (the store second nearest to it ...). A pick learnt per rule from train passed 38
    of 58 single test purchases until stop 31, when the store a stock-blind or budget-blind reading picks was
    always ruled out; until stop 33 "the nearest but the dearest" answered 17 of 19 budget test tasks (22 of 22
    train) and the store second nearest to the place 19 of 24 near-place test tasks. (The errands are held by
    their caps on orders of the stores: :func:`test_stores_learnt_per_rule_do_not_pick_the_store`.)"""
    from embodiedweb.data_gen.hard_shopping import DEFINITION, RANK_DEFINED, RULE_RANK_CAP
    from embodiedweb.data_gen.outdoor_tasks import CONDITION_READINGS
    from tests.domains.outdoor.rank_prior import learnt_picks, pick_shares

    every = list(load_tasks(spec_for("EWA-Shopping-v0").level_tasks_path("hard"), ShoppingDomain().validate_task))
    singles = [t for t in every if "errands" not in t.goal and "basket" not in t.goal]
    for split in ("train", "test"):
        for (_errand, rule), (counter, n) in pick_shares(singles, split).items():
            # (for the rules whose definition is a rank, as in the standard tier, not the readings of a number:
            # "the cheapest but the farthest" is mostly "the cheapest" itself)
            capped = {k: c for k, c in counter.items() if k not in DEFINITION.get(rule, ())
                      and not (rule in RANK_DEFINED and k.endswith(CONDITION_READINGS))}
            assert rule in RANK_DEFINED or any(k.endswith(CONDITION_READINGS) for k in capped)
            assert rule != "near_place_in_stock" or any(k.startswith("place ") for k in capped)
            if rule == "nearest_in_budget":
                assert "available nearest budget at listed prices" in capped
            worst = max(capped, key=capped.__getitem__)
            assert capped[worst] <= RULE_RANK_CAP * n, (split, rule, worst, capped[worst], n)
    # the pick learnt per rule from train, the readings and the place's ranks among them (but the definition of
    # the store nearest to a place, which reads the place's walking distances)
    learnt = learnt_picks(singles, ("place available nearest #1",))
    picked = [v for (_e, rule), v in learnt.items() if rule not in RANK_DEFINED]
    assert sum(r for _p, r, _n in picked) <= RULE_RANK_CAP * sum(n for *_x, n in picked), picked


def test_a_lazy_reader_passes_at_most_the_caps():
    """The lazy agent L (:func:`tests.domains.outdoor.rank_prior.lazy_reader`: each rule's definition where a
    rule-blind pick is one, a budget read as "not the dearest", a radius as "not the farthest", the store learnt
    per named place from train, else the pick learnt per rule) passed 45 of the 60 single test purchases at stop
    32 (17 of 19 budget tasks). Now at most the caps allow: the rules defined by a rank, and half of each other
    rule's tasks (``RULE_RANK_CAP``); it names no test place train names (the places are split)."""
    from embodiedweb.data_gen.hard_shopping import HARD_RULE_COUNTS, RANK_DEFINED, RULE_RANK_CAP
    from tests.domains.outdoor.rank_prior import lazy_reader

    every = list(load_tasks(spec_for("EWA-Shopping-v0").level_tasks_path("hard"), ShoppingDomain().validate_task))
    got = lazy_reader(every)
    assert sum(r for r, _n in got.values()) <= sum(n if rule in RANK_DEFINED else RULE_RANK_CAP * n
                                                   for rule, (_r, n) in got.items()), got
    for rule, (right, n) in got.items():
        assert rule in RANK_DEFINED or right <= RULE_RANK_CAP * n, (rule, right, n)
        assert n == HARD_RULE_COUNTS[rule] // 2
