"""The Gymnasium env: one embodied world + one web session + one task per episode."""

from __future__ import annotations

import inspect
import re
import time
import warnings
from collections.abc import Iterator, Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from embodiedweb.actions import REGISTRY, ActionError, ParsedAction
from embodiedweb.curricula import action_kind, check_level, check_skill, level_ids
from embodiedweb.domains.base import Domain, Episode
from embodiedweb.spaces import OBS_TEXT_MAX, UnicodeText, fit_text, obs_text_space
from embodiedweb.tasks import Task, TaskError, TaskSuite, check_task_level
from embodiedweb.trace import Trace, diff_state
from embodiedweb.turns import DIALOGUE_MAX, MultiTurn
from embodiedweb.versions import suite_version
from embodiedweb.web.driver import WebDriver
from web_sites.registry import get_webapp

#: the longest text field of an observation (see :data:`embodiedweb.spaces.OBS_TEXT_MAX` for each field)
TEXT_MAX = max(OBS_TEXT_MAX.values())
#: the longest action accepted (a `type` of a long text fits); longer ones are refused, stored cut
MAX_ACTION_CHARS = 50_000
#: error messages are cut to this length (they may quote the action)
MAX_ERROR_CHARS = 2_000
#: values of the ``embodied_view`` option: the top-down map (default), the first-person camera, both, or
#: ``"auto"``: the first-person camera where the world has one and images are rendered, else the map
EMBODIED_VIEWS = ("top_down", "first_person", "both", "auto")


_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_action(action: Any) -> str:
    """The action as text that every trace, digest and JSONL file can hold: lone surrogates (an LLM can
    emit them) become U+FFFD."""
    text = action if isinstance(action, str) else repr(action)
    return _SURROGATE.sub("\ufffd", text)


def cut(text: str, n: int) -> str:
    """``text`` if it fits in ``n`` characters, else its head with a ``… (N characters in all)`` marker."""
    return text if len(text) <= n else f"{text[: n - 40]}… ({len(text):,} characters in all)"
OBS_TEXT_KEYS = ("active", "instruction", "web_url", "web_tabs", "web_text", "embodied_text", "last_action",
                 "last_action_error", "message")


class Timings(Mapping[str, float]):
    """Per-step timings in milliseconds (``info["timings"]``), read like a dict.

    Equality compares the keys only: timings are measurements, not part of the env's behaviour, so
    two steps with the same seed and action are equal (Gymnasium's determinism check relies on it).
    """

    def __init__(self, **values: float) -> None:
        self._values = {k: round(float(v), 4) for k, v in values.items()}

    def __getitem__(self, key: str) -> float:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Timings) and set(self._values) == set(other._values)

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._values)))

    def __repr__(self) -> str:
        return f"Timings({self._values})"


def make_driver(web_mode: str, viewport: tuple[int, int], watchdog_s: float | None = None) -> WebDriver:
    """A web driver for ``web_mode`` (``text`` or ``browser``); ``watchdog_s`` bounds each browser call."""
    if web_mode == "text":
        from embodiedweb.web.text_driver import TextDriver

        return TextDriver(get_webapp())
    if web_mode == "browser":
        from embodiedweb.extras import require

        require("browser")
        from embodiedweb.web.browser_driver import WATCHDOG_S, BrowserDriver

        return BrowserDriver(get_webapp(), viewport=viewport, watchdog_s=watchdog_s or WATCHDOG_S)
    raise ValueError(f"web_mode must be 'text' or 'browser', got {web_mode!r}")


class EmbodiedWebEnv(MultiTurn, gym.Env):
    """An episode composes an embodied world, a web session and a task (DESIGN.md section 3).

    ## Description

    One agent acts in two domains in one episode: the local websites (``web_sites``: recipes, the
    FreshCart shop, maps, the wiki) and an embodied world (the kitchen simulator or a street graph),
    one at a time. What the task asks and how it is judged is the domain's (``self.domain``, one of
    ``embodiedweb/domains``); every registered id (``EWA-Cooking-v0``, ``EWA-Navigation-v0``,
    ``EWA-Shopping-v0``, ``EWA-Traveling-v0``, ``EWA-Geolocation-v0``; spec in ``envs/<env>.toml``) is
    this class with its domain and task file (:func:`embodiedweb.registration.make_env`).

    ``step`` takes an action string (see ``describe_actions()``); bad actions never raise: they are
    answered in ``obs["last_action_error"]``. The agent acts in one domain at a time
    (``obs["active"]``) and moves with ``switch_environment [message]``; ``stop [answer]`` ends the
    episode, ``max_steps`` truncates it. ``info["metrics"]`` holds the checker's metrics at the end.

    In browser mode a browser fault (a crash, a dead process, a call that outlives ``watchdog_s``)
    never ends the run: the browser is started again with the tabs at their last pages, the sites'
    state is kept, and ``last_action_error`` says what happened.

    An env can be pickled, cloudpickled and deep-copied, before or after ``reset``: the copy is an
    independent env with the same configuration (domain, task suite, split, keyword arguments), its own
    web session and world, and the same episode state, restored by replaying the episode (see
    :meth:`__getstate__`).

    ## Action Space

    :class:`embodiedweb.spaces.UnicodeText` (``UnicodeText(10_000)``): any text. An action is one
    command of the grammar of :mod:`embodiedweb.actions`, arguments in brackets: web actions
    (``click [id]``, ``type [id] [text] [0|1]``, ``scroll [down]``, ``goto [url]``, ``new_tab``, ...),
    the world's actions (kitchen: ``Teleport [obj]``, ``PickupObject [obj]``, ``ToggleObjectOn [obj]``,
    ...; street: ``forward``, ``left``, ``right``, ``move [node_id]``), and ``switch_environment
    [message]`` and ``stop [answer]``. A web action while the world is active (or the reverse), a
    malformed action or one over :data:`MAX_ACTION_CHARS` characters is refused with a message in
    ``last_action_error`` and still counts as a step. ``info["admissible_actions"]`` lists concrete
    valid actions now.

    ## Observation Space

    A ``spaces.Dict``. Text keys (Gymnasium ``Text`` spaces over
    :data:`embodiedweb.spaces.OBS_CHARSET`, each at most :data:`embodiedweb.spaces.OBS_TEXT_MAX`
    characters; longer text is cut with a visible marker): ``active`` (``"web"`` or ``"embodied"``),
    ``instruction``, ``web_url``, ``web_tabs``, ``web_text`` (the page's accessibility tree, one
    element a line), ``embodied_text`` (the world's text view), ``last_action``,
    ``last_action_error`` and ``message`` (the note of the last ``switch_environment``). Image keys,
    only when asked for: ``embodied_image`` (uint8 ``(H, W, 3)``, ``image_size``) and
    ``web_screenshot`` (uint8 ``(vh, vw, 3)``, ``viewport``) with ``render_images=True``;
    ``embodied_map`` with ``embodied_view="both"``; ``embodied_depth`` (float32 ``(H, W)``, metres)
    and ``embodied_masks`` (int32 ``(H, W)``, object index + 1, 0 = room) with the kitchen's
    ``embodied_depth``/``embodied_masks``.

    ## Rewards

    Sparse: 0 on every step but the last; at the end (``stop`` or truncation) 1 if the checker's
    ``metrics["overall"]`` is true (with ``skill``: ``metrics["skill_success"]``, i.e. that skill's
    ``web`` or ``embodied`` metric), else 0. ``info["metrics"]`` also holds ``web``, ``embodied``,
    ``completion`` (0..1, the fraction of the domain's sub-goals), ``steps``, ``switches`` and
    ``answer``, plus the domain's own extras.

    ## Starting State

    ``reset(seed=..., options={"task_id": ...})`` picks the task (else one is drawn with the env's RNG
    from the suite, restricted by ``split`` and ``curriculum``) and an episode seed (the given seed,
    else drawn); the world is reset to the task's ``embodied`` config and the web session to its
    ``web`` config (start page ``web.start_url``). ``obs["active"]`` starts at the task's ``start``
    (cooking and shopping tasks start in the web; navigation, traveling and geolocation in the world;
    always the world when the domain has no web access). With ``skill``, the domain's oracle first
    plays the prefix before that skill (see :meth:`_play_prefix`); ``info["prefix_steps"]`` says how
    many steps it took.

    ## Episode End

    * Termination: the agent sends ``stop [answer]``; the checker (``domain.check``) judges the final
      world and site states and the answer, and ``info["metrics"]`` holds its metrics.
    * Truncation: :attr:`step_limit` steps (``max_steps``, or a smaller ``max_episode_steps`` of a
      ``TimeLimit`` over the env) or a smaller budget the task sets itself (``task.meta["max_steps"]``);
      the checker runs then too. Steps after the end are answered with an error and change nothing.

    ## Arguments

    ``gym.make(env_id, **kwargs)`` (through :func:`embodiedweb.registration.make_env`, over the
    spec's defaults) accepts:

    * ``web_mode="text"``: ``"text"`` serves the sites in-process; ``"browser"`` drives Chromium through
      Playwright (the ``browser`` extra). Both give the same element ids, tree text and trace.
    * ``render_images=False``: add ``embodied_image`` and ``web_screenshot`` to the observation.
    * ``max_steps``: the step limit; the spec's ``max_steps`` (cooking 200, geolocation 80, navigation,
      shopping, traveling 400; 100 when the class is built directly). ``max_episode_steps`` (Gymnasium's
      ``TimeLimit``) may only lower it (see :class:`embodiedweb.registration.StepLimit`).
    * ``image_size=(300, 300)``: (width, height) of the embodied images.
    * ``viewport=(1280, 720)``: (width, height) of the web page and its screenshot.
    * ``render_mode=None``: ``"rgb_array"`` (the page and the embodied view side by side, one size for
      the env's life, :attr:`frame_shape`) or ``"ansi"`` (the observation's text fields).
    * ``split=None``: ``"train"`` or ``"test"`` restricts the task suite.
    * ``curriculum=None``: a difficulty level 0..3 (0 = easiest) of :mod:`embodiedweb.curricula`.
    * ``level="standard"``: the task tier, ``"standard"`` or ``"hard"`` (the spec's ``hard_tasks`` file;
      same env, action grammar and checker rules). ``gym.make(id, level="hard")`` loads the hard tasks.
    * ``skill=None``: ``"web"`` or ``"embodied"``: start after the domain oracle's prefix and score
      that skill alone (the domain must support it: ``domain.skills()``).
    * ``embodied_view="top_down"``: ``"first_person"`` or ``"both"`` (one of :data:`EMBODIED_VIEWS`;
      kitchen only, needs ``render_images=True``), or ``"auto"``: ``"first_person"`` in a world with a
      first-person camera when ``render_images=True``, else ``"top_down"`` (what ``ewa eval --vision`` asks for).
    * ``embodied_depth=False``, ``embodied_masks=False``: add the first-person depth / instance masks
      (kitchen only).
    * ``record_trace=True``: record the world and site state changes of each step in the trace.
    * ``trace_path=None``: also write the trace as JSONL to this file.
    * ``watchdog_s=None``: wall-clock bound of each browser call in browser mode (default
      :data:`embodiedweb.web.browser_driver.WATCHDOG_S`, 15 s).
    * domain options: any other keyword goes to the domain's constructor, e.g.
      ``gym.make("EWA-Geolocation-v0", passive=True)`` or ``static=True`` (see
      :class:`embodiedweb.domains.geolocation.GeolocationDomain`); an unknown one is a
      ``gym.error.Error``.

    ## Version History

    * v0 (0.2.0): heat-only cooking and the validity rules of the cooking, navigation, shopping,
      traveling and geolocation checkers; results of 0.1.0 are not comparable (see ``CHANGELOG.md``).
      Every result also names the env's suite version (:attr:`suite_version`).
    """

    metadata = {"render_modes": ["rgb_array", "ansi"], "render_fps": 4}

    def __init__(self, domain: Domain, tasks: TaskSuite | list[Task], *, env_id: str = "", web_mode: str = "text",
                 render_images: bool = False, max_steps: int = 100, image_size: tuple[int, int] = (300, 300),
                 viewport: tuple[int, int] = (1280, 720), render_mode: str | None = None, split: str | None = None,
                 record_trace: bool = True, trace_path: str | None = None, watchdog_s: float | None = None,
                 curriculum: int | None = None, skill: str | None = None, embodied_view: str = "top_down",
                 embodied_depth: bool = False, embodied_masks: bool = False, teacher_forcing: bool = False,
                 level: str = "standard") -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.domain = domain
        suite = tasks if isinstance(tasks, TaskSuite) else TaskSuite(tasks)
        self._suite = suite
        self._suite_version: tuple[int, str] | None = None
        self.curriculum = check_level(curriculum)
        #: the task tier (``standard`` or ``hard``): which task file ``tasks`` came from (chosen by
        #: :func:`embodiedweb.registration.make_env`); named in the suite version and in every record
        self.level = check_task_level(level)
        self.skill = check_skill(skill, domain, env_id)
        self.tasks = suite.split(split) if split else suite
        if self.curriculum is not None:
            keep = level_ids(domain.name, self.curriculum, [t.task_id for t in self.tasks], env_id)
            self.tasks = TaskSuite(t for t in self.tasks if t.task_id in keep)
        self.split = split
        if len(self.tasks) == 0:
            where = [f"split {split!r}"] if split else []
            where += [f"curriculum level {self.curriculum}"] if self.curriculum is not None else []
            raise TaskError(f"{env_id or domain.name}: no tasks{' in ' + ', '.join(where) if where else ''}")
        self.env_id = env_id
        self.web_mode = web_mode
        self.render_images = render_images
        self.max_steps = int(max_steps)
        self.image_size = tuple(image_size)
        self.viewport = tuple(viewport)
        self.render_mode = render_mode
        self.record_trace = record_trace
        self.trace_path = trace_path
        self.watchdog_s = watchdog_s
        #: the step limit of a TimeLimit wrapper over this env (set by :class:`embodiedweb.registration.StepLimit`)
        self.time_limit: int | None = None
        self.domains = ("web", *domain.world_kinds, "meta") if domain.web_enabled else (*domain.world_kinds, "meta")
        #: instructions given one at a time (``done [answer]`` moves on): see :meth:`_finish_turn`
        self.multi_turn = bool(getattr(domain, "multi_turn", False))
        if self.multi_turn:
            self.domains += ("dialogue",)
        if teacher_forcing and not self.multi_turn:
            raise gym.error.Error(f"{env_id or domain.name}: teacher_forcing needs an env that gives its instructions "
                                  "one at a time (e.g. EWA-Assistant-v0)")
        self.teacher_forcing = bool(teacher_forcing)

        self.embodied_view = embodied_view
        self.embodied_depth = bool(embodied_depth)
        self.embodied_masks = bool(embodied_masks)
        self.world = domain.make_world()
        if embodied_view == "auto":
            has_camera = callable(getattr(self.world, "first_person", None))
            self.embodied_view = "first_person" if has_camera and render_images else "top_down"
        self._check_view_options()

        obs_spaces: dict[str, spaces.Space] = {k: obs_text_space(OBS_TEXT_MAX[k]) for k in OBS_TEXT_KEYS}
        if self.multi_turn:
            obs_spaces["dialogue"] = obs_text_space(DIALOGUE_MAX)
        w, h = self.image_size
        if render_images:
            vw, vh = self.viewport
            obs_spaces["embodied_image"] = spaces.Box(0, 255, (h, w, 3), np.uint8)
            if embodied_view == "both":
                obs_spaces["embodied_map"] = spaces.Box(0, 255, (h, w, 3), np.uint8)
            obs_spaces["web_screenshot"] = spaces.Box(0, 255, (vh, vw, 3), np.uint8)
        if self.embodied_depth:
            obs_spaces["embodied_depth"] = spaces.Box(0.0, np.inf, (h, w), np.float32)
        if self.embodied_masks:
            obs_spaces["embodied_masks"] = spaces.Box(0, np.iinfo(np.int32).max, (h, w), np.int32)
        self.observation_space = spaces.Dict(obs_spaces)
        self.action_space = UnicodeText(10_000)

        self.webapp = get_webapp()
        self.session = self.webapp.new_session_id()
        self.driver: WebDriver | None = None
        self.task: Task | None = None
        self.trace = Trace()
        #: a counter of the changes of the episode's semantic state (the world's ``semantic_state()``, the web
        #: session's ``snapshot()`` and the answer): it goes up at every ``reset``, at the step that gives the
        #: answer (``stop``) and at every step that changed a state: with ``record_trace``, when the step's trace
        #: diff is not empty; without, whenever the action may have changed one (the per-step ``changed`` flag
        #: the trace's diffs rely on). It never goes down. Equal values mean an unchanged state: wrappers key
        #: caches of what they compute from the state on it (:class:`embodiedweb.wrappers.ShapedReward`'s
        #: completion).
        self.state_version = 0
        self._reset_state()

    # helpers -----------------------------------------------------------------------------------
    def _check_view_options(self) -> None:
        """``embodied_view``/``embodied_depth``/``embodied_masks`` need a world with a first-person camera
        (the kitchen): elsewhere (the street graph) they are refused at make."""
        if self.embodied_view not in EMBODIED_VIEWS:
            raise gym.error.Error(f"embodied_view must be one of {', '.join(EMBODIED_VIEWS)}, "
                                  f"got {self.embodied_view!r}")
        first_person = self.embodied_view != "top_down" or self.embodied_depth or self.embodied_masks
        if first_person and not callable(getattr(self.world, "first_person", None)):
            raise gym.error.Error(f"{self.env_id or self.domain.name}: embodied_view={self.embodied_view!r}, "
                                  "embodied_depth and embodied_masks need a world with a first-person camera "
                                  f"(the kitchen); the {self.domain.world_kind} world has none")
        if self.embodied_view != "top_down" and not self.render_images:
            raise gym.error.Error(f"embodied_view={self.embodied_view!r} needs render_images=True")

    def _embodied_views(self) -> dict[str, np.ndarray]:
        """The embodied image (first-person or top-down, per ``embodied_view``) and the optional
        depth, mask and map keys."""
        out: dict[str, np.ndarray] = {}
        # a world of several parts (the assistant's) has a camera only in some episodes: without one, the
        # image is the top-down view and depth and masks are empty (0 m, no object)
        camera = getattr(self.world, "first_person", None)
        fp_rgb = self.render_images and self.embodied_view != "top_down" and camera is not None
        if camera is not None and (fp_rgb or self.embodied_depth or self.embodied_masks):
            frame = camera(self.image_size, rgb=fp_rgb, masks=self.embodied_masks)
            if fp_rgb:
                out["embodied_image"] = frame.rgb
            if self.embodied_depth:
                out["embodied_depth"] = frame.depth
            if self.embodied_masks:
                out["embodied_masks"] = frame.mask
        elif camera is None:
            w, h = self.image_size
            if self.embodied_depth:
                out["embodied_depth"] = np.zeros((h, w), np.float32)
            if self.embodied_masks:
                out["embodied_masks"] = np.zeros((h, w), np.int32)
        if self.render_images and (self.embodied_view != "first_person" or camera is None):
            top = self._fit(self.world.image(self.image_size), self.image_size)
            out["embodied_map" if self.embodied_view == "both" else "embodied_image"] = top
            if camera is None:
                out["embodied_image"] = top
        return out

    def _reset_state(self) -> None:
        self.active = "web"
        self.steps = 0
        self.switches = 0
        self.message = ""
        self.last_action = ""
        self._action_chars = 0  # the length of the last action as given (last_action may be cut)
        self.last_error = ""
        self.answer: str | None = None
        self._stopped = False  # the answer was given (state_version counted it)
        self.done = False
        self.history: list[dict[str, Any]] = []
        self._web_state: dict[str, Any] = {}
        self._world_state: dict[str, Any] = {}
        self._actions: list[Any] = []  # as given to step(), for replay by a copy (__getstate__)
        # a skill variant's replayed oracle prefix (see reset): its steps and switches, and whether it runs now
        self._prefix_steps = 0
        self._prefix_switches = 0
        self._in_prefix = False
        # a multi-turn episode: the current instruction's index, each finished one's result, and the state
        # at the start of the current one (what its checker compares against)
        self.turn = 0
        self.turns: list[dict[str, Any]] = []
        self._turn_start: dict[str, Any] = {}

    def describe_actions(self, with_examples: bool = True) -> str:
        """The action set of this env (web + its world + switch/stop), ready for a prompt."""
        return REGISTRY.describe(self.domains, with_examples)

    def _ensure_driver(self) -> WebDriver:
        if self.driver is None:
            self.driver = make_driver(self.web_mode, self.viewport, self.watchdog_s)
        return self.driver

    # gym API -------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start an episode (``options={"task_id": ...}`` picks the task); returns ``(obs, info)``."""
        super().reset(seed=seed)
        options = options or {}
        if "task_id" in options and options["task_id"] is not None:
            task = self.tasks.get(str(options["task_id"]))
        else:
            task = self.tasks.tasks[int(self.np_random.integers(len(self.tasks)))]
        ep_seed = int(seed) if seed is not None else int(self.np_random.integers(2**31 - 1))
        self.episode_seed = ep_seed
        t0 = time.perf_counter()
        self._begin(task, ep_seed)
        if self.skill is not None:
            self._play_prefix(task, ep_seed)
        t1 = time.perf_counter()
        obs = self._observation()
        t2 = time.perf_counter()
        info = self._info(reset_ms=(t1 - t0) * 1e3, obs_ms=(t2 - t1) * 1e3)
        if self.skill is not None:
            info["prefix_steps"] = self._prefix_steps
        return obs, info

    def _begin(self, task: Task, ep_seed: int) -> None:
        """Start ``task``'s episode with ``ep_seed``: world, web session, driver and trace."""
        self.task = task
        self._reset_state()
        self.state_version += 1
        # a task may size its own step budget (e.g. to its route); the env's max_steps caps it, and so does a
        # smaller TimeLimit over the env (gym.make(id, max_episode_steps=n)): the env then truncates at that
        # step itself, so info["metrics"] is there whichever truncates
        self.episode_limit = min(self.step_limit, int(task.meta.get("max_steps", self.max_steps)))
        self.world.reset(task.embodied, ep_seed)
        self.world.set_clock(0)
        self.webapp.reset_session(self.session, task.web, ep_seed)
        driver = self._ensure_driver()
        driver.reset(self.session, task.web.get("start_url", "/"))  # recovers from browser faults itself
        self.active = task.start if self.domain.web_enabled else "embodied"
        self.trace.close()
        self.trace = Trace(self.trace_path)
        if self.record_trace:
            self._world_state = self.world.semantic_state()
            self._web_state = self.webapp.snapshot(self.session)
            record = {"step": 0, "event": "reset", "task_id": task.task_id, "seed": ep_seed,
                      "active": self.active, "web_url": driver.url, "world": self._world_state,
                      "web": self._web_state}
            if self.skill is not None:
                record["skill"] = self.skill
            self.trace.add(record)
        if self.multi_turn:
            self._turn_start = self._turn_snapshot()

    def _play_prefix(self, task: Task, ep_seed: int) -> None:
        """A skill variant's start: the domain's oracle plays the leading actions of ``task`` through the
        public interface (:meth:`step`), so the agent starts where its skill begins.

        * ``skill="web"``: the oracle's actions before its first web action (often just the switch into the
          web, none when the task starts there): the agent starts in the web, nothing researched yet.
        * ``skill="embodied"``: the oracle's actions up to and including its last web action before its
          first embodied-world action (``switch_environment`` is not one): the research is done and the
          agent is still on that web page, seeing what the oracle found; it must switch and act in the world.
          (When the oracle acts in the world before any web action, as in geolocation, there is no prefix.)

        What the agent sees: the episode *starts after the prefix*. ``info["step"]``, the step limit
        (``max_steps``, the task's budget, a ``TimeLimit`` over the env) and ``metrics["steps"]`` /
        ``metrics["switches"]`` count the agent's own actions only, from 0, as Gymnasium's ``TimeLimit``
        (which never sees the prefix) counts them; this is the least surprising choice for an RL user:
        the first ``step`` is step 1 of the agent's budget and a return is over the agent's actions only.
        The first observation is that of a fresh episode at that state (``last_action``, its error and the
        carried message are empty). The prefix is not hidden: the trace keeps its records, each marked
        ``"prefix": true``, followed by a ``{"event": "prefix_end"}`` record; ``metrics`` and the reset's
        ``info`` give ``prefix_steps`` (and metrics ``prefix_switches``). The checker judges the whole
        episode (the prefix's web work included). The oracle is deterministic, so the prefix (and the
        episode) is too, for a given task and seed; a pickled copy plays it again on its ``reset``.
        """
        self._in_prefix = True
        try:
            agent = self.domain.oracle(task)
            obs, info = self._observation(), self._info()
            agent.reset(self, obs, info)
            taken: list[str] = []
            kinds: list[str] = []
            while len(taken) < self.episode_limit - 1:
                action = agent.act(obs, info)
                kind = action_kind(self, action)
                if kind in ("stop", "invalid", "web" if self.skill == "web" else "world"):
                    break
                obs, _, _, _, info = self.step(action)
                taken.append(action)
                kinds.append(kind)
            if self.skill == "embodied":
                cut = max((i + 1 for i, k in enumerate(kinds) if k == "web"), default=0)
                if cut < len(taken):  # the oracle went past its last web action: start again, replay up to it
                    self._begin(task, ep_seed)
                    self._in_prefix = True
                    for action in taken[:cut]:
                        self.step(action)
        finally:
            self._in_prefix = False
        self._prefix_steps, self._prefix_switches = self.steps, self.switches
        self._actions = []  # a copy replays the prefix on its own reset
        self.last_action, self.last_error, self.message, self._action_chars = "", "", "", 0
        self.trace.add({"step": self.steps, "event": "prefix_end", "skill": self.skill,
                        "prefix_steps": self.steps, "active": self.active})

    @property
    def step_limit(self) -> int:
        """The most steps of an episode: ``max_steps``, or a smaller limit of a TimeLimit wrapper over the env."""
        return min(self.max_steps, self.time_limit) if self.time_limit else self.max_steps

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Run one action string; returns ``(obs, reward, terminated, truncated, info)`` (see the class docstring)."""
        if self.task is None:
            raise RuntimeError("call reset() before step()")
        self._actions.append(_Overlong.of(action))
        t0 = time.perf_counter()
        text = clean_action(action)
        self.last_action = cut(text, MAX_ACTION_CHARS)
        self._action_chars = len(text)
        self.last_error = ""
        carried = ""
        parsed: ParsedAction | None = None
        changed = ""
        if self.done:
            self.last_error = "The episode has ended; call reset() to start a new one."
        else:
            try:
                if len(text) > MAX_ACTION_CHARS:
                    raise ActionError(f"Action too long ({len(text):,} characters; at most {MAX_ACTION_CHARS:,}).")
                parsed = REGISTRY.parse(text if isinstance(action, str) else action, self.domains)
            except ActionError as e:
                self.last_error = str(e)
            if parsed is not None:
                # one clock for both domains: what the sites log and the world stamps is this step's number
                self.world.set_clock(self.steps + 1)
                self.webapp.set_clock(self.session, self.steps + 1)
                carried, changed = self._execute(parsed)
                # what the world made true on a site (a pickup collected as the walker reaches the store)
                if changed and self.domain.web_enabled and self.domain.sync_sites(self.world, self.webapp,
                                                                                   self.session):
                    changed = "web" if changed == "web" else "both"
            self.steps += 1
        t1 = time.perf_counter()
        self.last_error = cut(self.last_error, MAX_ERROR_CHARS)
        self.message = carried
        terminated = self.answer is not None
        truncated = not terminated and self.steps - self._prefix_steps >= self.episode_limit
        metrics = None
        if (terminated or truncated) and not self.done:
            self.done = True
            metrics = self._metrics()
        obs = self._observation()
        faults = self._driver_faults()
        if faults:
            self.last_error = cut(f"{self.last_error} {faults}".strip(), MAX_ERROR_CHARS)
            obs["last_action_error"] = fit_text(self.last_error, OBS_TEXT_MAX["last_action_error"])
        t2 = time.perf_counter()
        record = {"step": self.steps, "action": self.last_action, "parsed": parsed.to_json() if parsed else None,
                  "active": self.active, "error": self.last_error, "web_url": obs["web_url"],
                  "timings": {"action_ms": (t1 - t0) * 1e3, "observation_ms": (t2 - t1) * 1e3}}
        if self._in_prefix:
            record["prefix"] = True
        if self.record_trace:
            record["changes"] = self._changes(changed)
            if record["changes"]:
                self.state_version += 1
        elif changed:  # no diff taken: the action may have changed the state
            self.state_version += 1
        if self.answer is not None and not self._stopped:
            self.state_version += 1  # the answer is part of the state a checker reads
            self._stopped = True
        if parsed is not None and parsed.domain == "dialogue" and not self.last_error:
            self.state_version += 1  # a judged turn (and a restore) is part of what the checker reads
        if metrics is not None:
            record["metrics"] = metrics
        self.trace.add(record)
        self.history.append(record)
        info = self._info(action_ms=(t1 - t0) * 1e3, obs_ms=(t2 - t1) * 1e3)
        info["parsed_action"] = parsed.to_json() if parsed else {}  # one type per key: vector envs batch infos
        reward = 0.0
        if metrics is not None:
            info["metrics"] = metrics
            reward = 1.0 if metrics["skill_success" if self.skill is not None else "overall"] else 0.0
        return obs, reward, bool(terminated), bool(truncated), info

    def _execute(self, p: ParsedAction) -> tuple[str, str]:
        """Run a parsed action; returns (message to carry, which state may have changed)."""
        if not self.domain.web_enabled and (p.domain == "web" or p.name == "switch_environment"):
            self.last_error = f"'{p.name}' is not available: this setting has no web access."
            return "", ""
        if p.domain == "dialogue":
            self._finish_turn(p.args.get("answer", "") or "")
            return "", "both"
        if p.domain == "meta":
            if p.name == "switch_environment":
                self.active = "embodied" if self.active == "web" else "web"
                self.switches += 1
                if self.active == "embodied":
                    deliveries = self.webapp.take_deliveries(self.session)
                    if deliveries:
                        self.world.on_enter(deliveries)
                        return p.args.get("message", ""), "both"
                return p.args.get("message", ""), ""
            if p.name == "stop":
                self.answer = p.args.get("answer", "") or ""
                return "", ""
        want = "web" if p.domain == "web" else "embodied"
        if want != self.active:
            where = "the web" if self.active == "web" else "the embodied environment"
            other = "a web" if want == "web" else "an embodied"
            self.last_error = (f"'{p.name}' is {other} action, but you are in {where}. "
                               f"Use switch_environment to go to the {want} environment first.")
            return "", ""
        if p.domain == "web":
            try:
                self.last_error = self._ensure_driver().execute(p.name, p.args)
            except Exception as e:  # browser faults are recovered by the driver; this one could not be
                self.last_error = f"The web action failed ({type(e).__name__}: {str(e)[:300]}); try again."
            return "", "web"
        try:
            self.last_error = self.world.execute(p.name, p.args)
        except Exception as e:  # a world bug must not end the run
            self.last_error = f"{p.name} failed: {type(e).__name__}: {str(e)[:200]}"
        return "", "world"

    def _changes(self, changed: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if changed in ("web", "both"):
            new = self.webapp.snapshot(self.session)
            d = diff_state(self._web_state, new)
            self._web_state = new
            if d:
                out["web"] = d
        if changed in ("world", "both"):
            new = self.world.semantic_state()
            d = diff_state(self._world_state, new)
            self._world_state = new
            if d:
                out["world"] = d
        return out

    @property
    def _states_recorded(self) -> bool:
        """Whether ``_web_state`` and ``_world_state`` are the states now: with ``record_trace``, from the start
        of an episode (every step that may change a state takes its diff, which leaves the new state there)."""
        return self.record_trace and self.task is not None

    def _metrics(self, between_steps: bool = False) -> dict[str, Any]:
        """The checker's metrics of the current state. ``between_steps`` (a wrapper's call after a step or
        reset returned): with ``record_trace`` the states the last step's diffs left are the current ones
        and are read instead of new ones (a world step leaves the web's snapshot as it was, and the other way
        round); the step that ends an episode checks before its diffs are taken, so it reads new ones."""
        assert self.task is not None
        if between_steps and self._states_recorded:
            world, web = self._world_state, self._web_state
        else:
            world, web = self.world.semantic_state(), self.webapp.snapshot(self.session)
        ep = Episode(self.task, world, web, self.answer, self.steps, self.switches, self.history, list(self.turns))
        try:
            m = dict(self.domain.check(ep))
        except Exception as e:  # a checker bug must be visible, not crash the run
            m = {"overall": False, "web": False, "embodied": False, "completion": 0.0,
                 "checker_error": f"{type(e).__name__}: {e}"}
        m["overall"] = bool(m.get("overall", False))
        m["web"] = bool(m.get("web", False))
        m["embodied"] = bool(m.get("embodied", False))
        m["completion"] = float(m.get("completion", 0.0))
        m["steps"] = self.steps - self._prefix_steps
        m["switches"] = self.switches - self._prefix_switches
        m["answer"] = self.answer
        if self.multi_turn:
            m["teacher_forcing"] = self.teacher_forcing
        if self.skill is not None:  # scored on the skill's own metric (see _play_prefix)
            m["skill"] = self.skill
            m["skill_success"] = bool(m[self.skill])
            m["prefix_steps"] = self._prefix_steps
            m["prefix_switches"] = self._prefix_switches
        return m

    def _driver_faults(self) -> str:
        take = getattr(self.driver, "take_faults", None)
        return take() if take is not None else ""

    def _web_view(self) -> tuple[str, str, str]:
        """(url, tabs, page text) of the web session; a browser that cannot be started again now is
        described instead (the next step tries again)."""
        assert self.driver is not None
        try:
            return self.driver.url, self.driver.tabs_text(), self.driver.tree().text
        except Exception as e:
            self.last_error = cut(f"{self.last_error} The browser is not available ({str(e)[:300]}); "
                                  "the next step tries again.".strip(), MAX_ERROR_CHARS)
            return self.driver.url, "", "(the browser is not available)"

    def _observation(self) -> dict[str, Any]:
        assert self.task is not None and self.driver is not None
        web_url, web_tabs, web_text = self._web_view()
        obs: dict[str, Any] = {
            "active": self.active,
            "instruction": self.instruction,
            "web_url": web_url,
            "web_tabs": web_tabs,
            "web_text": web_text,
            "embodied_text": self.world.text(),
            "last_action": self.last_action,
            "last_action_error": self.last_error,
            "message": self.message,
        }
        # inside the observation space: long text cut with a marker, characters outside the charset shown as
        # U+FFFD (the trace keeps the real text)
        for key in OBS_TEXT_KEYS:
            obs[key] = fit_text(obs[key], OBS_TEXT_MAX[key], self._action_chars if key == "last_action" else None)
        if self.multi_turn:
            obs["dialogue"] = fit_text(self.dialogue_text(), DIALOGUE_MAX)
        if self.render_images or self.embodied_depth or self.embodied_masks:
            obs.update(self._embodied_views())
        if self.render_images:
            obs["web_screenshot"] = self._web_screenshot()
        return obs

    def _web_screenshot(self) -> np.ndarray:
        assert self.driver is not None
        try:
            return self._fit(self.driver.screenshot(self.viewport), self.viewport)
        except Exception:  # said in web_text; a blank page stands in
            return np.full((self.viewport[1], self.viewport[0], 3), 255, np.uint8)

    @staticmethod
    def _fit(img: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        w, h = size
        if img.shape[:2] == (h, w):
            return np.ascontiguousarray(img, dtype=np.uint8)
        from PIL import Image

        return np.asarray(Image.fromarray(img).convert("RGB").resize((w, h)), dtype=np.uint8)

    def admissible_actions(self) -> list[str]:
        """Concrete actions valid now in the active domain, plus switching and stopping."""
        acts: list[str] = []
        if self.active == "web" and self.driver is not None:
            acts += self._web_actions(self.driver)
        elif self.active == "embodied":
            acts += self.world.admissible_actions()
        acts += ["switch_environment", "stop"] if self.domain.web_enabled else ["stop"]
        if self.multi_turn:
            acts.append("done")
        return acts

    @staticmethod
    def _web_actions(driver: WebDriver) -> list[str]:
        try:
            tree, n_tabs = driver.tree(), len(driver.tab_titles())
        except Exception:  # the browser is down (said in the observation)
            return []
        acts = [f"click [{n.bid}]" for n in tree.interactive
                if n.role in ("link", "button", "checkbox", "radio", "tab", "menuitem", "switch")]
        acts += [f"type [{n.bid}] [{o}]" for n, o in _select_options(tree)]
        acts += ["scroll [down]", "scroll [up]", "go_back", "go_forward", "new_tab"]
        if n_tabs > 1:
            acts.append("close_tab")
            acts += [f"tab_focus [{i}]" for i in range(n_tabs) if i != driver.active_tab]
        return acts

    def _info(self, **timings: float) -> dict[str, Any]:
        assert self.task is not None
        return {"task_id": self.task.task_id, "env_id": self.env_id, "active": self.active,
                "step": self.steps - self._prefix_steps,
                "timings": Timings(**timings), "admissible_actions": self.admissible_actions(),
                "last_action_error": self.last_error}

    def render(self) -> Any:
        """``rgb_array``: one frame of a constant size for the env's life (video recorders need that):
        the web page (``viewport``) on the left and the embodied view on the right, scaled to the page's
        height, the active one framed in blue; an env without web access renders the embodied view only
        (``image_size``). ``ansi``: the observation's text fields."""
        if self.render_mode == "rgb_array":
            return self._render_frame()
        if self.render_mode == "ansi":
            obs = self._observation()
            return "\n".join(f"## {k}\n{obs[k]}" for k in OBS_TEXT_KEYS)
        return None

    @property
    def frame_shape(self) -> tuple[int, int, int]:
        """The shape of every ``render()`` frame in ``rgb_array`` mode: (height, width, 3)."""
        iw, ih = self.image_size
        if not self.domain.web_enabled:
            return ih, iw, 3
        vw, vh = self.viewport
        return vh, vw + max(1, round(iw * vh / ih)), 3

    def _render_frame(self) -> np.ndarray:
        h, w, _ = self.frame_shape
        camera = getattr(self.world, "first_person", None)
        if self.embodied_view == "top_down" or camera is None:
            embodied = self._fit(self.world.image(self.image_size), self.image_size)
        else:
            embodied = camera(self.image_size).rgb
        if not self.domain.web_enabled:
            return embodied
        vw, vh = self.viewport
        frame = np.full((h, w, 3), 255, np.uint8)
        frame[:, :vw] = self._web_screenshot()
        frame[:, vw:] = self._fit(embodied, (w - vw, h))
        x0, x1 = (0, vw) if self.active == "web" else (vw, w)
        b = max(2, h // 120)
        blue = np.array([40, 110, 230], np.uint8)
        frame[:b, x0:x1] = frame[-b:, x0:x1] = blue
        frame[:, x0:x0 + b] = frame[:, x1 - b:x1] = blue
        return frame

    @property
    def suite_version(self) -> str:
        """The version of this env's task suite: checker rules, tasks (every split), world data and
        settings (see :mod:`embodiedweb.versions`); every result record carries it."""
        # the step limit in force (a lower ``max_episode_steps`` given to gym.make counts): results
        # measured under another limit are another suite
        limit = self.step_limit
        if self._suite_version is None or self._suite_version[0] != limit:
            settings = {"max_steps": limit, **self.domain.settings()}
            if self.curriculum is not None:  # the level and the tasks it holds (every split)
                import hashlib

                ids = sorted(level_ids(self.domain.name, self.curriculum, [t.task_id for t in self._suite]))
                settings["curriculum"] = self.curriculum
                settings["curriculum_tasks"] = hashlib.sha256("\n".join(ids).encode()).hexdigest()
            if self.skill is not None:
                settings["skill"] = self.skill
            if self.level != "standard":  # (the standard tier's versions are as before levels existed)
                settings["level"] = self.level
            self._suite_version = (limit, suite_version(self._suite, self.domain.checker_version, settings,
                                                        level=self.level))
        return self._suite_version[1]

    def trace_digest(self) -> str:
        """Hash of this episode's trace (timings excluded): equal for equal seeds and actions."""
        return self.trace.digest()

    # pickling and copying -------------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        """The state a copy is rebuilt from: configuration, episode (task, seed, actions) and RNG.

        Semantics (``pickle``, ``cloudpickle``, ``copy.deepcopy``): the copy is built anew with the same
        domain, task suite, split and keyword arguments, gets its own web session (its own rows in the
        process-wide sites database: it never shares the original's cart) and its own world and web
        driver. Mid-episode, the episode is restored by replaying it: ``reset`` with the same task and
        seed, then the same actions; the env is deterministic by seed, so the copy's observation, trace
        (digest included), metrics and next steps equal the original's; a copy whose replayed trace
        digest differs warns (:class:`RuntimeWarning`). The RNG (``np_random``) is copied (seeded first
        if it was not yet), so the next unseeded ``reset`` picks the same task and seed in both. A copy's
        trace is kept in memory only: ``trace_path`` is not carried over (two envs would append to one
        file). Sites added to the process-wide web app at run time (``add_site``) must be added in the
        copy's process too: a copy that misses one warns. The cost is one ``reset`` plus one ``step``
        per action taken so far; in browser mode the replay runs in the copy's own new browser (page
        state the sites do not keep, such as scroll position, is rebuilt by the same actions).
        """
        episode = None
        if self.task is not None:
            episode = {"task_id": self.task.task_id, "seed": self.episode_seed, "actions": list(self._actions),
                       "digest": self.trace_digest()}
        return {"pickle_version": 1, "init": self._init_kwargs(), "spec": self.spec, "episode": episode,
                "time_limit": self.time_limit,
                "np_random": self.np_random, "np_random_seed": self._np_random_seed,  # seeded if not yet
                "sites": [site.name for site in self.webapp.sites]}

    def __setstate__(self, state: dict[str, Any]) -> None:
        init = dict(state["init"])
        self.__init__(init.pop("domain"), init.pop("tasks"), **init)  # type: ignore[misc]
        self.spec = state["spec"]
        self.time_limit = state.get("time_limit")
        missing = sorted(set(state["sites"]) - {site.name for site in self.webapp.sites})
        if missing:
            warnings.warn(f"{self.env_id or self.domain.name}: the original's web app had sites this process lacks "
                          f"({', '.join(missing)}); add them before unpickling, or the copy's pages differ",
                          RuntimeWarning, stacklevel=2)
        episode = state["episode"]
        if episode is not None:
            self.reset(seed=episode["seed"], options={"task_id": episode["task_id"]})
            for action in episode["actions"]:
                self.step(action.text() if isinstance(action, _Overlong) else action)
            if self.trace_digest() != episode["digest"]:
                warnings.warn(f"{self.env_id or self.domain.name}: the copy's replayed episode "
                              f"({episode['task_id']}, seed {episode['seed']}, {len(episode['actions'])} actions) "
                              "has another trace digest than the original's", RuntimeWarning, stacklevel=2)
        self._np_random = state["np_random"]
        self._np_random_seed = state["np_random_seed"]

    def _init_kwargs(self) -> dict[str, Any]:
        """The arguments of ``__init__`` this env was built with (``trace_path`` left out)."""
        out: dict[str, Any] = {"domain": self.domain, "tasks": self._suite}
        for name in list(inspect.signature(EmbodiedWebEnv.__init__).parameters)[3:]:
            out[name] = None if name == "trace_path" else getattr(self, name)
        return out

    def close(self) -> None:
        """Close the web driver and the trace file and drop the web session."""
        if self.driver is not None:
            self.driver.close()
            self.driver = None
        self.trace.close()
        try:
            self.webapp.drop_session(self.session)
        except Exception:  # closing at interpreter exit: nothing left to clean
            pass
        super().close()

    def __del__(self) -> None:  # pragma: no cover - best effort
        try:
            if self.driver is not None:
                self.driver.close()
        except Exception:
            pass


class _Overlong:
    """An action over :data:`MAX_ACTION_CHARS`, kept for replay as its first characters and its length:
    the env refuses it and stores it cut, so that is all the replay needs to give the same trace."""

    __slots__ = ("head", "length")

    def __init__(self, head: str, length: int) -> None:
        self.head, self.length = head, length

    @classmethod
    def of(cls, action: Any) -> Any:
        if isinstance(action, str) and len(action) > MAX_ACTION_CHARS:
            return cls(action[:MAX_ACTION_CHARS], len(action))
        return action

    def __getstate__(self) -> tuple[str, int]:
        return self.head, self.length

    def __setstate__(self, state: tuple[str, int]) -> None:
        self.head, self.length = state

    def text(self) -> str:
        return self.head + "\x00" * (self.length - len(self.head))


def _select_options(tree: Any) -> list[tuple[Any, str]]:
    out = []
    current = None
    for n in tree.nodes.values():
        if n.role == "combobox" and n.tag == "select":
            current = n
        elif n.role == "option" and current is not None:
            out.append((current, n.name))
    return out
