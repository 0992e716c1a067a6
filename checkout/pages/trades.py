"""What the payin pages share about their trade: the payment page's token, the trade's country, the status, method
and amount the customer reads."""

from __future__ import annotations

from typing import cast

from sqlalchemy import select

from .. import clock, links, money
from ..db import db
from ..merchants.models import Merchant
from ..payins import methods, states
from ..payins.methods import catalog
from ..payins.models import Trade
from . import layout, method_names
from .common import Page, PageError, allow_form_target, open_page, read_token
from .i18n import format_currency

PAY_TOKEN_TTL = 16 * 24 * 3600  # the trade's own expiry (at most 15 days) is what really bounds the page
UNFINISHED = (states.INITIAL, states.PROCESSING)


def open_pay_page() -> tuple[Page, Trade]:
    """The payment page's trade, from its token, and the page opened in the trade's country."""
    token, payload = read_token(links.PAY_PAGE, PAY_TOKEN_TTL)
    trade = db.session.scalar(select(Trade).where(Trade.trade_no == payload.get("trade")))
    if trade is None:
        raise PageError(404, "not-found")
    page = open_page(token, cast(Merchant, db.session.get(Merchant, trade.merchant_id)), country_of(trade))
    allow_form_target(trade.return_url)
    return page, trade


def country_of(trade: Trade) -> str | None:
    """The trade's country (its page's language and formats): its method's country page, its wallet's country,
    else its currency's (Argentina reads Spanish; Egypt, Indonesia or Taiwan, which have no catalogue, English)."""
    if trade.method == "Wallet":
        channel = catalog.channel(trade.channel or "", trade.currency)
        if channel is not None:
            return channel.country
    variant = methods.page_of(trade) if trade.method else None
    if variant is not None:
        return variant.country
    listed = catalog.bank(trade.method, trade.details.get("bank") or "") if trade.method else None
    return listed.country if listed else layout.currency_country(trade.currency)


def shown_status(trade: Trade) -> str:
    """What the customer sees: a PROCESSING trade past its deadline has expired for them."""
    if trade.status == states.PROCESSING and trade.expires_at and clock.as_utc(trade.expires_at) <= clock.now():
        return states.EXPIRED
    return trade.status


def method_name(trade: Trade) -> str:
    """The trade's method as people call it (a wallet by its own name)."""
    return method_names.method_name(trade.method, trade.channel)


def amount_text(trade: Trade) -> str:
    """The amount as the trade's country writes it (i18n: a Chilean page reads "$1.000", not "CLP1,000")."""
    return format_currency(money.from_minor(trade.amount_minor, trade.currency), trade.currency)
