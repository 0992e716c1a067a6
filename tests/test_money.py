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


# ISO 4217's published minor units (list one) of every currency the service handles: a currency added to
# money.MINOR_UNITS must be added here with the value the standard publishes.
ISO_4217 = {
    "AED": 2, "ARS": 2, "BHD": 3, "BOB": 2, "BRL": 2, "CLP": 0, "CNY": 2, "COP": 2, "CRC": 2, "EGP": 2,
    "EUR": 2, "GBP": 2, "GTQ": 2, "HKD": 2, "IDR": 2, "KRW": 0, "KWD": 3, "MXN": 2, "MYR": 2, "OMR": 3,
    "PEN": 2, "PHP": 2, "PYG": 0, "QAR": 2, "RUB": 2, "SAR": 2, "THB": 2, "TRY": 2, "TWD": 2, "USD": 2,
    "UYU": 2,
}  # fmt: skip


def test_every_currency_has_its_published_iso_4217_minor_unit():
    assert set(money.MINOR_UNITS) <= set(ISO_4217), sorted(set(money.MINOR_UNITS) - set(ISO_4217))
    assert {c: money.exponent(c) for c in money.MINOR_UNITS} == {c: ISO_4217[c] for c in money.MINOR_UNITS}


@pytest.mark.parametrize(
    "amount, currency, minor, text",
    [
        (Decimal("1.250"), "BHD", 1250, "1.250"),
        (Decimal("1.25"), "BHD", 1250, "1.250"),  # fewer decimals than the currency's: the same amount
        (Decimal("0.001"), "KWD", 1, "0.001"),  # one fils
        (Decimal("12.345"), "OMR", 12345, "12.345"),
        (Decimal("300"), "KRW", 300, "300"),
        (Decimal("300.00"), "KRW", 300, "300"),  # trailing zeros are not decimals
        (Decimal("5000"), "PYG", 5000, "5000"),
        (Decimal("10000.50"), "IDR", 1000050, "10000.50"),  # ISO: two decimals, where CLDR's cash digits say none
        (Decimal("50.25"), "TWD", 5025, "50.25"),
        (Decimal("100"), "QAR", 10000, "100.00"),
    ],
)
def test_minor_units_of_the_three_zero_and_two_decimal_currencies(amount, currency, minor, text):
    assert money.to_minor(amount, currency) == minor
    assert money.format_minor(minor, currency) == text
    assert money.from_minor(minor, currency) == amount


@pytest.mark.parametrize(
    "amount, currency, places",
    [
        ("1.2345", "BHD", 3),
        ("0.0005", "KWD", 3),
        ("300.5", "KRW", 0),
        ("1.5", "PYG", 0),
        ("10000.505", "IDR", 2),
        ("50.255", "TWD", 2),
        ("1.001", "AED", 2),
    ],
)
def test_an_amount_finer_than_the_iso_minor_unit_is_refused(amount, currency, places):
    with pytest.raises(money.MoneyError, match=rf"^at most {places} decimal places for {currency}$"):
        money.to_minor(Decimal(amount), currency)


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
