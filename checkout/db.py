"""Database engine and per-request session, declarative Base, and Alembic migration entry points."""

from __future__ import annotations

from pathlib import Path

from flask import Flask, g
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

MIGRATIONS = Path(__file__).with_name("migrations")
READ_ONLY = "checkout_read_only"  # execution option: this unit of work never writes


class Base(DeclarativeBase):
    pass


def _sqlite_engine(url: str) -> Engine:
    engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

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
        read_only = connection.get_execution_options().get(READ_ONLY, False)
        connection.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")

    return engine


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        return _sqlite_engine(url)
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=10)


class Database:
    """Flask extension: one engine per app, one session per application context."""

    def __init__(self, app: Flask | None = None):
        self.engine: Engine | None = None
        self.read_only_engine: Engine | None = None
        self.one_statement_engine: Engine | None = None
        self.sessionmaker: sessionmaker | None = None
        if app is not None:
            self.init_app(app)

    def init_app(self, app: Flask) -> None:
        self.engine = make_engine(app.config["DATABASE_URL"])
        self.read_only_engine = self.engine.execution_options(**{READ_ONLY: True})  # same pool
        # One statement is its own consistent snapshot: on PostgreSQL it needs no transaction around it,
        # which saves the BEGIN and ROLLBACK round trips (about 0.7 ms of a 1.8 ms query here).
        self.one_statement_engine = (
            self.read_only_engine
            if self.is_sqlite
            else self.read_only_engine.execution_options(isolation_level="AUTOCOMMIT")
        )
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
            assert self.sessionmaker is not None, "init_app first"
            g.db_session = self.sessionmaker(bind=self.one_statement_engine if one_statement else self.read_only_engine)

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
