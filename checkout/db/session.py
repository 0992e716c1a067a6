"""The application's database: its engine, the session of each application context, and the declarative Base."""

from __future__ import annotations

from flask import Flask, g
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

from . import budget as budgets
from .changes import listen
from .engines import PING_AFTER_IDLE, make_engine, name_process, one_statement
from .kept import Readers, keep_at_most
from .sqlite import READ_ONLY


class Base(DeclarativeBase):
    pass


class Database:
    """Flask extension: one engine per app, one session per application context."""

    def __init__(self, app: Flask | None = None):
        self.engine: Engine | None = None
        self.read_only_engine: Engine | None = None
        self.one_statement_engine: Engine | None = None
        self.sessionmaker: sessionmaker | None = None
        self.readers = Readers(ping_after=PING_AFTER_IDLE)
        self.budget: budgets.Budget | None = None  # None: SQLite (a file: no server connections to count)
        if app is not None:
            self.init_app(app)

    def init_app(self, app: Flask) -> None:
        url = app.config["DATABASE_URL"]
        name_process(str(app.config["DATABASE_APPLICATION_NAME"]), pgbouncer=bool(app.config["DATABASE_PGBOUNCER"]))
        self.budget = None
        if not url.startswith("sqlite"):
            self.budget = budgets.split(
                budgets.parse(app.config["DATABASE_CONNECTIONS"]),
                threads=int(app.config["DATABASE_THREADS"]),
                worker=bool(app.config["DATABASE_WORKER"]),
                sandbox=bool(app.config["SANDBOX"]),
                # LISTEN needs a session of its own on the server, which transaction pooling does not keep.
                listen=int(app.config["DATABASE_THREADS"]) > 0 and not app.config["DATABASE_PGBOUNCER"],
            )
        self.engine = make_engine(url, self.budget.pool if self.budget else None)
        if self.budget is not None:
            keep_at_most(self.engine, self.budget.readers)
            if self.budget.changes:
                listen(self.engine)
        self.read_only_engine = self.engine.execution_options(**{READ_ONLY: True})  # same pool
        # One statement is its own consistent snapshot: on PostgreSQL it needs no transaction around it, so
        # its unit of work pays no BEGIN and ROLLBACK round trips.
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


# The Flask-extension way: one object every module names, bound to its app by init_app (create_app).
db = Database()
