"""The payin commands: what each payin service takes, with every field rule of the interface declared once.

Each is a frozen pydantic model. The API's request models (`requests.py`) put the envelope around them; the
dashboard builds them directly, and so meets the same rules. The hosted checkout builds them from what its
own form and the method's checks accepted (`checkout.payment_of`), unchecked here on purpose: the page
names each problem on its own field, which an API error cannot."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    AliasChoices,
    BaseModel,
    BeforeValidator,
    Field,
    StrictInt,
    WithJsonSchema,
    field_validator,
)

from ..validation import (
    COMMAND_CONFIG,
    Alpha3,
    Amount,
    AnyCaseCurrency,
    Currency,
    Email,
    Fixed,
    HttpUrl,
    IpAddress,
    IsoDate,
    OptEmail,
    OptText,
    Text,
    is_digits,
)

# Field names are the interface's, so that what a trade or refund keeps of them (`model_dump()`) reads exactly
# as the merchant sent it. Where the interface interleaves a fixed value (format, version, trade_type) with an
# order's fields, the command carries it too: a request's fields keep the interface's order, which decides
# the missing field a refusal names first.


# --- pre-authorization ---------------------------------------------------------------------------


class ThreeDS(BaseModel):
    model_config = COMMAND_CONFIG
    sli: Annotated[str | None, OptText(16)] = None
    status: Annotated[str, Text(64)]
    liability_shift: Annotated[str, Text(16)]
    status_reason_code: Annotated[str, Text(2)]
    status_code: Literal["U", "N", "Y", "A", "C", "D", "R", "I"]
    eci: Annotated[str, Text(4)]
    cavv: Annotated[str, Text(128)]
    version: Annotated[str, Text(16)]
    acs_trans_id: Annotated[str, Text(64)]
    ds_trans_id: Annotated[str, Text(64)]

    @field_validator("status_reason_code")
    @classmethod
    def _reason(cls, code: str) -> str:
        if not (len(code) == 2 and is_digits(code) and 1 <= int(code) <= 16):
            raise ValueError("must be one of 01 to 16")
        return code


class PreAuthorization(BaseModel):
    model_config = COMMAND_CONFIG
    buyer_id: Annotated[str, Text(64)]
    content: Annotated[str | None, OptText(255)] = None
    format: Annotated[str, Fixed("JSON")]
    notify_url: HttpUrl
    order_amount: Annotated[Decimal, Amount("0.01", "99999999.99", places=None)]
    order_currency: Currency
    out_trade_no: Annotated[str, Text(64)]
    return_url: HttpUrl | None = None
    subject: Annotated[str, Text(128)]
    timeout_express: Annotated[str | None, OptText(8)] = None
    version: Annotated[str, Fixed("2.0")] | None = None
    token: Annotated[str, Text(64)]
    website_url: HttpUrl | None = None
    method: Annotated[str, Fixed("CreditCard")]
    trade_type: Annotated[str, Fixed("API")]
    issuer: Annotated[str, Text(64)]
    threeds: ThreeDS


# --- pay with vault --------------------------------------------------------------------------------


class VaultPayment(BaseModel):
    model_config = COMMAND_CONFIG
    out_trade_no: Annotated[str, Text(64)]
    method: Literal["CreditCard", "PIXAutomatic"]
    notify_url: HttpUrl
    subject: Annotated[str, Text(128)]
    content: Annotated[str | None, OptText(255)] = None
    order_amount: Annotated[Decimal, Amount("0.1", "9999999", places=None)]
    order_currency: Currency
    buyer_id: Annotated[str, Text(64)]
    vault_token: Annotated[str, Text(64)]
    return_url: HttpUrl | None = None
    scheduled_date: IsoDate | None = None
    region: Alpha3 | None = None


# --- direct payment --------------------------------------------------------------------------------


def _installments(value: object) -> object:
    """The provider's table says integer, its CreditCard page string ("1"): digits are read as the number."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 2:
        return int(value)
    return value


Installments = Annotated[
    StrictInt,
    BeforeValidator(_installments),
    Field(ge=1, le=12),
    WithJsonSchema(
        {
            "anyOf": [{"type": "integer", "minimum": 1, "maximum": 12}, {"type": "string", "pattern": "^[0-9]{1,2}$"}],
            "description": "1 to 12, a number or its digits as a string",
        }
    ),
]


class Identify(BaseModel):
    model_config = COMMAND_CONFIG
    number: Annotated[str, Text(32)]
    type: Annotated[str, Text(16)]


class Customer(BaseModel):
    model_config = COMMAND_CONFIG
    name: Annotated[str, Text(128)]
    email: Annotated[str, Email(128)]
    phone: Annotated[str, Text(32)]
    identify: Identify


class Address(BaseModel):
    model_config = COMMAND_CONFIG
    zip_code: Annotated[str, Text(16)]
    state: Annotated[str, Text(64)]
    city: Annotated[str, Text(64)]
    street_number: Annotated[str, Text(16)]
    street: Annotated[str, Text(128)]
    neighborhood: Annotated[str | None, OptText(64)] = None


# What a CreditCard direct payment needs beyond the model's own required fields.
CARD_REQUIRED = ("token", "fingerprint", "issuer", "user_ip")


class DirectPayment(BaseModel):
    model_config = COMMAND_CONFIG
    out_trade_no: Annotated[str, Text(64)]
    method: Annotated[str | None, OptText(32)] = None
    channel: Annotated[str | None, OptText(32)] = None
    order_currency: Currency
    order_amount: Annotated[Decimal, Amount("0.01", "99999999.99", places=None)]
    subject: Annotated[str, Text(128)]
    content: Annotated[str | None, OptText(255)] = None
    notify_url: HttpUrl
    buyer_id: Annotated[str, Text(64)]
    timeout_express: Annotated[str | None, OptText(8)] = None
    cancellation_express: Annotated[str | None, OptText(8)] = None
    token: Annotated[str | None, OptText(64)] = None
    fingerprint: Annotated[str | None, OptText(128)] = None
    issuer: Annotated[str | None, OptText(64)] = None
    installments: Installments = 1
    bank: Annotated[str | None, OptText(64)] = None
    language_code: Annotated[str | None, OptText(8)] = None
    customer: Customer
    address: Address
    user_ip: IpAddress | None = None
    return_url: HttpUrl | None = None
    # Wallet channel Todito: the payer's wallet account and its verification code; the bank transfer pages of
    # Argentina, Bolivia, Panama, Paraguay and Uruguay: the payer's bank account and its type.
    account_number: Annotated[str | None, OptText(22)] = Field(
        None, description="Wallet Todito: 10 to 18 digits; the payer's bank account on the pages that ask for it"
    )
    account_type: Annotated[str | None, OptText(16)] = Field(
        None, description="the payer's account type where the page asks for it (C, S, CHECKING, SAVINGS)"
    )
    account_verification_code: Annotated[str | None, OptText(4)] = Field(None, description="Wallet Todito: 4 digits")

    @classmethod
    def also_missing(cls, body: dict) -> list[str]:
        """The method's own required fields absent from `body`, reported with the model's (the operation layer
        asks when the model refuses a body, so that every missing field comes back in one answer)."""
        if body.get("method") == "CreditCard":
            return [name for name in CARD_REQUIRED if body.get(name) is None]
        return []


# --- hosted checkout (/trade/create with trade_type WEB or API) -------------------------------------

# WEB answers the page's address in web_url; API answers it empty, and the merchant sends the customer to
# the checkout with prepay_id (`{base}/?prepay_id=...`). The order and its checks are the same.
TRADE_TYPES = ("WEB", "API")


def _trade_type(text: str) -> str:
    if text not in TRADE_TYPES:
        raise ValueError("must be WEB or API")
    return text


TradeType = Annotated[str, AfterValidator(_trade_type), WithJsonSchema({"type": "string", "enum": list(TRADE_TYPES)})]


class PartialIdentify(BaseModel):
    model_config = COMMAND_CONFIG
    number: Annotated[str | None, OptText(32)] = None
    type: Annotated[str | None, OptText(16)] = None


class PartialCustomer(BaseModel):
    """Every field optional: what is given is pre-filled on the page (the provider's checkout page). Its
    e-commerce page's example spells `identification` and `postal_code`: both spellings are read."""

    model_config = COMMAND_CONFIG
    name: Annotated[str | None, OptText(128)] = None
    email: Annotated[str | None, OptEmail(128)] = None
    phone: Annotated[str | None, OptText(32)] = None
    identify: Annotated[PartialIdentify | None, Field(validation_alias=AliasChoices("identify", "identification"))] = (
        None
    )


class PartialAddress(BaseModel):
    model_config = COMMAND_CONFIG
    zip_code: Annotated[str | None, OptText(16), Field(validation_alias=AliasChoices("zip_code", "postal_code"))] = None
    state: Annotated[str | None, OptText(64)] = None
    city: Annotated[str | None, OptText(64)] = None
    street_number: Annotated[str | None, OptText(16)] = None
    street: Annotated[str | None, OptText(128)] = None
    neighborhood: Annotated[str | None, OptText(64)] = None


class HostedCheckout(BaseModel):
    """The provider's "checkout page (general)" order, with trade_type WEB or API."""

    model_config = COMMAND_CONFIG
    out_trade_no: Annotated[str, Text(64)]
    method: Annotated[str | None, OptText(32)] = None  # absent or "": the customer chooses
    channel: Annotated[str | None, OptText(32)] = None
    order_currency: Currency
    order_amount: Annotated[Decimal, Amount("0.01", "99999999.99", places=None)]
    subject: Annotated[str, Text(128)]
    content: Annotated[str, Text(255)]
    trade_type: TradeType
    version: Annotated[str, Fixed("2.0")]
    timeout_express: Annotated[str | None, OptText(8)] = None
    cancellation_express: Annotated[str | None, OptText(8)] = None
    notify_url: HttpUrl
    return_url: HttpUrl | None = None
    buyer_id: Annotated[str, Text(64)]
    regions: Annotated[list[Alpha3], Field(max_length=32)] | None = None
    customer: PartialCustomer | None = None
    address: PartialAddress | None = None


# --- refunds, capture and void ---------------------------------------------------------------------


class RefundIdentify(BaseModel):
    model_config = COMMAND_CONFIG
    number: Annotated[str | None, OptText(16)] = None
    type: Annotated[str | None, OptText(16)] = None


class UserInfo(BaseModel):
    model_config = COMMAND_CONFIG
    identify: RefundIdentify | None = None
    name: Annotated[str | None, OptText(64)] = None
    email: Annotated[str | None, OptEmail(64)] = None
    phone: Annotated[str | None, OptText(64)] = None


class BankInfo(BaseModel):
    model_config = COMMAND_CONFIG
    bank_id: Annotated[str | None, OptText(64)] = None
    bank_name: Annotated[str | None, OptText(64)] = None
    agency: Annotated[str | None, OptText(64)] = None
    type: Annotated[str | None, OptText(64)] = None
    number: Annotated[str | None, OptText(64)] = None
    account: Annotated[str | None, OptText(64)] = None  # ours, before the provider's `number` was read

    def is_empty(self) -> bool:
        return not any(self.model_dump().values())


class RefundOrder(BaseModel):
    model_config = COMMAND_CONFIG
    trade_no: Annotated[str | None, OptText(64)] = None
    out_trade_no: Annotated[str | None, OptText(64)] = None
    out_request_no: Annotated[str | None, OptText(16)] = None
    refund_currency: Currency
    refund_amount: Annotated[Decimal, Amount("0.01", "99999999999999.99", places=None)]
    refund_reason: Annotated[str | None, OptText(128)] = None
    user_info: UserInfo | None = None
    bank_info: BankInfo | None = None


class Capture(BaseModel):
    model_config = COMMAND_CONFIG
    out_trade_no: Annotated[str, Text(64)]
    amount: Annotated[Decimal, Amount("0.01", "99999999.99", places=None)]
    currency: AnyCaseCurrency


class Void(BaseModel):
    model_config = COMMAND_CONFIG
    out_trade_no: Annotated[str, Text(64)]
