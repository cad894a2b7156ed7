"""Prompts for LLM agents: a system prompt opened by the domain's ``prompt_guidance``, plus the observation
as a user message."""

from __future__ import annotations

import re
from typing import Any

from embodiedweb.actions import REGISTRY, ActionError

#: bump when the system or observation prompt changes what a model sees: part of an LLM run's identity
PROMPT_VERSION = "2"  # 2: the observation says which step this is of the episode's limit

ANSWER_RULE = ("Think step by step about what you see, then end your reply with exactly one action in this form:\n"
               "In summary, the next action I will perform is ```<action>```")


def system_prompt(domain: Any, actions: str) -> str:
    """The system prompt for ``domain`` (a :class:`embodiedweb.domains.base.Domain`: its ``prompt_guidance``
    opens the prompt) with the action descriptions ``actions``."""
    guidance = domain.prompt_guidance
    return (f"{guidance}\n\nYou act in one environment at a time: the web or the embodied environment. "
            "Use switch_environment [note] to move to the other one; the note is shown to you after the switch, "
            "so use it to remember what you are about to do.\n\n"
            f"# Actions\n{actions}\n\n{ANSWER_RULE}")


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"\n... [{len(text) - limit} more characters cut]"


def observation_prompt(obs: dict[str, Any], history: list[tuple[str, str]], max_chars: int = 12000,
                       budget: tuple[int, int] | None = None) -> str:
    """The user message for one step: instruction, active environment, the step budget (``(this step,
    the episode's step limit)``, when known), observation and recent actions."""
    parts = [f"# Instruction\n{obs['instruction']}", f"# Active environment\n{obs['active']}"]
    if budget is not None:
        k, limit = budget
        parts.append(f"# Steps\nThis is step {k} of at most {limit}: the episode ends after step {limit}.")
    if obs.get("dialogue"):  # instructions one at a time: what was asked and answered before
        parts.insert(1, f"# Conversation so far\n{obs['dialogue']}")
    if obs.get("message"):
        parts.append(f"# Your note from the last switch\n{obs['message']}")
    if obs["active"] == "web":
        parts.append(f"# Web\nURL: {obs['web_url']}\nTabs:\n{obs.get('web_tabs', '')}\n"
                     f"Page (accessibility tree):\n{_clip(obs['web_text'], max_chars)}")
    else:
        parts.append(f"# Embodied environment\n{_clip(obs['embodied_text'], max_chars)}")
    if history:
        lines = [f"{i + 1}. {a}" + (f"  -> error: {e}" if e else "") for i, (a, e) in enumerate(history)]
        parts.append("# Your previous actions (most recent last)\n" + "\n".join(lines))
    if obs.get("last_action_error"):
        parts.append(f"# The last action failed\n{obs['last_action_error']}")
    return "\n\n".join(parts)


_SUMMARY = re.compile(r"next action I will perform is\s*:?\s*```(?:[a-z]*\n)?(.*?)```", re.S | re.I)
_FENCE = re.compile(r"```(?:[a-z]*\n)?(.*?)```", re.S)


def parse_reply(reply: str, domains: tuple[str, ...]) -> str:
    """The action in a model reply: the paper's summary sentence, else the last fenced block, else the
    last line that parses as an action. Returns the raw reply's last line if nothing parses (the env then
    explains the error to the agent)."""
    m = _SUMMARY.search(reply or "")
    if m:
        return m.group(1).strip()
    blocks = _FENCE.findall(reply or "")
    if blocks:
        return blocks[-1].strip()
    lines = [ln.strip().strip("`") for ln in (reply or "").splitlines() if ln.strip()]
    for line in reversed(lines):
        try:
            REGISTRY.parse(line, domains)
            return line
        except ActionError:
            continue
    return lines[-1] if lines else ""
