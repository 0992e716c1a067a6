"""Hosted payout checkout sessions: the offered combination (corridors), expiry, status changes, and the signed page link."""

from __future__ import annotations

import secrets
from datetime import timedelta
from decimal import Decimal

from sqlalchemy import ScalarSelect, select
from sqlalchemy.orm import Session

from .. import clock, money
from ..errors import InvalidField
from ..links import Links
from ..merchants.models import Merchant
from ..merchants.policy import check_return_url
from ..statemachine import CHECKOUT_SESSION, CheckoutSessionStatus
from . import codes, corridors, pricing
from .models import CheckoutSession, Payout
from .schemas import NewCheckoutSession

OPEN, COMPLETED = CheckoutSessionStatus.OPEN, CheckoutSessionStatus.COMPLETED
EXPIRED = CheckoutSessionStatus.EXPIRED

# Names the interface uses for methods that the payout API spells differently.
METHOD_ALIASES = {"EXTERNAL_WALLET": "WALLET", "EXTERNAL WALLET": "WALLET"}


def _combination(req: NewCheckoutSession) -> tuple[str, str | None]:
    country = req.country or corridors.PAGE_COUNTRY_OF[req.payout_currency]
    offer = corridors.PAGE[country]
    methods, sources, payout_currency = offer.methods, offer.sources, offer.payout_currency
    if req.payout_currency != payout_currency:
        raise InvalidField("payout_currency", f"must be {payout_currency} for {country}")
    if req.source_currency not in sources:
        raise InvalidField("source_currency", f"must be {' or '.join(sources)} for {country}")
    method = None
    if req.method:
        method = METHOD_ALIASES.get(req.method.upper(), req.method.upper())
        if method not in methods:
            raise InvalidField("method", f"must be {' or '.join(methods)} for {country}")
    return country, method


def offered_methods(country: str, method: str | None) -> list[str]:
    """The methods a session's page offers: the one the merchant named, else every method of the country."""
    return [method] if method else list(corridors.PAGE[country].methods)


def quotes(
    *,
    source_currency: str,
    payout_currency: str,
    amount: Decimal,
    fee_bear: str,
    country: str,
    method: str | None,
    mid_rates: dict,
    markup_bps: int,
) -> dict[str, pricing.Quote]:
    """What each offered method costs and delivers for a session's amount (fixed on arrival); raises when the
    amount does not cover a method's fee and tax."""
    return {
        candidate: pricing.quote(
            source_currency=source_currency,
            arrival_currency=payout_currency,
            amount=amount,
            amount_type=pricing.ARRIVAL,
            fee_bear=fee_bear,
            method=candidate,
            country=country,
            mid_rates=mid_rates,
            markup_bps=markup_bps,
        )
        for candidate in offered_methods(country, method)
    }


def create(
    session: Session, merchant: Merchant, req: NewCheckoutSession, *, mid_rates: dict, markup_bps: int, sandbox: bool
) -> CheckoutSession:
    check_return_url(req.return_url, merchant, sandbox)
    country, method = _combination(req)
    # The amount must cover fee and tax whichever method the beneficiary picks.
    quotes(
        source_currency=req.source_currency,
        payout_currency=req.payout_currency,
        amount=req.payout_amount,
        fee_bear=req.fee_bear,
        country=country,
        method=method,
        mid_rates=mid_rates,
        markup_bps=markup_bps,
    )
    now = clock.now()
    # The session claims its code for the payout its page will create; an expired session keeps it.
    codes.claim(session, merchant, req.custom_code, now)
    record = CheckoutSession(
        session_id="cs_" + secrets.token_hex(16),
        merchant_id=merchant.id,
        user_id=req.user_id,
        custom_code=req.custom_code,
        fee_bear=req.fee_bear,
        source_currency=req.source_currency,
        payout_currency=req.payout_currency,
        payout_amount_minor=money.to_minor(req.payout_amount, req.payout_currency),
        timeout=req.timeout,
        notify_url=req.notify_url,
        return_url=req.return_url,
        additional_remark=req.additional_remark,
        country=country,
        method=method,
        expires_at=now + timedelta(seconds=req.timeout),
        created_at=now,
    )
    set_status(record, OPEN)
    session.add(record)
    session.flush()
    return record


def code_holder() -> ScalarSelect[int]:
    """The id of the payout holding a session's custom_code (or NULL), as a column of the statement that
    reads the session: a page then reads both in one round trip."""
    return (
        select(Payout.id)
        .where(Payout.merchant_id == CheckoutSession.merchant_id, Payout.custom_code == CheckoutSession.custom_code)
        .scalar_subquery()
    )


def code_taken_elsewhere(payout_id: int | None, holder: int | None) -> bool:
    """Whether the session's custom_code names another payout (`holder`, from code_holder()) than its own
    (`payout_id`): only possible for sessions opened before the codes were claimed (migration 0008), when a
    direct payout could win a race."""
    return holder is not None and holder != payout_id


def set_status(record: CheckoutSession, new: str, *, payout_id: int | None = None) -> None:
    """The only place a checkout session's status changes (it keeps no history and notifies nobody:
    the payout it creates does); completing it records its payout."""
    CHECKOUT_SESSION.move(record, new, changes={"payout_id": payout_id} if payout_id is not None else None)


def checkout_url(record: CheckoutSession, links: Links) -> str:
    return links.payout_page(record.session_id)
