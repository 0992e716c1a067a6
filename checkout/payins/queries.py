"""Reading a trade for /trade/query: its read model (frozen dataclasses), the one statement that fills it,
and the answer built from it."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, select
from sqlalchemy.orm import Session

from .. import clock, money
from ..db import driver_rows
from ..errors import MissingField, NotFound
from ..merchants.models import Merchant
from . import states
from .methods import refundability
from .models import Refund, Trade, TradeEvent


@dataclass(frozen=True)
class StatusChange:
    from_status: str | None
    to_status: str
    reason: str | None
    at: datetime


@dataclass(frozen=True)
class RefundLine:
    refund_no: str
    out_request_no: str | None
    amount_minor: int
    currency: str
    status: str
    created_at: datetime


@dataclass(frozen=True)
class TradeView:
    """A trade as a query sees it: its own columns, its status history and its refunds, in id order."""

    trade_no: str
    out_trade_no: str
    prepay_id: str | None
    method: str
    channel: str | None
    status: str
    amount_minor: int
    currency: str
    subject: str
    buyer_id: str
    scheduled_date: date | None
    expires_at: datetime | None
    details: dict[str, Any]
    failure_reason: str | None
    created_at: datetime
    updated_at: datetime
    events: tuple[StatusChange, ...]
    refunds: tuple[RefundLine, ...]


_TRADES, _EVENTS, _REFUNDS = (cast(Table, model.__table__) for model in (Trade, TradeEvent, Refund))
# The read model's columns, by the name its dataclass gives them (its nested parts aside).
_TRADE_FIELDS = tuple(name for name in TradeView.__dataclass_fields__ if name not in ("events", "refunds"))
_EVENT_FIELDS = tuple(StatusChange.__dataclass_fields__)
_REFUND_FIELDS = tuple(RefundLine.__dataclass_fields__)


@functools.cache
def _read_statement(by_trade_no: bool, by_out_trade_no: bool):
    """The trade joined to its history and its refunds: one round trip, a row per (event, refund) pair.
    Built once per shape (constructing a statement costs about as much as running it)."""
    query = (
        select(
            *(_TRADES.c[name] for name in _TRADE_FIELDS),
            _EVENTS.c.id.label("event_id"),
            *(_EVENTS.c[name].label(f"event_{name}") for name in _EVENT_FIELDS),
            _REFUNDS.c.id.label("refund_id"),
            *(_REFUNDS.c[name].label(f"refund_{name}") for name in _REFUND_FIELDS),
        )
        .select_from(
            _TRADES.outerjoin(_EVENTS, _EVENTS.c.trade_id == _TRADES.c.id).outerjoin(
                _REFUNDS, _REFUNDS.c.trade_id == _TRADES.c.id
            )
        )
        .where(_TRADES.c.merchant_id == bindparam("merchant_id"))
    )
    if by_trade_no:
        query = query.where(_TRADES.c.trade_no == bindparam("trade_no"))
    if by_out_trade_no:
        query = query.where(_TRADES.c.out_trade_no == bindparam("out_trade_no"))
    return query.order_by(_EVENTS.c.id, _REFUNDS.c.id)


# Where each part of the joined row sits: the trade's columns, then each child's id and columns.
_EVENT_AT = len(_TRADE_FIELDS)
_REFUND_AT = _EVENT_AT + 1 + len(_EVENT_FIELDS)


def _children(rows: Sequence[tuple], at: int, width: int) -> dict[int, tuple[Any, ...]]:
    """The distinct events or refunds of the joined rows (their id at `at`, then `width` columns), by id."""
    seen: dict[int, tuple[Any, ...]] = {}
    for row in rows:
        key = row[at]
        if key is not None and key not in seen:
            seen[key] = row[at + 1 : at + 1 + width]
    return seen


def read(
    session: Session, merchant: Merchant, *, trade_no: str | None = None, out_trade_no: str | None = None
) -> TradeView:
    """The merchant's trade with its status history and refunds, for answering a query.

    One statement run on the driver (`driver_rows`) and no ORM loading: nothing here is changed, and
    building entities, or even SQLAlchemy's result rows, would cost more than the statement
    (docs/benchmarks.md)."""
    if not trade_no and not out_trade_no:
        raise MissingField("trade_no or out_trade_no")
    rows = driver_rows(
        session,
        _read_statement(bool(trade_no), bool(out_trade_no)),
        {"merchant_id": merchant.id, "trade_no": trade_no, "out_trade_no": out_trade_no},
    )
    if not rows:
        raise NotFound(reason="trade-not-exist", message="trade does not exist")
    events = _children(rows, _EVENT_AT, len(_EVENT_FIELDS))
    refunds = _children(rows, _REFUND_AT, len(_REFUND_FIELDS))
    return TradeView(
        **dict(zip(_TRADE_FIELDS, rows[0], strict=False)),
        events=tuple(StatusChange(*events[key]) for key in sorted(events)),
        refunds=tuple(RefundLine(*refunds[key]) for key in sorted(refunds)),
    )


def _customer(given: dict) -> dict:
    """The payer as the provider's query answers it, "" for what is not known (a card or vault trade, a
    checkout the customer has not completed); `name` is ours."""
    identify = given.get("identify") or {}
    return {
        "identify": {"number": identify.get("number") or "", "type": identify.get("type") or ""},
        "email": given.get("email") or "",
        "phone": given.get("phone") or "",
        "name": given.get("name") or "",
    }


def describe(trade: TradeView) -> dict:
    """The trade as /trade/query answers it: amounts, status history, refunds."""
    currency = trade.currency
    refunded = sum(r.amount_minor for r in trade.refunds if r.status != states.REFUND_FAILED)
    # What a refund could still take: nothing unless paid, and nothing where the method takes no refund.
    paid = trade.status in states.PAID and refundability.of(trade.method, trade.channel, currency).allowed
    body = {
        # The provider's fields first, in its example's order; ours follow.
        "trade_no": trade.trade_no,
        "out_trade_no": trade.out_trade_no,
        "trade_status": trade.status,
        "order_currency": currency,
        "order_amount": money.format_minor(trade.amount_minor, currency),
        "customer": _customer(trade.details.get("customer") or {}),
        "refuse_detail": (trade.failure_reason or "") if trade.status == states.REFUSED else "",
        "create_time": clock.format_utc(trade.created_at),
        "update_time": clock.format_utc(trade.updated_at),
        "prepay_id": trade.prepay_id,
        "method": trade.method,
        "refunded_amount": money.format_minor(refunded, currency),
        "refundable_amount": money.format_minor(trade.amount_minor - refunded if paid else 0, currency),
        "subject": trade.subject,
        "buyer_id": trade.buyer_id,
        "status_history": [
            {
                "from_status": e.from_status,
                "trade_status": e.to_status,
                "reason": e.reason,
                "time": clock.format_utc(e.at),
            }
            for e in trade.events
        ],
        "refunds": [
            {
                "refund_no": r.refund_no,
                "out_request_no": r.out_request_no,
                "refund_amount": money.format_minor(r.amount_minor, r.currency),
                "refund_currency": r.currency,
                "refund_status": r.status,
                "create_time": clock.format_utc(r.created_at),
            }
            for r in trade.refunds
        ],
    }
    optional = {
        "channel": trade.channel,
        "failure_reason": trade.failure_reason,
        "scheduled_date": trade.scheduled_date.isoformat() if trade.scheduled_date else None,
        "expire_time": clock.format_utc(trade.expires_at) if trade.expires_at else None,
        # A capture of part of a pre-authorization: the trade is worth what was taken, of this much.
        "authorized_amount": (
            money.format_minor(trade.details["authorized_minor"], currency)
            if "authorized_minor" in trade.details
            else None
        ),
    }
    body.update({k: v for k, v in optional.items() if v is not None})
    body.update(trade.details.get("response", {}))
    return body
