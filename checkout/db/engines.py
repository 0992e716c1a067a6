"""The engines a process opens: the application's pool, side pools of one connection, one-statement reads."""

from __future__ import annotations

import time

from sqlalchemy import create_engine, event, exc, make_url
from sqlalchemy.engine import Engine
from sqlalchemy.pool import NullPool

from .sqlite import ONE_STATEMENT, sqlite_engine

# A pooled connection left unused this long is pinged before it is handed out again (see make_engine).
PING_AFTER_IDLE = 5.0


class _Process:
    """What this process calls itself on PostgreSQL (pg_stat_activity's application_name), on every engine it
    opens, and whether it sits behind PgBouncer's transaction pooling. Process-wide: set once by
    Database.init_app (`checkout serve` "checkout-web", `checkout worker` "checkout-worker"), read by every
    engine the process opens, the side pools' included."""

    application_name = "checkout"
    pgbouncer = False


def name_process(application_name: str, *, pgbouncer: bool) -> None:
    _Process.application_name, _Process.pgbouncer = application_name, pgbouncer


def connect_args(url: str) -> dict:
    """The driver's connect arguments of every PostgreSQL engine of this process: its application_name,
    unless the URL names one; plus prepare_threshold=None behind PgBouncer's transaction pooling
    (CHECKOUT_DATABASE_PGBOUNCER)."""
    if url.startswith("sqlite"):
        return {}
    query = make_url(url).query
    found: dict = {} if "application_name" in query else {"application_name": _Process.application_name}
    if _Process.pgbouncer:
        found["prepare_threshold"] = None  # server-side prepared statements do not follow a session's server
    return found


def side_engine(url: str, **options) -> Engine:
    """An engine of its own for one purpose. On PostgreSQL one connection at most (the connection budget
    counts it): a second user waits for the first's moment rather than open another. On SQLite a connection
    per use, in pysqlite's own deferred transactions and with no writer's turn: in WAL mode its reads wait
    for no writer, so it may be read inside another transaction; its rare writes wait on the busy handler."""
    if url.startswith("sqlite"):
        return create_engine(url, connect_args={"timeout": 30}, poolclass=NullPool, hide_parameters=True, **options)
    return create_engine(url, pool_size=1, max_overflow=0, connect_args=connect_args(url), hide_parameters=True,
                         **options)  # fmt: skip


def make_engine(url: str, pool: int | None = None) -> Engine:
    """The application's engine; on PostgreSQL a pool of at most `pool` connections (None: 10 + 10 overflow,
    for a command that opens one or two)."""
    if url.startswith("sqlite"):
        return sqlite_engine(url)
    sizes = {"pool_size": 10, "max_overflow": 10} if pool is None else {"pool_size": pool, "max_overflow": 0}
    engine = create_engine(url, **sizes, connect_args=connect_args(url), hide_parameters=True)

    # Not SQLAlchemy's pool_pre_ping, which costs a round trip on every checkout: a connection in steady use
    # has just shown it is alive; one that sat idle (through a database restart, say) is pinged first and
    # replaced if the ping fails. A disconnect met mid-request still invalidates the whole pool.
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
    (see sqlite._on_begin), on PostgreSQL autocommit. Same pool."""
    options = {ONE_STATEMENT: True} if engine.dialect.name == "sqlite" else {"isolation_level": "AUTOCOMMIT"}
    return engine.execution_options(**options)
