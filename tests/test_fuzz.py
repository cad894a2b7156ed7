"""100k random action strings across the registered envs (and the test env) raise nothing; malformed actions
are answered with a message that names the problem."""

from __future__ import annotations

import random

import gymnasium as gym

import embodiedweb
from embodiedweb.soak import random_action
from tests.fixtures.lineworld import make_line_env

TOTAL = 100_000


def test_random_action_strings_never_raise():
    envs = [make_line_env(max_steps=400)] + [gym.make(i, max_steps=400) for i in embodiedweb.registered_ids()]
    per_env = TOTAL // len(envs)
    rng = random.Random(0)
    errors = 0
    for env in envs:
        obs, info = env.reset(seed=1)
        for _ in range(per_env):
            action = random_action(rng, info)
            obs, _, term, trunc, info = env.step(action)
            assert isinstance(obs["last_action_error"], str)
            errors += bool(obs["last_action_error"])
            if term or trunc:
                obs, info = env.reset(seed=rng.randint(0, 10**6))
        env.close()
    assert errors > TOTAL // 3  # most of them are wrong, and each was answered with a message


# (action, fragments its error message must contain): the message names the problem and the way out
MALFORMED = [
    ("", ["Empty action", "Valid actions:"]),
    ("\x00", ["Cannot read an action name", "Valid actions:"]),
    ("fly [x]", ["Unknown action 'fly'", "Valid actions:"]),
    ("click [", ["is not an element id", "Usage: click [id]"]),
    ("type [1]", ["'type' takes 2 to 3 argument(s), got 1", "Usage: type [id] [text]"]),
    ("scroll [sideways]", ["'sideways' is not one of up, down", "Usage: scroll [up|down]"]),
    ("tab_focus [7]", ["No tab 7", "open tabs are 0..0"]),
    ("click [99999]", ["No element with id [99999]", "Interactive ids on this page:"]),
    ("type [1] [x]", ["Element [1] is a", "not a text field"]),
    ("goto [file:///etc/passwd]", ["goto refused", "only http://ewa.local/"]),
    ("goto [http://169.254.169.254/]", ["goto refused", "not reachable"]),
    ("PickupObject [Apple]", ["'PickupObject' is an embodied action, but you are in the web",
                              "Use switch_environment"]),
]


def test_malformed_actions_get_a_message_naming_the_problem():
    env = gym.make("EWA-Cooking-v0")
    for action, fragments in MALFORMED:
        env.reset(seed=0)
        obs, *_ = env.step(action)
        for f in fragments:
            assert f in obs["last_action_error"], (action, obs["last_action_error"])
        assert obs["web_url"] == "http://ewa.local/" and obs["active"] == "web"  # nothing happened
    env.close()
