"""Money conversion: exact Decimal <-> minor units per currency, refusal of finer amounts."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from checkout import money
from tests.strategies import PROPERTY


@pytest.mark.parametrize(
    "amount, currency, minor",
    [
        (Decimal("12.34"), "BRL", 1234),
        (Decimal("0.01"), "USD", 1),
        (Decimal("1500"), "CLP", 1500),
        (Decimal("12.30"), "MXN", 1230),
        (Decimal("1E+2"), "BRL", 10000),
    ],
)
def test_to_minor_is_exact(amount, currency, minor):
    assert money.to_minor(amount, currency) == minor
    assert money.from_minor(minor, currency) == amount


def test_finer_than_minor_unit_is_refused_not_rounded():
    with pytest.raises(money.MoneyError, match="at most 2 decimal places"):
        money.to_minor(Decimal("1.005"), "BRL")
    with pytest.raises(money.MoneyError, match="at most 0 decimal places"):
        money.to_minor(Decimal("10.5"), "CLP")


def test_format_minor_prints_the_currency_exponent():
    assert money.format_minor(1230, "BRL") == "12.30"
    assert money.format_minor(5, "USD") == "0.05"
    assert money.format_minor(1500, "CLP") == "1500"


@pytest.mark.parametrize("value", ["NaN", "Infinity", "1e5x", " 1", "", True, 1.5, None, "0x10"])
def test_parse_decimal_rejects_non_numbers_and_floats(value):
    with pytest.raises(money.MoneyError):
        money.parse_decimal(value)


def test_parse_decimal_accepts_json_numbers_and_numeric_strings():
    assert money.parse_decimal("10.50") == Decimal("10.50")
    assert money.parse_decimal(Decimal("3.1")) == Decimal("3.1")
    assert money.parse_decimal(7) == Decimal(7)


def test_unknown_currency():
    with pytest.raises(money.MoneyError, match="unsupported currency 'XYZ'"):
        money.to_minor(Decimal(1), "XYZ")


# --- properties ----------------------------------------------------------------------------------

currencies = st.sampled_from(sorted(money.MINOR_UNITS))
# Wider than any amount the APIs accept (99,999,999,999,999.99 at most), negative for ledger debits.
minor_amounts = st.integers(min_value=-(10**17), max_value=10**17)


@PROPERTY
@given(currencies, minor_amounts)
def test_minor_units_round_trip_through_decimal_and_text(currency, minor):
    places = money.exponent(currency)
    amount = money.from_minor(minor, currency)
    assert amount * 10**places == minor
    assert amount.as_tuple().exponent == -places  # always printed with the currency's decimals
    assert money.to_minor(amount, currency) == minor
    text = money.format_minor(minor, currency)
    assert money.to_minor(money.parse_decimal(text), currency) == minor
    assert ("." in text) == (places > 0)


@PROPERTY
@given(currencies, minor_amounts, st.integers(min_value=0, max_value=6), st.booleans())
def test_any_spelling_of_an_exact_amount_converts_exactly(currency, minor, padding, normalized):
    """12.3, 12.30, 12.3000 and 1.23E+1 are the same amount; trailing zeros are not extra decimals."""
    places = money.exponent(currency)
    exact = Decimal(minor).scaleb(-places)
    spelled = exact.normalize() if normalized else exact.quantize(Decimal(1).scaleb(-(places + padding)))
    assert spelled == exact
    assert money.to_minor(spelled, currency) == minor
    assert money.from_minor(money.to_minor(spelled, currency), currency) == spelled


@PROPERTY
@given(
    currencies,
    st.integers(min_value=-(10**15), max_value=10**15).filter(lambda n: n % 10 != 0),
    st.integers(min_value=1, max_value=8),
)
def test_amounts_finer_than_the_currency_are_refused_never_rounded(currency, digits, extra):
    places = money.exponent(currency)
    # The last digit is non-zero, so the amount has exactly places + extra decimals that count.
    amount = Decimal(digits).scaleb(-(places + extra))
    assert money.decimals(amount) == places + extra
    message = f"at most {places} decimal places for {currency}"
    with pytest.raises(money.MoneyError, match=message):
        money.to_minor(amount, currency)
    with pytest.raises(money.MoneyError, match=message):
        money.to_minor(money.parse_decimal(f"{amount:f}"), currency)
