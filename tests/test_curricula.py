"""Curricula (``curriculum=L``) and single-domain skill variants (``skill="web"|"embodied"``)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import gymnasium as gym
import pytest

import embodiedweb  # noqa: F401 - registers the envs
from embodiedweb.curricula import LEVELS, assign_levels, difficulty_path, load_difficulty, score_measures
from embodiedweb.data_gen.curricula import generate_env, render
from embodiedweb.registration import load_specs, registered_ids

ENVS = registered_ids()
DOMAIN = {s.id: s.load_domain().name for s in load_specs()}


def shipped(env_id: str) -> dict[str, dict[str, Any]]:
    return load_difficulty(DOMAIN[env_id])


def play(env: Any, agent: Any, obs: dict[str, Any], info: dict[str, Any]) -> tuple[dict[str, Any], float, int]:
    """Run ``agent`` to the end; (metrics, last reward, actions taken)."""
    agent.reset(env, obs, info)
    done, n, reward = False, 0, 0.0
    while not done:
        obs, reward, term, trunc, info = env.step(agent.act(obs, info))
        n += 1
        done = term or trunc
    return info["metrics"], reward, n


# curricula -----------------------------------------------------------------------------------------------
def test_default_is_unchanged() -> None:
    for env_id in ENVS:
        a, b = gym.make(env_id), gym.make(env_id, curriculum=None, skill=None)
        assert [t.task_id for t in a.unwrapped.tasks] == [t.task_id for t in b.unwrapped.tasks]
        assert a.unwrapped.suite_version == b.unwrapped.suite_version
        assert len(a.unwrapped.tasks) == len(a.unwrapped._suite)
        a.close()
        b.close()


@pytest.mark.parametrize("env_id", ENVS)
def test_levels_partition_each_split_and_grow_in_difficulty(env_id: str) -> None:
    table = shipped(env_id)
    full = gym.make(env_id)
    suite = full.unwrapped._suite
    assert sorted(table) == sorted(t.task_id for t in suite), "regenerate: python -m embodiedweb.data_gen.curricula"
    assert all(table[t.task_id]["split"] == t.split for t in suite)
    for split in sorted({t.split for t in suite}):
        ids = [t.task_id for t in suite if t.split == split]
        seen: list[str] = []
        means = []
        for level in LEVELS:
            env = gym.make(env_id, curriculum=level, split=split)
            got = [t.task_id for t in env.unwrapped.tasks]
            assert got and set(got) <= set(ids)
            assert got == [i for i in ids if i in set(got)]  # suite order kept
            seen += got
            means.append(sum(table[i]["score"] for i in got) / len(got))
            env.close()
        assert sorted(seen) == sorted(ids), "every task of the split in exactly one level"
        assert all(a < b for a, b in zip(means, means[1:], strict=False)), (split, means)
        sizes = [sum(table[i]["level"] == lv for i in ids) for lv in LEVELS]
        assert max(sizes) - min(sizes) <= 1  # quartiles
    for level in LEVELS:  # each level has train and test tasks
        env = gym.make(env_id, curriculum=level)
        assert {t.split for t in env.unwrapped.tasks} >= {"train", "test"}
        env.close()
    full.close()


def test_levels_follow_the_shipped_measures() -> None:
    """The stored scores and levels are :func:`assign_levels` of the stored measures, and the file is
    exactly what the generator renders from them (byte for byte)."""
    for env_id in ENVS:
        domain = DOMAIN[env_id]
        table = shipped(env_id)
        bare = {t: {k: v for k, v in r.items() if k not in ("score", "level")} for t, r in table.items()}
        env = gym.make(env_id)
        dom = env.unwrapped.domain
        env.close()
        assert assign_levels(dom, bare) == table
        assert render(env_id, domain, bare) == difficulty_path(domain).read_text(encoding="utf-8")
        assert all(r["oracle_success"] for r in table.values())
        assert all(m.lstrip("-") in r for r in table.values() for m in score_measures(dom))


def test_regenerated_sample_matches_the_shipped_file() -> None:
    """A sample of tasks per env played again by the oracle gives byte-identical records: a task, world,
    site or oracle change that was not regenerated fails here."""
    for env_id in ENVS:
        table = shipped(env_id)
        ids = sorted(table)
        sample = sorted(set(ids[:: max(1, len(ids) // 4)] + ids[-1:]))
        _, fresh = generate_env(env_id, sample)
        for tid in sample:
            want = {k: v for k, v in table[tid].items() if k not in ("score", "level")}
            assert json.dumps(fresh[tid], sort_keys=True) == json.dumps(want, sort_keys=True), (env_id, tid)


def test_curriculum_and_skill_are_part_of_the_suite_version() -> None:
    env_id = "EWA-Navigation-v0"
    versions = {gym.make(env_id).unwrapped.suite_version}
    for level in LEVELS:
        versions.add(gym.make(env_id, curriculum=level).unwrapped.suite_version)
        assert gym.make(env_id, curriculum=level, split="train").unwrapped.suite_version in versions
    for skill in ("web", "embodied"):
        versions.add(gym.make(env_id, skill=skill).unwrapped.suite_version)
    versions.add(gym.make(env_id, skill="web", curriculum=0).unwrapped.suite_version)
    assert len(versions) == 1 + len(LEVELS) + 2 + 1


@pytest.mark.parametrize("bad", [4, -1, "1", 1.0, True, "easy"])
def test_unknown_level_is_an_error_naming_the_levels(bad: Any) -> None:
    with pytest.raises(gym.error.Error, match="0, 1, 2, 3"):
        gym.make("EWA-Traveling-v0", curriculum=bad)


def test_unknown_or_unsupported_skill_is_an_error_at_make_time() -> None:
    with pytest.raises(gym.error.Error, match="'web', 'embodied'"):
        gym.make("EWA-Traveling-v0", skill="both")
    for skill in ("web", "embodied"):  # no web part to split off
        with pytest.raises(gym.error.Error, match="not available"):
            gym.make("EWA-Geolocation-v0", passive=True, skill=skill)
    with pytest.raises(gym.error.Error, match="supported skills: 'web'"):
        gym.make("EWA-Geolocation-v0", static=True, skill="embodied")
    env = gym.make("EWA-Geolocation-v0", static=True, skill="web")
    obs, info = env.reset(seed=0)
    assert obs["active"] == "web"
    env.close()


# skills --------------------------------------------------------------------------------------------------
def sample_tasks(env: Any, n: int = 2) -> list[Any]:
    tasks = env.unwrapped.tasks.tasks
    by_split = {s: [t for t in tasks if t.split == s] for s in ("train", "test")}
    return [t for s in ("train", "test") for t in by_split[s][:: max(1, len(by_split[s]) // n)][:n]]


@pytest.mark.parametrize("skill", ["web", "embodied"])
@pytest.mark.parametrize("env_id", ENVS)
def test_oracle_solves_a_sampled_level_under_each_skill(env_id: str, skill: str) -> None:
    env = gym.make(env_id, skill=skill, curriculum=2)
    base = env.unwrapped
    solved = 0
    tasks = sample_tasks(env)
    for task in tasks:
        obs, info = env.reset(seed=3, options={"task_id": task.task_id})
        assert info["step"] == 0 and base.steps == info["prefix_steps"]
        prefix = base.trace.records[1:-1]
        assert all(r.get("prefix") for r in prefix) and len(prefix) == info["prefix_steps"]
        assert base.trace.records[-1]["event"] == "prefix_end"
        assert obs["last_action"] == "" and obs["message"] == ""
        if skill == "web" or info["prefix_steps"]:
            assert obs["active"] == "web"
        if skill == "embodied" and info["prefix_steps"]:  # on the last page the oracle read
            assert prefix[-1]["parsed"]["domain"] == "web" and obs["web_url"] == prefix[-1]["web_url"]
        metrics, reward, n = play(env, base.domain.oracle(task), obs, info)
        assert {"overall", "web", "embodied", "completion", "skill", "skill_success"} <= set(metrics)
        assert metrics["skill"] == skill and metrics["steps"] == n
        assert metrics["prefix_steps"] == info["prefix_steps"]
        assert reward == float(metrics[skill]) == float(metrics["skill_success"])
        solved += metrics["skill_success"]
    assert solved == len(tasks)
    env.close()


class PartOnly:
    """The oracle, cut to one side: ``web`` stops at its first move out of the web after some web work;
    ``embodied`` answers nonsense instead of the oracle's answer."""

    name = "part"

    def __init__(self, oracle: Any, part: str, answer: str) -> None:
        self.oracle, self.part, self.answer, self.did_web = oracle, part, answer, False

    def reset(self, env: Any, obs: dict[str, Any], info: dict[str, Any]) -> None:
        self.env = env
        self.oracle.reset(env, obs, info)

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> str:
        a = self.oracle.act(obs, info)
        if self.part == "web":
            parsed = info.get("parsed_action") or {}
            self.did_web |= parsed.get("domain") == "web"
            if self.did_web and (a.startswith("switch_environment") or a.startswith("stop")):
                return f"stop [{self.answer}]"  # the web's answer, without walking there
        elif a.startswith("stop"):
            return "stop [I do not know]"
        return a


@pytest.mark.parametrize("skill", ["web", "embodied"])
def test_skill_success_reads_the_skill_metric_not_overall(skill: str) -> None:
    """One side done, the other not: ``overall`` fails, the skill's own metric (and reward) succeeds."""
    env = gym.make("EWA-Traveling-v0", skill=skill)
    base = env.unwrapped
    task = base.tasks.tasks[0]
    obs, info = env.reset(seed=1, options={"task_id": task.task_id})
    metrics, reward, _ = play(env, PartOnly(base.domain.oracle(task), skill, task.goal["answer"]), obs, info)
    assert metrics["overall"] is False and metrics[skill] is True
    assert metrics["skill_success"] is True and reward == 1.0
    env.close()


def test_random_agent_rarely_succeeds_under_a_skill() -> None:
    wins = runs = 0
    for env_id in ENVS:
        for skill in ("web", "embodied"):
            env = gym.make(env_id, skill=skill, max_steps=40)
            rng = random.Random(7)
            for ep in range(2):
                obs, info = env.reset(seed=ep)
                done = False
                while not done:
                    obs, reward, term, trunc, info = env.step(rng.choice(info["admissible_actions"]))
                    done = term or trunc
                wins += info["metrics"]["skill_success"]
                runs += 1
            env.close()
    assert wins <= runs // 4, (wins, runs)


def test_skill_episode_is_deterministic_counts_agent_steps_and_copies() -> None:
    env = gym.make("EWA-Cooking-v0", skill="embodied", max_episode_steps=6)
    base = env.unwrapped
    task = base.tasks.tasks[0]
    obs, info = env.reset(seed=5, options={"task_id": task.task_id})
    first = base.trace_digest()
    assert info["prefix_steps"] > 0
    agent = base.domain.oracle(task)
    agent.reset(env, obs, info)
    for _ in range(3):
        obs, _, _, _, info = env.step(agent.act(obs, info))
    twin = copy.deepcopy(base)
    assert twin.trace_digest() == base.trace_digest() and twin.steps == base.steps
    assert info["step"] == 3
    trunc = False
    while not trunc:  # the TimeLimit counts the agent's steps only, and so does the env
        obs, _, term, trunc, info = env.step("scroll [down]")
        assert not term
    assert info["step"] == 6 and info["metrics"]["steps"] == 6 and "skill_success" in info["metrics"]
    env.reset(seed=5, options={"task_id": task.task_id})
    assert base.trace_digest() == first
    env.close()


def test_ewa_curricula_prints_every_level(capsys: Any) -> None:
    from embodiedweb.cli import main

    assert main(["curricula", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == len(ENVS) * len(LEVELS) * 2
    assert sum(r["tasks"] for r in rows) == sum(len(shipped(e)) for e in ENVS)
    assert main(["curricula", "--env", "EWA-Navigation-v0"]) == 0
    assert "| EWA-Navigation-v0 | 3 | test |" in capsys.readouterr().out


def test_ewa_eval_runs_one_level(tmp_path: Any, capsys: Any) -> None:
    """`ewa eval --curriculum L` evaluates exactly the level's tasks of the split; a bad level exits 2."""
    from embodiedweb.cli import main

    out = tmp_path / "r.jsonl"
    assert main(["eval", "--env", "EWA-Traveling-v0", "--agent", "oracle", "--curriculum", "0", "--split", "test",
                 "--out", str(out), "--no-progress"]) == 0
    env = gym.make("EWA-Traveling-v0", curriculum=0, split="test")
    expected = {t.task_id for t in env.unwrapped.tasks.tasks}
    env.close()
    got = {json.loads(line)["task_id"] for line in out.read_text().splitlines()}
    assert got == expected and 0 < len(got) < 60
    with pytest.raises(SystemExit) as e:
        main(["eval", "--env", "EWA-Traveling-v0", "--curriculum", "4"])
    assert e.value.code == 2
