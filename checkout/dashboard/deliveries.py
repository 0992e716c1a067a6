"""The notifications a merchant's objects caused, with every attempt, and queueing one to be sent again."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from ..notifications import inspect, outbox
from ..notifications.models import OutboxMessage


def for_subject(session: Session, merchant_id: int, subject_id: str) -> list[OutboxMessage]:
    """One trade's, vault's or payout's notifications, oldest first, each with its attempts."""
    return list(
        session.scalars(
            select(OutboxMessage)
            .where(OutboxMessage.merchant_id == merchant_id, OutboxMessage.subject_id == subject_id)
            .options(selectinload(OutboxMessage.attempt_log))
            .order_by(OutboxMessage.id)
        )
    )


class Busy(Exception):
    """A worker holds the message at this moment: the same answer the sandbox API gives (delivery-busy)."""


def resend(session: Session, merchant_id: int, notify_id: str) -> OutboxMessage | None:
    """Queue one of this merchant's notifications for the worker to send again, as
    `POST /sandbox/deliveries/<id>/resend` does (nothing is sent in the request). None when the merchant
    has no such notification (another merchant's is as unknown as a made-up id)."""
    message = inspect.find(session, merchant_id, notify_id)
    if message is None:
        return None
    queued = outbox.request_resend(session, message.id)
    if queued is None:
        raise Busy(notify_id)
    return queued
