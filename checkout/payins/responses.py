"""Response models of the payin operations: the success fields each answers beside code and msg.

The simple answers are built from these models. `/trade/pay`, `/trade/create` and `/trade/query` are still
built as dictionaries: the method's own fields join them in the provider's order for that method, which is no
one model's order; tests/api/test_responses.py holds those answers to these models."""

from __future__ import annotations

from pydantic import BaseModel, Field


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
