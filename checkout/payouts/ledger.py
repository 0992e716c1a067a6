"""Double-entry ledger per merchant and currency; a balance is only ever the sum of its entries."""
from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Index, String, func, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from .. import clock
from ..db import Base
from ..merchants.models import Merchant

AVAILABLE = "available"    # the merchant's spendable payout balance
FUNDING = "funding"        # money that came in from outside (sandbox top-ups, settlements)
IN_TRANSIT = "in_transit"  # payouts sent to the bank, not yet confirmed
PAID_OUT = "paid_out"      # payouts the bank confirmed
FEES = "fees"              # the service's processing fees
TAXES = "taxes"            # taxes withheld for the authorities


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


class LedgerError(ValueError):
    pass


def post(session: Session, merchant: Merchant, currency: str, kind: str,
         legs: list[tuple[str, int]], reference: str | None = None) -> str:
    """Write one balanced transaction: the legs' amounts must add up to zero."""
    if sum(amount for _, amount in legs) != 0 or len(legs) < 2:
        raise LedgerError("a ledger transaction must have balanced legs")
    transaction_id = str(uuid.uuid4())
    at = clock.now()
    session.add_all(LedgerEntry(transaction_id=transaction_id, merchant_id=merchant.id, currency=currency,
                                account=account, amount_minor=amount, kind=kind, reference=reference,
                                created_at=at) for account, amount in legs)
    session.flush()
    return transaction_id


def balance(session: Session, merchant: Merchant, currency: str, account: str = AVAILABLE) -> int:
    total = session.scalar(select(func.coalesce(func.sum(LedgerEntry.amount_minor), 0)).where(
        LedgerEntry.merchant_id == merchant.id, LedgerEntry.currency == currency,
        LedgerEntry.account == account))
    return int(total)


def fund(session: Session, merchant: Merchant, currency: str, amount_minor: int) -> str:
    """Sandbox top-up of the merchant's available balance."""
    if amount_minor <= 0:
        raise LedgerError("a top-up must be positive")
    return post(session, merchant, currency, "funding",
                [(AVAILABLE, amount_minor), (FUNDING, -amount_minor)], reference="sandbox-top-up")
