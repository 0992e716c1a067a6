"""Virtual SPEI routes: /virtual-account/spei/create, /query, /usage and /cancel (payin envelope)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app

from .. import links
from ..api.operation import operation
from ..db import db
from ..merchants.models import Merchant
from ..validation import command
from . import service
from .commands import NewAccount
from .models import VirtualAccount
from .schemas import AccountRequest, AccountResponse, CreateRequest, UsageRequest, UsageResponse

bp = Blueprint("virtualspei", __name__, url_prefix="/virtual-account/spei")


def _answer(account: VirtualAccount) -> dict[str, Any]:
    body = service.describe(account)
    if current_app.config["SANDBOX"] and account.status == service.ACTIVE:
        body["transfer_url"] = service.transfer_url(links.current(), account)
    return body


@operation(
    bp,
    "/create",
    CreateRequest,
    summary="Open a virtual SPEI account: a standing CLABE for one customer",
    response=AccountResponse,
)
def create(merchant: Merchant, req: CreateRequest):
    account = service.open_account(db.session, merchant, command(req, NewAccount), current_app.config["COLLECTOR_NAME"])
    return _answer(account)


@operation(
    bp,
    "/query",
    AccountRequest,
    read_only=True,
    one_statement=True,
    summary="A virtual SPEI account",
    response=AccountResponse,
)
def query(merchant: Merchant, req: AccountRequest):
    return _answer(service.find(db.session, merchant, req.account_id))


@operation(
    bp,
    "/usage",
    UsageRequest,
    read_only=True,
    summary="The pool of virtual SPEI accounts used, and the transfers received",
    response=UsageResponse,
)
def usage(merchant: Merchant, req: UsageRequest):
    used = service.usage(db.session, merchant, req.account_id)
    return {"used": used.used, "unused": used.unused, "transfers": used.transfers}


@operation(
    bp,
    "/cancel",
    AccountRequest,
    summary="Cancel a virtual SPEI account: its CLABE takes no more transfers",
    response=AccountResponse,
)
def cancel(merchant: Merchant, req: AccountRequest):
    return _answer(service.cancel(db.session, merchant, req.account_id))
