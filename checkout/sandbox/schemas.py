"""Request and response models of the sandbox controls."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

from pydantic import BaseModel, Field, StrictInt

from ..validation import REQUEST_CONFIG, Amount


class ClockAdvance(BaseModel):
    model_config = REQUEST_CONFIG
    advance_seconds: Annotated[StrictInt, Field(ge=0, le=10 * 366 * 24 * 3600)]


class PayoutRefund(BaseModel):
    model_config = REQUEST_CONFIG
    amount: Annotated[Decimal, Amount("0.01", "99999999.99")] | None = None


class TransferRequest(BaseModel):
    """Sandbox: a SPEI transfer to a CLABE, as the customer's bank sends it."""

    model_config = REQUEST_CONFIG
    amount: Annotated[Decimal, Amount("0.01", "99999999.99"), Field(description="MXN")]


# --- responses -------------------------------------------------------------------------------------


class ClockResponse(BaseModel):
    now: int = Field(description="sandbox time, unix seconds")
    offset_seconds: int


class PaidTrade(BaseModel):
    trade_no: str
    out_trade_no: str
    trade_status: str


class VaultDecision(BaseModel):
    token: str
    type: str
    vault_status: str


class PayoutRefunded(BaseModel):
    transaction_id: str
    status: str
    refunded_id: str
    refunded_amount: str
    currency: str


class DeliveryAttempt(BaseModel):
    number: int
    at: int
    status_code: int | None
    response: str | None
    error: str | None
    duration_ms: int
    succeeded: bool
    manual: bool
    via: str | None = Field(None, description='"listen": forwarded by checkout listen, with the local answer')


class Delivery(BaseModel):
    """A notification or e-mail and its attempts; times are unix seconds."""

    id: str
    kind: str
    target: str
    subject: str
    status: str
    attempts: int
    created_at: int
    first_dispatch_at: int | None
    next_attempt_at: int | None
    delivered_at: int | None
    last_error: str | None
    payload: dict[str, Any]
    attempt_log: list[DeliveryAttempt]


class DeliveryList(BaseModel):
    deliveries: list[Delivery]


class TransferResponse(BaseModel):
    trade_no: str
    out_trade_no: str = Field(description="the transfer's tracking key (clave de rastreo)")
    trade_status: str
    amount: str
    currency: str
    account_id: str
    account_number: str
