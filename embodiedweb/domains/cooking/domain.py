"""The cooking domain (EWA-Cooking-v0)."""

from __future__ import annotations

import random
from typing import Any

from embodiedweb.domains.base import Domain, Episode
from embodiedweb.domains.cooking.checker import check_cooking
from embodiedweb.domains.cooking.feasibility import infeasible_steps, kitchen_inventory
from embodiedweb.tasks import Task, TaskError
from embodiedweb.worlds.kitchen.world import KitchenWorld
from web_sites.recipes import catalog


def validate_additions(task: Task) -> set[str]:
    """Check ``embodied.add`` (``[{"type", "on", "prepare"}]``); the types it adds fresh (unprepared)."""
    from embodiedweb.worlds.kitchen import vocab
    from embodiedweb.worlds.kitchen.world import PREPARE_STEPS

    add = task.embodied.get("add", [])
    tid = task.task_id
    if not isinstance(add, list):
        raise TaskError(f"task {tid!r}: field 'embodied.add': must be a list of {{type, on, prepare}}")
    fresh: set[str] = set()
    for n, item in enumerate(add):
        otype = item.get("type") if isinstance(item, dict) else item
        if not isinstance(item, dict) or not isinstance(otype, str) or otype not in vocab.PICKUPABLE:
            raise TaskError(f"task {tid!r}: field 'embodied.add[{n}].type': unknown object type {otype!r}")
        on = item.get("on", "CounterTop")
        if not isinstance(on, str) or on not in vocab.RECEPTACLE_ACCEPTS:
            raise TaskError(f"task {tid!r}: field 'embodied.add[{n}].on': unknown receptacle type {on!r}")
        prep = item.get("prepare", [])
        if not isinstance(prep, list) or any(p not in PREPARE_STEPS for p in prep):
            raise TaskError(f"task {tid!r}: field 'embodied.add[{n}].prepare': {prep!r} is not a list of "
                            f"{', '.join(PREPARE_STEPS)}")
        if not prep:
            fresh.add(otype)
    return fresh


class CookingDomain(Domain):
    """Find the recipe the instruction names (with the constraint that singles it out of a confounder
    pair), follow it step by step in the kitchen, and order a missing ingredient from the shop.

    Env id ``EWA-Cooking-v0`` (``envs/cooking.toml``: tasks ``data/cooking/tasks.jsonl``, 200 steps);
    world :class:`~embodiedweb.worlds.kitchen.world.KitchenWorld`; episodes start in the web.

    * Episode: the instruction names a recipe (and, for a confounder pair sharing a name, the
      constraint that tells them apart); the agent reads its step pages on the recipe site, switching
      to the kitchen to do each step; when the kitchen lacks an ingredient (``goal.missing``) it orders
      one from the shop with delivery to the kitchen. ``stop`` ends it.
    * Checker (:func:`~embodiedweb.domains.cooking.checker.check_cooking`, semantic state only):
      ``web`` = every step page viewed in order, no step's work on the dish done before its page was
      viewed, and the missing ingredient ordered for kitchen delivery; ``embodied`` = one dish of the
      recipe's type holds every final component (type, raw/cooked, heated by the named appliance) and
      only this recipe; ``overall`` = both; ``completion`` = the fraction of those sub-goals.
    """

    #: check() reads the world and web states and the answer only
    completion_from_state = True

    name = "cooking"
    #: 2: a cook step's work is any heating of its component (food heated ahead by another appliance is early work)
    #: 3: a component put on the dish before its place step was read is early work
    #: 4: each component's work follows the recipe's order (cooked whole, then sliced or cracked, is not the recipe's)
    #: 5: an order cancelled (before it reached the kitchen) counts neither as the missing ingredient nor as an extra
    #: 6: the order test reads a cook step's first heating by any appliance (cooked whole another way, then sliced
    #:    and given a turn in the named one, is not the recipe's), food already cooked when it went on the dish is
    #:    not "cooked there", one piece of each component on the dish, one item of a missing ingredient, and a
    #:    "boil ... in the saucepan" step wants the pot (a whole egg fried in the dry frying pan passed)
    #: 7: a component served raw was never heated (a raw lettuce slice microwaved on the finished dish passed:
    #:    lettuce never counts as cooked)
    #: 8: a "... in the frying pan" step wants the pan, as a "... in the saucepan" one wants the pot (an egg fried
    #:    in the saucepan passed)
    #: 9: anything ordered besides the missing ingredient fails "ordered nothing the kitchen has", pickup orders
    #:    too (a pickup of a tomato the kitchen has passed); completion: a broken gate takes one sub-goal off
    #:    instead of zeroing its side, and a prepared leftover served earns no component; an early step says what
    #:    happened
    checker_version = 9
    world = KitchenWorld
    heuristic = "baselines.cooking_heuristic:CookingHeuristic"
    prompt_guidance = (
        "You are in a kitchen and can use a web browser. Find the recipe the instruction names on the recipe "
        "site (use the filters when several recipes share a name), read it one step at a time, switch to the "
        "kitchen to do each step, and switch back to the web for the next step. If the kitchen lacks an "
        "ingredient, order it from the shop with delivery to your kitchen; it appears on a counter top.")
    report_family = "cooking"

    def validate_task(self, task: Task) -> None:
        """Raise ``TaskError`` for an unknown recipe, kitchen or missing ingredient, or a malformed ``embodied.remove``."""
        from embodiedweb.worlds.kitchen.kitchens import list_kitchens

        rid = task.goal.get("recipe_id")
        if not isinstance(rid, str) or catalog.get(rid) is None:
            raise TaskError(f"task {task.task_id!r}: field 'goal.recipe_id': unknown recipe {rid!r}")
        kid = task.embodied.get("kitchen_id")
        if kid not in list_kitchens():
            raise TaskError(f"task {task.task_id!r}: field 'embodied.kitchen_id': unknown kitchen {kid!r}")
        missing = task.goal.get("missing")
        if missing is not None and missing not in catalog.INGREDIENT_LABELS:
            raise TaskError(f"task {task.task_id!r}: field 'goal.missing': unknown ingredient {missing!r}")
        if not isinstance(task.goal.get("missing_told", True), bool):
            raise TaskError(f"task {task.task_id!r}: field 'goal.missing_told': must be true or false")
        remove = task.embodied.get("remove", [])
        for t in remove:
            if not isinstance(t, str) or not t:
                raise TaskError(f"task {task.task_id!r}: field 'embodied.remove': bad object type {t!r}")
        from embodiedweb.worlds.kitchen.world import teleport_problem

        if (problem := teleport_problem(task.embodied)) is not None:
            raise TaskError(f"task {task.task_id!r}: field 'embodied.teleport': {problem}")
        fresh = validate_additions(task)
        problems = infeasible_steps(catalog.get(rid) or {}, (kitchen_inventory(kid) - set(remove)) | fresh, missing)
        if problems:
            raise TaskError(f"task {task.task_id!r}: cannot be carried out in {kid}: {'; '.join(problems)}")

    difficulty_measures = ("recipe_steps", "oracle_switches", "oracle_steps")

    def task_measures(self, task: Task) -> dict[str, Any]:
        """The recipe's step count."""
        return {"recipe_steps": int(task.meta["n_steps"])}

    def stratum(self, task: Task) -> tuple[Any, ...]:
        """A missing ingredient to buy or not, and a constrained recipe version or not."""
        return (bool(task.meta.get("shopping")), bool(task.meta.get("constraint")))

    def variety(self, task: Task) -> tuple[str, ...]:
        """Cooking variety: the ``(kitchen_id, recipe_id)`` pair."""
        return (str(task.embodied.get("kitchen_id", "")), str(task.goal.get("recipe_id", "")))

    def takes_answer(self, task: Task) -> bool:
        """Cooking is judged on the kitchen and the sites: ``stop`` carries no answer."""
        return False

    def check(self, episode: Episode) -> dict[str, Any]:
        """Score the kitchen and web end states against the recipe goal with ``check_cooking``."""
        return check_cooking(episode.task.goal, episode.world_state, episode.web_state)

    def oracle(self, task: Task, perturb: random.Random | None = None) -> Any:
        """A scripted :class:`CookingOracle` for the task (perturbed when ``perturb`` is given)."""
        from embodiedweb.domains.cooking.oracle import CookingOracle

        return CookingOracle(task, perturb)
