"""Sandbox route (CHECKOUT_SANDBOX on only): a customer's bank transfers to a virtual SPEI account's CLABE."""

from __future__ import annotations

from flask import Blueprint

from .. import money
from ..api.operation import operation
from ..db import db
from ..merchants.models import Merchant
from ..virtualspei import transfers
from .schemas import TransferRequest, TransferResponse

bp = Blueprint("clabes", __name__)


@operation(
    bp,
    "/clabes/<clabe>/transfer",
    TransferRequest,
    tag="sandbox",
    summary="A customer's bank transfers an amount (MXN) to one of the merchant's virtual SPEI CLABEs",
    response=TransferResponse,
)
def transfer_to_clabe(merchant: Merchant, req: TransferRequest, clabe: str):
    trade, account = transfers.receive(db.session, merchant, clabe, req.amount)
    return TransferResponse(
        trade_no=trade.trade_no,
        out_trade_no=trade.out_trade_no,
        trade_status=trade.status,
        amount=money.format_minor(trade.amount_minor, trade.currency),
        currency=trade.currency,
        account_id=account.account_id,
        account_number=account.account_number,
    ).model_dump()
