"""Per-session semantic state of the sites, in one in-memory SQLite database per process."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any


class StateStore:
    """A thread-safe SQLite database holding catalogue tables and per-session tables.

    Per-session tables carry a ``session`` column; resetting a session deletes its rows and
    re-seeds them. Checkers read state through :meth:`query`, never through pages.
    """

    def __init__(self, path: str = ":memory:") -> None:
        self.conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.conn.row_factory = sqlite3.Row
        self.lock = threading.RLock()
        self.session_tables: list[str] = []
        self.execute("PRAGMA journal_mode=MEMORY")
        self.execute("PRAGMA synchronous=OFF")

    def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> sqlite3.Cursor:
        """Run one SQL statement under the lock and return its cursor."""
        with self.lock:
            return self.conn.execute(sql, params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one SQL statement for each row of parameters, under the lock."""
        with self.lock:
            self.conn.executemany(sql, rows)

    def executescript(self, sql: str) -> None:
        """Run a script of several SQL statements under the lock."""
        with self.lock:
            self.conn.executescript(sql)

    def query(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[dict[str, Any]]:
        """Run a query and return all rows as dicts."""
        with self.lock:
            return [dict(r) for r in self.conn.execute(sql, params).fetchall()]

    def query_one(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> dict[str, Any] | None:
        """Run a query and return its first row as a dict, or None."""
        rows = self.query(sql, params)
        return rows[0] if rows else None

    @contextmanager
    def transaction(self) -> Iterator[StateStore]:
        """Hold the lock for a BEGIN/COMMIT block, rolling back if it raises."""
        with self.lock:
            self.conn.execute("BEGIN")
            try:
                yield self
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    @contextmanager
    def discarded(self) -> Iterator[StateStore]:
        """Run a block whose writes are all undone at its end (a savepoint rolled back)."""
        with self.lock:
            self.conn.execute("SAVEPOINT discarded")
            try:
                yield self
            finally:
                self.conn.execute("ROLLBACK TO discarded")
                self.conn.execute("RELEASE discarded")

    def register_session_table(self, ddl: str, name: str) -> None:
        """Create a per-session table (its DDL must include a ``session TEXT`` column)."""
        with self.lock:
            self.conn.executescript(ddl)
            self.conn.execute(f"CREATE INDEX IF NOT EXISTS idx_{name}_session ON {name}(session)")
            if name not in self.session_tables:
                self.session_tables.append(name)

    def clear_session(self, session: str) -> None:
        """Delete the session's rows from every registered session table."""
        with self.lock:
            for table in self.session_tables:
                self.conn.execute(f"DELETE FROM {table} WHERE session = ?", (session,))
