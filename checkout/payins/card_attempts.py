"""Card attempts on the hosted checkout: how many one order allows, and how a decline is recorded without ending it."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from .. import clock
from ..cards.models import CardToken
from ..providers.base import Decision
from . import states
from .models import Trade

# A customer gets the benefit of a typo and of a second and a third card; beyond that, declines on one order
# look like card testing (stolen numbers tried one after another), which issuers and networks hold against
# the merchant. Stripe Checkout likewise stops a session that keeps being declined.
MAX_CARD_ATTEMPTS = 3

# The hosted checkout's own refusal: the customer failed (or did not confirm) the 3-D Secure step.
AUTHENTICATION_FAILED = "authentication_failed"
AUTHENTICATION_REASON = "3-D Secure authentication failed (status N)"

CARD = "CreditCard"
ATTEMPTS = "card_attempts"  # the trade's details: one entry per declined card (code, brand, last four, time)


def declined(trade: Trade) -> list[dict[str, Any]]:
    return list(trade.details.get(ATTEMPTS, []))


def left(trade: Trade) -> int:
    return max(MAX_CARD_ATTEMPTS - len(declined(trade)), 0)


def last_decline(trade: Trade) -> dict[str, Any] | None:
    """The latest declined card of an order still waiting to be paid (None once it is paid or ended)."""
    attempts = declined(trade)
    return attempts[-1] if attempts and trade.status == states.INITIAL else None


def refusal(authenticated: bool, decision: Decision | None) -> Decision | None:
    """None when the card was authenticated and approved; otherwise the refusal with its code."""
    if not authenticated:
        return Decision(states.REFUSED.value, AUTHENTICATION_REASON, AUTHENTICATION_FAILED)
    assert decision is not None  # an authenticated card is always authorized
    return None if decision.approved else decision


def record(session: Session, trade: Trade, refused: Decision, card: CardToken) -> str | None:
    """Record a declined card on an INITIAL checkout. While attempts are left, or other methods once they are
    not, the order stays payable: a step in its history (INITIAL to INITIAL, no callback), the card withdrawn
    from its methods after the last attempt. Otherwise answers the reason the trade is REFUSED with."""
    count = len(declined(trade)) + 1
    entry = {
        "code": refused.code,
        "brand": card.brand,
        "last_four": card.last_four,
        "at": clock.format_utc(clock.now()),
    }
    trade.details = {**trade.details, ATTEMPTS: [*declined(trade), entry]}
    reason = f"{refused.reason or 'card declined'} (card attempt {count} of {MAX_CARD_ATTEMPTS})"
    others = [method for method in trade.details.get("offered", []) if method != CARD]
    if count < MAX_CARD_ATTEMPTS:
        states.set_status(session, trade, states.INITIAL, reason)
        return None
    if others:
        trade.details = {**trade.details, "offered": others}
        states.set_status(session, trade, states.INITIAL, f"{reason}; card no longer offered")
        return None
    return reason
