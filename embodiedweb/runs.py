"""Run identity: which agent, model, prompt and settings produced a result record.

Every record ``ewa eval`` (and human play) writes carries

* ``run_settings``: what changes behaviour — the agent, its own settings (for the LLM agent: model,
  prompt version, temperature, ...; never the endpoint, key or prices), ``web_mode``, the env kwargs
  (``max_steps``, ...) and the seed;
* ``run_id``: a short stable hash of ``run_settings`` (same settings, same id, on any machine);
* ``run_label``: a readable name for report rows (``oracle``, ``llm:gpt-4o-mini``, ``human``).

Resume skips only records of the same run; ``ewa report`` groups rows by label and refuses to merge
two run ids that share one. Records written before run ids existed count as the run ``agent:<name>``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

#: characters of the sha256 hex digest kept as the run id
RUN_ID_CHARS = 12


def run_id_of_settings(settings: dict[str, Any]) -> str:
    """A short hex digest of a run's settings (canonical JSON, SHA-256, :data:`RUN_ID_CHARS` characters)."""
    blob = json.dumps(settings, sort_keys=True, separators=(",", ":"), default=str, ensure_ascii=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:RUN_ID_CHARS]


def run_identity(agent: Any, *, web_mode: str, env_kwargs: dict[str, Any] | None = None, seed: int | None = None,
                 label: str | None = None) -> dict[str, Any]:
    """``{"run_id", "run_label", "run_settings"}`` of ``agent`` run with these settings. The agent adds
    its own behaviour settings with ``run_settings()`` and may name itself with ``run_label()``."""
    own = agent.run_settings() if hasattr(agent, "run_settings") else {}
    settings: dict[str, Any] = {"agent": agent.name, "agent_settings": own, "web_mode": web_mode,
                                "env_kwargs": dict(sorted((env_kwargs or {}).items())), "seed": seed}
    default_label = agent.run_label() if hasattr(agent, "run_label") else agent.name
    return {"run_id": run_id_of_settings(settings), "run_label": label or default_label, "run_settings": settings}


HUMAN_SETTINGS: dict[str, Any] = {"agent": "human", "web_mode": "text"}


def human_identity() -> dict[str, Any]:
    """Human play: one run, labelled ``human``."""
    return {"run_id": run_id_of_settings(HUMAN_SETTINGS), "run_label": "human", "run_settings": dict(HUMAN_SETTINGS)}


def run_id(rec: dict[str, Any]) -> str:
    """The record's run id; ``agent:<name>`` for records written before run ids existed."""
    return str(rec.get("run_id") or f"agent:{rec['agent']}")


def run_label(rec: dict[str, Any]) -> str:
    """A result record's display label: its ``run_label``, else its agent name."""
    return str(rec.get("run_label") or rec["agent"])


def run_dir(rec_or_agent: dict[str, Any] | str, rid: str | None = None) -> str:
    """Folder of a run's step files under ``<out>.steps/<env_id>/``: ``<agent>-<run id>`` (old records: ``<agent>``)."""
    if isinstance(rec_or_agent, dict):
        agent, rid = str(rec_or_agent["agent"]), rec_or_agent.get("run_id")
    else:
        agent = rec_or_agent
    return f"{agent}-{rid}" if rid else agent


def participant(rec: dict[str, Any]) -> str:
    """The participant id of a human-play record ("" for agents and records written before ids existed)."""
    return str(rec.get("participant") or "")


def steps_subdir(rec: dict[str, Any]) -> str:
    """Folder of a record's step files under ``<out>.steps/<env_id>/``: :func:`run_dir`, plus
    ``/<participant>`` for human-play records that name one (two people may play the same task)."""
    pid = participant(rec)
    return f"{run_dir(rec)}/{pid}" if pid and all(c.isalnum() or c in "_-" for c in pid) and pid.isascii() else run_dir(rec)
