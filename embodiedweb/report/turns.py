"""Multi-turn envs (EWA-Assistant-v0) in ``ewa report``: the three metrics of sequential-instruction
benchmarks and the error taxonomy of the turns.

* **task success**: every instruction right (``overall``);
* **average progress**: the share of instructions right before the first wrong one (``completion``);
* **turn success**: the share of instructions right (``turn_success``); under teacher forcing
  (``gym.make(..., teacher_forcing=True)``, ``ewa eval --teacher-forcing``) each turn starts from the state
  a correct agent would have, so this is the step success rate;
* **errors**: the wrong turns by what they needed (``reference`` to earlier context, ``grounding`` in
  the embodied view, ``domain`` skill), as a share of all turns, plus turns never reached.
"""

from __future__ import annotations

from typing import Any

CATEGORIES = ("reference", "grounding", "domain")


def is_multi_turn(rec: dict[str, Any]) -> bool:
    """Whether the record's metrics are of a multi-turn env."""
    return "turn_success" in (rec.get("metrics") or {})


def turn_numbers(recs: list[dict[str, Any]]) -> dict[str, Any]:
    """Task success, average progress, turn success, error shares by category and unreached turns."""
    ok = [r["metrics"] for r in recs if r.get("status") != "error" and is_multi_turn(r)]
    n = len(ok)
    turns = sum(len(m.get("turns_ok") or []) for m in ok)

    def mean(key: str) -> float | None:
        return round(sum(float(m.get(key) or 0.0) for m in ok) / n, 4) if n else None

    out: dict[str, Any] = {"episodes": n, "turns": turns, "task_success": mean("overall"),
                           "average_progress": mean("completion"), "turn_success": mean("turn_success"),
                           "teacher_forcing": sorted({bool(m.get("teacher_forcing")) for m in ok})}
    for c in CATEGORIES:
        out[f"{c}_errors"] = round(sum((m.get("errors") or {}).get(c, 0) for m in ok) / turns, 4) if turns else None
    out["unreached"] = round(sum(len(m.get("turns_ok") or []) - int(m.get("turns_done") or 0) for m in ok) / turns,
                             4) if turns else None
    return out


def compute_turns(grouped: dict[str, dict[str, list[dict[str, Any]]]]) -> dict[str, dict[str, Any]]:
    """``{env: {row: turn_numbers}}`` for the envs whose records are multi-turn."""
    return {e: {a: turn_numbers(rs) for a, rs in agents.items()}
            for e, agents in grouped.items() if any(is_multi_turn(r) for rs in agents.values() for r in rs)}
