"""Status machines: every stateful model's statuses, its legal moves, and the one way a status changes."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Generic, TypeVar, cast

from . import clock


class IllegalTransition(RuntimeError):
    pass


# The values are what the database stores and what merchants receive: never rename them.


class TradeStatus(StrEnum):
    """The provider's payin statuses that this service produces, plus the interface's AUTHORIZED."""

    INITIAL = "INITIAL"  # a hosted checkout waiting for the customer
    PROCESSING = "PROCESSING"
    AUTHORIZED = "AUTHORIZED"
    REFUSED = "REFUSED"
    SUCCESS = "SUCCESS"
    EXPIRED = "EXPIRED"
    CANCEL = "CANCEL"  # a voided authorization
    REFUNDED = "REFUNDED"  # all or part of the amount paid back (the provider's status for both)


class RefundStatus(StrEnum):
    PROCESSING = "PROCESSING"  # waits for the customer's bank data (or the bank)
    SUCCESS = "SUCCESS"  # paid back
    FAILED = "FAILED"  # the bank's refusal; the sandbox never produces it, queries already leave it out


class VaultStatus(StrEnum):
    PENDING = "PENDING"
    ACTIVE = "ACTIVE"
    DECLINED = "DECLINED"
    VOIDED = "VOIDED"
    EXPIRED = "EXPIRED"


class PayoutStatus(StrEnum):
    IN_PROCESSING = "IN_PROCESSING"
    PROCESSING = "PROCESSING"
    PAID = "PAID"
    REJECTED = "REJECTED"
    REFUNDED = "REFUNDED"
    PARTIAL_REFUNDED = "PARTIAL_REFUNDED"


class CheckoutSessionStatus(StrEnum):
    OPEN = "OPEN"
    COMPLETED = "COMPLETED"
    EXPIRED = "EXPIRED"


class VirtualAccountStatus(StrEnum):
    """A virtual SPEI account (a standing CLABE), in the provider's spelling: ENUM[ACTIVE/CANCELED]."""

    ACTIVE = "ACTIVE"
    CANCELED = "CANCELED"


class OutboxStatus(StrEnum):
    PENDING = "pending"
    DELIVERED = "delivered"
    FAILED = "failed"
    SKIPPED = "skipped"  # e-mails while no SMTP server is configured


S = TypeVar("S", bound=StrEnum)


@dataclass(frozen=True)
class Change(Generic[S]):
    """One status change as the hooks see it: the record already holds `new`, `at` and the other changes."""

    record: Any
    old: S | None
    new: S
    reason: str | None
    at: datetime


Hook = Callable[[Change], None]


class StateMachine(Generic[S]):
    """A model's statuses and legal moves; `move` is the only way any model's status changes.

    `stamp` names the record's updated-time attribute (None: the model keeps none).
    """

    def __init__(
        self,
        name: str,
        statuses: type[S],
        transitions: Mapping[S | None, Iterable[S]],
        *,
        stamp: str | None = "updated_at",
    ):
        self.name = name
        self.statuses = statuses
        # None is the state before creation.
        self.transitions: dict[S | None, frozenset[S]] = {
            current: frozenset(targets) for current, targets in transitions.items()
        }
        self.stamp = stamp

    def can(self, current: str | None, new: str) -> bool:
        # A StrEnum member equals and hashes as its string, so a status read from a row finds its entry.
        targets = self.transitions.get(cast("S | None", current), frozenset())
        return new in targets

    def check(self, current: str | None, new: str) -> None:
        if not self.can(current, new):
            raise IllegalTransition(f"{self.name}: {current or '(new)'} -> {new} is not allowed")

    def move(
        self,
        record: Any,
        new: str,
        *,
        reason: str | None = None,
        at: datetime | None = None,
        changes: Mapping[str, Any] | None = None,
        history: Hook | None = None,
        on_change: Hook | None = None,
    ) -> Change[S]:
        """Move `record` (its status None before creation) to `new`: check the move against the table
        (IllegalTransition before anything is written), set the status, the updated time and `changes`,
        then record history and queue the notification through the model's hooks, in the caller's
        transaction."""
        current = record.status
        self.check(current, new)
        old = None if current is None else self.statuses(current)
        target = self.statuses(new)
        at = at or clock.now()
        # The plain value, as a row read back from the database holds it.
        record.status = target.value
        if self.stamp is not None:
            setattr(record, self.stamp, at)
        for name, value in (changes or {}).items():
            setattr(record, name, value)
        change = Change(record=record, old=old, new=target, reason=reason, at=at)
        if history is not None:
            history(change)
        if on_change is not None:
            on_change(change)
        return change


_T, _R, _V, _P = TradeStatus, RefundStatus, VaultStatus, PayoutStatus
_C, _O = CheckoutSessionStatus, OutboxStatus

TRADE: StateMachine[TradeStatus] = StateMachine(
    "trade",
    TradeStatus,
    {
        None: {_T.INITIAL, _T.AUTHORIZED, _T.REFUSED, _T.PROCESSING},
        # The customer chose a method on the hosted checkout, or never did; a declined card attempt that
        # leaves the order payable is a step of its own (history, no callback).
        _T.INITIAL: {_T.INITIAL, _T.PROCESSING, _T.EXPIRED},
        # Paid, refused, past its timeout, or cancelled when its cancellation_express ran out unpaid.
        _T.PROCESSING: {_T.SUCCESS, _T.REFUSED, _T.EXPIRED, _T.CANCEL},
        # Captured (all or part), or voided by the merchant or when it was never captured in time.
        _T.AUTHORIZED: {_T.SUCCESS, _T.CANCEL},
        _T.SUCCESS: {_T.REFUNDED},
        # Every further partial refund is a step of its own, with its callback.
        _T.REFUNDED: {_T.REFUNDED},
    },
)

# Only what code does: a refund is created waiting for bank data or already paid back. Nothing settles
# a waiting one yet, so PROCESSING -> SUCCESS / FAILED stay out until something performs them.
REFUND: StateMachine[RefundStatus] = StateMachine(
    "refund",
    RefundStatus,
    {None: {_R.PROCESSING, _R.SUCCESS}},
)

VAULT: StateMachine[VaultStatus] = StateMachine(
    "vault",
    VaultStatus,
    {
        None: {_V.PENDING},
        _V.PENDING: {_V.ACTIVE, _V.DECLINED, _V.VOIDED, _V.EXPIRED},
        _V.ACTIVE: {_V.VOIDED},
    },
)

PAYOUT: StateMachine[PayoutStatus] = StateMachine(
    "payout",
    PayoutStatus,
    {
        None: {_P.IN_PROCESSING},
        _P.IN_PROCESSING: {_P.PROCESSING, _P.REJECTED},
        _P.PROCESSING: {_P.PAID, _P.REJECTED},
        _P.PAID: {_P.PARTIAL_REFUNDED, _P.REFUNDED},
        _P.PARTIAL_REFUNDED: {_P.PARTIAL_REFUNDED, _P.REFUNDED},
    },
)

CHECKOUT_SESSION: StateMachine[CheckoutSessionStatus] = StateMachine(
    "payout checkout session",
    CheckoutSessionStatus,
    {None: {_C.OPEN}, _C.OPEN: {_C.COMPLETED, _C.EXPIRED}},
    stamp=None,
)

# A CLABE once handed to a customer is never active again: a cancelled one is never reissued either.
VIRTUAL_ACCOUNT: StateMachine[VirtualAccountStatus] = StateMachine(
    "virtual SPEI account",
    VirtualAccountStatus,
    {None: {VirtualAccountStatus.ACTIVE}, VirtualAccountStatus.ACTIVE: {VirtualAccountStatus.CANCELED}},
)

# A retry keeps a message pending (no move). A resend may take any message, whatever its status, and
# what it gets back decides again: delivered, skipped (no SMTP) or failed (a refused address, a
# merchant gone); a resend that merely fails changes nothing. One asked for from the dashboard or the
# sandbox API is queued: the message is pending until the worker sends it, then back to what it was
# if that attempt merely fails.
_SENT = {_O.DELIVERED, _O.FAILED, _O.SKIPPED}
_RESENT = {*_SENT, _O.PENDING}
OUTBOX: StateMachine[OutboxStatus] = StateMachine(
    "outbox message",
    OutboxStatus,
    {None: {_O.PENDING}, _O.PENDING: _SENT, _O.DELIVERED: _RESENT, _O.FAILED: _RESENT, _O.SKIPPED: _RESENT},
    stamp=None,
)

MACHINES: tuple[StateMachine, ...] = (TRADE, REFUND, VAULT, PAYOUT, CHECKOUT_SESSION, VIRTUAL_ACCOUNT, OUTBOX)
