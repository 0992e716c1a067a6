"""Money: Decimal at the edges, integer minor units inside; the only place amounts convert."""

from __future__ import annotations

from decimal import Decimal, Inexact, InvalidOperation, localcontext

# ISO 4217 minor units of the currencies the service handles.
MINOR_UNITS: dict[str, int] = {
    "BRL": 2,
    "USD": 2,
    "EUR": 2,
    "GBP": 2,
    "MXN": 2,
    "CLP": 0,
    "COP": 2,
    "PEN": 2,
}
# Currencies that only arrive by payout (never a payin's currency): ISO 4217 minor units as well.
PAYOUT_MINOR_UNITS: dict[str, int] = {"ARS": 2, "GTQ": 2, "UYU": 2, "RUB": 2, "TRY": 2}

CURRENCIES = frozenset(MINOR_UNITS)


class MoneyError(ValueError):
    """An amount that cannot be represented exactly in its currency."""


def exponent(currency: str) -> int:
    try:
        return MINOR_UNITS[currency] if currency in MINOR_UNITS else PAYOUT_MINOR_UNITS[currency]
    except KeyError:
        raise MoneyError(f"unsupported currency {currency!r}") from None


def parse_decimal(value) -> Decimal:
    """A finite Decimal from a JSON number (parsed as Decimal), an int or a numeric string."""
    if isinstance(value, bool) or not isinstance(value, (Decimal, int, str)):
        raise MoneyError("must be a number or a numeric string")
    if isinstance(value, str):
        text = value.strip()
        if not text or text != value or not all(c in "0123456789.-+" for c in text):
            raise MoneyError("must be a plain decimal number")
        value = text
    try:
        amount = Decimal(value)
    except InvalidOperation:
        raise MoneyError("must be a plain decimal number") from None
    if not amount.is_finite():
        raise MoneyError("must be a finite number")
    return amount


def decimals(amount: Decimal) -> int:
    """Decimal places that carry a non-zero digit, counted exactly (no context rounding)."""
    _, digits, exp = amount.as_tuple()
    if not isinstance(exp, int):
        return 0
    places = max(0, -exp)
    for digit in reversed(digits):
        if places == 0 or digit != 0:
            break
        places -= 1
    return places


def to_minor(amount: Decimal, currency: str) -> int:
    """Exact conversion; an amount finer than the currency's minor unit is an error, never rounded."""
    places = exponent(currency)
    if decimals(amount) > places:
        raise MoneyError(f"at most {places} decimal places for {currency}")
    with localcontext() as context:
        context.prec = len(amount.as_tuple().digits) + places + 2
        context.traps[Inexact] = True
        return int(amount.scaleb(places))


def from_minor(minor: int, currency: str) -> Decimal:
    places = exponent(currency)
    return Decimal(minor).scaleb(-places).quantize(Decimal(1).scaleb(-places))


def format_minor(minor: int, currency: str) -> str:
    """The amount as the APIs print it: '12.30', '1500' for CLP."""
    return str(from_minor(minor, currency))
