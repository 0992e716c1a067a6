import pytest

from checkout.payouts import clabe

PUBLISHED = ["002010077777777771", "032180000118359719"]


@pytest.mark.parametrize("number", PUBLISHED)
def test_published_clabes_have_valid_check_digits(number):
    assert clabe.check_digit(number[:17]) == int(number[17])


def test_validate_names_the_bank():
    assert clabe.validate("002010077777777771") == "Banamex"


@pytest.mark.parametrize("position", range(18))
def test_any_single_digit_change_fails(position):
    number = PUBLISHED[0]
    corrupted = number[:position] + str((int(number[position]) + 1) % 10) + number[position + 1:]
    with pytest.raises(ValueError):
        clabe.validate(corrupted)


@pytest.mark.parametrize("number, message", [
    ("00201007777777777", "must be a CLABE of 18 digits"),
    ("00201007777777777a", "must be a CLABE of 18 digits"),
    ("999010077777777774", "CLABE bank prefix 999 is not a known bank"),
])
def test_rules(number, message):
    with pytest.raises(ValueError, match=message):
        clabe.validate(number)
