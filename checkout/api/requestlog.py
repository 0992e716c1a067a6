"""The API request log: what each authenticated API request asked and answered, redacted, kept 7 days."""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    BigInteger,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    delete,
    event,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, Session, mapped_column

from .. import clock
from ..db import Base, make_engine, side_engine, writer_turn
from .redaction import redacted_body, storable
from .scrub import scrub_text

log = logging.getLogger(__name__)

KEEP = timedelta(days=7)


class ApiRequest(Base):
    __tablename__ = "api_requests"
    __table_args__ = (
        Index("ix_api_requests_merchant_id_id", "merchant_id", "id"),
        Index("ix_api_requests_at", "at"),
    )

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer(), "sqlite"), primary_key=True)
    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # real time, not the sandbox clock
    method: Mapped[str] = mapped_column(String(8))
    path: Mapped[str] = mapped_column(String(255))
    status: Mapped[int] = mapped_column(Integer)
    duration_ms: Mapped[int] = mapped_column(Integer)
    # Card numbers, CVVs, keys, signatures and link tokens are redacted before a body is kept (redaction.py);
    # bodies are bounded.
    request_body: Mapped[str] = mapped_column(Text)
    response_body: Mapped[str] = mapped_column(Text)


_writers: dict[str, Engine] = {}
_writers_lock = threading.Lock()


def writer(engine: Engine) -> Engine:
    """The log's own pool on the app's database (one connection: one thread writes), whose commits do not
    wait for the disk: SQLite `synchronous=NORMAL` (in WAL mode a commit is not fsynced, a checkpoint is),
    PostgreSQL `synchronous_commit=off` for the log's own transactions. Waiting for the disk was most of the
    log's cost (about 5 ms a request on SQLite); what it risks is the last moment's log rows on a power loss,
    never the requests' own data."""
    url = engine.url.render_as_string(hide_password=False)
    with _writers_lock:
        found = _writers.get(url)
        if found is None:
            found = _writers[url] = _make_writer(url)
        return found


def _make_writer(url: str) -> Engine:
    if not url.startswith("sqlite"):
        return side_engine(url, pool_pre_ping=True)
    engine = make_engine(url)

    @event.listens_for(engine, "connect")
    def _no_sync(dbapi_connection, _record):
        dbapi_connection.execute("PRAGMA synchronous=NORMAL")

    return engine


def record(
    engine: Engine,
    *,
    merchant_id: int,
    method: str,
    path: str,
    status: int,
    duration_ms: int,
    request_body: bytes | str,
    response_body: bytes | str,
) -> None:
    """Log one request after its own commit or rollback (a refused request's row is kept although its work
    rolled back). The request only hands the raw row to this process's writer thread, which redacts and
    inserts rows in batches: the request pays for neither (they were about half of a `/trade/query`'s own
    time). Never raises: a log that fails must not fail the API request."""
    row = (
        merchant_id,
        clock.real_now(),
        method[:8],
        path[:255],
        status,
        max(0, duration_ms),
        request_body,
        response_body,
    )
    _background.put(engine, row)


class _Background:
    """One writer thread per process (started on first use, and again in a forked child), fed by a queue;
    it writes what has queued up in one transaction. What is still queued when the process dies is lost,
    as the log's unsynced commits are: the requests' own data never is."""

    BATCH = 500
    # After its first row the thread lets the others of a burst queue up this long: one transaction and
    # one wake-up for many rows instead of one for each (a log row costs a third as much that way).
    GATHER = 0.05

    def __init__(self) -> None:
        self._queue: queue.Queue[tuple[Engine, tuple]] = queue.Queue(maxsize=10_000)
        self._lock = threading.Lock()
        self._pid = 0

    def put(self, engine: Engine, row: tuple) -> None:
        self._start()
        try:
            self._queue.put_nowait((engine, row))
        except queue.Full:  # the database is far behind: drop this row rather than slow the API down
            log.error("request log queue full; %s %s not logged", row[2], row[3])

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every queued row is written (tests, a stopping process); False on timeout."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.005)
        return not self._queue.unfinished_tasks

    def _start(self) -> None:
        if self._pid == os.getpid():
            return
        with self._lock:
            if self._pid != os.getpid():
                if self._pid:  # a forked child: the parent's thread and queue are not ours
                    self._queue = queue.Queue(maxsize=10_000)
                self._pid = os.getpid()
                threading.Thread(target=self._run, name="checkout-request-log", daemon=True).start()

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            time.sleep(self.GATHER)
            while len(batch) < self.BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            try:
                for engine in {engine for engine, _row in batch}:
                    _write(writer(engine), [row for owner, row in batch if owner is engine])
            except Exception:
                log.exception("could not record a batch of %d API requests", len(batch))
            finally:
                for _ in batch:
                    self._queue.task_done()


_background = _Background()
flush = _background.flush
atexit.register(flush, 2.0)


INSERT = (
    "INSERT INTO api_requests (merchant_id, at, method, path, status, duration_ms, request_body, response_body)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
_statements: dict[str, tuple[str, Callable[[Any], Any]]] = {}


def _statement(engine: Engine) -> tuple[str, Callable[[Any], Any]]:
    """The INSERT in the driver's own parameter style, and how the driver takes the `at` value (the same
    conversion the ORM applies, so rows read back alike)."""
    found = _statements.get(engine.dialect.name)
    if found is None:
        sql = INSERT if engine.dialect.paramstyle == "qmark" else INSERT.replace("?", "%s")
        at_type = ApiRequest.__table__.c.at.type
        found = (sql, at_type.dialect_impl(engine.dialect).bind_processor(engine.dialect) or (lambda value: value))
        _statements[engine.dialect.name] = found
    return found


def _write(engine: Engine, rows: list[tuple]) -> None:
    """Rows redacted and written in one transaction on a pooled driver connection (a third of the cost of
    the same INSERT through SQLAlchemy Core). A row the database refuses costs only itself: when the batch
    fails, its rows are written one by one and the one refused is dropped, with a line in the log that
    says whose it was but nothing of what it held. A database that cannot be reached at all fails the
    batch (the caller logs it)."""
    sql, at = _statement(engine)
    values = []
    for row in rows:
        try:
            values.append(_stored(row, at))
        except Exception as error:  # redaction failing on one body, whatever the reason
            _dropped(row, error)
    if not values:
        return
    down = _unreachable(engine)
    connection = engine.raw_connection()
    try:
        try:
            _insert(engine, connection, sql, values)
        except down:
            raise
        except Exception as error:
            if len(values) > 1:
                log.warning("request log: a batch of %d rows failed (%s); writing them one by one", len(values),
                            type(error).__name__)  # fmt: skip
            for value in values:
                try:
                    _insert(engine, connection, sql, [value])
                except down:
                    raise
                except Exception as refused:
                    _dropped(value, refused)
    finally:
        connection.close()


def _stored(row: tuple, at: Callable[[Any], Any]) -> tuple:
    merchant_id, when, method, path, status, ms, sent, answered = row
    return (merchant_id, at(when), storable(method), storable(scrub_text(path)), status, ms, redacted_body(sent),
            redacted_body(answered))  # fmt: skip


def _dropped(row: tuple, error: Exception) -> None:
    log.error("request log: a row of merchant %s (status %s) was not written: %s", row[0], row[4],
              type(error).__name__)  # fmt: skip


def _unreachable(engine: Engine) -> tuple[type[Exception], ...]:
    """The driver's errors that say the database, not a row, failed: trying each row again is no use."""
    dbapi = engine.dialect.dbapi
    return (dbapi.OperationalError, dbapi.InterfaceError) if dbapi is not None else ()


def _insert(engine: Engine, connection: Any, sql: str, values: list[tuple]) -> None:
    """One transaction; rolled back when it fails, leaving the connection ready for the next."""
    cursor = connection.cursor()
    try:
        if engine.dialect.name == "sqlite":  # the engine's connections leave transactions to their user
            with writer_turn(engine):
                cursor.execute("BEGIN IMMEDIATE")
                try:
                    cursor.executemany(sql, values)
                    cursor.execute("COMMIT")
                except BaseException:
                    cursor.execute("ROLLBACK")
                    raise
        else:
            try:
                # SET LOCAL, not a session's SET when it connects: behind PgBouncer's transaction pooling a
                # session's setting would stay on a server connection that other clients' commits then use.
                cursor.execute("SET LOCAL synchronous_commit = off")
                cursor.executemany(sql, values)
                connection.commit()
            except BaseException:
                connection.rollback()
                raise
    finally:
        cursor.close()


def purge(session: Session, now: datetime | None = None) -> int:
    """Delete requests older than KEEP (real time); answers how many."""
    limit = (now or clock.real_now()) - KEEP
    result = session.execute(delete(ApiRequest).where(ApiRequest.at < limit))
    return int(getattr(result, "rowcount", 0) or 0)
