"""Changes heard from PostgreSQL: a merchant's row announced when it changes, what a stamp vouches for, and a
listener that lost its connection vouching for nothing read before it listened again."""

from __future__ import annotations

import os
import time

import pytest
from sqlalchemy import create_engine, event, text
from sqlalchemy.pool import NullPool

from checkout.db import changes as changes_module
from checkout.db import db, heard_on
from checkout.merchants import service

from .helpers import heard

URL = os.environ.get("CHECKOUT_DATABASE_URL", "")
pytestmark = pytest.mark.skipif(not URL.startswith("postgresql"), reason="PostgreSQL's LISTEN/NOTIFY")


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


def _id(app, app_id: str) -> int:
    with app.app_context():
        return service.find_by_app_id(db.session, app_id).id


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


def test_a_notification_on_the_socket_not_yet_taken_is_a_doubt(app, merchant, changes, monkeypatch):
    mine = _id(app, merchant["app_id"])
    stamp = changes.stamp()
    monkeypatch.setattr(changes_module, "_readable", lambda fd: True)
    assert not changes.unchanged(f"merchants:{mine}", stamp)


def test_the_key_check_reads_nothing_while_no_change_is_heard_and_the_whole_row_after_one(app, merchant, changes,
                                                                                   other, monkeypatch):  # fmt: skip
    service.forget()
    reads, statements = [], []
    stored_keys = service._stored_keys
    monkeypatch.setattr(service, "_stored_keys", lambda *args: reads.append(args[1]) or stored_keys(*args))

    def count(*args):
        statements.append(args[2])

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", count)
        try:
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
        finally:
            event.remove(db.engine, "before_cursor_execute", count)
            service.forget()


def test_a_copy_read_before_the_process_listened_has_its_keys_read_once_then_is_heard(app, merchant, changes,
                                                                                  monkeypatch):  # fmt: skip
    service.forget()
    reads = []
    stored_keys = service._stored_keys
    monkeypatch.setattr(service, "_stored_keys", lambda *args: reads.append(args[1]) or stored_keys(*args))
    with app.app_context():
        try:
            mine = service.for_request(db.session, merchant["app_id"]).id
            db.session.rollback()
            read_at, copy, _vouched = service._cache[merchant["app_id"]]
            service._cache[merchant["app_id"]] = (read_at, copy, None)  # as read while not listening
            for _ in range(3):
                assert service.for_request(db.session, merchant["app_id"], attach=False) is copy
            assert reads == [mine]  # the keys read once, with a stamp taken before: then trusted
        finally:
            service.forget()
