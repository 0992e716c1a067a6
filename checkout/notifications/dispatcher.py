"""Delivering the outbox: claim due messages, sign and send them, record each attempt, schedule retries."""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, fields
from datetime import datetime, timedelta
from typing import TypeGuard, cast

import requests
import urllib3
from sqlalchemy import Table, bindparam, exists, func, insert, or_, select, tuple_, update
from sqlalchemy.orm import Session, lazyload
from sqlalchemy.orm.attributes import set_committed_value

from .. import clock, signing
from ..jobs import Due, clock_scopes
from ..merchants.models import Merchant
from . import mail, sending, targets
from .models import DELIVERED, FAILED, PENDING, SKIPPED, DeliveryAttempt, OutboxMessage
from .outbox import set_status
from .result import Result

# Retries, in minutes after the first dispatch (seed, Events rule 4); then the message is failed and kept.
RETRY_MINUTES = (10, 30, 60, 120, 360, 840)
LEASE = timedelta(seconds=60)  # wall clock: how long a claim holds before another worker may take over
CONNECT_TIMEOUT, READ_TIMEOUT, TOTAL_TIMEOUT = 3.0, 5.0, 10.0
MAX_RESPONSE = 64 * 1024
# A round claims up to BATCH messages, less what this process still has queued or sending (claiming and
# recording cost about the same for 128 as for 32, and a round's own cost was most of a delivery's: at 32 a
# round, a worker delivered 0.56 as fast as a bare loop of requests, at 128, 0.73). The merchants with work
# share the THREADS evenly; a message that cannot start sending within START_MARGIN of its claim is given
# back unsent. A round waits ROUND_WAIT seconds at most for its results (the rest are recorded as they
# finish, by later rounds).
BATCH, THREADS = 128, 16
ROUND_WAIT = 1.0
# A send still running this long (a receiver trickling its headers past every read timeout) is given up
# on: answered "timed out", its thread replaced. Well inside LEASE, so no other worker has taken it yet.
GIVE_UP_AFTER = TOTAL_TIMEOUT + READ_TIMEOUT
USER_AGENT = "checkout-notifier/1.0"

log = logging.getLogger(__name__)


def body_of(message: OutboxMessage) -> bytes:
    return json.dumps(message.payload, separators=(",", ":"), ensure_ascii=False).encode()


def headers_for(outgoing: Outgoing) -> dict[str, str]:
    """Payout notifications carry the payout signature; payin callbacks the provider's Pagsmile-Signature."""
    headers = {
        "Content-Type": "application/json; charset=utf-8",
        "User-Agent": USER_AGENT,
        "X-Notify-Id": outgoing.payload.get("notify_id", ""),
    }
    # Every message has a merchant (foreign key), so claim() filled in its keys.
    if outgoing.kind == "payout.notification":
        assert outgoing.app_key is not None
        headers["Authorization"] = signing.payout_signature(outgoing.payload, outgoing.app_key)
    else:
        assert outgoing.security_key is not None
        headers["Pagsmile-Signature"] = signing.callback_signature(
            outgoing.body, outgoing.security_key, clock.unix(clock.real_now())
        )
    return headers


def post(url: str, body: bytes, headers: dict[str, str], *, allow_private: bool) -> Result:
    """One POST with bounded connect, read and total time and a bounded response read."""
    started = time.monotonic()

    def result(**fields) -> Result:
        return Result(duration_ms=int((time.monotonic() - started) * 1000), **fields)

    try:
        with _sent(url, body, headers, allow_private=allow_private) as response:
            received = bytearray()
            while len(received) < MAX_RESPONSE:
                # read1: what one receive brings, so that a receiver trickling its answer meets the limit.
                chunk = response.raw.read1(4096, decode_content=True)
                if not chunk:
                    break
                received += chunk
                if time.monotonic() - started > TOTAL_TIMEOUT:
                    return result(succeeded=False, status_code=response.status_code, error="timed out")
            text = bytes(received[:MAX_RESPONSE]).decode("utf-8", "replace")
            ok = response.status_code == 200 and text.strip() == "success"
            error = None if ok else f"answered {response.status_code} without the body 'success'"
            return result(succeeded=ok, status_code=response.status_code, response=text[:255], error=error)
    except targets.BlockedAddress as exc:
        return result(succeeded=False, error=str(exc)[:255], final=True)
    except requests.Timeout:
        return result(succeeded=False, error="timed out")
    except requests.ConnectionError as exc:
        return result(succeeded=False, error=f"connection failed: {exc}"[:255])
    except urllib3.exceptions.ReadTimeoutError:  # from read1(): the answer stalled mid-body
        return result(succeeded=False, error="timed out")
    except (requests.RequestException, urllib3.exceptions.HTTPError, OSError, ValueError) as exc:
        return result(succeeded=False, error=f"{type(exc).__name__}: {exc}"[:255])


def _sent(url: str, body: bytes, headers: dict[str, str], *, allow_private: bool) -> requests.Response:
    """The POST's response, sent once more at once on a new connection when the receiver closed the
    connection without a word of answer.

    That is how a server's idle timeout meets a kept-alive connection we take up again at that moment
    (gunicorn closes idle ones after 2 s, and a worker delivering in bursts meets it): the receiver closed
    it as the request left, unread, and the attempt would otherwise wait for its retry, minutes later. A
    receiver that does read it and then closes gets it twice, which notifications allow (each is resent
    until acknowledged); one closing every connection costs a second connection per attempt, no more."""
    options = {"timeout": (CONNECT_TIMEOUT, READ_TIMEOUT), "allow_redirects": False, "stream": True}
    try:
        return targets.send(url, body, headers, allow_private=allow_private, **options)
    except requests.ConnectionError as exc:
        if not _closed_unanswered(exc):
            raise
    return targets.send(url, body, headers, allow_private=allow_private, **options)


def _closed_unanswered(exc: requests.ConnectionError) -> bool:
    """urllib3's ProtocolError("Connection aborted.", <why>), the why a reset or a close before any answer
    (http.client.RemoteDisconnected is a ConnectionResetError), never a refused or timed-out connect."""
    aborted = exc.args[0] if exc.args else None
    why = aborted.args[1] if isinstance(aborted, urllib3.exceptions.ProtocolError) and len(aborted.args) > 1 else None
    return isinstance(why, ConnectionResetError | BrokenPipeError)


@dataclass(eq=False)  # compared and hashed as the one object it is: the sending threads track it
class Outgoing:
    """A claimed message, ready to send with no database work left (no transaction open meanwhile)."""

    id: int
    merchant_id: int
    kind: str
    target: str
    subject: str
    held_until: datetime
    body: bytes
    payload: dict
    app_key: str | None
    security_key: str | None
    manual: bool = False  # a resend asked for: recorded as a manual attempt (see _apply)


def _due(held_before: datetime, free, scope) -> tuple:
    """What makes a message of one clock's scope due on that clock (the current one)."""
    now = clock.now()
    # The subjects that make later messages wait: first found among the pending messages that are held or
    # not yet due (a few: those in flight and those waiting for a retry), then probed per candidate. As one
    # anti-join over all pending messages, PostgreSQL without statistics yet for a freshly filled outbox (it
    # expects one row) scanned every pending message for each candidate: 147 ms a claim with 1,000 waiting,
    # most of a delivery round (docs/benchmarks.md).
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


# A claim sends messages without reading their earlier attempts.
_NO_ATTEMPTS = lazyload(OutboxMessage.attempt_log)


def claim(session: Session, limit: int | None = None, only: int | None = None) -> list[Outgoing]:
    """Take up to `limit` due messages for this worker (skipping rows other workers hold) and commit.

    A message is due on its merchant's clock. Merchants share a round: each merchant with something due
    gets an equal part of it (the oldest first), so one merchant's backlog never crowds the others out. A message waits while an earlier one to the
    same target about the same subject is still pending and held or not yet due, so that one trade's or
    payout's notifications go out in the order written.
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
        messages = []
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
        messages = _in_order(session, messages)
    held_until = held_before + LEASE
    if messages:
        # One statement for the round's hold (the rows are locked by this transaction), not one per message.
        session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id.in_([message.id for message in messages]))
            .values(locked_until=held_until)
            .execution_options(synchronize_session=False)
        )
    claimed = []
    for message in messages:
        merchant = session.get(Merchant, message.merchant_id)
        set_committed_value(message, "locked_until", held_until)  # as stored by the UPDATE above
        claimed.append(
            Outgoing(
                id=message.id,
                merchant_id=message.merchant_id,
                kind=message.kind,
                target=message.target,
                subject=message.subject_id,
                held_until=held_until,
                body=body_of(message),
                payload=message.payload,
                app_key=merchant.app_key if merchant else None,
                security_key=merchant.security_key if merchant else None,
                manual=only is not None or message.resend_from is not None,
            )
        )
    session.commit()
    return claimed


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


def _clean(text: str | None) -> str | None:
    """What a receiver answered, made storable (PostgreSQL text cannot hold NUL)."""
    return text.replace("\x00", "\ufffd")[:255] if text else text


@dataclass
class _Stored:
    """A message's row as recording reads and changes it: plain values, not an ORM entity (building,
    tracking and flushing one per message was most of a delivery round's database cost)."""

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


_CHANGED = tuple(f.name for f in fields(_Stored) if f.name not in ("id", "merchant_id"))


def _holds(message: _Stored | None, outgoing: Outgoing) -> TypeGuard[_Stored]:
    """Whether this worker still holds the message (a slower one that lost its hold records nothing)."""
    return (
        message is not None
        and message.locked_until is not None
        and clock.as_utc(message.locked_until) == clock.as_utc(outgoing.held_until)
    )


def _apply(session: Session, message: OutboxMessage | _Stored, result: Result | None, *, manual: bool) -> dict | None:
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


def _put_back(session: Session, message: OutboxMessage | _Stored, status: str | None, at: datetime) -> None:
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


_OUTBOX = cast(Table, OutboxMessage.__table__)
_READ = select(*(_OUTBOX.c[f.name] for f in fields(_Stored))).order_by(_OUTBOX.c.id).with_for_update()
_UPDATE = update(_OUTBOX).where(_OUTBOX.c.id == bindparam("_id")).values({name: bindparam(name) for name in _CHANGED})


def record_all(session: Session, outcomes: list[tuple[Outgoing, Result | None]], *, manual: bool = False) -> int:
    """Record a round's outcomes in one transaction: the messages locked and read in one statement, updated
    in one executemany, their attempts inserted in another, one commit. Answers how many this worker
    still held."""
    if not outcomes:
        return 0
    rows = session.execute(_READ.where(_OUTBOX.c.id.in_([o.id for o, _ in outcomes])))
    messages = {row.id: _Stored(**row._mapping) for row in rows}
    changed, attempts = [], []
    for outgoing, result in outcomes:
        message = messages.get(outgoing.id)
        if _holds(message, outgoing):
            with clock.merchant(message.merchant_id):
                attempt = _apply(session, message, result, manual=manual)
            changed.append({"_id": message.id, **{name: getattr(message, name) for name in _CHANGED}})
            if attempt is not None:
                attempts.append(attempt)
    if changed:
        session.execute(_UPDATE, changed)
    if attempts:
        session.execute(insert(DeliveryAttempt), attempts)
    session.commit()
    for item in changed:  # entities of these rows this session holds (a resend's) are read again when next used
        stale = session.identity_map.get(Session.identity_key(OutboxMessage, item["_id"]))
        if stale is not None:
            session.expire(stale)
    return len(changed)


def record(session: Session, outgoing: Outgoing, result: Result | None, *, manual: bool = False) -> bool:
    """Record one outcome on its own (None: give the message back unsent)."""
    return record_all(session, [(outgoing, result)], manual=manual) == 1


def _send(outgoing: Outgoing, config) -> Result:
    with clock.merchant(outgoing.merchant_id):  # a sending thread: the attempt is timed on its merchant's clock
        started_at = clock.now()
    if outgoing.app_key is None:
        result = Result(succeeded=False, error="the merchant no longer exists", final=True)
    elif outgoing.kind.endswith(".email"):
        result = mail.send(outgoing, config)
    else:
        allowed = targets.private_allowed(config)
        result = post(outgoing.target, outgoing.body, headers_for(outgoing), allow_private=allowed)
    result.started_at = started_at
    return result


# Shared by every round of this process. A slow receiver holds a thread, never a round: a round waits
# for results only briefly, and what is still in flight is recorded by a later round of this process.
_sender: sending.Sender[Outgoing] = sending.Sender(THREADS)
# A claimed message must start sending this long before its hold ends, or be given back unsent: its send
# may take GIVE_UP_AFTER, and only then may another worker take it over.
START_MARGIN = LEASE.total_seconds() - GIVE_UP_AFTER - 5


def _record_outcomes(session: Session, outcomes: list[sending.Outcome[Outgoing]]) -> None:
    """Record finished sends in one transaction; if that fails, one by one (a lost one is sent again)."""
    if not outcomes:
        return
    for manual in (False, True):
        batch = [(o.message, o.result) for o in outcomes if (o.manual or o.message.manual) is manual]
        if not batch:
            continue
        try:
            record_all(session, batch, manual=manual)
        except Exception:
            session.rollback()
            log.exception("could not record deliveries together; recording them one by one")
            for outgoing, result in batch:
                try:
                    record(session, outgoing, result, manual=manual)
                except Exception:
                    session.rollback()
                    log.exception("could not record delivery %s; it will be sent again", outgoing.id)


def deliver(session: Session, claimed: list[Outgoing], config, *, manual: bool = False) -> int:
    """Hand claimed messages to the sending threads, one subject's in the order written (PARTIAL_REFUNDED,
    then REFUNDED), and record outcomes as they come: each batch that finished while the last one was
    being recorded, so that a worker killed mid-round sends again only what it had not recorded. A round
    waits ROUND_WAIT at most (a manual resend, its own message); whatever is still in flight then is
    recorded by a later round of this process, or, if the process dies, sent again once its hold ends."""
    groups: dict[tuple[str, str], list[Outgoing]] = {}
    for outgoing in sorted(claimed, key=lambda o: o.id):
        groups.setdefault((outgoing.target, outgoing.subject), []).append(outgoing)
    start_by = time.monotonic() + START_MARGIN
    for group in groups.values():
        merchant = group[0].merchant_id
        _sender.submit(merchant, group, lambda outgoing: _send(outgoing, config), manual=manual, start_by=start_by)
    deadline = time.monotonic() + (GIVE_UP_AFTER + 1 if manual else ROUND_WAIT)
    while True:
        _sender.wait_any(claimed, min(deadline, time.monotonic() + 0.5))
        _sender.reap(GIVE_UP_AFTER)
        # A manual resend (the web process) records only its own; the worker's rounds record the rest.
        _record_outcomes(session, _sender.collect(claimed) if manual else _sender.collect(manual=False))
        if not _sender.unfinished(claimed) or time.monotonic() >= deadline:
            break
    return len(claimed)


def collect_finished(session: Session) -> int:
    """Record what earlier rounds left in flight and has finished since (a resend records its own)."""
    outcomes = _sender.collect(manual=False)
    _record_outcomes(session, outcomes)
    return len(outcomes)


def dispatch_due(session: Session, config) -> int:
    """One worker round: record what finished since the last one, claim what is due and deliver it.
    With nothing to claim but sends of this process still in flight, wait for them a round's time
    (ROUND_WAIT), so that the worker neither sleeps on their results nor polls the database meanwhile;
    they count as steps until they are recorded."""
    _sender.reap(GIVE_UP_AFTER)
    finished = collect_finished(session)
    room = BATCH - len(_sender.unfinished())  # the threads take them in turn; START_MARGIN gives back the late
    claimed = claim(session, min(BATCH, room)) if room > 0 else []
    if claimed:
        deliver(session, claimed, config)
    elif _sender.unfinished():
        _sender.wait_any(None, time.monotonic() + ROUND_WAIT, manual=False)
        finished += collect_finished(session)
    return finished + len(claimed) + len(_sender.unfinished())


def resend(session: Session, message: OutboxMessage, config) -> OutboxMessage | None:
    """Send one message again now, in this process (the command line: a request queues it instead, with
    outbox.request_resend); None when another worker holds it at the moment."""
    claimed = claim(session, 1, only=message.id)
    if not claimed:
        return None
    deliver(session, claimed, config, manual=True)
    return session.get(OutboxMessage, message.id, populate_existing=True)
