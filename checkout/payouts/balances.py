"""Balances: the available balance now, and at the end of each UTC day (history), per currency."""

from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .. import money
from ..errors import InvalidField
from ..merchants.models import Merchant
from .ledger import AVAILABLE, LedgerDay

MAX_DAYS = 366
# The balance page lists these, in this order, even when empty; any other currency held follows.
LISTED_CURRENCIES = ("USD", "GBP", "EUR", "BRL", "MXN")


def current(session: Session, merchant: Merchant) -> list[dict]:
    """The available balance per currency now (the merchant's spendable payout balance)."""
    held = {
        currency: int(amount)
        for currency, amount in session.execute(
            select(LedgerDay.currency, func.sum(LedgerDay.net_minor))
            .where(LedgerDay.merchant_id == merchant.id, LedgerDay.account == AVAILABLE)
            .group_by(LedgerDay.currency)
        )
    }
    currencies = [*LISTED_CURRENCIES, *sorted(set(held) - set(LISTED_CURRENCIES))]
    return [{"currency": c, "amount": money.format_minor(held.get(c, 0), c)} for c in currencies]


def history(session: Session, merchant: Merchant, start: date, end: date) -> list[dict]:
    """One record per day from `end` back to `start`; a day without movement repeats the balance before it.

    Read from the per-day totals (ledger_days), so the cost follows the days asked for, not the entries.
    """
    if end < start:
        raise InvalidField("end_date", "must not be before start_date")
    if (end - start).days + 1 > MAX_DAYS:
        raise InvalidField("end_date", f"the range must not exceed {MAX_DAYS} days")
    mine = (LedgerDay.merchant_id == merchant.id, LedgerDay.account == AVAILABLE)
    running = {
        currency: int(amount)
        for currency, amount in session.execute(
            select(LedgerDay.currency, func.sum(LedgerDay.net_minor))
            .where(*mine, LedgerDay.day < start)
            .group_by(LedgerDay.currency)
        )
    }
    moves: dict[date, dict[str, int]] = {}
    for currency, moved_on, amount in session.execute(
        select(LedgerDay.currency, LedgerDay.day, LedgerDay.net_minor).where(
            *mine, LedgerDay.day >= start, LedgerDay.day <= end
        )
    ):
        moves.setdefault(moved_on, {})[currency] = int(amount)
    records = []
    for offset in range((end - start).days + 1):
        current = start + timedelta(days=offset)
        for currency, amount in moves.get(current, {}).items():
            running[currency] = running.get(currency, 0) + amount
        records.append(
            {
                "merchant_id": merchant.merchant_id,
                "current_day": current.isoformat(),
                "balance": [{"currency": c, "amount": money.format_minor(running[c], c)} for c in sorted(running)],
            }
        )
    records.reverse()
    return records
