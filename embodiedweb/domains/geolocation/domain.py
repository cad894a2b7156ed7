"""The geolocation domain (EWA-Geolocation-v0).

The agent stands at a real place (a street in a city somewhere in the world), sees four street views,
may walk to adjacent viewpoints and research what it sees on the wiki, and answers with::

    stop [lat, lng; continent; country; city; street]

e.g. ``stop [52.5170, 13.3889; Europe; Germany; Berlin; Friedrichstraße]``. Parts may be left out
(keep the semicolons: ``stop [; Europe; Germany; Berlin; ]``) and common free forms are read too. The
grammar, the lenient parsing and the metrics (per level, distance, GeoGuessr-style score, ``overall`` =
city correct with a distinguishing cue seen and researched, and why) are documented in
:mod:`embodiedweb.domains.geolocation.checker`.

Options (``gym.make("EWA-Geolocation-v0", passive=True)``):

* ``passive`` - the paper's passive setting: only the start's north view, no moves, no web;
* ``static`` - all four views of the start and the web, but no moves (isolates the value of walking).

No distinguishing cue is visible from the start, so in both settings ``overall`` is always false by
design: compare them on the ``continent``/``country``/``city`` levels.
"""

from __future__ import annotations

import random
from typing import Any

from embodiedweb.domains.base import Domain, Episode
from embodiedweb.domains.geolocation.checker import check_geolocation
from embodiedweb.tasks import Task, TaskError
from embodiedweb.worlds.base import EmbodiedWorld
from embodiedweb.worlds.geo.world import GeoWorld

#: (the standpoints the country list was made from, the sorted countries)
_COUNTRIES: list[Any] = [None, ()]


def _countries() -> tuple[str, ...]:
    """Sorted names of the countries that have a standpoint, made again only when the standpoints are
    another dict (a checker in a shaped-reward loop asks at most steps)."""
    from embodiedweb.worlds.geo.world import load_standpoints

    standpoints = load_standpoints()
    if _COUNTRIES[0] is not standpoints:
        _COUNTRIES[:] = [standpoints, tuple(sorted({sp["country"] for sp in standpoints.values()}))]
    return _COUNTRIES[1]


class GeolocationDomain(Domain):
    """Name where in the world the agent stands (see the module docstring for the answer grammar).

    Env id ``EWA-Geolocation-v0`` (``envs/geolocation.toml``: tasks ``data/geo/tasks.jsonl``, 80 steps);
    world :class:`~embodiedweb.worlds.geo.world.GeoWorld` (small street graphs worldwide); episodes
    start in the world.

    * Episode: look at the four street views, walk to adjacent viewpoints, research cues on the wiki,
      then ``stop [lat, lng; continent; country; city; street]``.
    * Checker (:func:`~embodiedweb.domains.geolocation.checker.check_geolocation`): per-level
      correctness (continent, country, city, street where a view shows its name), distance and score;
      ``overall`` = the city right with one distinguishing cue both seen and researched.
    * Options: ``passive`` (north view of the start only, no moves, no web) and ``static`` (four views
      and the web, no moves); in both ``overall`` is false by design.
    """

    #: check() reads the world and web states and the answer only
    completion_from_state = True

    name = "geolocation"
    checker_version = 11  # 2: the street level counts only where a view shows the street's name; 3: "Nanjing Donglu" is a street;
    # 4: a city's own first-level region named beside it ("Seattle, Washington") is not a second city;
    # 5: a street part may end with its city ("Portage Avenue in Winnipeg", "Newbury Street Boston"), spaced dashes
    # separate free-text parts, and a street's directions and ordinals must match ("Nanjing Donglu", not "Nanjing
    # West Road", for Nanjing Road East)
    # 6: "us" in prose and adjectives ("Thai") are no country, a continent with modifiers ("Eastern Europe", "in
    # Europe") is read, a continent slot is no country, one coordinate pair is read anywhere, unknown labels end a
    # field, street spellings (St/Saint, -str., oe/ue, house numbers, bilingual signs); a second country outside the
    # table, a place naming a country ("North Korea", "New South Wales"), and a region or country beside the city
    # that does not hold it ("Paris, Texas") count
    # 7: a CJK city's administrative suffix is dropped (臺南市, Busan's -gwangyeoksi), words beside coordinates that name no place
    # ("approximately", "city centre") are no city, and a region only of other countries than the one the answer
    # names does not contradict the city ("Busan, Central District, South Korea"); a lake named after a city is no
    # second city ("Lausanne (on Lake Geneva)")
    # 8 (stop 33): punctuation inside a city's name is no part of it ("Jo'burg", "L'viv", "L.A.", "N.Y.C."); the
    # abbreviations are the cities' rows' (data/tables/geo_places.json: SF, NOLA, KL moved there, LA added);
    # "LA" is Los Angeles only written so, dotted, as a part of its own or after "or" (a second city beside another)
    # 9 (stop 37): every city has a name in its country's first script (Morocco's and Tunisia's cities in Arabic and
    # four of India's in Devanagari had none, so the name their signs write failed the city)
    # 10 (stop 38): coordinates that point to another city of the gazetteer (within 25 km of it, the nearest) fail the
    # one city named when it lies over 50 km from them, and the one country named when none of its cities does
    # ("Graz" with Vienna's coordinates); overall needs one distinguishing cue both seen and researched (a cue's
    # article read without standing in its view, beside another cue seen, counted)
    # 11 (stop 39): a cue is researched when the agent was shown what it tells: its article read, or a search
    # results page whose snippet of its article names the city (a search of a regional chain whose snippet stops
    # before its list of cities counted, and the country's best-known city was guessed)
    world = GeoWorld
    heuristic = "baselines.geo_heuristic:GeoHeuristic"
    prompt_guidance = ("You stand somewhere in the world. Look around (the four views), move to nearby viewpoints "
                       "if useful, research clues on the wiki, then answer with "
                       "stop [lat, lng; continent; country; city; street].")
    report_family = "geolocation"

    def __init__(self, passive: bool = False, static: bool = False) -> None:
        self.passive = bool(passive)
        self.static = bool(static) or self.passive
        self.web_enabled = not self.passive

    def settings(self) -> dict[str, Any]:
        """The domain's ``passive`` and ``static`` flags."""
        return {"passive": self.passive, "static": self.static}

    def skills(self) -> tuple[str, ...]:
        """``passive`` has no web (no skill); ``static`` cannot walk to a distinguishing cue, so its
        ``embodied`` metric is false by design: only the ``web`` skill."""
        return () if self.passive else ("web",) if self.static else ("web", "embodied")

    def make_world(self) -> EmbodiedWorld:
        """A :class:`GeoWorld` with this domain's ``passive``/``static`` flags."""
        return GeoWorld(passive=self.passive, static=self.static)

    @staticmethod
    def countries() -> list[str]:
        """Sorted names of the countries that have a standpoint (a new list each call)."""
        return list(_countries())

    def validate_task(self, task: Task) -> None:
        """Raise ``TaskError`` for an unknown standpoint or missing, mistyped or out-of-range goal fields."""
        from embodiedweb.worlds.geo.world import load_standpoints

        sid = task.embodied.get("standpoint")
        if sid not in load_standpoints():
            raise TaskError(f"task {task.task_id!r}: field 'embodied.standpoint': unknown standpoint {sid!r}")
        for key, typ in (("lat", (int, float)), ("lng", (int, float)), ("continent", str), ("country", str),
                         ("city", str), ("street", str)):
            if not isinstance(task.goal.get(key), typ):
                raise TaskError(f"task {task.task_id!r}: field 'goal.{key}' is missing or of the wrong type")
        if not (-90 <= task.goal["lat"] <= 90 and -180 <= task.goal["lng"] <= 180):
            raise TaskError(f"task {task.task_id!r}: field 'goal.lat'/'goal.lng' out of range")

    difficulty_measures = ("oracle_world_steps", "oracle_steps", "-cues", "-hints", "-capital")

    def task_measures(self, task: Task) -> dict[str, Any]:
        """How many distinguishing cues and hints the place has, and whether its city is a capital."""
        return {"cues": len(task.meta.get("distinguishing") or []), "hints": len(task.meta.get("hints") or []),
                "capital": int(bool(task.meta.get("capital")))}

    def stratum(self, task: Task) -> tuple[Any, ...]:
        """The continent."""
        return (str(task.goal.get("continent", "")),)

    def variety(self, task: Task) -> tuple[str, ...]:
        """Geolocation variety: the goal country."""
        return (str(task.goal.get("country", "")),)

    def check(self, episode: Episode) -> dict[str, Any]:
        """Score the stop answer against the goal place with ``check_geolocation`` (given the standpoint)."""
        from embodiedweb.worlds.geo.world import load_standpoints

        sp = load_standpoints().get(str((episode.world_state or {}).get("standpoint")), {})
        return check_geolocation(episode.task.goal, episode.answer, episode.world_state or {},
                                 episode.web_state or {}, self.countries(), standpoint=sp)

    def oracle(self, task: Task, perturb: random.Random | None = None) -> Any:
        """A scripted :class:`GeolocationOracle` with this domain's ``passive``/``static`` flags."""
        from embodiedweb.domains.geolocation.oracle import GeolocationOracle

        return GeolocationOracle(task, perturb, passive=self.passive, static=self.static)
