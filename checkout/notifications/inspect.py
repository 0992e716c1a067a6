"""Listing deliveries and their attempts, for the sandbox API and the command line."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import clock
from ..statemachine import OutboxStatus
from .models import PENDING, OutboxMessage

STATUSES = tuple(OutboxStatus)


def find(session: Session, merchant_id: int, notify_id: str) -> OutboxMessage | None:
    return session.scalar(
        select(OutboxMessage).where(OutboxMessage.merchant_id == merchant_id, OutboxMessage.notify_id == notify_id)
    )


def listing(
    session: Session, merchant_id: int | None, status: str | None, limit: int = 100, *, before: int | None = None
) -> list[OutboxMessage]:
    """Newest first; `before` (a message's id) pages to older ones."""
    query = select(OutboxMessage).order_by(OutboxMessage.id.desc()).limit(limit)
    if before is not None:
        query = query.where(OutboxMessage.id < before)
    if merchant_id is not None:
        query = query.where(OutboxMessage.merchant_id == merchant_id)
    if status:
        query = query.where(OutboxMessage.status == status)
    return list(session.scalars(query))


def describe(message: OutboxMessage) -> dict:
    def when(moment):
        return clock.unix(moment) if moment else None

    return {
        "id": message.notify_id,
        "kind": message.kind,
        "target": message.target,
        "subject": message.subject_id,
        "status": message.status,
        "attempts": message.attempts,
        "created_at": when(message.created_at),
        "first_dispatch_at": when(message.first_dispatch_at),
        "next_attempt_at": when(message.next_attempt_at) if message.status == PENDING else None,
        "delivered_at": when(message.delivered_at),
        "last_error": message.last_error,
        "payload": message.payload,
        "attempt_log": [
            {
                "number": a.number,
                "at": when(a.at),
                "status_code": a.status_code,
                "response": a.response,
                "error": a.error,
                "duration_ms": a.duration_ms,
                "succeeded": a.succeeded,
                "manual": a.manual,
                "via": a.via,
            }
            for a in message.attempt_log
        ],
    }
