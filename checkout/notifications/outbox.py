"""Queueing messages in the outbox; called inside the transaction of the change they report."""
from __future__ import annotations

import uuid

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import clock
from .models import OutboxMessage


def enqueue(session: Session, *, merchant_id: int, kind: str, target: str, subject_id: str,
            payload: dict) -> OutboxMessage:
    """Queue one message; `notify_id` in the body is stable across retries, for deduplication."""
    notify_id = str(uuid.uuid4())
    now = clock.now()
    message = OutboxMessage(notify_id=notify_id, merchant_id=merchant_id, kind=kind, target=target,
                            subject_id=subject_id, payload={"notify_id": notify_id, **payload},
                            status="pending", attempts=0, next_attempt_at=now, created_at=now)
    session.add(message)
    return message


def for_subject(session: Session, subject_id: str) -> list[OutboxMessage]:
    return list(session.scalars(select(OutboxMessage).where(OutboxMessage.subject_id == subject_id)
                                .order_by(OutboxMessage.id)))
