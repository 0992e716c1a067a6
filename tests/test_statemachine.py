"""Every status machine: its wire values, every legal and illegal move, and what each model's move writes."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest
from sqlalchemy import insert, select

from checkout import clock, statemachine
from checkout.merchants import service as merchants
from checkout.notifications import recording
from checkout.notifications.models import DeliveryAttempt, OutboxMessage
from checkout.notifications.outbox import enqueue
from checkout.notifications.outbox import set_status as set_message_status
from checkout.notifications.result import Result
from checkout.payins import states
from checkout.payins.models import Refund, Trade
from checkout.payouts import lifecycle, sessions
from checkout.payouts.models import CheckoutSession, Payout
from checkout.statemachine import IllegalTransition
from checkout.vaults import service as vaults
from checkout.vaults.models import Vault

# Written out here rather than read from the kernel, so that a changed table or a renamed wire value
# shows up as a failing test: (statuses in order, legal moves from each status; None: creation).
EXPECTED = {
    "trade": (
        ["INITIAL", "PROCESSING", "AUTHORIZED", "REFUSED", "SUCCESS", "EXPIRED", "CANCEL", "REFUNDED"],
        {
            None: {"INITIAL", "AUTHORIZED", "REFUSED", "PROCESSING"},
            "INITIAL": {"INITIAL", "PROCESSING", "EXPIRED"},
            "PROCESSING": {"SUCCESS", "REFUSED", "EXPIRED", "CANCEL"},
            "AUTHORIZED": {"SUCCESS", "CANCEL"},
            "SUCCESS": {"REFUNDED"},
            "REFUNDED": {"REFUNDED"},
        },
    ),
    "refund": (["PROCESSING", "SUCCESS", "FAILED"], {None: {"PROCESSING", "SUCCESS"}}),
    "vault": (
        ["PENDING", "ACTIVE", "DECLINED", "VOIDED", "EXPIRED"],
        {None: {"PENDING"}, "PENDING": {"ACTIVE", "DECLINED", "VOIDED", "EXPIRED"}, "ACTIVE": {"VOIDED"}},
    ),
    "payout": (
        ["IN_PROCESSING", "PROCESSING", "PAID", "REJECTED", "REFUNDED", "PARTIAL_REFUNDED"],
        {
            None: {"IN_PROCESSING"},
            "IN_PROCESSING": {"PROCESSING", "REJECTED"},
            "PROCESSING": {"PAID", "REJECTED"},
            "PAID": {"PARTIAL_REFUNDED", "REFUNDED"},
            "PARTIAL_REFUNDED": {"PARTIAL_REFUNDED", "REFUNDED"},
        },
    ),
    "payout checkout session": (
        ["OPEN", "COMPLETED", "EXPIRED"],
        {None: {"OPEN"}, "OPEN": {"COMPLETED", "EXPIRED"}},
    ),
    "virtual SPEI account": (["ACTIVE", "CANCELED"], {None: {"ACTIVE"}, "ACTIVE": {"CANCELED"}}),
    "outbox message": (
        ["pending", "delivered", "failed", "skipped"],
        {
            None: {"pending"},
            "pending": {"delivered", "failed", "skipped"},
            "delivered": {"delivered", "failed", "skipped", "pending"},
            "failed": {"delivered", "failed", "skipped", "pending"},
            "skipped": {"delivered", "failed", "skipped", "pending"},
        },
    ),
}


def test_every_model_has_a_machine_and_keeps_its_wire_values():
    assert {m.name: [s.value for s in m.statuses] for m in statemachine.MACHINES} == {
        name: statuses for name, (statuses, _) in EXPECTED.items()
    }


def _pairs():
    for machine in statemachine.MACHINES:
        statuses, legal = EXPECTED[machine.name]
        for old in [None, *statuses]:
            for new in statuses:
                yield pytest.param(
                    machine, old, new, new in legal.get(old, set()), id=f"{machine.name}:{old or '(new)'}->{new}"
                )


@pytest.mark.parametrize(("machine", "old", "new", "legal"), list(_pairs()))
def test_every_pair_is_allowed_exactly_when_the_table_lists_it(machine, old, new, legal):
    record = SimpleNamespace(status=old, updated_at=None)
    calls = []
    hooks = {"history": calls.append, "on_change": calls.append}
    assert machine.can(old, new) is legal
    if legal:
        change = machine.move(record, new, reason="why", **hooks)
        assert (record.status, type(record.status)) == (new, str)
        assert (change.old, change.new, change.reason) == (old, new, "why")
        assert calls == [change, change]
        if machine.stamp is not None:
            assert record.updated_at == change.at
    else:
        with pytest.raises(IllegalTransition):
            machine.move(record, new, reason="why", **hooks)
        assert (record.status, record.updated_at, calls) == (old, None, [])


def test_an_unknown_status_is_an_illegal_move():
    record = SimpleNamespace(status="PROCESSING", updated_at=None)
    with pytest.raises(IllegalTransition):
        statemachine.TRADE.move(record, "PAID")
    record.status = "NO_SUCH_STATUS"
    with pytest.raises(IllegalTransition):
        statemachine.TRADE.move(record, "SUCCESS")


def _queued(session) -> list[tuple[str, str, dict]]:
    """The outbox rows the moves queued in this transaction, as (kind, subject_id, payload)."""
    messages = sorted((m for m in session.new if isinstance(m, OutboxMessage)), key=lambda m: m.payload["timestamp"])
    return [(m.kind, m.subject_id, m.payload) for m in messages]


@pytest.fixture
def shop(session):
    merchant = merchants.create(session, name="Loja")
    session.commit()  # the sandbox clock is moved on a connection of its own
    return merchant


def _trade(shop, **fields) -> Trade:
    return Trade(
        trade_no="T1",
        out_trade_no="o1",
        merchant_id=shop.id,
        buyer_id="buyer-1",
        method="Boleto",
        amount_minor=10000,
        currency="BRL",
        notify_url="http://shop.example/notify",
        **fields,
    )


def test_a_trade_move_records_history_and_queues_its_callback(session, shop):
    trade = _trade(shop)
    states.set_status(session, trade, states.PROCESSING)
    assert _queued(session) == []  # a PROCESSING trade is answered by the request that created it
    clock.advance(60)
    states.set_status(session, trade, states.SUCCESS, "paid by the customer")
    clock.advance(60)
    states.set_status(session, trade, states.REFUNDED, refund_no="rf_1", refund_status="PROCESSING")
    assert [(e.from_status, e.to_status, e.reason) for e in trade.events] == [
        (None, "PROCESSING", None),
        ("PROCESSING", "SUCCESS", "paid by the customer"),
        ("SUCCESS", "REFUNDED", None),
    ]
    assert trade.updated_at == trade.events[-1].at
    queued = _queued(session)
    assert [(kind, subject, payload["trade_status"]) for kind, subject, payload in queued] == [
        ("payin.callback", "T1", "SUCCESS"),
        ("payin.callback", "T1", "REFUNDED"),
    ]
    assert (queued[1][2]["refund_no"], queued[1][2]["refund_status"]) == ("rf_1", "PROCESSING")
    with pytest.raises(IllegalTransition):
        states.set_status(session, trade, states.EXPIRED, "too late")
    assert (trade.status, len(trade.events), len(_queued(session))) == ("REFUNDED", 3, 2)


def test_a_refused_trade_keeps_its_reason_and_says_it_in_the_callback(session, shop):
    trade = _trade(shop)
    states.set_status(session, trade, states.REFUSED, "insufficient funds")
    assert trade.failure_reason == "insufficient funds"
    [(kind, subject, payload)] = _queued(session)
    assert (kind, subject, payload["trade_status"], payload["reason"]) == (
        "payin.callback",
        "T1",
        "REFUSED",
        "insufficient funds",
    )
    # The provider's documented fields, with its types (strings, unix seconds as text), then ours.
    documented = [key for key in payload if key != "notify_id"][:11]
    assert {key: payload[key] for key in documented} == {
        "app_id": shop.app_id,
        "trade_no": "T1",
        "out_trade_no": "o1",
        "out_request_no": "",
        "trade_status": "REFUSED",
        "amount": "100.00",
        "currency": "BRL",
        "method": "Boleto",
        "channel": "",
        "timestamp": str(clock.unix(trade.updated_at)),
        "user": {
            "buyer_id": "buyer-1",
            "identify": {"type": "", "number": ""},
            "username": "",
            "phone": "",
            "email": "",
            "ip": "",
        },
    }


def test_a_refund_move_stamps_it_and_queues_nothing_of_its_own(session):
    refund = Refund(refund_no="rf_1", trade_id=1, amount_minor=100, currency="BRL")
    now = clock.now()
    states.set_refund_status(refund, states.REFUND_PROCESSING, now)
    assert (refund.status, refund.updated_at) == ("PROCESSING", now)
    with pytest.raises(IllegalTransition):  # nothing settles a waiting refund yet
        states.set_refund_status(refund, states.REFUND_SUCCESS)
    assert _queued(session) == []


def test_a_vault_move_queues_its_callback_except_on_creation(session):
    vault = Vault(token="vt_1", merchant_id=1, type="Card", uid="u1", notify_url="http://shop.example/vault")
    vaults.set_status(session, vault, vaults.PENDING)
    assert _queued(session) == []
    clock.advance(60)
    vaults.set_status(session, vault, vaults.ACTIVE)
    assert vault.activated_at == vault.updated_at
    clock.advance(60)
    vaults.set_status(session, vault, vaults.VOIDED, "voided by the merchant")
    assert [(kind, subject, p["vault_status"], p["reason"]) for kind, subject, p in _queued(session)] == [
        ("vault.callback", "vt_1", "ACTIVE", None),
        ("vault.callback", "vt_1", "VOIDED", "voided by the merchant"),
    ]
    with pytest.raises(IllegalTransition):
        vaults.set_status(session, vault, vaults.ACTIVE)


def test_a_payout_move_keeps_its_remark_and_notifies_the_final_statuses(session):
    payout = Payout(
        transaction_id="TS1",
        custom_code="c1",
        merchant_id=1,
        country="BRA",
        method="PIX",
        notify_url="http://shop.example/payout",
    )
    lifecycle.set_status(session, payout, lifecycle.IN_PROCESSING)
    assert payout.remark == "in processing"
    clock.advance(60)
    lifecycle.set_status(session, payout, lifecycle.PROCESSING)
    clock.advance(60)
    lifecycle.set_status(session, payout, lifecycle.PAID, "paid")
    assert (payout.status, payout.remark) == ("PAID", "paid")
    assert [(kind, subject, p["status"], p["msg"], p["timestamp"]) for kind, subject, p in _queued(session)] == [
        ("payout.notification", "TS1", "PAID", "paid", clock.unix(payout.updated_at))
    ]
    with pytest.raises(IllegalTransition):
        lifecycle.set_status(session, payout, lifecycle.REJECTED)


def test_a_checkout_session_opens_then_completes_with_its_payout(session):
    record = CheckoutSession(session_id="cs_1")
    sessions.set_status(record, sessions.OPEN)
    sessions.set_status(record, sessions.COMPLETED, payout_id=7)
    assert (record.status, record.payout_id) == ("COMPLETED", 7)
    with pytest.raises(IllegalTransition):
        sessions.set_status(record, sessions.EXPIRED)
    assert _queued(session) == []


def test_an_outbox_message_moves_as_the_dispatcher_records_attempts(session, merchant):
    owner = merchants.find_by_app_id(session, merchant["app_id"]).id
    message = enqueue(session, merchant_id=owner, kind="payin.callback", target="http://x", subject_id="T1", payload={})
    session.flush()  # as every message the dispatcher records was stored first
    assert message.status == "pending"
    at = clock.now()
    attempts = []

    def apply(result, manual):  # as record_all does: the attempt's row inserted beside the message
        attempts.append(recording.apply(session, message, result, manual=manual))
        session.execute(insert(DeliveryAttempt), attempts[-1:])

    apply(Result(succeeded=False, error="refused", started_at=at), manual=False)
    # A retry is no move: still pending, due on the schedule.
    assert (message.status, message.next_attempt_at) == ("pending", at + timedelta(minutes=10))
    apply(Result(succeeded=True, status_code=200, started_at=at), manual=False)
    assert (message.status, message.delivered_at) == ("delivered", at)
    # A resend may take a delivered message; what it gets back decides again.
    apply(Result(succeeded=False, final=True, started_at=at), manual=True)
    assert message.status == "failed"
    set_message_status(message, "pending")  # a resend asked for in a request queues it again
    with pytest.raises(IllegalTransition):  # a retry is no move
        set_message_status(message, "pending")
    session.flush()
    assert [(a.number, a.succeeded, a.manual) for a in session.scalars(select(DeliveryAttempt))] == [
        (1, False, False),
        (2, True, False),
        (3, False, True),
    ]
