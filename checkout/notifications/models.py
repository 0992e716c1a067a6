"""The outbox table: everything sent later is first written here, in the transaction that caused it."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..db import Base
from ..statemachine import OutboxStatus

PENDING, DELIVERED, FAILED = OutboxStatus.PENDING, OutboxStatus.DELIVERED, OutboxStatus.FAILED
SKIPPED = OutboxStatus.SKIPPED  # e-mails while no SMTP server is configured


class OutboxMessage(Base):
    __tablename__ = "outbox"
    __table_args__ = (
        Index("ix_outbox_due", "status", "next_attempt_at"),
        # A claim walks the pending messages in id order and stops at its batch; delivered ones (nearly all,
        # in time) are not in this index at all.
        Index(
            "ix_outbox_pending",
            "id",
            postgresql_where=text("status = 'pending'"),
            sqlite_where=text("status = 'pending'"),
        ),
        # "Is an earlier message about this subject still waiting?": one probe per candidate, whatever the
        # planner believes of a freshly filled table.
        Index(
            "ix_outbox_pending_subject",
            "subject_id",
            "id",
            postgresql_where=text("status = 'pending'"),
            sqlite_where=text("status = 'pending'"),
        ),
    )

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
    # A worker sending this message holds it until then (wall clock); a dead worker's hold runs out.
    locked_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    last_error: Mapped[str | None] = mapped_column(String(255), nullable=True)
    # A resend asked for and not yet made: the status the message had then (the worker's next round sends it
    # as a manual attempt; one that merely fails puts this status, and the schedule, back).
    resend_from: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    attempt_log: Mapped[list[DeliveryAttempt]] = relationship(order_by="DeliveryAttempt.id", lazy="selectin")


class DeliveryAttempt(Base):
    """One try at delivering an outbox message, and what came of it."""

    __tablename__ = "delivery_attempts"

    id: Mapped[int] = mapped_column(primary_key=True)
    outbox_id: Mapped[int] = mapped_column(ForeignKey("outbox.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # business time, like the schedule
    status_code: Mapped[int | None] = mapped_column(Integer, nullable=True)
    response: Mapped[str | None] = mapped_column(String(255), nullable=True)
    error: Mapped[str | None] = mapped_column(String(255), nullable=True)
    duration_ms: Mapped[int] = mapped_column(Integer)
    succeeded: Mapped[bool] = mapped_column(Boolean)
    manual: Mapped[bool] = mapped_column(Boolean, default=False)  # a resend asked for, outside the schedule
    # None: the service sent it; "listen": `checkout listen` forwarded it and reported the local answer.
    via: Mapped[str | None] = mapped_column(String(16), nullable=True)


class InboxMessage(Base):
    """A notification the sandbox inbox (a notify_url on the service itself) received, as received."""

    __tablename__ = "sandbox_inbox"

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id", ondelete="CASCADE"), index=True)
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # the merchant's business time
    notify_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    headers: Mapped[dict] = mapped_column(JSON)
    body: Mapped[str] = mapped_column(Text)
    signature_valid: Mapped[bool] = mapped_column(Boolean)
