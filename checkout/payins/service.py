"""Creating trades: pre-authorization, pay with vault, direct payment; the sandbox customer paying one."""

from __future__ import annotations

from datetime import timedelta
from typing import cast

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import clock
from ..cards import service as cards
from ..errors import InvalidField, MissingField
from ..links import Links
from ..merchants.models import Merchant
from ..merchants.policy import check_return_url
from ..providers.base import Acquirer
from ..vaults import service as vaults
from . import methods, states, timeouts
from .models import Trade
from .schemas import DirectPayment, PreAuthorization, VaultPayment
from .trades import (
    CANCEL_WHEN_UNPAID,
    awaiting_customer,
    change_status,
    duplicate_check,
    new_trade,
    order_minor,
    outcome,
)

AUTHENTICATED_3DS = {"Y", "A"}
# "I" (informational, no challenge performed) neither authenticates nor fails: the issuer decides.
INFORMATIONAL_3DS = {"I"}

PIX_LEAD_DAYS = (2, 10)


def pre_authorize(session: Session, merchant: Merchant, req: PreAuthorization, acquirer: Acquirer) -> Trade:
    methods.cards.check(req.order_amount, req.order_currency)
    duplicate_check(session, merchant, req.out_trade_no)
    card = cards.usable_token(session, merchant, req.token, "token")
    code = req.threeds.status_code
    if code in AUTHENTICATED_3DS or code in INFORMATIONAL_3DS:
        decision = acquirer.authorize(card, order_minor(req.order_amount, req.order_currency), req.order_currency)
        status, reason = outcome(decision, states.AUTHORIZED)
    else:
        status, reason = states.REFUSED, f"3-D Secure authentication failed (status {code})"
    now = clock.now()
    trade = new_trade(
        session,
        merchant,
        req,
        kind="pre_authorization",
        method="CreditCard",
        status=status,
        reason=reason,
        card_token_id=card.id,
        now=now,
        expires_at=timeouts.expiry(req.timeout_express, now),
    )
    trade.details = {"issuer": req.issuer, "threeds": req.threeds.model_dump()}
    return trade


def _check_pix_schedule(session: Session, vault, scheduled) -> None:
    today = clock.brazil_today()
    lead = (scheduled - today).days
    first_on_authorization_day = (
        scheduled == vault.plan_start_date
        and vault.activated_at is not None
        and clock.as_utc(vault.activated_at).astimezone(clock.BRAZIL).date() == today
        and session.scalar(select(Trade.id).where(Trade.vault_id == vault.id).limit(1)) is None
    )
    if not (PIX_LEAD_DAYS[0] <= lead <= PIX_LEAD_DAYS[1] or first_on_authorization_day):
        raise InvalidField(
            "scheduled_date",
            "must be 2 to 10 days after today in Brazil time "
            f"({today}), or the plan start date for a first debit on the authorization day",
        )
    if not vault.plan_start_date <= scheduled <= vault.plan_end_date:
        raise InvalidField(
            "scheduled_date", f"must be within the plan, {vault.plan_start_date} to {vault.plan_end_date}"
        )


def pay_with_vault(session: Session, merchant: Merchant, req: VaultPayment) -> Trade:
    duplicate_check(session, merchant, req.out_trade_no)
    vault = vaults.require_active(session, merchant, req.vault_token)
    expected = "CreditCard" if vault.type == "Card" else "PIXAutomatic"
    if req.method != expected:
        raise InvalidField("method", f"must be {expected} for a {vault.type} vault")
    scheduled = None
    if req.method == "PIXAutomatic":
        if req.scheduled_date is None:
            raise MissingField("scheduled_date")
        if req.order_currency != "BRL":
            raise InvalidField("order_currency", "must be BRL for PIXAutomatic")
        _check_pix_schedule(session, vault, req.scheduled_date)
        scheduled = req.scheduled_date
    else:  # the interface's range for pay with vault (0.1 to 9,999,999) stands: only a card's currency is checked
        methods.cards.check_currency(req.order_currency)
    # The debit itself runs later (card: at once; PIX Automático: on scheduled_date), by the worker.
    trade = new_trade(
        session,
        merchant,
        req,
        kind="vault",
        method=req.method,
        status=states.PROCESSING,
        vault_id=vault.id,
        card_token_id=vault.card_token_id,
        scheduled_date=scheduled,
    )
    trade.details = {"region": req.region} if req.region else {}
    return trade


def pay_direct(
    session: Session,
    merchant: Merchant,
    req: DirectPayment,
    links: Links,
    collector: methods.Collector,
    sandbox: bool,
) -> tuple[Trade, dict]:
    """Create a direct payment; answers the trade and the method's fields (qr_code, barcode, ...), to which
    `methods.answer` adds the images drawn from them (after the commit: they are derived, not kept).

    Every method answers PROCESSING, a card too, as the provider does: the worker authorizes the card
    (`jobs.charge_cards`) and the outcome reaches the merchant by callback.
    """
    method = methods.lookup(req.method, req.channel)
    if req.return_url:
        check_return_url(req.return_url, merchant, sandbox)
    details = method.check(req)
    card = None
    if method.name == "CreditCard":
        # A card's token is spent by the payment that used it: a repeat must hear that it is a repeat, not
        # that its token is spent. Other methods leave a repeat to the unique constraint, which refuses it
        # when the trade is written (before anything is kept): a read less for every payment.
        duplicate_check(session, merchant, req.out_trade_no)
        card = cards.usable_token(session, merchant, cast(str, req.token), "token")  # method.check() wants one
    now = clock.now()
    validity = voucher_validity(method.name, req.order_currency, req.customer.identify.type)
    expires_at = direct_expiry(method, req.timeout_express, now, collector, validity)  # checks timeout_express too
    if req.cancellation_express is not None:
        # The provider's voucher life (Boleto, Lottery): unpaid by then, the trade is cancelled (jobs).
        expires_at = timeouts.cancellation(req.cancellation_express, req.timeout_express, now)
        details = {**details, CANCEL_WHEN_UNPAID: True}

    def prepare(trade: Trade) -> dict:
        trade.details = {**details, "customer": req.customer.model_dump(), "address": req.address.model_dump()}
        return {**trade.details, "response": method.present(trade, links, collector)}  # present reads details

    trade = new_trade(
        session,
        merchant,
        req,
        kind="direct",
        method=method.name,
        status=states.PROCESSING,
        channel=details.get("channel")
        if method.name == "Wallet" or method.channels
        else None,  # as the catalogue spells it
        card_token_id=card.id if card else None,
        now=now,
        # A card is not paid by the customer's hand: the acquirer decides it, so nothing expires it.
        expires_at=None if card else expires_at,
        prepare=None if method.numbered else prepare,
    )
    if method.numbered:
        trade.details = prepare(trade)
    return trade, trade.details["response"]


# The payment-method summary's "Users need to pay within 10 days": a lotérica slip, like a boleto, is due on a day.
LOTTERY_DUE_DAYS = 10


def voucher_validity(method: str, currency: str, document_type: str | None) -> str:
    """How long the method's voucher lasts in its country without timeout_express ("5d"; "" where the
    provider gives no time)."""
    variant = methods.countries.variant(method, currency, document_type)
    return variant.validity if variant else ""


def direct_expiry(
    method: methods.Method, timeout_express: str | None, now, collector: methods.Collector, validity: str = ""
):
    """Without timeout_express, a Boleto or lotérica slip stays payable to the end of its due day and a cash
    voucher for its method's documented `validity` ("5d"); others, and any of them with it, as timeout_express
    says (default 90m)."""
    if timeout_express is None:
        days = {"Boleto": collector.boleto_due_days, "Lottery": LOTTERY_DUE_DAYS}.get(method.name)
        if days is not None:
            due = now.astimezone(clock.BRAZIL).date() + timedelta(days=days)
            return timeouts.end_of_brazil_day(due, now.tzinfo)
        if validity:
            return timeouts.expiry(validity, now)
    return timeouts.expiry(timeout_express, now)


def sandbox_pay(session: Session, merchant: Merchant, trade_no: str) -> Trade:
    """The customer pays a PIX, Boleto, ... trade (sandbox): PROCESSING becomes SUCCESS."""
    trade = awaiting_customer(session, merchant, trade_no, "paid")
    change_status(session, trade, states.SUCCESS, "paid by the customer")
    return trade
