"""The outbox table: everything sent later is first written here, in the transaction that caused it."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base

PENDING, DELIVERED, FAILED = "pending", "delivered", "failed"


class OutboxMessage(Base):
    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_due", "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    notify_id: Mapped[str] = mapped_column(String(36), unique=True)
    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id"), index=True)
    # payin.callback, vault.callback, refund.email, payout.notification
    kind: Mapped[str] = mapped_column(String(32))
    target: Mapped[str] = mapped_column(String(512))  # a URL, or an e-mail address for *.email
    subject_id: Mapped[str] = mapped_column(String(64), index=True)  # trade_no, vault token, ...
    payload: Mapped[dict] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default=PENDING)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    first_dispatch_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
