"""100k random action strings across the registered envs (and the test env) raise nothing."""

from __future__ import annotations

import random
import string

import gymnasium as gym

import embodiedweb
from embodiedweb.actions import REGISTRY
from tests.fixtures.lineworld import make_line_env

TOTAL = 100_000


def _random_action(rng: random.Random, info: dict) -> str:
    r = rng.random()
    if r < 0.25 and info.get("admissible_actions"):
        return rng.choice(info["admissible_actions"])
    if r < 0.6:
        name = rng.choice(list(REGISTRY.specs))
        if name.lower() == "stop" and rng.random() < 0.9:
            name = "scroll"
        args = "".join(f" [{_junk(rng, 12)}]" for _ in range(rng.randint(0, 3)))
        return name + args
    if r < 0.8:
        return _junk(rng, 40)
    return rng.choice(["click [", "type [1] [", "]]]][[[", "goto [javascript:alert(1)]", "goto [file:///etc/passwd]",
                       "goto [http://169.254.169.254/]", "press [Control+Alt+Delete]", "tab_focus [-1]",
                       "type [1] [" + "x" * 20000 + "]", "move [../../etc]", "Teleport [" + "|" * 50 + "]",
                       "click [0]", "new_tab", "close_tab", "go_back", "go_forward", "\x00", "switch_environment"])


def _junk(rng: random.Random, n: int) -> str:
    alphabet = string.printable + "éß中→\u200b\U0001f600"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, n)))


def test_random_action_strings_never_raise():
    envs = [make_line_env(max_steps=400)] + [gym.make(i, max_steps=400) for i in embodiedweb.registered_ids()]
    per_env = TOTAL // len(envs)
    rng = random.Random(0)
    errors = 0
    for env in envs:
        obs, info = env.reset(seed=1)
        for _ in range(per_env):
            action = _random_action(rng, info)
            obs, _, term, trunc, info = env.step(action)
            assert isinstance(obs["last_action_error"], str)
            errors += bool(obs["last_action_error"])
            if term or trunc:
                obs, info = env.reset(seed=rng.randint(0, 10**6))
        env.close()
    assert errors > TOTAL // 3  # most of them are wrong, and each was answered with a message
