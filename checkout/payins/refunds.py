"""Refunds of paid trades: limits, idempotency by out_request_no, and the bank-data e-mail."""

from __future__ import annotations

import secrets
from typing import cast

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .. import clock, money
from ..errors import Duplicate, IllegalState, InvalidField, MissingField
from ..merchants.models import Merchant
from ..notifications.outbox import enqueue
from . import methods, states
from .methods import refundability
from .models import Refund, Trade
from .schemas import RefundOrder
from .trades import change_status, find


def _refunded_minor(session: Session, trade: Trade) -> int:
    total = session.scalar(
        select(func.coalesce(func.sum(Refund.amount_minor), 0)).where(
            Refund.trade_id == trade.id, Refund.status != states.REFUND_FAILED
        )
    )
    return int(cast(int, total))  # coalesce: never NULL


def _require_user_info(req: RefundOrder, method: str) -> None:
    info = req.user_info
    required = {
        "user_info.identify.number": info and info.identify and info.identify.number,
        "user_info.name": info and info.name,
        "user_info.email": info and info.email,
    }
    for name, value in required.items():
        if not value:
            raise MissingField(f"{name} (required to refund a {method} payment)")


def _existing(session: Session, trade: Trade, req: RefundOrder, amount_minor: int) -> Refund | None:
    if not req.out_request_no:
        return None
    refund = session.scalar(
        select(Refund).where(Refund.trade_id == trade.id, Refund.out_request_no == req.out_request_no)
    )
    if refund is not None and (refund.amount_minor != amount_minor or refund.currency != req.refund_currency):
        raise InvalidField(
            "out_request_no",
            "already used for a refund of "
            f"{money.format_minor(refund.amount_minor, refund.currency)} {refund.currency}",
        )
    return refund


def refund(session: Session, merchant: Merchant, req: RefundOrder) -> tuple[Trade, Refund]:
    """Refund all or part of a paid trade; repeating an out_request_no answers the same refund."""
    trade = find(session, merchant, trade_no=req.trade_no, out_trade_no=req.out_trade_no)
    if req.refund_currency != trade.currency:
        raise InvalidField("refund_currency", f"must be the trade's currency, {trade.currency}")
    try:
        amount_minor = money.to_minor(req.refund_amount, trade.currency)
    except money.MoneyError as exc:
        raise InvalidField("refund_amount", str(exc)) from None
    existing = _existing(session, trade, req, amount_minor)
    if existing is not None:
        return trade, existing
    refundable = _refundable(session, trade, req, amount_minor)
    needs_bank = methods.refund_needs_bank_data(trade)
    if needs_bank:
        _require_user_info(req, trade.method)
    awaiting_bank_data = needs_bank and (req.bank_info is None or req.bank_info.is_empty())
    now = clock.now()
    record = Refund(
        refund_no="rf_" + secrets.token_hex(12),
        trade_id=trade.id,
        out_request_no=req.out_request_no,
        amount_minor=amount_minor,
        currency=trade.currency,
        reason=req.refund_reason,
        user_info=req.user_info.model_dump(exclude_none=True) if req.user_info else {},
        bank_info=req.bank_info.model_dump(exclude_none=True) if req.bank_info else {},
        created_at=now,
    )
    states.set_refund_status(record, states.REFUND_PROCESSING if awaiting_bank_data else states.REFUND_SUCCESS, now)
    try:
        with session.begin_nested():
            session.add(record)
            session.flush()
    except IntegrityError:
        # Only a racing request with the same out_request_no gets here (the trade row is locked).
        raise Duplicate(reason="duplicate-out_request_no", message="out_request_no is being processed; retry") from None
    # REFUNDED after a partial refund too, as the provider reports it; the figures tell them apart.
    change_status(
        session,
        trade,
        states.REFUNDED,
        refund_no=record.refund_no,
        out_request_no=record.out_request_no,
        refund_amount=money.format_minor(amount_minor, trade.currency),
        refund_status=record.status,
        refunded_amount=money.format_minor(trade.amount_minor - refundable + amount_minor, trade.currency),
        refundable_amount=money.format_minor(refundable - amount_minor, trade.currency),
    )
    if awaiting_bank_data:
        _ask_bank_data(session, merchant, trade, record, req)
    return trade, record


def _refundable(session: Session, trade: Trade, req: RefundOrder, amount_minor: int) -> int:
    """What is left to refund of the trade, once this refund is known to be one its method, status and
    remaining amount allow; else the refusal."""
    if trade.status not in states.PAID:
        raise IllegalState(
            reason="trade-status-invalid", message=f"trade is {trade.status}; only a paid trade can be refunded"
        )
    rule = refundability.of(trade.method, trade.channel, trade.currency)
    named = f" ({trade.channel})" if trade.channel and trade.channel != trade.method else ""  # not AlipayPlus's own
    what = f"{trade.method}{named} payments in {trade.currency}"
    if not rule.allowed:
        raise IllegalState(reason="refund-not-supported", message=f"{what} cannot be refunded")
    if not rule.partial and amount_minor != trade.amount_minor:
        raise IllegalState(reason="refund-not-supported", message=f"{what} are refunded only in full")
    refundable = trade.amount_minor - _refunded_minor(session, trade)
    if amount_minor > refundable:
        raise IllegalState(
            reason="refund-amount-exceeded",
            message=f"refund_amount exceeds the refundable amount, "
            f"{money.format_minor(refundable, trade.currency)} {trade.currency}",
        )
    if amount_minor < trade.amount_minor and not req.out_request_no:
        raise MissingField("out_request_no (required for a partial refund)")
    return refundable


def _ask_bank_data(session: Session, merchant: Merchant, trade: Trade, record: Refund, req: RefundOrder) -> None:
    """The e-mail asking the customer for the bank account the refund is paid to (its method cannot pay it back)."""
    assert req.user_info is not None and req.user_info.email is not None  # _require_user_info()
    enqueue(
        session,
        merchant_id=merchant.id,
        kind="refund.email",
        target=req.user_info.email,
        subject_id=record.refund_no,
        payload={
            "template": "refund-bank-data",
            "merchant": merchant.name,
            "trade_no": trade.trade_no,
            "refund_no": record.refund_no,
            "refund_amount": money.format_minor(record.amount_minor, trade.currency),
            "refund_currency": trade.currency,
            "name": req.user_info.name,
        },
    )
