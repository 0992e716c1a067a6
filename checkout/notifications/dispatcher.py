"""Delivering the outbox: claim due messages, sign and send them, record each attempt, schedule retries."""

from __future__ import annotations

import json
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypeGuard

import requests
from sqlalchemy import exists, or_, select
from sqlalchemy.orm import Session, aliased

from .. import clock, signing
from ..merchants.models import Merchant
from . import mail, targets
from .models import DELIVERED, FAILED, PENDING, SKIPPED, DeliveryAttempt, OutboxMessage
from .outbox import set_status
from .result import Result

# Retries, in minutes after the first dispatch (seed, Events rule 4); then the message is failed and kept.
RETRY_MINUTES = (10, 30, 60, 120, 360, 840)
LEASE = timedelta(seconds=60)  # wall clock: how long a claim holds before another worker may take over
CONNECT_TIMEOUT, READ_TIMEOUT, TOTAL_TIMEOUT = 3.0, 5.0, 10.0
MAX_RESPONSE = 64 * 1024
# A round claims up to BATCH messages: claiming and recording cost about the same for 128 as for 32.
BATCH, THREADS = 128, 16
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
        with targets.send(
            url,
            body,
            headers,
            allow_private=allow_private,
            timeout=(CONNECT_TIMEOUT, READ_TIMEOUT),
            allow_redirects=False,
            stream=True,
        ) as response:
            received = bytearray()
            for chunk in response.iter_content(4096):
                received += chunk
                if len(received) >= MAX_RESPONSE or time.monotonic() - started > TOTAL_TIMEOUT:
                    break
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
    except (requests.RequestException, OSError, ValueError) as exc:
        return result(succeeded=False, error=f"{type(exc).__name__}: {exc}"[:255])


@dataclass
class Outgoing:
    """A claimed message, ready to send with no database work left (no transaction open meanwhile)."""

    id: int
    kind: str
    target: str
    subject: str
    held_until: datetime
    body: bytes
    payload: dict
    app_key: str | None
    security_key: str | None


def claim(session: Session, limit: int | None = None, only: int | None = None) -> list[Outgoing]:
    """Take up to `limit` due messages for this worker (skipping rows other workers hold) and commit.

    A message waits while an earlier one to the same target about the same subject is still pending and
    held or not yet due, so that one trade's or payout's notifications go out in the order written.
    """
    held_before = clock.real_now()
    free = or_(OutboxMessage.locked_until.is_(None), OutboxMessage.locked_until < held_before)
    query = select(OutboxMessage).where(free)
    if only is None:
        earlier = aliased(OutboxMessage)
        blocked = exists().where(
            earlier.target == OutboxMessage.target,
            earlier.subject_id == OutboxMessage.subject_id,
            earlier.id < OutboxMessage.id,
            earlier.status == PENDING,
            or_(earlier.next_attempt_at > clock.now(), earlier.locked_until >= held_before),
        )
        query = query.where(OutboxMessage.status == PENDING, OutboxMessage.next_attempt_at <= clock.now(), ~blocked)
    else:
        query = query.where(OutboxMessage.id == only)
    messages = session.scalars(
        query.order_by(OutboxMessage.id).limit(limit or BATCH).with_for_update(of=OutboxMessage, skip_locked=True)
    ).all()
    held_until = held_before + LEASE
    claimed = []
    for message in messages:
        merchant = session.get(Merchant, message.merchant_id)
        message.locked_until = held_until
        claimed.append(
            Outgoing(
                id=message.id,
                kind=message.kind,
                target=message.target,
                subject=message.subject_id,
                held_until=held_until,
                body=body_of(message),
                payload=message.payload,
                app_key=merchant.app_key if merchant else None,
                security_key=merchant.security_key if merchant else None,
            )
        )
    session.commit()
    return claimed


def _clean(text: str | None) -> str | None:
    """What a receiver answered, made storable (PostgreSQL text cannot hold NUL)."""
    return text.replace("\x00", "\ufffd")[:255] if text else text


def _holds(message: OutboxMessage | None, outgoing: Outgoing) -> TypeGuard[OutboxMessage]:
    """Whether this worker still holds the message (a slower one that lost its hold records nothing)."""
    return (
        message is not None
        and message.locked_until is not None
        and clock.as_utc(message.locked_until) == clock.as_utc(outgoing.held_until)
    )


def _apply(message: OutboxMessage, result: Result | None, *, manual: bool) -> None:
    """Write one attempt into the message and what follows from it: delivered, retried on the
    schedule, or failed. No result: the message was not sent this round and is given back untouched.
    A manual resend is recorded but leaves the automatic schedule as it was."""
    message.locked_until = None
    if result is None:
        return
    at = result.started_at or clock.now()
    message.attempts += 1
    message.attempt_log.append(
        DeliveryAttempt(
            number=message.attempts,
            at=at,
            status_code=result.status_code,
            response=_clean(result.response),
            error=_clean(result.error),
            duration_ms=result.duration_ms,
            succeeded=result.succeeded,
            manual=manual,
        )
    )
    if message.first_dispatch_at is None and not manual:
        message.first_dispatch_at = at
    message.last_error = _clean(result.error)
    automatic = sum(1 for attempt in message.attempt_log if not attempt.manual)
    if result.succeeded:
        set_status(message, DELIVERED, at=at, delivered_at=at)
    elif result.skipped:
        set_status(message, SKIPPED, at=at)
    elif result.final:
        set_status(message, FAILED, at=at)
    elif manual:
        pass  # a resend that merely fails leaves the status and the schedule as they were
    elif automatic <= len(RETRY_MINUTES):
        # A retry is no move: the message stays pending, only later.
        assert message.first_dispatch_at is not None  # set above: not manual
        first = clock.as_utc(message.first_dispatch_at)
        message.next_attempt_at = first + timedelta(minutes=RETRY_MINUTES[automatic - 1])
    else:
        set_status(message, FAILED, at=at)


def record_all(session: Session, outcomes: list[tuple[Outgoing, Result | None]], *, manual: bool = False) -> int:
    """Record a round's outcomes in one transaction (one commit, not one per message); answers how many
    this worker still held."""
    if not outcomes:
        return 0
    messages = {
        m.id: m
        for m in session.scalars(
            select(OutboxMessage)
            .where(OutboxMessage.id.in_([o.id for o, _ in outcomes]))
            .order_by(OutboxMessage.id)
            .with_for_update(of=OutboxMessage)
            .execution_options(populate_existing=True)
        )
    }
    held = 0
    for outgoing, result in outcomes:
        message = messages.get(outgoing.id)
        if _holds(message, outgoing):
            _apply(message, result, manual=manual)
            held += 1
    session.commit()
    return held


def record(session: Session, outgoing: Outgoing, result: Result | None, *, manual: bool = False) -> bool:
    """Record one outcome on its own (None: give the message back unsent)."""
    return record_all(session, [(outgoing, result)], manual=manual) == 1


def _send(outgoing: Outgoing, config) -> Result:
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


class _Round:
    """What one round's groups have done so far. A group's next send and the round giving up waiting
    are decided under one lock, so whatever the round records is exactly what was (or may be) sent."""

    def __init__(self, groups: dict[tuple[str, str], list[Outgoing]]):
        self.groups = groups
        self.lock = threading.Lock()
        self.stopped = False
        self.results: dict[tuple[str, str], list[tuple[Outgoing, Result]]] = {key: [] for key in groups}
        self.in_flight: dict[tuple[str, str], Outgoing] = {}

    def send_in_order(self, key: tuple[str, str], config) -> None:
        """One subject's messages one after the other; after a failure, or once the round has stopped
        waiting, the rest are not sent and wait for the next round."""
        done = self.results[key]
        for outgoing in self.groups[key]:
            with self.lock:
                if self.stopped or (done and not done[-1][1].succeeded):
                    return
                self.in_flight[key] = outgoing
            result = _send(outgoing, config)
            with self.lock:
                if self.stopped:  # already recorded as timed out
                    return
                del self.in_flight[key]
                done.append((outgoing, result))

    def finish(self) -> list[tuple[Outgoing, Result | None]]:
        """Stop waiting: what finished, a timeout for what is still in flight, None (given back) for the rest."""
        outcomes: list[tuple[Outgoing, Result | None]] = []
        with self.lock:
            self.stopped = True
            for key, group in self.groups.items():
                finished = {outgoing.id: result for outgoing, result in self.results[key]}
                late = self.in_flight.get(key)
                for outgoing in group:
                    result = finished.get(outgoing.id)
                    if outgoing is late:
                        result = Result(succeeded=False, error="timed out (no answer in time)", started_at=clock.now())
                    outcomes.append((outgoing, result))
        return outcomes


# Shared by rounds and never waited on as a whole: a thread stuck on a receiver that trickles bytes
# delays nobody; its round stops waiting after the total limit and records a timeout.
_pool = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="checkout-delivery")


def deliver(session: Session, claimed: list[Outgoing], config, *, manual: bool = False) -> int:
    """Send claimed messages in parallel (a slow receiver holds one thread, not the others), one
    subject's in the order written (PARTIAL_REFUNDED, then REFUNDED); record the round together."""
    groups: dict[tuple[str, str], list[Outgoing]] = {}
    for outgoing in sorted(claimed, key=lambda o: o.id):
        groups.setdefault((outgoing.target, outgoing.subject), []).append(outgoing)
    round_ = _Round(groups)
    futures = [_pool.submit(round_.send_in_order, key, config) for key in groups]
    _, late = wait(futures, timeout=TOTAL_TIMEOUT + 2)
    for future in late:
        future.cancel()  # a group that never started sends nothing: all of it goes back
    outcomes = round_.finish()
    try:
        record_all(session, outcomes, manual=manual)
    except Exception:
        session.rollback()
        log.exception("could not record a round of deliveries together; recording them one by one")
        for outgoing, result in outcomes:
            try:
                record(session, outgoing, result, manual=manual)
            except Exception:
                session.rollback()
                log.exception("could not record delivery %s; it will be sent again", outgoing.id)
    return len(claimed)


def dispatch_due(session: Session, config) -> int:
    """One worker round: claim what is due and deliver it."""
    claimed = claim(session)
    return deliver(session, claimed, config) if claimed else 0


def resend(session: Session, message: OutboxMessage, config) -> OutboxMessage | None:
    """Send one message again now (sandbox tooling); None when another worker holds it at the moment."""
    claimed = claim(session, 1, only=message.id)
    if not claimed:
        return None
    deliver(session, claimed, config, manual=True)
    return session.get(OutboxMessage, message.id, populate_existing=True)
