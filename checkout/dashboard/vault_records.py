"""What the dashboard shows of a merchant's vaults (cards on file, PIX Automático authorizations) and does to them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import clock, money
from ..merchants.models import Merchant
from ..payins.models import Trade
from ..statemachine import VAULT, VaultStatus
from ..vaults import service as vaults
from ..vaults.models import Vault
from . import payments, records

TYPES = ("Card", "pix")
STATUSES = tuple(status.value for status in VaultStatus)
# A vault's page lists its most recent trades; the payments list has them all (filtered by nothing else yet).
TRADES_SHOWN = 50


@dataclass(frozen=True)
class VaultFilter:
    type: str | None = None
    status: str | None = None
    # The exact vault token. Not the customer's uid: no index holds it, and a search would read every vault.
    search: str | None = None


@dataclass(frozen=True)
class VaultLine:
    token: str
    type: str
    status: str
    what: str  # "visa •••• 1111", or the plan's amount range
    uid: str
    created_at: datetime
    id: int
    plan: tuple[str, str] | None = None  # a PIX Automático plan's smallest and largest debit, BRL to the cent


@dataclass(frozen=True)
class Plan:
    interval: str  # the API's code: 1W, 1M, 3M, 6M, 1Y
    start: date
    end: date
    minimum: str  # BRL, to the cent
    maximum: str
    payer_name: str | None
    payer_document_type: str | None
    payer_document: str  # masked, as the authorization page shows it


@dataclass(frozen=True)
class Charge:
    trade_no: str
    out_trade_no: str
    method: str
    status: str
    amount: str
    currency: str
    scheduled_date: date | None
    created_at: datetime
    amount_minor: int = 0
    refunded_minor: int = 0  # what its refunds paid back (failed ones left out)


@dataclass(frozen=True)
class VaultPage:
    vault: Vault
    plan: Plan | None
    charges: list[Charge]
    more_charges: bool
    can_decide: bool  # PENDING, its session still open: the sandbox's bank or customer may approve or reject it
    can_void: bool  # what /vault/void accepts: a Card vault that may still move to VOIDED


def _session_over(vault: Vault) -> bool:
    """Its authorization session has expired on the merchant's clock: deciding it now is refused
    (`vault-expired`), so the page does not offer it."""
    with clock.merchant(vault.merchant_id):
        return clock.as_utc(vault.session_expires_at) <= clock.now()


def _what(vault: Vault) -> str:
    if vault.card is not None:
        return f"{vault.card.brand} •••• {vault.card.last_four}"
    if vault.plan_min_minor is not None and vault.plan_max_minor is not None:
        low, high = money.format_minor(vault.plan_min_minor, "BRL"), money.format_minor(vault.plan_max_minor, "BRL")
        return f"{low} - {high} BRL"
    return ""


def _range(vault: Vault) -> tuple[str, str] | None:
    if vault.card is None and vault.plan_min_minor is not None and vault.plan_max_minor is not None:
        return money.format_minor(vault.plan_min_minor, "BRL"), money.format_minor(vault.plan_max_minor, "BRL")
    return None


def listing(
    session: Session, merchant_id: int, filters: VaultFilter, cursor: str | None = None
) -> records.Page[VaultLine]:
    """One page of the merchant's vaults, newest first (raises records.BadCursor for a made-up cursor)."""
    query = select(Vault).where(Vault.merchant_id == merchant_id)
    if filters.type:
        query = query.where(Vault.type == filters.type)
    if filters.status:
        query = query.where(Vault.status == filters.status)
    if filters.search:
        query = query.where(Vault.token == filters.search)
    found = records.page(list(session.scalars(records.keyset(query, Vault, cursor))))
    lines = [
        VaultLine(v.token, v.type, v.status, _what(v), v.uid, clock.as_utc(v.created_at), v.id, _range(v))
        for v in found.rows
    ]
    return records.Page(lines, found.next_cursor)


def mask_document(kind: str | None, number: str | None) -> str:
    """Enough of the payer's CPF/CNPJ to recognise it, never all of it (as the authorization page shows it)."""
    n = number or ""
    if kind == "CPF" and len(n) == 11:
        return f"***.{n[3:6]}.{n[6:9]}-**"
    if len(n) == 14:
        return f"**.{n[2:5]}.{n[5:8]}/{n[8:12]}-**"
    return "***"


def _plan(vault: Vault) -> Plan | None:
    if vault.type != "pix" or vault.plan_start_date is None or vault.plan_end_date is None:
        return None
    return Plan(
        interval=vault.plan_interval or "",
        start=vault.plan_start_date,
        end=vault.plan_end_date,
        minimum=money.format_minor(vault.plan_min_minor or 0, "BRL"),
        maximum=money.format_minor(vault.plan_max_minor or 0, "BRL"),
        payer_name=vault.customer_name,
        payer_document_type=vault.customer_document_type,
        payer_document=mask_document(vault.customer_document_type, vault.customer_document),
    )


def detail(session: Session, merchant_id: int, token: str) -> VaultPage | None:
    """The merchant's vault with its plan and the trades charged on it; None for anyone else's token."""
    vault = session.scalar(select(Vault).where(Vault.merchant_id == merchant_id, Vault.token == token))
    if vault is None:
        return None
    trades = session.execute(
        select(Trade, payments.refunded_minor().label("refunded_minor"))
        .where(Trade.merchant_id == merchant_id, Trade.vault_id == vault.id)
        .order_by(Trade.created_at.desc(), Trade.id.desc())
        .limit(TRADES_SHOWN + 1)
    ).all()
    charges = [
        Charge(
            t.trade_no,
            t.out_trade_no,
            t.method,
            t.status,
            money.format_minor(t.amount_minor, t.currency),
            t.currency,
            t.scheduled_date,
            clock.as_utc(t.created_at),
            t.amount_minor,
            int(refunded or 0),
        )
        for t, refunded in trades[:TRADES_SHOWN]
    ]
    return VaultPage(
        vault=vault,
        plan=_plan(vault),
        charges=charges,
        more_charges=len(trades) > TRADES_SHOWN,
        can_decide=vault.status == vaults.PENDING and not _session_over(vault),
        can_void=vault.type == "Card" and VAULT.can(vault.status, vaults.VOIDED),
    )


def decide(session: Session, merchant: Merchant, token: str, approve: bool) -> Vault:
    """The bank (pix) or the customer (Card) decides, exactly as POST /sandbox/vaults/<token>/approve|reject."""
    with clock.merchant(merchant.id):
        return vaults.decide(session, merchant, token, approve)


def void(session: Session, merchant: Merchant, token: str) -> Vault:
    """The merchant voids a card vault, exactly as POST /vault/void."""
    with clock.merchant(merchant.id):
        return vaults.void(session, merchant, token)
