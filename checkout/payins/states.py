"""Trade and refund statuses (tables in the kernel), and the functions that change a trade's or refund's status."""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any

from sqlalchemy.orm import Session

from .. import clock, money
from ..merchants.models import Merchant
from ..notifications.outbox import enqueue
from ..statemachine import REFUND, TRADE, Change, RefundStatus, TradeStatus
from .models import Refund, Trade, TradeEvent

INITIAL = TradeStatus.INITIAL
PROCESSING = TradeStatus.PROCESSING
AUTHORIZED = TradeStatus.AUTHORIZED
REFUSED = TradeStatus.REFUSED
SUCCESS = TradeStatus.SUCCESS
EXPIRED = TradeStatus.EXPIRED
CANCEL = TradeStatus.CANCEL
REFUNDED = TradeStatus.REFUNDED

# Why a trade ended without money taken: kept on the trade and said in its callback.
ENDED_UNPAID = frozenset({REFUSED, EXPIRED, CANCEL})

# Paid, with part of the amount perhaps already paid back: what a refund may start from.
PAID = frozenset({SUCCESS, REFUNDED})

# A callback reports an outcome, as the provider notifies by default: not INITIAL, and not PROCESSING
# (a trade created PROCESSING is answered by the request that created it; its callback comes with the
# outcome).
CALLBACK_STATUSES = frozenset(TradeStatus) - {INITIAL, PROCESSING}

REFUND_PROCESSING = RefundStatus.PROCESSING
REFUND_SUCCESS = RefundStatus.SUCCESS
REFUND_FAILED = RefundStatus.FAILED


def set_status(session: Session, trade: Trade, new: str, reason: str | None = None, **extra) -> None:
    """Move a trade to `new` (raises IllegalTransition), record the step in its history and queue the
    merchant's callback in the same transaction; `extra` joins the callback's body."""
    TRADE.move(
        trade,
        new,
        reason=reason,
        changes={"failure_reason": reason} if new in ENDED_UNPAID else None,
        history=_record_event,
        on_change=partial(_queue_callback, session, extra),
    )


def _record_event(change: Change) -> None:
    trade = change.record
    # A trade in the session takes its new event along (the relationship's save-update cascade); a new
    # trade is written with its events by payins.trades.
    trade.events.append(TradeEvent(from_status=change.old, to_status=change.new, reason=change.reason, at=change.at))


def _user(trade: Trade) -> dict[str, Any]:
    """The payer as the provider's callbacks describe it, from what the merchant told us ("" where unknown)."""
    details = trade.details or {}
    customer = details.get("customer") or {}
    identify = customer.get("identify") or {}
    return {
        "buyer_id": trade.buyer_id or "",
        "identify": {"type": identify.get("type", ""), "number": identify.get("number", "")},
        "username": customer.get("name", ""),
        "phone": customer.get("phone", ""),
        "email": customer.get("email", ""),
        "ip": details.get("user_ip") or "",
    }


def _queue_callback(session: Session, extra: dict, change: Change) -> None:
    """The merchant's callback for the trade's new status (sent later by the worker), in the provider's
    shape: its documented fields and types first (strings; `timestamp` is unix seconds as a string, as
    in its example), then ours (`order_amount`, `reason`, the refund's figures)."""
    if change.new not in CALLBACK_STATUSES:
        return
    trade = change.record
    with session.no_autoflush:  # a new trade and its event are flushed together, by the caller
        merchant = session.get(Merchant, trade.merchant_id)
    assert merchant is not None  # foreign key
    amount = money.format_minor(trade.amount_minor, trade.currency)
    payload: dict[str, Any] = {
        "app_id": merchant.app_id,
        "trade_no": trade.trade_no,
        "out_trade_no": trade.out_trade_no,
        "out_request_no": extra.get("out_request_no") or "",
        "trade_status": change.new.value,
        "amount": amount,
        "currency": trade.currency,
        "method": trade.method,
        "channel": trade.channel or "",
        "timestamp": str(clock.unix(change.at)),
        "user": _user(trade),
        "order_amount": amount,
        "order_currency": trade.currency,
    }
    if change.reason and change.new in ENDED_UNPAID:
        payload["reason"] = change.reason
    enqueue(
        session,
        merchant_id=trade.merchant_id,
        kind="payin.callback",
        target=trade.notify_url,
        subject_id=trade.trade_no,
        payload={**payload, **{key: value for key, value in extra.items() if key != "out_request_no"}},
    )


def set_refund_status(refund: Refund, new: str, at: datetime | None = None) -> None:
    """Move a refund to `new` (raises IllegalTransition). It keeps no history and sends nothing of its
    own: the trade's callback reports it, and its bank-data e-mail follows that callback."""
    REFUND.move(refund, new, at=at)
