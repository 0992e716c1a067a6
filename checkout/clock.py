"""The service's only source of "now": real UTC time plus the operator's shared offset plus the current
merchant's own offset, both kept in the database."""

from __future__ import annotations

import contextlib
import contextvars
import threading
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Protocol

BRAZIL = timezone(timedelta(hours=-3), "BRT")
# How far a sandbox clock may run ahead (the shared one, and each merchant's own): far enough for any
# plan, short of the calendar's end.
MAX_OFFSET = timedelta(days=50 * 366)
# How long a process trusts its copy of the offsets before reading the shared ones again.
REFRESH_SECONDS = 1.0


class OffsetStore(Protocol):
    """Where the operator's shared offset lives so that every process (web, workers) agrees on it."""

    def load(self) -> int | None: ...  # None: unreadable just now (keep what is known)
    def add(self, seconds: int, maximum: int) -> int: ...
    def reset(self) -> None: ...


class MerchantOffsetStore(Protocol):
    """Where each merchant's own offset lives (only merchants off the shared clock have one)."""

    def load_merchants(self) -> dict[int, int] | None: ...  # every non-zero offset; None: unreadable
    def add_merchant(self, merchant_id: int, seconds: int, maximum: int) -> int: ...
    def reset_merchant(self, merchant_id: int | None) -> None: ...  # None: every merchant


# Process-wide by nature: all code reads time through now(), with no app at hand (services, jobs, sending
# threads), and every app of a process shares the one sandbox clock; create_app names the stores (use_store).
_store: OffsetStore | None = None
_merchant_store: MerchantOffsetStore | None = None
_offset = 0
_loaded_at = float("-inf")
_merchant_offsets: dict[int, int] = {}
_merchants_loaded_at = float("-inf")
_written_at: dict[int, float] = {}  # merchants whose offset this process wrote itself, and when

# The merchant whose business time "now" is: set for a request once it is authenticated, for a page
# once its merchant is known, and by the worker around each merchant's due work. None: the shared clock.
_merchant: contextvars.ContextVar[int | None] = contextvars.ContextVar("checkout_clock_merchant", default=None)


def use_store(store: OffsetStore | None, merchants: MerchantOffsetStore | None = None) -> None:
    global _store, _merchant_store, _loaded_at, _merchants_loaded_at
    _store, _loaded_at = store, float("-inf")
    _merchant_store, _merchants_loaded_at = merchants, float("-inf")
    _written_at.clear()  # a new store: what it holds is authoritative from the first read


_lock = threading.Lock()  # guards the offsets above, which request threads and the worker read and move


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


def merchant_offsets() -> dict[int, int]:
    """Every merchant off the shared clock and its own offset (seconds), read again at most every second.

    What is read is authoritative (an operator's reset takes effect), except for a merchant this process
    moved itself a moment ago: a read that raced that write never takes it back."""
    global _merchant_offsets, _merchants_loaded_at
    if _merchant_store is not None and time.monotonic() - _merchants_loaded_at > REFRESH_SECONDS:
        started = time.monotonic()
        loaded = _merchant_store.load_merchants()
        with _lock:
            if loaded is not None:
                fresh = dict(loaded)
                for merchant_id, at in list(_written_at.items()):
                    if at >= started - 2 * REFRESH_SECONDS:
                        fresh[merchant_id] = max(fresh.get(merchant_id, 0), _merchant_offsets.get(merchant_id, 0))
                    else:
                        del _written_at[merchant_id]
                _merchant_offsets = {k: v for k, v in fresh.items() if v}
            _merchants_loaded_at = time.monotonic()
    return _merchant_offsets


def current_merchant() -> int | None:
    return _merchant.get()


def set_merchant(merchant_id: int | None) -> contextvars.Token[int | None]:
    """Business time follows this merchant's clock from now on in this context (a request's rest)."""
    return _merchant.set(merchant_id)


def restore_merchant(token: contextvars.Token[int | None]) -> None:
    _merchant.reset(token)


@contextlib.contextmanager
def merchant(merchant_id: int | None) -> Iterator[None]:
    """Business time follows this merchant's clock inside the block (None: the shared clock)."""
    token = _merchant.set(merchant_id)
    try:
        yield
    finally:
        _merchant.reset(token)


def _merchant_offset(merchant_id: int | None) -> int:
    return 0 if merchant_id is None else merchant_offsets().get(merchant_id, 0)


def real_now() -> datetime:
    """Wall-clock time, for request freshness windows that must follow the merchant's own clock."""
    return datetime.now(UTC)


def now() -> datetime:
    """Business time (aware, UTC): deadlines, expiries, scheduled dates all follow it."""
    return real_now() + timedelta(seconds=offset_seconds())


def offset_seconds() -> int:
    """How far business time runs ahead of real time for the current merchant (shared + its own)."""
    return _current_offset() + _merchant_offset(_merchant.get())


def shared_offset_seconds() -> int:
    return _current_offset()


def advance(seconds: int) -> None:
    """Move the operator's shared clock forward, for every merchant and process; it never goes back."""
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


def advance_merchant(merchant_id: int, seconds: int) -> None:
    """Move one merchant's own clock forward (every process sees it within a second); never back."""
    if seconds < 0:
        raise ValueError("the sandbox clock only moves forward")
    maximum = int(MAX_OFFSET.total_seconds())
    if _merchant_store is not None:
        remember_merchant(merchant_id, _merchant_store.add_merchant(merchant_id, seconds, maximum))
    elif merchant_offsets().get(merchant_id, 0) + seconds > maximum:
        raise ValueError(f"the sandbox clock cannot run more than {MAX_OFFSET.days} days ahead")
    else:
        remember_merchant(merchant_id, merchant_offsets().get(merchant_id, 0) + seconds)


def remember_merchant(merchant_id: int, offset: int) -> None:
    """A merchant's offset this process just wrote itself (see sandbox.models.add_merchant_offset)."""
    global _merchant_offsets
    with _lock:
        value = max(_merchant_offsets.get(merchant_id, 0), offset)
        _merchant_offsets = {**_merchant_offsets, merchant_id: value} if value else _merchant_offsets
        _written_at[merchant_id] = time.monotonic()


def forget_merchant(merchant_id: int) -> None:
    """Drop what this process remembered writing for a merchant (its transaction rolled back): the next
    read takes the stored offset again."""
    global _merchants_loaded_at
    with _lock:
        _written_at.pop(merchant_id, None)
        _merchants_loaded_at = float("-inf")


def reset() -> None:
    """Every clock back to real time (tests only: a running sandbox never goes back)."""
    global _offset, _loaded_at, _merchant_offsets, _merchants_loaded_at
    if _store is not None:
        _store.reset()
    if _merchant_store is not None:
        _merchant_store.reset_merchant(None)
    with _lock:
        _offset, _loaded_at = 0, time.monotonic()
        _merchant_offsets, _merchants_loaded_at = {}, time.monotonic()
        _written_at.clear()


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
