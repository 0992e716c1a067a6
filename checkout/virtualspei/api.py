"""Virtual SPEI routes: /virtual-account/spei/create, /query, /usage and /cancel (payin envelope)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app

from .. import clock, links
from ..api.operation import operation
from ..config import collector_name
from ..db import db
from ..merchants.models import Merchant
from . import service
from .models import VirtualAccount
from .schemas import AccountRequest, AccountResponse, CreateRequest, UsageRequest, UsageResponse

bp = Blueprint("virtualspei", __name__, url_prefix="/virtual-account/spei")


def _answer(account: VirtualAccount) -> dict[str, Any]:
    """The account as the create, query and cancel pages answer it (their example's order), then ours."""
    sandbox = current_app.config["SANDBOX"] and account.status == service.ACTIVE
    return AccountResponse(
        account_id=account.account_id,
        account_number=account.account_number,
        buyer_id=account.buyer_id,
        provider=service.PROVIDER,
        status=account.status,
        beneficiary_name=account.beneficiary_name,
        notify_url=account.notify_url,
        create_time=clock.format_utc(account.created_at),
        update_time=clock.format_utc(account.updated_at),
        transfer_url=service.transfer_url(links.current(), account) if sandbox else None,
    ).model_dump(exclude_none=True)


@operation(
    bp,
    "/create",
    CreateRequest,
    summary="Open a virtual SPEI account: a standing CLABE for one customer",
    response=AccountResponse,
)
def create(merchant: Merchant, req: CreateRequest):
    account = service.open_account(db.session, merchant, req, collector_name(current_app.config, "MEX"))
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
