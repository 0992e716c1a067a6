"""timeout_express ("90m", "2h", "3d" or "1c", the end of the current Brazil day) and cancellation_express
("90m", "2h", "3d") turned into the moments they end."""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta

from .. import clock
from ..errors import InvalidField

DEFAULT = "90m"
MAX = timedelta(days=15)
# The provider names no upper bound for cancellation_express (a Boleto or Lottery voucher's life): ours.
CANCELLATION_MAX = timedelta(days=30)
_PATTERN = re.compile(r"^([1-9][0-9]{0,5})([mhdc])$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days"}


def end_of_brazil_day(day, tz) -> datetime:
    """Midnight after `day` in Brazil time, expressed in `tz`."""
    return datetime.combine(day + timedelta(days=1), time(0), tzinfo=clock.BRAZIL).astimezone(tz)


def expiry(value: str | None, now: datetime, maximum: timedelta = MAX) -> datetime:
    text = value or DEFAULT
    match = _PATTERN.match(text)
    if not match:
        raise InvalidField("timeout_express", "must be a number followed by m, h, d or c (e.g. 90m)")
    amount, unit = int(match.group(1)), match.group(2)
    if unit == "c":
        if amount != 1:
            raise InvalidField("timeout_express", "the c unit only takes 1c (end of the current day)")
        return end_of_brazil_day(now.astimezone(clock.BRAZIL).date(), now.tzinfo)
    delta = timedelta(**{_UNITS[unit]: amount})
    if delta > maximum:
        raise InvalidField("timeout_express", f"must not exceed {maximum.days}d")
    return now + delta


def duration(value: str) -> timedelta:
    """A cancellation_express as a length of time ("c" is for timeout_express only)."""
    match = _PATTERN.match(value)
    if not match or match.group(2) == "c":
        raise InvalidField("cancellation_express", "must be a number followed by m, h or d (e.g. 90m)")
    return timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})


def cancellation(value: str, timeout_express: str | None, created: datetime) -> datetime:
    """When an unpaid PROCESSING trade is cancelled: `value` after `created`, which the provider's pages
    say must be later than the end of timeout_express (checked here, on the same start)."""
    delta = duration(value)
    if delta > CANCELLATION_MAX:
        raise InvalidField("cancellation_express", f"must not exceed {CANCELLATION_MAX.days}d")
    cancel_at = created + delta
    submit_by = expiry(timeout_express, created)
    if cancel_at <= submit_by:
        raise InvalidField("cancellation_express", "must be longer than timeout_express")
    return cancel_at
