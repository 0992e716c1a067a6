"""The engines: an idle PostgreSQL connection is pinged before use; errors never show their parameters."""

import pytest
import sqlalchemy.exc
from sqlalchemy import create_engine, text

from checkout.db import engines, make_engine


def test_an_idle_postgresql_connection_that_died_is_replaced_before_use(app, monkeypatch):
    if app.config["DATABASE_URL"].startswith("sqlite"):
        pytest.skip("PostgreSQL's pooled connections")
    engine = make_engine(app.config["DATABASE_URL"])
    monkeypatch.setattr(engines, "PING_AFTER_IDLE", 0.0)
    with engine.connect() as conn:
        pid = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar()
    with create_engine(app.config["DATABASE_URL"]).connect() as killer:  # as a restart would, meanwhile
        killer.exec_driver_sql(f"SELECT pg_terminate_backend({int(pid)})")
        killer.commit()
    with engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT pg_backend_pid()").scalar() != pid
    engine.dispose()


def test_a_database_error_never_shows_the_values_it_was_sent(app):
    """A failing statement's message names the SQL, never its parameters: a security key, an app key or a
    customer's document must not reach a log line through a traceback."""
    secret = "sk_do_not_log_0123456789abcdef"
    engine = make_engine(app.config["DATABASE_URL"])
    try:
        with pytest.raises(sqlalchemy.exc.DBAPIError) as raised, engine.connect() as conn:
            conn.execute(text("SELECT * FROM no_such_table WHERE key = :key"), {"key": secret})
    finally:
        engine.dispose()
    assert secret not in str(raised.value) and "no_such_table" in str(raised.value)
    assert "hidden" in str(raised.value)
