"""installments: the provider's table says integer, its CreditCard page sends the string "1"; both are read."""

import pytest

from tests import builders


@pytest.mark.parametrize("installments", [1, "1", 12, "12", "06"])
def test_installments_as_a_number_or_its_digits(api, work, installments):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    card = {"token": token, "fingerprint": "fp-1", "issuer": "visa", "user_ip": "203.0.113.7"}
    body = api.post("/trade/pay", builders.direct("CreditCard", installments=installments, **card), expect=200)
    assert body["trade_status"] == "PROCESSING"
    work()
    assert api.post("/trade/query", {"trade_no": body["trade_no"]}, expect=200)["trade_status"] == "SUCCESS"


@pytest.mark.parametrize("installments", [0, "0", 13, "13", "1.0", 1.0, " 1", "", "١", True, "123"])
def test_installments_out_of_range_or_not_digits(api, row_counts, installments):
    before = row_counts()
    body = api.post("/trade/pay", builders.direct("CreditCard", installments=installments), expect=400)
    assert body["sub_msg"].startswith("installments: ")
    assert row_counts() == before
