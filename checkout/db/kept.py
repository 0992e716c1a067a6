"""Reads outside any unit of work, on connections each thread keeps out of the pool (driver and SQLAlchemy)."""

from __future__ import annotations

import contextlib
import os
import threading
import time
import weakref
from typing import Any

from sqlalchemy import Select
from sqlalchemy.engine import Connection, Dialect, Engine
from sqlalchemy.orm import Session

# Per thread by nature: a kept connection is its thread's alone (never shared, never back in the pool).
_local = threading.local()
# A forked child's copies of its parent's connections: kept, never closed or finalized here (closing one
# would end the parent's session on the socket they share).
_inherited: list = []
# How many connections the threads of this process may keep out of each pool (keep_at_most), and how many
# they keep: the process's connection budget counts them (budget.py). A pool not named: no bound. Process-wide
# by nature: every thread's kept connections count against their one pool, whichever thread opened them.
_limits: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
_kept: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
_kept_lock = threading.Lock()


def keep_at_most(engine: Engine, connections: int) -> None:
    """Threads keep at most this many connections out of `engine`'s pool between them; past it, a thread
    reads through the pool (a checkout per read) rather than open one more."""
    _limits[engine.pool] = connections


def _reserve(pool: Any) -> bool:
    with _kept_lock:
        limit = _limits.get(pool)
        held = _kept.get(pool, 0)
        if limit is not None and held >= limit:
            return False
        _kept[pool] = held + 1
        return True


def _unreserve(pool: Any) -> None:
    with _kept_lock:
        held = _kept.get(pool, 0)
        if held > 0:
            _kept[pool] = held - 1


def _after_fork_in_child() -> None:
    global _kept_lock  # noqa: PLW0603 (the parent's may have been held by a thread the child has not)
    _kept_lock = threading.Lock()
    _kept.clear()  # the parent's are not the child's: it opens its own


os.register_at_fork(after_in_child=_after_fork_in_child)


class _Held:
    """A kept connection, closed when its thread ends (or, for `peek`'s, its pool is gone), by the process
    that opened it."""

    __slots__ = ("__weakref__", "connection", "engine", "pid", "pool", "used")

    def __init__(self, connection: Any, pool: Any = None):
        self.connection, self.pid = connection, os.getpid()
        self.engine: Engine | None = None  # a Readers' connection: the engine it came from (and keeps alive)
        self.pool = pool  # the pool whose count of kept connections this one is in (None: not counted)
        self.used = time.monotonic()

    def __del__(self) -> None:
        if self.pid == os.getpid():
            with contextlib.suppress(Exception):
                self.connection.close()
            if self.pool is not None:
                _unreserve(self.pool)


def _kept_by_thread() -> weakref.WeakKeyDictionary:
    kept = getattr(_local, "connections", None)
    if kept is None or _local.pid != os.getpid():
        if kept is not None:
            _inherited.append(kept)
        kept = _local.connections = weakref.WeakKeyDictionary()
        _local.pid = os.getpid()
    return kept


def _reader_driver_connection(engine: Engine) -> Any:
    """The driver connection under this thread's Readers connection to `engine`'s pool, when there is one
    and it is in autocommit: the key check shares it rather than keep a second connection."""
    ref = getattr(_local, "reader", None)
    held = ref() if ref is not None else None
    if held is None or held.pid != os.getpid() or held.engine is None or held.engine.pool is not engine.pool:
        return None
    return _outside_transaction(held.connection)


def _outside_transaction(connection: Connection) -> Any:
    """The driver connection under a SQLAlchemy connection that is open and runs each statement on its own
    (SQLite with no transaction begun, PostgreSQL in autocommit); None otherwise."""
    if connection.invalidated or connection.closed:
        return None
    driver: Any = connection.connection.dbapi_connection
    if connection.dialect.name == "sqlite":
        return driver if driver.isolation_level is None and not driver.in_transaction else None
    return driver if getattr(driver, "autocommit", False) and not driver.closed else None


def _connection(engine: Engine) -> Any:
    """This thread's connection to `engine`'s database, taken from its pool once and kept out of it, in
    autocommit (each statement a snapshot of its own, no transaction to end); the thread's Readers connection
    when it has one. None: the threads keep as many as they may (keep_at_most). A forked child opens its own."""
    shared = _reader_driver_connection(engine)
    if shared is not None:
        return shared
    kept = _kept_by_thread()
    held = kept.get(engine.pool)  # an engine with other execution options shares its pool
    if held is None:
        if not _reserve(engine.pool):
            return None
        try:
            pooled = engine.raw_connection()
        except BaseException:
            _unreserve(engine.pool)
            raise
        found = pooled.driver_connection
        assert found is not None  # just connected
        pooled.detach()  # ours for the thread's life, not the pool's
        if engine.dialect.name != "sqlite":  # SQLite's connections already leave transactions to their user
            found.autocommit = True
        held = kept[engine.pool] = _Held(found, engine.pool)
    return held.connection


def peek(engine: Engine, sql: str, parameters: tuple) -> tuple | None:
    """The first row of a statement written with `?` for its parameters, or None.

    Used where a request must see a value as stored now but needs nothing else of the database (its
    merchant's keys): no checkout from the pool, no transaction begun or ended around it, no SQLAlchemy
    execution (docs/benchmarks.md has what that saves). A connection that fails is dropped and the statement tried once more
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
        if connection is None:
            with engine.connect() as pooled:  # a checkout for this read only
                return pooled.exec_driver_sql(sql, parameters).first()
        try:
            return connection.execute(sql, parameters).fetchone()
        except Exception:
            _kept_by_thread().pop(engine.pool, None)  # closed as it goes (_Held)
            _local.reader = None  # the Readers connection, if it was that one, is not used for this again
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
    reset and return per request.

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
            self._local.held = None  # the one replaced is let go (and uncounted) before another is counted
            # The key check's connection of this thread goes: the thread keeps one connection, this one.
            _kept_by_thread().pop(engine.pool, None)
            if not _reserve(engine.pool):
                return None  # as many kept as the budget allows: this unit of work reads through the pool
            try:
                connection = engine.connect()
            except BaseException:
                _unreserve(engine.pool)
                raise
            connection.detach()  # ours for the thread's life, not the pool's
            held = self._local.held = _Held(connection, engine.pool)
            held.engine = engine
        _local.reader = weakref.ref(held)
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


class _Compiled:
    """A SELECT as one dialect's driver runs it: its SQL, its parameters' order (a positional paramstyle),
    and each column's conversion from the driver's value, its type's own result processor (or None)."""

    __slots__ = ("checked", "converted", "converters", "positions", "sql")

    def __init__(self, statement: Select, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql = compiled.string
        self.checked = False  # whether the driver's first answer had a column for each converter
        self.positions = tuple(compiled.positiontup or ()) if dialect.positional else None
        self.converters = tuple(
            column.type.dialect_impl(dialect).result_processor(dialect, None) for column in statement.selected_columns
        )
        self.converted = any(self.converters)  # none on PostgreSQL for the query: its rows are kept as they come


# Per dialect (each engine has its own), per statement: compiled once, as SQLAlchemy caches its own.
_compiled: weakref.WeakKeyDictionary[Dialect, dict[Select, _Compiled]] = weakref.WeakKeyDictionary()


def _check_columns(compiled: _Compiled, description: Any) -> None:
    """A Core SELECT answers its selected columns, one converter each. An ORM one compiles without its
    entities' deferred columns, which `selected_columns` still lists: every value after one would be read
    by another column's type."""
    if len(description) != len(compiled.converters):
        raise TypeError(
            f"driver_rows: the statement answered {len(description)} columns for {len(compiled.converters)} "
            "selected: give it a Core select of table columns, not ORM entities"
        )
    compiled.checked = True


def driver_rows(session: Session, statement: Select, parameters: dict[str, Any]) -> list[tuple]:
    """The rows of one Core SELECT of a one-statement unit of work (`Database.read_only(one_statement=True)`),
    each a tuple in the statement's column order with the values SQLAlchemy would give.

    On the thread's kept connection it runs on the driver: the statement compiled once per dialect, each
    column converted by its type's result processor, without SQLAlchemy's execution context, result
    object or the session's transaction bookkeeping (docs/benchmarks.md has what that saves). A session
    without a kept connection (an in-memory SQLite database, a budget spent) runs it through Core. A
    driver error drops the connection (the thread opens another on its next read) and propagates."""
    bind = session.get_bind()
    driver = None
    if isinstance(bind, Connection) and not bind.in_transaction():
        driver = _outside_transaction(bind)
    if driver is None:
        return [tuple(row) for row in session.connection().execute(statement, parameters)]
    assert isinstance(bind, Connection)
    dialect = bind.dialect
    by_statement = _compiled.get(dialect)
    if by_statement is None:
        by_statement = _compiled[dialect] = {}
    compiled = by_statement.get(statement)
    if compiled is None:
        compiled = by_statement[statement] = _Compiled(statement, dialect)
    arguments = parameters if compiled.positions is None else tuple(parameters[n] for n in compiled.positions)
    try:
        cursor = driver.execute(compiled.sql, arguments)
        fetched = cursor.fetchall()
    except Exception:
        # SQLAlchemy's invalidation of a connection kept out of the pool forgets its driver connection
        # without closing it: closed here, so the server's session ends now rather than when collected.
        with contextlib.suppress(Exception):
            driver.close()
        bind.invalidate()
        raise
    if not compiled.checked:
        _check_columns(compiled, cursor.description)
    if not compiled.converted:
        return [tuple(row) for row in fetched]
    converters = compiled.converters
    return [tuple(v if f is None else f(v) for f, v in zip(converters, row, strict=True)) for row in fetched]
