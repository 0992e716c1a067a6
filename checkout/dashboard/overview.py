"""What the dashboard's overview shows of one merchant: balances, payin volume, recent trades and payouts, its clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .. import clock, money
from ..merchants.models import Merchant
from ..payins import states
from ..payins.models import Refund, Trade
from ..payouts.ledger import AVAILABLE, LedgerDay
from ..payouts.models import Payout
from .payments import refunded_minor

RECENT = 10
VOLUME_DAYS = 30


@dataclass(frozen=True)
class Line:
    reference: str
    kind: str
    status: str
    amount: str  # to the cent (the currency's minor unit), as the APIs print it
    currency: str
    at: datetime
    channel: str | None = None  # a payin's wallet (its method's name says which)
    amount_minor: int = 0
    refunded_minor: int = 0  # a payin's refunds, paid back: "Refunded in part" says so


@dataclass(frozen=True)
class Volume:
    """Paid payins and refunds of one currency over the last VOLUME_DAYS days."""

    currency: str
    paid_count: int
    paid: str  # to the currency's minor unit
    refund_count: int
    refunded: str


@dataclass(frozen=True)
class Overview:
    merchant: Merchant
    balances: list[tuple[str, str]]  # (currency, available amount)
    volume: list[Volume]
    trades: list[Line]
    payouts: list[Line]
    business_time: datetime


def balances(session: Session, merchant_id: int) -> list[tuple[str, str]]:
    """The available balance of each currency held, from the ledger's daily totals as `/balance` reads it
    (a sum over a merchant's days, not over every entry: one row a day, not a million)."""
    rows = session.execute(
        select(LedgerDay.currency, func.sum(LedgerDay.net_minor))
        .where(LedgerDay.merchant_id == merchant_id, LedgerDay.account == AVAILABLE)
        .group_by(LedgerDay.currency)
        .order_by(LedgerDay.currency)
    ).all()
    return [(currency, money.format_minor(int(total or 0), currency)) for currency, total in rows]


def volume(session: Session, merchant_id: int, since: datetime) -> list[Volume]:
    """Per currency, the trades created since `since` that were paid (SUCCESS, or REFUNDED since: the money
    came in) and the refunds made since then that did not fail. The trades' sum is an index-only scan of
    ix_trades_merchant_status_created_amount (migration 0019): the rows of the period, never their details."""
    paid = session.execute(
        select(Trade.currency, func.count(), func.sum(Trade.amount_minor))
        .where(Trade.merchant_id == merchant_id, Trade.status.in_(states.PAID), Trade.created_at >= since)
        .group_by(Trade.currency)
    ).all()
    refunds = session.execute(
        select(Refund.currency, func.count(), func.sum(Refund.amount_minor))
        .join(Trade, Trade.id == Refund.trade_id)
        .where(Trade.merchant_id == merchant_id, Refund.created_at >= since, Refund.status != states.REFUND_FAILED)
        .group_by(Refund.currency)
    ).all()
    figures: dict[str, list[int]] = {}
    for currency, count, total in paid:
        figures.setdefault(currency, [0, 0, 0, 0])[0:2] = [int(count), int(total or 0)]
    for currency, count, total in refunds:
        figures.setdefault(currency, [0, 0, 0, 0])[2:4] = [int(count), int(total or 0)]
    return [
        Volume(
            currency,
            n_paid,
            money.format_minor(paid_minor, currency),
            n_refunds,
            money.format_minor(refunded_minor, currency),
        )
        for currency, (n_paid, paid_minor, n_refunds, refunded_minor) in sorted(figures.items())
    ]


def recent_trades(session: Session, merchant_id: int, limit: int = RECENT) -> list[Line]:
    trades = session.execute(
        select(Trade, refunded_minor())
        .where(Trade.merchant_id == merchant_id)
        .order_by(Trade.created_at.desc(), Trade.id.desc())
        .limit(limit)
    )
    return [
        Line(
            t.trade_no,
            t.method,
            t.status,
            money.format_minor(t.amount_minor, t.currency),
            t.currency,
            clock.as_utc(t.created_at),
            channel=t.channel,
            amount_minor=t.amount_minor,
            refunded_minor=int(refunded or 0),
        )
        for t, refunded in trades
    ]


def recent_payouts(session: Session, merchant_id: int, limit: int = RECENT) -> list[Line]:
    payouts = session.scalars(
        select(Payout)
        .where(Payout.merchant_id == merchant_id)
        .order_by(Payout.created_at.desc(), Payout.id.desc())
        .limit(limit)
    )
    return [
        Line(
            p.transaction_id,
            p.method,
            p.status,
            money.format_minor(p.arrival_minor, p.arrival_currency),
            p.arrival_currency,
            clock.as_utc(p.created_at),
        )
        for p in payouts
    ]


def overview(session: Session, merchant_id: int) -> Overview:
    merchant = session.get(Merchant, merchant_id)
    assert merchant is not None  # a user's merchant_id is a foreign key
    with clock.merchant(merchant_id):
        business_time = clock.now()
    return Overview(
        merchant=merchant,
        balances=balances(session, merchant_id),
        volume=volume(session, merchant_id, business_time - timedelta(days=VOLUME_DAYS)),
        trades=recent_trades(session, merchant_id),
        payouts=recent_payouts(session, merchant_id),
        business_time=business_time,
    )
