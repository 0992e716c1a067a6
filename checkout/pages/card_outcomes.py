"""What the hosted checkout tells a customer about a card: a decline's reason in their words, and the instalment options."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from .. import money
from ..payins import card_attempts, instalments, states
from ..payins.models import Trade
from ..providers import base
from .i18n import format_currency

# Never the issuer's code or wording: what happened and what the customer can do about it.
DECLINE_MESSAGES = {
    base.INSUFFICIENT_FUNDS: _l("Your card has insufficient funds."),
    base.CARD_DECLINED: _l("Your bank declined this card."),
    base.EXPIRED_CARD: _l("Your bank says this card has expired."),
    base.INCORRECT_CVC: _l("The security code is incorrect."),
    card_attempts.AUTHENTICATION_FAILED: _l("The purchase was not confirmed with your bank."),
}
DECLINED = _l("Your card was declined.")  # a code this page does not know


def decline_message(code: str | None) -> str:
    return str(DECLINE_MESSAGES.get(code or "", DECLINED))


def _brl(amount_minor: int, currency: str) -> str:
    return format_currency(money.from_minor(amount_minor, currency), currency)


def instalment_label(option: instalments.Instalment, currency: str) -> str:
    """ "3x de R$ 40,00 sem juros"; "3x de R$ 33,33 (última de R$ 33,34) sem juros" where the division leaves cents."""
    each = _brl(option.each_minor, currency)
    if option.even:
        return _("%(count)dx of %(each)s, interest-free", count=option.count, each=each)
    last = _brl(option.last_minor, currency)
    return _("%(count)dx of %(each)s (last %(last)s), interest-free", count=option.count, each=each, last=last)


def instalment_choices(amount_minor: int, currency: str) -> list[tuple[str, str]]:
    """The card form's select: empty when the currency's cards take no instalments."""
    return [
        (str(option.count), instalment_label(option, currency)) for option in instalments.plan(amount_minor, currency)
    ]


def chosen_instalments(amount_minor: int, currency: str, count: int) -> str | None:
    """The label of a chosen count above 1, for the 3-D Secure and result pages (None for a single payment)."""
    if count <= 1:
        return None
    return instalment_label(instalments.split(amount_minor, count), currency)


def on_result(trade: Trade) -> dict[str, str | None]:
    """What a card trade's result page adds: its instalments, and why a checkout's card attempts ended it."""
    if trade.method != card_attempts.CARD:
        return {}
    attempts = card_attempts.declined(trade)
    refused_by_attempts = trade.status == states.REFUSED and len(attempts) >= card_attempts.MAX_CARD_ATTEMPTS
    refusal = None
    if refused_by_attempts:
        last = _("That was the last card attempt for this order.")
        refusal = f"{decline_message(attempts[-1].get('code'))} {last}"
    count = int(trade.details.get("installments") or 1)
    return {"instalments": chosen_instalments(trade.amount_minor, trade.currency, count), "card_refusal": refusal}
