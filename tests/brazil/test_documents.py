"""CPF and CNPJ validation: valid documents pass, typos fail except where the mod-11 rule is blind."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkout.brazil.documents import brazilian_document
from checkout.errors import InvalidField
from checkout.payouts import accounts
from tests.strategies import (
    CNPJ_WEIGHTS,
    CPF_WEIGHTS,
    PROPERTY,
    cnpjs,
    cpfs,
    has_valid_check_digits,
    single_digit_corruptions,
    with_check_digits,
)

WEIGHTS = {"CPF": CPF_WEIGHTS, "CNPJ": CNPJ_WEIGHTS}
# Where one changed digit can leave both check digits as they were. The Receita's rule folds remainders
# 0 and 1 into the digit 0, so a change that moves a sum from 0 to 1 (or back) is invisible when it
# does so in both sums: for a CPF, the first digit (weight 10, then 11 = 0 mod 11: the second check
# digit ignores it) and the sixth (weights 5 and 6, 5 + 6 = 11); for a CNPJ, the digits whose two
# weights add up to 11 (5 and 6 at positions 0 and 8, 9 and 2 at position 4).
BLIND = {"CPF": {0, 5}, "CNPJ": {0, 4, 8}}


def reference_valid(kind: str, number: str) -> bool:
    return has_valid_check_digits(number, WEIGHTS[kind]) and len(set(number)) > 1


@PROPERTY
@given(
    st.sampled_from(["CPF", "CNPJ"]).flatmap(
        lambda kind: st.tuples(st.just(kind), cpfs() if kind == "CPF" else cnpjs())
    )
)
def test_documents_with_valid_check_digits_pass_every_validator(document):
    kind, number = document
    assert brazilian_document(kind, number)
    assert not brazilian_document("CNPJ" if kind == "CPF" else "CPF", number)  # the length tells them apart
    assert accounts.pix_key(number, kind) == number


@settings(PROPERTY, max_examples=30)
@given(
    st.sampled_from(["CPF", "CNPJ"]).flatmap(
        lambda kind: st.tuples(st.just(kind), cpfs() if kind == "CPF" else cnpjs())
    )
)
def test_single_digit_corruptions_fail_unless_the_mod11_rule_is_blind_there(document):
    kind, number = document
    for position, corrupted in single_digit_corruptions(number):
        accepted = brazilian_document(kind, corrupted)
        # The service agrees with the rule written out in tests/strategies.py, typo by typo.
        assert accepted == reference_valid(kind, corrupted), (position, corrupted)
        if position not in BLIND[kind]:
            assert not accepted, (position, corrupted)


@pytest.mark.parametrize(
    "kind, number, typo",
    [
        ("CPF", "39053344705", "49053344705"),  # the README's test CPF: first digit 3 -> 4
        ("CNPJ", "11222333004500", "31222333004500"),
        ("CNPJ", "11222333004500", "11228333004500"),
        ("CNPJ", "11222333004500", "11222333204500"),
    ],
)
def test_the_blind_spots_are_real(kind, number, typo):
    """Why the property above has an exception: these typos keep valid check digits, so no validator
    following the Receita's rule (the service's included) can catch them."""
    assert brazilian_document(kind, number) and brazilian_document(kind, typo)


@pytest.mark.parametrize("kind, number", [("CPF", digit * 11) for digit in "0123456789"] + [("CNPJ", "0" * 14)])
def test_one_repeated_digit_is_refused_although_its_check_digits_add_up(kind, number):
    assert with_check_digits(number[:-2], WEIGHTS[kind]) == number
    assert not brazilian_document(kind, number)
    with pytest.raises(InvalidField):
        accounts.pix_key(number, kind)
