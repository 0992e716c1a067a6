"""What the payin services take: plain typed inputs, already validated by the API's request models."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import date
from decimal import Decimal
from typing import Any

# Field names are the interface's, so `validation.command()` fills them from a request model and the
# dictionaries kept in a trade's details read exactly as the merchant sent them.


def given(values: dict[str, Any]) -> dict[str, Any]:
    """The fields the merchant gave (None dropped, nested ones too), as a trade or refund keeps them."""
    return {
        key: given(value) if isinstance(value, dict) else value for key, value in values.items() if value is not None
    }


@dataclass(frozen=True)
class ThreeDS:
    sli: str | None
    status: str
    liability_shift: str
    status_reason_code: str
    status_code: str
    eci: str
    cavv: str
    version: str
    acs_trans_id: str
    ds_trans_id: str


@dataclass(frozen=True)
class PreAuthorization:
    out_trade_no: str
    buyer_id: str
    subject: str
    content: str | None
    notify_url: str
    return_url: str | None
    order_amount: Decimal
    order_currency: str
    timeout_express: str | None
    token: str
    issuer: str
    threeds: ThreeDS


@dataclass(frozen=True)
class VaultPayment:
    out_trade_no: str
    method: str
    notify_url: str
    subject: str
    content: str | None
    order_amount: Decimal
    order_currency: str
    buyer_id: str
    vault_token: str
    return_url: str | None
    scheduled_date: date | None
    region: str | None


@dataclass(frozen=True)
class Identify:
    number: str
    type: str


@dataclass(frozen=True)
class Customer:
    name: str
    email: str
    phone: str
    identify: Identify


@dataclass(frozen=True)
class Address:
    zip_code: str
    state: str
    city: str
    street_number: str
    street: str
    neighborhood: str | None


@dataclass(frozen=True)
class DirectPayment:
    out_trade_no: str
    method: str | None
    channel: str | None
    order_currency: str
    order_amount: Decimal
    subject: str
    content: str | None
    notify_url: str
    buyer_id: str
    timeout_express: str | None
    token: str | None
    fingerprint: str | None
    issuer: str | None
    installments: int
    bank: str | None
    language_code: str | None
    customer: Customer
    address: Address
    user_ip: str | None
    return_url: str | None
    cancellation_express: str | None = None
    # Wallet channel Todito: the payer's wallet account and its verification code; the bank transfer pages of
    # Argentina, Bolivia, Panama, Paraguay and Uruguay: the payer's bank account and its type.
    account_number: str | None = None
    account_verification_code: str | None = None
    account_type: str | None = None


@dataclass(frozen=True)
class RefundIdentify:
    number: str | None
    type: str | None


@dataclass(frozen=True)
class UserInfo:
    identify: RefundIdentify | None
    name: str | None
    email: str | None
    phone: str | None


@dataclass(frozen=True)
class BankInfo:
    bank_id: str | None
    bank_name: str | None
    agency: str | None
    type: str | None
    number: str | None
    account: str | None

    def is_empty(self) -> bool:
        return not any(asdict(self).values())


@dataclass(frozen=True)
class RefundOrder:
    trade_no: str | None
    out_trade_no: str | None
    out_request_no: str | None
    refund_currency: str
    refund_amount: Decimal
    refund_reason: str | None
    user_info: UserInfo | None
    bank_info: BankInfo | None


@dataclass(frozen=True)
class Capture:
    out_trade_no: str
    amount: Decimal
    currency: str


@dataclass(frozen=True)
class Void:
    out_trade_no: str


@dataclass(frozen=True)
class PartialIdentify:
    number: str | None
    type: str | None


@dataclass(frozen=True)
class PartialCustomer:
    """What the merchant knows of the customer: pre-filled on the hosted checkout."""

    name: str | None
    email: str | None
    phone: str | None
    identify: PartialIdentify | None


@dataclass(frozen=True)
class PartialAddress:
    zip_code: str | None
    state: str | None
    city: str | None
    street_number: str | None
    street: str | None
    neighborhood: str | None


@dataclass(frozen=True)
class HostedCheckout:
    out_trade_no: str
    method: str | None
    channel: str | None
    order_currency: str
    order_amount: Decimal
    subject: str
    content: str | None
    notify_url: str
    return_url: str | None
    buyer_id: str
    timeout_express: str | None
    cancellation_express: str | None
    regions: list[str] | None
    customer: PartialCustomer | None
    address: PartialAddress | None
