"""Payout platform routes: dry run, payout, status, detail, list, checkout sessions, balance and its history."""

from __future__ import annotations

from flask import Blueprint, current_app

from .. import clock, links, wiring
from ..api.operation import PAYOUT, check_fresh, operation
from ..db import db
from ..errors import MissingField
from ..merchants.models import Merchant
from . import balances, service, sessions
from .schemas import (
    BalanceHistoryRequest,
    BalanceHistoryResponse,
    BalanceRequest,
    BalanceResponse,
    CheckoutRequest,
    CheckoutResponse,
    DetailRequest,
    DetailResponse,
    DryRunRequest,
    PayoutListRequest,
    PayoutListResponse,
    PayoutRequest,
    PayoutResponse,
    QuoteResponse,
    StatusRequest,
    StatusResponse,
)

bp = Blueprint("payouts", __name__, url_prefix="/api")

# Signed requests older or newer than this (wall clock) are refused; the detail operation allows 15 s.
FRESHNESS_WINDOW = 300
DETAIL_WINDOW = 15


def _pricing(merchant: Merchant) -> dict:
    return {"mid_rates": current_app.config["PAYOUT_MID_RATES"], "markup_bps": merchant.fx_markup_bps}


@operation(
    bp,
    "/payout/dry-run",
    DryRunRequest,
    read_only=True,
    summary="Quote a payout: fee, tax, rate and amounts",
    envelope=PAYOUT,
    response=QuoteResponse,
)
def dry_run(merchant: Merchant, req: DryRunRequest):
    check_fresh(req.timestamp, FRESHNESS_WINDOW)
    return service.quote(req, **_pricing(merchant)).as_strings()


@operation(
    bp,
    "/payout",
    PayoutRequest,
    summary="Submit a payout (debits the source balance)",
    envelope=PAYOUT,
    response=PayoutResponse,
)
def submit(merchant: Merchant, req: PayoutRequest):
    if req.timestamp is not None:
        check_fresh(req.timestamp, FRESHNESS_WINDOW)
    payout, figures = service.submit(
        db.session,
        merchant,
        req,
        **_pricing(merchant),
        bank=wiring.payout_bank(),
    )
    return {
        "id": payout.transaction_id,
        "transaction_id": payout.transaction_id,
        "custom_code": payout.custom_code,
        "status": payout.status,
        **figures.as_strings(),
    }


@operation(
    bp,
    "/payout/status",
    StatusRequest,
    read_only=True,
    summary="A payout's status, by payout_id or custom_code",
    envelope=PAYOUT,
    response=StatusResponse,
)
def status(merchant: Merchant, req: StatusRequest):
    if not req.payout_id and not req.custom_code:
        raise MissingField(
            "custom_code or payout_id", message="custom_code or payout_id required", reason="payout-reference-missing"
        )
    payout = service.find(db.session, merchant, transaction_id=req.payout_id, custom_code=req.custom_code)
    return service.status(payout)


@operation(
    bp,
    "/payout/detail",
    DetailRequest,
    read_only=True,
    summary="A payout's detail record",
    envelope=PAYOUT,
    response=DetailResponse,
)
def detail(merchant: Merchant, req: DetailRequest):
    check_fresh(req.timestamp, DETAIL_WINDOW, expired=True)
    return service.detail(service.find(db.session, merchant, transaction_id=req.transaction_id))


@operation(
    bp,
    "/payout/list",
    PayoutListRequest,
    read_only=True,
    summary="The payouts created in a period of at most 31 days, one page of them",
    envelope=PAYOUT,
    response=PayoutListResponse,
)
def payout_list(merchant: Merchant, req: PayoutListRequest):
    # The list page answers an old request with 4001009, as the detail operation does.
    check_fresh(req.timestamp, FRESHNESS_WINDOW, expired=True)
    return [service.detail(payout) for payout in service.page(db.session, merchant, req)]


@operation(
    bp,
    "/checkout",
    CheckoutRequest,
    summary="Open a hosted payout checkout session",
    envelope=PAYOUT,
    response=CheckoutResponse,
)
def checkout(merchant: Merchant, req: CheckoutRequest):
    if req.timestamp is not None:
        check_fresh(req.timestamp, FRESHNESS_WINDOW)
    record = sessions.create(
        db.session,
        merchant,
        req,
        **_pricing(merchant),
        sandbox=current_app.config["SANDBOX"],
    )
    return {
        "checkout_url": sessions.checkout_url(record, links.current()),
        "expire_time": clock.unix(record.expires_at),
    }


@operation(
    bp,
    "/balance/history",
    BalanceHistoryRequest,
    read_only=True,
    summary="End-of-day balances per currency",
    envelope=PAYOUT,
    response=BalanceHistoryResponse,
)
def balance_history(merchant: Merchant, req: BalanceHistoryRequest):
    check_fresh(req.timestamp, FRESHNESS_WINDOW)
    return balances.history(db.session, merchant, req.start_date, req.end_date)


@operation(
    bp,
    "/balance",
    BalanceRequest,
    read_only=True,
    summary="The available balance per currency",
    envelope=PAYOUT,
    response=BalanceResponse,
)
def balance(merchant: Merchant, req: BalanceRequest):
    check_fresh(req.timestamp, FRESHNESS_WINDOW)
    return balances.current(db.session, merchant)
