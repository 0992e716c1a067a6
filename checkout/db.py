"""Database engine and per-request session, declarative Base, and Alembic migration entry points."""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from flask import Flask, g
from sqlalchemy import create_engine, event, exc, make_url
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

from . import dbbudget, peek

MIGRATIONS = Path(__file__).with_name("migrations")
READ_ONLY = "checkout_read_only"  # execution option: this unit of work never writes
ONE_STATEMENT = "checkout_one_statement"  # execution option: ...and each statement is a snapshot of its own


class Base(DeclarativeBase):
    pass


class _Writer:
    """One write transaction at a time on a SQLite database, handed from one writer to the next at once.

    SQLite itself lets one connection write at a time, and a connection that finds the lock taken polls
    for it with growing sleeps (its busy handler: 1, 2, 5 ... 100 ms): under load the lock stood free
    while every waiter slept, and a direct payment's p99 passed a second. Writers of this process queue
    on a lock here instead, and the processes on the database take turns through an flock() on a file
    beside it; both wake the next writer the moment the last one commits or rolls back. The busy handler
    still covers any other program writing to the file. A thread may nest a second write transaction on
    another connection (SQLite would refuse that one anyway); a turn may be handed back from another thread
    (a session closed by the collector).
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


WRITER_TIMEOUT = 30.0  # seconds, as the connections' busy_timeout


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


_writers: dict[str, _Writer] = {}
_writers_lock = threading.Lock()


def _after_fork_in_child() -> None:
    global _writers_lock  # noqa: PLW0603 (the parent's may have been held by a thread the child has not)
    _writers_lock = threading.Lock()
    for writer in _writers.values():
        writer.reset()


os.register_at_fork(after_in_child=_after_fork_in_child)

HOLDS_WRITER = "checkout_holds_writer"  # in a pooled connection's info while its write transaction runs


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


def _sqlite_engine(url: str) -> Engine:
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


# A pooled connection left unused this long is pinged before it is handed out again (see make_engine).
PING_AFTER_IDLE = 5.0


# What this process calls itself on PostgreSQL (pg_stat_activity's application_name), on every engine it
# opens: `checkout serve` "checkout-web", `checkout worker` "checkout-worker" (set by Database.init_app).
_application_name = "checkout"


def connect_args(url: str) -> dict:
    """The driver's connect arguments of every PostgreSQL engine of this process: its application_name,
    unless the URL names one; plus prepare_threshold=None behind PgBouncer's transaction pooling
    (CHECKOUT_DATABASE_PGBOUNCER)."""
    if url.startswith("sqlite"):
        return {}
    query = make_url(url).query
    found: dict = {} if "application_name" in query else {"application_name": _application_name}
    if _pgbouncer:
        found["prepare_threshold"] = None  # server-side prepared statements do not follow a session's server
    return found


_pgbouncer = False


def side_engine(url: str, **options) -> Engine:
    """A PostgreSQL engine of its own for one purpose, one connection at most (see dbbudget.py): a second
    user waits for the first's moment rather than open another."""
    return create_engine(url, pool_size=1, max_overflow=0, connect_args=connect_args(url), hide_parameters=True,
                         **options)  # fmt: skip


def make_engine(url: str, pool: int | None = None) -> Engine:
    """The application's engine; on PostgreSQL a pool of at most `pool` connections (None: 10 + 10 overflow,
    for a command that opens one or two)."""
    if url.startswith("sqlite"):
        return _sqlite_engine(url)
    sizes = {"pool_size": 10, "max_overflow": 10} if pool is None else {"pool_size": pool, "max_overflow": 0}
    engine = create_engine(url, **sizes, connect_args=connect_args(url), hide_parameters=True)

    # SQLAlchemy's pool_pre_ping pinged on every checkout: a round trip per request, 0.3 ms of a 1.4 ms
    # /trade/query. A connection in steady use has just shown it is alive; one that sat idle (through a
    # database restart, say) is pinged first and replaced if the ping fails. A disconnect met mid-request
    # still invalidates the whole pool, as before.
    @event.listens_for(engine, "checkin")
    def _note_idle(_dbapi_connection, record):
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping_if_idle(dbapi_connection, record, _proxy):
        if time.monotonic() - record.info.get("idle_since", time.monotonic()) < PING_AFTER_IDLE:
            return
        try:
            dbapi_connection.execute("SELECT 1")
            dbapi_connection.rollback()  # the ping began a transaction (psycopg): end it before use
        except Exception as error:
            raise exc.DisconnectionError(f"idle connection failed its ping: {error}") from error

    return engine


def one_statement(engine: Engine) -> Engine:
    """`engine` for reads of one statement each, with no transaction around them: on SQLite no `BEGIN`
    (see _on_begin), on PostgreSQL autocommit. Same pool."""
    options = {ONE_STATEMENT: True} if engine.dialect.name == "sqlite" else {"isolation_level": "AUTOCOMMIT"}
    return engine.execution_options(**options)


class Database:
    """Flask extension: one engine per app, one session per application context."""

    def __init__(self, app: Flask | None = None):
        self.engine: Engine | None = None
        self.read_only_engine: Engine | None = None
        self.one_statement_engine: Engine | None = None
        self.sessionmaker: sessionmaker | None = None
        self.readers = peek.Readers(ping_after=PING_AFTER_IDLE)
        self.budget: dbbudget.Budget | None = None  # None: SQLite (a file: no server connections to count)
        if app is not None:
            self.init_app(app)

    def init_app(self, app: Flask) -> None:
        global _application_name, _pgbouncer  # noqa: PLW0603 (one per process, as the process is one)
        url = app.config["DATABASE_URL"]
        _application_name = str(app.config["DATABASE_APPLICATION_NAME"])
        _pgbouncer = bool(app.config["DATABASE_PGBOUNCER"])
        self.budget = None
        if not url.startswith("sqlite"):
            self.budget = dbbudget.split(
                dbbudget.parse(app.config["DATABASE_CONNECTIONS"]),
                threads=int(app.config["DATABASE_THREADS"]),
                worker=bool(app.config["DATABASE_WORKER"]),
                sandbox=bool(app.config["SANDBOX"]),
            )
        self.engine = make_engine(url, self.budget.pool if self.budget else None)
        if self.budget is not None:
            peek.keep_at_most(self.engine, self.budget.readers)
        self.read_only_engine = self.engine.execution_options(**{READ_ONLY: True})  # same pool
        # One statement is its own consistent snapshot: on PostgreSQL it needs no transaction around it,
        # which saves the BEGIN and ROLLBACK round trips (about 0.7 ms of a 1.8 ms query here).
        self.one_statement_engine = one_statement(self.read_only_engine)
        self.sessionmaker = sessionmaker(self.engine, expire_on_commit=False)
        app.extensions["checkout.db"] = self
        app.teardown_appcontext(self._close)

    @property
    def is_sqlite(self) -> bool:
        assert self.engine is not None, "init_app first"
        return self.engine.dialect.name == "sqlite"

    @property
    def session(self) -> Session:
        if "db_session" not in g:
            assert self.sessionmaker is not None, "init_app first"
            g.db_session = self.sessionmaker()
        return g.db_session

    def read_only(self, *, one_statement: bool = False) -> None:
        """Declare the request's unit of work read-only, before its session is first used; with
        `one_statement`, a single statement (which then runs outside a transaction on PostgreSQL)."""
        if "db_session" not in g:
            assert self.sessionmaker is not None and self.one_statement_engine is not None, "init_app first"
            bind: Connection | Engine | None
            if one_statement:
                bind = self.readers.connection(self.one_statement_engine) or self.one_statement_engine
            else:
                bind = self.read_only_engine
            g.db_session = self.sessionmaker(bind=bind)

    def _close(self, _exc) -> None:
        session = g.pop("db_session", None)
        if session is not None:
            session.close()


db = Database()


def alembic_config(url: str):
    # Alembic is loaded only by what migrates (serve, db upgrade, tests), not by every import of db.
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "head") -> None:
    from alembic import command  # loaded only to migrate, as above

    command.upgrade(alembic_config(url), revision)
