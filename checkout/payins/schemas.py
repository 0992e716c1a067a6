"""Request and response models of the payin operations: every field rule of the interface, declared once."""

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
    REQUEST_CONFIG,
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
    PayinRequest,
    Text,
    is_digits,
)

# --- card tokenization ---------------------------------------------------------------------------


class Holder(BaseModel):
    model_config = REQUEST_CONFIG
    name: Annotated[str, Text(128)]


class Card(BaseModel):
    model_config = REQUEST_CONFIG
    card_no: Annotated[str, Text(19)]
    cvv: Annotated[str, Text(4)]
    valid_thru_year: Annotated[str | StrictInt, Field(description="4 digits (2 accepted)")]
    valid_thru_month: Annotated[str | StrictInt, Field(description="1 to 12")]
    holder: Holder


class CardTokenRequest(PayinRequest):
    card: Card


class CardSessionRequest(PayinRequest):
    """Extension: a hosted card-entry page for merchants that must not see card numbers."""

    country: Alpha3 | None = None  # picks the page's language (BRA, MEX) when the browser's is not wanted


# --- pre-authorization ---------------------------------------------------------------------------


class ThreeDS(BaseModel):
    model_config = REQUEST_CONFIG
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


class PreAuthorizationRequest(PayinRequest):
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


class VaultPayRequest(PayinRequest):
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
    model_config = REQUEST_CONFIG
    number: Annotated[str, Text(32)]
    type: Annotated[str, Text(16)]


class Customer(BaseModel):
    model_config = REQUEST_CONFIG
    name: Annotated[str, Text(128)]
    email: Annotated[str, Email(128)]
    phone: Annotated[str, Text(32)]
    identify: Identify


class Address(BaseModel):
    model_config = REQUEST_CONFIG
    zip_code: Annotated[str, Text(16)]
    state: Annotated[str, Text(64)]
    city: Annotated[str, Text(64)]
    street_number: Annotated[str, Text(16)]
    street: Annotated[str, Text(128)]
    neighborhood: Annotated[str | None, OptText(64)] = None


class DirectPayRequest(PayinRequest):
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
    account_number: Annotated[str | None, OptText(22)] = Field(
        None, description="Wallet Todito: 10 to 18 digits; the payer's bank account on the pages that ask for it"
    )
    account_type: Annotated[str | None, OptText(16)] = Field(
        None, description="the payer's account type where the page asks for it (C, S, CHECKING, SAVINGS)"
    )
    account_verification_code: Annotated[str | None, OptText(4)] = Field(None, description="Wallet Todito: 4 digits")


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
    model_config = REQUEST_CONFIG
    number: Annotated[str | None, OptText(32)] = None
    type: Annotated[str | None, OptText(16)] = None


class PartialCustomer(BaseModel):
    """Every field optional: what is given is pre-filled on the page (the provider's checkout page). Its
    e-commerce page's example spells `identification` and `postal_code`: both spellings are read."""

    model_config = REQUEST_CONFIG
    name: Annotated[str | None, OptText(128)] = None
    email: Annotated[str | None, OptEmail(128)] = None
    phone: Annotated[str | None, OptText(32)] = None
    identify: Annotated[PartialIdentify | None, Field(validation_alias=AliasChoices("identify", "identification"))] = (
        None
    )


class PartialAddress(BaseModel):
    model_config = REQUEST_CONFIG
    zip_code: Annotated[str | None, OptText(16), Field(validation_alias=AliasChoices("zip_code", "postal_code"))] = None
    state: Annotated[str | None, OptText(64)] = None
    city: Annotated[str | None, OptText(64)] = None
    street_number: Annotated[str | None, OptText(16)] = None
    street: Annotated[str | None, OptText(128)] = None
    neighborhood: Annotated[str | None, OptText(64)] = None


class HostedCheckoutRequest(PayinRequest):
    """The provider's "checkout page (general)" request, with trade_type WEB or API."""

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


# --- refunds and queries ---------------------------------------------------------------------------


class RefundIdentify(BaseModel):
    model_config = REQUEST_CONFIG
    number: Annotated[str | None, OptText(16)] = None
    type: Annotated[str | None, OptText(16)] = None


class UserInfo(BaseModel):
    model_config = REQUEST_CONFIG
    identify: RefundIdentify | None = None
    name: Annotated[str | None, OptText(64)] = None
    email: Annotated[str | None, OptEmail(64)] = None
    phone: Annotated[str | None, OptText(64)] = None


class BankInfo(BaseModel):
    model_config = REQUEST_CONFIG
    bank_id: Annotated[str | None, OptText(64)] = None
    bank_name: Annotated[str | None, OptText(64)] = None
    agency: Annotated[str | None, OptText(64)] = None
    type: Annotated[str | None, OptText(64)] = None
    number: Annotated[str | None, OptText(64)] = None
    account: Annotated[str | None, OptText(64)] = None  # ours, before the provider's `number` was read


class RefundRequest(PayinRequest):
    trade_no: Annotated[str | None, OptText(64)] = None
    out_trade_no: Annotated[str | None, OptText(64)] = None
    out_request_no: Annotated[str | None, OptText(16)] = None
    refund_currency: Currency
    refund_amount: Annotated[Decimal, Amount("0.01", "99999999999999.99", places=None)]
    refund_reason: Annotated[str | None, OptText(128)] = None
    user_info: UserInfo | None = None
    bank_info: BankInfo | None = None


class CaptureRequest(PayinRequest):
    out_trade_no: Annotated[str, Text(64)]
    amount: Annotated[Decimal, Amount("0.01", "99999999.99", places=None)]
    currency: AnyCaseCurrency
    version: Annotated[str, Fixed("2.0")] | None = None


class VoidRequest(PayinRequest):
    out_trade_no: Annotated[str, Text(64)]
    version: Annotated[str, Fixed("2.0")] | None = None


class QueryRequest(PayinRequest):
    trade_no: Annotated[str | None, OptText(64)] = None
    out_trade_no: Annotated[str | None, OptText(64)] = None


class BankListRequest(PayinRequest):
    method: Literal["DepositExpress", "Cash", "BankTransfer", "Khipu", "OpenFinance"]


# --- responses -------------------------------------------------------------------------------------
# The success fields each operation answers beside code and msg (what /openapi.json documents). The
# views still build plain dicts; tests/api/test_responses.py holds them to these models.


class CardTokenResponse(BaseModel):
    token: str
    first_six_digits: str
    last_four_digits: str
    brand: str


class CardSessionResponse(BaseModel):
    card_url: str


class PreAuthorizationResponse(BaseModel):
    out_trade_no: str
    trade_no: str
    prepay_id: str
    web_url: str = Field(description="always empty: the card was authenticated beforehand")


class MethodFields(BaseModel):
    """What a direct payment's method hands the merchant to pass on to the customer (the provider's names)."""

    web_url: str | None = Field(
        None, description="/trade/pay: empty, but for DepositExpress (its payment page, as its provider page answers)"
    )
    pay_url: str | None = Field(
        None,
        description="the payment page: PIX, Boleto, Lottery, DepositExpress, OpenFinance, Cash, BankTransfer, Khipu, "
        "SPEI, CoDi, OXXO, OXXOPay, PSE, Efecty, Bancolombia, SuRed, Gana, WebPay, Pago46, wallets ClaroPay, Chek, Tupay",
    )
    reference: str | None = Field(
        None,
        description="the number the payer gives to pay: Cash, BankTransfer (PEN), SPEI, CoDi, Efecty, Bancolombia, "
        "SuRed, Gana, wallet Tupay",
    )
    clabe: str | None = Field(None, description="SPEI: the 18-digit CLABE, this trade's own, to transfer to")
    partner_code: str | None = Field(None, description="Bancolombia, SuRed, Gana: the collector's code at the store")
    prepay_id: str | None = Field(None, description="where the method's page answers it (CoDi, OXXOPay, SuRed, ...)")
    qr_code: str | None = Field(
        None, description="PIX: the BR Code (copy and paste); CoDi: its message (JSON text); show either as a QR code"
    )
    qr_code_url: str | None = Field(None, description="PIX: address of the QR as a PNG image")
    qr_code_img: str | None = Field(
        None, description="PIX: the QR as a data:image/png;base64 URI (on /trade/pay and /trade/create only)"
    )
    barcode: str | None = Field(
        None,
        description="Boleto: the 44-digit bar code; Lottery: the 47-digit line, as the provider's page shows; "
        "OXXO, OXXOPay: 26 digits",
    )
    bank_code: str | None = Field(None, description="Boleto: the 47-digit linha digitável the payer types")
    bank_no: str | None = Field(None, description="Lottery: the number the payer gives at a lottery outlet")
    due_date: str | None = Field(
        None, description="Boleto: YYYY-MM-DD (ours); wallet Tupay: yyyy-MM-dd HH:mm:ss (UTC), when it expires"
    )
    provider_owner: str | None = Field(None, description="DepositExpress: the account holder")
    provider_owner_document: str | None = Field(None, description="DepositExpress: the holder's CNPJ")
    provider_agency: str | None = Field(None, description="DepositExpress: the branch")
    provider_number: str | None = Field(None, description="DepositExpress: the account number")
    bank_name: str | None = Field(None, description="DepositExpress: the bank; SPEI: the CLABE's bank")
    wallet_url: str | None = Field(None, description="Wallet: the wallet page")
    app_link_url: str | None = Field(None, description="Wallet: the app deep link")


class DirectPayResponse(MethodFields):
    trade_no: str
    out_trade_no: str
    trade_status: str


class PayResponse(DirectPayResponse):
    """A vault payment answers prepay_id; a direct payment its method's fields."""

    prepay_id: str | None = Field(
        None, description="payment with a vault; a direct payment where its method's page answers it"
    )


class RefundResponse(BaseModel):
    out_trade_no: str
    trade_no: str
    refund_currency: str
    refund_amount: str
    refund_status: str = Field(description="SUCCESS, or PROCESSING while the customer's bank data is awaited")
    refund_no: str = Field(description="ours: the refund's id")
    out_request_no: str | None = Field(description="ours: the merchant's id of the refund, echoed")


class CreateResponse(DirectPayResponse):
    """The hosted checkout answers prepay_id and web_url (INITIAL; web_url empty for trade_type API); a
    complete direct payment posted here answers as on /trade/pay, with web_url (its payment page) always present."""

    prepay_id: str | None = Field(
        None,
        description="hosted checkout (its page opens at `/?prepay_id=`); a direct payment where its method's page "
        "answers it",
    )


class AuthorizationResponse(BaseModel):
    """The provider answers code and msg only; the trade's numbers and new status follow, ours."""

    trade_no: str
    out_trade_no: str
    trade_status: str
    amount: str = Field(description="captured: the amount taken; voided: the amount released")
    currency: str


class StatusChange(BaseModel):
    from_status: str | None = Field(description="null for the first status")
    trade_status: str
    reason: str | None
    time: str


class TradeRefund(BaseModel):
    refund_no: str
    out_request_no: str | None
    refund_amount: str
    refund_currency: str
    refund_status: str
    create_time: str


class QueryIdentify(BaseModel):
    number: str
    type: str


class QueryCustomer(BaseModel):
    identify: QueryIdentify
    email: str
    phone: str
    name: str = Field(description="ours")


class QueryResponse(MethodFields):
    """The trade; a direct payment also answers its method's fields again."""

    trade_no: str
    out_trade_no: str
    prepay_id: str
    trade_status: str
    method: str
    order_amount: str
    order_currency: str
    refunded_amount: str
    refundable_amount: str
    subject: str
    buyer_id: str
    create_time: str = Field(description="yyyy-MM-dd HH:mm:ss, UTC")
    update_time: str = Field(description="yyyy-MM-dd HH:mm:ss, UTC")
    refuse_detail: str = Field(description="why a REFUSED trade was refused; empty otherwise")
    customer: QueryCustomer = Field(description="the payer; empty strings where unknown (cards, vaults)")
    status_history: list[StatusChange]
    refunds: list[TradeRefund]
    channel: str | None = None
    failure_reason: str | None = None
    scheduled_date: str | None = Field(None, description="PIXAutomatic: YYYY-MM-DD")
    authorized_amount: str | None = Field(None, description="a captured pre-authorization: the amount authorized")
    expire_time: str | None = None


class ListedBank(BaseModel):
    bank_id: str = Field(description="what a direct payment's `bank` takes")
    bank_name: str
    detail: str = Field(description="empty")
    country: str = Field(description="ours")
    currency: str = Field(description="ours: the order currency the bank takes")
    language_codes: list[str] = Field(description="ours: what a direct payment's `language_code` takes")
    min_amount: str | None = Field(None, description="Khipu: the smallest order this bank takes (ours)")


class BankListResponse(BaseModel):
    data: list[ListedBank]
    min_amount: str | None = Field(None, description="Khipu only: the smallest order its banks take")
    method: str = Field(description="ours: the method asked for")
