"""Tasks: what an episode asks, how it starts, and what counts as success."""

from embodiedweb.tasks.task import LEVELS, Task, TaskError, TaskSuite, check_task_level, load_tasks

__all__ = ["LEVELS", "Task", "TaskError", "TaskSuite", "check_task_level", "load_tasks"]
