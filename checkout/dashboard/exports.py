"""CSV exports of the payments and payouts lists: their filters applied, rows read by keyset batches, cells made safe."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from flask import Response, stream_with_context
from flask_login import current_user
from sqlalchemy import Select, select, tuple_
from sqlalchemy.orm import Session

from .. import clock, money
from ..payins.models import Trade
from ..payouts.models import Payout
from . import payments, payout_records
from . import search as terms

BATCH = 500  # rows a query reads: the export holds one batch in memory, never the whole list

PAYMENT_HEADER = (
    "trade_no",
    "out_trade_no",
    "method",
    "status",
    "amount",
    "currency",
    "customer_email",
    "customer_document",
    "created_at",
)
PAYOUT_HEADER = (
    "transaction_id",
    "custom_code",
    "method",
    "status",
    "source_amount",
    "source_currency",
    "arrival_amount",
    "arrival_currency",
    "payee_name",
    "created_at",
)

# A cell a spreadsheet would read as a formula (OWASP's CSV injection list): quoted with an apostrophe.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe(value: str) -> str:
    return "'" + value if value.startswith(_FORMULA_STARTS) else value


def utc(moment: datetime) -> str:
    return clock.as_utc(moment).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _lines(header: tuple[str, ...], rows: Iterable[tuple[str, ...]]) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(header)
    yield buffer.getvalue()
    for row in rows:
        buffer.seek(0)
        buffer.truncate()
        writer.writerow([safe(cell) for cell in row])
        yield buffer.getvalue()


def _batches(session: Session, query: Select, model: Any) -> Iterator[Any]:
    """Every row of `query`, newest first, BATCH at a time by keyset over (created_at, id)."""
    after: tuple[datetime, int] | None = None
    while True:
        batch = query
        if after is not None:
            batch = batch.where(tuple_(model.created_at, model.id) < tuple_(*after))
        rows = session.execute(batch.order_by(model.created_at.desc(), model.id.desc()).limit(BATCH)).all()
        yield from rows
        if len(rows) < BATCH:
            return
        after = (rows[-1].created_at, rows[-1].id)


def payment_rows(session: Session, merchant_id: int, filters: payments.Filters) -> Iterator[str]:
    """The merchant's trades under `filters` as CSV lines, header first (the list's order: newest first)."""
    query = select(
        Trade.id,
        Trade.trade_no,
        Trade.out_trade_no,
        Trade.method,
        Trade.status,
        Trade.amount_minor,
        Trade.currency,
        # The two fields, not the whole details document: a batch reads and parses 500 of them.
        terms.customer_field(session, "email_as_sent").label("email"),
        terms.customer_field(session, "document").label("document"),
        Trade.created_at,
    ).where(Trade.merchant_id == merchant_id)
    query = payments.filtered(session, query, filters)

    def rows() -> Iterator[tuple[str, ...]]:
        for t in _batches(session, query, Trade):
            yield (
                t.trade_no,
                t.out_trade_no,
                t.method,
                t.status,
                money.format_minor(t.amount_minor, t.currency),
                t.currency,
                str(t.email or ""),
                str(t.document or ""),
                utc(t.created_at),
            )

    return _lines(PAYMENT_HEADER, rows())


def payout_rows(session: Session, merchant_id: int, filters: payout_records.PayoutFilter) -> Iterator[str]:
    """The merchant's payouts under `filters` as CSV lines, header first, newest first."""
    query = select(
        Payout.id,
        Payout.transaction_id,
        Payout.custom_code,
        Payout.method,
        Payout.status,
        Payout.source_minor,
        Payout.source_currency,
        Payout.arrival_minor,
        Payout.arrival_currency,
        Payout.name,
        Payout.created_at,
    ).where(Payout.merchant_id == merchant_id)
    query = payout_records.filtered(session, query, filters)

    def rows() -> Iterator[tuple[str, ...]]:
        for p in _batches(session, query, Payout):
            yield (
                p.transaction_id,
                p.custom_code,
                p.method,
                p.status,
                money.format_minor(p.source_minor, p.source_currency),
                p.source_currency,
                money.format_minor(p.arrival_minor, p.arrival_currency),
                p.arrival_currency,
                p.name,
                utc(p.created_at),
            )

    return _lines(PAYOUT_HEADER, rows())


def attachment(session: Session, lines: Iterator[str], name: str) -> Response:
    """A streamed CSV download: each line is sent as it is made, with the request's context (and session)
    kept open until the last one. Named after the list and the merchant's business day."""
    with clock.merchant(current_user.merchant_id):
        day = clock.now().date().isoformat()

    def stream() -> Iterator[str]:
        try:
            yield from lines
        finally:  # the read transaction ends with the last line, not only when the response is closed
            session.close()

    response = Response(stream_with_context(stream()), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{name}-{day}.csv"'
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
