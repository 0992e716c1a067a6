"""Delivering the outbox: claim due messages, sign and send them, record each attempt, schedule retries."""
from __future__ import annotations

import ipaddress
import json
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlsplit

import requests
from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from .. import clock, signing
from ..merchants.models import Merchant
from . import mail
from .models import DELIVERED, FAILED, PENDING, SKIPPED, DeliveryAttempt, OutboxMessage

# Retries, in minutes after the first dispatch (seed, Events rule 4); then the message is failed and kept.
RETRY_MINUTES = (10, 30, 60, 120, 360, 840)
LEASE = timedelta(seconds=60)  # wall clock: how long a claim holds before another worker may take over
CONNECT_TIMEOUT, READ_TIMEOUT, TOTAL_TIMEOUT = 3.0, 5.0, 10.0
MAX_RESPONSE = 64 * 1024
BATCH, THREADS = 32, 8
USER_AGENT = "checkout-notifier/1.0"


@dataclass
class Result:
    succeeded: bool
    status_code: int | None = None
    response: str | None = None
    error: str | None = None
    duration_ms: int = 0
    final: bool = False  # no point retrying (an address we refuse to reach)
    skipped: bool = False  # nothing to send it with (e-mail without SMTP)


class BlockedAddress(Exception):
    pass


def body_of(message: OutboxMessage) -> bytes:
    return json.dumps(message.payload, separators=(",", ":"), ensure_ascii=False).encode()


def headers_for(message: OutboxMessage, merchant: Merchant, body: bytes) -> dict[str, str]:
    """Payout notifications carry the payout signature; payin callbacks the X-Signature HMAC."""
    headers = {"Content-Type": "application/json; charset=utf-8", "User-Agent": USER_AGENT,
               "X-Notify-Id": message.notify_id}
    if message.kind == "payout.notification":
        headers["Authorization"] = signing.payout_signature(message.payload, merchant.app_key)
    else:
        headers["X-Signature"] = signing.callback_signature(body, merchant.security_key,
                                                            clock.unix(clock.real_now()))
    return headers


def _check_address(url: str) -> None:
    """Outside the sandbox, never reach loopback, private, link-local or metadata addresses."""
    host = urlsplit(url).hostname or ""
    for *_, sockaddr in socket.getaddrinfo(host, None):
        address = ipaddress.ip_address(sockaddr[0])
        if (address.is_private or address.is_loopback or address.is_link_local or address.is_multicast
                or address.is_reserved or address.is_unspecified):
            raise BlockedAddress(f"{host} resolves to {address}, which notifications may not reach")


_local = threading.local()


def _http() -> requests.Session:
    if not hasattr(_local, "session"):
        _local.session = requests.Session()
    return _local.session


def post(url: str, body: bytes, headers: dict[str, str], *, allow_private: bool) -> Result:
    """One POST with bounded connect, read and total time and a bounded response read."""
    started = time.monotonic()

    def result(**fields) -> Result:
        return Result(duration_ms=int((time.monotonic() - started) * 1000), **fields)

    try:
        if not allow_private:
            _check_address(url)
        with _http().post(url, data=body, headers=headers, timeout=(CONNECT_TIMEOUT, READ_TIMEOUT),
                          allow_redirects=False, stream=True) as response:
            received = bytearray()
            for chunk in response.iter_content(4096):
                received += chunk
                if len(received) >= MAX_RESPONSE or time.monotonic() - started > TOTAL_TIMEOUT:
                    break
            text = bytes(received[:MAX_RESPONSE]).decode("utf-8", "replace")
            ok = response.status_code == 200 and text.strip() == "success"
            error = None if ok else f"answered {response.status_code} without the body 'success'"
            return result(succeeded=ok, status_code=response.status_code, response=text[:255], error=error)
    except BlockedAddress as exc:
        return result(succeeded=False, error=str(exc)[:255], final=True)
    except requests.Timeout:
        return result(succeeded=False, error="timed out")
    except requests.ConnectionError as exc:
        return result(succeeded=False, error=f"connection failed: {exc}"[:255])
    except (requests.RequestException, OSError, ValueError) as exc:
        return result(succeeded=False, error=f"{type(exc).__name__}: {exc}"[:255])


def claim(session: Session, limit: int = BATCH, only: int | None = None) -> list[OutboxMessage]:
    """Take up to `limit` due messages for this worker (skipping rows other workers hold) and commit."""
    held_before = clock.real_now()
    query = select(OutboxMessage).where(
        or_(OutboxMessage.locked_until.is_(None), OutboxMessage.locked_until < held_before))
    if only is None:
        query = query.where(OutboxMessage.status == PENDING, OutboxMessage.next_attempt_at <= clock.now())
    else:
        query = query.where(OutboxMessage.id == only)
    messages = session.scalars(query.order_by(OutboxMessage.next_attempt_at, OutboxMessage.id).limit(limit)
                               .with_for_update(skip_locked=True)).all()
    for message in messages:
        message.locked_until = held_before + LEASE
    session.commit()
    return list(messages)


def record(session: Session, message_id: int, result: Result, *, manual: bool = False) -> OutboxMessage:
    """Write the attempt and what follows from it: delivered, retried on the schedule, or failed.

    A manual resend is recorded but leaves the automatic schedule as it was.
    """
    message = session.get(OutboxMessage, message_id, with_for_update=True, populate_existing=True)
    now = clock.now()
    message.attempts += 1
    message.attempt_log.append(DeliveryAttempt(
        number=message.attempts, at=now, status_code=result.status_code, response=result.response,
        error=result.error, duration_ms=result.duration_ms, succeeded=result.succeeded, manual=manual))
    if message.first_dispatch_at is None:
        message.first_dispatch_at = now
    message.locked_until, message.last_error = None, result.error
    automatic = sum(1 for attempt in message.attempt_log if not attempt.manual)
    if result.succeeded:
        message.status, message.delivered_at = DELIVERED, now
    elif result.skipped:
        message.status = SKIPPED
    elif result.final:
        message.status = FAILED
    elif manual:
        pass
    elif automatic <= len(RETRY_MINUTES):
        first = clock.as_utc(message.first_dispatch_at)
        message.next_attempt_at = first + timedelta(minutes=RETRY_MINUTES[automatic - 1])
    else:
        message.status = FAILED
    session.commit()
    return message


def _send(message: OutboxMessage, merchant: Merchant, config) -> Result:
    if message.kind.endswith(".email"):
        return mail.send(message, config)
    body = body_of(message)
    return post(message.target, body, headers_for(message, merchant, body), allow_private=config["SANDBOX"])


def _send_in_order(group: list[OutboxMessage], merchant: Merchant, config) -> list[tuple[int, Result]]:
    return [(message.id, _send(message, merchant, config)) for message in group]


def deliver(session: Session, messages: list[OutboxMessage], config, *, manual: bool = False) -> int:
    """Send claimed messages in parallel (a slow receiver holds one thread, not the others), but the
    messages about one trade or payout in the order they were written (PARTIAL_REFUNDED, then REFUNDED)."""
    merchants = {m.merchant_id: session.get(Merchant, m.merchant_id) for m in messages}
    groups: dict[tuple[str, str], list[OutboxMessage]] = {}
    for message in sorted(messages, key=lambda m: m.id):
        groups.setdefault((message.target, message.subject_id), []).append(message)
    with ThreadPoolExecutor(max_workers=min(THREADS, len(groups))) as pool:
        futures = [pool.submit(_send_in_order, group, merchants[group[0].merchant_id], config)
                   for group in groups.values()]
        for future in as_completed(futures):
            for message_id, result in future.result():
                record(session, message_id, result, manual=manual)
    return len(messages)


def dispatch_due(session: Session, config) -> int:
    """One worker round: claim what is due and deliver it."""
    messages = claim(session)
    return deliver(session, messages, config) if messages else 0


def resend(session: Session, message: OutboxMessage, config) -> OutboxMessage | None:
    """Send one message again now (sandbox tooling); None when another worker holds it at the moment."""
    claimed = claim(session, 1, only=message.id)
    if not claimed:
        return None
    deliver(session, claimed, config, manual=True)
    return session.get(OutboxMessage, message.id, populate_existing=True)


def due_at(message: OutboxMessage) -> datetime | None:
    return clock.as_utc(message.next_attempt_at) if message.status == PENDING else None
