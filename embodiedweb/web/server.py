"""The process-wide HTTP server of the local sites (used by the browser driver).

One uvicorn server per process, in a daemon thread, on 127.0.0.1 and a free port, serving
``create_app(get_webapp())``. It starts on the first :func:`get_server` call and stops at
interpreter exit. Agents never see its real origin: URLs are reported on the canonical origin
(:mod:`embodiedweb.web.urls`).
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import socket
import threading
import time

import uvicorn

log = logging.getLogger(__name__)

_lock = threading.Lock()
_server: LocalServer | None = None


class LocalServer:
    """A uvicorn server of the process-wide web app, running in a daemon thread.

    ``origin`` is ``http://127.0.0.1:PORT``. :meth:`start` returns once the server accepts
    connections; :meth:`stop` shuts it down (also registered with :mod:`atexit`).
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host = host
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind((host, port))
        self._sock.listen(128)
        self.port: int = self._sock.getsockname()[1]
        self.origin = f"http://{host}:{self.port}"
        self._uv: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    @property
    def running(self) -> bool:
        """Whether the server thread is alive and uvicorn has started."""
        return self._thread is not None and self._thread.is_alive() and self._uv is not None and self._uv.started

    def start(self, timeout: float = 10.0) -> LocalServer:
        """Start serving (idempotent); raises ``RuntimeError`` if the server did not come up."""
        if self.running:
            return self
        from web_sites.asgi import create_app
        from web_sites.registry import get_webapp

        config = uvicorn.Config(create_app(get_webapp()), log_level="warning", access_log=False, lifespan="off",
                                loop="asyncio", http="h11", ws="none", timeout_keep_alive=30)
        self._uv = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, name="ewa-web-server", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._uv.started:
            if self._error is not None or not self._thread.is_alive():
                raise RuntimeError(f"the local web server failed to start: {self._error!r}")
            if time.monotonic() > deadline:
                raise RuntimeError("the local web server did not start in time")
            time.sleep(0.002)
        return self

    def _run(self) -> None:
        assert self._uv is not None
        try:
            asyncio.run(self._uv.serve(sockets=[self._sock]))
        except BaseException as e:  # reported to start()
            self._error = e
            log.error("local web server stopped: %r", e)

    def stop(self, timeout: float = 3.0) -> None:
        """Ask the server to exit and wait briefly for its thread."""
        if self._uv is not None:
            self._uv.should_exit = True
        if self._thread is not None and self._thread.is_alive():
            self._thread.join(timeout)
        try:
            self._sock.close()
        except OSError:
            pass

    def __repr__(self) -> str:
        return f"LocalServer({self.origin}, running={self.running})"


def get_server() -> LocalServer:
    """The process-wide server, started on first use (thread-safe)."""
    global _server
    with _lock:
        if _server is None or not _server.running:
            if _server is not None:
                _server.stop(0.5)
            srv = LocalServer()
            srv.start()
            _server = srv
        return _server


def _stop_at_exit() -> None:
    global _server
    with _lock:
        if _server is not None:
            _server.stop(1.0)
            _server = None


atexit.register(_stop_at_exit)


def _after_fork_in_child() -> None:
    """A forked process serves its own pages (the parent's server thread is not in it) and must not wait on
    a lock that a parent thread held at the fork."""
    global _lock
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)
