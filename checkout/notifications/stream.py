"""The merchant's notifications as `checkout listen` reads them: a cursor over the outbox, each message with the
body and signed headers the worker sends, and the listener's forward recorded as an attempt."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .. import clock
from ..merchants.models import Merchant
from .models import DELIVERED, DeliveryAttempt, OutboxMessage
from .outbox import set_status
from .queries import Outgoing
from .transport import body_of, headers_for

# An id missing from the outbox this long is taken for an insert rolled back: the cursor moves past it. Until
# then it may be a transaction still open (PostgreSQL hands out ids before the commit), whose message must
# not be skipped, so the stream stops short of it.
SETTLE = 2.0
SCAN = 1000  # ids looked at per poll, every merchant's: the stream's cursor walks the whole outbox
BATCH = 50  # messages per answer
VIA_LISTEN = "listen"


@dataclass
class Holes:
    """Ids missing after the cursor, each with when one long-poll first saw it missing (monotonic seconds)."""

    first_seen: dict[int, float] = field(default_factory=dict)


def start(session: Session) -> int:
    """The cursor of a new listener: after every message stored now (a listener hears what happens next)."""
    return int(session.scalar(select(func.max(OutboxMessage.id))) or 0)


def poll(session: Session, merchant_id: int, after: int, holes: Holes, now: float) -> tuple[list[OutboxMessage], int]:
    """The merchant's HTTP messages after the cursor `after`, oldest first, and the cursor that follows them.

    The new cursor never passes an id that may still be committed later (a hole younger than SETTLE), so a
    listener that resumes from it misses nothing: at least once, across reconnects and restarts."""
    ids = list(
        session.scalars(select(OutboxMessage.id).where(OutboxMessage.id > after).order_by(OutboxMessage.id).limit(SCAN))
    )
    horizon = after
    for id_ in ids:
        if id_ > horizon + 1:  # the ids horizon+1 .. id_-1 are missing: keyed by the first of them
            seen = holes.first_seen.setdefault(horizon + 1, now)
            if now - seen < SETTLE:
                break
        horizon = id_
    for hole in [hole for hole in holes.first_seen if hole <= horizon]:
        del holes.first_seen[hole]
    if horizon == after:
        return [], after
    messages = list(
        session.scalars(
            select(OutboxMessage)
            .where(
                OutboxMessage.merchant_id == merchant_id,
                OutboxMessage.id > after,
                OutboxMessage.id <= horizon,
                OutboxMessage.kind.not_like("%.email"),
            )
            .order_by(OutboxMessage.id)
            .limit(BATCH)
        )
    )
    if len(messages) == BATCH:
        horizon = messages[-1].id
    return messages, horizon


def describe(message: OutboxMessage, merchant: Merchant) -> dict:
    """One streamed message: what the worker POSTs, byte for byte, with headers signed now (a receiver's
    freshness check then passes whenever the listener forwards it)."""
    body = body_of(message.payload)
    outgoing = Outgoing(
        id=message.id,
        merchant_id=message.merchant_id,
        kind=message.kind,
        target=message.target,
        subject=message.subject_id,
        held_until=clock.real_now(),
        body=body,
        payload=message.payload,
        app_key=merchant.app_key,
        security_key=merchant.security_key,
    )
    return {
        "id": message.notify_id,
        "kind": message.kind,
        "target": message.target,
        "subject": message.subject_id,
        "status": message.status,
        "created_at": clock.unix(message.created_at),
        "body": body.decode(),  # UTF-8 JSON: its bytes are body.encode("utf-8")
        "headers": headers_for(outgoing),
    }


def record_forward(
    session: Session,
    merchant_id: int,
    notify_id: str,
    *,
    status_code: int | None,
    response: str | None,
    error: str | None,
    duration_ms: int,
) -> OutboxMessage | None:
    """Record what the listener's local receiver answered, as an attempt outside the schedule (it never uses
    up a retry). An acknowledgement (200 and `success`) marks the message delivered: the listener's receiver
    is the merchant's, and the service itself may never reach a receiver on the developer's own machine.
    None: the merchant has no such message."""
    message = session.scalar(
        select(OutboxMessage)
        .where(OutboxMessage.merchant_id == merchant_id, OutboxMessage.notify_id == notify_id)
        .with_for_update(of=OutboxMessage)
        .execution_options(populate_existing=True)
    )
    if message is None:
        return None
    with clock.merchant(merchant_id):
        at = clock.now()
    succeeded = status_code == 200 and (response or "").strip() == "success"
    if error is None and not succeeded:
        error = f"answered {status_code} without the body 'success'"
    message.attempts += 1
    session.add(
        DeliveryAttempt(
            outbox_id=message.id,
            number=message.attempts,
            at=at,
            status_code=status_code,
            response=_clean(response),
            error=_clean(error),
            duration_ms=max(0, duration_ms),
            succeeded=succeeded,
            manual=True,
            via=VIA_LISTEN,
        )
    )
    if succeeded and message.status != DELIVERED:
        # A worker sending it at this moment loses its hold: its outcome is not recorded over this one.
        _deliver(message, at)
    return message


def _deliver(message: OutboxMessage, at: datetime) -> None:
    message.locked_until = None
    message.resend_from = None
    message.last_error = None
    set_status(message, DELIVERED, at=at, delivered_at=at)


def _clean(text: str | None) -> str | None:
    return text.replace("\x00", "\ufffd")[:255] if text else text
