"""One attempt to a real local receiver: signatures, receivers' faults, closed connections, refused addresses, mail."""

import hashlib
import hmac
import json
import time

from checkout import worker
from checkout.notifications import transport
from tests import builders
from tests.notifications.conftest import Receiver

from .helpers import message_of, paid_pix


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


def test_faults_of_receivers_are_bounded_and_isolated(app, api, receiver, monkeypatch):
    monkeypatch.setattr(transport, "READ_TIMEOUT", 0.5)
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
