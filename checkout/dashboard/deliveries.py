"""The notifications a merchant's objects caused, with every attempt, and queueing one to be sent again."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from .. import clock
from ..notifications import inspect, outbox
from ..notifications.models import DELIVERED, FAILED, PENDING, SKIPPED, OutboxMessage

# The deliveries list's status filter in words; its values stay the outbox's (`?status=failed`), as the sandbox
# API's filter takes them.
STATUS_LABELS: dict[str, object] = {
    PENDING: _l("Pending"),
    DELIVERED: _l("Delivered"),
    FAILED: _l("Failed"),
    SKIPPED: _l("Not sent"),
}


def status_choices(statuses: Iterable[str]) -> list[tuple[str, str]]:
    """(value, label) of each status the filter offers."""
    return [(str(value), str(STATUS_LABELS.get(value, value))) for value in statuses]


def for_subject(session: Session, merchant_id: int, subject_id: str) -> list[OutboxMessage]:
    """One trade's, vault's or payout's notifications, oldest first, each with its attempts."""
    return list(
        session.scalars(
            select(OutboxMessage)
            .where(OutboxMessage.merchant_id == merchant_id, OutboxMessage.subject_id == subject_id)
            .options(selectinload(OutboxMessage.attempt_log))
            .order_by(OutboxMessage.id)
        )
    )


class Busy(Exception):
    """A worker holds the message at this moment: the same answer the sandbox API gives (delivery-busy)."""


def resend(session: Session, merchant_id: int, notify_id: str) -> OutboxMessage | None:
    """Queue one of this merchant's notifications for the worker to send again, as
    `POST /sandbox/deliveries/<id>/resend` does (nothing is sent in the request). None when the merchant
    has no such notification (another merchant's is as unknown as a made-up id)."""
    message = inspect.find(session, merchant_id, notify_id)
    if message is None:
        return None
    queued = outbox.request_resend(session, message.id)
    if queued is None:
        raise Busy(notify_id)
    return queued


def event(message: OutboxMessage) -> str:
    """What a notification tells its receiver, in words with the provider's status as the receiver reads it
    ("Payment SUCCESS", "Refund SUCCESS", "Payout PAID", "Vault ACTIVE"): the kind alone says payin.callback
    for a payment's and a refund's alike."""
    payload = message.payload or {}
    if payload.get("test"):
        return _("Test notification")
    if message.kind == "payin.callback":
        if payload.get("refund_no"):
            return _("Refund %(status)s", status=payload.get("refund_status") or payload.get("trade_status", ""))
        return _("Payment %(status)s", status=payload.get("trade_status", ""))
    if message.kind == "vault.callback":
        return _("Vault %(status)s", status=payload.get("vault_status", ""))
    if message.kind == "payout.notification":
        return _("Payout %(status)s", status=payload.get("status", ""))
    if message.kind == "refund.email":
        return _("Refund e-mail to the customer")
    return message.kind


@dataclass(frozen=True)
class State:
    """A delivery's state as the merchant reads it: `key` for the style, `label`, and when it is tried next."""

    key: str
    label: str
    next_at: str | None = None  # "2026-11-27 18:30:00 UTC", the merchant's business time


def state(message: OutboxMessage) -> State:
    """Failing from the first failed attempt (with the next try's time), not "pending" until the last one."""
    if message.status == DELIVERED:
        return State("delivered", _("Delivered"))
    if message.status == FAILED:
        return State("failed", _("Failed: no more automatic attempts"))
    if message.status == SKIPPED:
        return State("skipped", _("Not sent"))
    if message.status == PENDING and message.attempt_log and not message.attempt_log[-1].succeeded:
        return State("failing", _("Failing"), _when(message.next_attempt_at))
    return State("pending", _("Pending"))


def _when(moment: datetime) -> str:
    return clock.as_utc(moment).strftime("%Y-%m-%d %H:%M:%S") + " UTC"


TEST_SUBJECT_PREFIX = "test_"


def send_test(session: Session, merchant_id: int, target: str) -> OutboxMessage:
    """Queue a sample payin callback, marked `"test": true`, to `target`: through the outbox like any other
    (signed with the merchant's security_key when sent, retried, listed with the deliveries). Its trade_no is
    made up (`test_...`), so no trade of the merchant can be mistaken for it. Call it on the merchant's clock."""
    trade_no = TEST_SUBJECT_PREFIX + secrets.token_hex(10)
    now = clock.now()
    payload = {
        "trade_no": trade_no,
        "out_trade_no": "test-order",
        "out_request_no": "",
        "trade_status": "SUCCESS",
        "amount": "10.00",
        "currency": "BRL",
        "method": "PIX",
        "channel": "",
        "timestamp": str(clock.unix(now)),
        "user": {
            "buyer_id": "",
            "identify": {"type": "CPF", "number": "39053344705"},
            "username": "Test Customer",
            "phone": "",
            "email": "test@example.com",
            "ip": "",
        },
        "order_amount": "10.00",
        "order_currency": "BRL",
        "test": True,
    }
    return outbox.enqueue(
        session, merchant_id=merchant_id, kind="payin.callback", target=target, subject_id=trade_no, payload=payload
    )
