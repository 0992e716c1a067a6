"""Queueing messages in the outbox; called inside the transaction of the change they report."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import clock
from ..statemachine import OUTBOX
from .models import PENDING, OutboxMessage


def enqueue(
    session: Session, *, merchant_id: int, kind: str, target: str, subject_id: str, payload: dict
) -> OutboxMessage:
    """Queue one message; `notify_id` in the body is stable across retries, for deduplication."""
    notify_id = str(uuid.uuid4())
    now = clock.now()
    message = OutboxMessage(
        notify_id=notify_id,
        merchant_id=merchant_id,
        kind=kind,
        target=target,
        subject_id=subject_id,
        payload={"notify_id": notify_id, **payload},
        attempts=0,
        next_attempt_at=now,
        created_at=now,
    )
    set_status(message, PENDING, at=now)
    session.add(message)
    return message


class Statused(Protocol):
    status: str


def set_status(message: Statused, new: str, *, at: datetime | None = None, **changes) -> None:
    """The only place a message's status changes (the message is itself the notification; its attempts
    are its history, written by recording.py): an entity, or the row recording writes back."""
    OUTBOX.move(message, new, at=at, changes=changes)


def request_resend(session: Session, message_id: int) -> OutboxMessage | None:
    """Queue one message to be sent again by the worker's next round (a manual attempt, which leaves the
    automatic schedule as it was): pending, due now on its merchant's clock. Asking again before it is
    sent changes nothing, nor does asking for a pending message already due. None while a worker holds
    it (sending it at this moment). Nothing is sent here: a request never waits for a receiver."""
    message = session.scalar(
        select(OutboxMessage)
        .where(OutboxMessage.id == message_id)
        .with_for_update(of=OutboxMessage)
        .execution_options(populate_existing=True)
    )
    assert message is not None  # the caller found it
    if message.locked_until is not None and clock.as_utc(message.locked_until) >= clock.real_now():
        return None
    with clock.merchant(message.merchant_id):
        now = clock.now()
    already_due = message.status == PENDING and clock.as_utc(message.next_attempt_at) <= now
    if message.resend_from is None and not already_due:
        message.resend_from = message.status
        if message.status != PENDING:
            set_status(message, PENDING, at=now)
        message.next_attempt_at = now
    return message


def for_subject(session: Session, subject_id: str) -> list[OutboxMessage]:
    return list(
        session.scalars(select(OutboxMessage).where(OutboxMessage.subject_id == subject_id).order_by(OutboxMessage.id))
    )
