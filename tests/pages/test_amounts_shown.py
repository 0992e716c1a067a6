"""An amount on a page is the amount charged: read back with its locale's signs it is the same number, whatever
digits the CLDR of the day gives its currency."""

from __future__ import annotations

import re
from decimal import Decimal

from babel import numbers
from hypothesis import given
from hypothesis import strategies as st

from checkout import money
from checkout.pages import i18n

LOCALES = ["en", "pt_BR", "es_MX", "es_CO", "es_CL", "es_PE", "es_AR"]
CURRENCIES = sorted(money.MINOR_UNITS | money.PAYOUT_MINOR_UNITS)


def read_back(text: str, locale: str) -> Decimal:
    """The number a reader takes from `text`: its digits, the locale's group sign dropped, its decimal sign a point."""
    group, decimal = numbers.get_group_symbol(locale), numbers.get_decimal_symbol(locale)
    body = re.search(rf"\d[\d{re.escape(group)}{re.escape(decimal)}]*", text).group(0)
    return Decimal(body.replace(group, "").replace(decimal, "."))


@st.composite
def charged(draw) -> tuple[Decimal, str]:
    currency = draw(st.sampled_from(CURRENCIES))
    minor = draw(st.integers(min_value=1, max_value=10**11))
    return money.from_minor(minor, currency), currency


@given(charged(), st.sampled_from(LOCALES))
def test_the_amount_shown_reads_back_as_the_amount_charged(amount_currency, locale):
    amount, currency = amount_currency
    shown = i18n._currency(amount, currency, locale)
    assert read_back(shown, locale) == amount, shown
    assert numbers.get_currency_symbol(currency, locale) in shown


def test_a_currency_whose_cldr_digits_are_fewer_keeps_the_cents_charged():
    """COP has 2 minor units in ISO 4217 (a trade may be 3000.50); CLDR 49 gives it none. Whole amounts are
    written as CLDR writes them, an amount with cents keeps them."""
    whole, cents = i18n._currency(Decimal("3000"), "COP", "es_CO"), i18n._currency(Decimal("3000.50"), "COP", "es_CO")
    assert whole == numbers.format_currency(Decimal("3000"), "COP", locale="es_CO")
    assert cents.endswith(numbers.get_decimal_symbol("es_CO") + "50")
    assert read_back(cents, "es_CO") == Decimal("3000.50")
