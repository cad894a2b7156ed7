"""Human-play mode in a real browser: a scripted "human" completes one task through the play page."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest
import uvicorn

from embodiedweb.play.server import PlaySession, create_play_app
from tests.fixtures.lineworld import make_line_env


@pytest.fixture
def served(tmp_path):
    env = make_line_env(max_steps=40)
    session = PlaySession(env, ["line-0"], tmp_path / "human.jsonl")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_play_app(session), host="127.0.0.1", port=port, log_level="error"))
    th = threading.Thread(target=server.run, daemon=True)
    th.start()
    while not server.started:
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}/", session, tmp_path / "human.jsonl"
    server.should_exit = True
    th.join(timeout=5)
    env.close()


def test_scripted_human_completes_a_task_in_a_real_browser(served):
    from embodiedweb.web.browser_driver import BrowserUnavailable, get_browser

    try:
        browser = get_browser()  # the process-wide Chromium (one Playwright per process)
    except BrowserUnavailable as e:
        pytest.skip(str(e))
    url, session, out = served
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(url)
        assert "apple" in page.inner_text("#instruction")

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
        page.click("#stop")
        page.wait_for_selector("#result")
        assert "success" in page.inner_text("#result")
    finally:
        ctx.close()
    rec = json.loads(out.read_text().splitlines()[-1])
    steps = out.parent / "human.steps" / rec["env_id"] / f"human-{rec['run_id']}" / "line-0.jsonl"
    assert len(steps.read_text().splitlines()) == rec["steps"] + 1 and steps.with_suffix(".trace.jsonl").exists()
    assert rec["agent"] == "human" and rec["metrics"]["overall"] and rec["task_id"] == "line-0"
    assert rec["run_label"] == "human" and rec["run_id"] and rec["status"] == "ok"
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
    r = act('{"kind": "stop", "answer": "done"}', own)
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
