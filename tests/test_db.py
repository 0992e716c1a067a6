"""Units of work: a read-only one takes no write lock on SQLite; a one-statement read needs no transaction."""

import importlib
import threading

import pytest
import sqlalchemy.exc
from sqlalchemy import create_engine, text

from checkout.db import db, make_engine
from tests import builders

checkout_db = importlib.import_module("checkout.db")  # the module (checkout.db is also the name of its Database)


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


def test_sqlite_writers_take_turns_and_each_turn_ends(app, monkeypatch):
    """Writers of one process queue for SQLite's write lock instead of polling it; every transaction, ended
    by a commit, a rollback or an error, hands it on (a counter read and written back by eight threads
    loses no increment, and nothing waits for the 30 s busy timeout)."""
    if not app.config["DATABASE_URL"].startswith("sqlite"):
        pytest.skip("SQLite's database-wide write lock")
    engine = make_engine(app.config["DATABASE_URL"])
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE IF NOT EXISTS turn_counter (n INTEGER)")
        conn.exec_driver_sql("DELETE FROM turn_counter")
        conn.exec_driver_sql("INSERT INTO turn_counter VALUES (0)")
    failures = []

    def work(number: int) -> None:
        try:
            for round_ in range(25):
                with engine.connect() as conn:
                    conn.exec_driver_sql("SELECT 1")  # begins the write transaction
                    n = conn.exec_driver_sql("SELECT n FROM turn_counter").scalar()
                    if round_ % 5 == 4:
                        conn.rollback()  # a unit of work that gives up hands the lock on too
                        continue
                    conn.exec_driver_sql("UPDATE turn_counter SET n = ?", (n + 1,))
                    if round_ % 7 == 6:
                        with pytest.raises(sqlalchemy.exc.OperationalError):
                            conn.exec_driver_sql("SELECT * FROM no_such_table")
                        conn.rollback()
                        continue
                    conn.commit()
        except Exception as error:  # noqa: BLE001 (reported below)
            failures.append((number, error))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    with engine.connect() as conn:
        total = conn.exec_driver_sql("SELECT n FROM turn_counter").scalar()
        conn.exec_driver_sql("DROP TABLE turn_counter")
        conn.commit()
    engine.dispose()
    # Per thread: 25 rounds, 5 rolled back (4, 9, 14, 19, 24) and 3 failed after their update (6, 13, 20).
    assert (failures, total) == ([], 8 * (25 - 5 - 3))


def test_an_idle_postgresql_connection_that_died_is_replaced_before_use(app, monkeypatch):
    if app.config["DATABASE_URL"].startswith("sqlite"):
        pytest.skip("PostgreSQL's pooled connections")
    engine = make_engine(app.config["DATABASE_URL"])
    monkeypatch.setattr(checkout_db, "PING_AFTER_IDLE", 0.0)
    with engine.connect() as conn:
        pid = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar()
    with create_engine(app.config["DATABASE_URL"]).connect() as killer:  # as a restart would, meanwhile
        killer.exec_driver_sql(f"SELECT pg_terminate_backend({int(pid)})")
        killer.commit()
    with engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT pg_backend_pid()").scalar() != pid
    engine.dispose()


def a_writer_on_another_thread_gets_in(engine) -> bool:
    """Whether a write transaction on a new thread (the turn is reentrant for the thread that held it)
    begins and commits within 10 s; the engine is disposed after."""
    written = []

    def write() -> None:
        with engine.begin() as conn:
            written.append(conn.exec_driver_sql("SELECT 1").scalar())

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    writer.join(timeout=10)
    engine.dispose()
    return written == [1]


def test_a_connection_invalidated_mid_write_hands_its_turn_on(app):
    if not app.config["DATABASE_URL"].startswith("sqlite"):
        pytest.skip("SQLite's writers' turns")
    engine = make_engine(app.config["DATABASE_URL"])
    broken = engine.connect()
    broken.exec_driver_sql("SELECT 1")  # its write transaction holds the turn
    broken.invalidate()  # as when its driver connection breaks: closed, never committed
    broken.rollback()
    broken.close()
    assert a_writer_on_another_thread_gets_in(engine)


def test_a_turn_handed_back_from_another_thread_lets_the_next_writer_in(app):
    """A session closed by the garbage collector ends its transaction on whatever thread runs it."""
    if not app.config["DATABASE_URL"].startswith("sqlite"):
        pytest.skip("SQLite's writers' turns")
    engine = make_engine(app.config["DATABASE_URL"])
    holder = engine.connect()
    holder.exec_driver_sql("SELECT 1")  # this thread's turn
    closer = threading.Thread(target=holder.close)  # rolls back and hands the turn back, elsewhere
    closer.start()
    closer.join(timeout=10)
    assert a_writer_on_another_thread_gets_in(engine)


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
