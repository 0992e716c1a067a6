"""Finding a request's merchant: read once, kept a few seconds per process, its keys checked every time."""

from sqlalchemy import event

from checkout.db import db, heard_on
from checkout.merchants import service
from checkout.merchants.models import Merchant
from tests.db.helpers import heard


def test_a_request_merchant_is_kept_for_a_few_seconds(app, merchant, monkeypatch):
    """Where no change is heard (SQLite; PostgreSQL while not listening), the keys are read every time."""
    monkeypatch.setattr(service, "heard_on", lambda engine: None)
    now = [1000.0]
    monkeypatch.setattr(service.time, "monotonic", lambda: now[0])
    service.forget()
    statements = []
    reads = []
    stored_keys = service._stored_keys
    monkeypatch.setattr(service, "_stored_keys", lambda *args: reads.append(args[1]) or stored_keys(*args))

    def count(*args):
        statements.append(args[2])

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", count)
        try:
            first_id = service.for_request(db.session, merchant["app_id"]).id
            db.session.rollback()
            db.session.query(Merchant).filter_by(app_id=merchant["app_id"]).update({"name": "Renamed"})
            db.session.commit()
            db.session.expunge_all()
            seen = len(statements)
            kept = service.for_request(db.session, merchant["app_id"])
            # One read of the two keys, by the driver (no statement of SQLAlchemy's); the copy is merged into
            # the session as it is (its name a few seconds old).
            assert [sql for sql in statements[seen:] if not sql.startswith("BEGIN")] == []
            assert reads == [first_id] and kept.name != "Renamed"
            assert (kept.security_key, kept.id, kept in db.session) == (merchant["security_key"], first_id, True)
            now[0] += service.CACHE_SECONDS + 0.1
            db.session.expunge_all()
            assert service.for_request(db.session, merchant["app_id"]).name == "Renamed"
            assert service.for_request(db.session, "app_unknown") is None
        finally:
            event.remove(db.engine, "before_cursor_execute", count)
            service.forget()


def test_a_read_only_request_takes_the_shared_copy_itself(app, merchant):
    service.forget()
    with app.app_context():
        try:
            service.for_request(db.session, merchant["app_id"])
            db.session.expunge_all()
            first = service.for_request(db.session, merchant["app_id"], attach=False)
            again = service.for_request(db.session, merchant["app_id"], attach=False)
            assert (first is again, first in db.session, first.app_key) == (True, False, merchant["app_key"])
        finally:
            service.forget()


def test_keys_changed_by_another_process_are_seen_by_the_next_request(app, merchant):
    """A copy cached here is not trusted for its keys: another process's rotation is seen at once (on
    PostgreSQL, once the change is heard: its notification is sent as it commits)."""
    service.forget()
    with app.app_context():
        try:
            mine = service.for_request(db.session, merchant["app_id"]).id
            stamp = (service._cache[merchant["app_id"]][2] or (None, None))[1]
            db.session.rollback()
            # As another process does it: the row changes, this process's cache is not told.
            db.session.query(Merchant).filter_by(app_id=merchant["app_id"]).update(
                {"security_key": "sk_rotated", "app_key": "ak_rotated"}
            )
            db.session.commit()
            db.session.expunge_all()
            changes = heard_on(db.engine)
            if changes is not None:
                assert heard(changes, f"merchants:{mine}", stamp)
            seen = service.for_request(db.session, merchant["app_id"], attach=False)
            assert (seen.security_key, seen.app_key) == ("sk_rotated", "ak_rotated")
        finally:
            service.forget()


def test_rotate_keys_gives_a_new_pair(app, merchant):
    with app.app_context():
        found = service.find_by_app_id(db.session, merchant["app_id"])
        rotated = service.rotate_keys(db.session, found.id)
        db.session.commit()
        assert rotated.app_id == merchant["app_id"]
        assert rotated.security_key.startswith("sk_") and rotated.security_key != merchant["security_key"]
        assert len(rotated.app_key) == 64 and rotated.app_key != merchant["app_key"]


class _Listener:
    """A listener that has heard nothing since stamp 1."""

    def stamp(self) -> int:
        return 1

    def unchanged(self, name: str, since: int | None) -> bool:
        return since == 1


def test_a_copy_vouched_for_by_another_databases_listener_is_read_again_whole(app, merchant, monkeypatch):
    """The cache is the process's: a copy heard unchanged on one database says nothing of another's row."""
    first, second = _Listener(), _Listener()
    reads = []
    stored_keys = service._stored_keys
    monkeypatch.setattr(service, "_stored_keys", lambda *args: reads.append(args[1]) or stored_keys(*args))
    service.forget()
    with app.app_context():
        try:
            monkeypatch.setattr(service, "heard_on", lambda engine: first)
            service.for_request(db.session, merchant["app_id"])
            db.session.rollback()
            copy = service.for_request(db.session, merchant["app_id"], attach=False)
            assert reads == []  # heard unchanged by the listener that vouched for it
            monkeypatch.setattr(service, "heard_on", lambda engine: second)
            again = service.for_request(db.session, merchant["app_id"], attach=False)
            db.session.rollback()
            _read_at, cached, vouched = service._cache[merchant["app_id"]]
            assert (again is copy, cached is copy, vouched) == (False, False, (second, 1))
            assert service.for_request(db.session, merchant["app_id"], attach=False) is cached
            assert reads == []  # read whole once on this database, then vouched for by its listener
        finally:
            service.forget()
