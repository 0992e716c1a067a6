"""Scheduled payin work: direct card payments, vault debits when due (cards at once, PIX Automático on its
date), expiries, authorizations never captured."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import clock, wiring
from ..jobs import Due, Job, Scope, on_each_clock
from ..providers.base import Acquirer
from ..vaults import service as vaults
from ..vaults.models import Vault
from . import authorizations, states
from .models import Trade
from .trades import CANCEL_WHEN_UNPAID, CUSTOMER_KINDS, change_status, outcome

LIMIT = 200


def _due(session: Session, *conditions, status: str = states.PROCESSING, by_expiry: bool = False) -> list[Trade]:
    # Expiries in the order of the index on (status, expires_at, id): were they taken in id order, a plan
    # made once for any time (PostgreSQL's generic plan, after a prepared statement's fifth run) would walk
    # every pending trade in id order to find the few that are due.
    order = (Trade.expires_at, Trade.id) if by_expiry else (Trade.id,)
    query = (
        select(Trade)
        .where(Trade.status == status, *conditions)
        .order_by(*order)
        .limit(LIMIT)
        .with_for_update(of=Trade, skip_locked=True)
    )
    return list(session.scalars(query))


def debit_vaults(session: Session, acquirer: Acquirer) -> int:
    """Charge PROCESSING vault trades that are due: paid when the vault still allows it, else refused."""
    due = (
        Due((Trade.status == states.PROCESSING, Trade.method == "CreditCard", Trade.kind == "vault")),
        Due(
            (Trade.status == states.PROCESSING, Trade.method == "PIXAutomatic", Trade.kind == "vault"),
            Trade.scheduled_date,
            clock.brazil_today,
        ),
    )
    return on_each_clock(session, Trade.merchant_id, lambda scope: _debit_vaults(session, acquirer, scope), *due)


def _debit_vaults(session: Session, acquirer: Acquirer, scope: Scope) -> int:
    # One method at a time: each is then found by the index on (status, method, kind, id), whatever the
    # number of other pending trades (a round reads only what is due).
    cards = _due(session, scope, Trade.method == "CreditCard", Trade.kind == "vault")
    pix = _due(
        session,
        scope,
        Trade.method == "PIXAutomatic",
        Trade.kind == "vault",
        Trade.scheduled_date <= clock.brazil_today(),
    )
    due = cards + pix
    for trade in due:
        # Locked like /vault/void locks it: a debit and a void of one vault never overlap.
        vault = session.scalar(select(Vault).where(Vault.id == trade.vault_id).with_for_update(of=Vault))
        assert vault is not None  # scheduled trades belong to a vault (foreign key)
        if vault.status != vaults.ACTIVE:
            change_status(session, trade, states.REFUSED, f"vault is {vault.status}")
        elif trade.method == "PIXAutomatic":
            assert vault.plan_max_minor is not None  # a PIX vault always has its plan
            decision = acquirer.debit_pix_automatic(trade.amount_minor, vault.plan_max_minor)
            change_status(session, trade, *outcome(decision, states.SUCCESS))
        else:
            assert trade.card_token is not None  # card trades of a vault carry its token
            decision = acquirer.debit_card_vault(trade.card_token, trade.amount_minor, trade.currency)
            change_status(session, trade, *outcome(decision, states.SUCCESS))
    return len(due)


def charge_cards(session: Session, acquirer: Acquirer) -> int:
    """Authorize the direct card payments the API answered PROCESSING: SUCCESS or REFUSED, with its callback."""
    due = Due((Trade.status == states.PROCESSING, Trade.kind == "direct", Trade.method == "CreditCard"))
    return on_each_clock(session, Trade.merchant_id, lambda scope: _charge_cards(session, acquirer, scope), due)


def _charge_cards(session: Session, acquirer: Acquirer, scope: Scope) -> int:
    due = _due(session, scope, Trade.kind == "direct", Trade.method == "CreditCard")
    for trade in due:
        assert trade.card_token is not None  # a direct card payment carries its token
        decision = acquirer.authorize(trade.card_token, trade.amount_minor, trade.currency)
        change_status(session, trade, *outcome(decision, states.SUCCESS))
    return len(due)


# The worker runs its jobs in its app's context: the acquirer is the one that app was built with.
def _card_charges(session: Session, config: Mapping[str, Any]) -> int:
    return charge_cards(session, wiring.acquirer())


def expire_trades(session: Session) -> int:
    """Direct payments nobody paid in time (cancelled when their cancellation_express ran out), hosted
    checkouts nobody completed in time."""
    due = (
        Due((Trade.status == states.PROCESSING, Trade.kind.in_(CUSTOMER_KINDS)), Trade.expires_at),
        Due((Trade.status == states.INITIAL,), Trade.expires_at),
    )
    return on_each_clock(session, Trade.merchant_id, lambda scope: _expire_trades(session, scope), *due)


def _expire_trades(session: Session, scope: Scope) -> int:
    now = clock.now()
    unpaid = _due(session, scope, Trade.kind.in_(CUSTOMER_KINDS), Trade.expires_at <= now, by_expiry=True)
    for trade in unpaid:
        if trade.details.get(CANCEL_WHEN_UNPAID):
            change_status(session, trade, states.CANCEL, "not paid within cancellation_express")
        else:
            change_status(session, trade, states.EXPIRED, "not paid before it expired")
    unsubmitted = _due(session, scope, Trade.expires_at <= now, status=states.INITIAL, by_expiry=True)
    for trade in unsubmitted:
        change_status(session, trade, states.EXPIRED, "no payment method was submitted before it expired")
    return len(unpaid) + len(unsubmitted)


def _vault_debits(session: Session, config: Mapping[str, Any]) -> int:
    return debit_vaults(session, wiring.acquirer())


def _trade_expiries(session: Session, config: Mapping[str, Any]) -> int:
    return expire_trades(session)


def void_lapsed_authorizations(session: Session, acquirer: Acquirer) -> int:
    """Authorizations nobody captured in time are released."""
    due = Due((Trade.status == states.AUTHORIZED,), Trade.created_at, lambda: clock.now() - authorizations.VOID_AFTER)
    return on_each_clock(session, Trade.merchant_id, lambda scope: _void_lapsed(session, acquirer, scope), due)


def _void_lapsed(session: Session, acquirer: Acquirer, scope: Scope) -> int:
    lapsed = Trade.created_at <= clock.now() - authorizations.VOID_AFTER
    due = _due(session, scope, lapsed, status=states.AUTHORIZED)
    for trade in due:
        authorizations.void_lapsed(session, trade, acquirer)
    return len(due)


def _lapsed_authorizations(session: Session, config: Mapping[str, Any]) -> int:
    return void_lapsed_authorizations(session, wiring.acquirer())


JOBS: list[Job] = [_card_charges, _vault_debits, _trade_expiries, _lapsed_authorizations]
