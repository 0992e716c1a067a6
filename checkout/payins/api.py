"""Payin gateway routes: tokenization, pre-authorization, payments, refunds, queries, bank list."""

from __future__ import annotations

from flask import Blueprint, current_app

from .. import links, money, wiring
from ..api.operation import operation
from ..cards.service import CardInput
from ..db import db
from ..merchants.models import Merchant
from . import authorizations, checkout, methods, queries, refunds, service
from .methods import catalog
from .requests import (
    BankListRequest,
    CaptureRequest,
    CardSessionRequest,
    CardTokenRequest,
    DirectPayRequest,
    HostedCheckoutRequest,
    PreAuthorizationRequest,
    QueryRequest,
    RefundRequest,
    VaultPayRequest,
    VoidRequest,
)
from .responses import (
    AuthorizationResponse,
    BankListResponse,
    CardSessionResponse,
    CardTokenResponse,
    CreateResponse,
    PayResponse,
    PreAuthorizationResponse,
    QueryResponse,
    RefundResponse,
)

bp = Blueprint("payins", __name__)


@operation(bp, "/card/token", CardTokenRequest, summary="Tokenize a card (sandbox)", response=CardTokenResponse)
def card_token(merchant: Merchant, req: CardTokenRequest):
    card = req.card
    typed = CardInput(card.card_no, card.cvv, card.valid_thru_year, card.valid_thru_month, card.holder.name)
    token = wiring.tokenizer().tokenize(db.session, merchant, typed)
    return CardTokenResponse(
        token=token.token, first_six_digits=token.first_six, last_four_digits=token.last_four, brand=token.brand
    ).model_dump()


@operation(
    bp,
    "/card/session",
    CardSessionRequest,
    summary="Open a hosted card-entry page (iframe)",
    response=CardSessionResponse,
)
def card_session(merchant: Merchant, req: CardSessionRequest):
    return CardSessionResponse(card_url=links.current().card_entry_page(merchant.id, req.country)).model_dump()


@operation(
    bp,
    "/trade/pre-authorization",
    PreAuthorizationRequest,
    summary="Create a card pre-authorization with 3-D Secure data",
    response=PreAuthorizationResponse,
)
def pre_authorization(merchant: Merchant, req: PreAuthorizationRequest):
    trade = service.pre_authorize(db.session, merchant, req, wiring.acquirer())
    answer = PreAuthorizationResponse(
        out_trade_no=trade.out_trade_no, trade_no=trade.trade_no, prepay_id=trade.prepay_id, web_url=""
    )
    return answer.model_dump()


def _authorization_answer(trade, amount_minor: int) -> dict:
    return AuthorizationResponse(
        trade_no=trade.trade_no,
        out_trade_no=trade.out_trade_no,
        trade_status=trade.status,
        amount=money.format_minor(amount_minor, trade.currency),
        currency=trade.currency,
    ).model_dump()


@operation(
    bp,
    "/trade/capture",
    CaptureRequest,
    summary="Capture all or part of a pre-authorization",
    response=AuthorizationResponse,
)
def capture(merchant: Merchant, req: CaptureRequest):
    trade = authorizations.capture(db.session, merchant, req, wiring.acquirer())
    return _authorization_answer(trade, trade.amount_minor)


@operation(bp, "/trade/void", VoidRequest, summary="Void a pre-authorization", response=AuthorizationResponse)
def void(merchant: Merchant, req: VoidRequest):
    trade = authorizations.void(db.session, merchant, req, wiring.acquirer())
    return _authorization_answer(trade, trade.amount_minor)


def _pay_model(body: dict):
    return VaultPayRequest if "vault_token" in body else DirectPayRequest


def _pay(merchant: Merchant, req):
    if isinstance(req, VaultPayRequest):
        trade = service.pay_with_vault(db.session, merchant, req)
        fields = {"prepay_id": trade.prepay_id}
    else:
        trade, fields = service.pay_direct(
            db.session,
            merchant,
            req,
            links.current(),
            methods.collector(current_app.config),
            current_app.config["SANDBOX"],
        )
    return {"trade_no": trade.trade_no, "out_trade_no": trade.out_trade_no, "trade_status": trade.status, **fields}


@operation(
    bp,
    "/trade/pay",
    DirectPayRequest,
    choose=_pay_model,
    alternatives=(VaultPayRequest, DirectPayRequest),
    summary="Pay with a vault (vault_token present) or make a direct payment",
    response=PayResponse,
    finish=methods.answer,  # the QR image, drawn once the trade is stored and its lock let go
)
def pay(merchant: Merchant, req):
    answer = _pay(merchant, req)
    if isinstance(req, DirectPayRequest):
        # The provider's direct payments answer web_url, empty but for the methods whose page it is.
        answer.setdefault("web_url", "")
    return answer


def _create_model(body: dict):
    """The provider's checkout page sends trade_type (WEB, or API for a merchant that opens the page by
    prepay_id), and may leave method out; the interface's direct payment sample posts here with a method
    and no trade_type."""
    hosted = "trade_type" in body or not body.get("method")
    return HostedCheckoutRequest if hosted else DirectPayRequest


@operation(
    bp,
    "/trade/create",
    HostedCheckoutRequest,
    choose=_create_model,
    alternatives=(HostedCheckoutRequest, DirectPayRequest),
    summary="Hosted checkout (trade_type WEB or API), or a direct payment as on /trade/pay",
    response=CreateResponse,
    finish=methods.answer,
)
def create(merchant: Merchant, req):
    if isinstance(req, DirectPayRequest):
        answer = _pay(merchant, req)
        # /trade/pay answers "" where the provider's method pages do; here web_url is always the page.
        answer["web_url"] = answer.get("web_url") or links.current().pay_page(answer["trade_no"])
        return answer
    trade = checkout.create(db.session, merchant, req, current_app.config["SANDBOX"])
    return {
        "trade_no": trade.trade_no,
        "out_trade_no": trade.out_trade_no,
        "trade_status": trade.status,
        "prepay_id": trade.prepay_id,
        # "WEB will return a checkout URL"; with API, as the provider's API-type answers, web_url is empty
        # and the merchant opens the page by prepay_id.
        "web_url": links.current().checkout_page(trade.trade_no) if req.trade_type == "WEB" else "",
    }


@operation(bp, "/trade/refund", RefundRequest, summary="Refund all or part of a paid trade", response=RefundResponse)
def refund(merchant: Merchant, req: RefundRequest):
    trade, record = refunds.refund(db.session, merchant, req)
    # The provider's fields in its example's order, then ours.
    return RefundResponse(
        out_trade_no=trade.out_trade_no,
        trade_no=trade.trade_no,
        refund_currency=record.currency,
        refund_amount=money.format_minor(record.amount_minor, record.currency),
        refund_status=record.status,
        refund_no=record.refund_no,
        out_request_no=record.out_request_no,
    ).model_dump()


@operation(
    bp,
    "/trade/query",
    QueryRequest,
    read_only=True,
    one_statement=True,
    summary="A trade with its status history and refunds",
    response=QueryResponse,
)
def query(merchant: Merchant, req: QueryRequest):
    return queries.describe(queries.read(db.session, merchant, trade_no=req.trade_no, out_trade_no=req.out_trade_no))


@operation(
    bp,
    "/trade/bank-list",
    BankListRequest,
    read_only=True,
    summary="Banks accepted by a method",
    response=BankListResponse,
)
def bank_list(merchant: Merchant, req: BankListRequest):
    return BankListResponse.model_validate(catalog.listing(req.method)).model_dump(exclude_none=True)
