"""Hosted payout checkout sessions: the combination table, expiry, and the signed page link."""
from __future__ import annotations

import secrets
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .. import clock, money
from ..links import Links
from ..merchants.models import Merchant
from ..pages.returns import ReturnUrlError, check_return_url
from ..validation import FieldError
from . import pricing
from .models import CheckoutSession
from .schemas import CheckoutRequest
from .service import duplicate, find_by_custom_code

PAGE_PURPOSE = "payout"
OPEN, COMPLETED, EXPIRED = "OPEN", "COMPLETED", "EXPIRED"

# The seed's supported combinations: country -> (methods, source currencies, payout currency).
COMBINATIONS = {
    "BRA": (("PIX", "BANKTRANSFER"), ("USD", "BRL"), "BRL"),
    "MEX": (("SPEI",), ("USD", "MXN"), "MXN"),
    "GLOBAL": (("WALLET",), ("USD",), "USD"),
}
COUNTRY_OF = {payout: country for country, (_, _, payout) in COMBINATIONS.items()}
# Names the interface uses for methods that the payout API spells differently.
METHOD_ALIASES = {"EXTERNAL_WALLET": "WALLET", "EXTERNAL WALLET": "WALLET"}


def _combination(req: CheckoutRequest) -> tuple[str, str | None]:
    country = req.country or COUNTRY_OF[req.payout_currency]
    methods, sources, payout_currency = COMBINATIONS[country]
    if req.payout_currency != payout_currency:
        raise FieldError("payout_currency", f"must be {payout_currency} for {country}")
    if req.source_currency not in sources:
        raise FieldError("source_currency", f"must be {' or '.join(sources)} for {country}")
    method = None
    if req.method:
        method = METHOD_ALIASES.get(req.method.upper(), req.method.upper())
        if method not in methods:
            raise FieldError("method", f"must be {' or '.join(methods)} for {country}")
    return country, method


def create(session: Session, merchant: Merchant, req: CheckoutRequest, *, mid_rates: dict,
           markup_bps: int, sandbox: bool) -> CheckoutSession:
    try:
        check_return_url(req.return_url, merchant, sandbox)
    except ReturnUrlError as error:
        raise FieldError("return_url", str(error)) from None
    country, method = _combination(req)
    # The amount must cover fee and tax whichever method the beneficiary picks.
    for candidate in ([method] if method else COMBINATIONS[country][0]):
        pricing.quote(source_currency=req.source_currency, arrival_currency=req.payout_currency,
                      amount=req.payout_amount, amount_type=pricing.ARRIVAL, fee_bear=req.fee_bear,
                      method=candidate, country=country,
                      mid_rates=mid_rates, markup_bps=markup_bps)
    existing = find_by_custom_code(session, merchant, req.custom_code)
    if existing is not None:
        raise duplicate(existing)
    taken = session.scalar(select(CheckoutSession.id).where(CheckoutSession.merchant_id == merchant.id,
                                                            CheckoutSession.custom_code == req.custom_code))
    if taken is not None:
        raise FieldError("custom_code", "already has a checkout session")
    now = clock.now()
    record = CheckoutSession(
        session_id="cs_" + secrets.token_hex(16), merchant_id=merchant.id, user_id=req.user_id,
        custom_code=req.custom_code, fee_bear=req.fee_bear, source_currency=req.source_currency,
        payout_currency=req.payout_currency,
        payout_amount_minor=money.to_minor(req.payout_amount, req.payout_currency), timeout=req.timeout,
        notify_url=req.notify_url, return_url=req.return_url, additional_remark=req.additional_remark,
        country=country, method=method, status=OPEN, expires_at=now + timedelta(seconds=req.timeout),
        created_at=now)
    try:
        with session.begin_nested():
            session.add(record)
            session.flush()
    except IntegrityError:
        raise FieldError("custom_code", "already has a checkout session") from None
    return record


def checkout_url(record: CheckoutSession, links: Links) -> str:
    return links.page("payout", PAGE_PURPOSE, {"session": record.session_id})
