"""The stream's cursor: it never passes an id that may still commit, and passes a rolled-back one in time."""

from sqlalchemy import delete

from checkout.db import db
from checkout.merchants.service import find_by_app_id
from checkout.notifications import outbox, stream
from checkout.notifications.models import OutboxMessage


def _queue(session, merchant_id: int, subject: str, kind: str = "payin.callback") -> OutboxMessage:
    message = outbox.enqueue(
        session, merchant_id=merchant_id, kind=kind, target="http://10.0.0.1/n", subject_id=subject, payload={}
    )
    session.flush()
    return message


def test_the_cursor_stops_short_of_a_hole_until_it_settles(app, merchant):
    with app.app_context():
        session = db.session
        merchant_id = find_by_app_id(session, merchant["app_id"]).id
        start = _queue(session, merchant_id, "base").id  # ids from here on follow one another
        first = _queue(session, merchant_id, "a")
        missing = _queue(session, merchant_id, "b")
        third = _queue(session, merchant_id, "c")
        # An id handed out to a transaction that has not committed yet looks, to the stream, like this.
        session.execute(delete(OutboxMessage).where(OutboxMessage.id == missing.id))
        session.commit()
        holes = stream.Holes()
        messages, cursor = stream.poll(session, merchant_id, start, holes, now=100.0)
        assert [m.subject_id for m in messages] == ["a"] and cursor == first.id
        messages, cursor = stream.poll(session, merchant_id, cursor, holes, now=100.0 + stream.SETTLE - 0.1)
        assert messages == [] and cursor == first.id
        # Still missing after SETTLE seconds: a rolled-back insert, passed.
        messages, cursor = stream.poll(session, merchant_id, cursor, holes, now=100.0 + stream.SETTLE)
        assert [m.subject_id for m in messages] == ["c"] and cursor == third.id
        assert holes.first_seen == {}


def test_e_mails_are_not_streamed_and_batches_are_bounded(app, merchant, monkeypatch):
    monkeypatch.setattr(stream, "BATCH", 2)
    with app.app_context():
        session = db.session
        merchant_id = find_by_app_id(session, merchant["app_id"]).id
        start = _queue(session, merchant_id, "base").id
        _queue(session, merchant_id, "mail", kind="refund.email")
        for subject in ("a", "b", "c"):
            _queue(session, merchant_id, subject)
        session.commit()
        messages, cursor = stream.poll(session, merchant_id, start, stream.Holes(), now=0.0)
        assert [m.subject_id for m in messages] == ["a", "b"] and cursor == messages[-1].id
        messages, cursor = stream.poll(session, merchant_id, cursor, stream.Holes(), now=0.0)
        assert [m.subject_id for m in messages] == ["c"]
