"""The vault table: one stored credential of a merchant's customer."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import BigInteger, Date, DateTime, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..cards.models import CardToken
from ..db import Base


class Vault(Base):
    __tablename__ = "vaults"
    # The dashboard's list by keyset, unfiltered and by each filter (they serve lookups by merchant_id too).
    __table_args__ = (
        Index("ix_vaults_merchant_created", "merchant_id", "created_at", "id"),
        Index("ix_vaults_merchant_status_created", "merchant_id", "status", "created_at", "id"),
        Index("ix_vaults_merchant_type_created", "merchant_id", "type", "created_at", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(64), unique=True)
    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id"))
    type: Mapped[str] = mapped_column(String(8))  # Card or pix
    status: Mapped[str] = mapped_column(String(16))
    uid: Mapped[str] = mapped_column(String(64))
    region: Mapped[str] = mapped_column(String(3))
    notify_url: Mapped[str | None] = mapped_column(String(512), nullable=True)
    return_url: Mapped[str | None] = mapped_column(String(512), nullable=True)
    subject: Mapped[str | None] = mapped_column(String(128), nullable=True)  # what the customer agrees to pay for
    # Card vaults
    card_token_id: Mapped[int | None] = mapped_column(ForeignKey("card_tokens.id"), nullable=True)
    # PIX Automático vaults: the plan the payer authorizes, dates in Brazil time
    plan_interval: Mapped[str | None] = mapped_column(String(2), nullable=True)
    plan_start_date: Mapped[date | None] = mapped_column(Date, nullable=True)
    plan_end_date: Mapped[date | None] = mapped_column(Date, nullable=True)
    plan_min_minor: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    plan_max_minor: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    customer_name: Mapped[str | None] = mapped_column(String(128), nullable=True)
    customer_document_type: Mapped[str | None] = mapped_column(String(4), nullable=True)
    customer_document: Mapped[str | None] = mapped_column(String(14), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    activated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    session_expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    card: Mapped[CardToken | None] = relationship(lazy="joined")
