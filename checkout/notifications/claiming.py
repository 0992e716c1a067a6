"""Claiming due messages for one worker: each merchant's share, each subject's in the order written, the hold."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import exists, func, or_, select, tuple_, update
from sqlalchemy.orm import Session, lazyload

from .. import clock
from ..jobs import Due, clock_scopes
from ..merchants.models import Merchant
from .models import PENDING, OutboxMessage
from .queries import Outgoing
from .transport import body_of

LEASE = timedelta(seconds=60)  # wall clock: how long a claim holds before another worker may take over
# A round claims up to BATCH messages. Its database work does not grow with the messages it carries (a claim's
# statements grow with its merchants, a recording is three statements), so a large round spreads that work
# over more deliveries (docs/benchmarks.md).
BATCH = 128

# A claim sends messages without reading their earlier attempts.
_NO_ATTEMPTS = lazyload(OutboxMessage.attempt_log)


def claim(session: Session, limit: int | None = None, only: int | None = None) -> list[Outgoing]:
    """Take up to `limit` due messages for this worker (skipping rows other workers hold) and commit; `only`:
    that one message, due or not (a resend).

    A message is due on its merchant's clock. Merchants share a round: each merchant with something due
    gets an equal part of it (the oldest first), so one merchant's backlog never crowds the others out. A
    message waits while an earlier one to the same target about the same subject is still pending and held
    or not yet due, so that one trade's or payout's notifications go out in the order written.
    """
    held_before = clock.real_now()
    limit = limit or BATCH
    free = or_(OutboxMessage.locked_until.is_(None), OutboxMessage.locked_until < held_before)
    if only is not None:
        messages = list(
            session.scalars(
                select(OutboxMessage)
                .where(free, OutboxMessage.id == only)
                .with_for_update(of=OutboxMessage, skip_locked=True)
                .options(_NO_ATTEMPTS)
            )
        )
    else:
        messages = _in_order(session, _due_messages(session, held_before, free, limit))
    held_until = held_before + LEASE
    if messages:
        # One statement for the round's hold (the rows are locked by this transaction), not one per message;
        # the entities this session holds take the value stored.
        session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id.in_([message.id for message in messages]))
            .values(locked_until=held_until)
            .execution_options(synchronize_session="evaluate")
        )
    keys = _keys(session, {message.merchant_id for message in messages})
    claimed = [_outgoing(message, keys, held_until, manual=only is not None) for message in messages]
    session.commit()
    return claimed


def _keys(session: Session, merchant_ids: set[int]) -> dict[int, tuple[str, str]]:
    """The round's merchants' keys (app_key, security_key), read together: one statement a round."""
    if not merchant_ids:
        return {}
    query = select(Merchant.id, Merchant.app_key, Merchant.security_key).where(Merchant.id.in_(merchant_ids))
    return {row.id: (row.app_key, row.security_key) for row in session.execute(query)}


def _outgoing(
    message: OutboxMessage, keys: dict[int, tuple[str, str]], held_until: datetime, *, manual: bool
) -> Outgoing:
    app_key, security_key = keys.get(message.merchant_id, (None, None))
    return Outgoing(
        id=message.id,
        merchant_id=message.merchant_id,
        kind=message.kind,
        target=message.target,
        subject=message.subject_id,
        held_until=held_until,
        body=body_of(message.payload),
        payload=message.payload,
        app_key=app_key,
        security_key=security_key,
        manual=manual or message.resend_from is not None,
    )


def _due_messages(session: Session, held_before: datetime, free, limit: int) -> list[OutboxMessage]:
    """Up to `limit` due messages, locked (SKIP LOCKED): the merchants with the oldest due messages first,
    each an equal share, each merchant's in id order."""
    # Each clock's due messages (the shared one's, then those of each merchant on a clock of its own
    # with any due), ordered by their oldest.
    candidates: list[tuple[int, int, tuple]] = []  # (oldest due id, merchant, its due conditions)
    due_on_own_clock = Due((OutboxMessage.status == PENDING, free), OutboxMessage.next_attempt_at)
    for clock_merchant, scope in clock_scopes(session, OutboxMessage.merchant_id, due_on_own_clock):
        with clock.merchant(clock_merchant):
            due = _due(held_before, free, scope)
        candidates += [
            (first, merchant_id, due)
            for merchant_id, first in session.execute(
                select(OutboxMessage.merchant_id, func.min(OutboxMessage.id))
                .where(*due)
                .group_by(OutboxMessage.merchant_id)
                .order_by(func.min(OutboxMessage.id))
                .limit(limit)
            )
        ]
    merchants = sorted(candidates, key=lambda c: c[0])[:limit]
    messages: list[OutboxMessage] = []
    share = max(1, limit // max(1, len(merchants)))
    for _, merchant_id, due in merchants:
        messages += session.scalars(
            select(OutboxMessage)
            .where(OutboxMessage.merchant_id == merchant_id, *due)
            .order_by(OutboxMessage.id)
            .limit(min(share, limit - len(messages)))
            .with_for_update(of=OutboxMessage, skip_locked=True)
            .options(_NO_ATTEMPTS)
        ).all()
        if len(messages) >= limit:
            break
    return messages


def _due(held_before: datetime, free, scope) -> tuple:
    """What makes a message of one clock's scope due on that clock (the current one)."""
    now = clock.now()
    # The subjects that make later messages wait: those with a pending message that is held or not yet due
    # (a few: those in flight and those waiting for a retry), found once per claim and then probed per
    # candidate. Never one anti-join over every pending message: on a freshly filled outbox, before the
    # planner has statistics, PostgreSQL runs that as a scan of the pending messages for each candidate
    # (docs/benchmarks.md).
    waiting = (
        select(OutboxMessage.target, OutboxMessage.subject_id, func.min(OutboxMessage.id).label("first"))
        .where(
            OutboxMessage.status == PENDING,
            or_(OutboxMessage.next_attempt_at > now, OutboxMessage.locked_until >= held_before),
        )
        .group_by(OutboxMessage.target, OutboxMessage.subject_id)
        .cte("waiting")
        .prefix_with("MATERIALIZED")  # computed once per claim, not once per candidate
    )
    blocked = exists().where(
        waiting.c.target == OutboxMessage.target,
        waiting.c.subject_id == OutboxMessage.subject_id,
        waiting.c.first < OutboxMessage.id,
    )
    return (scope, OutboxMessage.status == PENDING, OutboxMessage.next_attempt_at <= now, free, ~blocked)


def _in_order(session: Session, messages: list[OutboxMessage]) -> list[OutboxMessage]:
    """The claimed messages whose every earlier pending message of the same target and subject is claimed too.

    `_due` holds a message back behind an earlier one that is held or waiting for a retry, as committed. An
    earlier one that another worker's claim has just locked, but not yet committed its hold on, looks free;
    SKIP LOCKED then passes over it and the later message would be taken alone and could overtake it. Read
    here in this claim's transaction, it is still pending: the later message stays where it is (its row lock
    goes with this commit, its hold was never written) until the earlier one is delivered."""
    if not messages:
        return messages
    subjects = {(message.target, message.subject_id) for message in messages}
    earlier: dict[tuple[str, str], set[int]] = {}
    for row in session.execute(
        select(OutboxMessage.id, OutboxMessage.target, OutboxMessage.subject_id).where(
            OutboxMessage.status == PENDING,
            OutboxMessage.id < max(message.id for message in messages),
            tuple_(OutboxMessage.target, OutboxMessage.subject_id).in_(subjects),
        )
    ):
        earlier.setdefault((row.target, row.subject_id), set()).add(row.id)
    kept: list[OutboxMessage] = []
    taken: set[int] = set()
    for message in sorted(messages, key=lambda m: m.id):
        before = {id_ for id_ in earlier.get((message.target, message.subject_id), ()) if id_ < message.id}
        if before <= taken:
            kept.append(message)
            taken.add(message.id)
    return kept
