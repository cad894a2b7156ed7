"""The agent interface used by ``ewa eval``: :class:`AgentProtocol` (what any agent, built in or
plug-in, must offer) and :class:`Agent` (a base class with every optional hook filled in)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class AgentProtocol(Protocol):
    """What ``ewa eval --agent module:Class`` (or ``module:factory``) needs from an agent.

    Required: :meth:`act`. Optional, used when present (a plug-in need not subclass :class:`Agent`):

    * ``name`` (str): the run's label and step-file folder; default: the class name;
    * :meth:`reset`, :meth:`close`;
    * ``run_settings() -> dict`` (or ``settings() -> dict``): what changes the agent's behaviour (model,
      temperature, ...). It goes into the run id, so two settings are two runs that resume apart;
    * ``run_label() -> str``: a readable row name in ``ewa report`` (default: ``name``);
    * ``episode_record() -> dict``: extra fields for the per-episode JSONL record (token usage, cost);
    * ``last_step_info() -> dict``: the agent's side of the step it just took, kept under ``agent`` in the
      step files of ``--save-steps`` and shown by the HTML trajectory viewer. Keys the viewer knows:
      ``completion`` (the raw model reply), ``action`` (the parsed action), ``reasoning``,
      ``prompt_tokens``, ``completion_tokens``, ``latency_s``; any other JSON value is kept as is.

    The class (or factory) is called with no arguments, or with ``seed=`` (the ``--seed`` of the run)
    when it takes a ``seed`` parameter. ``--workers N`` imports it again in every worker process, so it
    must be importable by its module path there (a module of the current directory is).
    """

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> str:
        """The next action string (as in ``env.step``) for observation ``obs`` and ``info``.

        An exception ends the episode as an error (``status: "error"``, not counted in accuracy), e.g.
        when a model endpoint cannot be reached."""
        ...

    def reset(self, env: Any, obs: dict[str, Any], info: dict[str, Any]) -> None:
        """Start an episode: ``env`` (for ``env.unwrapped.describe_actions()`` and the domains), the first
        observation and info. Agents other than the oracle must only read ``obs`` and ``info``."""
        ...

    def close(self) -> None:
        """Release resources (clients, processes) once ``ewa eval`` is done with the agent."""
        ...


class Agent:
    """An agent maps observations to action strings (see :class:`AgentProtocol`).

    ``reset`` is called at the start of every episode with the env (for ``describe_actions`` and
    the task), the first observation and info; ``act`` returns the next action string; an exception from ``act`` ends the episode as an error
    (``status: "error"``, not counted in accuracy), e.g. when a model endpoint cannot be reached.
    Agents other than the oracle must only read ``obs`` and ``info``.
    """

    name = "agent"

    def reset(self, env: Any, obs: dict[str, Any], info: dict[str, Any]) -> None:
        """Start an episode."""

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> str:
        """Return the next action string for this observation; subclasses must implement it."""
        raise NotImplementedError

    def close(self) -> None:
        """Release resources."""

    def run_settings(self) -> dict[str, Any]:
        """Settings of this agent that change its behaviour (they go into the run id of its records)."""
        return {}

    def run_label(self) -> str:
        """Readable name of this agent's run in ``ewa report`` rows."""
        return self.name

    def episode_record(self) -> dict[str, Any]:
        """Extra fields for the per-episode JSONL record (e.g. token usage)."""
        return {}

    def last_step_info(self) -> dict[str, Any]:
        """The agent's side of its last step (for step files); empty when it has none."""
        return {}
