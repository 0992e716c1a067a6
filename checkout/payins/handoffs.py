"""The customer's answer at the bank or wallet a payment page hands it to (sandbox): approved, the trade is paid;
declined, it is refused."""

from __future__ import annotations

from sqlalchemy.orm import Session

from ..merchants.models import Merchant
from . import states
from .models import Trade
from .service import sandbox_pay
from .trades import awaiting_customer, change_status


def approve(session: Session, merchant: Merchant, trade_no: str) -> Trade:
    """The bank or wallet confirms the payment: exactly what the customer paying at the till does."""
    return sandbox_pay(session, merchant, trade_no)


def decline(session: Session, merchant: Merchant, trade_no: str, where: str) -> Trade:
    """The customer refuses the payment at `where` (its bank or wallet): PROCESSING becomes REFUSED, with the
    reason in the trade's callback and query. Only a payment still waiting can be refused; a paid one stays paid."""
    trade = awaiting_customer(session, merchant, trade_no, "declined")
    change_status(session, trade, states.REFUSED, f"declined by the customer at {where}")
    return trade
