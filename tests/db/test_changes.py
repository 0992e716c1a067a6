"""Changes heard from PostgreSQL: a merchant's row announced when it changes, what a stamp vouches for, a
listener that lost its connection (or stopped hearing its channel) vouching for nothing read before it listened
again, and what a forked child keeps of its parent's listener."""

from __future__ import annotations

import os
import select
import time

import psycopg
import pytest
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from checkout.db import Changes, db, heard_on
from checkout.db import changes as changes_module
from checkout.merchants import service

from .helpers import heard

URL = os.environ.get("CHECKOUT_DATABASE_URL", "")
DSN = URL.replace("+psycopg", "")  # the driver's own
postgresql = pytest.mark.skipif(not URL.startswith("postgresql"), reason="PostgreSQL's LISTEN/NOTIFY")


@pytest.fixture
def changes(app):
    with app.app_context():
        found = heard_on(db.engine)
    assert found is not None and found.listening(10)
    # What earlier tests changed (their merchants deleted by the cleanup) heard and noted, none left unread.
    deadline = time.monotonic() + 5
    while not found.unchanged("merchants:0", found.stamp()) and time.monotonic() < deadline:
        time.sleep(0.001)
    return found


@pytest.fixture
def other():
    """Another process's connection: what it commits is announced, never told to this process's cache."""
    engine = create_engine(URL, poolclass=NullPool)
    with engine.connect() as connection:
        yield connection
    engine.dispose()


@pytest.fixture
def counted(app, monkeypatch):
    """Inside the app: what the key check reads, the keys alone (their merchant's id) and every statement."""
    service.forget()
    reads, statements = [], []
    stored_keys = service._stored_keys
    monkeypatch.setattr(service, "_stored_keys", lambda *args: reads.append(args[1]) or stored_keys(*args))

    def count(*args):
        statements.append(args[2])

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", count)
        try:
            yield reads, statements
        finally:
            event.remove(db.engine, "before_cursor_execute", count)
            service.forget()


def _id(app, app_id: str) -> int:
    with app.app_context():
        return service.find_by_app_id(db.session, app_id).id


@postgresql
def test_a_row_changed_elsewhere_is_heard_and_the_stamp_no_longer_vouches_for_it(app, merchant, other_api,
                                                                              changes, other):  # fmt: skip
    mine, theirs = _id(app, merchant["app_id"]), _id(app, other_api.app_id)
    stamp = changes.stamp()
    assert changes.unchanged(f"merchants:{mine}", stamp) and changes.unchanged(f"merchants:{theirs}", stamp)
    other.execute(text("UPDATE merchants SET name = 'Elsewhere' WHERE id = :id"), {"id": mine})
    assert changes.unchanged(f"merchants:{mine}", stamp)  # not committed: nothing announced
    other.commit()
    assert heard(changes, f"merchants:{mine}", stamp)
    assert changes.unchanged(f"merchants:{theirs}", stamp)  # another merchant's copy still holds
    # A stamp taken after the change was heard vouches for a read made after it.
    assert changes.unchanged(f"merchants:{mine}", changes.stamp())
    assert not changes.unchanged(f"merchants:{mine}", None)


@postgresql
def test_a_deleted_row_and_an_emptied_table_are_heard(app, merchant, other_api, changes, other):
    mine, theirs = _id(app, merchant["app_id"]), _id(app, other_api.app_id)
    stamp = changes.stamp()
    other.execute(text("DELETE FROM merchants WHERE id = :id"), {"id": theirs})
    other.commit()
    assert heard(changes, f"merchants:{theirs}", stamp)
    stamp = changes.stamp()
    other.execute(text("TRUNCATE merchants CASCADE"))
    other.commit()
    assert heard(changes, f"merchants:{mine}", stamp)  # every row of the table: `merchants:*`


@postgresql
def test_a_listener_that_lost_its_connection_vouches_for_nothing_read_before_it_listens_again(app, merchant,
                                                                                          changes, other):  # fmt: skip
    mine = _id(app, merchant["app_id"])
    stamp = changes.stamp()
    assert changes.unchanged(f"merchants:{mine}", stamp)
    # The server ends the listening session (a restart, an idle timeout, an operator).
    ended = other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": changes.backend_pid}).scalar_one()
    other.commit()
    assert ended is True
    assert heard(changes, f"merchants:{mine}", stamp)  # meanwhile in doubt: read every time
    # A change made while nobody listened is never announced again: the new epoch is why it is not missed.
    assert changes.listening(10)
    assert not changes.unchanged(f"merchants:{mine}", stamp)
    assert changes.unchanged(f"merchants:{mine}", changes.stamp())


@postgresql
def test_a_notification_on_the_socket_not_yet_taken_is_a_doubt(app, merchant, changes, monkeypatch):
    mine = _id(app, merchant["app_id"])
    stamp = changes.stamp()
    monkeypatch.setattr(changes_module, "_readable", lambda fd: True)
    assert not changes.unchanged(f"merchants:{mine}", stamp)


@postgresql
def test_the_key_check_reads_nothing_while_no_change_is_heard_and_the_whole_row_after_one(counted, merchant,
                                                                                   changes, other):  # fmt: skip
    reads, statements = counted
    mine = service.for_request(db.session, merchant["app_id"]).id
    db.session.rollback()
    db.session.expunge_all()
    seen = len(statements)
    for _ in range(3):
        kept = service.for_request(db.session, merchant["app_id"], attach=False)
    assert (reads, statements[seen:], kept.security_key) == ([], [], merchant["security_key"])
    # Another process renames the merchant: heard, the next request reads the whole row again.
    stamp = (service._cache[merchant["app_id"]][2] or (None, None))[1]
    other.execute(text("UPDATE merchants SET name = 'Renamed' WHERE id = :id"), {"id": mine})
    other.commit()
    assert heard(changes, f"merchants:{mine}", stamp)
    renamed = service.for_request(db.session, merchant["app_id"], attach=False)
    assert (renamed.name, renamed.security_key, reads) == ("Renamed", merchant["security_key"], [])
    db.session.rollback()
    # ...and rotates its keys.
    stamp = (service._cache[merchant["app_id"]][2] or (None, None))[1]
    other.execute(text("UPDATE merchants SET security_key = 'sk_rotated' WHERE id = :id"), {"id": mine})
    other.commit()
    assert heard(changes, f"merchants:{mine}", stamp)
    seen = len(statements)
    rotated = service.for_request(db.session, merchant["app_id"], attach=False)
    assert (rotated.security_key, reads, len(statements) - seen) == ("sk_rotated", [], 1)
    db.session.rollback()
    seen = len(statements)
    assert service.for_request(db.session, merchant["app_id"], attach=False).security_key == "sk_rotated"
    assert (reads, statements[seen:]) == ([], [])  # the copy read again came with its own stamp


@postgresql
def test_a_copy_read_before_the_process_listened_is_read_again_whole_once_then_is_heard(counted, merchant,
                                                                                     changes):  # fmt: skip
    reads, statements = counted
    service.for_request(db.session, merchant["app_id"])
    db.session.rollback()
    read_at, copy, _vouched = service._cache[merchant["app_id"]]
    service._cache[merchant["app_id"]] = (read_at, copy, None)  # as read while not listening
    seen = len(statements)
    again = service.for_request(db.session, merchant["app_id"], attach=False)
    # Its settings may have changed unheard before the process listened: the whole row, not only keys.
    assert (again is copy, reads, len(statements) - seen) == (False, [], 1)
    assert "FROM merchants" in statements[seen]
    db.session.rollback()
    seen = len(statements)
    for _ in range(3):
        assert service.for_request(db.session, merchant["app_id"], attach=False).id == copy.id
    assert (reads, statements[seen:]) == ([], [])  # read again with a stamp: then trusted


@postgresql
def test_a_ping_comes_back_to_a_session_that_hears_the_channel_and_not_to_one_that_stopped(monkeypatch):
    monkeypatch.setattr(changes_module, "PING_WITHIN", 0.3)
    pinging = Changes(create_engine(URL))
    with psycopg.connect(DSN, autocommit=True) as connection:
        connection.execute(f"LISTEN {changes_module.CHANNEL}")
        poller = select.poll()
        poller.register(connection.fileno(), select.POLLIN)
        pinging._ping(connection, poller)
        assert (pinging._awaited, pinging._generation, pinging._named) == (None, 0, {})  # a ping names no row
        with psycopg.connect(DSN, autocommit=True) as other:
            shown = other.execute("SELECT query FROM pg_stat_activity WHERE pid = %s",
                                  (connection.info.backend_pid,)).fetchone()  # fmt: skip
        assert shown == (f"LISTEN {changes_module.CHANNEL}",)  # what it is for, not its last ping
        # A session that no longer hears the channel (a pooler moved it, say) looks healthy but is deaf.
        connection.execute("UNLISTEN *")
        started = time.monotonic()
        with pytest.raises(ConnectionError, match=r"did not answer within 0\.3 s"):
            pinging._ping(connection, poller)
        assert time.monotonic() - started < 5


@postgresql
def test_a_server_that_stops_answering_is_given_up_on_within_the_pings_time(monkeypatch):
    monkeypatch.setattr(changes_module, "PING_WITHIN", 0.3)
    with psycopg.connect(DSN, autocommit=True) as connection:
        poller = select.poll()
        poller.register(connection.fileno(), select.POLLIN)
        started = time.monotonic()
        with pytest.raises(ConnectionError, match=r"did not answer within 0\.3 s"):
            Changes(create_engine(URL))._run(connection, poller, "SELECT pg_sleep(3)")  # the socket alive, mute
        assert time.monotonic() - started < 2
        connection.cancel()
        while connection.pgconn.get_result() is not None:  # the cancelled statement's answer, then idle
            pass


@pytest.fixture
def quiet():
    """A socket with nothing to read, for a listener made to look like one of this process (no server)."""
    read_end, write_end = os.pipe()
    yield read_end
    os.close(read_end)
    os.close(write_end)


def _listening(changes: Changes, fd: int) -> Changes:
    changes._pid, changes._fd, changes.backend_pid = os.getpid(), fd, 4242
    changes._thread = object()  # type: ignore[assignment] (started: stamp() starts nothing)
    return changes


@pytest.fixture
def listener(quiet):
    """A listener of this process as far as readers can tell, on the quiet socket, with no server."""
    return _listening(Changes(create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")), quiet)


def test_names_are_forgotten_only_after_the_epoch_passed_every_stamp_they_could_clear(listener, monkeypatch):
    changes = listener
    monkeypatch.setattr(changes_module, "REMEMBERED", 2)
    changes._heard("merchants:1")
    stamp = changes.stamp()
    changes._heard("merchants:2")
    assert (changes.unchanged("merchants:1", stamp), changes.unchanged("merchants:2", stamp)) == (True, False)

    class Interleaved(dict):
        """The listener thread taking its turn between the reader's first look and the rest."""

        def get(self, key, default=None):
            if len(self) == 2:
                changes._heard("merchants:3")  # the table remembered is full: every name forgotten
            return super().get(key, default)

    changes._named = Interleaved(changes._named)
    assert not changes.unchanged("merchants:2", stamp)  # forgotten, and the stamp older than the new epoch
    assert changes.unchanged("merchants:2", changes.stamp())


def test_a_session_ended_vouches_for_nothing_even_on_a_socket_number_the_next_one_reuses(listener, quiet):
    changes = listener
    stamp = changes.stamp()
    assert changes.unchanged("merchants:1", stamp)
    changes._end()
    assert (changes.stamp(), changes.backend_pid) == (None, None)
    # A reader that took the socket's number before the end polls it after: the next session's by then, not
    # yet listening (no epoch of its own yet), nothing unread.
    changes._fd = quiet
    assert not changes.unchanged("merchants:1", stamp)


class _Failing:
    """A connection whose socket says something came, and whose reading then fails (the server gone)."""

    class pgconn:
        @staticmethod
        def consume_input():
            raise OSError("connection reset")


class _Ready:
    def poll(self, timeout):
        return [(0, select.POLLIN)]


def test_a_session_whose_reading_fails_is_no_longer_trusted_before_its_doubt_falls(listener, quiet):
    changes = listener
    stamp = changes.stamp()
    with pytest.raises(OSError, match="connection reset"):
        changes._serve(_Failing(), _Ready())
    changes._fd = quiet  # as a reader that looked at the socket before the end still holds it
    assert (changes._draining, changes.unchanged("merchants:1", stamp)) == (False, False)


def test_another_listeners_ping_names_no_row_and_this_ones_is_awaited(listener):
    changes = listener
    stamp = changes.stamp()
    changes._awaited = "ping:7:3"
    changes._heard("ping:8:3")
    assert (changes._awaited, changes.stamp(), changes._named) == ("ping:7:3", stamp, {})
    changes._heard("ping:7:3")
    assert (changes._awaited, changes.stamp(), changes._named) == (None, stamp, {})


def test_a_forked_child_keeps_nothing_of_its_parents_listener(quiet):
    engine = create_engine("postgresql+psycopg://nobody@127.0.0.1:1/forked")
    changes = changes_module.listen(engine)
    try:
        _listening(changes, quiet)
        assert changes.stamp() == 0 and changes.unchanged("merchants:1", 0)
        child = os.fork()
        if child == 0:  # pragma: no cover (the child's exit code is the assertion)
            kept = (changes._pid, changes._fd, changes.backend_pid, changes._thread, changes._draining)
            os._exit(0 if kept == (-1, -1, None, None, False) else 1)
        _pid, status = os.waitpid(child, 0)
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        changes_module._by_url.pop(engine.url.render_as_string(hide_password=False), None)


def test_the_listener_gives_up_on_a_mute_peer_unless_its_url_says_otherwise(monkeypatch):
    url = make_url("postgresql+psycopg://nobody@127.0.0.1:1/none?keepalives_idle=60")
    args = changes_module._listener_args(url)
    assert {name: args.get(name) for name in ("keepalives", "keepalives_idle", "tcp_user_timeout")} == {
        "keepalives": 1, "keepalives_idle": None, "tcp_user_timeout": 10_000}  # fmt: skip
    assert args["application_name"]  # the process's own, as on every connection
    monkeypatch.setattr(changes_module.pq, "version", lambda: 110_022)  # a libpq before 12 refuses the option
    assert "tcp_user_timeout" not in changes_module._listener_args(url)
