"""A trade's rows: writing a new one (by a fast path), finding one to change, and changing its status."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from decimal import Decimal
from typing import Protocol, cast

from sqlalchemy import CursorResult, Table, bindparam, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value

from .. import clock, money
from ..db import peek
from ..errors import Duplicate, IllegalState, InvalidField, MissingField, NotFound
from ..merchants.models import Merchant
from ..providers.base import Decision
from . import methods, states
from .models import Trade, TradeEvent


class Order(Protocol):
    """What a new trade takes from the order that makes it: a payin command, or a bank's transfer."""

    @property
    def out_trade_no(self) -> str: ...
    @property
    def order_amount(self) -> Decimal: ...
    @property
    def order_currency(self) -> str: ...
    @property
    def subject(self) -> str: ...
    @property
    def content(self) -> str | None: ...
    @property
    def buyer_id(self) -> str: ...
    @property
    def notify_url(self) -> str: ...
    @property
    def return_url(self) -> str | None: ...


# Trades the customer pays through a method: direct payments, and hosted checkouts once a method is chosen.
CUSTOMER_KINDS = ("direct", "checkout")
# In a trade's details: it ends CANCEL, not EXPIRED, when unpaid at expires_at (its cancellation_express).
CANCEL_WHEN_UNPAID = "cancel_when_unpaid"


def new_trade(
    session: Session,
    merchant: Merchant,
    order: Order,
    *,
    kind: str,
    method: str,
    status: str,
    reason: str | None = None,
    now=None,
    prepare: Callable[[Trade], dict] | None = None,
    **extra,
) -> Trade:
    """Insert a trade under the merchant's unique out_trade_no; a repeat (even a racing one) is refused.

    `prepare` answers the trade's details from the trade itself before it is written, so that the row
    is inserted once, complete, rather than inserted and then updated.
    """
    amount_minor = order_minor(order.order_amount, order.order_currency)
    now = now or clock.now()
    trade = Trade(
        trade_no=f"{now:%Y%m%d%H%M%S}{secrets.randbelow(10**10):010d}",
        merchant_id=merchant.id,
        out_trade_no=order.out_trade_no,
        prepay_id="pp_" + secrets.token_hex(12),
        kind=kind,
        method=method,
        amount_minor=amount_minor,
        currency=order.order_currency,
        subject=order.subject,
        content=order.content,
        buyer_id=order.buyer_id,
        notify_url=order.notify_url,
        return_url=order.return_url,
        details={},
        created_at=now,
        updated_at=now,
        **extra,
    )
    if prepare is not None:
        trade.details = prepare(trade)
    # Queues the callback too, except for a PROCESSING trade (see states.CALLBACK_STATUSES).
    states.set_status(session, trade, status, reason)
    try:
        insert_as_loaded(session, trade)
    except IntegrityError:
        # No savepoint needed: a refused request rolls its whole transaction back.
        raise Duplicate(reason="duplicate-out_trade_no", message="out_trade_no is duplicate") from None
    return trade


_TRADES, _EVENTS = cast(Table, Trade.__table__), cast(Table, TradeEvent.__table__)
_WRITTEN_TRADE = tuple(column.key for column in _TRADES.columns if column.key != "id")
_WRITTEN_EVENT = tuple(column.key for column in _EVENTS.columns if column.key != "id")


def insert_as_loaded(session: Session, trade: Trade) -> None:
    """Fast path: write a new trade and its history as they stand, one INSERT each (SQLAlchemy Core), then
    let the session hold them as rows it has loaded: what the unit of work would have written, without its
    bookkeeping (docs/benchmarks.md). Later changes are flushed as usual.

    Invariant: `trade` is new (never added to a session) and complete: every column it will have is set,
    its events are its whole history so far, and it has no refunds. The session then holds exactly the rows
    the database holds, so a later change of status or details is an ordinary UPDATE by the unit of work."""
    connection = session.connection()
    row = {key: getattr(trade, key) for key in _WRITTEN_TRADE}
    trade.id = _new_id(connection.execute(insert(_TRADES), row))
    for key, value in row.items():  # the attributes never set (None) become loaded, not expired
        set_committed_value(trade, key, value)
    set_committed_value(trade, "refunds", [])
    for event in trade.events:
        event.trade_id = trade.id
        event.id = _new_id(connection.execute(insert(_EVENTS), {key: getattr(event, key) for key in _WRITTEN_EVENT}))
        make_transient_to_detached(event)
    make_transient_to_detached(trade)
    session.add(trade)  # and its events, along the relationship


def _new_id(result: CursorResult) -> int:
    key = result.inserted_primary_key
    assert key is not None  # an INSERT of one row
    return int(key[0])


def order_minor(amount, currency: str) -> int:
    """An order's amount in its currency's minor units, or the rule it breaks."""
    try:
        return money.to_minor(amount, currency)
    except money.MoneyError as exc:
        raise InvalidField("order_amount", str(exc)) from None


_EXISTS = "SELECT 1 FROM trades WHERE merchant_id = ? AND out_trade_no = ?"


def duplicate_check(session: Session, merchant: Merchant, out_trade_no: str) -> None:
    """Answer a plain repeat before doing any work; the unique constraint still settles races.

    Read beside the request's unit of work, not in it: on SQLite a write transaction holds the database's
    write lock from its first statement, and this one would have held it through the payment's whole
    preparation (its codes, its page links) when only its inserts need it (docs/benchmarks.md)."""
    if peek(session.get_bind().engine, _EXISTS, (merchant.id, out_trade_no)) is not None:
        raise Duplicate(reason="duplicate-out_trade_no", message="out_trade_no is duplicate")


def change_status(session: Session, trade: Trade, new: str, reason: str | None = None, **extra) -> None:
    """Change a trade's status; its callback to the merchant is queued in the same transaction."""
    states.set_status(session, trade, new, reason, **extra)


def outcome(decision: Decision, success: str) -> tuple[str, str | None]:
    """The trade status and reason an acquirer's decision makes: `success` when approved, else REFUSED."""
    return (success if decision.approved else states.REFUSED), decision.reason


@functools.cache
def _find_statement(by_trade_no: bool, by_out_trade_no: bool):
    """Built once per shape (constructing a statement costs about as much as running it)."""
    query = select(Trade).where(Trade.merchant_id == bindparam("merchant_id"))
    if by_trade_no:
        query = query.where(Trade.trade_no == bindparam("trade_no"))
    if by_out_trade_no:
        query = query.where(Trade.out_trade_no == bindparam("out_trade_no"))
    return query.with_for_update(of=Trade).execution_options(populate_existing=True)


def find(
    session: Session, merchant: Merchant, *, trade_no: str | None = None, out_trade_no: str | None = None
) -> Trade:
    """The merchant's trade, locked for a change of status."""
    if not trade_no and not out_trade_no:
        raise MissingField("trade_no or out_trade_no")
    trade = session.scalars(
        _find_statement(bool(trade_no), bool(out_trade_no)),
        {"merchant_id": merchant.id, "trade_no": trade_no, "out_trade_no": out_trade_no},
    ).first()
    if trade is None:
        raise NotFound(reason="trade-not-exist", message="trade does not exist")
    return trade


def awaiting_customer(session: Session, merchant: Merchant, trade_no: str, done: str) -> Trade:
    """A trade of a method paid by hand that still waits for its customer (to be `done`: paid, declined)."""
    trade = find(session, merchant, trade_no=trade_no)
    if trade.status == states.INITIAL:
        raise IllegalState(
            reason="trade-status-invalid", message="trade is INITIAL; the customer has not submitted a method yet"
        )
    method = methods.METHODS.get(trade.method)
    if trade.kind not in CUSTOMER_KINDS or method is None or not method.settles_in_sandbox:
        raise IllegalState(
            reason="method-not-payable", message=f"{trade.method} trades are not {done} by the customer this way"
        )
    if trade.status != states.PROCESSING:
        raise IllegalState(
            reason="trade-status-invalid", message=f"trade is {trade.status}; only a PROCESSING trade can be {done}"
        )
    if trade.expires_at is not None and clock.as_utc(trade.expires_at) <= clock.now():
        raise IllegalState(reason="trade-expired", message=f"the trade expired before it was {done}")
    return trade
