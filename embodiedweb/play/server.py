"""``ewa play``: a local page with the instruction, the embodied view (image, text, action buttons; in the kitchen
the first-person camera frame next to the top-down map), the website in a frame, a control to switch
environments and a stop/answer box.

The frame shows the env's own web page (the ``text`` driver's current document). A small script in
the frame turns what the person does into env actions (``click [id]``, ``type [id] [text] [0|1]``), so
every human step goes through :meth:`EmbodiedWebEnv.step` and the trace, exactly like an agent's.
At the end of an episode a record with ``agent: "human"`` (run label ``human``) and the ``participant``
id is appended to the results JSONL, so ``ewa report`` shows human accuracy beside the models.

Human studies: the start page asks for a participant id and gives the browser its own session (an
HttpOnly, SameSite=Strict cookie) with its own env from a :class:`PlayPool` (at most ``max_sessions`` at
once, idle ones closed). A :class:`TaskAssigner` hands each participant the least-played task they have
not played yet (ties in an order fixed by the seed), counting what the results JSONL already holds, so a
restarted server neither repeats a participant's task nor forgets who played what. ``stop`` ends the
episode only with ``confirm: true`` (the page asks first).
"""

from __future__ import annotations

import io
import json
import random
import re
import secrets
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi import Request as HTTPRequest
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from PIL import Image

from embodiedweb.actions import REGISTRY, ActionError
from embodiedweb.evaluate import step_view, steps_path_for, versions_of, write_steps
from embodiedweb.runs import human_identity, steps_subdir
from web_sites.asgi import RequestRefused, declared_length, read_body
from web_sites.dom import to_html
from web_sites.framework import SITES_DIR

TEMPLATES = Path(__file__).resolve().parent / "templates"

FRAME_SCRIPT = """
<script>
(function () {
  function act(action) {
    return fetch('/play/act', {method: 'POST', headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({action: action})}).then(function () { window.parent.postMessage('ewa-step', '*'); });
  }
  function bid(el) { while (el && !el.getAttribute('data-bid')) { el = el.parentElement; } return el; }
  document.addEventListener('click', function (ev) {
    var el = bid(ev.target);
    if (!el) { return; }
    var tag = el.tagName.toLowerCase(), type = (el.getAttribute('type') || '').toLowerCase();
    if (tag === 'input' && ['text', 'search', 'number', 'email', 'url', 'tel', 'password', ''].indexOf(type) >= 0) { return; }
    if (tag === 'textarea' || tag === 'select' || tag === 'option') { return; }
    ev.preventDefault();
    act('click [' + el.getAttribute('data-bid') + ']');
  }, true);
  document.addEventListener('change', function (ev) {
    var el = ev.target, tag = el.tagName.toLowerCase();
    if (tag === 'select') { act('type [' + el.getAttribute('data-bid') + '] [' + el.options[el.selectedIndex].text + ']'); }
    else if (tag === 'textarea' || (tag === 'input' && el.type !== 'checkbox' && el.type !== 'radio')) {
      if (!el.dataset.entered) { act('type [' + el.getAttribute('data-bid') + '] [' + el.value + ']'); }
    }
  }, true);
  document.addEventListener('keydown', function (ev) {
    var el = ev.target;
    if (ev.key === 'Enter' && el.tagName.toLowerCase() === 'input') {
      ev.preventDefault(); el.dataset.entered = '1';
      act('type [' + el.getAttribute('data-bid') + '] [' + el.value + '] [1]');
    }
  }, true);
  document.addEventListener('submit', function (ev) { ev.preventDefault(); }, true);
})();
</script>
"""


#: a participant id: short, letters, digits, ``_`` and ``-`` (it names folders of step files)
PARTICIPANT_RE = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
#: the cookie that ties a browser to its session
COOKIE = "ewa_play"


def valid_participant(pid: Any) -> bool:
    return isinstance(pid, str) and PARTICIPANT_RE.fullmatch(pid) is not None


class TaskAssigner:
    """Which task each participant plays next: never a task the participant already played, and among
    the others the least-played one (ties broken by a fixed order shuffled by ``seed``), so tasks spread
    over participants. Plays are counted when a task is handed out; ``out`` (the results JSONL) seeds
    the counts on start, so a restarted server neither repeats a participant's tasks nor forgets plays."""

    def __init__(self, task_ids: list[str], *, seed: int = 0, out: Path | None = None,
                 env_id: str | None = None) -> None:
        self.task_ids = list(dict.fromkeys(task_ids))
        order = list(self.task_ids)
        random.Random(seed).shuffle(order)
        self.rank = {t: i for i, t in enumerate(order)}
        self.plays: Counter[str] = Counter()
        self.given: dict[str, set[str]] = {}
        self.lock = threading.Lock()
        if out is not None:
            self.load(out, env_id)

    def load(self, out: Path, env_id: str | None) -> None:
        """Count the human records of ``out`` (of ``env_id``, when given) that name a participant."""
        if not out.exists():
            return
        with open(out, encoding="utf-8") as f:
            for line in f:
                try:
                    rec = json.loads(line)
                    if rec.get("agent") != "human" or (env_id is not None and rec.get("env_id") != env_id):
                        continue
                    pid, task = rec.get("participant"), str(rec["task_id"])
                except (ValueError, KeyError, TypeError, AttributeError):
                    continue  # a cut line
                if not valid_participant(pid) or task not in self.rank:
                    continue
                if task not in self.given.setdefault(pid, set()):
                    self.given[pid].add(task)
                    self.plays[task] += 1

    def next(self, participant: str) -> str | None:
        """The next task of ``participant`` (None when they played every task)."""
        with self.lock:
            had = self.given.setdefault(participant, set())
            left = [t for t in self.task_ids if t not in had]
            if not left:
                return None
            task = min(left, key=lambda t: (self.plays[t], self.rank[t]))
            had.add(task)
            self.plays[task] += 1
            return task

    def remaining(self, participant: str) -> int:
        with self.lock:
            return len([t for t in self.task_ids if t not in self.given.get(participant, set())])


class PlaySession:
    """One participant's play: their env, the current task, and where results go.

    ``task_ids`` (a fixed list, played in order) or ``assigner`` (tasks handed out per participant)."""

    def __init__(self, env: Any, task_ids: list[str] | None, out: Path | None, seed: int = 0, *,
                 participant: str | None = None, assigner: TaskAssigner | None = None) -> None:
        self.env = env
        self.assigner = assigner or TaskAssigner(task_ids or [], seed=seed)
        self.all_tasks = list(self.assigner.task_ids)
        self.participant = participant or "anonymous"
        self.out = out
        self.seed = seed
        self.lock = threading.Lock()
        self.records: list[dict[str, Any]] = []
        self.finished = False
        self.task_id: str | None = None
        self.last_seen = time.monotonic()
        self.start()

    @property
    def base(self) -> Any:
        return self.env.unwrapped

    def start(self) -> None:
        task_id = self.assigner.next(self.participant)
        if task_id is None:
            self.finished = True
            return
        self.task_id = task_id
        # the same task gets the same seed for every participant
        self.obs, self.info = self.env.reset(seed=self.seed + self.all_tasks.index(task_id),
                                             options={"task_id": task_id})
        self.views = [step_view(0, None, self.obs, None)]
        self.done = False
        self.metrics: dict[str, Any] | None = None
        self.t0 = time.perf_counter()
        self.steps = 0

    def act(self, action: str, confirmed: bool = False) -> dict[str, Any]:
        with self.lock:
            if self.finished:
                return {"error": "You have played every task: thank you.", "done": True, "finished": True}
            if self.done:
                return {"error": "The episode is over: start the next task.", "done": True}
            if not confirmed and is_stop(action, self.base):
                answer = _stop_answer(action)
                return {"confirm_needed": True, "answer": answer, "done": False,
                        "question": f"End the episode with answer {answer!r}?" if answer else
                        "End the episode with no answer?"}
            self.obs, _, term, trunc, self.info = self.env.step(action)
            self.steps += 1
            self.views.append(step_view(self.steps, action, self.obs, self.base.trace.records[-1]))
            if term or trunc:
                self.done = True
                self.metrics = self.info.get("metrics", {})
                self._record()
            return {"error": self.obs["last_action_error"], "done": self.done, "metrics": self.metrics}

    def _record(self) -> None:
        run = human_identity()
        rec = {"env_id": self.base.env_id, "task_id": self.base.task.task_id, "agent": "human", **run,
               "participant": self.participant, "status": "ok",
               "seed": self.seed + self.all_tasks.index(self.base.task.task_id), **versions_of(self.base),
               "web_mode": "text", "split": self.base.task.split, "metrics": self.metrics,
               "steps": self.steps, "trace_digest": self.base.trace_digest(),
               "duration_s": round(time.perf_counter() - self.t0, 3)}
        self.records.append(rec)
        if self.out is not None:
            self.out.parent.mkdir(parents=True, exist_ok=True)
            with _WRITE_LOCK, open(self.out, "a", encoding="utf-8") as f:
                f.write(json.dumps(rec, sort_keys=True) + "\n")
            # the same step files as `ewa eval --save-steps` (one folder per participant), so reports
            # show process metrics for people too
            steps = steps_path_for(self.out, self.base.env_id, steps_subdir(rec), self.base.task.task_id)
            if steps is not None:
                write_steps(steps, self.views, self.base.trace.records)

    def next_task(self) -> str | None:
        """Start the participant's next task once the episode is over; else the reason it is refused
        (a task is never skipped unplayed: it would count as given and never be recorded)."""
        with self.lock:
            if self.finished:
                return None
            if not self.done:
                return "play: finish this episode first (stop with your answer)"
            self.start()
            return None

    def web_page(self) -> str:
        if self.finished:
            return "<p>No page.</p>"
        driver = self.base.driver
        doc = driver.tab.doc if hasattr(driver, "tab") else None
        if doc is None:
            return "<p>No page.</p>"
        html = to_html(doc)
        return html.replace("</body>", FRAME_SCRIPT + "</body>") if "</body>" in html else html + FRAME_SCRIPT


_WRITE_LOCK = threading.Lock()


def is_stop(action: str, base: Any) -> bool:
    """``action`` is a ``stop`` the env would carry out (it ends the episode)."""
    try:
        return REGISTRY.parse(action, base.domains).name == "stop"
    except ActionError:
        return False


def _stop_answer(action: str) -> str:
    m = re.match(r"\s*`?\s*\w+\s*\[(.*)\]\s*`?\s*$", action, re.S)
    return m.group(1) if m else ""


class SessionFull(RuntimeError):
    """Every session slot is in use."""


class PlayPool:
    """The sessions of one play server: one per browser (a cookie), each with its own env made by
    ``make_env`` (envs of closed sessions are reused), at most ``max_sessions`` at once; a session idle
    for ``idle_timeout`` seconds is closed (its slot freed, its unfinished episode not recorded)."""

    def __init__(self, make_env: Any, task_ids: list[str], out: Path | None, *, seed: int = 0,
                 max_sessions: int = 8, idle_timeout: float = 1800.0, env_id: str | None = None) -> None:
        self.make_env = make_env
        self.out = out
        self.seed = seed
        self.max_sessions = max_sessions
        self.idle_timeout = idle_timeout
        self.assigner = TaskAssigner(task_ids, seed=seed, out=out, env_id=env_id)
        self.sessions: dict[str, PlaySession] = {}
        self.free: list[Any] = []
        self.lock = threading.Lock()

    def active(self) -> int:
        """Sessions holding an env (a participant who played every task holds none)."""
        return sum(1 for s in self.sessions.values() if s.env is not None)

    def get(self, token: str | None) -> PlaySession | None:
        with self.lock:
            self._reap()
            s = self.sessions.get(token or "")
            if s is not None:
                s.last_seen = time.monotonic()
            return s

    def open(self, participant: str) -> tuple[str, PlaySession]:
        """A new session (its cookie token) for ``participant``; a participant's earlier session is handed
        over to the new browser. Raises :class:`SessionFull`."""
        with self.lock:
            self._reap()
            for tok, s in list(self.sessions.items()):
                if s.participant == participant:
                    del self.sessions[tok]
                    token = secrets.token_urlsafe(24)
                    self.sessions[token] = s
                    s.last_seen = time.monotonic()
                    return token, s
            if self.active() >= self.max_sessions:
                raise SessionFull(f"play: all {self.max_sessions} sessions are in use; try again later "
                                  "(or start the server with a larger --max-sessions)")
            env = self.free.pop() if self.free else self.make_env()
            token = secrets.token_urlsafe(24)
        try:
            s = PlaySession(env, None, self.out, self.seed, participant=participant, assigner=self.assigner)
        except BaseException:
            with self.lock:
                self.free.append(env)
            raise
        with self.lock:
            self.sessions[token] = s
            self._release_finished()
        return token, s

    def close(self, token: str) -> None:
        with self.lock:
            s = self.sessions.pop(token, None)
            if s is not None and s.env is not None:
                self.free.append(s.env)

    def _reap(self) -> None:
        now = time.monotonic()
        for tok, s in list(self.sessions.items()):
            if now - s.last_seen > self.idle_timeout:
                del self.sessions[tok]
                if s.env is not None:
                    self.free.append(s.env)
        self._release_finished()

    def _release_finished(self) -> None:
        """Envs of participants who played every task go back to the pool (their page only says thanks)."""
        for s in self.sessions.values():
            if s.finished and s.env is not None:
                with s.lock:
                    self.free.append(s.env)
                    s.env = None

    def close_all(self) -> None:
        with self.lock:
            envs = self.free + [s.env for s in self.sessions.values() if s.env is not None]
            self.sessions.clear()
            self.free = []
        for env in envs:
            env.close()


#: hosts the play server answers state-changing requests for (plus the host it is bound to)
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
#: the largest request body a play request may carry
MAX_BODY_BYTES = 64 * 1024


def _hostname(host_header: str) -> str:
    h = host_header.strip().lower()
    if h.startswith("["):
        return h[1:h.find("]")] if "]" in h else h
    return h.rsplit(":", 1)[0] if h.count(":") == 1 else h


def post_refusal(method: str, headers: Any, allowed_hosts: frozenset[str]) -> tuple[int, str] | None:
    """Why a request that changes the episode is refused (status, message), or None to let it through.

    Another site's page cannot drive a participant's episode: the Host must be this server's (no DNS
    rebinding), an Origin, when sent, must be this server's own, and a request without one must be JSON
    (a plain cross-site form cannot send that without a preflight the server never grants)."""
    if method != "POST":
        return None
    host = headers.get("host", "")
    if _hostname(host) not in allowed_hosts:
        return 403, f"play: requests for host {host!r} are refused (open the play page on this server's own address)"
    origin = headers.get("origin")
    if origin is not None and origin.rstrip("/").lower() != f"http://{host}".lower():
        return 403, f"play: requests from {origin!r} are refused (only the play page itself may act)"
    if origin is None and not headers.get("content-type", "").startswith("application/json"):
        return 403, "play: send actions as JSON (Content-Type: application/json)"
    try:
        size = declared_length(headers) or 0
    except RequestRefused:
        return 400, "play: bad Content-Length"
    if size > MAX_BODY_BYTES:
        return 413, f"play: request body over {MAX_BODY_BYTES} bytes"
    return None


def _has_camera(world: Any) -> bool:
    """Whether the world draws a first-person view (the kitchen): the page then shows it next to the map."""
    return callable(getattr(world, "first_person", None))


def create_play_app(pool: PlayPool | PlaySession, host: str = "127.0.0.1") -> FastAPI:
    """The play page's app (``host``: the address it is served on). With a :class:`PlayPool` each browser
    gets its own session (a cookie set by the start page); with one :class:`PlaySession` every request
    plays that session (for embedding and tests)."""
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    allowed = LOCAL_HOSTS | {_hostname(host)}
    fixed = pool if isinstance(pool, PlaySession) else None

    @app.middleware("http")
    async def guard(request: HTTPRequest, call_next: Any) -> Response:
        refused = post_refusal(request.method, request.headers, allowed)
        if refused is not None:
            return JSONResponse({"error": refused[1]}, status_code=refused[0])
        return await call_next(request)

    app.mount("/static", StaticFiles(directory=str(SITES_DIR / "static")), name="static")
    jinja = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["html"]))

    def current(request: HTTPRequest) -> PlaySession | None:
        if fixed is not None:
            return fixed
        assert isinstance(pool, PlayPool)
        return pool.get(request.cookies.get(COOKIE))

    def no_session() -> JSONResponse:
        return JSONResponse({"error": "play: no session (open the start page and enter your participant id)"},
                            status_code=401)

    async def json_body(request: HTTPRequest) -> dict[str, Any] | JSONResponse:
        try:  # read with a running count: a body without a Content-Length is bounded too
            raw = await read_body(request, MAX_BODY_BYTES)
        except RequestRefused as e:
            return JSONResponse({"error": f"play: {e.detail}"}, status_code=e.status, headers={"Connection": "close"})
        try:  # (ValueError: also a number over Python's 4,300 digits; RecursionError: nesting too deep)
            body = json.loads(raw or b"{}")
        except (ValueError, RecursionError):
            return JSONResponse({"error": "play: the body is not JSON"}, status_code=400)
        if not isinstance(body, dict):
            return JSONResponse({"error": "play: the body must be a JSON object"}, status_code=400)
        return body

    @app.get("/")
    def page(request: HTTPRequest) -> HTMLResponse:
        s = current(request)
        if s is None or s.finished:
            return HTMLResponse(jinja.get_template("start.html").render(
                participant=s.participant if s else None, records=s.records if s else []),
                headers={"Cache-Control": "no-store"})
        acts = [a for a in s.info.get("admissible_actions", []) if a not in ("switch_environment", "stop")]
        embodied_buttons = acts if s.obs["active"] == "embodied" else []
        return HTMLResponse(jinja.get_template("play.html").render(
            obs=s.obs, done=s.done, metrics=s.metrics, buttons=embodied_buttons[:80], step=s.steps,
            step_limit=getattr(s.base, "episode_limit", None), task_id=s.base.task.task_id, env_id=s.base.env_id, records=s.records, participant=s.participant,
            left=s.assigner.remaining(s.participant), first_person=_has_camera(s.base.world),
            actions_help=s.base.describe_actions(with_examples=False)), headers={"Cache-Control": "no-store"})

    @app.post("/play/start")
    async def start(request: HTTPRequest) -> JSONResponse:
        if fixed is not None:
            return JSONResponse({"ok": True, "participant": fixed.participant, "task_id": fixed.task_id})
        body = await json_body(request)
        if isinstance(body, JSONResponse):
            return body
        pid = body.get("participant")
        if not valid_participant(pid):
            return JSONResponse({"error": "play: a participant id is 1 to 32 letters, digits, '_' or '-'"},
                                status_code=400)
        assert isinstance(pool, PlayPool)
        try:
            token, s = pool.open(pid)
        except SessionFull as e:
            return JSONResponse({"error": str(e)}, status_code=503, headers={"Retry-After": "60"})
        resp = JSONResponse({"ok": True, "participant": s.participant, "task_id": s.task_id,
                             "finished": s.finished})
        resp.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/")
        return resp

    @app.post("/play/leave")
    def leave(request: HTTPRequest) -> JSONResponse:
        if fixed is None:
            assert isinstance(pool, PlayPool)
            pool.close(request.cookies.get(COOKIE) or "")
        resp = JSONResponse({"ok": True})
        resp.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
        return resp

    @app.get("/play/web")
    def web(request: HTTPRequest) -> Response:
        s = current(request)
        if s is None:
            return HTMLResponse("<p>No session: open the start page.</p>", status_code=401)
        return HTMLResponse(s.web_page(), headers={"Cache-Control": "no-store"})

    @app.get("/play/embodied.png")
    def embodied_png(request: HTTPRequest) -> Response:
        s = current(request)
        if s is None or s.finished:
            return no_session()
        img = s.base.world.image((360, 360))
        buf = io.BytesIO()
        Image.fromarray(img).save(buf, format="PNG")
        return Response(buf.getvalue(), media_type="image/png", headers={"Cache-Control": "no-store"})

    @app.get("/play/first_person.png")
    def first_person_png(request: HTTPRequest) -> Response:
        s = current(request)
        if s is None or s.finished:
            return no_session()
        if not _has_camera(s.base.world):
            return JSONResponse({"error": f"play: the {s.base.domain.world_kind} world has no first-person camera"},
                                status_code=404)
        img = s.base.world.first_person((360, 360)).rgb
        buf = io.BytesIO()
        Image.fromarray(img).save(buf, format="PNG")
        return Response(buf.getvalue(), media_type="image/png", headers={"Cache-Control": "no-store"})

    @app.post("/play/act")
    async def act(request: HTTPRequest) -> JSONResponse:
        s = current(request)
        if s is None:
            return no_session()
        body = await json_body(request)
        if isinstance(body, JSONResponse):
            return body
        action = str(body.get("action", ""))
        if body.get("kind") == "switch":
            action = f"switch_environment [{body.get('message', '')}]"
        elif body.get("kind") == "stop":
            action = f"stop [{body.get('answer', '')}]"
        elif body.get("kind") == "done":  # a multi-turn env: this instruction is done, the next one follows
            action = f"done [{body.get('answer', '')}]"
        try:  # JSON can escape lone surrogates ("\ud800"): no text, and the trace files could not hold them
            action.encode("utf-8")
        except UnicodeEncodeError:
            return JSONResponse({"error": "play: the action is not valid Unicode text"}, status_code=400)
        # a stop ends the episode: only when the page confirmed it (``confirm: true``)
        return JSONResponse(s.act(action, confirmed=body.get("confirm") is True))

    @app.post("/play/next")
    def next_task(request: HTTPRequest) -> JSONResponse:
        s = current(request)
        if s is None:
            return no_session()
        refused = s.next_task()
        if refused:
            return JSONResponse({"error": refused}, status_code=409)
        return JSONResponse({"ok": True, "finished": s.finished, "task_id": s.task_id})

    return app
