"""The LLM agent against a fake OpenAI-compatible server the test starts."""

from __future__ import annotations

import re

import pytest

from baselines.llm_agent import LLMAgent
from baselines.prompts import parse_reply
from embodiedweb.evaluate import run_episode
from tests.baselines.fake_openai import FakeOpenAI
from tests.fixtures.lineworld import make_line_env

DOMAINS = ("web", "street", "meta")


def _user_text(messages):
    content = messages[-1]["content"]
    return content if isinstance(content, str) else next(p["text"] for p in content if p["type"] == "text")


def line_policy(messages):
    """Solves the line-world task by reading the prompt, like a (very good) model would."""
    text = _user_text(messages)
    item = re.search(r"Put an? (\w+) in the cart", text).group(1)
    target = re.search(r"walk to (n\d)", text).group(1)
    if "Active environment\nweb" in text:
        if "/formlab/cart" in text:
            return "Done on the web. In summary, the next action I will perform is ```switch_environment [walk]```"
        if f"/formlab/item/{item}" not in text:
            return f"I go to the item. In summary, the next action I will perform is ```goto [/formlab/item/{item}]```"
        bid = re.search(r"\[(\d+)\] button 'Add to cart'", text).group(1)
        return f"Let me add it.\nIn summary, the next action I will perform is ```click [{bid}]```"
    at = re.search(r"at (n\d)", text).group(1)
    return "```stop```" if at == target else "In summary, the next action I will perform is ```forward```"


def test_parse_reply_conventions_and_fallbacks():
    assert parse_reply("blah\nIn summary, the next action I will perform is ```click [3]```", DOMAINS) == "click [3]"
    assert parse_reply("In summary, the next action I will perform is: ```\ntype [4] [eggs] [1]\n```", DOMAINS) \
        == "type [4] [eggs] [1]"
    assert parse_reply("first ```click [1]``` then ```click [2]```", DOMAINS) == "click [2]"
    assert parse_reply("I think I should go back.\ngo_back", DOMAINS) == "go_back"
    assert parse_reply("", DOMAINS) == ""


def test_llm_agent_solves_task_through_the_endpoint_and_records_usage():
    env = make_line_env(max_steps=30)
    with FakeOpenAI(line_policy) as server:
        agent = LLMAgent(base_url=server.base_url, model="fake-model", api_key="k", price_in=1.0, price_out=2.0)
        rec = run_episode(env, agent, "line-0", seed=0)
        first = server.requests[0]
    assert rec["metrics"]["overall"], rec
    llm = rec["llm"]
    assert llm["calls"] == rec["steps"] and llm["prompt_tokens"] > 0 and llm["completion_tokens"] > 0
    assert llm["cost_usd"] > 0 and llm["model"] == "fake-model"
    system = first["messages"][0]["content"]
    assert "click [id]" in system and "switch_environment" in system and "PickupObject" not in system
    assert "In summary, the next action I will perform is" in system
    assert "[3] link 'Home'" in _user_text(first["messages"])
    # the step budget: which step this is of the episode's limit (30 here), counted on
    assert "This is step 1 of at most 30" in _user_text(first["messages"])
    assert "This is step 2 of at most 30" in _user_text(server.requests[1]["messages"])
    env.close()


def test_retries_with_backoff_on_server_errors_and_rate_limits():
    env = make_line_env(max_steps=30)
    with FakeOpenAI(line_policy) as server:
        server.fail_next = 2
        agent = LLMAgent(base_url=server.base_url, model="m", backoff_s=0.01)
        rec = run_episode(env, agent, "line-1", seed=0)
        assert rec["metrics"]["overall"] and rec["llm"]["retries"] == 2
        server.fail_next, server.fail_status = 1, 429
        rec = run_episode(env, agent, "line-1", seed=0)
        assert rec["metrics"]["overall"] and rec["llm"]["retries"] == 1
    env.close()


def test_dead_endpoint_ends_episode_cleanly():
    env = make_line_env(max_steps=30)
    agent = LLMAgent(base_url="http://127.0.0.1:9/v1", model="m", max_retries=1, backoff_s=0.01, timeout_s=2)
    rec = run_episode(env, agent, "line-0", seed=0)
    assert not rec["metrics"]["overall"] and rec["llm"]["failures"]
    assert rec["status"] == "error" and rec["error"].startswith("APIConnectionError")  # not a failure at the task
    env.close()


def test_vision_mode_sends_images():
    env = make_line_env(max_steps=5, render_images=True, viewport=(320, 200), image_size=(64, 64))
    with FakeOpenAI(lambda m: "```stop```") as server:
        agent = LLMAgent(base_url=server.base_url, model="m", vision=True)
        run_episode(env, agent, "line-0", seed=0)
        content = server.requests[0]["messages"][-1]["content"]
    assert any(p["type"] == "image_url" and p["image_url"]["url"].startswith("data:image/png;base64,")
               for p in content)
    env.close()


@pytest.mark.parametrize("reply", ["I have no idea", "```\n```", "click", "In summary ```clik [1]```"])
def test_unparsable_replies_become_env_errors_not_crashes(reply):
    env = make_line_env(max_steps=3)
    with FakeOpenAI(lambda m: reply) as server:
        rec = run_episode(env, LLMAgent(base_url=server.base_url, model="m"), "line-0", seed=0)
    assert rec["steps"] == 3 and not rec["metrics"]["overall"]
    env.close()


def _sent_image(server, index=-1):
    import base64
    import io

    import numpy as np
    from PIL import Image

    content = server.requests[index]["messages"][-1]["content"]
    url = next(p["image_url"]["url"] for p in content if p["type"] == "image_url")
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB"))


@pytest.mark.parametrize("view", ["first_person", "top_down"])
def test_kitchen_vision_sends_the_first_person_frame_unless_the_map_is_asked_for(view):
    """``ewa eval --vision`` (:func:`vision_env_kwargs`): the kitchen image the model sees is the agent's camera
    frame by default, the top-down map with ``--vision-view top_down``."""
    import gymnasium as gym
    import numpy as np

    import embodiedweb  # noqa: F401  (registers the envs)
    from embodiedweb.cli import vision_env_kwargs

    env = gym.make("EWA-Cooking-v0", image_size=(96, 72), **vision_env_kwargs(True, view))
    try:
        obs, info = env.reset(seed=0)
        obs, _, _, _, info = env.step("switch_environment")
        assert obs["active"] != "web"
        with FakeOpenAI(lambda m: "```stop```") as server:
            agent = LLMAgent(base_url=server.base_url, model="m", vision=True)
            agent.reset(env, obs, info)
            agent.act(obs, info)
            sent = _sent_image(server)
        world = env.unwrapped.world
        camera = world.first_person((96, 72)).rgb
        top = env.unwrapped._fit(world.image((96, 72)), (96, 72))
        assert not np.array_equal(camera, top)
        assert np.array_equal(sent, camera if view == "first_person" else top)
    finally:
        env.close()


def test_vision_view_flag_defaults_to_the_first_person_camera():
    from embodiedweb.cli import build_parser, vision_env_kwargs

    base = ["eval", "--env", "EWA-Cooking-v0", "--agent", "llm", "--vision"]
    assert build_parser().parse_args(base).vision_view == "first_person"
    assert build_parser().parse_args([*base, "--vision-view", "top_down"]).vision_view == "top_down"
    assert vision_env_kwargs(False) == {}
    # a street env with "auto" keeps its map (no camera there): --env all works with --vision
    import gymnasium as gym

    env = gym.make("EWA-Navigation-v0", **vision_env_kwargs(True))
    try:
        assert env.unwrapped.embodied_view == "top_down"
    finally:
        env.close()
