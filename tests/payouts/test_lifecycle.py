import random
import threading
import time
from decimal import Decimal

import pytest
from sqlalchemy import func, select, text

from checkout import clock, wiring
from checkout.brazil import brcode
from checkout.db import db
from checkout.merchants.service import find_by_app_id
from checkout.payouts import ledger, lifecycle
from checkout.payouts.models import Payout
from tests import builders
from tests.conftest import Api, PayoutApi


def status_of(payout_api, transaction_id):
    return payout_api.post("/payout/status", {"payout_id": transaction_id}, expect=200)["data"]["status"]


def detail_of(payout_api, transaction_id):
    return payout_api.post(
        "/payout/detail", {"transaction_id": transaction_id, "timestamp": builders.now_unix()}, expect=200
    )["data"]


def notifications(outbox, transaction_id):
    return [
        (p["status"], p.get("refunded_amount"))
        for kind, _, p in outbox(transaction_id)
        if kind == "payout.notification"
    ]


def test_sandbox_bank_pays_after_processing(payout_api, api, merchant, fund, outbox):
    fund(merchant, "USD", "1000.00")
    tid = payout_api.post("/payout", builders.payout(), expect=200)["data"]["transaction_id"]
    api.post("/sandbox/clock", {"advance_seconds": 60}, expect=200)
    assert status_of(payout_api, tid) == "IN_PROCESSING"  # the status operation does not say PROCESSING
    assert detail_of(payout_api, tid)["transaction_status"] == "PROCESSING"
    api.post("/sandbox/clock", {"advance_seconds": 300}, expect=200)
    assert status_of(payout_api, tid) == "PAID"
    [(kind, target, body)] = outbox(tid)
    assert (kind, target) == ("payout.notification", builders.NOTIFY)
    assert {k: body[k] for k in ("payoutId", "custom_code", "status", "msg")} == {
        "payoutId": tid,
        "custom_code": "po-1",
        "status": "PAID",
        "msg": "paid",
    }
    detail = payout_api.post("/payout/detail", {"transaction_id": tid, "timestamp": builders.now_unix()}, expect=200)[
        "data"
    ]
    assert detail["transaction_status"] == "PAID" and detail["bank_id"].startswith("E")


def test_the_rejecting_test_key_is_rejected_and_reversed(payout_api, api, merchant, fund, outbox):
    fund(merchant, "USD", "1000.00")
    tid = payout_api.post(
        "/payout", builders.payout(account="rejected@sandbox.test", account_type="EMAIL"), expect=200
    )["data"]["transaction_id"]
    api.post("/sandbox/clock", {"advance_seconds": 360}, expect=200)
    assert status_of(payout_api, tid) == "REJECTED"
    assert notifications(outbox, tid) == [("REJECTED", None)]
    today = clock.now().date().isoformat()
    balance = payout_api.post(
        "/balance/history", {"start_date": today, "end_date": today, "timestamp": builders.now_unix()}, expect=200
    )["data"]
    assert balance[0]["balance"] == [{"currency": "USD", "amount": "1000.00"}]


def paid_payout(payout_api, api, merchant, fund, **overrides) -> str:
    fund(merchant, "USD", "1000.00")
    tid = payout_api.post("/payout", builders.payout(**overrides), expect=200)["data"]["transaction_id"]
    api.post("/sandbox/clock", {"advance_seconds": 360}, expect=200)
    return tid


def test_partial_refunds_then_refunded_in_order(payout_api, api, merchant, fund, outbox):
    tid = paid_payout(payout_api, api, merchant, fund)  # 537.30 BRL arrived
    first = api.post(f"/sandbox/payouts/{tid}/refund", {"amount": "100.00"}, expect=200)
    assert (first["status"], first["refunded_amount"]) == ("PARTIAL_REFUNDED", "100.00")
    assert first["refunded_id"].startswith("D")
    over = api.post(f"/sandbox/payouts/{tid}/refund", {"amount": "437.31"}, expect=400)
    assert over["sub_msg"] == "amount: must be between 0.01 and 437.30"
    last = api.post(f"/sandbox/payouts/{tid}/refund", expect=200)
    assert (last["status"], last["refunded_amount"]) == ("REFUNDED", "437.30")
    assert notifications(outbox, tid) == [
        ("PAID", None),
        ("PARTIAL_REFUNDED", "100.00"),
        ("PARTIAL_REFUNDED", "437.30"),
        ("REFUNDED", None),
    ]
    partial_bodies = [p for _, _, p in outbox(tid) if p["status"] == "PARTIAL_REFUNDED"]
    assert partial_bodies[0]["refunded_id"] == first["refunded_id"]
    detail = payout_api.post("/payout/detail", {"transaction_id": tid, "timestamp": builders.now_unix()}, expect=200)[
        "data"
    ]
    assert detail["transaction_status"] == "REFUNDED"


def test_full_refund_at_once_sends_only_refunded(payout_api, api, merchant, fund, outbox):
    tid = paid_payout(payout_api, api, merchant, fund)
    assert api.post(f"/sandbox/payouts/{tid}/refund", expect=200)["status"] == "REFUNDED"
    assert notifications(outbox, tid) == [("PAID", None), ("REFUNDED", None)]
    # The settled 100.00 comes back; fee and tax are not refunded.
    today = clock.now().date().isoformat()
    balance = payout_api.post(
        "/balance/history", {"start_date": today, "end_date": today, "timestamp": builders.now_unix()}, expect=200
    )["data"]
    assert balance[0]["balance"] == [{"currency": "USD", "amount": "998.62"}]


def test_refunds_only_where_the_bank_can(payout_api, api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    spei = payout_api.post("/payout", builders.spei_payout(), expect=200)["data"]["transaction_id"]
    cash = payout_api.post(
        "/payout",
        builders.payout(
            "cash",
            country="MEX",
            method="CASH",
            arrival_currency="MXN",
            account=...,
            account_type=...,
            document_id=...,
            document_type=...,
            phone="+5215512345678",
        ),
        expect=200,
    )["data"]["transaction_id"]
    unpaid = api.post(f"/sandbox/payouts/{spei}/refund", expect=400)
    assert unpaid["sub_msg"] == "payout is IN_PROCESSING; only a PAID payout can be refunded"
    api.post("/sandbox/clock", {"advance_seconds": 360}, expect=200)
    partial = api.post(f"/sandbox/payouts/{spei}/refund", {"amount": "1.00"}, expect=400)
    assert partial["sub_msg"] == "SPEI payouts in MEX are only refunded in full"
    assert api.post(f"/sandbox/payouts/{spei}/refund", expect=200)["status"] == "REFUNDED"
    never = api.post(f"/sandbox/payouts/{cash}/refund", expect=400)
    assert (never["sub_code"], never["sub_msg"]) == (
        "payout-status-invalid",
        "CASH payouts in MEX are not refunded by the bank",
    )


def test_qrcode_notifications_carry_the_exchange_fields(payout_api, api, merchant, fund, outbox):

    code = brcode.build(
        key=builders.EVP, amount=Decimal("537.30"), merchant_name="Loja", merchant_city="Rio", txid="QR1"
    )
    tid = paid_payout(
        payout_api,
        api,
        merchant,
        fund,
        method="QRCODE",
        account=code,
        account_type=...,
        amount="537.30",
        amount_type="arrival",
    )
    [(_, _, body)] = outbox(tid)
    assert body["transaction_id"] == tid and "payoutId" not in body
    assert (body["amount_in_arrival_currency"], body["arrival_currency"], body["exchange_rate"]) == (
        "537.30",
        "BRL",
        "5.373000",
    )


def test_qrcode_amount_must_match_the_code(payout_api, merchant, fund):

    fund(merchant, "USD", "1000.00")
    code = brcode.build(
        key=builders.EVP, amount=Decimal("10.00"), merchant_name="Loja", merchant_city="Rio", txid="QR1"
    )
    body = payout_api.post("/payout", builders.payout(method="QRCODE", account=code, account_type=...), expect=400)
    assert body["data"] == {"err": "amount: must make 10.00 BRL arrive, the amount the QR code asks for"}


def test_ledger_stays_balanced_through_random_histories(app, payout_api, api, merchant, fund):
    rng = random.Random(20261121)
    fund(merchant, "USD", "100000.00")
    live = []
    for step in range(60):
        action = rng.choice(["payout", "payout", "advance", "refund"])
        if action == "payout":
            rejected = rng.random() < 0.3
            key = {"account": "rejected@sandbox.test", "account_type": "EMAIL"} if rejected else {}
            body = builders.payout(
                f"r{step}",
                amount=f"{rng.randint(1, 50000) / 100:.2f}",
                fee_bear=rng.choice(["merchant", "beneficiary"]),
                **key,
            )
            answer = payout_api.post("/payout", body)
            if answer["code"] == 200:
                live.append(answer["data"]["transaction_id"])
        elif action == "advance":
            api.post("/sandbox/clock", {"advance_seconds": rng.choice([60, 300, 360])}, expect=200)
        elif live:
            tid = rng.choice(live)
            amount = rng.choice([None, "1.00", "5.55"])
            api.post(f"/sandbox/payouts/{tid}/refund", {"amount": amount} if amount else None)
    with app.app_context():
        merchant_row = find_by_app_id(db.session, merchant["app_id"])
        entries = select(func.coalesce(func.sum(ledger.LedgerEntry.amount_minor), 0)).where(
            ledger.LedgerEntry.merchant_id == merchant_row.id
        )
        assert db.session.scalar(entries) == 0
        payouts = db.session.scalars(select(Payout)).all()
        expected = 10000000
        for payout in payouts:
            if payout.status != "REJECTED":
                expected -= payout.source_minor
            expected += sum(r.source_minor for r in payout.refunds)
        assert ledger.balance(db.session, merchant_row, "USD") == expected
        assert ledger.balance(db.session, merchant_row, "USD", ledger.FEES) == sum(
            p.fee_minor for p in payouts if p.status != "REJECTED"
        )
        assert {p.status for p in payouts} >= {"PAID", "REJECTED"}


def test_racing_custom_code_creates_one_payout(app, merchant, fund):
    fund(merchant, "USD", "1000.00")
    barrier, answers = threading.Barrier(6), []

    def submit():
        client = PayoutApi(app.test_client(), merchant)
        barrier.wait()
        answers.append(client.post("/payout", builders.payout("race")))

    threads = [threading.Thread(target=submit) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(a["code"] for a in answers) == [200] + [4001010] * 5
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Payout)) == 1
        assert ledger.balance(db.session, find_by_app_id(db.session, merchant["app_id"]), "USD") == 100000 - 10138


def test_racing_payouts_never_overdraw(app, merchant, fund):
    fund(merchant, "USD", "250.00")
    barrier, answers = threading.Barrier(4), []

    def submit(i):
        client = PayoutApi(app.test_client(), merchant)
        barrier.wait()
        answers.append(client.post("/payout", builders.payout(f"od-{i}")))

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(a["code"] for a in answers) == [200, 200, 5001102, 5001102]
    with app.app_context():
        assert ledger.balance(db.session, find_by_app_id(db.session, merchant["app_id"]), "USD") == 25000 - 2 * 10138


def test_a_bank_round_and_a_refund_of_one_merchant_do_not_deadlock(app, api, payout_api, merchant, fund, monkeypatch):
    """One round of the sandbox bank posts for several payouts in one transaction (a PAID, then a
    reversal) while the recipient's bank refunds another payout of the same merchant (found by the soak)."""
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("row locks: SQLite runs one writer at a time")
    fund(merchant, "USD", "1000.00")
    paid = payout_api.post("/payout", builders.payout("paid"), expect=200)["data"]["transaction_id"]
    api.post("/sandbox/clock", {"advance_seconds": 360}, expect=200)
    payout_api.post("/payout", builders.payout("to-pay"), expect=200)
    payout_api.post("/payout", builders.payout("to-reject", email="rejected@sandbox.test"), expect=200)
    api.post("/sandbox/clock", {"advance_seconds": 60}, expect=200)
    clock.advance(300)  # both due now; the round below takes the steps, not a clock request
    refund: list = []
    refunding = threading.Thread(
        target=lambda: refund.append(
            Api(app.test_client(), merchant).post(f"/sandbox/payouts/{paid}/refund", {"amount": "100.00"})
        )
    )
    step = lifecycle.advance

    def first_step_then_a_refund(session, payout, now, bank):
        step(session, payout, now, bank)
        if not refunding.is_alive() and not refund:
            refunding.start()
            with db.engine.connect() as conn:  # until the refund waits for a lock this round holds
                for _ in range(100):
                    if conn.scalar(
                        text(
                            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                            "AND wait_event_type = 'Lock'"
                        )
                    ):
                        break
                    time.sleep(0.05)

    monkeypatch.setattr(lifecycle, "advance", first_step_then_a_refund)
    with app.app_context():
        assert lifecycle.advance_due(db.session, bank=wiring.payout_bank()) == 2
        db.session.commit()
    refunding.join(timeout=30)
    assert refund and refund[0]["code"] == "10000", refund
    assert [
        payout_api.post("/payout/status", {"custom_code": code}, expect=200)["data"]["status"]
        for code in ("paid", "to-pay", "to-reject")
    ] == ["PARTIAL_REFUNDED", "PAID", "REJECTED"]


def test_remark_follows_partial_refunds(payout_api, api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    tid = payout_api.post("/payout", builders.payout(), expect=200)["data"]["transaction_id"]
    api.post("/sandbox/clock", {"advance_seconds": 360}, expect=200)
    api.post(f"/sandbox/payouts/{tid}/refund", {"amount": "1.00"}, expect=200)
    status = payout_api.post("/payout/status", {"payout_id": tid}, expect=200)["data"]
    assert (status["status"], status["description"]) == ("PARTIAL_REFUNDED", "partly refunded by the recipient's bank")
