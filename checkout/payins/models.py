"""Tables of the payin gateway: trades with their status history, refunds."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import JSON, BigInteger, Date, DateTime, ForeignKey, Index, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..cards.models import CardToken
from ..db import Base

# The dashboard's search (migration 0019; checkout/dashboard/search.py): the customer's fields inside
# `details` are expression indexes (PostgreSQL only, written as the queries write them); the prefix ones
# are text_pattern_ops on PostgreSQL, for LIKE 'start%' whatever the collation.
SEARCH_INDEXES = (
    Index(
        "ix_trades_merchant_customer_email",
        "merchant_id",
        text("lower((details -> 'customer') ->> 'email')"),
        "created_at",
        "id",
    ).ddl_if(dialect="postgresql"),
    Index(
        "ix_trades_merchant_customer_document",
        "merchant_id",
        text("((details -> 'customer') -> 'identify') ->> 'number'"),
        "created_at",
        "id",
    ).ddl_if(dialect="postgresql"),
    Index("ix_trades_merchant_amount_created", "merchant_id", "amount_minor", "created_at", "id"),
    # The overview's payin volume: an index-only sum over the period's paid trades.
    Index(
        "ix_trades_merchant_status_created_amount", "merchant_id", "status", "created_at", "currency", "amount_minor"
    ),
    Index(
        "ix_trades_merchant_trade_no_prefix",
        "merchant_id",
        "trade_no",
        postgresql_ops={"trade_no": "text_pattern_ops"},
    ),
    Index(
        "ix_trades_merchant_out_trade_no_prefix",
        "merchant_id",
        "out_trade_no",
        postgresql_ops={"out_trade_no": "text_pattern_ops"},
    ),
)


class Trade(Base):
    __tablename__ = "trades"
    __table_args__ = (
        UniqueConstraint("merchant_id", "out_trade_no", name="uq_trades_merchant_out_trade_no"),
        # The dashboard's list, newest first by keyset, unfiltered and by each filter (these lead with the
        # merchant, so they also serve every lookup by merchant_id).
        Index("ix_trades_merchant_created", "merchant_id", "created_at", "id"),
        Index("ix_trades_merchant_status_created", "merchant_id", "status", "created_at", "id"),
        Index("ix_trades_merchant_method_created", "merchant_id", "method", "created_at", "id"),
        # The worker's rounds (payins.jobs), which must not read every pending trade to find the few due:
        # cards to charge and vaults to debit, in id order; trades past their expiry.
        Index("ix_trades_status_method_kind_id", "status", "method", "kind", "id"),
        Index("ix_trades_status_expires_at_id", "status", "expires_at", "id"),
        # The checkout link (`/?prepay_id=`) finds its trade by prepay_id, unauthenticated: one row, by index.
        Index("uq_trades_prepay_id", "prepay_id", unique=True),
        *SEARCH_INDEXES,
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    trade_no: Mapped[str] = mapped_column(String(64), unique=True)
    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id"))
    out_trade_no: Mapped[str] = mapped_column(String(64))
    prepay_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # pre_authorization, vault or direct
    kind: Mapped[str] = mapped_column(String(24))
    method: Mapped[str] = mapped_column(String(32))
    channel: Mapped[str | None] = mapped_column(String(32), nullable=True)
    status: Mapped[str] = mapped_column(String(24))
    amount_minor: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    subject: Mapped[str] = mapped_column(String(128))
    content: Mapped[str | None] = mapped_column(String(255), nullable=True)
    buyer_id: Mapped[str] = mapped_column(String(64))
    notify_url: Mapped[str] = mapped_column(String(512))
    return_url: Mapped[str | None] = mapped_column(String(512), nullable=True)
    vault_id: Mapped[int | None] = mapped_column(ForeignKey("vaults.id"), nullable=True, index=True)
    card_token_id: Mapped[int | None] = mapped_column(ForeignKey("card_tokens.id"), nullable=True)
    scheduled_date: Mapped[date | None] = mapped_column(Date, nullable=True, index=True)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Method-specific data: what the method answered (qr_code, barcode, ...) and what it was given.
    details: Mapped[dict] = mapped_column(JSON, default=dict)
    failure_reason: Mapped[str | None] = mapped_column(String(128), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    events: Mapped[list[TradeEvent]] = relationship(order_by="TradeEvent.id", lazy="selectin")
    refunds: Mapped[list[Refund]] = relationship(order_by="Refund.id", lazy="selectin")
    card_token: Mapped[CardToken | None] = relationship(lazy="joined")


class TradeEvent(Base):
    """One row per status change of a trade: its history, as /trade/query reports it."""

    __tablename__ = "trade_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    trade_id: Mapped[int] = mapped_column(ForeignKey("trades.id"), index=True)
    from_status: Mapped[str | None] = mapped_column(String(24), nullable=True)
    to_status: Mapped[str] = mapped_column(String(24))
    reason: Mapped[str | None] = mapped_column(String(128), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Refund(Base):
    __tablename__ = "refunds"
    __table_args__ = (UniqueConstraint("trade_id", "out_request_no", name="uq_refunds_trade_out_request_no"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    refund_no: Mapped[str] = mapped_column(String(64), unique=True)
    trade_id: Mapped[int] = mapped_column(ForeignKey("trades.id"), index=True)
    out_request_no: Mapped[str | None] = mapped_column(String(16), nullable=True)
    amount_minor: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    status: Mapped[str] = mapped_column(String(24))
    reason: Mapped[str | None] = mapped_column(String(128), nullable=True)
    user_info: Mapped[dict] = mapped_column(JSON, default=dict)
    bank_info: Mapped[dict] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
