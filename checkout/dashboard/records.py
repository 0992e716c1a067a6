"""Keyset paging shared by the vaults and payouts lists: newest first over (created_at, id), opaque cursors."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Generic, TypeVar

from sqlalchemy import Select, and_, or_

from .. import clock

PAGE_SIZE = 50

T = TypeVar("T")


class BadCursor(ValueError):
    """A `before` value this service did not hand out (edited, truncated, from another list)."""


@dataclass(frozen=True)
class Page(Generic[T]):
    rows: list[T]
    next_cursor: str | None  # None: this is the last page


def encode(created_at: datetime, row_id: int) -> str:
    """The position after a row, as an opaque token: URL-safe, no padding, nothing a user should edit."""
    moment = clock.as_utc(created_at)
    raw = f"{moment.strftime('%Y%m%d%H%M%S%f')}.{row_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


MAX_ID = 2**31 - 1  # the id columns are PostgreSQL integers: a larger one in a cursor was never ours


def decode(cursor: str) -> tuple[datetime, int]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
        stamp, row_id = raw.split(".")
        if len(stamp) != 20 or not stamp.isdigit() or not row_id.isdigit() or int(row_id) > MAX_ID:
            raise ValueError(raw)
        moment = datetime.strptime(stamp, "%Y%m%d%H%M%S%f").replace(tzinfo=UTC)
    except (ValueError, UnicodeDecodeError, binascii.Error):
        raise BadCursor(cursor) from None
    return moment, int(row_id)


def keyset(query: Select, model: Any, cursor: str | None) -> Select:
    """`query` from the cursor on, newest first, one row more than a page (to know whether another follows)."""
    if cursor:
        at, row_id = decode(cursor)  # aware UTC: SQLite's columns hold the same instant as naive UTC text
        query = query.where(or_(model.created_at < at, and_(model.created_at == at, model.id < row_id)))
    return query.order_by(model.created_at.desc(), model.id.desc()).limit(PAGE_SIZE + 1)


def page(rows: Sequence[T]) -> Page[T]:
    shown = list(rows[:PAGE_SIZE])
    more = len(rows) > PAGE_SIZE
    last = shown[-1] if shown else None
    return Page(shown, encode(last.created_at, last.id) if more and last is not None else None)  # type: ignore[attr-defined]


def day_bounds(first: date | None, last: date | None) -> tuple[datetime | None, datetime | None]:
    """UTC days, both included: [first 00:00, the day after last 00:00)."""
    start = datetime.combine(first, time(), UTC) if first else None
    # The last day there is has no day after it: no upper bound then.
    end = datetime.combine(last + timedelta(days=1), time(), UTC) if last and last < date.max else None
    return start, end
