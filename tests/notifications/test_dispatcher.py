"""Delivery rounds to a real local receiver: scheduled work's notifications, order, crashes, concurrency, resends."""

import signal
import threading
from datetime import timedelta

import pytest
from sqlalchemy import select

from checkout import clock, worker
from checkout.db import db
from checkout.merchants.service import find_by_app_id
from checkout.notifications import claiming, dispatcher, transport
from checkout.notifications.models import OutboxMessage
from checkout.sandbox.models import DatabaseOffsetStore
from tests import builders
from tests.notifications.conftest import Receiver, worker_process

from .helpers import message_of, paid_pix


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


def test_a_worker_killed_mid_delivery_loses_nothing(app, api, receiver, monkeypatch):
    trade_no = paid_pix(api, receiver)
    with app.app_context():
        [_claimed] = claiming.claim(db.session)  # this worker dies here, holding the message
        assert claiming.claim(db.session) == []  # the hold keeps other workers off it
    later = clock.real_now() + claiming.LEASE + timedelta(seconds=1)
    monkeypatch.setattr(clock, "real_now", lambda: later)
    worker.run_once(app)
    assert [r["json"]["trade_no"] for r in receiver.requests] == [trade_no]
    assert message_of(app, trade_no).status == "delivered"


def test_two_workers_never_send_one_delivery_twice(app, api, receiver):
    trades = [paid_pix(api, receiver, f"pair-{i}") for i in range(30)]
    barrier = threading.Barrier(2)

    def work():
        sender = dispatcher.new_sender()  # each worker its own sending threads
        barrier.wait()
        try:
            with app.app_context():
                while dispatcher.dispatch_due(db.session, app.config, sender):
                    pass
        finally:
            sender.close()

    threads = [threading.Thread(target=work) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    sent = [r["json"]["trade_no"] for r in receiver.requests]
    assert sorted(sent) == sorted(trades)  # each exactly once
    with app.app_context():
        assert {m.attempts for m in db.session.scalars(select(OutboxMessage))} == {1}


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
        "via": None,
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
    later = clock.real_now() + claiming.LEASE + timedelta(seconds=1)
    monkeypatch.setattr(clock, "real_now", lambda: later)
    worker.run_once(app)
    assert [r["json"]["trade_no"] for r in receiver.requests] == [trade_no, trade_no]
    message = message_of(app, trade_no)
    assert (message.status, message.attempts) == ("delivered", 1)


def test_a_trickling_receiver_does_not_hold_up_the_others(app, api, receiver, monkeypatch):
    monkeypatch.setattr(transport, "TOTAL_TIMEOUT", 1.0)
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
