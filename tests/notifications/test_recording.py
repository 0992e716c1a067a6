"""Recording attempts (a real local receiver): the retry schedule, success, a resend's place, a round's statements."""

from datetime import timedelta

from sqlalchemy import select

from checkout import clock, worker
from checkout.db import db
from checkout.notifications import claiming, dispatcher, recording
from checkout.notifications.models import OutboxMessage
from checkout.notifications.result import Result
from tests import builders

from .helpers import message_of, paid_pix


def test_retries_follow_the_schedule_then_fail(app, api, receiver):
    receiver.default = (500, b"oops")
    trade_no = paid_pix(api, receiver)
    worker.run_once(app)
    first = clock.as_utc(message_of(app, trade_no).first_dispatch_at)
    for number, minutes in enumerate(recording.RETRY_MINUTES, start=2):
        due = first + timedelta(minutes=minutes)
        assert clock.as_utc(message_of(app, trade_no).next_attempt_at) == due
        clock.advance(int((due - clock.now()).total_seconds()) - 30)  # not yet
        worker.run_once(app)
        assert len(receiver.requests) == number - 1
        clock.advance(31)
        worker.run_once(app)
        assert len(receiver.requests) == number
    message = message_of(app, trade_no)
    assert (message.status, message.attempts) == ("failed", 7)
    offsets = [round((clock.as_utc(a.at) - first).total_seconds() / 60) for a in message.attempt_log]
    assert offsets == [0, 10, 30, 60, 120, 360, 840]
    assert message.attempt_log[-1].status_code == 500 and message.attempt_log[-1].response == "oops"
    clock.advance(7 * 86400)
    worker.run_once(app)
    assert len(receiver.requests) == 7  # failed and kept, never sent again by itself


def test_delivery_stops_at_the_first_success(app, api, receiver):
    receiver.script = [(500, b"error"), (200, b"ok")]  # a 200 without the body "success" is not an answer
    trade_no = paid_pix(api, receiver)
    worker.run_once(app)
    clock.advance(10 * 60)
    worker.run_once(app)
    clock.advance(20 * 60)
    worker.run_once(app)
    message = message_of(app, trade_no)
    assert (message.status, message.attempts, len(receiver.requests)) == ("delivered", 3, 3)
    assert [a.error for a in message.attempt_log][:2] == [
        "answered 500 without the body 'success'",
        "answered 200 without the body 'success'",
    ]
    clock.advance(86400)
    worker.run_once(app)
    assert len(receiver.requests) == 3


def test_a_reply_with_nul_bytes_is_recorded(app, api, receiver):
    receiver.script = ["nul"]
    trade_no = paid_pix(api, receiver)
    worker.run_once(app)
    message = message_of(app, trade_no)
    assert (message.status, message.attempts) == ("pending", 1)
    assert message.attempt_log[0].response == "a\ufffdb\ufffdc"


def test_a_manual_resend_does_not_anchor_the_schedule(app, api, receiver):
    receiver.default = (500, b"no")
    trade_no = api.post("/trade/pay", builders.direct("PIX", notify_url=receiver.url), expect=200)["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    delivery = api.get("/sandbox/deliveries")["deliveries"][0]
    with app.app_context():  # sent at once, as `checkout deliveries resend` does
        dispatcher.resend(db.session, message_of(app, trade_no), app.config, worker.deliveries(app).sender)
    assert message_of(app, trade_no).first_dispatch_at is None
    assert [a["manual"] for a in api.get("/sandbox/deliveries")["deliveries"][0]["attempt_log"]] == [True]
    clock.advance(3600)
    worker.run_once(app)
    message = message_of(app, trade_no)
    first = clock.as_utc(message.first_dispatch_at)
    assert clock.as_utc(message.next_attempt_at) == first + timedelta(minutes=10)
    assert delivery["id"] == message.notify_id


def test_a_round_is_recorded_in_a_fixed_number_of_statements(app, api, receiver):
    """Claiming and recording twelve deliveries takes the same statements as one would: the hold set for the
    round at once, its merchants' keys read at once, the messages changed in one executemany and their attempts inserted in another; what
    each message ends up as is exactly what a row-by-row recording wrote."""
    from sqlalchemy import event

    trades = [paid_pix(api, receiver, f"round-{i}") for i in range(12)]
    statements: list[tuple[str, bool]] = []

    def seen(_conn, _cursor, statement, _parameters, _context, executemany):
        statements.append((" ".join(statement.split()[:2]), executemany))

    with app.app_context():
        engine = db.engine
        event.listen(engine, "before_cursor_execute", seen)
        try:
            claimed = claiming.claim(db.session)
            claim_statements = [s for s in statements if not s[0].startswith(("BEGIN", "COMMIT", "ROLLBACK"))]
            statements.clear()
            at = clock.now()
            outcomes = [
                (o, Result(succeeded=True, status_code=200, response="success", started_at=at)) for o in claimed
            ]
            assert recording.record_all(db.session, outcomes) == 12
        finally:
            event.remove(engine, "before_cursor_execute", seen)
        recorded = [s for s in statements if not s[0].startswith(("BEGIN", "COMMIT", "ROLLBACK"))]
        assert sorted(o.subject for o in claimed) == sorted(trades)
        assert [s for s in claim_statements if s[0].startswith("UPDATE")] == [("UPDATE outbox", False)]
        assert not any(s[0].startswith("SELECT delivery_attempts") for s in claim_statements)
        # The merchants' keys in one read for the round, never one per message.
        assert [s for s in claim_statements if s[0].startswith("SELECT merchants")] == [("SELECT merchants.id,", False)]
        assert recorded == [("SELECT outbox.id,", False), ("UPDATE outbox", True), ("INSERT INTO", True)]
        messages = db.session.scalars(select(OutboxMessage).where(OutboxMessage.subject_id.in_(trades))).all()
        assert {(m.status, m.attempts, m.locked_until, clock.as_utc(m.delivered_at)) for m in messages} == {
            ("delivered", 1, None, at)
        }
        assert [(a.number, a.status_code, a.succeeded, a.manual) for a in messages[0].attempt_log] == [
            (1, 200, True, False)
        ]
