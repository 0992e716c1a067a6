"""Recording attempts: what an outcome makes of its message (delivered, retried on the schedule, failed)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime, timedelta
from typing import TypeGuard, cast

from sqlalchemy import Table, bindparam, func, insert, select, update
from sqlalchemy.orm import Session

from .. import clock
from .models import DELIVERED, FAILED, SKIPPED, DeliveryAttempt, OutboxMessage
from .outbox import set_status
from .queries import Outgoing
from .result import Result

# Retries, in minutes after the first dispatch (seed, Events rule 4); then the message is failed and kept.
RETRY_MINUTES = (10, 30, 60, 120, 360, 840)


def record_all(session: Session, outcomes: list[tuple[Outgoing, Result | None]], *, manual: bool = False) -> int:
    """Record a round's outcomes (None: the message was not sent, give it back) in one transaction and
    commit; answers how many this worker still held. The only way an attempt is written.

    A fast path, below the ORM: the messages are read and locked in one statement as plain `_Row`s, changed
    by `apply` (the status through the outbox's transition table, as an entity's), written back in one
    executemany, their attempts inserted in another (docs/benchmarks.md). Its invariant: a row is written
    only while it is locked by this transaction and still carries this worker's hold (`_holds`), so no
    other writer's change lies between the read and the write; entities of these rows that the session
    holds are expired after the commit, so that nothing reads the values they had before."""
    if not outcomes:
        return 0
    rows = session.execute(_READ.where(_OUTBOX.c.id.in_([o.id for o, _ in outcomes])))
    messages = {row.id: _Row(**row._mapping) for row in rows}
    changed, attempts = [], []
    for outgoing, result in outcomes:
        message = messages.get(outgoing.id)
        if _holds(message, outgoing):
            with clock.merchant(message.merchant_id):
                attempt = apply(session, message, result, manual=manual)
            changed.append({"_id": message.id, **{name: getattr(message, name) for name in _CHANGED}})
            if attempt is not None:
                attempts.append(attempt)
    if changed:
        session.execute(_UPDATE, changed)
    if attempts:
        session.execute(insert(DeliveryAttempt), attempts)
    session.commit()
    for item in changed:
        stale = session.identity_map.get(Session.identity_key(OutboxMessage, item["_id"]))
        if stale is not None:
            session.expire(stale)
    return len(changed)


def record(session: Session, outgoing: Outgoing, result: Result | None, *, manual: bool = False) -> bool:
    """Record one outcome on its own (None: give the message back unsent)."""
    return record_all(session, [(outgoing, result)], manual=manual) == 1


@dataclass
class _Row:
    """A held message's row inside `record_all`: read locked, changed by `apply`, written back."""

    id: int
    merchant_id: int
    status: str
    attempts: int
    locked_until: datetime | None
    next_attempt_at: datetime
    first_dispatch_at: datetime | None
    delivered_at: datetime | None
    last_error: str | None
    resend_from: str | None


_CHANGED = tuple(f.name for f in fields(_Row) if f.name not in ("id", "merchant_id"))
_OUTBOX = cast(Table, OutboxMessage.__table__)
# Locked in id order, so that two transactions locking some of the same rows wait and never deadlock.
_READ = select(*(_OUTBOX.c[f.name] for f in fields(_Row))).order_by(_OUTBOX.c.id).with_for_update()
_UPDATE = update(_OUTBOX).where(_OUTBOX.c.id == bindparam("_id")).values({name: bindparam(name) for name in _CHANGED})


def _holds(message: _Row | None, outgoing: Outgoing) -> TypeGuard[_Row]:
    """Whether this worker still holds the message (a slower one that lost its hold records nothing)."""
    return (
        message is not None
        and message.locked_until is not None
        and clock.as_utc(message.locked_until) == clock.as_utc(outgoing.held_until)
    )


def apply(session: Session, message: OutboxMessage | _Row, result: Result | None, *, manual: bool) -> dict | None:
    """Write one attempt into the message and what follows from it: delivered, retried on the
    schedule, or failed; answers the attempt's row, for the caller to insert. No result: the message was
    not sent this round and is given back untouched. A manual resend is recorded but leaves the automatic
    schedule as it was; one that was queued (outbox.request_resend) and merely fails puts back the status
    the message had."""
    message.locked_until = None
    if result is None:
        return None
    queued_from, message.resend_from = message.resend_from, None
    at = result.started_at or clock.now()
    message.attempts += 1
    attempt = {
        "outbox_id": message.id,
        "number": message.attempts,
        "at": at,
        "status_code": result.status_code,
        "response": _clean(result.response),
        "error": _clean(result.error),
        "duration_ms": result.duration_ms,
        "succeeded": result.succeeded,
        "manual": manual,
    }
    if message.first_dispatch_at is None and not manual:
        message.first_dispatch_at = at
    message.last_error = _clean(result.error)
    if result.succeeded:
        set_status(message, DELIVERED, at=at, delivered_at=at)
    elif result.skipped:
        set_status(message, SKIPPED, at=at)
    elif result.final:
        set_status(message, FAILED, at=at)
    elif manual:
        _put_back(session, message, queued_from, at)  # as the status and the schedule were
    elif (automatic := _automatic_attempts(session, message.id) + 1) <= len(RETRY_MINUTES):
        # A retry is no move: the message stays pending, only later.
        assert message.first_dispatch_at is not None  # set above: not manual
        first = clock.as_utc(message.first_dispatch_at)
        message.next_attempt_at = first + timedelta(minutes=RETRY_MINUTES[automatic - 1])
    else:
        set_status(message, FAILED, at=at)
    return attempt


def _put_back(session: Session, message: OutboxMessage | _Row, status: str | None, at: datetime) -> None:
    """After a queued resend that merely failed: the status it was queued from, and a pending message's
    next automatic attempt where the schedule has it (the queueing had made it due at once)."""
    if status is None:
        return  # sent at once (the command line): nothing was changed
    if status != message.status:
        set_status(message, status, at=at)
    elif message.first_dispatch_at is not None and (done := _automatic_attempts(session, message.id)) > 0:
        first = clock.as_utc(message.first_dispatch_at)
        message.next_attempt_at = first + timedelta(minutes=RETRY_MINUTES[min(done, len(RETRY_MINUTES)) - 1])


def _automatic_attempts(session: Session, outbox_id: int) -> int:
    """The message's attempts made on the schedule so far (the one being recorded not included)."""
    return (
        session.scalar(
            select(func.count())
            .select_from(DeliveryAttempt)
            .where(DeliveryAttempt.outbox_id == outbox_id, DeliveryAttempt.manual.is_(False))
        )
        or 0
    )


def _clean(text: str | None) -> str | None:
    """What a receiver answered, made storable (PostgreSQL text cannot hold NUL)."""
    return text.replace("\x00", "\ufffd")[:255] if text else text
