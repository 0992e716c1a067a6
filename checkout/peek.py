"""One-row reads outside any unit of work, on a driver connection each thread keeps for them."""

from __future__ import annotations

import contextlib
import os
import threading
from typing import Any

from sqlalchemy.engine import Engine

_local = threading.local()


def _connection(engine: Engine) -> Any:
    """This thread's connection to `engine`'s database, taken from its pool once and kept out of it, in
    autocommit (each statement a snapshot of its own, no transaction to end). A forked child opens its own."""
    kept = getattr(_local, "connections", None)
    if kept is None or _local.pid != os.getpid():
        kept = _local.connections = {}
        _local.pid = os.getpid()
    found = kept.get(engine.pool)  # an engine with other execution options shares its pool
    if found is None:
        pooled = engine.raw_connection()
        found = pooled.driver_connection
        assert found is not None  # just connected
        pooled.detach()  # ours for the thread's life, not the pool's
        if engine.dialect.name != "sqlite":  # SQLite's connections already leave transactions to their user
            found.autocommit = True
        kept[engine.pool] = found
    return found


def one(engine: Engine, sql: str, parameters: tuple) -> tuple | None:
    """The first row of a statement written with `?` for its parameters, or None.

    Used where a request must see a value as stored now but needs nothing else of the database (its
    merchant's keys): about a tenth of what checking out a connection, beginning and ending a transaction
    around the same statement cost. A connection that fails is dropped and the statement tried once more on
    a new one (a database restarted since)."""
    if engine.dialect.paramstyle != "qmark":
        sql = sql.replace("?", "%s")
    for attempt in (1, 2):
        connection = _connection(engine)
        try:
            return connection.execute(sql, parameters).fetchone()
        except Exception:
            _local.connections.pop(engine.pool, None)
            with contextlib.suppress(Exception):  # already broken: closing it is a courtesy
                connection.close()
            if attempt == 2:
                raise
    return None
