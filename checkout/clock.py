"""The service's only source of "now": real UTC time plus the sandbox clock's offset, shared via the database."""

from __future__ import annotations

import threading
import time
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Protocol

BRAZIL = timezone(timedelta(hours=-3), "BRT")
# How far the sandbox clock may run ahead in all: far enough for any plan, short of the calendar's end.
MAX_OFFSET = timedelta(days=50 * 366)
# How long a process trusts its copy of the offset before reading the shared one again.
REFRESH_SECONDS = 1.0


class OffsetStore(Protocol):
    """Where the offset lives so that every process (web, workers) agrees on business time."""

    def load(self) -> int | None: ...  # None: unreadable just now (keep what is known)
    def add(self, seconds: int, maximum: int) -> int: ...
    def reset(self) -> None: ...


_store: OffsetStore | None = None
_offset = 0
_loaded_at = float("-inf")


def use_store(store: OffsetStore | None) -> None:
    global _store, _loaded_at
    _store, _loaded_at = store, float("-inf")


_lock = threading.Lock()


def _current_offset() -> int:
    global _offset, _loaded_at
    if _store is not None and time.monotonic() - _loaded_at > REFRESH_SECONDS:
        loaded = _store.load()
        with _lock:
            # The clock only moves forward: a read that raced a newer write never takes it back.
            if loaded is not None:
                _offset = max(_offset, loaded)
            _loaded_at = time.monotonic()
    return _offset


def real_now() -> datetime:
    """Wall-clock time, for request freshness windows that must follow the merchant's own clock."""
    return datetime.now(UTC)


def now() -> datetime:
    """Business time (aware, UTC): deadlines, expiries, scheduled dates all follow it."""
    return real_now() + timedelta(seconds=_current_offset())


def offset_seconds() -> int:
    return _current_offset()


def advance(seconds: int) -> None:
    """Move business time forward, for every process; the sandbox clock never goes back."""
    global _offset, _loaded_at
    if seconds < 0:
        raise ValueError("the sandbox clock only moves forward")
    maximum = int(MAX_OFFSET.total_seconds())
    if _store is not None:
        remember(_store.add(seconds, maximum))
    elif _offset + seconds > maximum:
        raise ValueError(f"the sandbox clock cannot run more than {MAX_OFFSET.days} days ahead")
    else:
        remember(_offset + seconds)


def remember(offset: int) -> None:
    """The offset this process just wrote to the shared store itself (see sandbox.models.add_offset)."""
    global _offset, _loaded_at
    with _lock:
        _offset, _loaded_at = max(_offset, offset), time.monotonic()


def reset() -> None:
    """Back to real time (tests only: a running sandbox never goes back)."""
    global _offset, _loaded_at
    if _store is not None:
        _store.reset()
    with _lock:
        _offset, _loaded_at = 0, time.monotonic()


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
