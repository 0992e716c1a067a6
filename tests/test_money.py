from decimal import Decimal

import pytest

from checkout import money


@pytest.mark.parametrize("amount, currency, minor", [
    (Decimal("12.34"), "BRL", 1234), (Decimal("0.01"), "USD", 1), (Decimal("1500"), "CLP", 1500),
    (Decimal("12.30"), "MXN", 1230), (Decimal("1E+2"), "BRL", 10000),
])
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
