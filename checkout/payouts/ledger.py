"""Double-entry ledger per merchant and currency; a balance is only ever the sum of its entries."""

from __future__ import annotations

import uuid
from collections import defaultdict
from datetime import date, datetime
from typing import cast

from sqlalchemy import BigInteger, Date, DateTime, ForeignKey, Index, String, Table, delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, Session, mapped_column

from .. import clock
from ..db import Base
from ..merchants.models import Merchant

AVAILABLE = "available"  # the merchant's spendable payout balance
FUNDING = "funding"  # money that came in from outside (sandbox top-ups, settlements)
IN_TRANSIT = "in_transit"  # payouts sent to the bank, not yet confirmed
PAID_OUT = "paid_out"  # payouts the bank confirmed
FEES = "fees"  # the service's processing fees
TAXES = "taxes"  # taxes withheld for the authorities


class LedgerEntry(Base):
    __tablename__ = "ledger_entries"
    __table_args__ = (Index("ix_ledger_account", "merchant_id", "currency", "account", "created_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    transaction_id: Mapped[str] = mapped_column(String(36), index=True)
    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id"))
    currency: Mapped[str] = mapped_column(String(3))
    account: Mapped[str] = mapped_column(String(32))
    amount_minor: Mapped[int] = mapped_column(BigInteger)  # signed: credit positive, debit negative
    kind: Mapped[str] = mapped_column(String(32))
    reference: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LedgerDay(Base):
    """The net movement of one account on one UTC day, kept with every posting, so that a balance or a
    year of daily balances costs a row per day with movement, however many entries there are."""

    __tablename__ = "ledger_days"

    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id"), primary_key=True)
    currency: Mapped[str] = mapped_column(String(3), primary_key=True)
    account: Mapped[str] = mapped_column(String(32), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    net_minor: Mapped[int] = mapped_column(BigInteger)


class LedgerError(ValueError):
    pass


def post(
    session: Session,
    merchant: Merchant,
    currency: str,
    kind: str,
    legs: list[tuple[str, int]],
    reference: str | None = None,
) -> str:
    """Write one balanced transaction: the legs' amounts must add up to zero."""
    if sum(amount for _, amount in legs) != 0 or len(legs) < 2:
        raise LedgerError("a ledger transaction must have balanced legs")
    transaction_id = str(uuid.uuid4())
    with clock.merchant(merchant.id):  # the merchant's ledger days follow its own clock, whoever posts
        at = clock.now()
    session.add_all(
        LedgerEntry(
            transaction_id=transaction_id,
            merchant_id=merchant.id,
            currency=currency,
            account=account,
            amount_minor=amount,
            kind=kind,
            reference=reference,
            created_at=at,
        )
        for account, amount in legs
    )
    net: dict[str, int] = defaultdict(int)
    for account, amount in legs:
        net[account] += amount
    day = clock.as_utc(at).date()
    _add_to_days(
        session,
        [
            {"merchant_id": merchant.id, "currency": currency, "account": account, "day": day, "net_minor": amount}
            for account, amount in sorted(net.items())
        ],
    )
    session.flush()
    return transaction_id


def _add_to_days(session: Session, rows: list[dict]) -> None:
    """Add each row's net to its day in one atomic upsert, rows in key order. That order keeps two
    single postings from deadlocking; a transaction that posts several times holds its merchant's row
    lock first (submissions, lifecycle.lock_merchants), so it never meets another halfway."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    statement = dialect.insert(LedgerDay).values(rows)
    session.execute(
        statement.on_conflict_do_update(
            index_elements=["merchant_id", "currency", "account", "day"],
            set_={"net_minor": LedgerDay.net_minor + statement.excluded.net_minor},
        )
    )


def balance(session: Session, merchant: Merchant, currency: str, account: str = AVAILABLE) -> int:
    total = session.scalar(
        select(func.coalesce(func.sum(LedgerDay.net_minor), 0)).where(
            LedgerDay.merchant_id == merchant.id, LedgerDay.currency == currency, LedgerDay.account == account
        )
    )
    return int(cast(int, total))  # coalesce: never NULL


def utc_day(session: Session, column):
    """SQL for the UTC date of a timestamp column."""
    if session.get_bind().dialect.name == "postgresql":
        return func.date(func.timezone("UTC", column))
    return func.date(column)  # SQLite keeps UTC text


def rebuild_daily(session: Session) -> int:
    """Recompute ledger_days from the entries (after a bulk load or a repair); answers the row count."""
    session.execute(delete(LedgerDay))
    day = utc_day(session, LedgerEntry.created_at)
    rows = [
        {
            "merchant_id": merchant_id,
            "currency": currency,
            "account": account,
            "day": moved_on if isinstance(moved_on, date) else date.fromisoformat(moved_on),
            "net_minor": int(net),
        }
        for merchant_id, currency, account, moved_on, net in session.execute(
            select(
                LedgerEntry.merchant_id,
                LedgerEntry.currency,
                LedgerEntry.account,
                day,
                func.sum(LedgerEntry.amount_minor),
            ).group_by(LedgerEntry.merchant_id, LedgerEntry.currency, LedgerEntry.account, day)
        )
    ]
    for start in range(0, len(rows), 1000):
        session.execute(cast(Table, LedgerDay.__table__).insert(), rows[start : start + 1000])
    return len(rows)


def fund(session: Session, merchant: Merchant, currency: str, amount_minor: int) -> str:
    """Sandbox top-up of the merchant's available balance."""
    if amount_minor <= 0:
        raise LedgerError("a top-up must be positive")
    return post(
        session,
        merchant,
        currency,
        "funding",
        [(AVAILABLE, amount_minor), (FUNDING, -amount_minor)],
        reference="sandbox-top-up",
    )
