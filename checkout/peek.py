"""Reads outside any unit of work, on connections each thread keeps for them (driver and SQLAlchemy)."""

from __future__ import annotations

import contextlib
import os
import threading
import time
import weakref
from typing import Any

from sqlalchemy.engine import Connection, Engine

_local = threading.local()
# A forked child's copies of its parent's connections: kept, never closed or finalized here (closing one
# would end the parent's session on the socket they share).
_inherited: list = []


class _Held:
    """A kept connection, closed when its thread ends (or, for `one`'s, its pool is gone), by the process
    that opened it."""

    __slots__ = ("connection", "engine", "pid", "used")

    def __init__(self, connection: Any):
        self.connection, self.pid = connection, os.getpid()
        self.engine: Engine | None = None  # a Readers' connection: the engine it came from (and keeps alive)
        self.used = time.monotonic()

    def __del__(self) -> None:
        if self.pid == os.getpid():
            with contextlib.suppress(Exception):
                self.connection.close()


def _connection(engine: Engine) -> Any:
    """This thread's connection to `engine`'s database, taken from its pool once and kept out of it, in
    autocommit (each statement a snapshot of its own, no transaction to end). A forked child opens its own."""
    kept = getattr(_local, "connections", None)
    if kept is None or _local.pid != os.getpid():
        if kept is not None:
            _inherited.append(kept)
        kept = _local.connections = weakref.WeakKeyDictionary()
        _local.pid = os.getpid()
    held = kept.get(engine.pool)  # an engine with other execution options shares its pool
    if held is None:
        pooled = engine.raw_connection()
        found = pooled.driver_connection
        assert found is not None  # just connected
        pooled.detach()  # ours for the thread's life, not the pool's
        if engine.dialect.name != "sqlite":  # SQLite's connections already leave transactions to their user
            found.autocommit = True
        held = kept[engine.pool] = _Held(found)
    return held.connection


def one(engine: Engine, sql: str, parameters: tuple) -> tuple | None:
    """The first row of a statement written with `?` for its parameters, or None.

    Used where a request must see a value as stored now but needs nothing else of the database (its
    merchant's keys): about a tenth of what checking out a connection, beginning and ending a transaction
    around the same statement cost. A connection that fails is dropped and the statement tried once more
    on a new one, after a probe through the pool: a database restarted since leaves every pooled
    connection dead, and SQLAlchemy, meeting one, renews them all.
    """
    if engine.dialect.paramstyle != "qmark":
        sql = sql.replace("?", "%s")
    if _memory(engine):
        with engine.connect() as connection:  # one database per connection: only the pool's has the data
            return connection.exec_driver_sql(sql, parameters).first()
    for attempt in (1, 2):
        connection = _connection(engine)
        try:
            return connection.execute(sql, parameters).fetchone()
        except Exception:
            _local.connections.pop(engine.pool, None)  # closed as it goes (_Held)
            if attempt == 2:
                raise
            with contextlib.suppress(Exception), engine.connect() as probe:
                probe.exec_driver_sql("SELECT 1")
    return None


def _memory(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:")


class Readers:
    """A SQLAlchemy connection per thread, kept out of its engine's pool, for units of work that read with
    one statement and begin no transaction (a one-statement read's session is bound to it): no checkout,
    reset and return per request, about a third of such a read's database cost.

    Kept for one engine at a time, the application's current one (a new engine, as each test app makes,
    closes the thread's previous connection on its next use). As the pool does for its own, a connection
    that sat idle `ping_after` seconds is pinged before use and replaced if the server ended it (a restart,
    an idle timeout); one found invalidated or closed (a statement met a lost server) is replaced. An
    in-memory SQLite database, which lives only on its pool's connection, gets none.
    """

    def __init__(self, ping_after: float) -> None:
        self._local = threading.local()
        self.ping_after = ping_after

    def connection(self, engine: Engine) -> Connection | None:
        if _memory(engine):
            return None
        held = getattr(self._local, "held", None)
        if held is not None and held.pid != os.getpid():
            _inherited.append(held)  # a forked child's copy of its parent's: never closed here
            held = None
        now = time.monotonic()
        if held is not None and not self._serves(held, engine, now):
            held = None  # dropped: closed as it goes (_Held)
        if held is None:
            connection = engine.connect()
            connection.detach()  # ours for the thread's life, not the pool's
            held = self._local.held = _Held(connection)
            held.engine = engine
        held.used = now
        return held.connection

    def _serves(self, held: _Held, engine: Engine, now: float) -> bool:
        """Whether the kept connection is this engine's and usable; one idle `ping_after` seconds must
        answer a ping first (a SQLite file's connection is never ended by a server)."""
        connection = held.connection
        if held.engine is not engine or connection.invalidated or connection.closed:
            return False
        if now - held.used < self.ping_after or connection.dialect.name == "sqlite":
            return True
        try:
            connection.exec_driver_sql("SELECT 1")
            connection.rollback()  # ends what the ping began (nothing on the server, in autocommit)
        except Exception:
            return False  # invalidated by SQLAlchemy
        return True
