"""timeout_express: "90m", "2h", "3d" or "1c" (end of the current Brazil day) turned into an expiry."""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta

from .. import clock
from ..errors import InvalidField

DEFAULT = "90m"
MAX = timedelta(days=15)
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
