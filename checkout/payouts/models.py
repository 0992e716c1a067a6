"""Tables of the payout platform: payouts, their refunds by the recipient's bank, checkout sessions, custom codes."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..db import Base


class CustomCode(Base):
    """A merchant's `custom_code`, claimed once by the payout or the checkout session that names it.

    Both paths insert here in the transaction that creates their row, so one key spans payouts and checkout
    sessions: of two requests racing with one code, the database lets exactly one through. A session's claim
    outlives its expiry, and its page's payout takes the code with the session's claim.
    """

    __tablename__ = "payout_custom_codes"
    __table_args__ = (PrimaryKeyConstraint("merchant_id", "custom_code", name="pk_payout_custom_codes"),)

    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id"))
    custom_code: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Payout(Base):
    __tablename__ = "payouts"
    __table_args__ = (
        UniqueConstraint("merchant_id", "custom_code", name="uq_payouts_merchant_custom_code"),
        Index("ix_payouts_due", "status", "next_step_at"),
        # The dashboard's list by keyset, unfiltered and by each filter (they serve lookups by merchant_id too).
        Index("ix_payouts_merchant_created", "merchant_id", "created_at", "id"),
        Index("ix_payouts_merchant_status_created", "merchant_id", "status", "created_at", "id"),
        Index("ix_payouts_merchant_method_created", "merchant_id", "method", "created_at", "id"),
        # The dashboard's search (migration 0019): see checkout/dashboard/search.py. The payee's name is an
        # expression (PostgreSQL only); the prefix ones are text_pattern_ops there, for LIKE 'start%'.
        Index("ix_payouts_merchant_name_prefix", "merchant_id", text("lower(name)")).ddl_if(dialect="postgresql"),
        Index("ix_payouts_merchant_document", "merchant_id", "document_id", "created_at", "id"),
        Index("ix_payouts_merchant_order_amount", "merchant_id", "order_amount_minor", "created_at", "id"),
        Index("ix_payouts_merchant_source_amount", "merchant_id", "source_minor", "created_at", "id"),
        Index("ix_payouts_merchant_arrival_amount", "merchant_id", "arrival_minor", "created_at", "id"),
        Index(
            "ix_payouts_merchant_transaction_id_prefix",
            "merchant_id",
            "transaction_id",
            postgresql_ops={"transaction_id": "text_pattern_ops"},
        ),
        Index(
            "ix_payouts_merchant_custom_code_prefix",
            "merchant_id",
            "custom_code",
            postgresql_ops={"custom_code": "text_pattern_ops"},
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    transaction_id: Mapped[str] = mapped_column(String(32), unique=True)
    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id"))
    custom_code: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(20))
    country: Mapped[str] = mapped_column(String(8))
    method: Mapped[str] = mapped_column(String(16))
    channel: Mapped[str | None] = mapped_column(String(32), nullable=True)
    fee_bear: Mapped[str] = mapped_column(String(12))
    amount_type: Mapped[str] = mapped_column(String(8))
    # Beneficiary and account (per method: PIX key, CLABE, bank account, wallet id, ...)
    name: Mapped[str] = mapped_column(String(128))
    phone: Mapped[str | None] = mapped_column(String(32), nullable=True)
    email: Mapped[str | None] = mapped_column(String(128), nullable=True)
    account: Mapped[str | None] = mapped_column(String(512), nullable=True)
    account_type: Mapped[str | None] = mapped_column(String(16), nullable=True)
    document_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    document_type: Mapped[str | None] = mapped_column(String(8), nullable=True)
    bank_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    branch: Mapped[str | None] = mapped_column(String(16), nullable=True)
    account_digit: Mapped[str | None] = mapped_column(String(4), nullable=True)
    # Figures from pricing.quote, in minor units of their currencies
    order_amount_minor: Mapped[int] = mapped_column(BigInteger)
    source_currency: Mapped[str] = mapped_column(String(3))
    arrival_currency: Mapped[str] = mapped_column(String(3))
    source_minor: Mapped[int] = mapped_column(BigInteger)
    settlement_minor: Mapped[int] = mapped_column(BigInteger)
    arrival_minor: Mapped[int] = mapped_column(BigInteger)
    fee_minor: Mapped[int] = mapped_column(BigInteger)
    tax_minor: Mapped[int] = mapped_column(BigInteger)
    exchange_rate: Mapped[str] = mapped_column(String(24))
    notify_url: Mapped[str | None] = mapped_column(String(512), nullable=True)
    additional_remark: Mapped[str | None] = mapped_column(String(64), nullable=True)
    remark: Mapped[str | None] = mapped_column(String(255), nullable=True)
    # What the bank reports, once it does
    bank_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bank_number: Mapped[str | None] = mapped_column(String(16), nullable=True)
    bank_name: Mapped[str | None] = mapped_column(String(128), nullable=True)
    payer_bank_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    extra: Mapped[dict] = mapped_column(JSON, default=dict)
    # The bank's answer at submission (PayoutBank.submit: PAID or REJECTED), read back only by that bank when
    # it takes the next step; named for the sandbox bank, the only one so far. And when the payout moves next.
    sandbox_outcome: Mapped[str] = mapped_column(String(16))
    next_step_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    refunds: Mapped[list[PayoutRefund]] = relationship(order_by="PayoutRefund.id", lazy="selectin")


class PayoutRefund(Base):
    """Money the recipient's bank sent back: one row per (partial) refund."""

    __tablename__ = "payout_refunds"

    id: Mapped[int] = mapped_column(primary_key=True)
    refunded_id: Mapped[str] = mapped_column(String(32), unique=True)
    payout_id: Mapped[int] = mapped_column(ForeignKey("payouts.id"), index=True)
    arrival_minor: Mapped[int] = mapped_column(BigInteger)
    source_minor: Mapped[int] = mapped_column(BigInteger)  # what the merchant's balance gets back
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class CheckoutSession(Base):
    """A hosted payout page handed to a beneficiary; completing it creates one payout."""

    __tablename__ = "payout_checkout_sessions"
    __table_args__ = (UniqueConstraint("merchant_id", "custom_code", name="uq_checkout_merchant_custom_code"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[str] = mapped_column(String(40), unique=True)
    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id"), index=True)
    user_id: Mapped[str] = mapped_column(String(64))
    custom_code: Mapped[str] = mapped_column(String(64))
    fee_bear: Mapped[str] = mapped_column(String(12))
    source_currency: Mapped[str] = mapped_column(String(3))
    payout_currency: Mapped[str] = mapped_column(String(3))
    payout_amount_minor: Mapped[int] = mapped_column(BigInteger)
    timeout: Mapped[int] = mapped_column(Integer)
    notify_url: Mapped[str] = mapped_column(String(512))
    return_url: Mapped[str] = mapped_column(String(512))
    additional_remark: Mapped[str] = mapped_column(String(40))
    country: Mapped[str | None] = mapped_column(String(8), nullable=True)
    method: Mapped[str | None] = mapped_column(String(16), nullable=True)
    status: Mapped[str] = mapped_column(String(12))  # OPEN, COMPLETED, EXPIRED
    payout_id: Mapped[int | None] = mapped_column(ForeignKey("payouts.id"), nullable=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
