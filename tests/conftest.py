"""Test app on SQLite (default) or PostgreSQL (CHECKOUT_DATABASE_URL), migrated with Alembic."""

from __future__ import annotations

import base64
import logging
import os
from decimal import Decimal

import pytest
from sqlalchemy import create_engine, event, func, inspect, select, text
from sqlalchemy.engine import make_url

from checkout import clock, create_app, money, worker
from checkout.api import requestlog
from checkout.db import Base, db, make_engine, upgrade
from checkout.merchants import service as merchants
from checkout.merchants.service import find_by_app_id
from checkout.notifications import dispatcher
from checkout.notifications.outbox import for_subject
from checkout.payouts import ledger
from checkout.signing import payout_signature

from . import cardscan
from .builders import TIMESTAMP

PUBLIC_URL = "http://checkout.test"


def pytest_configure(config) -> None:
    """Under xdist on PostgreSQL, each worker gets a database of its own (`<name>_gw0`, ...), created when
    missing: the suite empties every table between tests, and notifications on one database reach only its
    own listeners. Set before collection, so modules that read CHECKOUT_DATABASE_URL at import see it too."""
    worker_id = os.environ.get("PYTEST_XDIST_WORKER")
    url = os.environ.get("CHECKOUT_DATABASE_URL", "")
    if not worker_id or not url.startswith("postgresql"):
        return
    base = make_url(url)
    own = base.set(database=f"{base.database}_{worker_id}")
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            found = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": own.database})
            if found.first() is None:
                conn.execute(text(f'CREATE DATABASE "{own.database}"'))
    finally:
        engine.dispose()
    os.environ["CHECKOUT_DATABASE_URL"] = own.render_as_string(hide_password=False)


def _reset_schema(url: str) -> None:

    engine = make_engine(url)
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(text("DROP SCHEMA public CASCADE"))
            conn.execute(text("CREATE SCHEMA public"))
        else:
            for table in inspect(conn).get_table_names():
                conn.execute(text(f'DROP TABLE IF EXISTS "{table}"'))
    engine.dispose()


@pytest.fixture(scope="session")
def database_url(tmp_path_factory) -> str:
    url = os.environ.get("CHECKOUT_DATABASE_URL")
    if not url:
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'checkout.sqlite3'}"
    _reset_schema(url)
    upgrade(url)
    return url


@pytest.fixture(scope="session")
def app(database_url, tmp_path_factory):
    app = create_app(
        {
            "DATABASE_URL": database_url,
            "SECRET_KEY": "test-secret-key",
            "PUBLIC_URL": PUBLIC_URL,
            "SANDBOX": True,
            # The test receivers listen on 127.0.0.1, as a developer's own does.
            "PRIVATE_TARGETS": "allow",
            "TESTING": True,
        }
    )
    app.instance_path = str(tmp_path_factory.mktemp("instance"))
    _BOUND.update(vars(db))
    return app


# The database extension as the session's app bound it. The extension is one per process (`checkout.db.db`):
# a test that creates another app (a command run in-process, `serve` on a SQLite file of its own) binds it
# to that app's engine, and every later test of the process would run there, on SQLite under a PostgreSQL run.
_BOUND: dict = {}


@pytest.fixture(autouse=True)
def _clean(app, caplog, request):
    """Every test starts on the session app's database, with empty tables and the sandbox clock at real time
    (and no request-log row of an earlier test still on its way to the table), and ends with no card data in
    a table or a log line. A test module's NOT_CARD_DATA names numbers it may send in fields that are not a
    card's."""
    if db.engine is not _BOUND["engine"]:
        stray = db.engine
        vars(db).update(_BOUND)
        if stray is not None:
            stray.dispose()
    caplog.set_level(logging.DEBUG, logger="checkout")
    clock.reset()
    requestlog.of(app).flush()
    with app.app_context(), db.engine.begin() as conn:
        for table in reversed(Base.metadata.sorted_tables):
            conn.execute(table.delete())
    yield
    clock.reset()
    # Whatever the test did, no card number and no security code is left in any table, and no log line holds
    # one, nor a merchant's key (docs/security.md).
    requestlog.of(app).flush()
    with app.app_context():
        kept = cardscan.card_data(db.engine, ignore=getattr(request.module, "NOT_CARD_DATA", frozenset()))
        secrets = cardscan.merchant_secrets(db.engine) | {app.config["SECRET_KEY"]}
    assert not kept, f"card data kept in the database: {kept}"
    logged = cardscan.leaks(caplog.text, secrets)
    assert not logged, f"logged: {logged}"


@pytest.fixture(autouse=True)
def _fresh_sender(app, monkeypatch):
    """Each test its own sending threads (nothing in flight from another test), and rounds that wait
    for their sends (a test that runs one round then looks expects them done; real rounds wait 1 s)."""
    worker.close(app)
    monkeypatch.setattr(dispatcher, "ROUND_WAIT", 8.0)
    yield
    worker.close(app)


@pytest.fixture
def work(app):
    """One round of the worker: what is due now is done (card charges, debits, expiries, deliveries)."""
    return lambda: worker.run_once(app)


@pytest.fixture
def session(app):
    with app.app_context():
        yield db.session


@pytest.fixture
def client(app):
    return app.test_client()


def make_merchant(app, name: str = "Loja Exemplo", **fields) -> dict:
    with app.app_context():
        merchant = merchants.create(db.session, name=name, **{"return_hosts": ["shop.example"], **fields})
        db.session.commit()
        return merchants.credentials(merchant)


class Api:
    """A merchant's view of the payin gateway: Basic auth and app_id/timestamp filled in."""

    def __init__(self, client, credentials: dict):
        self.client, self.credentials = client, credentials
        self.app_id = credentials["app_id"]

    @property
    def auth(self) -> dict:
        raw = f"{self.credentials['app_id']}:{self.credentials['security_key']}".encode()
        return {"Authorization": "Basic " + base64.b64encode(raw).decode()}

    def post(self, path: str, body: dict | None = None, *, expect: int | None = None, **kwargs):
        payload = None if body is None else {"app_id": self.app_id, "timestamp": TIMESTAMP, **body}
        response = self.client.post(path, json=payload, headers=self.auth, **kwargs)
        if expect is not None:
            assert response.status_code == expect, response.get_json()
        return response.get_json()

    def get(self, path: str):
        return self.client.get(path, headers=self.auth).get_json()


@pytest.fixture
def merchant(app) -> dict:
    return make_merchant(app)


@pytest.fixture
def api(client, merchant) -> Api:
    return Api(client, merchant)


@pytest.fixture
def other_api(app, client) -> Api:
    return Api(client, make_merchant(app, "Outra Loja"))


@pytest.fixture
def sql_statements(app):
    """The statements SQLAlchemy executes on the app's engine while the test runs (a read on the driver,
    `driver_rows`, sends none of them through it)."""
    executed: list[str] = []

    def seen(*args) -> None:
        executed.append(args[2])

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", seen)
    yield executed
    event.remove(engine, "before_cursor_execute", seen)


@pytest.fixture
def row_counts(app):
    """Counts of every table, to show that a rejected request wrote nothing (but its line in the request
    log, which every authenticated request writes)."""

    def counts() -> dict[str, int]:
        with app.app_context():
            return {
                t.name: db.session.scalar(select(func.count()).select_from(t))
                for t in Base.metadata.sorted_tables
                if t.name != "api_requests"
            }

    return counts


@pytest.fixture
def outbox(app):
    """The messages queued for a trade, vault or refund, oldest first, as (kind, target, payload)."""

    def messages(subject_id: str) -> list[tuple[str, str, dict]]:
        with app.app_context():
            return [(m.kind, m.target, m.payload) for m in for_subject(db.session, subject_id)]

    return messages


class PayoutApi:
    """A merchant's view of the payout platform: AppId header and the SHA-256 body signature."""

    def __init__(self, client, credentials: dict):
        self.client, self.credentials = client, credentials

    def headers(self, body: dict, header: str = "AppId") -> dict:

        return {
            header: self.credentials["app_id"],
            "Authorization": payout_signature(body, self.credentials["app_key"]),
        }

    def post(self, path: str, body: dict, *, expect: int | None = None, header: str = "AppId"):
        response = self.client.post(f"/api{path}", json=body, headers=self.headers(body, header))
        if expect is not None:
            assert response.status_code == expect, response.get_json()
        return response.get_json()


@pytest.fixture
def payout_api(client, merchant) -> PayoutApi:
    return PayoutApi(client, merchant)


@pytest.fixture
def fund(app):
    """Top up a merchant's sandbox balance, as `checkout merchants fund` does."""

    def top_up(credentials: dict, currency: str, amount: str) -> None:
        with app.app_context():
            merchant = find_by_app_id(db.session, credentials["app_id"])
            ledger.fund(db.session, merchant, currency, money.to_minor(Decimal(amount), currency))
            db.session.commit()

    return top_up


@pytest.fixture
def other_payout_api(app, client) -> PayoutApi:
    return PayoutApi(client, make_merchant(app, "Outra Loja"))
