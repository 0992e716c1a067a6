"""Submitting a payout as the provider documents it (payout/submit-a-payout): amount_type, the answer's
`id`, the duplicate's code."""

from decimal import Decimal

import pytest

from tests import builders


def _without_amount_type(**overrides):
    body = builders.payout(**overrides)
    del body["amount_type"]
    return body


def test_an_omitted_amount_type_fixes_the_arrival_amount(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    data = payout_api.post("/payout", _without_amount_type(amount="500.00"), expect=200)["data"]
    assert (data["arrival_amount"], data["arrival_currency"]) == ("500.00", "BRL")
    assert Decimal(data["source_amount"]) < Decimal("500.00")  # USD is worth more than BRL


@pytest.mark.parametrize(
    ("amount_type", "fee_bear", "fixed"),
    [
        ("arrival_amount", "merchant", "arrival_amount"),
        ("source_amount", "beneficiary", "source_amount"),
        ("source", "beneficiary", "source_amount"),  # this service's first spelling
        ("arrival", "merchant", "arrival_amount"),
    ],
)
def test_documented_amount_types(payout_api, merchant, fund, amount_type, fee_bear, fixed):
    fund(merchant, "USD", "1000.00")
    body = builders.payout(amount="100.00", amount_type=amount_type, fee_bear=fee_bear)
    data = payout_api.post("/payout", body, expect=200)["data"]
    assert data[fixed] == "100.00"  # the side amount_type fixes, when the other party bears the fee


def test_an_unknown_amount_type_is_an_invalid_parameter(payout_api, merchant):
    body = payout_api.post("/payout", builders.payout(amount_type="beneficiary_amount"), expect=400)
    assert (body["code"], body["msg"]) == (4001000, "invalid parameter")
    assert body["data"]["err"].startswith("amount_type:")


def test_the_answer_carries_the_documented_fields(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    answer = payout_api.post("/payout", builders.payout(), expect=200)
    assert (answer["code"], answer["msg"], type(answer["time"])) == (200, "success", int)
    data = answer["data"]
    documented = [
        "id",
        "custom_code",
        "arrival_amount",
        "arrival_currency",
        "source_amount",
        "source_currency",
        "status",
    ]
    assert {key: type(data[key]) for key in documented} == dict.fromkeys(documented, str)
    assert (data["id"], data["custom_code"], data["status"]) == (data["transaction_id"], "po-1", "IN_PROCESSING")


def test_a_repeated_custom_code_answers_order_already_existed(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    payout_api.post("/payout", builders.payout(), expect=200)
    again = payout_api.post("/payout", builders.payout(), expect=400)
    assert (again["code"], again["msg"]) == (4001010, "order already existed")


def test_a_payout_above_the_balance_answers_balance_insufficient_with_http_500(payout_api, merchant, fund, row_counts):
    # Every submit page and the API-code page: HTTP 500, code 5001102, "balance insufficient".
    fund(merchant, "USD", "101.37")  # the payout needs 101.38
    before = row_counts()
    answer = payout_api.post("/payout", builders.payout(), expect=500)
    assert (answer["code"], answer["msg"], type(answer["time"])) == (5001102, "balance insufficient", int)
    assert answer["data"] == {"err": "available 101.37 USD, needed 101.38 USD"}
    assert row_counts() == before
