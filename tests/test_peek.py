"""One-row reads on a connection each thread keeps: fresh values, and a connection lost is replaced."""

import threading

import pytest
from sqlalchemy import create_engine

from checkout import peek
from checkout.db import make_engine


def test_a_value_committed_elsewhere_is_read_at_once(app):
    engine = make_engine(app.config["DATABASE_URL"])
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE peek_probe (v INTEGER)")
        conn.exec_driver_sql("INSERT INTO peek_probe VALUES (1)")
    try:
        assert peek.one(engine, "SELECT v FROM peek_probe WHERE v >= ?", (0,)) == (1,)
        with engine.begin() as conn:  # another connection, as another process would
            conn.exec_driver_sql("UPDATE peek_probe SET v = 2")
        assert peek.one(engine, "SELECT v FROM peek_probe WHERE v >= ?", (0,)) == (2,)
        seen = []
        thread = threading.Thread(target=lambda: seen.append(peek.one(engine, "SELECT v FROM peek_probe", ())))
        thread.start()
        thread.join()
        assert seen == [(2,)]
    finally:
        with engine.begin() as conn:
            conn.exec_driver_sql("DROP TABLE peek_probe")
        engine.dispose()


def test_a_connection_the_server_ended_is_replaced(app):
    if app.config["DATABASE_URL"].startswith("sqlite"):
        pytest.skip("a server that ends connections (PostgreSQL)")
    engine = make_engine(app.config["DATABASE_URL"])
    with engine.connect() as first, engine.connect() as second:  # two in the pool, used just now
        pids = [c.exec_driver_sql("SELECT pg_backend_pid()").scalar() for c in (first, second)]
    [kept] = peek.one(engine, "SELECT pg_backend_pid()", ())  # takes one of them for itself
    [pooled] = [pid for pid in pids if pid != kept]
    with create_engine(app.config["DATABASE_URL"]).connect() as killer:  # as a restart ends them all
        killer.exec_driver_sql(f"SELECT pg_terminate_backend({int(kept)}), pg_terminate_backend({int(pooled)})")
        killer.commit()
    [again] = peek.one(engine, "SELECT pg_backend_pid()", ())
    assert again not in (kept, pooled)
    engine.dispose()
