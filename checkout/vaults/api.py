"""Vault routes: /vault/create and /vault/void."""

from __future__ import annotations

from flask import Blueprint, current_app

from .. import clock, links
from ..api.operation import operation
from ..db import db
from ..merchants.models import Merchant
from . import service
from .schemas import VaultCreateRequest, VaultCreateResponse, VaultVoidRequest, VaultVoidResponse

bp = Blueprint("vaults", __name__)


@operation(
    bp,
    "/vault/create",
    VaultCreateRequest,
    summary="Store a card or a PIX Automático authorization",
    response=VaultCreateResponse,
)
def create(merchant: Merchant, req: VaultCreateRequest):
    vault = service.create(
        db.session,
        merchant,
        req,
        current_app.config["VAULT_SESSION_TTL"],
        current_app.config["SANDBOX"],
    )
    return {
        **service.describe(vault),
        "timestamp": clock.format_utc(vault.created_at),
        "checkout_url": service.checkout_url(vault, links.current()),
    }


@operation(
    bp,
    "/vault/void",
    VaultVoidRequest,
    summary="Void a card vault; it can no longer be paid with",
    response=VaultVoidResponse,
)
def void(merchant: Merchant, req: VaultVoidRequest):
    vault = service.void(db.session, merchant, req.vault_token)
    return {
        "token": vault.token,
        "type": vault.type,
        "vault_status": vault.status,
        "timestamp": clock.format_utc(vault.updated_at),
    }
