"""Money: Decimal at the edges, integer minor units inside; the only place amounts convert."""

from __future__ import annotations

from decimal import Decimal, Inexact, InvalidOperation, localcontext

# ISO 4217 minor units of every currency the service handles (not CLDR's digits, which differ for some and
# change between releases: IDR and TWD have two here, as ISO says).
MINOR_UNITS: dict[str, int] = {
    # payin and payout
    "BRL": 2, "USD": 2, "EUR": 2, "GBP": 2, "MXN": 2, "CLP": 0, "COP": 2, "PEN": 2,
    "ARS": 2, "GTQ": 2, "UYU": 2, "RUB": 2, "TRY": 2,
    # payin only: the provider's country pages
    "BOB": 2, "CRC": 2, "PYG": 0, "EGP": 2,
    "BHD": 3, "KWD": 3, "OMR": 3, "QAR": 2, "SAR": 2, "AED": 2,
    "CNY": 2, "HKD": 2, "IDR": 2, "KRW": 0, "MYR": 2, "PHP": 2, "THB": 2, "TWD": 2,
}  # fmt: skip
# The currencies a payin may be in: every one a payin page of the provider names, and ours from before.
CURRENCIES = frozenset(MINOR_UNITS)


class MoneyError(ValueError):
    """An amount that cannot be represented exactly in its currency."""


def exponent(currency: str) -> int:
    try:
        return MINOR_UNITS[currency]
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
