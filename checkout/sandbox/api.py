"""Sandbox routes (CHECKOUT_SANDBOX on only): clock control, customer payment, bank decisions."""
from __future__ import annotations

from flask import Blueprint

from .. import clock
from ..db import db
from ..gateway import invalid, operation
from ..merchants.models import Merchant
from ..payins import service as payins
from ..vaults import service as vaults
from .schemas import ClockAdvance

bp = Blueprint("sandbox", __name__, url_prefix="/sandbox")


def _clock() -> dict:
    return {"now": clock.unix(clock.now()), "offset_seconds": clock.offset_seconds()}


@operation(bp, "/clock", None, methods=("GET",), tag="sandbox", summary="Read the sandbox clock")
def read_clock(merchant: Merchant):
    return _clock()


@operation(bp, "/clock", ClockAdvance, tag="sandbox", summary="Move the sandbox clock forward")
def advance_clock(merchant: Merchant, req: ClockAdvance):
    try:
        clock.advance(req.advance_seconds)
    except ValueError as exc:
        raise invalid("advance_seconds", str(exc)) from None
    return _clock()


@operation(bp, "/trades/<trade_no>/pay", None, tag="sandbox",
           summary="The customer pays a PIX, Boleto, Lottery, DepositExpress, Wallet, Cash or bank transfer trade")
def pay_trade(merchant: Merchant, trade_no: str):
    trade = payins.sandbox_pay(db.session, merchant, trade_no)
    return {"trade_no": trade.trade_no, "out_trade_no": trade.out_trade_no, "trade_status": trade.status}


def _decide(merchant: Merchant, vault_token: str, approve: bool) -> dict:
    vault = vaults.decide(db.session, merchant, vault_token, approve)
    return {"token": vault.token, "type": vault.type, "vault_status": vault.status}


@operation(bp, "/vaults/<vault_token>/approve", None, tag="sandbox",
           summary="The payer's bank (pix) or the customer (Card) approves a pending vault")
def approve_vault(merchant: Merchant, vault_token: str):
    return _decide(merchant, vault_token, True)


@operation(bp, "/vaults/<vault_token>/reject", None, tag="sandbox",
           summary="The payer's bank (pix) or the customer (Card) rejects a pending vault")
def reject_vault(merchant: Merchant, vault_token: str):
    return _decide(merchant, vault_token, False)
