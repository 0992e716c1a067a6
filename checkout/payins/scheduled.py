"""Scheduled payin work: vault debits when due (cards at once, PIX Automático on its date), expiries."""
from __future__ import annotations

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from .. import clock, money
from ..payouts.models import CheckoutSession
from ..vaults import service as vaults
from ..vaults.models import Vault
from . import states
from .models import Trade
from .service import card_outcome, change_status

LIMIT = 200


def _due(session: Session, *conditions) -> list[Trade]:
    query = (select(Trade).where(Trade.status == states.PROCESSING, *conditions)
             .order_by(Trade.id).limit(LIMIT).with_for_update(of=Trade, skip_locked=True))
    return list(session.scalars(query))


def debit_vaults(session: Session) -> int:
    """Charge PROCESSING vault trades that are due: paid when the vault still allows it, else refused."""
    due = _due(session, Trade.kind == "vault", or_(
        Trade.method == "CreditCard",
        and_(Trade.method == "PIXAutomatic", Trade.scheduled_date <= clock.brazil_today())))
    for trade in due:
        # Locked like /vault/void locks it: a debit and a void of one vault never overlap.
        vault = session.scalar(select(Vault).where(Vault.id == trade.vault_id).with_for_update(of=Vault))
        if vault.status != vaults.ACTIVE:
            change_status(session, trade, states.REFUSED, f"vault is {vault.status}")
        elif trade.method == "PIXAutomatic" and trade.amount_minor > vault.plan_max_minor:
            change_status(session, trade, states.REFUSED, "amount above the plan's maximum of "
                          f"{money.format_minor(vault.plan_max_minor, 'BRL')} BRL")
        elif trade.method == "PIXAutomatic":
            change_status(session, trade, states.SUCCESS, "debited on its scheduled date")
        else:
            change_status(session, trade, *card_outcome(trade.card_token, states.SUCCESS))
    return len(due)


def expire_trades(session: Session) -> int:
    """Direct payments nobody paid in time."""
    due = _due(session, Trade.kind == "direct", Trade.expires_at <= clock.now())
    for trade in due:
        change_status(session, trade, states.EXPIRED, "not paid before it expired")
    return len(due)


def expire_sessions(session: Session) -> int:
    """Vault authorizations never decided, and payout checkout pages never completed."""
    now = clock.now()
    pending = list(session.scalars(select(Vault).where(Vault.status == vaults.PENDING,
                                                       Vault.session_expires_at <= now)
                                   .limit(LIMIT).with_for_update(of=Vault, skip_locked=True)))
    for vault in pending:
        vaults.set_status(session, vault, vaults.EXPIRED, "the authorization session expired")
    pages = list(session.scalars(select(CheckoutSession).where(CheckoutSession.status == "OPEN",
                                                               CheckoutSession.expires_at <= now)
                                 .limit(LIMIT).with_for_update(skip_locked=True)))
    for page in pages:
        page.status = "EXPIRED"
    return len(pending) + len(pages)
