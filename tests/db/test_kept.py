"""One-row reads on a connection each thread keeps: fresh values, and a connection lost is replaced."""

import threading

import pytest
from sqlalchemy import create_engine

from checkout.db import Readers, make_engine, peek


def test_a_value_committed_elsewhere_is_read_at_once(app):
    engine = make_engine(app.config["DATABASE_URL"])
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE peek_probe (v INTEGER)")
        conn.exec_driver_sql("INSERT INTO peek_probe VALUES (1)")
    try:
        assert peek(engine, "SELECT v FROM peek_probe WHERE v >= ?", (0,)) == (1,)
        with engine.begin() as conn:  # another connection, as another process would
            conn.exec_driver_sql("UPDATE peek_probe SET v = 2")
        assert peek(engine, "SELECT v FROM peek_probe WHERE v >= ?", (0,)) == (2,)
        seen = []
        thread = threading.Thread(target=lambda: seen.append(peek(engine, "SELECT v FROM peek_probe", ())))
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
    [kept] = peek(engine, "SELECT pg_backend_pid()", ())  # takes one of them for itself
    [pooled] = [pid for pid in pids if pid != kept]
    with create_engine(app.config["DATABASE_URL"]).connect() as killer:  # as a restart ends them all
        killer.exec_driver_sql(f"SELECT pg_terminate_backend({int(kept)}), pg_terminate_backend({int(pooled)})")
        killer.commit()
    [again] = peek(engine, "SELECT pg_backend_pid()", ())
    assert again not in (kept, pooled)
    engine.dispose()


def test_a_thread_keeps_one_reader_connection_per_engine_and_replaces_a_broken_one(app):
    from checkout.db import one_statement

    url = app.config["DATABASE_URL"]
    first_engine = make_engine(url)
    engine = one_statement(first_engine)
    readers = Readers(ping_after=5.0)
    kept = readers.connection(engine)
    assert readers.connection(engine) is kept  # no checkout per request
    assert kept.exec_driver_sql("SELECT 1").scalar() == 1
    others = []
    thread = threading.Thread(target=lambda: others.append(readers.connection(engine)))
    thread.start()
    thread.join()
    assert others[0] is not kept  # each thread its own
    kept.invalidate()  # as a statement that met a lost server leaves it
    again = readers.connection(engine)
    assert again is not kept and again.exec_driver_sql("SELECT 2").scalar() == 2
    second_engine = one_statement(make_engine(url))
    newer = readers.connection(second_engine)  # a new app's engine: the thread's old one is let go
    assert newer is not again and newer.engine is second_engine
    assert again.closed
    assert (
        Readers(ping_after=5.0).connection(make_engine("sqlite://")) is None
    )  # in-memory: only its pool's has the data
    first_engine.dispose()
    second_engine.dispose()


def test_a_kept_reader_the_server_ended_while_idle_is_replaced_before_use(app):
    """As the pool pings a connection that sat idle: a restart or an idle timeout ends the thread's kept
    reader, and the next request must read on a new one, not fail."""
    if app.config["DATABASE_URL"].startswith("sqlite"):
        pytest.skip("a server that ends connections (PostgreSQL)")
    engine = make_engine(app.config["DATABASE_URL"]).execution_options(isolation_level="AUTOCOMMIT")
    readers = Readers(ping_after=0)  # every use counts as after an idle spell
    kept = readers.connection(engine)
    backend = kept.exec_driver_sql("SELECT pg_backend_pid()").scalar()
    kept.rollback()
    with create_engine(app.config["DATABASE_URL"]).connect() as killer:
        killer.exec_driver_sql(f"SELECT pg_terminate_backend({int(backend)})")
        killer.commit()
    again = readers.connection(engine)
    assert again is not kept
    assert again.exec_driver_sql("SELECT pg_backend_pid()").scalar() != backend
    assert Readers(ping_after=3600).connection(engine) is not None
    engine.dispose()
