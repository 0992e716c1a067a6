"""The service's only source of "now": real UTC time plus the sandbox clock's offset."""
from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

BRAZIL = timezone(timedelta(hours=-3), "BRT")

_offset = timedelta(0)
# How far the sandbox clock may run ahead in all: far enough for any plan, short of the calendar's end.
MAX_OFFSET = timedelta(days=50 * 366)


def real_now() -> datetime:
    """Wall-clock time, for request freshness windows that must follow the merchant's own clock."""
    return datetime.now(UTC)


def now() -> datetime:
    """Business time (aware, UTC): deadlines, expiries, scheduled dates all follow it."""
    return real_now() + _offset


def offset_seconds() -> int:
    return int(_offset.total_seconds())


def advance(seconds: int) -> None:
    """Move business time forward; the sandbox clock never goes back."""
    global _offset
    if seconds < 0:
        raise ValueError("the sandbox clock only moves forward")
    if _offset + timedelta(seconds=seconds) > MAX_OFFSET:
        raise ValueError(f"the sandbox clock cannot run more than {MAX_OFFSET.days} days ahead")
    _offset += timedelta(seconds=seconds)


def reset() -> None:
    global _offset
    _offset = timedelta(0)
# How far the sandbox clock may run ahead in all: far enough for any plan, short of the calendar's end.
MAX_OFFSET = timedelta(days=50 * 366)


def brazil_today() -> date:
    return now().astimezone(BRAZIL).date()


def as_utc(moment: datetime) -> datetime:
    """Datetimes read back from SQLite come without a zone; they were stored as UTC."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def unix(moment: datetime) -> int:
    return int(as_utc(moment).timestamp())


def format_utc(moment: datetime) -> str:
    return as_utc(moment).strftime("%Y-%m-%d %H:%M:%S")
