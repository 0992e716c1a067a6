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


def _probe_table():
    from sqlalchemy import JSON, Column, Date, DateTime, Integer, MetaData, String, Table

    return Table(
        "driver_probe",
        MetaData(),
        Column("id", Integer, primary_key=True),
        Column("label", String(20)),
        Column("at", DateTime(timezone=True)),
        Column("day", Date, nullable=True),
        Column("details", JSON),
    )


def test_driver_rows_run_on_the_kept_connection_with_the_values_core_gives(app):
    """A one-statement unit of work's SELECT on the driver: the same tuples as SQLAlchemy's execution (dates,
    times, JSON converted by the columns' own types), and no SQLAlchemy execution at all."""
    from datetime import UTC, date, datetime

    from sqlalchemy import bindparam, event, select
    from sqlalchemy.orm import Session

    from checkout.db import driver_rows, one_statement

    base = make_engine(app.config["DATABASE_URL"])
    table = _probe_table()
    table.create(base)
    try:
        with base.begin() as conn:
            conn.execute(
                table.insert(),
                [
                    {"id": 1, "label": "a", "at": datetime(2026, 11, 29, 12, 0, 1, 250000, tzinfo=UTC),
                     "day": date(2026, 12, 1), "details": {"customer": {"name": "Ana"}, "n": [1, 2]}},
                    {"id": 2, "label": "b", "at": datetime(2026, 11, 30, 0, 0, tzinfo=UTC), "day": None,
                     "details": {}},
                ],
            )  # fmt: skip
        statement = select(table).where(table.c.id >= bindparam("low")).order_by(table.c.id)
        with base.connect() as conn:
            expected = [tuple(row) for row in conn.execute(statement, {"low": 1})]
        assert expected[0][3] == date(2026, 12, 1) and expected[0][4] == {"customer": {"name": "Ana"}, "n": [1, 2]}
        engine = one_statement(base)
        readers = Readers(ping_after=5.0)  # kept alive: its connections close with it
        kept = readers.connection(engine)
        assert kept is not None
        executed: list[str] = []
        event.listen(base, "before_cursor_execute", lambda *args: executed.append(args[2]))
        with Session(bind=kept) as session:
            assert driver_rows(session, statement, {"low": 1}) == expected
            assert driver_rows(session, statement, {"low": 2}) == expected[1:]
        assert executed == []  # the driver's own call, not SQLAlchemy's execution
        with Session(bind=engine) as session:  # no kept connection: through Core, the same rows
            assert driver_rows(session, statement, {"low": 1}) == expected
        assert len(executed) == 1
        kept.close()
    finally:
        table.drop(base)
        base.dispose()


def test_a_driver_error_drops_the_kept_connection_and_the_next_read_takes_another(app):
    from sqlalchemy import bindparam, select
    from sqlalchemy.orm import Session

    from checkout.db import driver_rows, one_statement

    base = make_engine(app.config["DATABASE_URL"])
    table = _probe_table()
    statement = select(table.c.id).where(table.c.id >= bindparam("low"))
    engine = one_statement(base)
    readers = Readers(ping_after=5.0)
    kept = readers.connection(engine)
    with Session(bind=kept) as session, pytest.raises(Exception, match="driver_probe"):
        driver_rows(session, statement, {"low": 0})  # no such table
    assert kept.invalidated
    table.create(base)
    try:
        again = readers.connection(engine)
        assert again is not kept
        with Session(bind=again) as session:
            assert driver_rows(session, statement, {"low": 0}) == []
        again.close()
    finally:
        table.drop(base)
        base.dispose()


def test_driver_rows_refuse_an_orm_select_whose_columns_are_not_its_selected_ones(app):
    """An ORM select compiles without its entities' deferred columns (a merchant's logo): read by position,
    every later value would go through another column's type. Refused, never read wrong."""
    from sqlalchemy import bindparam, select
    from sqlalchemy.orm import Session

    from checkout.db import db, driver_rows, one_statement
    from checkout.merchants.models import Merchant

    with app.app_context():
        engine = one_statement(db.engine)
        statement = select(Merchant).where(Merchant.id >= bindparam("low"))
        readers = Readers(ping_after=5.0)
        kept = readers.connection(engine)
        with Session(bind=kept) as session, pytest.raises(TypeError, match="not ORM entities"):
            driver_rows(session, statement, {"low": 0})
        assert not kept.invalidated  # the connection was not at fault: kept
        kept.close()
