"""Tables of the virtual SPEI accounts: one standing CLABE per customer, and each transfer it received."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base


class VirtualAccount(Base):
    __tablename__ = "virtual_spei_accounts"
    # The merchant's accounts, counted against its pool and listed by creation; serves lookups by merchant_id.
    __table_args__ = (Index("ix_virtual_spei_accounts_merchant_created", "merchant_id", "created_at", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[str] = mapped_column(String(16), unique=True)
    # The CLABE; unique across merchants, since a transfer names nothing else.
    account_number: Mapped[str] = mapped_column(String(18), unique=True)
    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id"))
    status: Mapped[str] = mapped_column(String(16))
    buyer_id: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(128))
    email: Mapped[str] = mapped_column(String(128))
    identify_type: Mapped[str] = mapped_column(String(4))
    identify_number: Mapped[str] = mapped_column(String(18))
    notify_url: Mapped[str] = mapped_column(String(512))
    # The account holder at the bank, as registered when the CLABE was opened (a later rename moves no CLABE).
    beneficiary_name: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    canceled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class VirtualTransfer(Base):
    """One SPEI transfer received on a virtual account, and the paid trade it became."""

    __tablename__ = "virtual_spei_transfers"
    # The merchant's transfers, newest first (usage); those of one account.
    __table_args__ = (
        Index("ix_virtual_spei_transfers_merchant_created", "merchant_id", "created_at", "id"),
        Index("ix_virtual_spei_transfers_account_created", "account_id", "created_at", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id"))
    account_id: Mapped[int] = mapped_column(ForeignKey("virtual_spei_accounts.id"))
    trade_id: Mapped[int] = mapped_column(ForeignKey("trades.id"), unique=True)
    # SPEI's clave de rastreo, given by the sending bank: also the trade's out_trade_no.
    tracking_key: Mapped[str] = mapped_column(String(30))
    amount_minor: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
