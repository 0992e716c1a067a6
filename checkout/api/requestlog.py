"""The API request log: what each authenticated API request asked and answered, redacted, kept 7 days."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from flask import Flask
from sqlalchemy import BigInteger, DateTime, ForeignKey, Index, Integer, String, Text, delete
from sqlalchemy.orm import Mapped, Session, mapped_column

from .. import clock
from ..db import Base, RowWriter
from .redaction import redacted_body, storable
from .scrub import scrub_text

log = logging.getLogger(__name__)

KEEP = timedelta(days=7)


class ApiRequest(Base):
    __tablename__ = "api_requests"
    __table_args__ = (
        Index("ix_api_requests_merchant_id_id", "merchant_id", "id"),
        Index("ix_api_requests_at", "at"),
    )

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer(), "sqlite"), primary_key=True)
    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # real time, not the sandbox clock
    method: Mapped[str] = mapped_column(String(8))
    path: Mapped[str] = mapped_column(String(255))
    status: Mapped[int] = mapped_column(Integer)
    duration_ms: Mapped[int] = mapped_column(Integer)
    # Card numbers, CVVs, keys, signatures and link tokens are redacted before a body is kept (redaction.py);
    # bodies are bounded.
    request_body: Mapped[str] = mapped_column(Text)
    response_body: Mapped[str] = mapped_column(Text)


COLUMNS = ("merchant_id", "at", "method", "path", "status", "duration_ms", "request_body", "response_body")


class RequestLog:
    """The app's request log (create_app keeps it in `app.extensions`, see `of`): each request hands its raw
    row to a RowWriter, whose thread redacts and inserts rows in batches, so the request pays for neither.
    Its rows are written with commits that do not wait for the disk: what that risks is the last moment's
    log rows on a power loss, never the requests' own data. `close()` writes what is queued and stops the
    thread (the serve and worker commands, and the process's exit)."""

    def __init__(self, url: str) -> None:
        self.rows = RowWriter(
            url,
            ApiRequest.__table__,  # type: ignore[arg-type]  # a mapped class's Table
            COLUMNS,
            _stored,
            describe=lambda row: f"merchant {row[0]} (status {row[4]})",
            log=log,
            name="request log",
            plural="API requests",
        )

    def record(
        self,
        *,
        merchant_id: int,
        method: str,
        path: str,
        status: int,
        duration_ms: int,
        request_body: bytes | str,
        response_body: bytes | str,
    ) -> None:
        """Log one request after its own commit or rollback (a refused request's row is kept although its
        work rolled back). Never raises: a log that fails must not fail the API request."""
        row = (merchant_id, clock.real_now(), method[:8], path[:255], status, max(0, duration_ms), request_body,
               response_body)  # fmt: skip
        self.rows.put(row)

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every queued row is written; False on timeout."""
        return self.rows.flush(timeout)

    def close(self) -> None:
        self.rows.close()


EXTENSION = "checkout.requestlog"


def init_app(app: Flask) -> None:
    app.extensions[EXTENSION] = RequestLog(app.config["DATABASE_URL"])


def of(app: Flask) -> RequestLog:
    """The request log of `app` (made by create_app)."""
    return app.extensions[EXTENSION]


def _stored(row: tuple) -> tuple:
    merchant_id, when, method, path, status, ms, sent, answered = row
    return (merchant_id, when, storable(method), storable(scrub_text(path)), status, ms, redacted_body(sent),
            redacted_body(answered))  # fmt: skip


def purge(session: Session, now: datetime | None = None) -> int:
    """Delete requests older than KEEP (real time); answers how many."""
    limit = (now or clock.real_now()) - KEEP
    result = session.execute(delete(ApiRequest).where(ApiRequest.at < limit))
    return int(getattr(result, "rowcount", 0) or 0)
