"""SQLite's writer turns: one write transaction at a time per database file, handed on the moment it ends."""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import threading
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import create_engine, event, exc, make_url
from sqlalchemy.engine import Engine

READ_ONLY = "checkout_read_only"  # execution option: this unit of work never writes
ONE_STATEMENT = "checkout_one_statement"  # execution option: ...and each statement is a snapshot of its own
HOLDS_WRITER = "checkout_holds_writer"  # in a pooled connection's info while its write transaction runs
WRITER_TIMEOUT = 30.0  # seconds, as the connections' busy_timeout


class _Writer:
    """One write transaction at a time on a SQLite database, handed from one writer to the next at once.

    SQLite itself lets one connection write at a time, and a connection that finds the lock taken polls
    for it with growing sleeps (its busy handler): under load the lock stood free while every waiter slept.
    Writers of this process queue on a lock here instead, and the processes on the database take turns
    through an flock() on a file beside it; both wake the next writer the moment the last one commits or
    rolls back. The busy handler still covers any other program writing to the file. A thread may nest a
    second write transaction on another connection (SQLite would refuse that one anyway); a turn may be
    handed back from another thread (a session closed by the collector).
    """

    def __init__(self, path: str | None):
        self.path = path
        self.reset()

    def reset(self) -> None:
        """As new: in a forked child, whose copy may be held by a thread it does not have."""
        self.lock = threading.Lock()
        self.owner: int | None = None
        self.depth = 0  # changed only by the owner, or by whoever hands its turn back
        self.file: tuple[int, int] | None = None  # (pid, fd): a forked child opens its own

    def _fd(self) -> int | None:
        if self.path is None:
            return None
        pid = os.getpid()
        if self.file is None or self.file[0] != pid:
            self.file = (pid, _open_lock_file(self.path))
        return self.file[1]

    def acquire(self) -> None:
        me = threading.get_ident()
        if self.owner == me:
            self.depth += 1
            return
        # As SQLite's own busy timeout did: a writer stuck holding the turn fails the others, not hangs them.
        if not self.lock.acquire(timeout=WRITER_TIMEOUT):
            raise exc.OperationalError("BEGIN IMMEDIATE", None, TimeoutError("database is locked (writer's turn)"))
        try:
            fd = self._fd()
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
        except BaseException:
            self.lock.release()
            raise
        self.owner, self.depth = me, 1

    def release(self) -> None:
        self.depth -= 1
        if self.depth > 0:
            return
        self.owner = None
        try:
            if self.file is not None and self.file[0] == os.getpid():
                fcntl.flock(self.file[1], fcntl.LOCK_UN)
        finally:
            self.lock.release()


def _open_lock_file(path: str) -> int:
    """The lock file beside the database, made like the database (its mode, and its owner when we are root)
    so that whoever writes first, the service's own user can take turns too; opened read-only where it
    cannot be written (flock() needs no more)."""
    database = path.removesuffix("-writer.lock")
    try:
        stat = Path(database).stat()
    except OSError:
        stat = None
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, (stat.st_mode & 0o666) if stat else 0o644)
    except PermissionError:
        return os.open(path, os.O_RDONLY)
    if stat is not None and os.geteuid() == 0:
        with contextlib.suppress(OSError):
            os.fchown(fd, stat.st_uid, stat.st_gid)
    return fd


# Process-wide by nature: every engine of this process on one database file (each app's, the request log's)
# must queue on the same turn, whichever app opened it.
_writers: dict[str, _Writer] = {}
_writers_lock = threading.Lock()


def _after_fork_in_child() -> None:
    global _writers_lock  # noqa: PLW0603 (the parent's may have been held by a thread the child has not)
    _writers_lock = threading.Lock()
    for writer in _writers.values():
        writer.reset()


os.register_at_fork(after_in_child=_after_fork_in_child)


@functools.lru_cache(maxsize=64)  # the path is resolved once per URL, not on each turn
def _writer_for(url: str) -> _Writer:
    """The writer lock of a database file, shared by every engine of this process on that file."""
    database = make_url(url).database
    path = None if not database or database == ":memory:" else f"{Path(database).resolve()}-writer.lock"
    with _writers_lock:
        return _writers.setdefault(path or url, _Writer(path))


@contextlib.contextmanager
def writer_turn(engine: Engine) -> Iterator[None]:
    """Around a write transaction begun on a driver connection by hand (SQLite): the turn that every
    SQLAlchemy one takes by itself (see _Writer)."""
    if engine.dialect.name != "sqlite":
        yield
        return
    writer = _writer_for(engine.url.render_as_string(hide_password=False))
    writer.acquire()
    try:
        yield
    finally:
        writer.release()


def sqlite_engine(url: str) -> Engine:
    """An engine on a SQLite file whose write transactions take their writer's turn (see _Writer)."""
    engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False}, hide_parameters=True)
    writer = _writer_for(url)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        # Let SQLAlchemy, not pysqlite, decide when transactions begin (see _on_begin).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection):
        # SQLite has no row locks: a write transaction takes the database's write lock up front so
        # that check-then-write sequences (refund limits, balances) are serialised, not failed. A unit
        # of work declared read-only begins deferred: in WAL mode it reads a snapshot and waits for nobody.
        options = connection.get_execution_options()
        if options.get(ONE_STATEMENT, False):
            return  # no transaction around it, as on PostgreSQL: SQLite runs each statement as its own
        if options.get(READ_ONLY, False):
            connection.exec_driver_sql("BEGIN")
            return
        writer.acquire()
        try:
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        except BaseException:
            writer.release()
            raise
        connection.info[HOLDS_WRITER] = True

    # The transaction is ended here, then the next writer let in; pysqlite's own commit() or rollback()
    # that SQLAlchemy calls next finds no transaction open and does nothing.
    @event.listens_for(engine, "commit")
    def _on_commit(connection):
        if connection.connection.dbapi_connection.in_transaction:  # none around a one-statement read
            connection.exec_driver_sql("COMMIT")  # if it fails the transaction stays open, and rolls back
        _let_go(connection)

    @event.listens_for(engine, "rollback")
    def _on_rollback(connection):
        if connection.invalidated:
            return  # its turn was handed on when it was invalidated (below)
        if connection.info.get(HOLDS_WRITER):
            with contextlib.suppress(Exception):  # a broken connection: SQLAlchemy's own rollback reports it
                if connection.connection.dbapi_connection.in_transaction:
                    connection.exec_driver_sql("ROLLBACK")
            _let_go(connection)

    def _let_go(connection) -> None:
        if connection.info.pop(HOLDS_WRITER, False):
            writer.release()

    # Never back into the pool, or closed, holding the turn (a connection invalidated mid-transaction).
    @event.listens_for(engine, "checkin")
    @event.listens_for(engine, "invalidate")
    def _on_checkin(_dbapi_connection, record, *_exception):
        if record.info.pop(HOLDS_WRITER, False):
            writer.release()

    return engine
