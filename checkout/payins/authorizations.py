"""Capturing and voiding card pre-authorizations: by the merchant, or by the worker when never captured."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import Session

from .. import money
from ..errors import IllegalState, InvalidField
from ..merchants.models import Merchant
from ..providers.base import Acquirer, Authorization
from . import states
from .models import Trade
from .schemas import Capture, Void
from .trades import change_status, find

# The provider documents no limit. Card networks let most authorizations lapse after 7 days, so an
# authorization not captured by then is released, on the sandbox clock.
VOID_AFTER = timedelta(days=7)


def _authorization(trade: Trade) -> Authorization:
    assert trade.card_token is not None  # a pre-authorization always has its card
    return Authorization(card=trade.card_token, amount_minor=trade.amount_minor, currency=trade.currency)


def _refuse_status(trade: Trade, operation: str) -> IllegalState:
    return IllegalState(
        reason="trade-status-invalid",
        message=f"trade is {trade.status}; only an AUTHORIZED trade can be {operation}",
    )


def capture(session: Session, merchant: Merchant, req: Capture, acquirer: Acquirer) -> Trade:
    """Take all or part of an authorization: the trade becomes SUCCESS for the amount taken, the rest is
    released. Repeating the capture that was done answers it again."""
    trade = find(session, merchant, out_trade_no=req.out_trade_no)
    if req.currency != trade.currency:
        raise InvalidField("currency", f"must be the trade's currency, {trade.currency}")
    try:
        amount_minor = money.to_minor(req.amount, trade.currency)
    except money.MoneyError as exc:
        raise InvalidField("amount", str(exc)) from None
    if trade.status == states.SUCCESS and trade.details.get("captured_minor") == amount_minor:
        return trade
    if trade.status != states.AUTHORIZED:
        raise _refuse_status(trade, "captured")
    authorized = trade.amount_minor
    if amount_minor > authorized:
        raise IllegalState(
            reason="capture-amount-exceeded",
            message=f"amount exceeds the authorized amount, {money.format_minor(authorized, trade.currency)} "
            f"{trade.currency}",
        )
    decision = acquirer.capture(_authorization(trade), amount_minor)
    if not decision.approved:
        raise IllegalState(reason="authorization-refused", message=decision.reason or "capture refused")
    # From here the trade is worth what was taken: its callback, query and refunds speak of that amount.
    trade.details = {**trade.details, "authorized_minor": authorized, "captured_minor": amount_minor}
    trade.amount_minor = amount_minor
    reason = None
    if amount_minor < authorized:
        reason = f"captured {money.format_minor(amount_minor, trade.currency)} of {money.format_minor(authorized, trade.currency)}"
    change_status(session, trade, states.SUCCESS, reason)
    return trade


def void(session: Session, merchant: Merchant, req: Void, acquirer: Acquirer) -> Trade:
    """Release an authorization the merchant no longer needs: the trade becomes CANCEL. Repeating the
    void answers it again."""
    trade = find(session, merchant, out_trade_no=req.out_trade_no)
    if trade.status == states.CANCEL:
        return trade
    if trade.status != states.AUTHORIZED:
        raise _refuse_status(trade, "voided")
    _void(session, trade, acquirer, "voided by the merchant")
    return trade


def _void(session: Session, trade: Trade, acquirer: Acquirer, reason: str) -> None:
    decision = acquirer.void(_authorization(trade))
    if not decision.approved:
        raise IllegalState(reason="authorization-refused", message=decision.reason or "void refused")
    change_status(session, trade, states.CANCEL, reason)


def void_lapsed(session: Session, trade: Trade, acquirer: Acquirer) -> None:
    """An authorization nobody captured within VOID_AFTER (the worker finds them)."""
    _void(session, trade, acquirer, f"not captured within {VOID_AFTER.days} days")
