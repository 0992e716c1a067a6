"""Vault lifecycle: create, approve or decline (bank / customer), void; the one function that changes a status."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from functools import partial

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import clock, money
from ..cards.service import usable_token
from ..errors import IllegalState, InvalidField, MissingField, NotFound
from ..links import Links
from ..merchants.models import Merchant
from ..merchants.policy import check_return_url
from ..notifications.outbox import enqueue
from ..statemachine import VAULT, Change, VaultStatus
from .models import Vault
from .schemas import NewVault

PENDING, ACTIVE, DECLINED = VaultStatus.PENDING, VaultStatus.ACTIVE, VaultStatus.DECLINED
VOIDED, EXPIRED = VaultStatus.VOIDED, VaultStatus.EXPIRED

# The merchant hears of every decision about a vault; creation is answered by the request itself.
CALLBACK_STATUSES = frozenset(VaultStatus) - {PENDING}


def create(session: Session, merchant: Merchant, req: NewVault, session_ttl: int, sandbox: bool) -> Vault:
    if req.return_url:
        check_return_url(req.return_url, merchant, sandbox)
    now = clock.now()
    vault = Vault(
        token="vt_" + secrets.token_hex(16),
        merchant_id=merchant.id,
        type=req.type,
        return_url=req.return_url,
        subject=req.subject,
        created_at=now,
        session_expires_at=now + timedelta(seconds=session_ttl),
    )
    if req.type == "Card":
        if req.card_token is None:
            raise MissingField("card_token")
        block = req.card_token
        vault.card = usable_token(session, merchant, block.token, "card_token.token")
        vault.uid, vault.region, vault.notify_url = block.uid, block.region, block.notify_url
    else:
        if req.pix is None:
            raise MissingField("pix")
        pix, plan = req.pix, req.pix.plan
        if plan.start_date != clock.brazil_today():
            raise InvalidField("pix.plan.start_date", f"must be today in Brazil time ({clock.brazil_today()})")
        vault.uid, vault.region, vault.notify_url = pix.uid, pix.region, req.notify_url
        vault.plan_interval, vault.plan_start_date, vault.plan_end_date = plan.internal, plan.start_date, plan.end_date
        vault.plan_min_minor = money.to_minor(plan.minimum_amount, "BRL")
        vault.plan_max_minor = money.to_minor(plan.maximum_amount, "BRL")
        vault.customer_name = pix.customer.name
        vault.customer_document_type = pix.customer.identification.type
        vault.customer_document = pix.customer.identification.number
    set_status(session, vault, PENDING, at=now)
    session.add(vault)
    session.flush()
    return vault


def checkout_url(vault: Vault, links: Links) -> str:
    return links.vault_page(vault.token)


def find(session: Session, merchant: Merchant, token: str, *, lock: bool = False) -> Vault:
    """The merchant's vault; `lock` holds its row until commit, so decisions and payments serialise."""
    query = select(Vault).where(Vault.token == token, Vault.merchant_id == merchant.id)
    if lock:
        query = query.with_for_update(of=Vault).execution_options(populate_existing=True)
    vault = session.scalar(query)
    if vault is None:
        raise NotFound(reason="vault-not-exist", message="vault_token: no such vault")
    return vault


def set_status(
    session: Session, vault: Vault, new: str, reason: str | None = None, *, at: datetime | None = None
) -> None:
    """The only place a vault's status changes; its callback is queued in the same transaction."""
    at = at or clock.now()
    VAULT.move(
        vault,
        new,
        reason=reason,
        at=at,
        changes={"activated_at": at} if new == ACTIVE else None,
        on_change=partial(_queue_callback, session),
    )


def _queue_callback(session: Session, change: Change) -> None:
    vault = change.record
    if change.new not in CALLBACK_STATUSES or not vault.notify_url:
        return
    enqueue(
        session,
        merchant_id=vault.merchant_id,
        kind="vault.callback",
        target=vault.notify_url,
        subject_id=vault.token,
        payload={
            "vault_token": vault.token,
            "type": vault.type,
            "vault_status": change.new.value,
            "uid": vault.uid,
            "reason": change.reason,
            "timestamp": clock.format_utc(change.at),
        },
    )


def decide(session: Session, merchant: Merchant, token: str, approve: bool) -> Vault:
    """The payer's bank (pix) or the customer's consent (Card) approves or declines a pending vault."""
    vault = find(session, merchant, token, lock=True)
    if vault.status != PENDING:
        raise IllegalState(
            reason="vault-not-pending", message=f"vault is {vault.status}; only a PENDING vault can be decided"
        )
    if clock.as_utc(vault.session_expires_at) <= clock.now():
        raise IllegalState(reason="vault-expired", message="the authorization session has expired")
    set_status(session, vault, ACTIVE if approve else DECLINED, None if approve else "declined by the payer")
    return vault


def void(session: Session, merchant: Merchant, token: str) -> Vault:
    vault = find(session, merchant, token, lock=True)
    if vault.type != "Card":
        raise InvalidField("type", "vault_token is not a Card vault")
    if not VAULT.can(vault.status, VOIDED):
        raise IllegalState(reason="vault-not-active", message=f"vault is {vault.status} and cannot be voided")
    set_status(session, vault, VOIDED, "voided by the merchant")
    return vault


def require_active(session: Session, merchant: Merchant, token: str) -> Vault:
    """An ACTIVE vault, locked for the rest of the transaction (a racing void waits for the payment)."""
    vault = find(session, merchant, token, lock=True)
    if vault.status != ACTIVE:
        raise IllegalState(
            reason="vault-not-active", message=f"vault is {vault.status}; only an ACTIVE vault can be paid with"
        )
    return vault


def describe(vault: Vault) -> dict:
    """The vault as /vault/create answers it (plus status)."""
    body: dict = {"token": vault.token, "type": vault.type, "vault_status": vault.status}
    if vault.type == "Card":
        assert vault.card is not None  # card vaults hold a card token
        body["card_token"] = {
            "region": vault.region,
            "method": "CreditCard",
            "uid": vault.uid,
            "token": vault.card.token,
            "notify_url": vault.notify_url,
        }
        body["card"] = {
            "brand": vault.card.brand,
            "first_six_digits": vault.card.first_six,
            "last_four_digits": vault.card.last_four,
        }
    else:
        # PIX vaults hold a plan.
        assert vault.plan_start_date is not None and vault.plan_end_date is not None
        assert vault.plan_min_minor is not None and vault.plan_max_minor is not None
        body["pix"] = {
            "region": vault.region,
            "method": "PIXAutomatic",
            "uid": vault.uid,
            "plan": {
                "internal": vault.plan_interval,
                "start_date": vault.plan_start_date.isoformat(),
                "end_date": vault.plan_end_date.isoformat(),
                "minimum_amount": money.format_minor(vault.plan_min_minor, "BRL"),
                "maximum_amount": money.format_minor(vault.plan_max_minor, "BRL"),
            },
            "customer": {
                "name": vault.customer_name,
                "identification": {"type": vault.customer_document_type, "number": vault.customer_document},
            },
        }
    return body
