"""Scheduled payout work: the sandbox bank's steps, and checkout pages never completed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import clock, wiring
from ..jobs import Due, Job, Scope, on_each_clock
from . import lifecycle, sessions
from .models import CheckoutSession

LIMIT = 200


def bank_round(session: Session, config: Mapping[str, Any]) -> int:
    # The worker runs its jobs in its app's context: the bank is the one that app was built with.
    return lifecycle.advance_due(session, bank=wiring.payout_bank())  # each merchant on its clock


def expire_checkout_sessions(session: Session, config: Mapping[str, Any]) -> int:
    """OPEN payout checkout pages past their timeout become EXPIRED."""
    due = Due((CheckoutSession.status == sessions.OPEN,), CheckoutSession.expires_at)
    return on_each_clock(session, CheckoutSession.merchant_id, lambda scope: _expire_sessions(session, scope), due)


def _expire_sessions(session: Session, scope: Scope) -> int:
    pages = list(
        session.scalars(
            select(CheckoutSession)
            .where(scope, CheckoutSession.status == sessions.OPEN, CheckoutSession.expires_at <= clock.now())
            .limit(LIMIT)
            .with_for_update(skip_locked=True)
        )
    )
    for page in pages:
        sessions.set_status(page, sessions.EXPIRED)
    return len(pages)


JOBS: list[Job] = [bank_round, expire_checkout_sessions]
