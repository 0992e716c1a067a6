"""Daily balance history: the available balance at the end of each UTC day, per currency."""
from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .. import money
from ..merchants.models import Merchant
from ..validation import FieldError
from .ledger import AVAILABLE, LedgerEntry

MAX_DAYS = 366


def _start_of(day: date) -> datetime:
    return datetime.combine(day, time(0), tzinfo=UTC)


def _utc_day(session: Session):
    if session.get_bind().dialect.name == "postgresql":
        return func.date(func.timezone("UTC", LedgerEntry.created_at))
    return func.date(LedgerEntry.created_at)  # SQLite keeps UTC text


def history(session: Session, merchant: Merchant, start: date, end: date) -> list[dict]:
    """One record per day from `end` back to `start`; a day without movement repeats the balance before it."""
    if end < start:
        raise FieldError("end_date", "must not be before start_date")
    if (end - start).days + 1 > MAX_DAYS:
        raise FieldError("end_date", f"the range must not exceed {MAX_DAYS} days")
    mine = (LedgerEntry.merchant_id == merchant.id, LedgerEntry.account == AVAILABLE)
    opening = dict(session.execute(
        select(LedgerEntry.currency, func.sum(LedgerEntry.amount_minor))
        .where(*mine, LedgerEntry.created_at < _start_of(start)).group_by(LedgerEntry.currency)).all())
    day = _utc_day(session)
    moves: dict[date, dict[str, int]] = {}
    for currency, moved_on, amount in session.execute(
            select(LedgerEntry.currency, day, func.sum(LedgerEntry.amount_minor))
            .where(*mine, LedgerEntry.created_at >= _start_of(start),
                   LedgerEntry.created_at < _start_of(end + timedelta(days=1)))
            .group_by(LedgerEntry.currency, day)):
        moved_on = moved_on if isinstance(moved_on, date) else date.fromisoformat(moved_on)
        moves.setdefault(moved_on, {})[currency] = int(amount)
    running = {currency: int(amount) for currency, amount in opening.items()}
    records = []
    for offset in range((end - start).days + 1):
        current = start + timedelta(days=offset)
        for currency, amount in moves.get(current, {}).items():
            running[currency] = running.get(currency, 0) + amount
        records.append({"merchant_id": merchant.merchant_id, "current_day": current.isoformat(),
                        "balance": [{"currency": c, "amount": money.format_minor(running[c], c)}
                                    for c in sorted(running)]})
    records.reverse()
    return records
