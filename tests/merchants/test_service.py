"""Finding a request's merchant: read once, kept a few seconds per process, attached without a query."""

from sqlalchemy import event

from checkout.db import db
from checkout.merchants import service
from checkout.merchants.models import Merchant


def test_a_request_merchant_is_kept_for_a_few_seconds(app, merchant, monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(service.time, "monotonic", lambda: now[0])
    service.forget()
    statements = []

    def count(*args):
        statements.append(args[2])

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", count)
        try:
            first_id = service.for_request(db.session, merchant["app_id"]).id
            db.session.rollback()
            db.session.query(Merchant).filter_by(app_id=merchant["app_id"]).update({"security_key": "sk_rotated"})
            db.session.commit()
            db.session.expunge_all()
            seen = len(statements)
            kept = service.for_request(db.session, merchant["app_id"])
            assert len(statements) == seen  # no query: the copy is merged into the session as it is
            assert (kept.security_key, kept.id, kept in db.session) == (merchant["security_key"], first_id, True)
            now[0] += service.CACHE_SECONDS + 0.1
            db.session.expunge_all()
            assert service.for_request(db.session, merchant["app_id"]).security_key == "sk_rotated"
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
