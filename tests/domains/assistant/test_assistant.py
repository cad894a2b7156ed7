"""EWA-Assistant-v0: turns delivered one at a time, judged at ``done``, teacher forcing, the suite's shape."""

from __future__ import annotations

import random

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401  (registers the envs)
from embodiedweb.episodes import run_episode
from tests.redteam import suite

ENV = "EWA-Assistant-v0"


@pytest.fixture(scope="module")
def tasks():
    return suite(ENV)


@pytest.fixture()
def env():
    e = gym.make(ENV, max_steps=600)
    yield e
    e.close()


def _oracle(env, task, perturb=None):
    agent = env.unwrapped.domain.oracle(task, perturb)
    obs, info = env.reset(seed=0, options={"task_id": task.task_id})
    agent.reset(env, obs, info)
    seen = [obs]
    while True:
        obs, _, term, trunc, info = env.step(agent.act(obs, info))
        seen.append(obs)
        if term or trunc:
            return agent, seen, info


def test_the_suite_has_the_issue_s_shape(tasks):
    assert len(tasks) >= 300
    assert {t.split for t in tasks} == {"train", "test"}
    n = [len(t.goal["turns"]) for t in tasks]
    assert min(n) >= 4 and max(n) <= 12
    assert sum(any(x["refers"] for x in t.goal["turns"]) for t in tasks) >= len(tasks) / 2
    assert sum(any(x["grounded"] for x in t.goal["turns"]) for t in tasks) >= len(tasks) / 3


def test_the_generator_gives_the_shipped_file():
    from embodiedweb.data_gen import assistant_tasks
    from embodiedweb.paths import data_dir

    assert assistant_tasks.render(assistant_tasks.generate()) == \
        (data_dir() / "assistant" / "tasks.jsonl").read_text(encoding="utf-8")


def test_the_quickest_recipe_is_not_told_by_the_instruction_s_words(tasks):
    """A recipe look-up's answer needs the food at the place: the recipe quickest for the most foods under the
    kind asked (diet, level, equipment), opened without looking, is right on at most a quarter of the turns
    (about chance among the foods; before equipment and ties were part of the kind, every turn asked for the
    hard gluten-free recipe and one guess was right on 111 of 214); no other food's quickest is the answer's."""
    from collections import Counter

    from embodiedweb.data_gen.assistant_tasks import quickest_sets

    turns = [t["expect"] for task in tasks for t in task.goal["turns"] if t["kind"] == "recipe_grounded"]
    right = 0
    for e in turns:
        sets = quickest_sets(e["diet"], e["level"], e["equipment"])
        assert sorted(e["recipes"]) == list(sets[e["food"]])
        assert not [f for f, ids in sets.items() if f != e["food"] and set(ids) & set(e["recipes"])]
        right += Counter(r for ids in sets.values() for r in ids).most_common(1)[0][0] in e["recipes"]
    assert len(turns) >= 150 and right <= len(turns) / 4, (right, len(turns))
    assert len({e["food"] for e in turns}) >= 5


def test_the_first_result_is_no_better_than_a_coin_at_a_comparison(tasks):
    """A comparison turn ("Which of those two takes less time / has more steps?") is not answered by the first
    search result opened without looking: it is the answer on 35-65 % of each split's turns (until stop 33 the
    question always asked for less, and the first of two results sorted by name was the answer on 81 %: 112 of
    140 test turns), and the question asks for more on about half of them."""
    from web_sites.recipes import catalog as recipes

    for split in ("train", "test"):
        first = more = n = 0
        for task in (t for t in tasks if t.split == split):
            turns = {t["kind"]: t for t in task.goal["turns"]}
            if "compare" not in turns:
                continue
            n += 1
            first += recipes.get(turns["open_two"]["expect"]["recipes"][0])["name"] == turns["compare"]["expect"]["name"]
            more += " more " in f" {turns['compare']['text']} "
        assert n >= 100 and 0.35 * n <= first <= 0.65 * n, (split, first, n)
        assert 0.35 * n <= more <= 0.65 * n, (split, more, n)


def test_instructions_come_one_at_a_time(env, tasks):
    task = tasks[0]
    agent, seen, info = _oracle(env, task)
    texts = [t["text"] for t in task.goal["turns"]]
    assert seen[0]["instruction"] == texts[0]
    assert texts[1] not in seen[0]["dialogue"]  # later turns are not shown early
    shown = [o["instruction"] for o in seen]
    assert [t for i, t in enumerate(shown) if i == 0 or t != shown[i - 1]] == texts
    last = seen[-1]["dialogue"]
    assert all(t in last for t in texts) and last.count("You: done") == len(texts)
    assert "dialogue" in env.observation_space.spaces and env.observation_space.contains(seen[-1])
    m = info["metrics"]
    assert m["overall"] and m["turn_success"] == 1.0 and m["completion"] == 1.0 and m["turns_done"] == len(texts)


def test_stop_ends_early_and_the_rest_counts_as_wrong(env, tasks):
    task = tasks[0]
    env.reset(seed=0, options={"task_id": task.task_id})
    _, _, term, _, info = env.step("stop")
    assert term and not info["metrics"]["overall"] and info["metrics"]["turns_done"] == 0
    assert info["metrics"]["errors"]["domain"] + info["metrics"]["errors"]["reference"] + \
        info["metrics"]["errors"]["grounding"] == len(task.goal["turns"])


def test_done_is_refused_where_instructions_do_not_come_in_turns():
    e = gym.make("EWA-Navigation-v0")
    try:
        e.reset(seed=0)
        obs, *_ = e.step("done [x]")
        assert "not available in this environment" in obs["last_action_error"]
        assert "dialogue" not in obs
    finally:
        e.close()
    with pytest.raises(gym.error.Error, match="teacher_forcing"):
        gym.make("EWA-Cooking-v0", teacher_forcing=True)


@pytest.mark.parametrize("forcing", [True, False])
def test_teacher_forcing_scores_every_other_turn(tasks, forcing):
    """A perturbed oracle sabotages one turn per episode. With teacher forcing exactly the other turns
    score (the restore gives the next turns what a correct agent would have); without it, some episodes
    lose later turns too (their turns lean on the sabotaged one)."""
    e = gym.make(ENV, teacher_forcing=forcing, max_steps=600)
    rng = random.Random(5)
    sample = [t for t in tasks if t.split == "test"][:40]
    exact = later_lost = 0
    try:
        for task in sample:
            agent, _, info = _oracle(e, task, random.Random(rng.random()))
            ok = info["metrics"]["turns_ok"]
            k = agent.sabotaged
            want = [i != k for i in range(len(ok))]
            exact += ok == want
            later_lost += any(not v for i, v in enumerate(ok) if i > k)
    finally:
        e.close()
    if forcing:
        assert exact == len(sample)
    else:
        assert later_lost > 0


def test_same_seed_same_actions_same_trace(tasks):
    task = tasks[3]
    digests = []
    for _ in range(2):
        e = gym.make(ENV, teacher_forcing=True)
        try:
            _oracle(e, task, random.Random(1))
            digests.append(e.unwrapped.trace_digest())
        finally:
            e.close()
    assert digests[0] == digests[1]


def test_oracle_solves_every_task_and_random_none(tasks):
    from embodiedweb.registration import load_specs

    spec = next(s for s in load_specs() if s.id == ENV)
    e = gym.make(ENV)
    try:
        ok = 0
        for task in tasks:
            agent = spec.load_domain().oracle(task)
            ok += bool(run_episode(e, agent, task.task_id, seed=0)["metrics"]["overall"])
    finally:
        e.close()
    assert ok == len(tasks)


def test_a_bad_turn_names_the_field(tasks):
    from embodiedweb.domains.assistant import AssistantDomain
    from embodiedweb.tasks import TaskError

    bad = tasks[0].__class__(**{**tasks[0].__dict__, "goal": {"turns": [{"kind": "fly", "text": "x"}]}})
    with pytest.raises(TaskError, match=r"goal.turns\[0\].kind"):
        AssistantDomain().validate_task(bad)


@pytest.mark.parametrize("view", ["auto", "both"])
def test_first_person_view_where_the_episode_has_a_camera(tasks, view):
    """A kitchen episode shows the camera; an outing (the street has none) shows the top-down view in the
    same keys and shapes, with empty depth and masks, and never fails."""
    e = gym.make(ENV, render_images=True, embodied_view=view, embodied_depth=True, embodied_masks=True)
    try:
        home = next(t for t in tasks if t.embodied.get("world", "kitchen") == "kitchen")
        out = next(t for t in tasks if t.embodied.get("world") == "street")
        obs_home, _ = e.reset(seed=0, options={"task_id": home.task_id})
        assert obs_home["embodied_masks"].any() and obs_home["embodied_depth"].max() > 0
        obs_out, _ = e.reset(seed=0, options={"task_id": out.task_id})
        assert not obs_out["embodied_masks"].any() and obs_out["embodied_depth"].max() == 0
        assert e.observation_space.contains(obs_home) and e.observation_space.contains(obs_out)
        world = e.unwrapped.world
        assert (obs_out["embodied_image"] == e.unwrapped._fit(world.image((300, 300)), (300, 300))).all()
        obs_out, *_ = e.step("forward")
        assert e.observation_space.contains(obs_out)
    finally:
        e.close()


# ------------------------------------------------------------------------------ the checkers' rules
def _turns(tasks, kind):
    return [(t, x) for t in tasks for x in t.goal["turns"] if x["kind"] == kind]


def _world(*objects):
    """A kitchen's semantic state: ``(objectId, parent or None)`` each (its type is the id's first part)."""
    return {"objects": [{"objectId": oid, "objectType": oid.split("|")[0],
                         "parentReceptacles": list(parents) if isinstance(parents, tuple) else [parents] if parents else []}
                        for oid, parents in objects]}


_KITCHEN = (("Fridge|1", None), ("DiningTable|1", None), ("SinkBasin|1", None), ("Sink|1", None),
            ("CounterTop|1", None))


def _moved(dest, before, after, obj="Apple|1"):
    from embodiedweb.domains.assistant.checks import CHECKS

    e = {"object": obj, "dest": dest, "food": obj.split("|")[0]}
    return CHECKS["move_grounded"](e, {"world": _world(*_KITCHEN, *before)}, {"world": _world(*_KITCHEN, *after)}, "")


def test_a_place_answer_naming_any_other_place_of_the_city_fails(tasks):
    """Every place of the city is a candidate, not only those in sight: a list of every place of the kind asked
    (the one in sight among them) fails, and so does one more place of any kind; the name alone, in a sentence,
    passes."""
    from embodiedweb.domains.assistant.checks import CHECKS
    from embodiedweb.worlds.street.city import load_city

    city = load_city()
    seen = _turns(tasks, "name_seen")
    assert seen
    for _, x in seen:
        e = x["expect"]
        kind = city.places[e["place"]].category
        every = sorted(p.name for p in city.places.values() if p.category == kind)
        elsewhere = next(p.name for p in sorted(city.places.values(), key=lambda p: p.place_id)
                         if p.category != kind and p.name not in e["others"] and p.name not in e["name"])
        check = CHECKS["name_seen"]
        assert check(e, {}, {}, e["name"])["ok"] and check(e, {}, {}, f"That would be {e['name']}.")["ok"]
        if len(every) > 1:
            assert not check(e, {}, {}, ", ".join(every))["ok"], every
        assert not check(e, {}, {}, f"{e['name']} or {elsewhere}")["ok"]


def test_an_architect_answer_naming_any_other_architect_on_the_wiki_fails(tasks):
    """Every architect on the wiki is a candidate (the turn's ``others`` is empty): naming another one besides the
    right one fails, also by first and last name."""
    from embodiedweb.domains.assistant.checks import CHECKS

    check = CHECKS["fact_architect"]
    turns = _turns(tasks, "fact_architect")
    assert turns
    for _, x in turns:
        e = x["expect"]
        read = {"web": {"wiki": {"views": [e["place"]]}}}
        other = "Raymond Hood" if "Hood" not in e["name"] else "Cass Gilbert"
        assert check(e, {}, read, e["name"])["ok"]
        assert not check(e, {}, read, f"{e['name']}; {other}")["ok"]
        assert not check(e, {}, read, f"{e['name']} or Herbert Krapp")["ok"] or "Krapp" in e["name"]
    e = {"name": "Herbert J. Krapp", "others": [], "place": "x"}
    read = {"web": {"wiki": {"views": ["x"]}}}
    assert not check(e, {}, read, "Herbert J. Krapp, Henry Janeway Hardenbergh, Raymond Hood")["ok"]
    assert not check(e, {}, read, "Herbert Krapp or Henry Hardenbergh")["ok"]


def test_nothing_but_the_food_asked_for_may_be_put_into_the_destination():
    """Any object newly in the destination besides the target fails: food of another type, something put in a
    bowl that is there, something put into the sink when the basin was asked; what was there, or what is inside
    the target, does not count."""
    start = (("Apple|1", "CounterTop|1"), ("Tomato|1", "DiningTable|1"), ("Bowl|1", "Fridge|1"),
             ("Egg|1", "Fridge|1"))
    assert _moved("Fridge|1", start, [("Apple|1", "Fridge|1"), *start[1:]])["ok"]
    assert not _moved("Fridge|1", start, [("Apple|1", "Fridge|1"), ("Tomato|1", "Fridge|1"), *start[2:]])["ok"]
    nested = [("Apple|1", "Fridge|1"), ("Tomato|1", ("Bowl|1", "Fridge|1")), *start[2:]]
    assert not _moved("Fridge|1", start, nested)["ok"]
    sink = (("Apple|1", "CounterTop|1"), ("Tomato|1", "DiningTable|1"))
    assert not _moved("SinkBasin|1", sink, [("Apple|1", "SinkBasin|1"), ("Tomato|1", "Sink|1")])["ok"]
    assert _moved("Fridge|1", start, [("Apple|1", "Fridge|1"), start[1], ("Bowl|1", "Fridge|1"),
                                      ("Egg|1", ("Bowl|1", "Fridge|1"))])["ok"]  # moved about inside: was there


def test_the_sink_is_the_sink_or_its_basin():
    """"Put it into the sink": ``PutObject [Sink]`` and ``PutObject [SinkBasin]`` both do it; the fridge is not
    the sink."""
    start = (("Apple|1", "CounterTop|1"),)
    assert _moved("SinkBasin|1", start, [("Apple|1", "Sink|1")])["ok"]
    assert _moved("SinkBasin|1", start, [("Apple|1", "SinkBasin|1")])["ok"]
    assert not _moved("SinkBasin|1", start, [("Apple|1", "Fridge|1")])["ok"]
    assert not _moved("Fridge|1", start, [("Apple|1", "Sink|1")])["ok"]


def test_going_back_to_the_tab_means_that_tab():
    """"Go back to the tab of the first one": the active tab must be the tab (by serial) that showed the first
    recipe when the turn started; loading it in the tab one is on, or in a new tab, does not do it."""
    from embodiedweb.domains.assistant.checks import CHECKS

    home, r1, r2 = "http://ewa.local/", "http://ewa.local/recipes/recipe/r001", "http://ewa.local/recipes/recipe/r002"
    before = {"browser": {"tabs": [home, r1, r2], "active": 2, "ids": [1, 2, 3]}}

    def focus(tabs, active, ids):
        return CHECKS["focus"]({"recipe": "r001"}, before, {"browser": {"tabs": tabs, "active": active, "ids": ids}},
                               "")["ok"]

    assert focus([home, r1, r2], 1, [1, 2, 3])
    assert focus([home, r1 + "/step/2", r2], 1, [1, 2, 3])  # on in the same tab
    assert not focus([home, r1, r1], 2, [1, 2, 3])  # loaded over the second recipe's tab
    assert not focus([home, r1, r2, r1], 3, [1, 2, 3, 4])  # loaded in a new tab
    assert not focus([home, r1, r2], 2, [1, 2, 3])


def test_an_order_turn_counts_the_orders_that_stand_at_its_end():
    """An order placed by mistake and cancelled during the turn is no order (a slip corrected passes); an order
    cancelled alone leaves none; cancelling an earlier turn's order, which was not asked, fails (assistant
    checker version 7)."""
    from embodiedweb.domains.assistant.checks import CHECKS

    e = {"product": "p1", "store": "chelsea", "delivery": "pickup"}

    def order(oid, store="chelsea", product="p1", status="placed"):
        return {"order_id": oid, "store_id": store, "delivery": "pickup", "status": status,
                "items": [{"product_id": product, "qty": 1}]}

    def ok(before, after):
        return CHECKS["same_store"](e, {"web": {"shop": {"orders": before}}}, {"web": {"shop": {"orders": after}}},
                                    "")["ok"]

    earlier = order("ORD-00001", product="p9")
    assert ok([earlier], [earlier, order("ORD-00002")])
    assert ok([earlier], [earlier, order("ORD-00002", store="soho", status="cancelled"), order("ORD-00003")])
    assert not ok([earlier], [earlier, order("ORD-00002", store="soho"), order("ORD-00003")])  # the slip stands
    assert not ok([earlier], [earlier, order("ORD-00002", status="cancelled")])
    # cancelling the earlier order fails this turn as it fails every turn (``checks.earlier_work_kept``, stop 38)
    from embodiedweb.domains.assistant.checks import earlier_work_kept

    b, a = {"web": {"shop": {"orders": [earlier]}}}, {"web": {"shop": {"orders": [{**earlier, "status": "cancelled"}]}}}
    assert earlier_work_kept([], b, a) == {"ok": False, "why": "cancelled ORD-00001, an earlier order"}


def test_no_turn_may_undo_an_earlier_turns_work(monkeypatch):
    """Every turn keeps what earlier turns did (assistant checker version 10, stop 38): an order that stood at the
    turn's start cancelled, or the food an earlier turn put away taken out again, while answering "what was the first
    thing I asked you to order?" fails that turn, a right answer or not (``CancelsOrdersLater`` and
    ``UndoesTheMoveLater`` passed 60 of 60 episodes each before); an order placed and cancelled within the turn, and
    food the earlier move never put there, are no concern of this rule. Broken once (the rule left out of
    ``check_turn``), the turns pass."""
    from types import SimpleNamespace

    from embodiedweb.domains.assistant import domain as dom

    placed = {"order_id": "ORD-00001", "store_id": "chelsea", "delivery": "pickup", "status": "placed",
              "items": [{"product_id": "p1", "qty": 1}]}
    gone = {**placed, "status": "cancelled"}
    later = {**placed, "order_id": "ORD-00002", "status": "cancelled"}
    move = {"kind": "move_grounded", "text": "t", "category": "grounding", "side": "embodied",
            "expect": {"object": "Apple|1", "dest": "Fridge|1", "food": "Apple"}}
    recall = {"kind": "recall", "text": "t", "category": "reference", "side": "answer",
              "expect": {"name": "Russet Potato", "others": ["Whole Milk"]}}
    task = SimpleNamespace(goal={"turns": [move, recall]})

    def turn(orders_before, orders_after, apple_before="Fridge|1", apple_after="Fridge|1"):
        b = {"web": {"shop": {"orders": orders_before}}, "world": _world(*_KITCHEN, ("Apple|1", apple_before))}
        a = {"web": {"shop": {"orders": orders_after}}, "world": _world(*_KITCHEN, ("Apple|1", apple_after))}
        return dom.AssistantDomain().check_turn(task, 1, b, a, "Russet Potato")

    assert turn([placed], [placed])["ok"]
    assert turn([placed], [placed, later])["ok"]  # (no order of the turn's start was touched)
    assert turn([placed], [gone])["why"] == "cancelled ORD-00001, an earlier order"
    assert turn([], [], apple_after="CounterTop|1")["why"] == "took Apple|1 out of Fridge|1, where an earlier turn put it"
    assert turn([], [], apple_before="CounterTop|1", apple_after="CounterTop|1")["ok"]  # the move never put it there
    monkeypatch.setattr(dom, "earlier_work_kept", lambda earlier, before, after: None)
    assert turn([placed], [gone])["ok"] and turn([], [], apple_after="CounterTop|1")["ok"]


def test_product_names_count_in_the_singular_and_plural():
    """"Russet Potatoes" names Russet Potato and "Cage-Free Large Egg" Cage-Free Large Eggs; another product does
    not match so ("Sweet Potatoes"), naming two products still fails, and where two candidates differ only in
    number the name counts only as written."""
    from embodiedweb.domains.assistant.checks import CHECKS

    recall = CHECKS["recall"]

    def ok(name, answer, others=("Whole Milk",)):
        return recall({"name": name, "others": list(others)}, {}, {}, answer)["ok"]

    assert ok("Russet Potato", "Russet Potatoes") and ok("Roma Tomato", "You first asked me to order Roma Tomatoes.")
    assert ok("Gala Apple", "gala apples") and ok("Cage-Free Large Eggs", "Cage-Free Large Egg")
    assert not ok("Russet Potato", "Sweet Potatoes") and not ok("Russet Potato", "Russet Potatoes and Sweet Potatoes")
    assert not ok("Gala Apple", "Gala Apples or Fuji Apples")
    from embodiedweb.domains.assistant.checks import Candidates

    c = Candidates(["Egg", "Eggs", "Gala Apple"])
    assert c.named("Eggs", "Eggs") and not c.named("Eggs", "Egg") and c.named("gala apples", "Gala Apple")


def test_people_count_without_their_middle_names():
    """"Herbert Krapp" names Herbert J. Krapp and "Frederick Olmsted and Calvert Vaux" Frederick Law Olmsted and
    Calvert Vaux, unless another person on the wiki has that short name; firms' names are not shortened."""
    from embodiedweb.domains.assistant.checks import CHECKS

    check = CHECKS["fact_architect"]
    read = {"web": {"wiki": {"views": ["x"]}}}

    def ok(name, answer):
        return check({"name": name, "others": [], "place": "x"}, {}, read, answer)["ok"]

    assert ok("Herbert J. Krapp", "Herbert Krapp") and ok("Henry Janeway Hardenbergh", "It was Henry Hardenbergh.")
    assert ok("Frederick Law Olmsted and Calvert Vaux", "Frederick Olmsted and Calvert Vaux")
    assert ok("Philip L. Goodwin and Edward Durell Stone", "Philip Goodwin & Edward Stone")
    assert not ok("Herbert J. Krapp", "Krapp") and not ok("Henry Janeway Hardenbergh", "Henry Janeway")
    from embodiedweb.domains.assistant.checks import Candidates

    two = Candidates(["Herbert J. Krapp", "Herbert K. Krapp"], people=True)
    assert not two.named("Herbert Krapp", "Herbert J. Krapp") and two.named("Herbert J. Krapp", "Herbert J. Krapp")
    firm = Candidates(["Kohn Pedersen Fox", "Fred F. French Company"], people=True, firms=["Kohn Pedersen Fox"])
    assert not firm.named("Kohn Fox", "Kohn Pedersen Fox") and not firm.named("Fred Company", "Fred F. French Company")


@pytest.mark.parametrize(("url", "rid"), [
    ("http://ewa.local/recipes/recipe/r012", "r012"), ("http://ewa.local/recipes/recipe/r012/step/2?x=1", "r012"),
    ("http://ewa.local/recipes/recipe/r012/", "r012"),
    # stop 31: a search page whose query names the recipe's path, a step the recipe lacks, a recipe the site lacks
    ("http://ewa.local/wiki/search?q=/recipes/recipe/r012", None), ("http://ewa.local/recipes/recipe/r012/step/999", None),
    ("http://ewa.local/recipes/recipe/r012/step/0", None), ("http://ewa.local/recipes/recipe/r99999", None),
    ("http://ewa.local/x/recipes/recipe/r012", None),
])
def test_a_tab_shows_a_recipe_only_on_that_recipes_pages(url, rid):
    from embodiedweb.domains.assistant.checks import recipe_of

    assert recipe_of(url) == rid
