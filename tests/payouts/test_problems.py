"""corridors.problems: every broken beneficiary rule at once, the same rules submit raises one by one."""

from types import SimpleNamespace

import pytest

from checkout.errors import InvalidField
from checkout.payouts import corridors
from tests import builders


def request(**fields) -> SimpleNamespace:
    empty = dict.fromkeys(("channel", "name", "phone", "account", "account_type", "document_id", "document_type"), None)
    return SimpleNamespace(**{**empty, "bank_code": None, "branch": None, "account_digit": None, **fields})


def found(req) -> list[tuple[str, str]]:
    return [(problem.field, problem.rule) for problem in corridors.problems(req)]


def test_an_empty_pix_request_breaks_every_rule_it_has():
    assert found(request(country="BRA", method="PIX")) == [
        ("name", "is required for this method"),
        ("account_type", "is required for this method"),
        ("account", "is required for this method"),
        ("document_id", "is required for this method"),
    ]


def test_a_wrong_bank_transfer_names_each_field_once():
    req = request(
        country="BRA",
        method="BANKTRANSFER",
        name="Ana Souza",
        phone="not a phone",
        bank_code="999",
        branch="12",
        account="12a",
        account_digit="ABC",
        account_type="LOAN",
        document_id="39053344704",
    )
    assert [field for field, _ in found(req)] == [
        "phone",
        "bank_code",
        "branch",
        "account",
        "account_digit",
        "account_type",
        "document_id",
    ]


def test_a_key_of_its_type_is_checked_once_the_type_is_known():
    req = request(country="BRA", method="PIX", name="Ana", account_type="PHONE", account="123", document_id="1")
    assert found(req) == [
        ("account", "must be a Brazilian phone key: +55 (optional), an area code and the number"),
        ("document_id", "must be a valid CNPJ (digits only)"),
    ]


def test_wallet_channel_and_account_together():
    req = request(country="GLOBAL", method="WALLET", channel="NOPE", account=None)
    assert found(req) == [
        ("channel", "must be one of PAYPAL, SKRILL, CHECKOUT"),
        ("account", "is required for this method"),
    ]


def test_a_check_that_stops_at_its_first_rule_still_gives_it():
    req = request(country="MEX", method="SPEI", name="Ana", account="002010077777777772")
    assert found(req) == [("account", "CLABE check digit is wrong")]


@pytest.mark.parametrize(
    "req",
    [
        request(country="BRA", method="PIX"),
        request(country="BRA", method="BANKTRANSFER", name="Ana", bank_code="341", branch="1"),
        request(country="GLOBAL", method="WALLET", channel="PAYPAL", account="ana"),
    ],
)
def test_submit_raises_the_first_problem_found(req):
    first = corridors.problems(req)[0]
    with pytest.raises(InvalidField) as raised:
        corridors.beneficiary(req)
    assert (raised.value.field, raised.value.rule) == (first.field, first.rule)


def test_a_valid_request_has_no_problem_and_is_normalised_as_before():
    req = request(country="BRA", method="PIX", name="Ana", account_type="PHONE", account="11987654321")
    req.document_id = builders.CPF
    assert found(req) == []
    assert corridors.beneficiary(req).account == "+5511987654321"
