"""Request models of the payin operations: every field rule of the interface, declared once."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, StrictInt, field_validator

from ..validation import (
    REQUEST_CONFIG,
    Alpha3,
    Amount,
    Currency,
    Email,
    Fixed,
    HttpUrl,
    IpAddress,
    IsoDate,
    OptEmail,
    OptText,
    Text,
    Timestamp,
    is_digits,
)


class Request(BaseModel):
    model_config = REQUEST_CONFIG

    app_id: Text(32)
    timestamp: Timestamp


# --- card tokenization ---------------------------------------------------------------------------

class Holder(BaseModel):
    model_config = REQUEST_CONFIG
    name: Text(128)


class Card(BaseModel):
    model_config = REQUEST_CONFIG
    card_no: Text(19)
    cvv: Text(4)
    valid_thru_year: Annotated[str | StrictInt, Field(description="4 digits (2 accepted)")]
    valid_thru_month: Annotated[str | StrictInt, Field(description="1 to 12")]
    holder: Holder


class CardTokenRequest(Request):
    card: Card


class CardSessionRequest(Request):
    """Extension: a hosted card-entry page for merchants that must not see card numbers."""
    country: Alpha3 | None = None  # picks the page's language (BRA, MEX) when the browser's is not wanted


# --- pre-authorization ---------------------------------------------------------------------------

class ThreeDS(BaseModel):
    model_config = REQUEST_CONFIG
    sli: OptText(16) = None
    status: Text(64)
    liability_shift: Text(16)
    status_reason_code: Text(2)
    status_code: Literal["U", "N", "Y", "A", "C", "D", "R", "I"]
    eci: Text(4)
    cavv: Text(128)
    version: Text(16)
    acs_trans_id: Text(64)
    ds_trans_id: Text(64)

    @field_validator("status_reason_code")
    @classmethod
    def _reason(cls, code: str) -> str:
        if not (len(code) == 2 and is_digits(code) and 1 <= int(code) <= 16):
            raise ValueError("must be one of 01 to 16")
        return code


class PreAuthorizationRequest(Request):
    buyer_id: Text(64)
    content: OptText(255) = None
    format: Fixed("JSON")
    notify_url: HttpUrl
    order_amount: Amount("0.01", "99999999.99")
    order_currency: Currency
    out_trade_no: Text(64)
    return_url: HttpUrl | None = None
    subject: Text(128)
    timeout_express: OptText(8) = None
    version: Fixed("2.0") | None = None
    token: Text(64)
    website_url: HttpUrl | None = None
    method: Fixed("CreditCard")
    trade_type: Fixed("API")
    issuer: Text(64)
    threeds: ThreeDS


# --- pay with vault --------------------------------------------------------------------------------

class VaultPayRequest(Request):
    out_trade_no: Text(64)
    method: Literal["CreditCard", "PIXAutomatic"]
    notify_url: HttpUrl
    subject: Text(128)
    content: OptText(255) = None
    order_amount: Amount("0.1", "9999999")
    order_currency: Currency
    buyer_id: Text(64)
    vault_token: Text(64)
    return_url: HttpUrl | None = None
    scheduled_date: IsoDate | None = None
    region: Alpha3 | None = None


# --- direct payment --------------------------------------------------------------------------------

class Identify(BaseModel):
    model_config = REQUEST_CONFIG
    number: Text(32)
    type: Text(16)


class Customer(BaseModel):
    model_config = REQUEST_CONFIG
    name: Text(128)
    email: Email(128)
    phone: Text(32)
    identify: Identify


class Address(BaseModel):
    model_config = REQUEST_CONFIG
    zip_code: Text(16)
    state: Text(64)
    city: Text(64)
    street_number: Text(16)
    street: Text(128)
    neighborhood: OptText(64) = None


class DirectPayRequest(Request):
    out_trade_no: Text(64)
    method: OptText(32) = None
    channel: OptText(32) = None
    order_currency: Currency
    order_amount: Amount("0.01", "99999999.99")
    subject: Text(128)
    content: OptText(255) = None
    notify_url: HttpUrl
    buyer_id: Text(64)
    timeout_express: OptText(8) = None
    token: OptText(64) = None
    fingerprint: OptText(128) = None
    issuer: OptText(64) = None
    installments: Annotated[StrictInt, Field(ge=1, le=12)] = 1
    bank: OptText(64) = None
    language_code: OptText(8) = None
    customer: Customer
    address: Address
    user_ip: IpAddress | None = None
    return_url: HttpUrl | None = None


# --- refunds and queries ---------------------------------------------------------------------------

class RefundIdentify(BaseModel):
    model_config = REQUEST_CONFIG
    number: OptText(16) = None
    type: OptText(16) = None


class UserInfo(BaseModel):
    model_config = REQUEST_CONFIG
    identify: RefundIdentify | None = None
    name: OptText(64) = None
    email: OptEmail(64) = None
    phone: OptText(64) = None


class BankInfo(BaseModel):
    model_config = REQUEST_CONFIG
    bank_id: OptText(64) = None
    bank_name: OptText(64) = None
    agency: OptText(64) = None
    type: OptText(64) = None
    account: OptText(64) = None  # extension: the account number itself

    def is_empty(self) -> bool:
        return not any(self.model_dump().values())


class RefundRequest(Request):
    trade_no: OptText(64) = None
    out_trade_no: OptText(64) = None
    out_request_no: OptText(16) = None
    refund_currency: Currency
    refund_amount: Amount("0.01", "99999999999999.99")
    refund_reason: OptText(128) = None
    user_info: UserInfo | None = None
    bank_info: BankInfo | None = None


class QueryRequest(Request):
    trade_no: OptText(64) = None
    out_trade_no: OptText(64) = None


class BankListRequest(Request):
    method: Literal["DepositExpress", "Cash", "BankTransfer", "Khipu"]
