"""Process metrics (WebStep-style) computed from the env's semantic trace, never from page HTML.

Input: a trace as ``env.trace.records`` or a ``<task_id>.trace.jsonl`` file — a reset record (step
0) with the full ``world`` and ``web`` states and ``web_url``, then one record per step with
``action``, ``parsed`` ({name, domain, args} or None), ``active``, ``error``, ``web_url`` and
``changes`` ({"web": {path: new}, "world": {path: new}}).

**Semantic atoms.** The states are replayed from the reset record; each changed path is compared with
its previous value and flattened into atoms ``(domain, path, value)``: dicts recurse, lists of dicts
with an id field (``objectId``, ``id``, ...) are matched by id, a list that only grew gives one atom
per appended element, other values give one atom. Atoms whose path contains a *pose key* (``agent``,
``position``, ``rotation``, ``horizon``, ``heading``, ...) are dropped: where the agent stands is not
a semantic event (an agent walking with MoveAhead and one teleporting reach the same states).

**Skills** (one per step, :func:`classify`):

* web — ``commit``: ``stop``, or a web step whose atoms touch cart / order(s) / checkout / booking /
  reservation state (adding to the cart, ordering, checking out; reading a recipe step is not a commit);
  ``search``: ``type`` with Enter, or a URL whose search term (q, query, search, keyword, term) changed
  to a non-empty value; ``filter``: the non-empty query parameters other than the search term and
  ``page`` changed, and the effect-less clicks/typing (checkbox, radio, select) right before such a
  step; ``inspect``: arriving at a detail page (recipe overview or step, product, article, directions,
  place, ...); ``navigate``: any other click/goto/back/forward/tab action that changed the path;
  ``other_web``: the rest (scroll, hover, effect-less clicks).
* embodied — ``move`` (Move*, Rotate*, Look*, Teleport, forward, left, right, move), ``pick``,
  ``put`` (PutObject, DropHandObject), ``slice``, ``cook`` (ToggleObjectOn of a heat source: food
  cooks only with heat), ``open`` (OpenObject, CloseObject), ``other_embodied``.
* ``switch`` (switch_environment) and ``invalid`` (an action that did not parse).

**Events and the bifurcation step.** Each step yields up to two events, in this order: a navigation
event ``("nav", path)`` when the web path (URL path without query) was not seen before in the episode
(the start page counts as seen), and a state event ``("state", atoms)`` when its atom set is
non-empty; a ``stop`` step yields ``("stop",)``. Steps without events are skipped. The agent's events
are matched in order against the oracle's events on the same task and seed with a pointer ``p``
(initially 0): an agent event matches if it equals the oracle event at some index ``j >= p`` such that
every oracle event in ``p..j-1`` is a navigation event (the agent may skip pages the oracle visited,
never a state change or stop); then ``p = j + 1``. The **bifurcation step** is the step of the first
agent event that does not match — the first point where the agent left every oracle-equivalent path —
or ``None`` when every agent event matched (the oracle against itself; an agent that was cut off by
``max_steps`` while still on the oracle's path).

**Coverage of required information at the commit step.** Required information = the set of web paths
of the oracle's step records before its first commit step (the start page excluded); coverage = the
fraction of them among the paths of the agent's step records before its first commit (the whole
episode when it never commits); 1.0 when nothing is required.

**GUI steps per semantic step** = steps / steps whose trace record has non-empty ``changes``
(``None`` when there is none).
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from embodiedweb.runs import steps_subdir
from embodiedweb.trace import APPEND, canonical_json, id_of, list_ids

POSE_KEYS = frozenset({"agent", "position", "rotation", "horizon", "heading", "pose", "distance", "visible",
                       "x", "y", "z", "yaw", "pitch"})
COMMIT_KEYS = frozenset({"cart", "carts", "order", "orders", "checkout", "booking", "bookings", "reservation",
                         "reservations", "purchases"})
SEARCH_PARAMS = frozenset({"q", "query", "search", "keyword", "keywords", "term"})
IGNORED_PARAMS = frozenset({"page", "p", "offset", "sort_dir"})
DETAIL_RE = re.compile(r"/(recipe|step|product|item|article|wiki|place|poi|hotel|flight|restaurant|listing|order)/"
                       r"[^/]+|/directions?(/|$)", re.I)
NAV_ACTIONS = frozenset({"click", "goto", "go_back", "go_forward", "tab_focus", "new_tab", "close_tab", "type",
                         "press"})
HEAT_SOURCES = frozenset({"StoveBurner", "StoveKnob", "Microwave", "Toaster", "CoffeeMachine", "Oven"})
EMBODIED_SKILLS = {
    "move": {"moveahead", "moveback", "moveleft", "moveright", "rotateleft", "rotateright", "lookup", "lookdown",
             "teleport", "forward", "left", "right", "move", "backward", "turn_around"},
    "pick": {"pickupobject", "pickup"},
    "put": {"putobject", "drophandobject", "put"},
    "slice": {"sliceobject"},
    "cook": set(),  # switching a heat source on: recognised by the object, not the action name
    "open": {"openobject", "closeobject"},
}
WEB_SKILLS = ("navigate", "search", "filter", "inspect", "commit")
SKILLS = WEB_SKILLS + tuple(EMBODIED_SKILLS) + ("other_web", "other_embodied", "switch", "invalid")


def url_path(url: str) -> str:
    return urlsplit(url or "").path or "/"


def url_key(url: str) -> str:
    """The URL without scheme and host (path + query)."""
    s = urlsplit(url or "")
    return (s.path or "/") + (f"?{s.query}" if s.query else "")


def _params(url: str) -> dict[str, str]:
    return {k: v for k, v in parse_qsl(urlsplit(url or "").query, keep_blank_values=True) if v != ""}


# ------------------------------------------------------------------------------------------ state replay
def _canon(v: Any) -> str:
    return canonical_json(v)


def flat_atoms(old: Any, new: Any, path: tuple[Any, ...]) -> list[tuple[tuple[Any, ...], str]]:
    """``[(path, canonical value)]`` of what changed from ``old`` to ``new`` (see module docstring)."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for k in sorted(set(old) | set(new), key=str):
            if old.get(k, None) != new.get(k, None) or (k in old) != (k in new):
                out += flat_atoms(old.get(k), new.get(k), path + (k,))
        return out
    if isinstance(old, list) and isinstance(new, list):
        ids_old = list_ids(old) if old else []
        ids_new = list_ids(new) if new else []
        if (old or new) and ids_old is not None and ids_new is not None:
            a = dict(zip(ids_old, old, strict=True))
            b = dict(zip(ids_new, new, strict=True))
            out = []
            for i in sorted(set(a) | set(b), key=str):
                if a.get(i) != b.get(i):
                    out += flat_atoms(a.get(i), b.get(i), path + (("id", i),))
            return out
        if len(new) > len(old) and new[:len(old)] == old:
            return [(path + ("+",), _canon(x)) for x in new[len(old):]]
    if old == new:
        return []
    return [(path, _canon(new))]


Key = Any  # a dict key (str), ("id", element id) for an element of an id-keyed list, or APPEND_KEY
APPEND_KEY = ("+",)  # the elements appended to a list (diff_state's ``list.[+]``)


def _split_path(node: Any, path: str) -> list[Key]:
    """Dotted ``path`` (as :func:`embodiedweb.trace.diff_state` writes it) as keys of ``node``: at each
    level the longest existing key wins (keys and ids may contain dots); in a list, ``[id]`` names the
    element with that id and a final ``[+]`` the appended elements; a key that does not exist yet is
    new and takes the rest of the path (``diff_state`` names a new key only as the last element)."""
    if path in ("", "."):
        return []
    parts = path.split(".")
    keys: list[Key] = []
    i = 0
    while i < len(parts):
        for j in range(len(parts), i, -1):
            k = ".".join(parts[i:j])
            if isinstance(node, dict) and k in node:
                keys.append(k)
                node = node[k]
                i = j
                break
            if isinstance(node, list) and k == APPEND and j == len(parts):
                keys.append(APPEND_KEY)
                return keys
            if isinstance(node, list) and k.startswith("[") and k.endswith("]"):
                item = next((x for x in node if str(id_of(x)) == k[1:-1]), None)
                if item is not None:
                    keys.append(("id", id_of(item)))
                    node = item
                    i = j
                    break
        else:
            keys.append(".".join(parts[i:]))
            break
    return keys


def _child(node: Any, key: Key) -> Any:
    if isinstance(key, tuple):
        return next((x for x in node if id_of(x) == key[1]), None) if isinstance(node, list) else None
    return node.get(key) if isinstance(node, dict) else None


def _set_child(node: Any, key: Key, value: Any) -> None:
    if isinstance(key, tuple):
        if isinstance(node, list):
            for n, x in enumerate(node):
                if id_of(x) == key[1]:
                    node[n] = value
                    return
    elif isinstance(node, dict):
        node[key] = value


class Replayer:
    """Replays ``changes`` onto the reset states and turns each step into semantic atoms."""

    def __init__(self, reset: dict[str, Any], pose_keys: frozenset[str] = POSE_KEYS) -> None:
        self.state = {"web": copy.deepcopy(reset.get("web") or {}), "world": copy.deepcopy(reset.get("world") or {})}
        self.pose_keys = pose_keys

    def apply(self, changes: dict[str, Any]) -> frozenset[tuple[str, tuple[Any, ...], str]]:
        atoms: set[tuple[str, tuple[Any, ...], str]] = set()
        for dom in ("web", "world"):
            for path, new in sorted((changes or {}).get(dom, {}).items()):
                root = self.state[dom]
                keys = _split_path(root, path)
                node = root
                for k in keys[:-1]:
                    if isinstance(k, tuple):
                        node = _child(node, k)
                    else:
                        node = node.setdefault(k, {}) if isinstance(node, dict) else {}
                grew = bool(keys) and keys[-1] == APPEND_KEY and isinstance(node, list)
                if grew:  # ``node`` is the list that grew by ``new``
                    keys, old, new = keys[:-1], list(node), node + list(new or [])
                else:
                    old = _child(node, keys[-1]) if keys else root
                for p, v in flat_atoms(old, new, tuple(keys)):
                    if not any(isinstance(c, str) and c in self.pose_keys for c in p):
                        atoms.add((dom, p, v))
                if grew:
                    node.extend(copy.deepcopy(new[len(old):]))
                elif not keys:
                    self.state[dom] = copy.deepcopy(new) if isinstance(new, dict) else {}
                else:
                    _set_child(node, keys[-1], copy.deepcopy(new))
        return frozenset(atoms)


# ------------------------------------------------------------------------------------------ step analysis
@dataclass
class StepInfo:
    """One analysed step of a trace."""

    step: int
    action: str
    name: str | None
    domain: str | None  # "web", a world kind ("kitchen", "street"), "meta", or None (unparsed)
    args: dict[str, Any]
    active: str
    error: str
    url_before: str
    url: str
    new_path: bool
    changed: bool  # the trace record's ``changes`` is non-empty
    atoms: frozenset[tuple[str, tuple[Any, ...], str]]
    skill: str = ""

    @property
    def ok(self) -> bool:
        return not self.error and self.name is not None

    @property
    def web_atoms(self) -> list[tuple[str, tuple[Any, ...], str]]:
        return [a for a in self.atoms if a[0] == "web"]

    @property
    def world_atoms(self) -> list[tuple[str, tuple[Any, ...], str]]:
        return [a for a in self.atoms if a[0] == "world"]


@dataclass
class Analysis:
    reset: dict[str, Any]
    steps: list[StepInfo] = field(default_factory=list)

    @property
    def start_path(self) -> str:
        return url_path(self.reset.get("web_url", ""))

    def first_commit(self) -> int | None:
        return next((s.step for s in self.steps if s.skill == "commit"), None)

    def paths_before(self, step: int | None) -> set[str]:
        """Web paths of the step records before ``step`` (all when None), the start page excluded."""
        return {url_path(s.url) for s in self.steps if step is None or s.step < step} - {self.start_path}

    def events(self) -> list[tuple[int, tuple[Any, ...]]]:
        out: list[tuple[int, tuple[Any, ...]]] = []
        for s in self.steps:
            if s.new_path:
                out.append((s.step, ("nav", url_path(s.url))))
            if s.atoms:
                out.append((s.step, ("state", s.atoms)))
            if s.name == "stop" and not s.error:
                out.append((s.step, ("stop",)))
        return out

    def skill_counts(self) -> Counter[str]:
        return Counter(s.skill for s in self.steps)


def load_trace(path: str | Path) -> list[dict[str, Any]]:
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError:
                    continue
    return out


def analyze(records: list[dict[str, Any]], pose_keys: frozenset[str] = POSE_KEYS) -> Analysis:
    """Replay a trace into :class:`StepInfo` s with skills (see module docstring)."""
    if not records or records[0].get("event") != "reset":
        raise ValueError("a trace starts with its reset record")
    reset = records[0]
    rep = Replayer(reset, pose_keys)
    an = Analysis(reset)
    url = reset.get("web_url", "")
    seen = {url_path(url)}
    for r in records[1:]:
        parsed = r.get("parsed") or {}
        new_url = r.get("web_url", url) or url
        p = url_path(new_url)
        changes = r.get("changes") or {}
        s = StepInfo(step=int(r.get("step", len(an.steps) + 1)), action=str(r.get("action", "")),
                     name=parsed.get("name"), domain=parsed.get("domain"), args=parsed.get("args") or {},
                     active=str(r.get("active", "")), error=str(r.get("error") or ""), url_before=url, url=new_url,
                     new_path=p not in seen, changed=bool(changes), atoms=rep.apply(changes))
        seen.add(p)
        url = new_url
        an.steps.append(s)
    classify(an.steps)
    return an


def _object_type(ref: Any) -> str:
    return str(ref or "").split("|")[0]


def classify(steps: list[StepInfo]) -> None:
    """Set ``skill`` on every step (rules in the module docstring)."""
    for s in steps:
        s.skill = _skill(s)
    # effect-less clicks/typing right before a filter step belong to that filter
    for i in range(len(steps) - 1, 0, -1):
        if steps[i].skill == "filter":
            j = i - 1
            while j >= 0 and steps[j].domain == "web" and steps[j].skill == "other_web" and \
                    steps[j].name in ("click", "type") and steps[j].url == steps[j].url_before:
                steps[j].skill = "filter"
                j -= 1


def _skill(s: StepInfo) -> str:
    if s.name is None:
        return "invalid"
    if s.name == "stop":
        return "commit"
    if s.name == "switch_environment":
        return "switch"
    if s.domain == "web":
        if any(isinstance(c, str) and c.lower() in COMMIT_KEYS for a in s.web_atoms for c in a[1]):
            return "commit"
        before, after = _params(s.url_before), _params(s.url)
        if s.name == "type" and s.args.get("enter") and not s.error:
            return "search"
        if s.url != s.url_before:
            q0 = {k: v for k, v in before.items() if k in SEARCH_PARAMS}
            q1 = {k: v for k, v in after.items() if k in SEARCH_PARAMS}
            if q1 and q1 != q0:
                return "search"
            f0 = {k: v for k, v in before.items() if k not in SEARCH_PARAMS | IGNORED_PARAMS}
            f1 = {k: v for k, v in after.items() if k not in SEARCH_PARAMS | IGNORED_PARAMS}
            same_page = url_path(s.url) == url_path(s.url_before)
            if f1 != f0 and (same_page or f1):
                return "filter"
            if url_path(s.url) != url_path(s.url_before):
                if DETAIL_RE.search(url_path(s.url)):
                    return "inspect"
                if s.name in NAV_ACTIONS:
                    return "navigate"
        return "other_web"
    name = s.name.lower()
    if name == "toggleobjecton" and _object_type(s.args.get("obj")) in HEAT_SOURCES:
        return "cook"
    for skill, names in EMBODIED_SKILLS.items():
        if name in names:
            return skill
    return "other_embodied"


# ------------------------------------------------------------------------------------------ metrics
def bifurcation(agent: Analysis, oracle: Analysis) -> int | None:
    """The bifurcation step of ``agent`` against ``oracle`` (module docstring), or None."""
    ev_o = [e for _, e in oracle.events()]
    p = 0
    for step, ev in agent.events():
        j = p
        while j < len(ev_o) and ev_o[j] != ev:
            if ev_o[j][0] != "nav":
                j = len(ev_o)
                break
            j += 1
        if j >= len(ev_o):
            return step
        p = j + 1
    return None


def coverage(agent: Analysis, oracle: Analysis) -> tuple[float, int]:
    """(coverage of the oracle's required pages at the agent's first commit, number required)."""
    required = oracle.paths_before(oracle.first_commit())
    if not required:
        return 1.0, 0
    seen = agent.paths_before(agent.first_commit())
    return round(len(required & seen) / len(required), 4), len(required)


def gui_per_semantic(an: Analysis) -> float | None:
    sem = sum(1 for s in an.steps if s.changed)
    return round(len(an.steps) / sem, 4) if sem else None


def episode_process(agent_trace: list[dict[str, Any]], oracle_trace: list[dict[str, Any]] | None
                    ) -> dict[str, Any]:
    """Process metrics of one episode (oracle-relative ones are None without an oracle trace)."""
    a = analyze(agent_trace)
    out: dict[str, Any] = {"steps": len(a.steps), "semantic_steps": sum(1 for s in a.steps if s.changed),
                           "gui_per_semantic": gui_per_semantic(a), "skills": dict(a.skill_counts()),
                           "first_commit": a.first_commit(), "oracle_skills": None, "oracle_steps": None,
                           "coverage": None, "required": None, "bifurcation": None, "has_oracle": False}
    if oracle_trace:
        o = analyze(oracle_trace)
        cov, req = coverage(a, o)
        out.update(oracle_skills=dict(o.skill_counts()), oracle_steps=len(o.steps), coverage=cov, required=req,
                   bifurcation=bifurcation(a, o), has_oracle=True)
    return out


def aggregate(per_episode: list[dict[str, Any]]) -> dict[str, Any]:
    """Per (env, agent): means of coverage and GUI/semantic, bifurcation rate and mean step, and the
    skill counts with their ratio to the oracle's (sum over episodes / sum of the oracle's)."""
    n = len(per_episode)
    with_o = [p for p in per_episode if p["has_oracle"]]
    covs = [p["coverage"] for p in with_o]
    gps = [p["gui_per_semantic"] for p in per_episode if p["gui_per_semantic"] is not None]
    bif = [p["bifurcation"] for p in with_o if p["bifurcation"] is not None]
    skills: Counter[str] = Counter()
    oskills: Counter[str] = Counter()
    for p in per_episode:
        skills.update(p["skills"])
    for p in with_o:
        oskills.update(p["oracle_skills"] or {})
    ratio = {k: (round(skills[k] / oskills[k], 4) if oskills[k] else None) for k in SKILLS
             if skills[k] or oskills[k]}
    return {"episodes": n, "with_oracle": len(with_o),
            "coverage": round(sum(covs) / len(covs), 4) if covs else None,
            "gui_per_semantic": round(sum(gps) / len(gps), 4) if gps else None,
            "bifurcation_rate": round(len(bif) / len(with_o), 4) if with_o else None,
            "bifurcation_step": round(sum(bif) / len(bif), 2) if bif else None,
            "skills": {k: skills[k] for k in SKILLS if skills[k]},
            "oracle_skills": {k: oskills[k] for k in SKILLS if oskills[k]}, "skill_ratio": ratio}


# ------------------------------------------------------------------------------------------ files and oracle
def steps_dir(source: str | Path) -> Path:
    src = Path(source)
    return src.parent / f"{src.stem}.steps"


def steps_file(rec: dict[str, Any]) -> Path | None:
    """``<out stem>.steps/<env_id>/<agent>-<run id>[/<participant>]/<task_id>.jsonl`` of a record (old records:
    ``<agent>``) (None when it does not exist)."""
    if "_source" not in rec:
        return None
    p = steps_dir(rec["_source"]) / str(rec["env_id"]) / steps_subdir(rec) / f"{rec['task_id']}.jsonl"
    return p if p.exists() else None


def trace_file(rec: dict[str, Any]) -> Path | None:
    if "_source" not in rec:
        return None
    p = steps_dir(rec["_source"]) / str(rec["env_id"]) / steps_subdir(rec) / f"{rec['task_id']}.trace.jsonl"
    return p if p.exists() else None


class OracleTraces:
    """The oracle's trace on (env, task, seed), run in text mode on demand and cached in memory and,
    with ``cache_dir``, as ``<cache_dir>/<env_id>/<task_id>.seed<seed>.trace.jsonl``."""

    def __init__(self, cache_dir: str | Path | None = None) -> None:
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self.mem: dict[tuple[str, str, int], list[dict[str, Any]] | None] = {}
        self.envs: dict[str, Any] = {}

    def get(self, env_id: str, task_id: str, seed: int | None) -> list[dict[str, Any]] | None:
        seed = int(seed or 0)
        key = (env_id, task_id, seed)
        if key in self.mem:
            return self.mem[key]
        path = self.cache_dir / env_id / f"{task_id}.seed{seed}.trace.jsonl" if self.cache_dir else None
        if path is not None and path.exists():
            recs = load_trace(path)
        else:
            recs = self._run(env_id, task_id, seed)
            if recs is not None and path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    for r in recs:
                        f.write(json.dumps(r, sort_keys=True, default=str) + "\n")
        self.mem[key] = recs
        return recs

    def _run(self, env_id: str, task_id: str, seed: int) -> list[dict[str, Any]] | None:
        import gymnasium as gym

        import embodiedweb  # noqa: F401 - registers the env ids
        from baselines.registry import make_agent
        from embodiedweb.evaluate import run_episode

        try:
            env = self.envs.get(env_id)
            if env is None:
                env = self.envs[env_id] = gym.make(env_id, web_mode="text")
            run_episode(env, make_agent("oracle"), task_id, seed=seed)
        except Exception:  # no oracle for this domain, unknown env or task: no oracle-relative metrics
            return None
        recs = [{k: v for k, v in r.items() if k != "timings"} for r in env.unwrapped.trace.records]
        return json.loads(json.dumps(recs, default=str))

    def close(self) -> None:
        for env in self.envs.values():
            env.close()
        self.envs.clear()
