"""The payout page's figures in the payee's currency: sent, fee, taxes and what arrives, adding up to the cent."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from ..payouts import pricing


@dataclass(frozen=True)
class Figures:
    """What the page shows for one method, all in the arrival currency. `sent` is None when the merchant pays
    the fee and taxes on top (the payee is shown only what arrives and what the merchant pays)."""

    arrives: Decimal
    fee: Decimal
    taxes: Decimal
    sent: Decimal | None


def figures(quote: pricing.Quote, merchant_pays: bool) -> Figures:
    """The quote as the payee reads it. The fee and taxes are charged in the source currency and what arrives
    is converted once, rounded down, from what is left; each figure converted on its own would not add up
    (2,000.00 MXN once showed 2,000.15 sent). So: sent is the session's amount, as asked; what arrives is the
    payout's own arrival amount; taxes are converted at the quote's rate; the fee is what is left between them,
    so sent - fee - taxes = arrives exactly (it differs from the fee converted alone by the conversion's
    rounding, a few cents at most)."""
    taxes = quote.in_arrival_currency(quote.tax)
    if merchant_pays:
        return Figures(arrives=quote.arrival_amount, fee=quote.in_arrival_currency(quote.fee), taxes=taxes, sent=None)
    sent = quote.amount  # a session's quote is for an arrival amount: the amount is in the arrival currency
    return Figures(arrives=quote.arrival_amount, fee=sent - quote.arrival_amount - taxes, taxes=taxes, sent=sent)
