"""Units of work: a read-only one takes no write lock on SQLite; a one-statement read needs no transaction."""

import pytest
from sqlalchemy import create_engine

from checkout.db import db
from tests import builders


def test_a_read_only_request_waits_for_no_writer_on_sqlite(app, api, payout_api, merchant):
    """A read-only operation begins deferred: it answers while another connection holds the write lock."""
    if not app.config["DATABASE_URL"].startswith("sqlite"):
        pytest.skip("SQLite's database-wide write lock")
    trade_no = api.post("/trade/pay", builders.direct("PIX"), expect=200)["trade_no"]
    writer = create_engine(app.config["DATABASE_URL"], connect_args={"timeout": 0.2})
    with writer.connect() as conn:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
        assert api.post("/trade/query", {"trade_no": trade_no}, expect=200)["trade_status"] == "PROCESSING"
        conn.exec_driver_sql("ROLLBACK")
    writer.dispose()


def test_a_one_statement_read_runs_outside_a_transaction_on_postgresql(app):
    if app.config["DATABASE_URL"].startswith("sqlite"):
        pytest.skip("PostgreSQL's BEGIN and ROLLBACK round trips")
    with app.test_request_context():
        db.read_only(one_statement=True)
        assert db.session.connection().connection.dbapi_connection.autocommit is True
    with app.test_request_context():  # the pooled connection went back transactional
        db.read_only()
        assert db.session.connection().connection.dbapi_connection.autocommit is False
    with app.test_request_context():
        assert db.session.connection().connection.dbapi_connection.autocommit is False
