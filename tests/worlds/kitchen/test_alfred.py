"""ALFRED conformance on the shared fixtures (a deterministic sample; the CLI replays the whole file)."""

from __future__ import annotations

import gzip
import json

import pytest

from embodiedweb.worlds.kitchen import alfred

SAMPLE_EVERY = 5  # 3,436 / 5 = 688 trajectories


def test_replay_sample_meets_targets(alfred_dir):
    res = alfred.replay_file(alfred_dir / "train.jsonl.gz", sample=SAMPLE_EVERY)
    n = res["trajectories"]
    assert n >= 600
    assert res["actions_ok"] / n >= 0.97, res
    assert res["goal_satisfied"] / n >= 0.97, res


def test_heldout_part_meets_targets(alfred_dir):
    res = alfred.replay_file(alfred_dir / "train.jsonl.gz", split="heldout", sample=2)
    n = res["trajectories"]
    assert n >= 500
    assert res["actions_ok"] / n >= 0.97, res
    assert res["goal_satisfied"] / n >= 0.97, res


def test_ablation_breaks_goals(alfred_dir):
    res = alfred.replay_file(alfred_dir / "train.jsonl.gz", ablate=True, sample=SAMPLE_EVERY)
    assert res["trajectories"] >= 400
    assert res["goal_satisfied"] / res["trajectories"] <= 0.01, res


def first(alfred_dir, pred):
    with gzip.open(alfred_dir / "train.jsonl.gz", "rt") as fh:
        for line in fh:
            t = json.loads(line)
            if pred(t):
                return t
    pytest.skip("no matching trajectory")


def test_rules_matter_on_a_heat_trajectory(alfred_dir):
    traj = first(alfred_dir, lambda t: t["task_type"] == "pick_heat_then_place_in_recep")
    assert alfred.replay(traj)["goal"]
    # leaving the microwave off: the object is never heated, the goal fails
    t2 = dict(traj, low_actions=[la for la in traj["low_actions"]
                                 if not (la["api_action"]["action"] == "ToggleObjectOn")])
    assert not alfred.replay(t2)["goal"]


def test_slice_without_knife_fails(alfred_dir):
    traj = first(alfred_dir, lambda t: any(la["api_action"]["action"] == "SliceObject" for la in t["low_actions"]))
    acts = [la for la in traj["low_actions"]]
    k = next(i for i, la in enumerate(acts) if la["api_action"]["action"] == "SliceObject")
    # drop the knife pickup: slicing must then fail with the knife message
    pick = max(i for i, la in enumerate(acts[:k]) if la["api_action"]["action"] == "PickupObject")
    res = alfred.replay(dict(traj, low_actions=acts[:pick] + acts[pick + 1:k + 1]))
    assert any(f[1] == "SliceObject" and "Knife" in f[3] for f in res["failures"])


def test_split_is_stable():
    assert alfred.split_of("trial_T20190907_105523_799331") in ("tune", "heldout")
    assert alfred.split_of("x") == alfred.split_of("x")
