"""Payout statuses, their transition table, the sandbox bank's lifecycle, refunds, and notifications."""
from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import clock, money
from ..merchants.models import Merchant
from ..notifications.outbox import enqueue
from ..statemachine import StateMachine
from ..validation import FieldError
from . import ledger
from .models import Payout, PayoutRefund

IN_PROCESSING, PROCESSING, PAID = "IN_PROCESSING", "PROCESSING", "PAID"
REJECTED, REFUNDED, PARTIAL_REFUNDED = "REJECTED", "REFUNDED", "PARTIAL_REFUNDED"

PAYOUT = StateMachine("payout", {
    None: {IN_PROCESSING},
    IN_PROCESSING: {PROCESSING, REJECTED},
    PROCESSING: {PAID, REJECTED},
    PAID: {PARTIAL_REFUNDED, REFUNDED},
    PARTIAL_REFUNDED: {PARTIAL_REFUNDED, REFUNDED},
})

NOTIFIED = {PAID, REJECTED, REFUNDED, PARTIAL_REFUNDED}
MESSAGES = {PROCESSING: "processing by the bank", PAID: "success", REJECTED: "rejected by the beneficiary's bank",
            REFUNDED: "refunded by the recipient's bank", PARTIAL_REFUNDED: "partly refunded by the recipient's bank"}

# The seed's rules 2 and 3: where the recipient's bank can send money back, fully or in part.
FULL_REFUNDS = {("BRA", "PIX"), ("BRA", "BANKTRANSFER"), ("BRA", "QRCODE"), ("CHL", "BANKTRANSFER"),
                ("COL", "CASHOUT"), ("MEX", "SPEI"), ("GLOBAL", "WALLET:CHECKOUT")}
PARTIAL_REFUNDS = {("BRA", "PIX"), ("BRA", "BANKTRANSFER"), ("BRA", "QRCODE")}


class PayoutStateError(ValueError):
    pass


def _route(payout: Payout) -> tuple[str, str]:
    method = f"WALLET:{payout.channel}" if payout.method == "WALLET" else payout.method
    return payout.country, method


def notification(payout: Payout, status: str, at: datetime, msg: str, **extra) -> dict:
    """The body the merchant's notify_url receives (signed with the payout scheme when sent)."""
    id_key = "transaction_id" if (payout.country, payout.method) == ("BRA", "QRCODE") else "payoutId"
    body = {id_key: payout.transaction_id, "custom_code": payout.custom_code, "status": status,
            "msg": msg, "timestamp": clock.unix(at), **extra}
    if id_key == "transaction_id":
        body.update({
            "source_currency": payout.source_currency, "arrival_currency": payout.arrival_currency,
            "amount_in_arrival_currency": money.format_minor(payout.arrival_minor, payout.arrival_currency),
            "amount_in_source_currency": money.format_minor(payout.source_minor, payout.source_currency),
            "exchange_rate_id": f"FX{payout.transaction_id}", "exchange_rate": payout.exchange_rate})
    return body


def set_status(session: Session, payout: Payout, new: str, remark: str | None = None, **extra) -> None:
    """The only place a payout's status changes; its notification is queued in the same transaction."""
    PAYOUT.check(payout.status, new)
    now = clock.now()
    payout.status, payout.updated_at = new, now
    payout.remark = remark or MESSAGES.get(new, payout.remark)
    if new in NOTIFIED and payout.notify_url:
        enqueue(session, merchant_id=payout.merchant_id, kind="payout.notification", target=payout.notify_url,
                subject_id=payout.transaction_id,
                payload=notification(payout, new, now, payout.remark, **extra))


def _legs(payout: Payout, sign: int) -> list[tuple[str, int]]:
    return [(ledger.AVAILABLE, -sign * payout.source_minor), (ledger.IN_TRANSIT, sign * payout.settlement_minor),
            (ledger.FEES, sign * payout.fee_minor), (ledger.TAXES, sign * payout.tax_minor)]


def debit(session: Session, merchant: Merchant, payout: Payout) -> None:
    ledger.post(session, merchant, payout.source_currency, "payout", _legs(payout, 1), payout.transaction_id)


def _bank_reference(payout: Payout, at: datetime) -> str:
    """An end-to-end id shaped like the central bank's: E + ISPB + timestamp + 11 characters."""
    ispb = (payout.bank_number or "18236120").rjust(8, "0")[:8]
    return f"E{ispb}{clock.as_utc(at):%Y%m%d%H%M}{secrets.token_hex(6)[:11].upper()}"


def advance(session: Session, payout: Payout, now: datetime, decided_after: int) -> None:
    """One step of the sandbox bank: IN_PROCESSING -> PROCESSING -> PAID or REJECTED."""
    merchant = session.get(Merchant, payout.merchant_id)
    if payout.status == IN_PROCESSING:
        set_status(session, payout, PROCESSING)
        payout.next_step_at = clock.as_utc(payout.next_step_at) + timedelta(seconds=decided_after)
    elif payout.status == PROCESSING and payout.sandbox_outcome == PAID:
        set_status(session, payout, PAID, "paid")
        payout.next_step_at = None
        payout.bank_id = _bank_reference(payout, now)
        ledger.post(session, merchant, payout.source_currency, "payout-paid",
                    [(ledger.IN_TRANSIT, -payout.settlement_minor), (ledger.PAID_OUT, payout.settlement_minor)],
                    payout.transaction_id)
    elif payout.status == PROCESSING:
        set_status(session, payout, REJECTED, "rejected by the beneficiary's bank: account closed")
        payout.next_step_at = None
        ledger.post(session, merchant, payout.source_currency, "payout-reversal", _legs(payout, -1),
                    payout.transaction_id)


def lock_merchants(session: Session, merchant_ids) -> None:
    """Hold these merchants' rows, in id order, until commit; the bank's steps and refunds post under it, as
    submissions do. A round of the bank posts for several payouts in one transaction, touching the
    merchant's ledger day rows in no fixed order: without the lock it deadlocks with a refund meeting it."""
    session.execute(select(Merchant.id).where(Merchant.id.in_(merchant_ids)).order_by(Merchant.id)
                    .with_for_update(key_share=True))


def advance_due(session: Session, *, decided_after: int, limit: int = 500) -> int:
    """Move every payout whose next step is due on the sandbox clock; answers how many steps ran."""
    steps = 0
    # One `now` for the whole round, so that the merchants locked first are all the round will post for.
    now = clock.now()
    due_now = (Payout.status.in_((IN_PROCESSING, PROCESSING)), Payout.next_step_at <= now)
    lock_merchants(session, select(Payout.merchant_id).where(*due_now))
    while True:
        due = session.scalars(select(Payout).where(*due_now)
                              .order_by(Payout.next_step_at, Payout.id).limit(limit)
                              .with_for_update(skip_locked=True)).all()
        if not due:
            return steps
        for payout in due:
            advance(session, payout, now, decided_after)
            steps += 1
        session.flush()


def refund(session: Session, merchant: Merchant, payout: Payout, amount: Decimal | None) -> PayoutRefund:
    """The recipient's bank sends back `amount` (arrival currency; None: all that is left)."""
    if payout.status not in (PAID, PARTIAL_REFUNDED):
        raise PayoutStateError(f"payout is {payout.status}; only a PAID payout can be refunded")
    route = _route(payout)
    if route not in FULL_REFUNDS:
        raise PayoutStateError(f"{payout.method} payouts in {payout.country} are not refunded by the bank")
    refunded = sum(r.arrival_minor for r in payout.refunds)
    remaining = payout.arrival_minor - refunded
    if amount is None:
        part = remaining
    else:
        try:
            part = money.to_minor(amount, payout.arrival_currency)
        except money.MoneyError as exc:
            raise FieldError("amount", str(exc)) from None
    if not 0 < part <= remaining:
        raise FieldError("amount", f"must be between 0.01 and {money.format_minor(remaining, payout.arrival_currency)}")
    partial = part < payout.arrival_minor
    if partial and route not in PARTIAL_REFUNDS:
        raise PayoutStateError(f"{payout.method} payouts in {payout.country} are only refunded in full")
    credited = sum(r.source_minor for r in payout.refunds)
    last = part == remaining
    # The merchant gets back the settled amount in proportion; the last part takes the remainder exactly.
    credit = payout.settlement_minor - credited if last else payout.settlement_minor * part // payout.arrival_minor
    lock_merchants(session, [payout.merchant_id])
    record = PayoutRefund(refunded_id="D" + f"{secrets.randbelow(10**15):015d}", payout_id=payout.id,
                          arrival_minor=part, source_minor=credit, created_at=clock.now())
    session.add(record)
    payout.refunds.append(record)
    ledger.post(session, merchant, payout.source_currency, "payout-refund",
                [(ledger.PAID_OUT, -credit), (ledger.AVAILABLE, credit)], record.refunded_id)
    if partial:
        set_status(session, payout, PARTIAL_REFUNDED, None, refunded_id=record.refunded_id,
                   refunded_amount=money.format_minor(part, payout.arrival_currency))
    if last:
        set_status(session, payout, REFUNDED, "refunded by the recipient's bank")
    return record
