"""One-row reads outside any unit of work, on a driver connection each thread keeps for them."""

from __future__ import annotations

import contextlib
import os
import threading
import weakref
from typing import Any

from sqlalchemy.engine import Engine

_local = threading.local()
# A forked child's copies of its parent's connections: kept, never closed or finalized here (closing one
# would end the parent's session on the socket they share).
_inherited: list = []


class _Held:
    """A kept connection, closed when its thread ends or its engine is gone, by the process that opened it."""

    __slots__ = ("connection", "pid")

    def __init__(self, connection: Any):
        self.connection, self.pid = connection, os.getpid()

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
    if engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:"):
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
