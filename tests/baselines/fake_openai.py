"""A small OpenAI-compatible chat server for tests: replies come from a policy function."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse


class FakeOpenAI:
    """Serves ``POST /v1/chat/completions``; ``policy(messages) -> reply text`` (or a dict of message fields).

    ``fail_next`` answers the next N requests with ``fail_status`` (e.g. 500 or 429) to test retries.
    Every request body is kept in ``requests``.
    """

    def __init__(self, policy: Callable[[list[dict[str, Any]]], str]) -> None:
        self.policy = policy
        self.requests: list[dict[str, Any]] = []
        self.fail_next = 0
        self.fail_status = 500
        app = FastAPI()

        @app.post("/v1/chat/completions")
        async def chat(request: Request) -> JSONResponse:
            body = await request.json()
            self.requests.append(body)
            if self.fail_next > 0:
                self.fail_next -= 1
                return JSONResponse({"error": {"message": "injected failure", "type": "server_error"}},
                                    status_code=self.fail_status)
            reply = self.policy(body["messages"])  # a text, or a dict of message fields (``reasoning_content``)
            extra = {k: v for k, v in reply.items() if k != "content"} if isinstance(reply, dict) else {}
            text = reply["content"] if isinstance(reply, dict) else reply
            prompt_tokens = sum(len(str(m.get("content", ""))) for m in body["messages"]) // 4
            return JSONResponse({
                "id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion", "created": 0,
                "model": body.get("model", "fake"),
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text, **extra}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": len(text) // 4,
                          "total_tokens": prompt_tokens + len(text) // 4}})

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="error"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        deadline = time.time() + 10
        while not self.server.started and time.time() < deadline:
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)
