"""The outbox as delivery reads it: a claimed message, ready to send."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, eq=False)  # compared and hashed as the one object it is: the sending threads track it
class Outgoing:
    """A claimed message, ready to send with no database work left (no transaction open meanwhile)."""

    id: int
    merchant_id: int
    kind: str
    target: str
    subject: str
    held_until: datetime  # the claim's hold (wall clock): an outcome is recorded only while the row still has it
    body: bytes
    payload: dict
    app_key: str | None  # None: the merchant no longer exists
    security_key: str | None
    manual: bool = False  # a resend asked for: recorded as a manual attempt
