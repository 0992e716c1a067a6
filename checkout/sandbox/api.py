"""Sandbox routes (CHECKOUT_SANDBOX on only): clock control, customer payment, bank decisions."""

from __future__ import annotations

from flask import Blueprint, request

from .. import clock, money, wiring
from ..api.operation import operation
from ..db import db
from ..errors import IllegalState, InvalidField, NotFound
from ..merchants.models import Merchant
from ..notifications import inspect, outbox
from ..payins import service as payins
from ..payouts import lifecycle
from ..payouts import service as payouts
from ..vaults import service as vaults
from . import clabes, clocks, inbox, listen
from .schemas import (
    ClockAdvance,
    ClockResponse,
    Delivery,
    DeliveryList,
    PaidTrade,
    PayoutRefund,
    PayoutRefunded,
    VaultDecision,
)

bp = Blueprint("sandbox", __name__, url_prefix="/sandbox")
bp.register_blueprint(clabes.bp)  # its routes are /sandbox/clabes/...
bp.register_blueprint(listen.bp)  # /sandbox/notifications/stream...
bp.register_blueprint(inbox.bp)  # /sandbox/inbox/<app_id>


def _clock() -> dict:
    """The calling merchant's clock: the shared offset plus its own."""
    return {"now": clock.unix(clock.now()), "offset_seconds": clock.offset_seconds()}


@operation(
    bp,
    "/clock",
    None,
    methods=("GET",),
    tag="sandbox",
    summary="Read the calling merchant's sandbox clock",
    response=ClockResponse,
)
def read_clock(merchant: Merchant):
    return _clock()


@operation(
    bp,
    "/clock",
    ClockAdvance,
    tag="sandbox",
    summary="Move the calling merchant's sandbox clock forward",
    response=ClockResponse,
)
def advance_clock(merchant: Merchant, req: ClockAdvance):
    """Moves the calling merchant's own clock only (the operation layer made it the request's clock)."""
    try:
        clocks.advance_merchant(db.session, merchant.id, req.advance_seconds, bank=wiring.payout_bank())
    except ValueError as exc:
        raise InvalidField("advance_seconds", str(exc)) from None
    return _clock()


@operation(
    bp,
    "/trades/<trade_no>/pay",
    None,
    tag="sandbox",
    summary="The customer pays a trade of a method paid by hand (every direct-payment method but CreditCard)",
    response=PaidTrade,
)
def pay_trade(merchant: Merchant, trade_no: str):
    trade = payins.sandbox_pay(db.session, merchant, trade_no)
    return {"trade_no": trade.trade_no, "out_trade_no": trade.out_trade_no, "trade_status": trade.status}


def _decide(merchant: Merchant, vault_token: str, approve: bool) -> dict:
    vault = vaults.decide(db.session, merchant, vault_token, approve)
    return {"token": vault.token, "type": vault.type, "vault_status": vault.status}


@operation(
    bp,
    "/vaults/<vault_token>/approve",
    None,
    tag="sandbox",
    summary="The payer's bank (pix) or the customer (Card) approves a pending vault",
    response=VaultDecision,
)
def approve_vault(merchant: Merchant, vault_token: str):
    return _decide(merchant, vault_token, True)


@operation(
    bp,
    "/vaults/<vault_token>/reject",
    None,
    tag="sandbox",
    summary="The payer's bank (pix) or the customer (Card) rejects a pending vault",
    response=VaultDecision,
)
def reject_vault(merchant: Merchant, vault_token: str):
    return _decide(merchant, vault_token, False)


@operation(
    bp,
    "/payouts/<transaction_id>/refund",
    PayoutRefund,
    tag="sandbox",
    body_optional=True,
    summary="The recipient's bank refunds a PAID payout, in full (no amount) or in part",
    response=PayoutRefunded,
)
def refund_payout(merchant: Merchant, req: PayoutRefund, transaction_id: str):
    payout = payouts.find_or_none(db.session, merchant, transaction_id)
    if payout is None:
        raise NotFound(reason="payout-not-exist", message="payout does not exist")
    record = lifecycle.refund(db.session, merchant, payout, req.amount, wiring.payout_bank())
    return {
        "transaction_id": payout.transaction_id,
        "status": payout.status,
        "refunded_id": record.refunded_id,
        "refunded_amount": money.format_minor(record.arrival_minor, payout.arrival_currency),
        "currency": payout.arrival_currency,
    }


@operation(
    bp,
    "/deliveries",
    None,
    methods=("GET",),
    tag="sandbox",
    summary="The merchant's notifications and their attempts (?status=pending|delivered|failed|skipped)",
    query={"status": {"type": "string", "enum": [*inspect.STATUSES, ""], "description": "empty: all"}},
    response=DeliveryList,
)
def list_deliveries(merchant: Merchant):
    status = request.args.get("status") or None
    if status is not None and status not in inspect.STATUSES:
        raise InvalidField("status", f"must be one of {', '.join(inspect.STATUSES)}")
    return {"deliveries": [inspect.describe(m) for m in inspect.listing(db.session, merchant.id, status)]}


@operation(
    bp,
    "/deliveries/<delivery_id>/resend",
    None,
    tag="sandbox",
    summary="Queue one notification to be sent again by the worker's next round",
    response=Delivery,
)
def resend_delivery(merchant: Merchant, delivery_id: str):
    message = inspect.find(db.session, merchant.id, delivery_id)
    if message is None:
        raise NotFound(reason="delivery-not-exist", message="no such delivery")
    queued = outbox.request_resend(db.session, message.id)  # nothing is sent in the request
    if queued is None:
        raise IllegalState(
            reason="delivery-busy", message="a worker is sending this delivery right now; try again shortly"
        )
    return inspect.describe(queued)
