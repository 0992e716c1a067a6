"""Trade and refund statuses, their transition tables, and the one function that changes a trade's status."""
from __future__ import annotations

from sqlalchemy.orm import Session

from .. import clock
from ..statemachine import StateMachine
from .models import Trade, TradeEvent

PROCESSING = "PROCESSING"
AUTHORIZED = "AUTHORIZED"
REFUSED = "REFUSED"
SUCCESS = "SUCCESS"
EXPIRED = "EXPIRED"
PARTIAL_REFUND = "PARTIAL_REFUND"
REFUNDED = "REFUNDED"

TRADE = StateMachine("trade", {
    None: {AUTHORIZED, REFUSED, PROCESSING},
    PROCESSING: {SUCCESS, REFUSED, EXPIRED},
    SUCCESS: {PARTIAL_REFUND, REFUNDED},
    PARTIAL_REFUND: {PARTIAL_REFUND, REFUNDED},
})

REFUNDABLE = {SUCCESS, PARTIAL_REFUND}

# Refund statuses: PROCESSING waits for the customer's bank data (or the bank); SUCCESS is paid back.
REFUND_PROCESSING = "PROCESSING"
REFUND_SUCCESS = "SUCCESS"
REFUND_FAILED = "FAILED"

REFUND = StateMachine("refund", {
    None: {REFUND_PROCESSING, REFUND_SUCCESS},
    REFUND_PROCESSING: {REFUND_SUCCESS, REFUND_FAILED},
})


def set_status(session: Session, trade: Trade, new: str, reason: str | None = None) -> None:
    """Move a trade to `new` (raises IllegalTransition) and record the step in its history."""
    current = trade.status
    TRADE.check(current, new)
    now = clock.now()
    trade.status = new
    trade.updated_at = now
    if new == REFUSED or new == EXPIRED:
        trade.failure_reason = reason
    event = TradeEvent(from_status=current, to_status=new, reason=reason, at=now)
    trade.events.append(event)
    session.add(event)
