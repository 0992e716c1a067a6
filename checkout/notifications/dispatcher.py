"""Delivery rounds and resends: claim what is due, send it on the sending threads, record outcomes as they come."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from sqlalchemy.orm import Session

from . import inbox, recording, sending, transport
from .claiming import BATCH, LEASE, claim
from .models import OutboxMessage
from .queries import Outgoing
from .result import Result

# The merchants with work share the THREADS evenly (sending.Sender). A round claims up to BATCH less what this
# process still has queued or sending, and waits ROUND_WAIT seconds at most for its results: the rest are
# recorded as they finish, by later rounds.
THREADS = 16
ROUND_WAIT = 1.0
# A send still running this long (a receiver trickling its headers past every read timeout) is given up
# on: answered "timed out", its thread replaced. Well inside LEASE, so no other worker has taken it yet.
GIVE_UP_AFTER = transport.TOTAL_TIMEOUT + transport.READ_TIMEOUT
# A claimed message must start sending this long before its hold ends, or be given back unsent: its send
# may take GIVE_UP_AFTER, and only then may another worker take it over.
START_MARGIN = LEASE.total_seconds() - GIVE_UP_AFTER - 5

log = logging.getLogger(__name__)

Sender = sending.Sender[Outgoing]


def new_sender() -> Sender:
    """The sending threads of one worker (or of one command's resend), shared by all its rounds: a slow
    receiver holds a thread, never a round, since a round waits for results only briefly and what is still
    in flight is recorded by a later round. Its threads start with the first send; its owner closes it."""
    return sending.Sender(THREADS)


def dispatch_due(session: Session, config: Mapping[str, Any], sender: Sender) -> int:
    """One worker round: record what finished since the last one, claim what is due and deliver it.
    With nothing to claim but sends of this process still in flight, wait for them a round's time
    (ROUND_WAIT), so that the worker neither sleeps on their results nor polls the database meanwhile;
    they count as steps until they are recorded."""
    sender.reap(GIVE_UP_AFTER)
    finished = collect_finished(session, sender)
    room = BATCH - len(sender.unfinished())  # the threads take them in turn; START_MARGIN gives back the late
    claimed = claim(session, min(BATCH, room)) if room > 0 else []
    if claimed:
        deliver(session, claimed, config, sender)
    elif sender.unfinished():
        sender.wait_any(None, time.monotonic() + ROUND_WAIT, manual=False)
        finished += collect_finished(session, sender)
    return finished + len(claimed) + len(sender.unfinished())


def resend(session: Session, message: OutboxMessage, config: Mapping[str, Any], sender: Sender) -> OutboxMessage | None:
    """Send one message again now, in this process (the command line: a request queues it instead, with
    outbox.request_resend); None when another worker holds it at the moment."""
    claimed = claim(session, 1, only=message.id)
    if not claimed:
        return None
    deliver(session, claimed, config, sender, manual=True)
    return session.get(OutboxMessage, message.id, populate_existing=True)


def deliver(
    session: Session, claimed: list[Outgoing], config: Mapping[str, Any], sender: Sender, *, manual: bool = False
) -> int:
    """Hand claimed messages to the sending threads, one subject's in the order written (PARTIAL_REFUNDED,
    then REFUNDED), and record outcomes as they come: each batch that finished while the last one was
    being recorded, so that a worker killed mid-round sends again only what it had not recorded. A round
    waits ROUND_WAIT at most (a manual resend, its own message); whatever is still in flight then is
    recorded by a later round of this process, or, if the process dies, sent again once its hold ends."""
    groups: dict[tuple[str, str], list[Outgoing]] = {}
    kept_here: list[tuple[Outgoing, Result | None]] = []
    for outgoing in sorted(claimed, key=lambda o: o.id):
        app_id = inbox.own_app_id(outgoing.target, config)
        if app_id is not None:  # the service's own inbox: kept in-process, no HTTP (inbox.own_app_id)
            kept_here.append((outgoing, inbox.deliver(session, outgoing, app_id)))
            continue
        groups.setdefault((outgoing.target, outgoing.subject), []).append(outgoing)
    for resent in (False, True):
        batch = [(o, result) for o, result in kept_here if (manual or o.manual) is resent]
        if batch:
            recording.record_all(session, batch, manual=resent)
    total = len(claimed)
    claimed = [outgoing for group in groups.values() for outgoing in group]
    start_by = time.monotonic() + START_MARGIN
    for group in groups.values():
        merchant = group[0].merchant_id
        sender.submit(
            merchant, group, lambda outgoing: transport.send(outgoing, config), manual=manual, start_by=start_by
        )
    deadline = time.monotonic() + (GIVE_UP_AFTER + 1 if manual else ROUND_WAIT)
    while True:
        sender.wait_any(claimed, min(deadline, time.monotonic() + 0.5))
        sender.reap(GIVE_UP_AFTER)
        # A manual resend (the web process) records only its own; the worker's rounds record the rest.
        _record_outcomes(session, sender.collect(claimed) if manual else sender.collect(manual=False))
        if not sender.unfinished(claimed) or time.monotonic() >= deadline:
            break
    return total


def collect_finished(session: Session, sender: Sender) -> int:
    """Record what earlier rounds left in flight and has finished since (a resend records its own)."""
    outcomes = sender.collect(manual=False)
    _record_outcomes(session, outcomes)
    return len(outcomes)


def _record_outcomes(session: Session, outcomes: list[sending.Outcome[Outgoing]]) -> None:
    """Record finished sends in one transaction; if that fails, one by one (a lost one is sent again)."""
    if not outcomes:
        return
    for manual in (False, True):
        batch = [(o.message, o.result) for o in outcomes if (o.manual or o.message.manual) is manual]
        if not batch:
            continue
        try:
            recording.record_all(session, batch, manual=manual)
        except Exception:
            session.rollback()
            log.exception("could not record deliveries together; recording them one by one")
            for outgoing, result in batch:
                try:
                    recording.record(session, outgoing, result, manual=manual)
                except Exception:
                    session.rollback()
                    log.exception("could not record delivery %s; it will be sent again", outgoing.id)
