"""The payout commands (what the payout services take, every field rule declared once), and the request and
response models of the payout operations (responses: the envelope's `data`)."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, Field, RootModel, StrictInt, WithJsonSchema

from ..validation import COMMAND_CONFIG, REQUEST_CONFIG, Amount, HttpUrl, IsoDate, OptEmail, OptText, Text, Timestamp

# Amounts are numeric strings (JSON numbers are accepted too); decimals are checked per currency.
PayoutAmount = Annotated[Decimal, Amount("0.01", "99999999.99", places=2)]
UnixTime = Annotated[StrictInt, Field(ge=0, le=10**11)]


def _amount_type(value):
    # The provider's values; "source" and "arrival", this service's first spelling, still mean the same.
    if isinstance(value, str):
        return {"source_amount": "source", "arrival_amount": "arrival"}.get(value, value)
    return value


# Which side `amount` fixes: as the provider documents it, `arrival_amount` unless said otherwise.
AmountType = Annotated[
    Literal["source", "arrival"],
    BeforeValidator(_amount_type),
    WithJsonSchema({"type": "string", "enum": ["source_amount", "arrival_amount"], "default": "arrival_amount"}),
]


def _utc(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)


# The list page's times: yyyy-MM-dd HH:mm:ss, in UTC.
# Checked (and documented) as the timestamp text it arrives as, then read as the UTC time it names.
if TYPE_CHECKING:
    UtcTime = datetime
else:
    UtcTime = Annotated[Timestamp, AfterValidator(_utc)]


# Values are matched in any case, as the provider's pages write them ("BankTransfer", "PayPal", "Email",
# "clabe"), and kept in upper case.
Upper = AfterValidator(str.upper)
Method = Annotated[str, Text(16), Upper]
OptUpper = Annotated[str | None, OptText(32), AfterValidator(lambda v: v if v is None else v.upper())]


# What a payout can deliver: each corridor's arrival currency (corridors).
ArrivalCurrency = Literal["BRL", "MXN", "USD", "COP", "CLP", "ARS", "PEN", "GTQ", "UYU", "RUB", "TRY"]


class Request(BaseModel):
    model_config = REQUEST_CONFIG


# --- commands: a request is its command (first), then its signed timestamp ----------------------------


class Quotation(BaseModel):
    """A dry run's question: what would this payout cost and deliver."""

    model_config = COMMAND_CONFIG
    source_currency: Literal["USD", "GBP", "EUR"]
    arrival_currency: ArrivalCurrency
    amount: PayoutAmount
    amount_type: AmountType = "arrival"
    fee_bear: Literal["beneficiary", "merchant"]
    method: Method
    channel: OptUpper = None
    country: Annotated[str, Text(8)]


class NewPayout(BaseModel):
    """A payout to create: its pricing and its beneficiary (only the fields the method needs are set)."""

    model_config = COMMAND_CONFIG
    name: Annotated[str | None, OptText(128)] = None  # required for every method but WALLET (corridors)
    phone: Annotated[str | None, OptText(32)] = None
    email: Annotated[str | None, OptEmail(128)] = None
    account: Annotated[str | None, OptText(512)] = None
    account_type: Annotated[str | None, OptText(16), AfterValidator(lambda v: v if v is None else v.upper())] = None
    document_id: Annotated[str | None, OptText(32)] = None
    document_type: Annotated[str | None, OptText(8)] = None
    bank_code: Annotated[str | None, OptText(16)] = None
    branch: Annotated[str | None, OptText(16)] = None
    account_digit: Annotated[str | None, OptText(4)] = None
    region: Annotated[str | None, OptText(32)] = None  # Peru's bank transfers: the beneficiary's region
    method: Method
    channel: OptUpper = None
    custom_code: Annotated[str, Text(64)]
    fee_bear: Literal["beneficiary", "merchant"]
    amount: PayoutAmount
    amount_type: AmountType = "arrival"
    source_currency: Literal["USD", "GBP", "EUR", "BRL", "MXN", "CLP", "COP", "ARS", "PEN", "TRY"]
    arrival_currency: ArrivalCurrency
    notify_url: HttpUrl | None = None
    additional_remark: Annotated[str | None, OptText(39)] = None
    country: Annotated[str, Text(8)]


class NewCheckoutSession(BaseModel):
    model_config = COMMAND_CONFIG
    user_id: Annotated[str, Text(64)]
    custom_code: Annotated[str, Text(64)]
    fee_bear: Literal["beneficiary", "merchant"]
    source_currency: Literal["USD", "EUR", "GBP", "BRL", "MXN"]
    payout_currency: Literal["USD", "BRL", "MXN"]
    payout_amount: PayoutAmount
    timeout: Annotated[StrictInt, Field(ge=60, le=1800)] = 1800
    notify_url: HttpUrl
    return_url: HttpUrl
    additional_remark: Annotated[str, Text(39)]
    country: Literal["BRA", "MEX", "GLOBAL"] | None = None
    method: Annotated[str | None, OptText(16)] = None


class PayoutPage(BaseModel):
    """Which payouts a list request asks for: created from `start_time` to `end_time` (UTC), one page."""

    model_config = COMMAND_CONFIG
    start_time: UtcTime
    end_time: UtcTime
    page_num: Annotated[StrictInt, Field(ge=1, le=10**9, description="the first page is 1")]
    page_size: Annotated[StrictInt, Field(ge=1, le=1000, description="rows per page, at most 1000")]


# --- requests --------------------------------------------------------------------------------------


class DryRunRequest(Quotation, Request):
    timestamp: UnixTime


class PayoutRequest(NewPayout, Request):
    timestamp: UnixTime | None = None


class StatusRequest(Request):
    payout_id: Annotated[str | None, OptText(32)] = None
    custom_code: Annotated[str | None, OptText(64)] = None


class DetailRequest(Request):
    transaction_id: Annotated[str, Text(32)]
    timestamp: UnixTime


class CheckoutRequest(NewCheckoutSession, Request):
    timestamp: UnixTime | None = None


class BalanceHistoryRequest(Request):
    start_date: IsoDate
    end_date: IsoDate
    timestamp: UnixTime


class PayoutListRequest(PayoutPage, Request):
    timestamp: UnixTime


class BalanceRequest(Request):
    timestamp: UnixTime


# --- responses -------------------------------------------------------------------------------------


class QuoteResponse(BaseModel):
    """Every figure as a string in its currency's minor unit."""

    fee: str
    tax: str
    amount: str
    settlement_amount: str
    arrival_currency: str
    arrival_amount: str
    source_currency: str
    source_amount: str
    exchange_rate: str


class PayoutResponse(QuoteResponse):
    id: str = Field(description="the payout's id, as the provider answers it (the same as transaction_id)")
    transaction_id: str
    custom_code: str
    status: str


class StatusResponse(BaseModel):
    payout_id: str
    custom_code: str
    status: str
    description: str


class PayoutExtra(BaseModel):
    """What the beneficiary needs to collect the money, by method."""

    pin: str | None = Field(None, description="CASHOUT")
    valid_days: int | None = Field(None, description="CASHOUT")
    upt_ref: str | None = Field(None, description="CASH")
    voucher: str | None = Field(None, description="CASHPICKUP")


class DetailResponse(BaseModel):
    """Optional fields are omitted when empty."""

    reference_id: str
    transaction_id: str
    user_name: str | None = None
    bank_id: str | None = None
    bank_number: str | None = None
    bank_name: str | None = None
    payer_bank_code: str | None = None
    amount: str
    source_amount: str
    settlement_amount: str
    source_currency: str
    arrival_amount: str
    arrival_currency: str
    exchange_rate: str
    tax: str
    fee: str
    fee_user: str
    transaction_status: str
    remark: str | None = None
    create_time: int
    update_time: int
    extra: PayoutExtra


class CheckoutResponse(BaseModel):
    checkout_url: str
    expire_time: int = Field(description="unix seconds")


class CurrencyBalance(BaseModel):
    currency: str
    amount: str


class BalanceDay(BaseModel):
    merchant_id: str
    current_day: str
    balance: list[CurrencyBalance]


class BalanceHistoryResponse(RootModel[list[BalanceDay]]):
    """One record per day, newest first."""


class PayoutListResponse(RootModel[list[DetailResponse]]):
    """The payouts created in the period, oldest first, one page of them; each as the detail record."""


class BalanceResponse(RootModel[list[CurrencyBalance]]):
    """The available balance per currency: USD, GBP, EUR, BRL, MXN always, then any other held."""
