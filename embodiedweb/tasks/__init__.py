"""Tasks: what an episode asks, how it starts, and what counts as success."""

from embodiedweb.tasks.task import Task, TaskError, TaskSuite, load_tasks

__all__ = ["Task", "TaskError", "TaskSuite", "load_tasks"]
