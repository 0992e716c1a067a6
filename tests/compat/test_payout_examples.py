"""Each submit-a-payout page's request example, and the provider's sandbox test data (payout/data-for-test.md),
sent as published: accepted, priced, then PAID or REJECTED as the pages say.

The examples' required-field marks (`*`) and `//` comments are left out; masked values (`22*******99`) are
filled with valid ones through `{placeholders}`; every other byte is the page's.
"""

import pytest
from sqlalchemy import select

from checkout.db import db
from checkout.payouts.models import Payout
from tests import builders

from .helpers import final_status

# payout/submit-a-payout/brazil/pix.md
PIX_EXAMPLE = """{
     "name": "GUILHERME ****** SOUZA",
      "phone": "",
      "email": "payout@pagsmile.com",
     "amount": 150,
     "arrival_currency": "BRL",
     "custom_code" : "custom_code_your_order_id",
     "document_id": "{cpf}",
     "document_type": "CPF",
     "fee_bear": "merchant",
     "method": "PIX",
     "notify_url": "https://notify.url",
     "account": "{cpf}",
     "account_type": "CPF",
     "source_currency": "BRL",
     "additional_remark": "pagsmile payout test remark",
     "country": "BRA"
}"""
# payout/submit-a-payout/brazil/bank-transfer.md ("4" is the account digit, the digit field left empty)
BANK_TRANSFER_EXAMPLE = """{
     "name" : "GUILHERME ****** SOUZA",
      "phone": "",
      "email": "payout@pagsmile.com",
     "bank_code": "001",
     "account_type": "CHECKING",
     "account": "6{d3}84",
      "account_digit": "",
     "branch": "0{d2}8",
     "document_id": "{cpf}",
     "document_type": "CPF",
     "source_currency": "BRL",
     "arrival_currency": "BRL",
     "fee_bear": "merchant",
     "method": "BANKTRANSFER",
     "amount": "1.80",
     "notify_url": "https://notify.url",
     "custom_code" : "custom_code9982674851738108",
     "additional_remark": "pagsmile payout test remark",
     "country": "BRA"
}
"""
# payout/submit-a-payout/mexico/spei.md
SPEI_EXAMPLE = """{
     "name" : "GUILHERME ****** SOUZA",
      "phone" : "468{d4}068",
      "email" : "g{letters}me@gmail.com",
     "bank_code" : "40002",
     "account" : "002010077777777771",
     "account_type" : "clabe",
     "document_id" : "CUP800{d4}691",
     "document_type" : "RFC",
     "method" : "SPEI",
     "custom_code" : "custom_code9982674851738108",
     "fee_bear" : "merchant",
     "amount" : "0.51",
     "source_currency" : "MXN",
     "arrival_currency" : "MXN",
     "notify_url" : "https://notify.url",
     "additional_remark" : "pagsmile payout test remark",
     "country" : "MEX"
}"""
# payout/submit-a-payout/paypal/README.md
PAYPAL_EXAMPLE = """{
      "name" : "GUILHERME ****** SOUZA",
      "phone" : "468{d4}068",
      "email" : "g{letters}me@gmail.com",
     "account" : "paid@pagsmile.com",
     "account_type" : "EMAIL",
      "document_id" : "**********",
      "document_type" : "***",
     "method" : "WALLET",
     "channel" : "PayPal",
     "custom_code" : "custom_code_your_order_id",
     "fee_bear" : "merchant",
     "amount" : "0.51",
     "source_currency" : "USD",
     "arrival_currency" : "USD",
     "notify_url" : "https://your.notify.url",
     "additional_remark" : "pagsmile payout test",
     "country": "USA"
}"""
# payout/submit-a-payout/chile/banktransfer.md (its document is "just for test in sandbox")
CHILE_EXAMPLE = """{
     "name" : "GUILHERME ****** SOUZA",
      "phone" : "468{d4}068",
      "email" : "g{letters}me@gmail.com",
     "bank_code": "012",
     "account" : "00219400254640654321",
     "account_type" : "CHECKING",
     "document_id" : "123456789",
     "document_type" : "RUT",
     "method" : "BankTransfer",
     "custom_code" : "custom_code9982674851738108",
     "fee_bear" : "merchant",
     "amount" : "100",
     "source_currency" : "CLP",
     "arrival_currency" : "CLP",
     "notify_url" : "https://notify.url",
     "additional_remark" : "pagsmile payout test",
     "country": "CHL"
}"""
MASKS = {"cpf": builders.CPF, "d2": "00", "d3": "123", "d4": "0000", "letters": "uilher"}


def _fund_for(merchant, fund):
    for currency, amount in {"USD": "1000.00", "BRL": "1000.00", "MXN": "1000.00", "CLP": "100000"}.items():
        fund(merchant, currency, amount)


@pytest.mark.parametrize(
    "example, answer",
    [
        (PIX_EXAMPLE, ("custom_code_your_order_id", "150.00", "BRL", "151.82", "BRL")),
        (BANK_TRANSFER_EXAMPLE, ("custom_code9982674851738108", "1.80", "BRL", "2.82", "BRL")),
        (SPEI_EXAMPLE, ("custom_code9982674851738108", "0.51", "MXN", "1.38", "MXN")),
        (PAYPAL_EXAMPLE, ("custom_code_your_order_id", "0.51", "USD", "0.82", "USD")),
        (CHILE_EXAMPLE, ("custom_code9982674851738108", "100", "CLP", "102", "CLP")),
    ],
    ids=["pix", "bank-transfer", "spei", "paypal", "chile-bank-transfer"],
)
def test_each_submit_page_example_is_accepted_and_paid(
    send_payout_example, api, payout_api, merchant, fund, outbox, example, answer
):
    _fund_for(merchant, fund)
    status, body = send_payout_example("/api/payout", example, **MASKS)
    assert status == 200, body
    assert (body["code"], body["msg"], type(body["time"])) == (200, "success", int)
    data = body["data"]
    fields = ("custom_code", "arrival_amount", "arrival_currency", "source_amount", "source_currency")
    assert tuple(data[key] for key in fields) == answer
    assert data["status"] == "IN_PROCESSING" and data["id"].startswith("TS")
    assert final_status(api, payout_api, outbox, data["id"]) == ("PAID", ["PAID"])


def test_the_bank_transfer_digit_left_in_the_account_is_its_last(send_payout_example, app, merchant, fund):
    # The example's comment: '"4" is the account digit', with account_digit left empty.
    _fund_for(merchant, fund)
    _, body = send_payout_example("/api/payout", BANK_TRANSFER_EXAMPLE, **MASKS)
    with app.app_context():
        payout = db.session.scalar(select(Payout).where(Payout.transaction_id == body["data"]["id"]))
        assert (payout.account, payout.account_digit, payout.branch) == ("61238", "4", "0008")


@pytest.mark.parametrize("key", ["+5511987654321", "11987654321"])
def test_a_pix_phone_key_takes_plus_55_or_not(payout_api, merchant, fund, key):
    # The PIX page: "+5511987654321 or 11987654321, country code (+55) is optional".
    fund(merchant, "USD", "1000.00")
    body = builders.payout(account=key, account_type="Phone", phone="5511987654321")
    assert payout_api.post("/payout", body, expect=200)["data"]["status"] == "IN_PROCESSING"


@pytest.mark.parametrize("country", ["USA", "BRA", "GBR", "GLOBAL"])
def test_paypal_takes_the_beneficiarys_country(payout_api, merchant, fund, country):
    fund(merchant, "USD", "1000.00")
    paypal = {"method": "WALLET", "channel": "PayPal", "account": "paid@pagsmile.com", "account_type": "Email"}
    body = builders.payout(country=country, arrival_currency="USD", **paypal)
    data = payout_api.post("/payout", body, expect=200)["data"]
    assert (data["tax"], data["exchange_rate"]) == ("0.00", "1")  # the external wallet's pricing, no IOF


def test_paypal_outside_its_countries_is_refused(payout_api, merchant, fund, row_counts):
    fund(merchant, "USD", "1000.00")
    before = row_counts()
    body = builders.payout(country="CHN", arrival_currency="USD", method="WALLET", channel="PayPal")
    answer = payout_api.post("/payout", body, expect=400)
    assert (answer["code"], answer["data"]) == (
        4001000,
        {"err": "country: must be one of BRA, MEX, COL, CHL, ARG, ECU, GTM, PAN, PER, RUS, TUR, URY, GLOBAL"},
    )
    assert row_counts() == before


# payout/data-for-test.md, Brazil, Mexico and Chile; each account and its documented outcome.
TEST_DATA = {
    "pix": """{
    "name": "test name",
    "account_type": "Email",
    "account": "pagsmile_test_{outcome}@pagsmile.com",
    "document_type": "CPF",
    "document_id": "11032341882",
    "fee_bear": "merchant",
    "amount": "10",
    "source_currency": "USD",
    "arrival_currency": "BRL",
    "notify_url": "https://sandbox.transfersmile.com/api/notify/demo",
    "custom_code": "custom_code31195387357700_t04N",
    "additional_remark": "pix payout request",
    "country": "BRA",
    "method": "PIX"
}""",
    "bank-transfer": """{
    "name": "test name",
    "bank_code": "001",
    "branch": "0002",
    "account_type": "CHECKING",
    "account": "{account}",
    "document_type": "CPF",
    "document_id": "50284414727",
    "fee_bear": "merchant",
    "amount": "1",
    "source_currency": "USD",
    "arrival_currency": "BRL",
    "account_digit": "1",
    "notify_url": "https://sandbox.transfersmile.com/api/notify/demo",
    "custom_code": "custom_code31195387357700_t04N",
    "additional_remark": "banktransfer payout request",
    "country": "BRA",
    "method": "BANKTRANSFER"
}""",
    "spei": """{
    "name": "test name",
    "phone": "111111111111",
    "email": "test@pagsmile.com",
    "bank_code": "{bank_code}",
    "account": "{account}",
    "account_type": "clabe",
    "document_id": "MAMB780915969",
    "document_type": "RFC",
    "method": "SPEI",
    "custom_code" : "31443964215700_bqSE",
    "fee_bear": "merchant",
    "amount": "1",
    "source_currency": "USD",
    "arrival_currency": "MXN",
    "notify_url" : "https://sandbox.transfersmile.com/api/notify/demo",
    "additional_remark": "test",
    "country": "MEX"
}""",
    "chile": """{
    "name": "test name",
    "bank_code": "001",
    "account_type": "Checking",
    "account": "{account}",
    "document_type": "Rut",
    "document_id": "111111111",
    "fee_bear": "merchant",
    "amount": "1",
    "source_currency": "USD",
    "arrival_currency": "CLP",
    "notify_url": "https://sandbox.transfersmile.com/api/notify/demo",
    "custom_code": "test{timestamp}",
    "additional_remark": "test",
    "country": "CHL",
    "method": "BANKTRANSFER"
}""",
}


@pytest.mark.parametrize(
    "page, values, outcome",
    [
        ("pix", {"outcome": "paid"}, "PAID"),
        ("pix", {"outcome": "reject"}, "REJECTED"),
        ("bank-transfer", {"account": "22222222"}, "PAID"),
        ("bank-transfer", {"account": "11111111"}, "REJECTED"),
        ("spei", {"bank_code": "90646", "account": "646020146401877826"}, "PAID"),
        ("spei", {"bank_code": "40138", "account": "138580000007439590"}, "REJECTED"),
        # The SPEI page's own sandbox note: a PAID and a FAILED account.
        ("spei", {"bank_code": "40002", "account": "002010077777777771"}, "PAID"),
        ("spei", {"bank_code": "40014", "account": "014027000005555558"}, "REJECTED"),
        ("chile", {"account": "222222222222", "timestamp": "1"}, "PAID"),
        ("chile", {"account": "111111111111", "timestamp": "2"}, "REJECTED"),
    ],
)  # fmt: skip
def test_the_providers_sandbox_accounts_give_their_outcome(
    send_payout_example, api, payout_api, merchant, fund, outbox, page, values, outcome
):
    _fund_for(merchant, fund)
    status, body = send_payout_example("/api/payout", TEST_DATA[page], **values)
    assert status == 200, body
    assert final_status(api, payout_api, outbox, body["data"]["id"]) == (outcome, [outcome])


@pytest.mark.parametrize(("account", "outcome"), [("paid@pagsmile.com", "PAID"), ("ana@example.com", "REJECTED")])
def test_paypal_pays_only_its_sandbox_account(
    send_payout_example, api, payout_api, merchant, fund, outbox, account, outcome
):
    # The PayPal page: "paid@pagsmile.com ... success payout, any other PayPal account will be failed".
    _fund_for(merchant, fund)
    example = PAYPAL_EXAMPLE.replace("paid@pagsmile.com", account)
    _, body = send_payout_example("/api/payout", example, **MASKS)
    assert final_status(api, payout_api, outbox, body["data"]["id"]) == (outcome, [outcome])


def test_the_dry_run_quotes_paypal_by_the_beneficiarys_country(payout_api):
    quote = builders.dry_run(country="USA", method="WALLET", channel="PayPal", arrival_currency="USD", amount="0.51")
    data = payout_api.post("/payout/dry-run", quote, expect=200)["data"]
    assert (data["arrival_amount"], data["source_amount"], data["fee"], data["tax"]) == ("0.51", "0.82", "0.31", "0.00")
