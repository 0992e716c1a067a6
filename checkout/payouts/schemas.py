"""Request models of the payout operations."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, StrictInt

from ..validation import REQUEST_CONFIG, Amount, HttpUrl, IsoDate, OptEmail, OptText, Text

# Amounts are numeric strings (JSON numbers are accepted too); decimals are checked per currency.
PayoutAmount = Amount("0.01", "99999999.99", places=2)
UnixTime = Annotated[StrictInt, Field(ge=0, le=10**11)]


class Request(BaseModel):
    model_config = REQUEST_CONFIG


class DryRunRequest(Request):
    source_currency: Literal["USD", "GBP", "EUR"]
    arrival_currency: Literal["BRL", "MXN", "USD", "COP", "CLP"]
    amount: PayoutAmount
    amount_type: Literal["source", "arrival"] = "source"
    fee_bear: Literal["beneficiary", "merchant"]
    method: Text(16)
    channel: OptText(32) = None
    country: Text(8)
    timestamp: UnixTime


class PayoutRequest(Request):
    name: Text(128)
    phone: OptText(32) = None
    email: OptEmail(128) = None
    account: OptText(512) = None
    account_type: OptText(16) = None
    document_id: OptText(32) = None
    document_type: OptText(8) = None
    bank_code: OptText(16) = None
    branch: OptText(16) = None
    account_digit: OptText(4) = None
    method: Text(16)
    channel: OptText(32) = None
    custom_code: Text(64)
    fee_bear: Literal["beneficiary", "merchant"]
    amount: PayoutAmount
    amount_type: Literal["source", "arrival"] = "source"
    source_currency: Literal["USD", "GBP", "EUR", "BRL", "MXN"]
    arrival_currency: Literal["BRL", "MXN", "USD", "COP", "CLP"]
    notify_url: HttpUrl | None = None
    additional_remark: OptText(39) = None
    country: Text(8)
    timestamp: UnixTime | None = None


class StatusRequest(Request):
    payout_id: OptText(32) = None
    custom_code: OptText(64) = None


class DetailRequest(Request):
    transaction_id: Text(32)
    timestamp: UnixTime


class CheckoutRequest(Request):
    user_id: Text(64)
    custom_code: Text(64)
    fee_bear: Literal["beneficiary", "merchant"]
    source_currency: Literal["USD", "EUR", "GBP", "BRL", "MXN"]
    payout_currency: Literal["USD", "BRL", "MXN"]
    payout_amount: PayoutAmount
    timeout: Annotated[StrictInt, Field(ge=60, le=1800)] = 1800
    notify_url: HttpUrl
    return_url: HttpUrl
    additional_remark: Text(39)
    country: Literal["BRA", "MEX", "GLOBAL"] | None = None
    method: OptText(16) = None
    timestamp: UnixTime | None = None


class BalanceHistoryRequest(Request):
    start_date: IsoDate
    end_date: IsoDate
    timestamp: UnixTime
