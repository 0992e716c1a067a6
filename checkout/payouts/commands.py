"""What the payout services take: plain typed inputs, validated by the API's models or the payout page's form."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal


@dataclass(frozen=True)
class Quotation:
    """A dry run's question: what would this payout cost and deliver."""

    source_currency: str
    arrival_currency: str
    amount: Decimal
    amount_type: str
    fee_bear: str
    method: str
    channel: str | None
    country: str


@dataclass(frozen=True)
class NewPayout(Quotation):
    """A payout to create: its pricing and its beneficiary (only the fields the method needs are set)."""

    custom_code: str
    name: str | None
    notify_url: str | None
    additional_remark: str | None
    phone: str | None = None
    email: str | None = None
    account: str | None = None
    account_type: str | None = None
    document_id: str | None = None
    document_type: str | None = None
    bank_code: str | None = None
    branch: str | None = None
    account_digit: str | None = None
    region: str | None = None  # Peru's bank transfers


@dataclass(frozen=True)
class NewCheckoutSession:
    user_id: str
    custom_code: str
    fee_bear: str
    source_currency: str
    payout_currency: str
    payout_amount: Decimal
    timeout: int
    notify_url: str
    return_url: str
    additional_remark: str
    country: str | None
    method: str | None


@dataclass(frozen=True)
class PayoutPage:
    """Which payouts a list request asks for: created from `start_time` to `end_time` (UTC), one page."""

    start_time: datetime
    end_time: datetime
    page_num: int
    page_size: int
