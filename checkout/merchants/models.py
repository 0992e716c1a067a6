"""The merchant account table."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, DateTime, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, column_property, mapped_column

from ..db import Base


class Merchant(Base):
    __tablename__ = "merchants"

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str] = mapped_column(String(128))
    document: Mapped[str | None] = mapped_column(String(14), nullable=True)  # CNPJ, shown to PIX payers
    app_id: Mapped[str] = mapped_column(String(32), unique=True)
    # Kept retrievable, not hashed: it also keys the HMAC of payin callbacks and return tokens.
    security_key: Mapped[str] = mapped_column(String(64))
    app_key: Mapped[str] = mapped_column(String(64))
    return_hosts: Mapped[list] = mapped_column(JSON, default=list)
    frame_origins: Mapped[list] = mapped_column(JSON, default=list)
    # Payout FX markup over the mid rate, in basis points.
    fx_markup_bps: Mapped[int] = mapped_column(Integer, default=50, server_default="50")
    # Deferred: every API request loads its merchant, and only the pages need the picture.
    logo_png: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True, deferred=True)
    # The hosted pages' language when neither the request nor the session names one (None: the browser's).
    default_language: Mapped[str | None] = mapped_column(String(8), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    has_logo: Mapped[bool] = column_property(logo_png.is_not(None))
