"""An LLM agent for any OpenAI-compatible chat endpoint (vLLM, llama.cpp server, hosted APIs).

Text mode sends the accessibility tree or the embodied text; vision mode also sends the set-of-marks
screenshot and the embodied image (``render_images=True``): in the kitchen, ``ewa eval --vision`` makes that
the agent's first-person camera frame (``embodied_view="auto"``, as the paper's vision baselines saw AI2-THOR)
unless ``--vision-view top_down`` asks for the top-down map. Transport errors are retried with
exponential backoff; token usage and cost go into the per-episode record, and each step's raw completion,
parsed action, reasoning, tokens and latency into the step files (:meth:`LLMAgent.last_step_info`).
``ewa eval`` allows vision only in browser web mode (screenshots of the real page).
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import random
import time
from typing import Any

import numpy as np

from baselines.base import Agent
from baselines.prompts import PROMPT_VERSION, observation_prompt, parse_reply, system_prompt


def image_url(img: np.ndarray) -> str:
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(np.asarray(img, dtype=np.uint8)).save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def _reasoning_field(message: Any) -> str | None:
    """A reasoning model's separate reasoning text (``reasoning_content``: DeepSeek, vLLM; ``reasoning``:
    OpenRouter, Ollama), when the server sends one."""
    for key in ("reasoning_content", "reasoning"):
        value = getattr(message, key, None)
        if value is None:
            value = (getattr(message, "model_extra", None) or {}).get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None


def reasoning_text(reply: str) -> str:
    """The reply's text before the action (the paper's summary sentence, else the last fenced block)."""
    reply = reply or ""
    cut = reply.find("In summary")
    if cut < 0:
        cut = reply.rfind("```", 0, max(0, reply.rfind("```")))
    return reply[:cut].strip() if cut > 0 else ""


class LLMAgent(Agent):
    """See module docstring. ``price_in``/``price_out`` are USD per million tokens (for the cost field)."""

    name = "llm"

    def __init__(self, base_url: str | None = None, model: str = "gpt-4o-mini", api_key: str | None = None,
                 vision: bool = False, temperature: float = 0.0, max_tokens: int = 1024, history: int = 8,
                 max_retries: int = 5, backoff_s: float = 1.0, timeout_s: float = 120.0,
                 price_in: float = 0.0, price_out: float = 0.0, seed: int = 0, client: Any = None,
                 system_prompt: str | None = None) -> None:
        self.base_url = base_url or os.environ.get("OPENAI_BASE_URL")
        self.model = model
        self.api_key = api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY"
        self.vision = vision
        self.temperature, self.max_tokens, self.history_len = temperature, max_tokens, history
        self.max_retries, self.backoff_s, self.timeout_s = max_retries, backoff_s, timeout_s
        self.price_in, self.price_out = price_in, price_out
        self.seed = seed
        self.rng = random.Random(seed)
        self.system_template = system_prompt
        self._env: Any = None
        self._budget: tuple[int, int] | None = None
        self._client = client
        self._step: dict[str, Any] = {}
        self._reset_counters()

    def _reset_counters(self) -> None:
        self.calls = self.prompt_tokens = self.completion_tokens = self.retries = 0
        self.failures: list[str] = []
        self.history: list[tuple[str, str]] = []

    @property
    def client(self) -> Any:
        if self._client is None:
            from embodiedweb.extras import load

            openai = load("openai", "llm")

            self._client = openai.OpenAI(base_url=self.base_url, api_key=self.api_key, max_retries=0,
                                         timeout=self.timeout_s)
        return self._client

    def reset(self, env: Any, obs: dict[str, Any], info: dict[str, Any]) -> None:
        base = env.unwrapped
        self._env = env
        self.domains = base.domains
        if self.system_template is None:
            self.system = system_prompt(base.domain, base.describe_actions())
        else:  # a --system-prompt file: {domain} and {actions} filled in (no str.format: JSON braces stay)
            self.system = (self.system_template.replace("{domain}", base.domain.name)
                           .replace("{actions}", base.describe_actions()))
        self._reset_counters()

    def _messages(self, obs: dict[str, Any]) -> list[dict[str, Any]]:
        text = observation_prompt(obs, self.history[-self.history_len:], budget=self._budget)
        if not self.vision:
            return [{"role": "system", "content": self.system}, {"role": "user", "content": text}]
        content: list[dict[str, Any]] = [{"type": "text", "text": text}]
        key = "web_screenshot" if obs["active"] == "web" else "embodied_image"
        if key in obs:
            content.append({"type": "image_url", "image_url": {"url": image_url(obs[key])}})
        return [{"role": "system", "content": self.system}, {"role": "user", "content": content}]

    def complete(self, messages: list[dict[str, Any]]) -> str:
        """One chat completion with retries on transport errors, rate limits and 5xx answers. The
        step's usage, latency (of the answered request) and reasoning field go into ``self._step``."""
        from embodiedweb.extras import load

        openai = load("openai", "llm")

        retryable = (openai.APIConnectionError, openai.APITimeoutError, openai.RateLimitError,
                     openai.InternalServerError)
        for attempt in range(self.max_retries + 1):
            try:
                t0 = time.perf_counter()
                resp = self.client.chat.completions.create(model=self.model, messages=messages,
                                                           temperature=self.temperature, max_tokens=self.max_tokens,
                                                           seed=self.seed)
                latency = time.perf_counter() - t0
                self.calls += 1
                usage = getattr(resp, "usage", None)
                pt = int(getattr(usage, "prompt_tokens", 0) or 0) if usage is not None else None
                ct = int(getattr(usage, "completion_tokens", 0) or 0) if usage is not None else None
                self.prompt_tokens += pt or 0
                self.completion_tokens += ct or 0
                message = resp.choices[0].message
                self._step = {"prompt_tokens": pt, "completion_tokens": ct, "latency_s": round(latency, 4),
                              "retries": attempt, "reasoning_field": _reasoning_field(message)}
                return message.content or ""
            except retryable:
                if attempt == self.max_retries:
                    raise
                self.retries += 1
                time.sleep(self.backoff_s * (2 ** attempt) * (1 + 0.25 * self.rng.random()))
        raise RuntimeError("unreachable")

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> str:
        if self.history and obs.get("last_action_error"):
            a, _ = self.history[-1]
            self.history[-1] = (a, obs["last_action_error"][:300])
        self._step = {}
        limit = getattr(self._env.unwrapped, "episode_limit", None) if self._env is not None else None
        self._budget = (int(info.get("step", 0)) + 1, int(limit)) if limit and "step" in info else None
        try:
            reply = self.complete(self._messages(obs))
        except Exception as e:  # the endpoint is gone: `run_episode` records the episode as an error
            self.failures.append(f"{type(e).__name__}: {str(e)[:200]}")
            raise
        action = parse_reply(reply, self.domains)
        self.history.append((action, ""))
        field = self._step.pop("reasoning_field", None)
        self._step = {"completion": reply, "action": action, "reasoning": field or reasoning_text(reply),
                      **self._step}
        return action

    def last_step_info(self) -> dict[str, Any]:
        """The last step's raw completion, parsed action, reasoning (the reply's ``reasoning_content`` /
        ``reasoning`` field, else its text before the action), prompt and completion tokens, latency."""
        return dict(self._step)

    def run_settings(self) -> dict[str, Any]:
        """What changes the model's behaviour (part of the run id); not the endpoint, key, retries or prices.
        A ``--system-prompt`` file is kept as the sha256 of its text (``system_prompt``)."""
        s = {"model": self.model, "prompt_version": PROMPT_VERSION, "vision": self.vision,
             "temperature": self.temperature, "max_tokens": self.max_tokens, "history": self.history_len}
        if self.system_template is not None:
            s["system_prompt"] = "sha256:" + hashlib.sha256(self.system_template.encode()).hexdigest()[:16]
        return s

    def run_label(self) -> str:
        return f"llm:{self.model}" + ("+vision" if self.vision else "")

    def episode_record(self) -> dict[str, Any]:
        cost = (self.prompt_tokens * self.price_in + self.completion_tokens * self.price_out) / 1e6
        rec = {"llm": {"model": self.model, "calls": self.calls, "retries": self.retries,
                       "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                       "cost_usd": round(cost, 6), "vision": self.vision}}
        if self.failures:
            rec["llm"]["failures"] = self.failures[:5]
        return rec
