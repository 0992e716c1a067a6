"""Every card operation takes only a card currency, within the amounts its page (or the summary) allows."""

import pytest

from tests import builders

CARD = {"fingerprint": "fp-1", "issuer": "visa", "user_ip": "203.0.113.7"}


@pytest.fixture
def token(api):
    return api.post("/card/token", builders.card(), expect=200)["token"]


def _direct(token: str, currency: str, amount: str, n: int = 1) -> dict:
    return builders.direct(
        "CreditCard", token=token, order_currency=currency, order_amount=amount, out_trade_no=f"card-{n}", **CARD
    )


@pytest.mark.parametrize(
    "currency, amount, sub_msg",
    [
        ("COP", "1000.50", "order_amount: must be a whole number of COP for CreditCard"),
        ("COP", "299", "order_amount: must be 300 to 10000000 COP for CreditCard"),
        ("MXN", "20000.01", "order_amount: must be 1 to 20000 MXN for CreditCard"),
        ("CLP", "1000001", "order_amount: must be 1 to 1000000 CLP for CreditCard"),
        ("BHD", "0.499", "order_amount: must be 0.5 to 50000 BHD for CreditCard"),
        ("KWD", "50000.001", "order_amount: must be 0.5 to 50000 KWD for CreditCard"),
        ("BHD", "1.2345", "order_amount: at most 3 decimal places for BHD"),
        (
            "ARS",
            "100",
            "order_currency: must be one of BRL, USD, EUR, GBP, MXN, CLP, COP, PEN, BHD, KWD, OMR, QAR, SAR, AED, RUB for a card",
        ),
    ],
)
def test_a_direct_card_and_a_pre_authorization_keep_the_card_pages_limits(
    api, row_counts, token, currency, amount, sub_msg
):
    before = row_counts()
    assert api.post("/trade/pay", _direct(token, currency, amount), expect=400)["sub_msg"] == sub_msg
    body = builders.pre_authorization(token, order_currency=currency, order_amount=amount)
    assert api.post("/trade/pre-authorization", body, expect=400)["sub_msg"] == sub_msg
    assert row_counts() == before


@pytest.mark.parametrize("currency, amount", [("BHD", "0.5"), ("KWD", "50000"), ("OMR", "1.250"), ("COP", "300")])
def test_the_limits_themselves_are_taken_to_the_last_minor_unit(api, token, currency, amount):
    trade_no = api.post("/trade/pay", _direct(token, currency, amount), expect=200)["trade_no"]
    query = api.post("/trade/query", {"trade_no": trade_no}, expect=200)
    shown = {"BHD": "0.500", "KWD": "50000.000", "OMR": "1.250", "COP": "300.00"}[currency]
    assert (query["order_currency"], query["order_amount"]) == (currency, shown)


def test_a_card_vault_pays_three_decimals_within_the_interfaces_range(api, token):
    vault = api.post("/vault/create", builders.card_vault(token), expect=200)["token"]
    api.post(f"/sandbox/vaults/{vault}/approve", expect=200)
    body = builders.vault_pay(vault, order_currency="BHD", order_amount="10.125")
    trade_no = api.post("/trade/pay", body, expect=200)["trade_no"]
    query = api.post("/trade/query", {"trade_no": trade_no}, expect=200)
    assert (query["order_currency"], query["order_amount"]) == ("BHD", "10.125")
    # The interface's pay-with-vault range (0.1 to 9,999,999) stands over the card page's 50,000.
    big = builders.vault_pay(vault, order_currency="BHD", order_amount="9999999", out_trade_no="vault-big")
    assert api.post("/trade/pay", big, expect=200)["trade_status"] == "PROCESSING"
    refused = builders.vault_pay(vault, order_currency="ARS", order_amount="10", out_trade_no="vault-ars")
    assert api.post("/trade/pay", refused, expect=400)["sub_msg"].startswith("order_currency: must be one of BRL, USD")
