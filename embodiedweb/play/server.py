"""``ewa play``: a local page with the instruction, the embodied view (image, text, action buttons), the
website in a frame, a control to switch environments and a stop/answer box.

The frame shows the env's own web page (the ``text`` driver's current document). A small script in
the frame turns what the person does into env actions (``click [id]``, ``type [id] [text] [0|1]``), so
every human step goes through :meth:`EmbodiedWebEnv.step` and the trace, exactly like an agent's.
At the end of an episode a record with ``agent: "human"`` (run label ``human``) is appended to the results JSONL, so
``ewa report`` shows human accuracy beside the models.
"""

from __future__ import annotations

import io
import json
import threading
import time
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi import Request as HTTPRequest
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from PIL import Image

from embodiedweb.evaluate import step_view, steps_path_for, versions_of, write_steps
from embodiedweb.runs import human_identity, run_dir
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


class PlaySession:
    """One person's play: the env, the current task, and where results go."""

    def __init__(self, env: Any, task_ids: list[str], out: Path | None, seed: int = 0) -> None:
        self.env = env
        self.task_ids = task_ids
        self.index = 0
        self.out = out
        self.seed = seed
        self.lock = threading.Lock()
        self.records: list[dict[str, Any]] = []
        self.start()

    @property
    def base(self) -> Any:
        return self.env.unwrapped

    def start(self) -> None:
        task_id = self.task_ids[self.index % len(self.task_ids)]
        self.obs, self.info = self.env.reset(seed=self.seed + self.index, options={"task_id": task_id})
        self.views = [step_view(0, None, self.obs, None)]
        self.done = False
        self.metrics: dict[str, Any] | None = None
        self.t0 = time.perf_counter()
        self.steps = 0

    def act(self, action: str) -> dict[str, Any]:
        with self.lock:
            if self.done:
                return {"error": "The episode is over: start the next task.", "done": True}
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
               "status": "ok", "seed": self.seed +
               self.index, **versions_of(self.base), "web_mode": "text", "split": self.base.task.split, "metrics": self.metrics,
               "steps": self.steps, "trace_digest": self.base.trace_digest(),
               "duration_s": round(time.perf_counter() - self.t0, 3)}
        self.records.append(rec)
        if self.out is not None:
            self.out.parent.mkdir(parents=True, exist_ok=True)
            with open(self.out, "a", encoding="utf-8") as f:
                f.write(json.dumps(rec, sort_keys=True) + "\n")
            # the same step files as `ewa eval --save-steps`, so reports show process metrics for people too
            steps = steps_path_for(self.out, self.base.env_id, run_dir("human", run["run_id"]),
                                   self.base.task.task_id)
            if steps is not None:
                write_steps(steps, self.views, self.base.trace.records)

    def next_task(self) -> None:
        with self.lock:
            self.index += 1
            self.start()

    def web_page(self) -> str:
        driver = self.base.driver
        doc = driver.tab.doc if hasattr(driver, "tab") else None
        if doc is None:
            return "<p>No page.</p>"
        html = to_html(doc)
        return html.replace("</body>", FRAME_SCRIPT + "</body>") if "</body>" in html else html + FRAME_SCRIPT


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


def create_play_app(session: PlaySession, host: str = "127.0.0.1") -> FastAPI:
    """The play page's app for one :class:`PlaySession` (``host``: the address it is served on)."""
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    allowed = LOCAL_HOSTS | {_hostname(host)}

    @app.middleware("http")
    async def guard(request: HTTPRequest, call_next: Any) -> Response:
        refused = post_refusal(request.method, request.headers, allowed)
        if refused is not None:
            return JSONResponse({"error": refused[1]}, status_code=refused[0])
        return await call_next(request)

    app.mount("/static", StaticFiles(directory=str(SITES_DIR / "static")), name="static")
    jinja = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["html"]))

    @app.get("/")
    def page() -> HTMLResponse:
        s = session
        acts = [a for a in s.info.get("admissible_actions", []) if a not in ("switch_environment", "stop")]
        embodied_buttons = acts if s.obs["active"] == "embodied" else []
        return HTMLResponse(jinja.get_template("play.html").render(
            obs=s.obs, done=s.done, metrics=s.metrics, buttons=embodied_buttons[:80], step=s.steps,
            task_id=s.base.task.task_id, env_id=s.base.env_id, records=s.records,
            actions_help=s.base.describe_actions(with_examples=False)))

    @app.get("/play/web")
    def web() -> HTMLResponse:
        return HTMLResponse(session.web_page(), headers={"Cache-Control": "no-store"})

    @app.get("/play/embodied.png")
    def embodied_png() -> Response:
        img = session.base.world.image((360, 360))
        buf = io.BytesIO()
        Image.fromarray(img).save(buf, format="PNG")
        return Response(buf.getvalue(), media_type="image/png", headers={"Cache-Control": "no-store"})

    @app.post("/play/act")
    async def act(request: HTTPRequest) -> JSONResponse:
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
        action = str(body.get("action", ""))
        if body.get("kind") == "switch":
            action = f"switch_environment [{body.get('message', '')}]"
        elif body.get("kind") == "stop":
            action = f"stop [{body.get('answer', '')}]"
        try:  # JSON can escape lone surrogates ("\ud800"): no text, and the trace files could not hold them
            action.encode("utf-8")
        except UnicodeEncodeError:
            return JSONResponse({"error": "play: the action is not valid Unicode text"}, status_code=400)
        return JSONResponse(session.act(action))

    @app.post("/play/next")
    def next_task() -> JSONResponse:
        session.next_task()
        return JSONResponse({"ok": True})

    return app
