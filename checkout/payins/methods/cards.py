"""Cards: the currencies a card page (or the payment-method summary) names, and the amounts each takes there."""

from __future__ import annotations

from decimal import Decimal

from ...errors import InvalidField
from . import countries

# (minimum, maximum, whole amounts only) by currency: the Brazil card page; the Bahrain, Kuwait, Oman, Qatar, Saudi
# and UAE card pages; the payment-method summary's card rows for Mexico, Colombia, Chile, Peru and Russia. USD, EUR
# and GBP (ours from before) have no page, so no range but the API's.
LIMITS: dict[str, tuple[str, str, bool]] = {
    "BRL": ("0.5", "50000", False),
    "MXN": ("1", "20000", False),
    "COP": ("300", "10000000", True),
    "CLP": ("1", "1000000", True),
    "PEN": ("5", "10000", False),
    **dict.fromkeys(("BHD", "KWD", "OMR", "QAR", "SAR", "AED"), ("0.5", "50000", False)),
    "RUB": ("1", "250000", False),
}
CURRENCIES = ("BRL", "USD", "EUR", "GBP", "MXN", "CLP", "COP", "PEN", "BHD", "KWD", "OMR", "QAR", "SAR", "AED", "RUB")


def check_currency(currency: str) -> None:
    if currency not in CURRENCIES:
        raise InvalidField("order_currency", f"must be one of {', '.join(CURRENCIES)} for a card")


def check(amount: Decimal, currency: str) -> None:
    """What every card operation (a direct card, a pre-authorization, a card vault's payment, the hosted checkout)
    takes: a card currency, and the amount its page allows."""
    check_currency(currency)
    if currency in LIMITS:
        minimum, maximum, integer = LIMITS[currency]
        countries.check_amount(amount, currency, "CreditCard", minimum, maximum, integer)


def takes(amount: Decimal, currency: str) -> bool:
    if currency not in CURRENCIES:
        return False
    if currency not in LIMITS:
        return True
    minimum, maximum, integer = LIMITS[currency]
    return countries.within(amount, minimum, maximum, integer)
