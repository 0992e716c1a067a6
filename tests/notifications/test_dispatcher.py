"""Deliveries to a real local receiver: schedule, success, order, signatures, faults, crashes, concurrency."""

import hashlib
import hmac
import json
import signal
import threading
import time
from datetime import timedelta

import pytest
from sqlalchemy import select

from checkout import clock, worker
from checkout.db import db
from checkout.merchants.service import find_by_app_id
from checkout.notifications import dispatcher
from checkout.notifications.models import OutboxMessage
from checkout.sandbox.models import DatabaseOffsetStore
from tests import builders
from tests.notifications.conftest import Receiver, worker_process


def paid_pix(api, receiver, out_trade_no="order-1") -> str:
    trade_no = api.post(
        "/trade/pay", builders.direct("PIX", out_trade_no=out_trade_no, notify_url=receiver.url), expect=200
    )["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    return trade_no


def message_of(app, subject: str) -> OutboxMessage:
    with app.app_context():
        return db.session.scalars(select(OutboxMessage).where(OutboxMessage.subject_id == subject)).one()


def test_retries_follow_the_schedule_then_fail(app, api, receiver):
    receiver.default = (500, b"oops")
    trade_no = paid_pix(api, receiver)
    worker.run_once(app)
    first = clock.as_utc(message_of(app, trade_no).first_dispatch_at)
    for number, minutes in enumerate(dispatcher.RETRY_MINUTES, start=2):
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


def test_payin_callbacks_carry_the_providers_pagsmile_signature(app, api, merchant, receiver):
    trade_no = paid_pix(api, receiver)
    worker.run_once(app)
    [request] = receiver.requests
    assert "X-Signature" not in request["headers"]
    t, v2 = (part.split("=", 1) for part in request["headers"]["Pagsmile-Signature"].split(","))
    assert t[0] == "t" and abs(int(t[1]) - time.time()) < 60 and v2[0] == "v2"
    expected = hmac.new(merchant["security_key"].encode(), request["raw"], hashlib.sha256)
    assert hmac.compare_digest(v2[1], expected.hexdigest())
    assert request["json"]["trade_no"] == trade_no and request["json"]["trade_status"] == "SUCCESS"
    assert request["json"]["notify_id"] == request["headers"]["X-Notify-Id"]


def design_signature(body: dict, key: str) -> str:
    """design.md's payout scheme, written again here to check the service against it."""

    def text(value):
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (dict, list)):
            return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return value if isinstance(value, str) else json.dumps(value)

    kept = sorted((k, v) for k, v in body.items() if v is not None and v != "")
    return hashlib.sha256(("&".join(f"{k}={text(v)}" for k, v in kept) + key).encode()).hexdigest()


def test_payout_notifications_in_order_and_signed(app, api, payout_api, merchant, fund, receiver):
    fund(merchant, "USD", "1000.00")
    tid = payout_api.post("/payout", builders.payout(notify_url=receiver.url), expect=200)["data"]["transaction_id"]
    api.post("/sandbox/clock", {"advance_seconds": 360}, expect=200)
    api.post(f"/sandbox/payouts/{tid}/refund", {"amount": "37.30"}, expect=200)
    api.post(f"/sandbox/payouts/{tid}/refund", {"amount": "200.00"}, expect=200)
    api.post(f"/sandbox/payouts/{tid}/refund", expect=200)
    worker.run_once(app)
    receiver.wait_for(5)
    assert receiver.statuses() == ["PAID", "PARTIAL_REFUNDED", "PARTIAL_REFUNDED", "PARTIAL_REFUNDED", "REFUNDED"]
    assert [r["json"].get("refunded_amount") for r in receiver.requests] == [None, "37.30", "200.00", "300.00", None]
    for request in receiver.requests:
        assert request["headers"]["Authorization"] == design_signature(request["json"], merchant["app_key"])
        assert request["json"]["payoutId"] == tid and request["json"]["custom_code"] == "po-1"


def test_pix_automatico_debit_runs_on_its_date(app, api, receiver):
    vault = api.post("/vault/create", builders.pix_vault(clock.brazil_today()), expect=200)["token"]
    api.post(f"/sandbox/vaults/{vault}/approve", expect=200)
    scheduled = clock.brazil_today() + timedelta(days=3)
    trades = {
        name: api.post(
            "/trade/pay",
            builders.vault_pay(
                vault,
                "PIXAutomatic",
                out_trade_no=name,
                scheduled_date=scheduled.isoformat(),
                order_amount=amount,
                notify_url=receiver.url,
            ),
            expect=200,
        )["trade_no"]
        for name, amount in (("within", "150.00"), ("above", "200.01"))
    }
    worker.run_once(app)
    assert receiver.requests == []
    clock.advance(3 * 86400)
    worker.run_once(app)
    receiver.wait_for(2)
    by_trade = {r["json"]["trade_no"]: r["json"] for r in receiver.requests}
    assert by_trade[trades["within"]]["trade_status"] == "SUCCESS"
    assert (by_trade[trades["above"]]["trade_status"], by_trade[trades["above"]]["reason"]) == (
        "REFUSED",
        "amount above the plan's maximum of 200.00 BRL",
    )


def test_card_vault_debit_and_a_voided_vault(app, api, receiver):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    vault = api.post("/vault/create", builders.card_vault(token), expect=200)["token"]
    api.post(f"/sandbox/vaults/{vault}/approve", expect=200)
    charged = api.post("/trade/pay", builders.vault_pay(vault, out_trade_no="c1", notify_url=receiver.url), expect=200)[
        "trade_no"
    ]
    worker.run_once(app)
    assert api.post("/trade/query", {"trade_no": charged}, expect=200)["trade_status"] == "SUCCESS"
    late = api.post("/trade/pay", builders.vault_pay(vault, out_trade_no="c2", notify_url=receiver.url), expect=200)[
        "trade_no"
    ]
    api.post("/vault/void", {"version": "2.0", "type": "Card", "vault_token": vault}, expect=200)
    worker.run_once(app)
    query = api.post("/trade/query", {"trade_no": late}, expect=200)
    assert (query["trade_status"], query["failure_reason"]) == ("REFUSED", "vault is VOIDED")
    receiver.wait_for(2)
    assert [(r["json"]["trade_no"], r["json"]["trade_status"]) for r in receiver.requests] == [
        (charged, "SUCCESS"),
        (late, "REFUSED"),
    ]


def test_unpaid_trades_and_undecided_vaults_expire(app, api, receiver):
    trade_no = api.post(
        "/trade/pay", builders.direct("PIX", timeout_express="15m", notify_url=receiver.url), expect=200
    )["trade_no"]
    vault = api.post("/vault/create", builders.pix_vault(clock.brazil_today(), notify_url=receiver.url), expect=200)[
        "token"
    ]
    clock.advance(16 * 60)
    worker.run_once(app)
    assert api.post("/trade/query", {"trade_no": trade_no}, expect=200)["trade_status"] == "EXPIRED"
    clock.advance(24 * 3600)
    worker.run_once(app)
    receiver.wait_for(2)
    assert [(r["json"].get("trade_status") or r["json"].get("vault_status")) for r in receiver.requests] == [
        "EXPIRED",
        "EXPIRED",
    ]
    assert receiver.requests[1]["json"]["vault_token"] == vault


def test_faults_of_receivers_are_bounded_and_isolated(app, api, receiver, monkeypatch):
    monkeypatch.setattr(dispatcher, "READ_TIMEOUT", 0.5)
    receiver.script = ["hang", (200, b"x" * (200 * 1024))]
    closing = Receiver()
    closing.default = "close"  # every connection closed unanswered
    try:
        trades = [paid_pix(api, receiver, f"fault-{i}") for i in range(3)]
        closed = paid_pix(api, closing, "fault-closed")
        trades.append(closed)
        worker.run_once(app)
        receiver.wait_for(3)
        # A round waits ROUND_WAIT at most; on a loaded machine the timed-out send is recorded by a later round.
        deadline = time.monotonic() + 20
        while any(message_of(app, trade).attempts == 0 for trade in trades) and time.monotonic() < deadline:
            worker.run_once(app)
        outcome = {trade: (message_of(app, trade).status, message_of(app, trade).last_error) for trade in trades}
        # The answers went out in the order the messages were sent, which the threads decide: compare as a set.
        errors = sorted((error or "").split(":")[0] for _, error in outcome.values())
        assert errors == sorted(["", "timed out", "connection failed", "answered 200 without the body 'success'"])
        assert sorted(status for status, _ in outcome.values()) == ["delivered", "pending", "pending", "pending"]
        # The closed one was sent once more at once, on a new connection, and no more: one attempt.
        assert outcome[closed][1].startswith("connection failed")
        assert [r["json"]["trade_no"] for r in closing.requests] == [closed, closed]
        assert message_of(app, closed).attempts == 1
    finally:
        closing.close()


def test_a_connection_closed_unanswered_is_sent_again_at_once(app, api, receiver):
    # What a receiver's idle timeout does to a kept-alive connection taken up again at that moment.
    receiver.script = ["close"]
    trade_no = paid_pix(api, receiver)
    worker.run_once(app)
    assert [r["json"]["trade_no"] for r in receiver.requests] == [trade_no, trade_no]
    message = message_of(app, trade_no)
    assert (message.status, message.attempts, message.attempt_log[0].succeeded) == ("delivered", 1, True)


def test_a_worker_killed_mid_delivery_loses_nothing(app, api, receiver, monkeypatch):
    trade_no = paid_pix(api, receiver)
    with app.app_context():
        [_claimed] = dispatcher.claim(db.session)  # this worker dies here, holding the message
        assert dispatcher.claim(db.session) == []  # the hold keeps other workers off it
    later = clock.real_now() + dispatcher.LEASE + timedelta(seconds=1)
    monkeypatch.setattr(clock, "real_now", lambda: later)
    worker.run_once(app)
    assert [r["json"]["trade_no"] for r in receiver.requests] == [trade_no]
    assert message_of(app, trade_no).status == "delivered"


def test_two_workers_never_send_one_delivery_twice(app, api, receiver):
    trades = [paid_pix(api, receiver, f"pair-{i}") for i in range(30)]
    barrier = threading.Barrier(2)

    def work():
        barrier.wait()
        with app.app_context():
            while dispatcher.dispatch_due(db.session, app.config):
                pass

    threads = [threading.Thread(target=work) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    sent = [r["json"]["trade_no"] for r in receiver.requests]
    assert sorted(sent) == sorted(trades)  # each exactly once
    with app.app_context():
        assert {m.attempts for m in db.session.scalars(select(OutboxMessage))} == {1}


def test_private_addresses_are_refused_outside_the_sandbox(app, api, receiver):
    trade_no = paid_pix(api, receiver)
    app.config["SANDBOX"] = False
    try:
        worker.run_once(app)
    finally:
        app.config["SANDBOX"] = True
    message = message_of(app, trade_no)
    assert receiver.requests == []
    assert (message.status, message.last_error) == (
        "failed",
        "127.0.0.1 resolves to 127.0.0.1, which notifications may not reach (not a public address)",
    )


def test_deliveries_can_be_inspected_and_resent(app, api, other_api, receiver):
    receiver.script = [(503, b"busy")]
    trade_no = paid_pix(api, receiver)
    worker.run_once(app)
    listed = api.get("/sandbox/deliveries?status=pending")["deliveries"]
    assert [(d["subject"], d["attempts"]) for d in listed] == [(trade_no, 1)]
    assert listed[0]["attempt_log"][0] | {"at": None, "duration_ms": None} == {
        "number": 1,
        "at": None,
        "status_code": 503,
        "response": "busy",
        "error": "answered 503 without the body 'success'",
        "duration_ms": None,
        "succeeded": False,
        "manual": False,
    }
    queued = api.post(f"/sandbox/deliveries/{listed[0]['id']}/resend", expect=200)
    assert (queued["status"], queued["attempts"], len(receiver.requests)) == ("pending", 1, 1)
    worker.run_once(app)
    [resent] = api.get("/sandbox/deliveries")["deliveries"]
    assert (resent["status"], resent["attempts"], resent["attempt_log"][-1]["manual"]) == ("delivered", 2, True)
    assert other_api.post(f"/sandbox/deliveries/{listed[0]['id']}/resend", expect=400)["sub_code"] == (
        "delivery-not-exist"
    )
    assert other_api.get("/sandbox/deliveries")["deliveries"] == []
    assert api.get("/sandbox/deliveries?status=bogus")["sub_msg"].startswith("status: must be one of")


def test_refund_emails_wait_for_an_smtp_server(app, api, receiver):
    trade_no = api.post("/trade/pay", builders.direct("Boleto", notify_url=receiver.url), expect=200)["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    refund = api.post(
        "/trade/refund",
        builders.refund(
            trade_no,
            "10.00",
            out_request_no="r1",
            user_info={"identify": {"number": builders.CPF}, "name": "Ana", "email": "ana@example.com"},
        ),
        expect=200,
    )
    worker.run_once(app)
    [email] = api.get("/sandbox/deliveries?status=skipped")["deliveries"]
    assert (email["kind"], email["target"], email["subject"]) == (
        "refund.email",
        "ana@example.com",
        refund["refund_no"],
    )


@pytest.mark.parametrize("seconds", [3600])
def test_the_clock_is_shared_through_the_database(app, api, seconds):

    api.post("/sandbox/clock", {"advance_seconds": seconds}, expect=200)
    another_process = DatabaseOffsetStore(app.config["DATABASE_URL"])
    with app.app_context():
        me = find_by_app_id(db.session, api.app_id).id
    assert another_process.load_merchants() == {me: seconds} and another_process.load() == 0


def test_a_worker_process_killed_while_sending_loses_nothing(app, api, receiver, monkeypatch):

    receiver.script = ["hang"]  # the first receiver call never answers: the worker is inside the POST
    trade_no = paid_pix(api, receiver)
    process = worker_process(app)
    try:
        receiver.wait_for(1)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    assert message_of(app, trade_no).status == "pending"  # nothing recorded: the worker died mid-attempt
    later = clock.real_now() + dispatcher.LEASE + timedelta(seconds=1)
    monkeypatch.setattr(clock, "real_now", lambda: later)
    worker.run_once(app)
    assert [r["json"]["trade_no"] for r in receiver.requests] == [trade_no, trade_no]
    message = message_of(app, trade_no)
    assert (message.status, message.attempts) == ("delivered", 1)


def test_a_trickling_receiver_does_not_hold_up_the_others(app, api, receiver, monkeypatch):
    monkeypatch.setattr(dispatcher, "TOTAL_TIMEOUT", 1.0)
    monkeypatch.setattr(dispatcher, "ROUND_WAIT", 1.0)
    slow = Receiver()
    slow.script = ["trickle"]
    try:
        stuck = paid_pix(api, slow, "slow")
        fine = paid_pix(api, receiver, "fine")
        started = clock.real_now()
        worker.run_once(app)
        assert (clock.real_now() - started).total_seconds() < dispatcher.ROUND_WAIT + 1
        assert message_of(app, fine).status == "delivered"
        # Still in flight: recorded by a later round of this process, as soon as it has given up.
        for _ in range(10):
            if message_of(app, stuck).attempts:
                break
            worker.run_once(app)
        assert message_of(app, stuck).attempt_log[0].error == "timed out"
    finally:
        slow.close()


def test_a_reply_with_nul_bytes_is_recorded(app, api, receiver):
    receiver.script = ["nul"]
    trade_no = paid_pix(api, receiver)
    worker.run_once(app)
    message = message_of(app, trade_no)
    assert (message.status, message.attempts) == ("pending", 1)
    assert message.attempt_log[0].response == "a\ufffdb\ufffdc"


def test_a_failed_message_holds_back_the_later_ones_of_its_subject(app, api, payout_api, merchant, fund, receiver):
    fund(merchant, "USD", "1000.00")
    tid = payout_api.post("/payout", builders.payout(notify_url=receiver.url), expect=200)["data"]["transaction_id"]
    api.post("/sandbox/clock", {"advance_seconds": 360}, expect=200)
    api.post(f"/sandbox/payouts/{tid}/refund", {"amount": "37.30"}, expect=200)
    api.post(f"/sandbox/payouts/{tid}/refund", expect=200)
    receiver.script = [(200, b"success"), (500, b"later")]  # PAID accepted, the first PARTIAL_REFUNDED not
    worker.run_once(app)
    assert receiver.statuses() == ["PAID", "PARTIAL_REFUNDED"]
    worker.run_once(app)  # nothing else goes before the failed one is retried
    assert len(receiver.requests) == 2
    clock.advance(10 * 60)
    worker.run_once(app)
    assert receiver.statuses() == ["PAID", "PARTIAL_REFUNDED", "PARTIAL_REFUNDED", "PARTIAL_REFUNDED", "REFUNDED"]


def test_a_manual_resend_does_not_anchor_the_schedule(app, api, receiver):
    receiver.default = (500, b"no")
    trade_no = api.post("/trade/pay", builders.direct("PIX", notify_url=receiver.url), expect=200)["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    delivery = api.get("/sandbox/deliveries")["deliveries"][0]
    with app.app_context():  # sent at once, as `checkout deliveries resend` does
        dispatcher.resend(db.session, message_of(app, trade_no), app.config)
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
    round at once, the messages changed in one executemany and their attempts inserted in another; what
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
            claimed = dispatcher.claim(db.session)
            claim_statements = [s for s in statements if not s[0].startswith(("BEGIN", "COMMIT", "ROLLBACK"))]
            statements.clear()
            at = clock.now()
            outcomes = [
                (o, dispatcher.Result(succeeded=True, status_code=200, response="success", started_at=at))
                for o in claimed
            ]
            assert dispatcher.record_all(db.session, outcomes) == 12
        finally:
            event.remove(engine, "before_cursor_execute", seen)
        recorded = [s for s in statements if not s[0].startswith(("BEGIN", "COMMIT", "ROLLBACK"))]
        assert sorted(o.subject for o in claimed) == sorted(trades)
        assert [s for s in claim_statements if s[0].startswith("UPDATE")] == [("UPDATE outbox", False)]
        assert not any(s[0].startswith("SELECT delivery_attempts") for s in claim_statements)
        assert recorded == [("SELECT outbox.id,", False), ("UPDATE outbox", True), ("INSERT INTO", True)]
        messages = db.session.scalars(select(OutboxMessage).where(OutboxMessage.subject_id.in_(trades))).all()
        assert {(m.status, m.attempts, m.locked_until, clock.as_utc(m.delivered_at)) for m in messages} == {
            ("delivered", 1, None, at)
        }
        assert [(a.number, a.status_code, a.succeeded, a.manual) for a in messages[0].attempt_log] == [
            (1, 200, True, False)
        ]
