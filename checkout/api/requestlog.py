"""The API request log table: what each authenticated API request asked and answered, redacted."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base


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
    # Card numbers, CVVs, keys and signatures are redacted before a body is kept; bodies are bounded.
    request_body: Mapped[str] = mapped_column(Text)
    response_body: Mapped[str] = mapped_column(Text)
