"""Human-play mode in a real browser: a scripted "human" completes one task through the play page."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time

import pytest
import uvicorn

from embodiedweb.play.server import PlayPool, PlaySession, TaskAssigner, create_play_app
from tests.fixtures.lineworld import make_line_env


@contextlib.contextmanager
def serving(app):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    th = threading.Thread(target=server.run, daemon=True)
    th.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        th.join(timeout=5)


@pytest.fixture
def served(tmp_path):
    pool = PlayPool(lambda: make_line_env(max_steps=40), ["line-0"], tmp_path / "human.jsonl")
    with serving(create_play_app(pool)) as url:
        yield url, pool, tmp_path / "human.jsonl"
    pool.close_all()


def browser_or_skip():
    from embodiedweb.web.browser_driver import BrowserUnavailable, get_browser

    try:
        return get_browser()  # the process-wide Chromium (one Playwright per process)
    except BrowserUnavailable as e:
        pytest.skip(str(e))


def start(page, url, participant):
    """The start page: enter the participant id; the play page follows."""
    page.goto(url)
    page.fill("#participant", participant)
    page.click("#start")
    page.wait_for_selector("#instruction")


def test_scripted_human_completes_a_task_in_a_real_browser(served):
    browser = browser_or_skip()
    url, pool, out = served
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        start(page, url, "p-01")
        assert "apple" in page.inner_text("#instruction")
        [session] = pool.sessions.values()

        def frame():
            return page.frame_locator("#web")

        def wait_step(n):
            page.wait_for_function(f"document.querySelector('header').innerText.includes('step {n}')")

        # web: open the form lab from the site navigation, then an item, then add it to the cart
        frame().get_by_role("link", name="Form Lab").first.click()
        wait_step(1)
        frame().get_by_role("link", name="Apple").click()
        wait_step(2)
        frame().get_by_label("Quantity").fill("2")
        frame().get_by_label("Quantity").press("Tab")
        wait_step(3)
        frame().get_by_role("button", name="Add to cart").click()
        wait_step(4)
        assert "/formlab/cart" in page.inner_text("#web-url")
        # switch to the street with a note, walk forward with the action buttons, stop
        page.fill("#switch-message", "walk to n1")
        page.click("#switch")
        wait_step(5)
        assert page.inner_text("#active") == "embodied"
        page.click("button.act[data-action='forward']")
        wait_step(6)
        page.fill("#answer", "done")
        asked = []
        page.once("dialog", lambda d: (asked.append(d.message), d.accept()))  # the server asks to confirm
        page.click("#stop")
        page.wait_for_selector("#result")
        assert asked == ["End the episode with answer 'done'?"]
        assert "success" in page.inner_text("#result")
    finally:
        ctx.close()
    rec = json.loads(out.read_text().splitlines()[-1])
    steps = out.parent / "human.steps" / rec["env_id"] / f"human-{rec['run_id']}" / "p-01" / "line-0.jsonl"
    assert len(steps.read_text().splitlines()) == rec["steps"] + 1 and steps.with_suffix(".trace.jsonl").exists()
    assert rec["agent"] == "human" and rec["metrics"]["overall"] and rec["task_id"] == "line-0"
    assert rec["run_label"] == "human" and rec["run_id"] and rec["status"] == "ok" and rec["participant"] == "p-01"
    assert rec["suite_version"] == session.base.suite_version and rec["package_version"]
    cart = session.base.webapp.snapshot(session.base.session)["formlab"]["cart"]
    assert cart == [{"item": "apple", "qty": 2, "size": "M"}]
    # every human step went through the env and its trace
    actions = [r["action"] for r in session.base.trace.records[1:]]
    assert [a.split(" ")[0] for a in actions] == ["click", "click", "type", "click", "switch_environment", "forward",
                                                 "stop"], actions
    assert actions[2].endswith("[2]") and actions[4] == "switch_environment [walk to n1]"


def test_only_the_play_page_itself_can_act(tmp_path):
    """Cross-site requests, foreign Host headers (DNS rebinding), non-JSON and oversized or malformed
    bodies are refused with 4xx and change nothing; the page's own JSON requests act."""
    from fastapi.testclient import TestClient

    env = make_line_env(max_steps=40)
    session = PlaySession(env, ["line-0"], tmp_path / "human.jsonl")
    client = TestClient(create_play_app(session), base_url="http://127.0.0.1:8765")
    own = {"Origin": "http://127.0.0.1:8765", "Content-Type": "application/json"}

    def act(body, headers, **kw):
        return client.post("/play/act", content=body, headers=headers, **kw)

    assert act('{"action": "click [1]"}', {**own, "Origin": "http://evil.example"}).status_code == 403
    assert act('{"action": "click [1]"}', {**own, "Host": "evil.example:8765",
                                           "Origin": "http://evil.example:8765"}).status_code == 403
    assert act("action=stop", {"Content-Type": "application/x-www-form-urlencoded"}).status_code == 403
    assert client.post("/play/next", headers={"Origin": "http://evil.example"}).status_code == 403
    assert act("x" * 70_000, {"Content-Type": "application/json"}).status_code == 413
    r = act("[1, 2]", {"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "play: the body must be a JSON object"
    assert act("{not json", own).status_code == 400
    assert session.steps == 0 and not session.records  # nothing above reached the episode
    r = act('{"kind": "stop", "answer": "done", "confirm": true}', own)
    assert r.status_code == 200 and session.steps == 1
    r = act('{"action": "scroll [down]"}', {"Content-Type": "application/json"})  # a local script, no Origin
    assert r.status_code == 200
    env.close()


@pytest.mark.parametrize("body,words", [
    ('{"action": ' + "1" * 5000 + "}", "not JSON"),  # over Python's 4,300-digit int limit
    ('{"action": ' * 5000 + "1" + "}" * 5000, "not JSON"),  # nested too deep for the parser
    ('{"action": "\\ud800"}', "not valid Unicode"),  # a lone surrogate: the trace files cannot hold it
    ('{"kind": "stop", "answer": "\\udfff"}', "not valid Unicode"),
])
def test_malformed_json_is_a_400_and_never_reaches_the_episode(tmp_path, body, words):
    from fastapi.testclient import TestClient

    env = make_line_env(max_steps=40)
    session = PlaySession(env, ["line-0"], tmp_path / "human.jsonl")
    client = TestClient(create_play_app(session), base_url="http://127.0.0.1:8765", raise_server_exceptions=True)
    r = client.post("/play/act", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert session.steps == 0 and not session.records
    env.close()


LINE_TASKS = ["line-0", "line-1", "line-2", "line-3"]
OWN = {"Origin": "http://127.0.0.1:8766", "Content-Type": "application/json"}


def test_four_participants_play_at_once_in_four_browsers(tmp_path):
    """Four browser contexts (four people) each start a session with their own id, get four different
    tasks, play them at the same time without touching each other's episode, and stop after the
    page's confirmation; a fifth browser is refused while all four slots are taken. The records carry
    the four ids and the report counts four participants."""
    from embodiedweb.report import build_report

    browser = browser_or_skip()
    out = tmp_path / "human.jsonl"
    pool = PlayPool(lambda: make_line_env(max_steps=40), LINE_TASKS, out, max_sessions=4)
    ids = ["ann", "bob", "cy-3", "d_4"]
    ctxs = [browser.new_context() for _ in range(5)]
    try:
        with serving(create_play_app(pool)) as url:
            pages = [c.new_page() for c in ctxs]
            for page, pid in zip(pages, ids, strict=False):
                start(page, url, pid)
            tasks = [p.inner_text("#task-id") for p in pages[:4]]
            assert sorted(tasks) == LINE_TASKS, tasks
            assert [p.inner_text("#participant-id") for p in pages[:4]] == ids
            pages[4].goto(url)  # the fifth is refused with a clear message
            pages[4].fill("#participant", "eve")
            pages[4].click("#start")
            pages[4].wait_for_function("document.getElementById('start-error').innerText.length > 0")
            assert "all 4 sessions are in use" in pages[4].inner_text("#start-error")
            # interleaved: everyone switches (their own step 1), then everyone stops
            for i, page in enumerate(pages[:4]):
                page.fill("#switch-message", f"note {i}")
                page.click("#switch")
                page.wait_for_function("document.querySelector('header').innerText.includes('step 1')")
            for page in pages[:4]:
                assert page.inner_text("#active") == "embodied"
                page.on("dialog", lambda d: d.accept())
                page.fill("#answer", "done")
                page.click("#stop")
                page.wait_for_selector("#result")
    finally:
        for c in ctxs:
            c.close()
        pool.close_all()
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["participant"] for r in recs) == sorted(ids)
    assert {r["participant"]: r["task_id"] for r in recs} == dict(zip(ids, tasks, strict=True))
    assert all(r["steps"] == 2 and r["run_label"] == "human" for r in recs)
    rep = build_report([out], process=False)
    human = rep.numbers["human"]["Line-v0"]["human"]
    assert human["participants"] == 4 and human["episodes"] == 4
    assert any(t.title == "Human accuracy" and t.rows[0][2] == "4" for t in rep.tables)


def _client(app):
    from fastapi.testclient import TestClient

    return TestClient(app, base_url="http://127.0.0.1:8766")


def _play_one(client, answer="x"):
    r = client.post("/play/act", json={"kind": "stop", "answer": answer, "confirm": True}, headers=OWN)
    assert r.json()["done"], r.text


def test_assignment_spreads_tasks_without_repeats_across_a_restart(tmp_path):
    out = tmp_path / "human.jsonl"
    make = lambda: make_line_env(max_steps=40)  # noqa: E731
    pool = PlayPool(make, LINE_TASKS, out, seed=3)
    app = create_play_app(pool)
    a, b = _client(app), _client(app)
    first = a.post("/play/start", json={"participant": "ann"}, headers=OWN).json()["task_id"]
    second = b.post("/play/start", json={"participant": "bob"}, headers=OWN).json()["task_id"]
    assert first != second  # the next person gets a task nobody has played
    _play_one(a)
    _play_one(b)
    pool.close_all()
    # restart: a new server reads what the old one wrote
    pool = PlayPool(make, LINE_TASKS, out, seed=3)
    assert pool.assigner.plays == {first: 1, second: 1}
    app = create_play_app(pool)
    a, c = _client(app), _client(app)
    r = c.post("/play/start", json={"participant": "cy"}, headers=OWN).json()
    assert r["task_id"] not in (first, second)  # least-played first
    got = [a.post("/play/start", json={"participant": "ann"}, headers=OWN).json()["task_id"]]
    while True:
        _play_one(a)
        nxt = a.post("/play/next", headers=OWN).json()
        if nxt["finished"]:
            break
        got.append(nxt["task_id"])
    assert first not in got and sorted(got + [first]) == LINE_TASKS  # ann: every task once
    assert "played every task" in a.get("/").text
    assert pool.active() == 1  # ann's env went back to the pool; cy still plays
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    ann = [r["task_id"] for r in recs if r["participant"] == "ann"]
    assert sorted(ann) == LINE_TASKS
    pool.close_all()
    # deterministic by seed: the same order of arrivals gets the same tasks
    x, y = TaskAssigner(LINE_TASKS, seed=7), TaskAssigner(LINE_TASKS, seed=7)
    assert [x.next(p) for p in ("a", "b", "c", "a")] == [y.next(p) for p in ("a", "b", "c", "a")]


def test_stop_needs_a_confirmation_from_the_page(tmp_path):
    out = tmp_path / "human.jsonl"
    pool = PlayPool(lambda: make_line_env(max_steps=40), LINE_TASKS, out)
    client = _client(create_play_app(pool))
    client.post("/play/start", json={"participant": "ann"}, headers=OWN)
    [s] = pool.sessions.values()
    for body in ({"kind": "stop", "answer": "42"}, {"action": "stop [42]"}, {"action": " stop [42]"},
                 {"kind": "stop", "answer": "42", "confirm": "yes"}):
        r = client.post("/play/act", json=body, headers=OWN).json()
        assert r["confirm_needed"] and r["question"] == "End the episode with answer '42'?", (body, r)
    assert s.steps == 0 and not s.done and not out.exists()
    r = client.post("/play/act", json={"action": "stop [42]", "confirm": True}, headers=OWN).json()
    assert r["done"] and s.steps == 1 and json.loads(out.read_text())["metrics"]["answer"] == "42"
    pool.close_all()


def test_sessions_are_cookies_apart_bounded_and_closed_when_idle(tmp_path):
    pool = PlayPool(lambda: make_line_env(max_steps=40), LINE_TASKS, tmp_path / "h.jsonl", max_sessions=1,
                    idle_timeout=3600)
    app = create_play_app(pool)
    a, b = _client(app), _client(app)
    assert "Participant id" in a.get("/").text  # no session: the start page
    assert a.post("/play/act", json={"action": "forward"}, headers=OWN).status_code == 401
    for bad in ("", "a b", "x" * 33, "é", "../x", 5, None):
        assert a.post("/play/start", json={"participant": bad}, headers=OWN).status_code == 400, bad
    assert a.post("/play/start", json={"participant": "ann"},
                  headers={**OWN, "Origin": "http://evil.example"}).status_code == 403  # the guards hold
    r = a.post("/play/start", json={"participant": "ann"}, headers=OWN)
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower()
    r = b.post("/play/start", json={"participant": "bob"}, headers=OWN)
    assert r.status_code == 503 and "sessions are in use" in r.json()["error"]
    assert b.post("/play/act", json={"action": "forward"}, headers=OWN).status_code == 401
    pool.idle_timeout = 0.0  # ann goes idle: her slot is freed and her env reused
    time.sleep(0.01)
    r = b.post("/play/start", json={"participant": "bob"}, headers=OWN)
    assert r.status_code == 200 and len(pool.sessions) == 1
    assert a.post("/play/act", json={"action": "forward"}, headers=OWN).status_code == 401
    pool.close_all()


def test_next_task_only_after_the_episode_ends(tmp_path):
    pool = PlayPool(lambda: make_line_env(max_steps=40), LINE_TASKS, tmp_path / "h.jsonl")
    client = _client(create_play_app(pool))
    first = client.post("/play/start", json={"participant": "ann"}, headers=OWN).json()["task_id"]
    r = client.post("/play/next", headers=OWN)
    assert r.status_code == 409 and "finish this episode first" in r.json()["error"]
    _play_one(client)
    assert client.post("/play/next", headers=OWN).json()["task_id"] != first
    pool.close_all()


def test_a_multi_turn_env_shows_the_conversation_and_a_done_box(tmp_path):
    """EWA-Assistant-v0 in human play: the page shows the current instruction and the conversation, and its
    "Done" box moves to the next instruction (the episode goes on)."""
    import gymnasium as gym

    from tests.redteam import suite

    task = suite("EWA-Assistant-v0")[0]
    pool = PlayPool(lambda: gym.make("EWA-Assistant-v0").unwrapped, [task.task_id], tmp_path / "human.jsonl")
    client = _client(create_play_app(pool))
    client.post("/play/start", json={"participant": "ann"}, headers=OWN)
    page = client.get("/").text
    texts = [t["text"] for t in task.goal["turns"]]
    assert 'id="done-form"' in page and 'id="dialogue"' in page
    # the step budget a participant plays within, as the LLM agent's prompt states it
    limit = min(int(task.meta.get("max_steps", 10**9)), gym.spec("EWA-Assistant-v0").max_episode_steps)
    assert f"step 0 of at most {limit}" in page
    r = client.post("/play/act", json={"kind": "done", "answer": "no idea"}, headers=OWN).json()
    assert not r.get("done") and not r.get("confirm_needed")
    page = client.get("/").text
    import html

    page = html.unescape(page)
    assert texts[1] in page.split('id="instruction">')[1].split("</p>")[0]
    assert "You: done [no idea]" in page
    pool.close_all()


def test_kitchen_page_shows_the_first_person_view_next_to_the_map(tmp_path):
    """In the kitchen the play page shows the agent's camera frame beside the top-down map; a world without a
    camera (the line world) keeps the map alone and has no first-person image."""
    import io

    import gymnasium as gym
    import numpy as np
    from PIL import Image

    import embodiedweb  # noqa: F401  (registers the envs)

    make = lambda: gym.make("EWA-Cooking-v0", web_mode="text")  # noqa: E731
    probe = make()
    first_task = next(iter(probe.unwrapped.tasks)).task_id
    probe.close()
    pool = PlayPool(make, [first_task], tmp_path / "h.jsonl")
    client = _client(create_play_app(pool))
    client.post("/play/start", json={"participant": "ann"}, headers=OWN)
    page = client.get("/").text
    assert 'id="first-person" src="/play/first_person.png' in page and 'id="top-down" src="/play/embodied.png' in page
    [s] = pool.sessions.values()
    world = s.base.world
    fp = np.asarray(Image.open(io.BytesIO(client.get("/play/first_person.png").content)).convert("RGB"))
    top = np.asarray(Image.open(io.BytesIO(client.get("/play/embodied.png").content)).convert("RGB"))
    assert np.array_equal(fp, world.first_person((360, 360)).rgb)
    assert np.array_equal(top, world.image((360, 360))) and not np.array_equal(fp, top)
    pool.close_all()

    pool = PlayPool(lambda: make_line_env(max_steps=40), LINE_TASKS, tmp_path / "l.jsonl")
    client = _client(create_play_app(pool))
    client.post("/play/start", json={"participant": "bob"}, headers=OWN)
    page = client.get("/").text
    assert "first_person.png" not in page and "/play/embodied.png" in page
    r = client.get("/play/first_person.png")
    assert r.status_code == 404 and "no first-person camera" in r.json()["error"]
    pool.close_all()
