"""Request models of the sandbox controls."""
from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field, StrictInt

from ..validation import REQUEST_CONFIG, Amount


class ClockAdvance(BaseModel):
    model_config = REQUEST_CONFIG
    advance_seconds: Annotated[StrictInt, Field(ge=0, le=10 * 366 * 24 * 3600)]


class PayoutRefund(BaseModel):
    model_config = REQUEST_CONFIG
    amount: Amount("0.01", "99999999.99") | None = None
