"""Creating trades: pre-authorization, pay with vault, direct payment; paying and describing them."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from dataclasses import asdict
from datetime import timedelta
from types import SimpleNamespace
from typing import cast

from sqlalchemy import Table, bindparam, insert, select
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value

from .. import clock, money, peek
from ..cards import service as cards
from ..errors import Duplicate, IllegalState, InvalidField, MissingField, NotFound
from ..links import Links
from ..merchants.models import Merchant
from ..merchants.policy import check_return_url
from ..providers.base import Acquirer, Decision
from ..vaults import service as vaults
from . import methods, states, timeouts
from .commands import DirectPayment, HostedCheckout, PreAuthorization, VaultPayment
from .methods import refundability
from .models import Refund, Trade, TradeEvent

AUTHENTICATED_3DS = {"Y", "A"}
# "I" (informational, no challenge performed) neither authenticates nor fails: the issuer decides.
INFORMATIONAL_3DS = {"I"}

PIX_LEAD_DAYS = (2, 10)
# Trades the customer pays through a method: direct payments, and hosted checkouts once a method is chosen.
CUSTOMER_KINDS = ("direct", "checkout")
# In a trade's details: it ends CANCEL, not EXPIRED, when unpaid at expires_at (its cancellation_express).
CANCEL_WHEN_UNPAID = "cancel_when_unpaid"


def new_trade(
    session: Session,
    merchant: Merchant,
    order: PreAuthorization | VaultPayment | DirectPayment | HostedCheckout,
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
    amount_minor = _order_minor(order.order_amount, order.order_currency)
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
        _insert(session, trade)
    except IntegrityError:
        # No savepoint needed: a refused request rolls its whole transaction back.
        raise Duplicate(reason="duplicate-out_trade_no", message="out_trade_no is duplicate") from None
    return trade


_TRADES, _EVENTS, _REFUNDS = cast(Table, Trade.__table__), cast(Table, TradeEvent.__table__), Refund.__table__
_WRITTEN_TRADE = tuple(column.key for column in _TRADES.columns if column.key != "id")
_WRITTEN_EVENT = tuple(column.key for column in _EVENTS.columns if column.key != "id")


def _insert(session: Session, trade: Trade) -> None:
    """Write a new trade and its history as they stand, one INSERT each, then let the session hold them as
    rows it has loaded: what the unit of work would have written, without its bookkeeping, which cost a
    payment more than its two statements (docs/benchmarks.md). Later changes are flushed as usual."""
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


def _order_minor(amount, currency: str) -> int:
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
    if peek.one(session.get_bind().engine, _EXISTS, (merchant.id, out_trade_no)) is not None:
        raise Duplicate(reason="duplicate-out_trade_no", message="out_trade_no is duplicate")


def change_status(session: Session, trade: Trade, new: str, reason: str | None = None, **extra) -> None:
    """Change a trade's status; its callback to the merchant is queued in the same transaction."""
    states.set_status(session, trade, new, reason, **extra)


def outcome(decision: Decision, success: str) -> tuple[str, str | None]:
    """The trade status and reason an acquirer's decision makes: `success` when approved, else REFUSED."""
    return (success if decision.approved else states.REFUSED), decision.reason


def pre_authorize(session: Session, merchant: Merchant, req: PreAuthorization, acquirer: Acquirer) -> Trade:
    methods.cards.check(req.order_amount, req.order_currency)
    duplicate_check(session, merchant, req.out_trade_no)
    card = cards.usable_token(session, merchant, req.token, "token")
    code = req.threeds.status_code
    if code in AUTHENTICATED_3DS or code in INFORMATIONAL_3DS:
        decision = acquirer.authorize(card, _order_minor(req.order_amount, req.order_currency), req.order_currency)
        status, reason = outcome(decision, states.AUTHORIZED)
    else:
        status, reason = states.REFUSED, f"3-D Secure authentication failed (status {code})"
    now = clock.now()
    trade = new_trade(
        session,
        merchant,
        req,
        kind="pre_authorization",
        method="CreditCard",
        status=status,
        reason=reason,
        card_token_id=card.id,
        now=now,
        expires_at=timeouts.expiry(req.timeout_express, now),
    )
    trade.details = {"issuer": req.issuer, "threeds": asdict(req.threeds)}
    return trade


def _check_pix_schedule(session: Session, vault, scheduled) -> None:
    today = clock.brazil_today()
    lead = (scheduled - today).days
    first_on_authorization_day = (
        scheduled == vault.plan_start_date
        and vault.activated_at is not None
        and clock.as_utc(vault.activated_at).astimezone(clock.BRAZIL).date() == today
        and session.scalar(select(Trade.id).where(Trade.vault_id == vault.id).limit(1)) is None
    )
    if not (PIX_LEAD_DAYS[0] <= lead <= PIX_LEAD_DAYS[1] or first_on_authorization_day):
        raise InvalidField(
            "scheduled_date",
            "must be 2 to 10 days after today in Brazil time "
            f"({today}), or the plan start date for a first debit on the authorization day",
        )
    if not vault.plan_start_date <= scheduled <= vault.plan_end_date:
        raise InvalidField(
            "scheduled_date", f"must be within the plan, {vault.plan_start_date} to {vault.plan_end_date}"
        )


def pay_with_vault(session: Session, merchant: Merchant, req: VaultPayment) -> Trade:
    duplicate_check(session, merchant, req.out_trade_no)
    vault = vaults.require_active(session, merchant, req.vault_token)
    expected = "CreditCard" if vault.type == "Card" else "PIXAutomatic"
    if req.method != expected:
        raise InvalidField("method", f"must be {expected} for a {vault.type} vault")
    scheduled = None
    if req.method == "PIXAutomatic":
        if req.scheduled_date is None:
            raise MissingField("scheduled_date")
        if req.order_currency != "BRL":
            raise InvalidField("order_currency", "must be BRL for PIXAutomatic")
        _check_pix_schedule(session, vault, req.scheduled_date)
        scheduled = req.scheduled_date
    else:  # the interface's range for pay with vault (0.1 to 9,999,999) stands: only a card's currency is checked
        methods.cards.check_currency(req.order_currency)
    # The debit itself runs later (card: at once; PIX Automático: on scheduled_date), by the worker.
    trade = new_trade(
        session,
        merchant,
        req,
        kind="vault",
        method=req.method,
        status=states.PROCESSING,
        vault_id=vault.id,
        card_token_id=vault.card_token_id,
        scheduled_date=scheduled,
    )
    trade.details = {"region": req.region} if req.region else {}
    return trade


def pay_direct(
    session: Session,
    merchant: Merchant,
    req: DirectPayment,
    links: Links,
    collector: methods.Collector,
    sandbox: bool = True,
) -> tuple[Trade, dict]:
    """Create a direct payment; answers the trade and the method's fields (qr_code, barcode, ...), to which
    `methods.answer` adds the images drawn from them (after the commit: they are derived, not kept).

    Every method answers PROCESSING, a card too, as the provider does: the worker authorizes the card
    (`jobs.charge_cards`) and the outcome reaches the merchant by callback.
    """
    method = methods.lookup(req.method, req.channel)
    if req.return_url:
        check_return_url(req.return_url, merchant, sandbox)
    details = method.check(req)
    card = None
    if method.name == "CreditCard":
        # A card's token is spent by the payment that used it: a repeat must hear that it is a repeat, not
        # that its token is spent. Other methods leave a repeat to the unique constraint, which refuses it
        # when the trade is written (before anything is kept): a read less for every payment.
        duplicate_check(session, merchant, req.out_trade_no)
        card = cards.usable_token(session, merchant, cast(str, req.token), "token")  # method.check() wants one
    now = clock.now()
    expires_at = direct_expiry(method, req.timeout_express, now, collector)  # checks timeout_express, cards too
    if req.cancellation_express is not None:
        # The provider's voucher life (Boleto, Lottery): unpaid by then, the trade is cancelled (jobs).
        expires_at = timeouts.cancellation(req.cancellation_express, req.timeout_express, now)
        details = {**details, CANCEL_WHEN_UNPAID: True}

    def prepare(trade: Trade) -> dict:
        trade.details = {**details, "customer": asdict(req.customer), "address": asdict(req.address)}
        return {**trade.details, "response": method.present(trade, links, collector)}  # present reads details

    trade = new_trade(
        session,
        merchant,
        req,
        kind="direct",
        method=method.name,
        status=states.PROCESSING,
        channel=details.get("channel")
        if method.name == "Wallet" or method.channels
        else None,  # as the catalogue spells it
        card_token_id=card.id if card else None,
        now=now,
        # A card is not paid by the customer's hand: the acquirer decides it, so nothing expires it.
        expires_at=None if card else expires_at,
        prepare=None if method.numbered else prepare,
    )
    if method.numbered:
        trade.details = prepare(trade)
    return trade, trade.details["response"]


def direct_expiry(method: methods.Method, timeout_express: str | None, now, collector: methods.Collector):
    """A Boleto without timeout_express stays payable to the end of its due day; others default to 90m."""
    if method.name == "Boleto" and timeout_express is None:
        due = now.astimezone(clock.BRAZIL).date() + timedelta(days=collector.boleto_due_days)
        return timeouts.end_of_brazil_day(due, now.tzinfo)
    return timeouts.expiry(timeout_express, now)


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


_EVENT_COLUMNS = [c.label(f"event_{c.key}") for c in _EVENTS.c]
_REFUND_COLUMNS = [c.label(f"refund_{c.key}") for c in _REFUNDS.c]


@functools.cache
def _read_statement(by_trade_no: bool, by_out_trade_no: bool):
    """The trade joined to its history and its refunds: one round trip, a row per (event, refund) pair."""
    query = (
        select(_TRADES, *_EVENT_COLUMNS, *_REFUND_COLUMNS)
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


def _children(rows, prefix: str) -> list[SimpleNamespace]:
    """The distinct event_* or refund_* parts of the joined rows, in id order."""
    seen: dict[int, SimpleNamespace] = {}
    for row in rows:
        mapping = row._mapping
        key = mapping[f"{prefix}id"]
        if key is not None and key not in seen:
            seen[key] = SimpleNamespace(
                **{name.removeprefix(prefix): value for name, value in mapping.items() if name.startswith(prefix)}
            )
    return sorted(seen.values(), key=lambda child: child.id)


def read(
    session: Session, merchant: Merchant, *, trade_no: str | None = None, out_trade_no: str | None = None
) -> SimpleNamespace:
    """The merchant's trade with its status history and refunds, as plain values for answering a query.

    One statement on the session's connection and no ORM loading: building entities in the identity map
    was most of a query's cost, and nothing here is changed.
    """
    if not trade_no and not out_trade_no:
        raise MissingField("trade_no or out_trade_no")
    rows = (
        session.connection()
        .execute(
            _read_statement(bool(trade_no), bool(out_trade_no)),
            {"merchant_id": merchant.id, "trade_no": trade_no, "out_trade_no": out_trade_no},
        )
        .all()
    )
    if not rows:
        raise NotFound(reason="trade-not-exist", message="trade does not exist")
    trade = dict(zip(_TRADES.c.keys(), rows[0][: len(_TRADES.c)], strict=True))  # its columns come first
    return SimpleNamespace(**trade, events=_children(rows, "event_"), refunds=_children(rows, "refund_"))


def sandbox_pay(session: Session, merchant: Merchant, trade_no: str) -> Trade:
    """The customer pays a PIX, Boleto, ... trade (sandbox): PROCESSING becomes SUCCESS."""
    trade = awaiting_customer(session, merchant, trade_no, "paid")
    change_status(session, trade, states.SUCCESS, "paid by the customer")
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


def describe(trade: Trade | SimpleNamespace) -> dict:
    """The trade as /trade/query answers it: amounts, status history, refunds (a Trade or what `read` answers)."""
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
