"""Task files: every problem is an error naming the line, the task and the field."""

from __future__ import annotations

import json

import pytest

from embodiedweb.tasks import TaskError, load_tasks


def _rec(tid: str, **kw) -> str:
    return json.dumps({"task_id": tid, "env_id": "EWA-Cooking-v0", "instruction": "Cook.", **kw})


def test_a_duplicated_task_id_is_refused_naming_line_and_id(tmp_path):
    p = tmp_path / "tasks.jsonl"
    p.write_text("\n".join([_rec("a"), _rec("b"), _rec("a")]) + "\n")
    with pytest.raises(TaskError, match=r"tasks\.jsonl:3 task 'a': duplicate task_id"):
        load_tasks(p)


@pytest.mark.parametrize(("line", "needle"), [
    ('{"task_id": "x"', "not valid JSON"),
    (_rec("x", split="val"), "field 'split'"),
    (_rec("x", start="kitchen"), "field 'start'"),
    (_rec("x", goal=[1]), "field 'goal'"),
    (_rec("x", colour="red"), "unknown field(s) colour"),
    (json.dumps({"task_id": "x", "env_id": "e"}), "field 'instruction'"),
])
def test_bad_records_name_the_field(tmp_path, line, needle):
    p = tmp_path / "tasks.jsonl"
    p.write_text(_rec("ok") + "\n" + line + "\n")
    with pytest.raises(TaskError, match="tasks.jsonl:2") as e:
        load_tasks(p)
    assert needle in str(e.value)


# --- mutation guards (issue 24): exact messages, defaults, gz files, suites -----------------------------------

def test_from_json_messages_and_defaults():
    from embodiedweb.tasks.task import Task
    t = Task.from_json({"task_id": "a", "env_id": "e", "instruction": "i"})
    assert (t.split, t.start, t.embodied, t.web, t.goal, t.meta) == ("test", "web", {}, {}, {}, {})
    assert t.to_json()["task_id"] == "a"
    ok = {"task_id": "a", "env_id": "e", "instruction": "i"}
    for split in ("train", "dev", "test"):
        assert Task.from_json({**ok, "split": split}).split == split
    assert Task.from_json({**ok, "start": "embodied"}).start == "embodied"
    cases = [
        ([1], "f.jsonl:1: a task must be a JSON object, got list"),
        ({"env_id": "e"}, "f.jsonl:1: field 'task_id' must be a non-empty string"),
        ({**ok, "task_id": ""}, "f.jsonl:1: field 'task_id' must be a non-empty string"),
        ({**ok, "env_id": ""}, "f.jsonl:1 task 'a': field 'env_id' must be a non-empty string"),
        ({**ok, "instruction": 3}, "f.jsonl:1 task 'a': field 'instruction' must be a non-empty string"),
        ({**ok, "web": []}, "f.jsonl:1 task 'a': field 'web' must be an object"),
        ({**ok, "meta": "x"}, "f.jsonl:1 task 'a': field 'meta' must be an object"),
        ({**ok, "embodied": 1}, "f.jsonl:1 task 'a': field 'embodied' must be an object"),
        ({**ok, "split": "val"}, "f.jsonl:1 task 'a': field 'split' must be train, dev or test, got 'val'"),
        ({**ok, "start": "x"}, "f.jsonl:1 task 'a': field 'start' must be 'web' or 'embodied', got 'x'"),
        ({**ok, "z": 1, "y": 2}, "f.jsonl:1 task 'a': unknown field(s) y, z"),
    ]
    for rec, msg in cases:
        with pytest.raises(TaskError) as e:
            Task.from_json(rec, "f.jsonl:1")
        assert str(e.value) == msg
    with pytest.raises(TaskError) as e:
        Task.from_json({**ok, "env_id": None})
    assert str(e.value) == "task 'a': field 'env_id' must be a non-empty string"
    with pytest.raises(TaskError) as e:
        Task.from_json(None)
    assert str(e.value) == ": a task must be a JSON object, got NoneType"


def test_load_tasks_gz_blank_lines_validate_and_missing(tmp_path):
    import gzip

    p = tmp_path / "t.jsonl.gz"
    with gzip.open(p, "wt", encoding="utf-8") as f:
        f.write(_rec("a") + "\n\n" + _rec("b", split="train") + "\n")
    tasks = load_tasks(p)
    assert [t.task_id for t in tasks] == ["a", "b"]

    def validate(t):
        if t.task_id == "b":
            raise TaskError(f"task {t.task_id!r}: no good")
    with pytest.raises(TaskError) as e:
        load_tasks(p, validate)
    assert str(e.value) == "t.jsonl.gz:3 task 'b': no good"
    assert len(load_tasks(p, lambda t: None)) == 2
    with pytest.raises(TaskError) as e:
        load_tasks(tmp_path / "none.jsonl")
    assert str(e.value) == f"task file not found: {tmp_path / 'none.jsonl'}"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(_rec("a") + "\n{x\n")
    with pytest.raises(TaskError) as e:
        load_tasks(bad)
    assert str(e.value).startswith("bad.jsonl:2: not valid JSON (") and "at column 2)" in str(e.value)


def test_task_suite(tmp_path):
    from embodiedweb.tasks.task import TaskSuite
    p = tmp_path / "t.jsonl"
    p.write_text("\n".join(_rec(t, split=s) for t, s in [("a", "train"), ("b", "test"), ("c", "train"),
                                                         ("d", "test"), ("e", "test"), ("f", "test")]))
    s = TaskSuite(load_tasks(p))
    assert len(s) == 6 and [t.task_id for t in s] == list("abcdef")
    assert s.get("c").task_id == "c"
    assert [t.task_id for t in s.split("train")] == ["a", "c"]
    with pytest.raises(TaskError) as e:
        s.get("zz")
    assert str(e.value) == "unknown task_id 'zz' (this suite has 6 tasks, e.g. a, b, c, d, e)"
