"""CLABE: Banxico check digit, bank prefixes; every one-digit typo is caught."""

from types import SimpleNamespace

import pytest
from hypothesis import given, settings

from checkout.payouts import clabe, corridors
from tests.strategies import PROPERTY, clabe_check_digit, clabes, single_digit_corruptions

PUBLISHED = ["002010077777777771", "032180000118359719"]


@pytest.mark.parametrize("number", PUBLISHED)
def test_published_clabes_have_valid_check_digits(number):
    assert clabe.check_digit(number[:17]) == int(number[17])


def test_validate_names_the_bank():
    assert clabe.validate("002010077777777771") == "Banamex"


@pytest.mark.parametrize("position", range(18))
def test_any_single_digit_change_fails(position):
    number = PUBLISHED[0]
    corrupted = number[:position] + str((int(number[position]) + 1) % 10) + number[position + 1 :]
    with pytest.raises(ValueError):
        clabe.validate(corrupted)


@pytest.mark.parametrize(
    "number, message",
    [
        ("00201007777777777", "must be a CLABE of 18 digits"),
        ("00201007777777777a", "must be a CLABE of 18 digits"),
        ("999010077777777774", "CLABE bank prefix 999 is not a known bank"),
    ],
)
def test_rules(number, message):
    with pytest.raises(ValueError, match=message):
        clabe.validate(number)


# --- properties ----------------------------------------------------------------------------------------


@PROPERTY
@given(clabes())
def test_generated_clabes_validate_as_spei_accounts(number):
    assert clabe.check_digit(number[:17]) == int(clabe_check_digit(number[:17]))
    assert clabe.validate(number) == clabe.BANKS[number[:3]]
    spei = corridors.beneficiary(
        SimpleNamespace(
            country="MEX",
            method="SPEI",
            channel=None,
            name="Ana Souza",
            phone=None,
            account=number,
            account_type=None,
            bank_code=None,
            document_id=None,
            document_type=None,
        )
    )
    assert (spei.account, spei.account_type, spei.bank_code) == (number, "CLABE", number[:3])


@settings(PROPERTY, max_examples=30)
@given(clabes())
def test_every_single_digit_corruption_fails(number):
    # Weights 3, 7 and 1 are prime to 10, so any one changed digit moves the sum mod 10.
    for _, corrupted in single_digit_corruptions(number):
        with pytest.raises(ValueError, match="CLABE check digit is wrong"):
            clabe.validate(corrupted)
