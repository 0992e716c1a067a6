"""Append-only rows written by a thread of their own, in batches, on a pool whose commits skip the disk."""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Table, event
from sqlalchemy.engine import Engine

from .engines import make_engine, side_engine
from .sqlite import writer_turn

_STOP = object()  # put on the queue by close(): the thread ends once what came before it is written


def unsynced_engine(url: str) -> Engine:
    """A pool of its own on the database at `url` (one connection on PostgreSQL: one thread writes), whose
    commits do not wait for the disk: SQLite `synchronous=NORMAL` (in WAL mode a commit is not fsynced, a
    checkpoint is), PostgreSQL `synchronous_commit=off` inside its own transactions (RowWriter._insert).
    What that risks is the last moment's rows on a power loss, never another table's data."""
    if not url.startswith("sqlite"):
        return side_engine(url, pool_pre_ping=True)
    engine = make_engine(url)

    @event.listens_for(engine, "connect")
    def _no_sync(dbapi_connection, _record):
        dbapi_connection.execute("PRAGMA synchronous=NORMAL")

    return engine


class RowWriter:
    """Rows of one table handed over by any thread and written by one thread of this process (started on the
    first row, and again in a forked child), which gathers what has queued up into one transaction of driver
    INSERTs: whoever hands a row over pays for neither its `prepare` (run by the thread) nor its write. Rows
    still queued when the process dies are lost, as unsynced commits are.

    `columns` are the table's columns a row fills, in order; `prepare` turns a handed-over row into their
    values (it may raise: that row alone is dropped); `describe` names a row in the log without its content.
    `name` and `plural` say what the rows are in the log ("request log", "API requests"). `put` never raises
    and never blocks: a row that finds the queue full is dropped and logged.
    """

    BATCH = 500
    # After its first row the thread lets the others of a burst queue up this long: one transaction and one
    # wake-up for many rows instead of one for each.
    GATHER = 0.05
    QUEUE = 10_000

    def __init__(
        self,
        url: str,
        table: Table,
        columns: tuple[str, ...],
        prepare: Callable[[tuple], tuple],
        *,
        describe: Callable[[tuple], str],
        log: logging.Logger,
        name: str,
        plural: str,
    ) -> None:
        self.url, self.table, self.columns, self.name, self.plural = url, table, columns, name, plural
        self._prepare, self._describe, self._log = prepare, describe, log
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=self.QUEUE)
        self._lock = threading.Lock()
        self._pid = 0
        self._thread: threading.Thread | None = None
        self._engine: Engine | None = None
        self._statement: tuple[str, list[Callable[[Any], Any] | None]] | None = None

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            self._engine = unsynced_engine(self.url)
        return self._engine

    # --- any thread -----------------------------------------------------------------------------------

    def put(self, row: tuple) -> None:
        self._start()
        try:
            self._queue.put_nowait(row)
        except queue.Full:  # the database is far behind: drop this row rather than slow its sender down
            self._log.error("%s queue full; a row of %s not written", self.name, self._describe(row))

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every queued row is written (tests, a stopping process); False on timeout."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.005)
        return not self._queue.unfinished_tasks

    def close(self, timeout: float = 2.0) -> None:
        """Write what is queued (for `timeout` at most), end the thread and close the pool."""
        with self._lock:
            thread, self._thread, self._pid = self._thread, None, 0
        if thread is not None and thread.is_alive():
            try:
                self._queue.put(_STOP, timeout=timeout)
            except queue.Full:
                pass
            else:
                thread.join(timeout)
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None

    def _start(self) -> None:
        if self._pid == os.getpid():
            return
        with self._lock:
            if self._pid != os.getpid():
                if self._pid:  # a forked child: the parent's thread and queue are not ours
                    self._queue = queue.Queue(maxsize=self.QUEUE)
                else:
                    atexit.register(self.close)
                self._pid = os.getpid()
                self._thread = threading.Thread(target=self._run, args=(self._queue,), name=f"checkout-{self.name.replace(' ', '-')}",
                                                daemon=True)  # fmt: skip
                self._thread.start()

    # --- the writer thread ----------------------------------------------------------------------------

    def _run(self, rows: queue.Queue[Any]) -> None:
        while True:
            batch = [rows.get()]
            time.sleep(self.GATHER)
            while len(batch) < self.BATCH:
                try:
                    batch.append(rows.get_nowait())
                except queue.Empty:
                    break
            stop = any(row is _STOP for row in batch)
            try:
                self._write([row for row in batch if row is not _STOP])
            except Exception:
                self._log.exception("could not record a batch of %d %s", len(batch) - stop, self.plural)
            finally:
                for _ in batch:
                    rows.task_done()
            if stop:
                return

    def _write(self, rows: list[tuple]) -> None:
        """Rows prepared and written in one transaction on a pooled driver connection, as multi-row INSERTs
        (no SQLAlchemy execution around them). A row the database refuses costs only itself: when the batch fails,
        its rows are written one by one and the one refused is dropped, with a line in the log that says
        whose it was but nothing of what it held. A database that cannot be reached at all fails the batch
        (the caller logs it)."""
        if not rows:
            return
        engine = self.engine
        sql, processors = self._insert_statement(engine)
        prepared: list[tuple[tuple, tuple]] = []  # (row as handed over, its values for the driver)
        for row in rows:
            try:
                fields = self._prepare(row)
                prepared.append((row, tuple(v if p is None else p(v) for v, p in zip(fields, processors, strict=True))))
            except Exception as error:  # preparing one row failed, whatever the reason
                self._dropped(row, error)
        if not prepared:
            return
        values = [value for _row, value in prepared]
        down = _unreachable(engine)
        connection = engine.raw_connection()
        try:
            try:
                _insert(engine, connection, sql, values)
            except down:
                raise
            except Exception as error:
                if len(values) > 1:
                    self._log.warning("%s: a batch of %d rows failed (%s); writing them one by one", self.name,
                                      len(values), type(error).__name__)  # fmt: skip
                for row, value in prepared:
                    try:
                        _insert(engine, connection, sql, [value])
                    except down:
                        raise
                    except Exception as refused:
                        self._dropped(row, refused)
        finally:
            connection.close()

    def _insert_statement(self, engine: Engine) -> tuple[str, list[Callable[[Any], Any] | None]]:
        """The INSERT in the driver's own parameter style, and how the driver takes each value (the same
        conversions the ORM applies, so rows read back alike)."""
        if self._statement is None:
            style = "?" if engine.dialect.paramstyle == "qmark" else "%s"
            names = ", ".join(self.columns)
            sql = f"INSERT INTO {self.table.name} ({names}) VALUES ({', '.join([style] * len(self.columns))})"  # noqa: S608 (names from the table)
            types = [self.table.c[name].type for name in self.columns]
            self._statement = (sql, [t.dialect_impl(engine.dialect).bind_processor(engine.dialect) for t in types])
        return self._statement

    def _dropped(self, row: tuple, error: Exception) -> None:
        self._log.error("%s: a row of %s was not written: %s", self.name, self._describe(row), type(error).__name__)


def _unreachable(engine: Engine) -> tuple[type[Exception], ...]:
    """The driver's errors that say the database, not a row, failed: trying each row again is no use."""
    dbapi = engine.dialect.dbapi
    return (dbapi.OperationalError, dbapi.InterfaceError) if dbapi is not None else ()


# Parameters a statement of a batch carries at most: within what every SQLite release takes (PostgreSQL's
# protocol takes 65,535).
_PARAMETERS = 999


def _multi_row(sql: str, values: list[tuple]) -> list[tuple[str, tuple]]:
    """A batch as multi-row INSERTs of up to _PARAMETERS parameters each, for `sql`, a one-row INSERT: the
    drivers let go of the interpreter around each statement they run, and executemany's statement per row,
    beside request threads that want the interpreter, cost a hand-over each (docs/benchmarks.md)."""
    head, _, one = sql.partition(" VALUES ")
    width = len(values[0]) if values else 1
    per = max(1, _PARAMETERS // width)
    statements = []
    for start in range(0, len(values), per):
        chunk = values[start : start + per]
        statements.append((f"{head} VALUES {','.join([one] * len(chunk))}", tuple(v for row in chunk for v in row)))
    return statements


def _insert(engine: Engine, connection: Any, sql: str, values: list[tuple]) -> None:
    """One transaction; rolled back when it fails, leaving the connection ready for the next."""
    cursor = connection.cursor()
    try:
        if engine.dialect.name == "sqlite":  # the engine's connections leave transactions to their user
            with writer_turn(engine):
                cursor.execute("BEGIN IMMEDIATE")
                try:
                    for statement, parameters in _multi_row(sql, values):
                        cursor.execute(statement, parameters)
                    cursor.execute("COMMIT")
                except BaseException:
                    cursor.execute("ROLLBACK")
                    raise
        else:
            try:
                # SET LOCAL, not a session's SET when it connects: behind PgBouncer's transaction pooling a
                # session's setting would stay on a server connection that other clients' commits then use.
                cursor.execute("SET LOCAL synchronous_commit = off")
                for statement, parameters in _multi_row(sql, values):
                    cursor.execute(statement, parameters)
                connection.commit()
            except BaseException:
                connection.rollback()
                raise
    finally:
        cursor.close()
