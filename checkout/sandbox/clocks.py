"""Moving one merchant's sandbox clock forward, and doing what came due in the skipped time."""

from __future__ import annotations

from sqlalchemy.orm import Session

from .. import clock
from ..payouts import lifecycle
from ..payouts.models import Payout
from ..providers.base import PayoutBank
from .models import add_merchant_offset


def advance_merchant(session: Session, merchant_id: int, seconds: int, *, bank: PayoutBank) -> int:
    """Moves this merchant's clock only, in the session's transaction (on SQLite a second connection would
    wait for our own lock); raises ValueError past the limits. Answers the merchant's new offset."""
    maximum = int(clock.MAX_OFFSET.total_seconds())
    offset = add_merchant_offset(session.connection(), merchant_id, seconds, maximum)
    clock.remember_merchant(merchant_id, offset)
    # Whatever of this merchant's came due in the skipped time happens now, as the worker would have done it.
    try:
        lifecycle.advance_due(session, bank=bank, scope=Payout.merchant_id == merchant_id)
    except Exception:
        clock.forget_merchant(merchant_id)  # the move rolls back with the transaction: so does what we cached
        raise
    return offset
