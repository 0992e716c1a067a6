"""Send again from a request (the sandbox API, the dashboard) queues the message for the worker: the request
answers at once, whatever the receiver does, and the worker's next round sends it once."""

import time
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from checkout import clock, worker
from checkout.db import db
from checkout.notifications import claiming
from checkout.notifications import transport as notify_transport
from checkout.notifications.models import OutboxMessage
from checkout.notifications.result import Result
from tests import builders

from .helpers import Transport

REFUSED = Result(succeeded=False, status_code=500, response="no", error="answered 500 without the body 'success'")


@pytest.fixture
def transport(monkeypatch) -> Transport:
    instance = Transport()
    monkeypatch.setattr(notify_transport, "post", instance)
    return instance


def paid_pix(api, out_trade_no: str = "order-1") -> str:
    body = builders.direct("PIX", out_trade_no=out_trade_no, notify_url="http://127.0.0.1:9/notify")
    trade_no = api.post("/trade/pay", body, expect=200)["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    return trade_no


def stored(app, notify_id: str) -> OutboxMessage:
    with app.app_context():
        return db.session.scalars(select(OutboxMessage).where(OutboxMessage.notify_id == notify_id)).one()


def delivery(api, notify_id: str) -> dict:
    [found] = [d for d in api.get("/sandbox/deliveries")["deliveries"] if d["id"] == notify_id]
    return found


def test_the_sandbox_api_queues_a_delivered_message_and_the_next_round_sends_it_once(app, api, transport):
    paid_pix(api)
    worker.run_once(app)
    [before] = api.get("/sandbox/deliveries")["deliveries"]
    assert (before["status"], before["attempts"], len(transport.sent)) == ("delivered", 1, 1)
    presses = [api.post(f"/sandbox/deliveries/{before['id']}/resend", expect=200) for _ in range(3)]
    assert len(transport.sent) == 1  # nothing sent in the requests
    message = stored(app, before["id"])
    queued_at = clock.unix(message.next_attempt_at)
    assert abs(queued_at - time.time()) < 5
    expected = {**before, "status": "pending", "next_attempt_at": queued_at}
    assert presses[0] == {"code": "10000", "msg": "Success", **expected}
    assert presses[1] == presses[2] == presses[0]  # asking again before it is sent changes nothing
    assert (message.status, message.resend_from) == ("pending", "delivered")

    worker.run_once(app)
    assert transport.sent == [before["payload"]] * 2  # the same body, sent once more
    after = delivery(api, before["id"])
    assert (after["status"], after["attempts"], after["next_attempt_at"]) == ("delivered", 2, None)
    assert [(a["number"], a["succeeded"], a["manual"]) for a in after["attempt_log"]] == [
        (1, True, False),
        (2, True, True),
    ]
    assert stored(app, before["id"]).resend_from is None
    worker.run_once(app)
    assert len(transport.sent) == 2


def test_a_queued_resend_of_a_pending_message_leaves_its_schedule_as_it_was(app, api, transport):
    transport.script = [REFUSED, REFUSED]
    paid_pix(api)
    worker.run_once(app)
    [before] = api.get("/sandbox/deliveries")["deliveries"]
    first = clock.as_utc(stored(app, before["id"]).first_dispatch_at)
    assert before["next_attempt_at"] == clock.unix(first + timedelta(minutes=10))
    answer = api.post(f"/sandbox/deliveries/{before['id']}/resend", expect=200)
    assert (answer["status"], answer["attempts"], len(transport.sent)) == ("pending", 1, 1)
    assert abs(answer["next_attempt_at"] - time.time()) < 5  # due at once, not in ten minutes
    worker.run_once(app)
    assert len(transport.sent) == 2
    message = stored(app, before["id"])
    # The resend was a manual attempt: it failed, and the automatic schedule is where it was.
    assert (message.status, message.attempts, message.resend_from) == ("pending", 2, None)
    assert clock.as_utc(message.first_dispatch_at) == first
    assert clock.as_utc(message.next_attempt_at) == first + timedelta(minutes=10)
    assert [a.manual for a in message.attempt_log] == [False, True]
    worker.run_once(app)
    assert len(transport.sent) == 2


def test_a_failed_message_is_pending_again_until_its_resend_is_answered(app, api, transport):
    transport.script = [Result(succeeded=False, error="refused", final=True), REFUSED]
    paid_pix(api)
    worker.run_once(app)
    [before] = api.get("/sandbox/deliveries")["deliveries"]
    assert before["status"] == "failed"
    assert api.post(f"/sandbox/deliveries/{before['id']}/resend", expect=200)["status"] == "pending"
    worker.run_once(app)
    assert (delivery(api, before["id"])["status"], len(transport.sent)) == ("failed", 2)  # it merely failed
    assert api.post(f"/sandbox/deliveries/{before['id']}/resend", expect=200)["status"] == "pending"
    worker.run_once(app)
    after = delivery(api, before["id"])
    assert (after["status"], after["attempts"], len(transport.sent)) == ("delivered", 3, 3)
    assert [a["manual"] for a in after["attempt_log"]] == [False, True, True]


def test_a_message_a_worker_is_sending_is_not_queued(app, api, transport):
    paid_pix(api)
    [before] = api.get("/sandbox/deliveries")["deliveries"]
    with app.app_context():
        db.session.execute(
            update(OutboxMessage).values(locked_until=clock.real_now() + claiming.LEASE)
        )  # as a claim holds it
        db.session.commit()
    refused = api.post(f"/sandbox/deliveries/{before['id']}/resend", expect=400)
    assert (refused["sub_code"], refused["sub_msg"]) == (
        "delivery-busy",
        "a worker is sending this delivery right now; try again shortly",
    )
    assert stored(app, before["id"]).resend_from is None and transport.sent == []


def test_queued_resends_keep_one_subjects_notifications_in_order(app, api, payout_api, merchant, fund, receiver):
    fund(merchant, "USD", "1000.00")
    tid = payout_api.post("/payout", builders.payout(notify_url=receiver.url), expect=200)["data"]["transaction_id"]
    api.post("/sandbox/clock", {"advance_seconds": 360}, expect=200)
    api.post(f"/sandbox/payouts/{tid}/refund", {"amount": "37.30"}, expect=200)
    api.post(f"/sandbox/payouts/{tid}/refund", expect=200)
    receiver.script = [(200, b"success"), (500, b"later")]  # PAID accepted, PARTIAL_REFUNDED not
    worker.run_once(app)
    assert receiver.statuses() == ["PAID", "PARTIAL_REFUNDED"]
    paid, partial, rest, refunded = reversed(api.get("/sandbox/deliveries")["deliveries"])  # newest first
    # REFUNDED, asked for again, still waits behind the PARTIAL_REFUNDED waiting for its retry.
    assert api.post(f"/sandbox/deliveries/{refunded['id']}/resend", expect=200)["status"] == "pending"
    worker.run_once(app)
    assert len(receiver.requests) == 2
    # The first PARTIAL_REFUNDED asked for again goes now, and the later ones after it, in the order written.
    api.post(f"/sandbox/deliveries/{partial['id']}/resend", expect=200)
    worker.run_once(app)
    receiver.wait_for(5)
    assert receiver.statuses() == ["PAID", "PARTIAL_REFUNDED", "PARTIAL_REFUNDED", "PARTIAL_REFUNDED", "REFUNDED"]
    assert [r["json"]["notify_id"] for r in receiver.requests[2:]] == [partial["id"], rest["id"], refunded["id"]]
    assert [delivery(api, d["id"])["status"] for d in (paid, partial, rest, refunded)] == ["delivered"] * 4
