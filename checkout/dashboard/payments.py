"""What the dashboard shows of a merchant's trades: the filtered list by keyset pages, one trade, its allowed actions."""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal

from sqlalchemy import ScalarSelect, Select, func, or_, select, tuple_
from sqlalchemy.orm import Session

from .. import clock, money
from ..payins import methods, states
from ..payins.methods import refundability
from ..payins.models import Refund, Trade
from ..payins.trades import CUSTOMER_KINDS
from ..statemachine import TRADE, TradeStatus
from ..vaults.models import Vault
from . import search as terms

PAGE_SIZE = 50

STATUSES: tuple[str, ...] = tuple(status.value for status in TradeStatus)
# Every method a trade can carry: the direct-payment catalogue, and PIX Automático debits of a vault.
METHODS: tuple[str, ...] = tuple(sorted({*methods.METHODS, "PIXAutomatic"}))

REFUND, CAPTURE, VOID, PAY = "refund", "capture", "void", "pay"


class BadCursor(ValueError):
    """An `after=` value this page did not hand out."""


@dataclass(frozen=True)
class Cursor:
    """Where a page ends: the (created_at, id) of its last row; the next page starts strictly after it."""

    created_at: datetime
    id: int

    def encode(self) -> str:
        raw = f"{clock.as_utc(self.created_at).isoformat()}|{self.id}".encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    @classmethod
    def decode(cls, value: str) -> Cursor:
        try:
            raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode()
            moment, _, ident = raw.partition("|")
            at = datetime.fromisoformat(moment)
            number = int(ident)
            if at.tzinfo is None or number < 1 or not ident.isdigit() or number > 2**63 - 1:
                raise BadCursor(value)
            return cls(clock.as_utc(at), number)
        except (binascii.Error, UnicodeDecodeError, ValueError, OverflowError):
            raise BadCursor(value) from None


@dataclass(frozen=True)
class Filters:
    status: str | None = None
    method: str | None = None
    date_from: date | None = None  # UTC days, both ends included
    date_to: date | None = None
    search: str | None = None  # the start of a trade_no or out_trade_no (or all of it)
    email: str | None = None  # the customer's, any case
    document: str | None = None  # the customer's identify.number, exactly
    amount: Decimal | None = None  # exactly, in the trade's own currency

    @property
    def any(self) -> bool:
        return any(
            (self.status, self.method, self.date_from, self.date_to, self.search, self.email, self.document)
        ) or (self.amount is not None)


@dataclass(frozen=True)
class Row:
    trade_no: str
    out_trade_no: str
    method: str
    status: str
    amount: str  # to the currency's minor unit
    currency: str
    created_at: datetime
    channel: str | None = None
    amount_minor: int = 0
    refunded_minor: int = 0  # what its refunds paid back (failed ones left out): "Refunded in part" says so


def refunded_minor() -> ScalarSelect:
    """What a trade's refunds paid back in minor units (failed ones left out), as a column of a query over
    trades: a correlated subquery on the refunds' trade_id index, so a page of trades stays one query."""
    return (
        select(func.coalesce(func.sum(Refund.amount_minor), 0))
        .where(Refund.trade_id == Trade.id, Refund.status != states.REFUND_FAILED)
        .correlate(Trade)
        .scalar_subquery()
    )


@dataclass(frozen=True)
class Page:
    rows: list[Row]
    older: Cursor | None  # None: this is the last page


def _utc_midnight(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def listing(session: Session, merchant_id: int, filters: Filters, after: Cursor | None = None) -> Page:
    """One page of the merchant's trades, newest first, starting after `after`.

    A keyset page, never an offset: each page walks ix_trades_merchant_created from its cursor, so the
    thousandth page costs what the first does, and two trades created at the same instant are told
    apart by id (neither repeated nor skipped across a page boundary)."""
    # Columns, not entities: a Trade would also load its history, refunds and card for every row.
    query = select(
        Trade.id,
        Trade.trade_no,
        Trade.out_trade_no,
        Trade.method,
        Trade.channel,
        Trade.status,
        Trade.amount_minor,
        Trade.currency,
        Trade.created_at,
        refunded_minor().label("refunded_minor"),
    ).where(Trade.merchant_id == merchant_id)
    query = filtered(session, query, filters)
    if after is not None:
        # A row comparison: PostgreSQL takes it as an index condition, unlike the equivalent OR.
        query = query.where(tuple_(Trade.created_at, Trade.id) < tuple_(after.created_at, after.id))
    query = query.order_by(Trade.created_at.desc(), Trade.id.desc()).limit(PAGE_SIZE + 1)
    trades = session.execute(query).all()
    rows = [
        Row(
            t.trade_no,
            t.out_trade_no,
            t.method,
            t.status,
            money.format_minor(t.amount_minor, t.currency),
            t.currency,
            clock.as_utc(t.created_at),
            channel=t.channel,
            amount_minor=t.amount_minor,
            refunded_minor=int(t.refunded_minor or 0),
        )
        for t in trades[:PAGE_SIZE]
    ]
    older = None
    if len(trades) > PAGE_SIZE:
        last = trades[PAGE_SIZE - 1]
        older = Cursor(clock.as_utc(last.created_at), last.id)
    return Page(rows, older)


def filtered(session: Session, query: Select, filters: Filters) -> Select:
    """`query` over trades narrowed to the filters and search terms (each answered by an index that leads
    with the merchant: migrations 0011 and 0018)."""
    if filters.search:
        query = query.where(
            or_(
                terms.starts_with(session, Trade.trade_no, filters.search),
                terms.starts_with(session, Trade.out_trade_no, filters.search),
            )
        )
    if filters.email:
        query = query.where(terms.customer_field(session, "email") == filters.email.lower())
    if filters.document:
        query = query.where(terms.customer_field(session, "document").in_(terms.document_forms(filters.document)))
    if filters.amount is not None:
        query = query.where(terms.amount_matches(filters.amount, Trade.amount_minor, Trade.currency))
    if filters.status:
        query = query.where(Trade.status == filters.status)
    if filters.method:
        query = query.where(Trade.method == filters.method)
    if filters.date_from:
        query = query.where(Trade.created_at >= _utc_midnight(filters.date_from))
    if filters.date_to and filters.date_to < date.max:
        query = query.where(Trade.created_at < _utc_midnight(filters.date_to + timedelta(days=1)))
    return query


@dataclass
class Detail:
    trade: Trade
    amount: str
    refunded: str
    refundable: str
    refundable_minor: int
    refund_in_full_only: bool
    authorized: str | None  # a partial capture: what was authorized
    customer: dict = field(default_factory=dict)
    vault: Vault | None = None
    actions: frozenset[str] = frozenset()


def find(session: Session, merchant_id: int, trade_no: str) -> Trade | None:
    """The merchant's trade by trade_no; another merchant's is as unknown as a made-up number."""
    return session.scalar(select(Trade).where(Trade.merchant_id == merchant_id, Trade.trade_no == trade_no))


def _payable_by_hand(trade: Trade) -> bool:
    method = methods.METHODS.get(trade.method)
    return trade.kind in CUSTOMER_KINDS and method is not None and method.settles_in_sandbox


def allowed_actions(trade: Trade, refundable_minor: int, *, sandbox: bool, now: datetime) -> frozenset[str]:
    """The actions the API would take on this trade now, by the trade status table and the services' own
    preconditions; the services still decide (and refuse) when a form is posted."""
    allowed = set()
    if TRADE.can(trade.status, TradeStatus.REFUNDED) and refundable_minor > 0:
        allowed.add(REFUND)
    if trade.status == states.AUTHORIZED and trade.card_token_id is not None:
        if TRADE.can(trade.status, TradeStatus.SUCCESS):
            allowed.add(CAPTURE)
        if TRADE.can(trade.status, TradeStatus.CANCEL):
            allowed.add(VOID)
    unexpired = trade.expires_at is None or clock.as_utc(trade.expires_at) > now
    payable = trade.status == states.PROCESSING and _payable_by_hand(trade) and unexpired
    if sandbox and payable and TRADE.can(trade.status, TradeStatus.SUCCESS):
        allowed.add(PAY)
    return frozenset(allowed)


def detail(session: Session, merchant_id: int, trade_no: str, *, sandbox: bool) -> Detail | None:
    """One trade of the merchant with its figures and the actions it allows; None when it is not theirs."""
    trade = find(session, merchant_id, trade_no)
    if trade is None:
        return None
    currency = trade.currency
    refunded_minor = sum(r.amount_minor for r in trade.refunds if r.status != states.REFUND_FAILED)
    rule = refundability.of(trade.method, trade.channel, currency)
    paid = trade.status in states.PAID and rule.allowed
    refundable_minor = trade.amount_minor - refunded_minor if paid else 0
    vault = None
    if trade.vault_id is not None:
        vault = session.scalar(select(Vault).where(Vault.id == trade.vault_id, Vault.merchant_id == merchant_id))
    with clock.merchant(merchant_id):
        now = clock.now()
    authorized = trade.details.get("authorized_minor")
    return Detail(
        trade=trade,
        amount=money.format_minor(trade.amount_minor, currency),
        refunded=money.format_minor(refunded_minor, currency),
        refundable=money.format_minor(refundable_minor, currency),
        refundable_minor=refundable_minor,
        refund_in_full_only=not rule.partial,
        authorized=money.format_minor(authorized, currency) if isinstance(authorized, int) else None,
        customer={k: v for k, v in (trade.details.get("customer") or {}).items() if v},
        vault=vault,
        actions=allowed_actions(trade, refundable_minor, sandbox=sandbox, now=now),
    )


def user_info(trade: Trade) -> dict | None:
    """The payer as a refund's `user_info` names them, from what the merchant gave with the payment: a
    method that refunds to bank data asks for it, and the dashboard has no other source."""
    customer = trade.details.get("customer") or {}
    identify = customer.get("identify") or {}
    info = {
        "name": customer.get("name") or None,
        "email": customer.get("email") or None,
        "phone": customer.get("phone") or None,
        "identify": {"number": identify.get("number"), "type": identify.get("type")} if identify else None,
    }
    return info if any(info.values()) else None
