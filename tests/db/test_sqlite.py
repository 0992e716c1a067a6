"""SQLite's writer turns: writers queue, and every transaction, however it ends, hands the turn on."""

import threading

import pytest
import sqlalchemy.exc

from checkout.db import make_engine


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
