"""Payout statuses (table in the kernel), the steps a payout bank takes, refunds, and notifications."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from functools import partial

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session

from .. import clock, money
from ..errors import IllegalState, InvalidField
from ..jobs import Due, clock_scopes
from ..merchants.models import Merchant
from ..notifications.outbox import enqueue
from ..providers.base import PayoutBank
from ..statemachine import PAYOUT, Change, PayoutStatus
from . import corridors, ledger
from .models import Payout, PayoutRefund

IN_PROCESSING, PROCESSING, PAID = PayoutStatus.IN_PROCESSING, PayoutStatus.PROCESSING, PayoutStatus.PAID
REJECTED, REFUNDED = PayoutStatus.REJECTED, PayoutStatus.REFUNDED
PARTIAL_REFUNDED = PayoutStatus.PARTIAL_REFUNDED

NOTIFIED = {PAID, REJECTED, REFUNDED, PARTIAL_REFUNDED}
MESSAGES: dict[str, str] = {
    IN_PROCESSING: "in processing",
    PROCESSING: "processing by the bank",
    PAID: "success",
    REJECTED: "rejected by the beneficiary's bank",
    REFUNDED: "refunded by the recipient's bank",
    PARTIAL_REFUNDED: "partly refunded by the recipient's bank",
}


def notification(payout: Payout, status: str, at: datetime, msg: str, **extra) -> dict:
    """The body the merchant's notify_url receives (signed with the payout scheme when sent)."""
    id_key = "transaction_id" if (payout.country, payout.method) == ("BRA", "QRCODE") else "payoutId"
    body = {
        id_key: payout.transaction_id,
        "custom_code": payout.custom_code,
        "status": status,
        "msg": msg,
        "timestamp": clock.unix(at),
        **extra,
    }
    if id_key == "transaction_id":
        body.update(
            {
                "source_currency": payout.source_currency,
                "arrival_currency": payout.arrival_currency,
                "amount_in_arrival_currency": money.format_minor(payout.arrival_minor, payout.arrival_currency),
                "amount_in_source_currency": money.format_minor(payout.source_minor, payout.source_currency),
                "exchange_rate_id": f"FX{payout.transaction_id}",
                "exchange_rate": payout.exchange_rate,
            }
        )
    return body


def set_status(
    session: Session, payout: Payout, new: str, remark: str | None = None, *, at: datetime | None = None, **extra
) -> None:
    """The only place a payout's status changes; its notification is queued in the same transaction."""
    remark = remark or MESSAGES.get(new, payout.remark)
    PAYOUT.move(
        payout, new, reason=remark, at=at, changes={"remark": remark}, on_change=partial(_notify, session, extra)
    )


def _notify(session: Session, extra: dict, change: Change) -> None:
    payout = change.record
    if change.new not in NOTIFIED or not payout.notify_url:
        return
    enqueue(
        session,
        merchant_id=payout.merchant_id,
        kind="payout.notification",
        target=payout.notify_url,
        subject_id=payout.transaction_id,
        payload=notification(payout, change.new.value, change.at, change.reason or "", **extra),
    )


def _legs(payout: Payout, sign: int) -> list[tuple[str, int]]:
    return [
        (ledger.AVAILABLE, -sign * payout.source_minor),
        (ledger.IN_TRANSIT, sign * payout.settlement_minor),
        (ledger.FEES, sign * payout.fee_minor),
        (ledger.TAXES, sign * payout.tax_minor),
    ]


def debit(session: Session, merchant: Merchant, payout: Payout) -> None:
    ledger.post(session, merchant, payout.source_currency, "payout", _legs(payout, 1), payout.transaction_id)


def advance(session: Session, payout: Payout, now: datetime, bank: PayoutBank) -> None:
    """One step of the payout at its bank (IN_PROCESSING -> PROCESSING -> PAID or REJECTED) when the bank
    takes one; the status change and the ledger postings are made here, the bank only decides."""
    if payout.next_step_at is None:
        return  # a final payout: the bank has no step left to take
    step = bank.advance(payout.status, payout.sandbox_outcome, payout.next_step_at, payout.bank_number, now)
    if step is None:
        return
    merchant = session.get(Merchant, payout.merchant_id)
    assert merchant is not None  # foreign key
    set_status(session, payout, step.status, step.remark)
    payout.next_step_at = step.next_step_at
    if step.bank_reference is not None:
        payout.bank_id = step.bank_reference
    if step.status == PAID:
        ledger.post(
            session,
            merchant,
            payout.source_currency,
            "payout-paid",
            [(ledger.IN_TRANSIT, -payout.settlement_minor), (ledger.PAID_OUT, payout.settlement_minor)],
            payout.transaction_id,
        )
    elif step.status == REJECTED:
        ledger.post(
            session, merchant, payout.source_currency, "payout-reversal", _legs(payout, -1), payout.transaction_id
        )


def lock_merchants(session: Session, merchant_ids) -> None:
    """Hold these merchants' rows, in id order, until commit; the bank's steps and refunds post under it, as
    submissions do. A round of the bank posts for several payouts in one transaction, touching the
    merchant's ledger day rows in no fixed order: without the lock it deadlocks with a refund meeting it."""
    session.execute(
        select(Merchant.id).where(Merchant.id.in_(merchant_ids)).order_by(Merchant.id).with_for_update(key_share=True)
    )


def advance_due(
    session: Session,
    *,
    bank: PayoutBank,
    limit: int = 500,
    scope: ColumnElement[bool] | None = None,
) -> int:
    """Move every payout whose next step is due at `bank` on its merchant's sandbox clock; answers how many
    steps ran. Without `scope`, every clock with payouts due (checkout.jobs.clock_scopes); with one, only the
    payouts of that scope, on the current clock."""
    if scope is not None:
        now = clock.now()  # one `now` for the round: the merchants locked first are all it posts for
        due_now = _due(now, scope)
        lock_merchants(session, select(Payout.merchant_id).where(*due_now))
        return _advance_due_now(session, bank, limit, now, due_now)
    # Every clock's due merchants are locked together, in one id order, before any scope advances: scope by
    # scope, two workers whose caches place a merchant on different clocks would lock in crossing orders.
    rounds = []
    for merchant_id, each in clock_scopes(session, Payout.merchant_id, Due(_due_status, Payout.next_step_at)):
        with clock.merchant(merchant_id):
            now = clock.now()
        rounds.append((merchant_id, now, _due(now, each)))
    merchants: set[int] = set()
    for _, _, due_now in rounds:
        merchants.update(session.scalars(select(Payout.merchant_id).where(*due_now).distinct()))
    if not merchants:
        return 0
    lock_merchants(session, sorted(merchants))
    steps = 0
    for merchant_id, now, due_now in rounds:
        with clock.merchant(merchant_id):
            steps += _advance_due_now(session, bank, limit, now, (*due_now, Payout.merchant_id.in_(merchants)))
    return steps


_due_status = (Payout.status.in_((IN_PROCESSING, PROCESSING)),)


def _due(now: datetime, scope: ColumnElement[bool]) -> tuple:
    return (*_due_status, Payout.next_step_at <= now, scope)


def _advance_due_now(session: Session, bank: PayoutBank, limit: int, now: datetime, due_now: tuple) -> int:
    steps = 0
    while True:
        due = session.scalars(
            select(Payout)
            .where(*due_now)
            .order_by(Payout.next_step_at, Payout.id)
            .limit(limit)
            .with_for_update(skip_locked=True)
        ).all()
        if not due:
            return steps
        for payout in due:
            advance(session, payout, now, bank)
            steps += 1
        session.flush()


def _refundable_part(payout: Payout, amount: Decimal | None) -> tuple[int, int]:
    """(the part `amount` refunds, what was left to refund), in arrival minor units; refuses a payout its bank
    does not refund (or not in part) and an amount beyond what is left."""
    if payout.status not in (PAID, PARTIAL_REFUNDED):
        raise IllegalState(
            reason="payout-status-invalid", message=f"payout is {payout.status}; only a PAID payout can be refunded"
        )
    corridor = corridors.find(payout.country, payout.method, payout.channel)
    if corridor is None or not corridor.full_refunds:
        raise IllegalState(
            reason="payout-status-invalid",
            message=f"{payout.method} payouts in {payout.country} are not refunded by the bank",
        )
    remaining = payout.arrival_minor - sum(r.arrival_minor for r in payout.refunds)
    if amount is None:
        part = remaining
    else:
        try:
            part = money.to_minor(amount, payout.arrival_currency)
        except money.MoneyError as exc:
            raise InvalidField("amount", str(exc)) from None
    if not 0 < part <= remaining:
        raise InvalidField(
            "amount", f"must be between 0.01 and {money.format_minor(remaining, payout.arrival_currency)}"
        )
    if part < payout.arrival_minor and not corridor.partial_refunds:
        raise IllegalState(
            reason="payout-status-invalid",
            message=f"{payout.method} payouts in {payout.country} are only refunded in full",
        )
    return part, remaining


def refund(
    session: Session, merchant: Merchant, payout: Payout, amount: Decimal | None, bank: PayoutBank
) -> PayoutRefund:
    """The recipient's bank sends back `amount` (arrival currency; None: all that is left)."""
    part, remaining = _refundable_part(payout, amount)
    partial = part < payout.arrival_minor
    credited = sum(r.source_minor for r in payout.refunds)
    last = part == remaining
    # The merchant gets back the settled amount in proportion; the last part takes the remainder exactly.
    credit = payout.settlement_minor - credited if last else payout.settlement_minor * part // payout.arrival_minor
    lock_merchants(session, [payout.merchant_id])
    record = PayoutRefund(
        refunded_id=bank.refund(part),
        payout_id=payout.id,
        arrival_minor=part,
        source_minor=credit,
        created_at=clock.now(),
    )
    session.add(record)
    payout.refunds.append(record)
    ledger.post(
        session,
        merchant,
        payout.source_currency,
        "payout-refund",
        [(ledger.PAID_OUT, -credit), (ledger.AVAILABLE, credit)],
        record.refunded_id,
    )
    if partial:
        set_status(
            session,
            payout,
            PARTIAL_REFUNDED,
            None,
            refunded_id=record.refunded_id,
            refunded_amount=money.format_minor(part, payout.arrival_currency),
        )
    if last:
        set_status(session, payout, REFUNDED, "refunded by the recipient's bank")
    return record
