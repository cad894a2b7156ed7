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
