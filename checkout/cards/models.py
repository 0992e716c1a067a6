"""The card token table: what tokenization keeps of a card."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base


class CardToken(Base):
    """What tokenization keeps of a card: never the number, CVV or anything that rebuilds them."""

    __tablename__ = "card_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(64), unique=True)
    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id"), index=True)
    brand: Mapped[str] = mapped_column(String(16))
    first_six: Mapped[str] = mapped_column(String(6))
    last_four: Mapped[str] = mapped_column(String(4))
    exp_month: Mapped[int] = mapped_column(Integer)
    exp_year: Mapped[int] = mapped_column(Integer)
    holder_name: Mapped[str] = mapped_column(String(128))
    fingerprint: Mapped[str] = mapped_column(String(64), index=True)
    # The sandbox acquirer's answer for this card (approve, decline, insufficient_funds), written from
    # SandboxAcquirer.outcome_for at tokenization and read only by it: the card number is not kept, so the
    # answer has to be noted here. The column stays rather than be migrated away; other acquirers ignore it.
    sandbox_outcome: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
