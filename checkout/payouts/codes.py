"""A merchant's custom codes: one per payout, whether submitted directly or through a checkout session."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..errors import Duplicate
from ..merchants.models import Merchant
from .models import CheckoutSession, CustomCode, Payout


def find_payout(session: Session, merchant: Merchant, custom_code: str) -> Payout | None:
    return session.scalar(select(Payout).where(Payout.merchant_id == merchant.id, Payout.custom_code == custom_code))


def taken(session: Session, merchant: Merchant, custom_code: str) -> Duplicate:
    """The provider's `order already existed`, naming what holds the code: its payout (`payout_id`), else
    the checkout session still waiting for one, or that expired unused (`err`)."""
    payout = find_payout(session, merchant, custom_code)
    if payout is not None:
        data: dict = {"payout_id": payout.transaction_id}
    else:
        status = session.scalar(
            select(CheckoutSession.status).where(
                CheckoutSession.merchant_id == merchant.id, CheckoutSession.custom_code == custom_code
            )
        )
        data = {"err": f"custom_code: already used by a checkout session ({status})"} if status else {}
    return Duplicate("order already existed", reason="duplicate-custom_code", data=data)


def claim(session: Session, merchant: Merchant, custom_code: str, at: datetime) -> None:
    """Claim `custom_code` for the payout or checkout session this transaction creates, or raise `taken`.

    The primary key decides, not a read before the write: a second transaction inserting the same code
    fails once the first commits (or goes through if it rolls back). Only this savepoint is undone, so the
    caller's transaction can still read what holds the code and answer.

    Claims are made holding the merchant's row lock (a payout's submission holds it already). On PostgreSQL
    the claim's reference to the merchant takes a share of that row's lock: a session's claim waiting for
    that share while a payout holding the whole lock waits for the session's claim would deadlock.
    """
    session.scalar(select(Merchant.id).where(Merchant.id == merchant.id).with_for_update())
    try:
        with session.begin_nested():
            session.add(CustomCode(merchant_id=merchant.id, custom_code=custom_code, created_at=at))
            session.flush()
    except IntegrityError:
        raise taken(session, merchant, custom_code) from None
