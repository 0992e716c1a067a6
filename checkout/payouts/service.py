"""Payouts: quotes, submission (balance checked and debited), status, detail and the list by period."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .. import clock, money
from ..brazil import brcode
from ..errors import InvalidField, NotFound, Refused
from ..merchants.models import Merchant
from ..providers.base import PayoutBank, PayoutOrder, Submission
from . import codes, corridors, ledger, lifecycle, pricing
from .accounts import Beneficiary
from .models import Payout
from .schemas import NewPayout, PayoutPage, Quotation

# The list page's limit on a period ("max 31 days"; API code 4001012).
LIST_MAX_PERIOD = timedelta(days=31)


def quote(req: Quotation | NewPayout, mid_rates: dict, markup_bps: int) -> pricing.Quote:
    country = corridors.route(req.country, req.method, req.channel)
    wallets = corridors.channels(country, req.method)
    if req.method == "WALLET" and wallets and req.channel not in wallets:
        raise InvalidField("channel", f"must be one of {', '.join(wallets)} for WALLET")
    return pricing.quote(
        source_currency=req.source_currency,
        arrival_currency=req.arrival_currency,
        amount=req.amount,
        amount_type=req.amount_type,
        fee_bear=req.fee_bear,
        method=req.method,
        country=country,
        mid_rates=mid_rates,
        markup_bps=markup_bps,
        channel=req.channel,
    )


def _check_qr_amount(req: NewPayout, figures: pricing.Quote) -> None:
    assert req.account is not None  # accounts.beneficiary() requires the QR code
    amount = brcode.parse(req.account).get("54")
    if amount is None:
        return
    try:
        asked = money.parse_decimal(amount)
    except money.MoneyError:
        raise InvalidField("account", "the QR code's amount (field 54) is not a number") from None
    if asked != figures.arrival_amount:
        raise InvalidField("amount", f"must make {amount} BRL arrive, the amount the QR code asks for")


def _new_payout(
    merchant: Merchant,
    req: NewPayout,
    who: Beneficiary,
    figures: pricing.Quote,
    submission: Submission,
    now: datetime,
) -> Payout:
    """The row of a priced, validated payout, as its bank took it."""
    order_currency = req.source_currency if req.amount_type == pricing.SOURCE else req.arrival_currency
    return Payout(
        transaction_id=f"TS{now:%Y%m%d}{secrets.randbelow(10**12):012d}",
        merchant_id=merchant.id,
        custom_code=req.custom_code,
        country=req.country,
        method=req.method,
        channel=req.channel,
        fee_bear=req.fee_bear,
        amount_type=req.amount_type,
        name=req.name or "",
        phone=req.phone,
        email=req.email,
        account=who.account,
        account_type=who.account_type,
        document_id=who.document_id,
        document_type=who.document_type,
        bank_code=who.bank_code,
        branch=who.branch,
        account_digit=who.account_digit,
        bank_number=who.bank_number,
        bank_name=who.bank_name,
        payer_bank_code="646" if req.method == "SPEI" else None,
        order_amount_minor=money.to_minor(figures.amount, order_currency),
        source_currency=req.source_currency,
        arrival_currency=req.arrival_currency,
        source_minor=figures.minor("source_amount"),
        settlement_minor=figures.minor("settlement_amount"),
        arrival_minor=figures.minor("arrival_amount"),
        fee_minor=figures.minor("fee"),
        tax_minor=figures.minor("tax"),
        exchange_rate=str(figures.exchange_rate),
        notify_url=req.notify_url,
        additional_remark=req.additional_remark,
        extra=dict(submission.extra),
        sandbox_outcome=submission.outcome,
        next_step_at=submission.next_step_at,
        created_at=now,
    )


def submit(
    session: Session,
    merchant: Merchant,
    req: NewPayout,
    *,
    mid_rates: dict,
    markup_bps: int,
    bank: PayoutBank,
    checkout_session: bool = False,
) -> tuple[Payout, pricing.Quote]:
    """Price, validate the beneficiary, claim the custom code, debit the source balance and create the payout
    (IN_PROCESSING) at `bank`. `checkout_session`: the payout of a checkout session's page, whose code the
    session already claimed."""
    figures = quote(req, mid_rates, markup_bps)
    who = corridors.beneficiary(req)
    if req.method == "QRCODE":
        _check_qr_amount(req, figures)
    # One payout at a time per merchant past this point, so two can never spend the same balance.
    session.scalar(select(Merchant).where(Merchant.id == merchant.id).with_for_update())
    now = clock.now()
    if not checkout_session:
        codes.claim(session, merchant, req.custom_code, now)  # under the merchant's lock, as every claim
    source_minor = figures.minor("source_amount")
    available = ledger.balance(session, merchant, req.source_currency)
    if available < source_minor:
        raise Refused(
            f"available {money.format_minor(available, req.source_currency)} {req.source_currency}, "
            f"needed {figures.source_amount} {req.source_currency}",
            reason="insufficient-balance",
        )
    order = PayoutOrder(
        req.country,
        req.method,
        req.channel,
        req.account,
        req.email,
        req.arrival_currency,
        figures.minor("arrival_amount"),
    )
    submission = bank.submit(order, now)
    payout = _new_payout(merchant, req, who, figures, submission, now)
    lifecycle.set_status(session, payout, lifecycle.IN_PROCESSING, at=now)
    try:
        with session.begin_nested():
            session.add(payout)
            session.flush()
    except IntegrityError:
        raise codes.taken(session, merchant, req.custom_code) from None
    lifecycle.debit(session, merchant, payout)
    return payout, figures


def find(
    session: Session, merchant: Merchant, *, transaction_id: str | None = None, custom_code: str | None = None
) -> Payout:
    query = select(Payout).where(Payout.merchant_id == merchant.id)
    if transaction_id:
        query = query.where(Payout.transaction_id == transaction_id)
    if custom_code:
        query = query.where(Payout.custom_code == custom_code)
    payout = session.scalar(query)
    if payout is None:
        raise NotFound("can not find this payout order", reason="payout-not-exist")
    return payout


def page(session: Session, merchant: Merchant, req: PayoutPage) -> list[Payout]:
    """The merchant's payouts created within the period (both ends included, to the second), oldest first."""
    if req.end_time < req.start_time:
        raise InvalidField("start_time", "must not be after end_time", reason="invalid-start_time")
    if req.end_time - req.start_time > LIST_MAX_PERIOD:
        raise InvalidField("end_time", "the period must not exceed 31 days", reason="time-range-too-long")
    return list(
        session.scalars(
            select(Payout)
            .where(
                Payout.merchant_id == merchant.id,
                Payout.created_at >= req.start_time,
                Payout.created_at < req.end_time + timedelta(seconds=1),
            )
            .order_by(Payout.created_at, Payout.id)
            .offset((req.page_num - 1) * req.page_size)
            .limit(req.page_size)
        )
    )


def find_or_none(session: Session, merchant: Merchant, transaction_id: str) -> Payout | None:
    return session.scalar(
        select(Payout)
        .where(Payout.merchant_id == merchant.id, Payout.transaction_id == transaction_id)
        .with_for_update(of=Payout)
        .execution_options(populate_existing=True)
    )


def status(payout: Payout) -> dict:
    # The status operation knows IN_PROCESSING, not PROCESSING (seed, rule 4): both are still processing.
    shown = lifecycle.IN_PROCESSING if payout.status == lifecycle.PROCESSING else payout.status
    return {
        "payout_id": payout.transaction_id,
        "custom_code": payout.custom_code,
        "status": shown,
        "description": payout.remark or lifecycle.MESSAGES.get(payout.status, ""),
    }


def detail(payout: Payout) -> dict:
    """The seed's detail record; optional fields are omitted when empty."""
    order_currency = payout.source_currency if payout.amount_type == pricing.SOURCE else payout.arrival_currency
    source, arrival = payout.source_currency, payout.arrival_currency
    record = {
        "reference_id": payout.custom_code,
        "transaction_id": payout.transaction_id,
        "user_name": payout.name,
        "bank_id": payout.bank_id,
        "bank_number": payout.bank_number,
        "bank_name": payout.bank_name,
        "payer_bank_code": payout.payer_bank_code,
        "amount": money.format_minor(payout.order_amount_minor, order_currency),
        "source_amount": money.format_minor(payout.source_minor, source),
        "settlement_amount": money.format_minor(payout.settlement_minor, source),
        "source_currency": source,
        "arrival_amount": money.format_minor(payout.arrival_minor, arrival),
        "arrival_currency": arrival,
        "exchange_rate": payout.exchange_rate,
        "tax": money.format_minor(payout.tax_minor, source),
        "fee": money.format_minor(payout.fee_minor, source),
        "fee_user": payout.fee_bear,
        # The detail operation does not know IN_PROCESSING (seed, rule 4): it is still processing.
        "transaction_status": lifecycle.PROCESSING if payout.status == lifecycle.IN_PROCESSING else payout.status,
        "remark": payout.remark,
        "create_time": clock.unix(payout.created_at),
        "update_time": clock.unix(payout.updated_at),
        "extra": payout.extra or {},
    }
    return {key: value for key, value in record.items() if value not in (None, "") or key == "extra"}
