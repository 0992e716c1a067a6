"""What the dashboard shows of a merchant's payouts and the sandbox refund by the recipient's bank."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import Select, func, or_, select
from sqlalchemy.orm import Session

from .. import clock, money
from ..merchants.models import Merchant
from ..payouts import corridors, lifecycle
from ..payouts import service as payouts
from ..payouts.models import Payout, PayoutRefund
from ..providers.base import PayoutBank
from ..statemachine import PayoutStatus
from . import records
from . import search as terms

STATUSES = tuple(status.value for status in PayoutStatus)
METHODS = tuple(sorted({corridor.method for corridor in corridors.CORRIDORS}))


@dataclass(frozen=True)
class PayoutFilter:
    status: str | None = None
    method: str | None = None
    first_day: date | None = None  # UTC days, both included
    last_day: date | None = None
    search: str | None = None  # the start of a transaction_id or custom_code (or all of it)
    payee: str | None = None  # the start of the payee's name (any case), or their document exactly
    amount: Decimal | None = None  # exactly: the order's amount, what left or what arrived, in its currency


@dataclass(frozen=True)
class PayoutLine:
    transaction_id: str
    custom_code: str
    method: str
    status: str
    source_amount: str
    source_currency: str
    arrival_amount: str
    arrival_currency: str
    created_at: datetime
    id: int


@dataclass(frozen=True)
class Step:
    """One moment of the payout's timeline, as far as the tables keep it."""

    at: datetime
    status: str
    note: str  # the bank's remark, or the refund's id and amount
    amount: str | None = None


@dataclass(frozen=True)
class PayoutPage:
    payout: Payout
    figures: dict  # the /api/payout/detail record, strings as the API prints them
    destination: str  # where the money went, masked
    document: str | None  # the beneficiary's document, masked
    timeline: list[Step]
    refunds: list[PayoutRefund]
    refunded: str  # arrival currency, to the cent
    refundable: str  # what the recipient's bank may still send back
    can_refund: bool
    partial_refunds: bool


def listing(
    session: Session, merchant_id: int, filters: PayoutFilter, cursor: str | None = None
) -> records.Page[PayoutLine]:
    """One page of the merchant's payouts, newest first (raises records.BadCursor for a made-up cursor)."""
    query = filtered(session, select(Payout).where(Payout.merchant_id == merchant_id), filters)
    found = records.page(list(session.scalars(records.keyset(query, Payout, cursor))))
    lines = [
        PayoutLine(
            p.transaction_id,
            p.custom_code,
            p.method,
            p.status,
            money.format_minor(p.source_minor, p.source_currency),
            p.source_currency,
            money.format_minor(p.arrival_minor, p.arrival_currency),
            p.arrival_currency,
            clock.as_utc(p.created_at),
            p.id,
        )
        for p in found.rows
    ]
    return records.Page(lines, found.next_cursor)


def filtered(session: Session, query: Select, filters: PayoutFilter) -> Select:
    """`query` over payouts narrowed to the filters and search terms (indexes of migrations 0011 and 0018)."""
    if filters.status:
        query = query.where(Payout.status == filters.status)
    if filters.method:
        query = query.where(Payout.method == filters.method)
    start, end = records.day_bounds(filters.first_day, filters.last_day)
    if start is not None:
        query = query.where(Payout.created_at >= start)
    if end is not None:
        query = query.where(Payout.created_at < end)
    if filters.search:
        query = query.where(
            or_(
                terms.starts_with(session, Payout.transaction_id, filters.search),
                terms.starts_with(session, Payout.custom_code, filters.search),
            )
        )
    if filters.payee:
        query = query.where(
            or_(
                terms.starts_with(session, func.lower(Payout.name), filters.payee.lower()),
                Payout.document_id.in_(terms.document_forms(filters.payee)),
            )
        )
    if filters.amount is not None:
        query = query.where(
            or_(
                # What the merchant asked for (in the currency amount_type names), what left, what arrived.
                terms.amount_matches(filters.amount, Payout.order_amount_minor, Payout.source_currency),
                terms.amount_matches(filters.amount, Payout.order_amount_minor, Payout.arrival_currency),
                terms.amount_matches(filters.amount, Payout.source_minor, Payout.source_currency),
                terms.amount_matches(filters.amount, Payout.arrival_minor, Payout.arrival_currency),
            )
        )
    return query


def _mask(value: str) -> str:
    """Enough of an account, key or e-mail to recognise it, never all of it."""
    if "@" in value:
        local, domain = value.split("@", 1)
        return f"{local[:1]}•••@{domain}"
    return f"•••• {value[-4:]}" if len(value) > 4 else "••••"


def destination(payout: Payout) -> str:
    account = payout.account or ""
    if payout.method == "PIX" and payout.account_type:
        return f"{payout.account_type} {_mask(account)}"
    if payout.method == "BANKTRANSFER":
        bank = payout.bank_name or payout.bank_code or ""
        return f"{bank} · {_mask(account)}".strip(" ·")
    return f"{payout.channel} · {_mask(account)}" if payout.channel else _mask(account)


def _timeline(payout: Payout) -> list[Step]:
    """Creation, each refund, and the last change: the payout keeps no other history (its notifications,
    listed on the page, carry every status the merchant was told)."""
    created = clock.as_utc(payout.created_at)
    steps = [Step(created, lifecycle.IN_PROCESSING, lifecycle.MESSAGES[lifecycle.IN_PROCESSING])]
    for refund in payout.refunds:
        steps.append(
            Step(
                clock.as_utc(refund.created_at),
                "REFUND",
                refund.refunded_id,
                money.format_minor(refund.arrival_minor, payout.arrival_currency),
            )
        )
    updated = clock.as_utc(payout.updated_at)
    if payout.status != lifecycle.IN_PROCESSING:
        steps.append(Step(updated, payout.status, payout.remark or ""))
    return sorted(steps, key=lambda step: step.at)


def detail(session: Session, merchant_id: int, transaction_id: str) -> PayoutPage | None:
    """The merchant's payout with the API's figures, its refunds and timeline; None for anyone else's id."""
    payout = session.scalar(
        select(Payout).where(Payout.merchant_id == merchant_id, Payout.transaction_id == transaction_id)
    )
    if payout is None:
        return None
    corridor = corridors.find(payout.country, payout.method, payout.channel)
    refunded = sum(r.arrival_minor for r in payout.refunds)
    return PayoutPage(
        payout=payout,
        figures=payouts.detail(payout),
        destination=destination(payout),
        document=f"{payout.document_type or ''} {_mask(payout.document_id)}".strip() if payout.document_id else None,
        timeline=_timeline(payout),
        refunds=list(payout.refunds),
        refunded=money.format_minor(refunded, payout.arrival_currency),
        refundable=money.format_minor(payout.arrival_minor - refunded, payout.arrival_currency),
        can_refund=payout.status in (lifecycle.PAID, lifecycle.PARTIAL_REFUNDED)
        and corridor is not None
        and corridor.full_refunds,
        partial_refunds=corridor is not None and corridor.partial_refunds,
    )


def refund(
    session: Session, merchant: Merchant, transaction_id: str, amount: Decimal | None, bank: PayoutBank
) -> tuple[PayoutRefund, Payout] | None:
    """The recipient's bank refunds, exactly as POST /sandbox/payouts/<transaction_id>/refund (amount None: all
    that is left). None when the merchant has no such payout; the service's refusals (DomainError) pass through."""
    with clock.merchant(merchant.id):
        payout = payouts.find_or_none(session, merchant, transaction_id)
        if payout is None:
            return None
        return lifecycle.refund(session, merchant, payout, amount, bank), payout
