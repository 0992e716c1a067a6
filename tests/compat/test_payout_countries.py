"""The submit-a-payout pages beyond Brazil, Mexico, Chile's bank transfer and PayPal, sent as published: each
page's request example answered field by field as its documented response, and each sandbox test account
(payout/data-for-test.md and the pages' sandbox notes) driven to its documented outcome.

As in test_payout_examples: the `*` marks and `//` comments are left out, masked values (`12******9`) are
filled through `{placeholders}`. Two pages' texts are not JSON beyond those: the Turkish examples end with a
comma after their last field, and the Transfiya test data misses the comma after `"name"`; both are mended
here, every other byte is the page's.
"""

import json
import re
from datetime import timedelta

import pytest

from checkout import clock
from tests import builders
from tests.compat.helpers import final_status

from .payout_country_examples import EXAMPLES, MASKS, filled

# What our answer says where the documented response is a sample of another request: the amounts this
# request makes (sandbox rates, fees and taxes: docs/payout.md), and, for four pages, the currency their own
# request names where the sample says another ("COL" on the Colombian pages, PEN on the Ecuadorian, BRL on
# the Turkish).
ANSWERS = {
    "argentina-banktransfer": ("1.80", "ARS", "1.22", "USD"),
    "argentina-wallet": ("1.80", "ARS", "0.37", "USD"),
    "colombia-banktransfer": ("100.00", "COP", "101.50", "COP"),
    "colombia-transfiya": ("100.00", "COP", "101.50", "COP"),
    "colombia-wallet": ("100.00", "COP", "101.80", "COP"),
    "chile-wallet": ("100", "CLP", "102", "CLP"),
    "ecuador-banktransfer": ("100.00", "USD", "101.50", "USD"),
    "guatemala-banktransfer": ("1.01", "GTQ", "1.26", "USD"),
    "panama-banktransfer": ("1.01", "USD", "2.02", "USD"),
    "peru-banktransfer": ("100.00", "PEN", "101.51", "PEN"),
    "russia-wallet": ("100.00", "RUB", "1.42", "USD"),
    "turkey-banktransfer": ("10.01", "TRY", "1.50", "USD"),
    "turkey-wallet": ("10.01", "TRY", "0.66", "USD"),
    "uruguay-banktransfer": ("1.80", "UYU", "1.27", "USD"),
    "pagsmile-wallet": ("10.00", "BRL", "2.21", "USD"),
}
# Where our currency differs from the documented sample's, and why.
DOCUMENTED_CURRENCY_SLIPS = {
    "colombia-banktransfer": {"arrival_currency", "source_currency"},  # "COL", USD: the request pays COP in COP
    "colombia-transfiya": {"arrival_currency", "source_currency"},
    "colombia-wallet": {"source_currency"},  # the request pays from COP
    "chile-wallet": {"source_currency"},  # ... from CLP
    "ecuador-banktransfer": {"arrival_currency"},  # PEN: Ecuador's payouts arrive in USD
    "peru-banktransfer": {"source_currency"},  # the request pays from PEN
    "turkey-banktransfer": {"arrival_currency"},  # BRL: Turkey's payouts arrive in TRY
    "turkey-wallet": {"arrival_currency"},
}


def fund_all(merchant, fund):
    for currency in ("USD", "COP", "CLP", "PEN", "ARS", "TRY"):
        fund(merchant, currency, "100000")


@pytest.mark.parametrize("page", list(EXAMPLES))
def test_each_new_submit_page_example_is_answered_as_documented(
    send_payout_example, api, payout_api, merchant, fund, outbox, page
):
    fund_all(merchant, fund)
    example, documented = EXAMPLES[page]
    sent = json.loads(filled(example))
    status, body = send_payout_example("/api/payout", example, **MASKS)
    assert status == 200, body
    assert (body["code"], body["msg"], type(body["time"])) == (200, "success", int)
    data = body["data"]
    # Every documented field, of the documented type; the documented status; an id shaped like the provider's.
    assert {key: type(data[key]) for key in documented} == {key: type(value) for key, value in documented.items()}
    assert data["status"] == documented["status"] == "IN_PROCESSING"
    assert data["id"][:2] == documented["id"][:2] == "TS"
    assert data["custom_code"] == sent["custom_code"]
    fields = ("arrival_amount", "arrival_currency", "source_amount", "source_currency")
    assert tuple(data[key] for key in fields) == ANSWERS[page]
    for key in ("arrival_currency", "source_currency"):
        slipped = key in DOCUMENTED_CURRENCY_SLIPS.get(page, set())
        assert (data[key] != documented[key]) == slipped, key
        assert data[key] == sent[key]
    assert final_status(api, payout_api, outbox, data["id"]) == ("PAID", ["PAID"])


# payout/data-for-test.md for the new corridors, and the sandbox notes of the Colombian and Russian wallet pages.
TEST_DATA = {
    "argentina-banktransfer": """{
    "name":"test name",
    "phone": "91111111111",
    "email": "test@test.com",
    "bank_code": "072",
    "account_type": "SAVINGS",
    "account": "0721111111111111111111",
    "document_type" : "CUIT",
    "document_id": "22222222222",
    "fee_bear": "merchant",
    "amount": "100",
    "source_currency": "USD",
    "arrival_currency": "ARS",
    "notify_url": "https://sandbox.transfersmile.com/api/notify/demo",
    "custom_code": "custom_code31195387357700_t04N",
    "additional_remark": "banktransfer payout request",
    "country": "ARG",
    "method": "BANKTRANSFER"
}""",
    "chile-wallet": """{
    "account_type": "EMAIL",
    "account": "{account}",
    "fee_bear": "merchant",
    "amount": "1",
    "source_currency": "USD",
    "arrival_currency": "CLP",
    "notify_url": "https://sandbox.transfersmile.com/api/notify/demo",
    "custom_code": "test${timestamp}",
    "additional_remark": "test",
    "country": "CHL",
    "method": "WALLET",
    "channel": "Vita"
}""",
    "colombia-banktransfer": """{
    "name": "test name",
    "phone": "573020481705",
    "email": "test@pagsmile.com",
    "bank_code": "007",
    "account_type": "CHECKING",
    "account": "{account}",
    "document_type": "CC",
    "document_id": "123456789",
    "fee_bear": "merchant",
    "amount": "100",
    "source_currency": "USD",
    "arrival_currency": "COP",
    "notify_url": "https://sandbox.transfersmile.com/api/notify/demo",
    "custom_code": "custom_code0301",
    "additional_remark": "test",
    "country": "COL",
    "method": "BANKTRANSFER"
}""",
    "colombia-wallet": """{
    "account_type": "PHONE",
    "account": "{account}",
    "fee_bear": "merchant",
    "amount": "1",
    "source_currency": "USD",
    "arrival_currency": "COP",
    "notify_url": "https://sandbox.transfersmile.com/api/notify/demo",
    "custom_code": "test${timestamp}",
    "additional_remark": "test",
    "country": "COL",
    "method": "WALLET",
    "channel": "Tpaga"
}""",
    # The page's text misses the comma after "test name"; mended here.
    "colombia-transfiya": """{
    "name": "test name",
    "account_type": "PHONE",
    "account": "{account}",
    "document_id": "123456789",
    "document_type": "CC",
    "method": "Transfiya",
    "fee_bear": "merchant",
    "amount": "1",
    "source_currency": "USD",
    "arrival_currency": "COP",
    "notify_url": "https://sandbox.transfersmile.com/api/notify/demo",
    "custom_code": "test${timestamp}",
    "additional_remark": "test",
    "country": "COL"
}""",
    "peru-banktransfer": """{
    "name": "test name",
    "bank_code": "0001",
    "account_type": "Savings",
    "account": "{account}",
    "document_type": "DNI",
    "document_id": "11111111",
    "fee_bear": "merchant",
    "amount": "1",
    "source_currency": "USD",
    "arrival_currency": "PEN",
    "notify_url": "https://sandbox.transfersmile.com/api/notify/demo",
    "custom_code": "test${timestamp}",
    "additional_remark": "test",
    "country": "PER",
    "method": "BANKTRANSFER",
    "region": "La Libertad"
}""",
    "ecuador-banktransfer": """{
    "name": "test name",
    "bank_code": "0001",
    "account_type": "Checking",
    "account": "{account}",
    "document_type" : "CEDULA",
    "document_id": "1111111111",
    "fee_bear": "merchant",
    "amount": "0.5",
    "source_currency": "USD",
    "arrival_currency": "USD",
    "notify_url" : "https://sandbox.transfersmile.com/api/notify/demo",
    "custom_code": "test${timestamp}",
    "additional_remark": "test22031801",
    "country": "ECU",
    "method": "BANKTRANSFER"
}""",
    "uruguay-banktransfer": """{
    "name": "test name",
    "phone": "91111111111",
    "email": "test@test.com",
    "bank_code": "1137",
    "account_type": "SAVINGS",
    "account": "000001111111",
    "document_type": "CI",
    "document_id": "66666666",
    "fee_bear": "merchant",
    "amount": "1",
    "source_currency": "USD",
    "arrival_currency": "UYU",
    "notify_url": "https://sandbox.transfersmile.com/api/notify/demo",
    "custom_code": "test${timestamp}",
    "additional_remark": "test22031801",
    "country": "URY",
    "method": "BANKTRANSFER"
}""",
}


@pytest.mark.parametrize(
    "page, values, outcome",
    [
        ("argentina-banktransfer", {}, "PAID"),  # its REJECTED tab is empty
        ("chile-wallet", {"account": "paid@pagsmile.com"}, "PAID"),
        ("chile-wallet", {"account": "rejected@pagsmile.com"}, "REJECTED"),
        ("colombia-banktransfer", {"account": "222222222222"}, "PAID"),
        ("colombia-banktransfer", {"account": "111111111111"}, "REJECTED"),
        ("colombia-wallet", {"account": "+57322222222"}, "PAID"),
        ("colombia-wallet", {"account": "+57311111111"}, "REJECTED"),  # the tab's comment says PAID; tab and page: failed
        ("colombia-transfiya", {"account": "572222222222"}, "PAID"),
        ("colombia-transfiya", {"account": "571111111111"}, "REJECTED"),
        ("peru-banktransfer", {"account": "2222222222222"}, "PAID"),
        ("peru-banktransfer", {"account": "1111111111111"}, "REJECTED"),
        ("ecuador-banktransfer", {"account": "2222222222"}, "PAID"),
        ("ecuador-banktransfer", {"account": "1111111111"}, "REJECTED"),
        ("uruguay-banktransfer", {}, "PAID"),  # its REJECTED tab is empty
    ],
)  # fmt: skip
def test_the_providers_sandbox_accounts_of_the_new_corridors(
    send_payout_example, api, payout_api, merchant, fund, outbox, page, values, outcome
):
    fund_all(merchant, fund)
    status, body = send_payout_example("/api/payout", TEST_DATA[page], **values)
    assert status == 200, body
    assert final_status(api, payout_api, outbox, body["data"]["id"]) == (outcome, [outcome])


@pytest.mark.parametrize(
    "page, account, outcome",
    [
        # The Russian wallet page: "79991112244 ... for testing Failed payout, any other Qiwi account will be successful".
        ("russia-wallet", "79991112244", "REJECTED"),
        ("russia-wallet", "79991112245", "PAID"),
        # The Colombian wallet page: "+57311111111 ... Failed payout, any other Tpaga account will be successful".
        ("colombia-wallet", "+57311111111", "REJECTED"),
        ("colombia-wallet", "+573170000412", "PAID"),
    ],
)
def test_the_wallet_pages_sandbox_notes(
    send_payout_example, api, payout_api, merchant, fund, outbox, page, account, outcome
):
    fund_all(merchant, fund)
    example = EXAMPLES[page][0]
    masked = {"russia-wallet": "7317{d4}412", "colombia-wallet": "+57317{d4}412"}[page]
    status, body = send_payout_example("/api/payout", example.replace(masked, account), **MASKS)
    assert status == 200, body
    assert final_status(api, payout_api, outbox, body["data"]["id"]) == (outcome, [outcome])


def _paid(send_payout_example, api, page: str) -> str:
    _, body = send_payout_example("/api/payout", EXAMPLES[page][0], **MASKS)
    api.post("/sandbox/clock", {"advance_seconds": 360}, expect=200)
    return body["data"]["id"]


def test_the_pagsmile_wallet_is_refunded_in_full_only(send_payout_example, api, merchant, fund, outbox):
    # The seed's refund rules name the service's own wallet for REFUNDED, not for PARTIAL_REFUNDED.
    fund_all(merchant, fund)
    tid = _paid(send_payout_example, api, "pagsmile-wallet")
    partial = api.post(f"/sandbox/payouts/{tid}/refund", {"amount": "1.00"}, expect=400)
    assert partial["sub_msg"] == "WALLET payouts in BRA are only refunded in full"
    assert api.post(f"/sandbox/payouts/{tid}/refund", expect=200)["status"] == "REFUNDED"
    assert [p["status"] for kind, _, p in outbox(tid) if kind == "payout.notification"] == ["PAID", "REFUNDED"]


@pytest.mark.parametrize(
    "page, country, method",
    [
        ("argentina-banktransfer", "ARG", "BANKTRANSFER"),
        ("colombia-transfiya", "COL", "TRANSFIYA"),
        ("chile-wallet", "CHL", "WALLET"),
        ("turkey-wallet", "TUR", "WALLET"),
        ("guatemala-banktransfer", "GTQ", "BANKTRANSFER"),
    ],
)
def test_the_new_corridors_are_not_refunded(send_payout_example, api, merchant, fund, page, country, method):
    fund_all(merchant, fund)
    tid = _paid(send_payout_example, api, page)
    never = api.post(f"/sandbox/payouts/{tid}/refund", expect=400)
    assert (never["sub_code"], never["sub_msg"]) == (
        "payout-status-invalid",
        f"{method} payouts in {country} are not refunded by the bank",
    )


QUOTE_FIELDS = ("fee", "tax", "amount", "settlement_amount", "arrival_amount", "source_amount", "exchange_rate")


@pytest.mark.parametrize(
    "page", [page for page in EXAMPLES if json.loads(filled(EXAMPLES[page][0]))["source_currency"] == "USD"]
)
def test_the_dry_run_quotes_each_new_corridor_as_its_payout_is_priced(
    send_payout_example, payout_api, merchant, fund, page
):
    # The dry run takes USD, GBP or EUR (the seed); every example paying from USD is quoted as it is then priced.
    fund_all(merchant, fund)
    sent = json.loads(filled(EXAMPLES[page][0]))
    keys = ("source_currency", "arrival_currency", "amount", "fee_bear", "method", "channel", "country")
    quote = {key: sent[key] for key in keys if key in sent} | {"timestamp": builders.now_unix()}
    quoted = payout_api.post("/payout/dry-run", quote, expect=200)["data"]
    _, submitted = send_payout_example("/api/payout", EXAMPLES[page][0], **MASKS)
    detail = payout_api.post(
        "/payout/detail", {"transaction_id": submitted["data"]["id"], "timestamp": builders.now_unix()}, expect=200
    )["data"]
    assert {key: quoted[key] for key in QUOTE_FIELDS} == {key: detail[key] for key in QUOTE_FIELDS}
    assert (quoted["arrival_currency"], quoted["source_currency"]) == (sent["arrival_currency"], "USD")


@pytest.mark.parametrize(
    "changes, err",
    [
        ({"country": "ARG", "arrival_currency": "ARS", "method": "WALLET", "channel": "Skrill"},
         "channel: must be one of MERCADOPAGO for WALLET"),
        ({"country": "PER", "arrival_currency": "PEN", "method": "WALLET", "channel": "Yape"},
         "method: must be one of BANKTRANSFER for PER"),
        ({"country": "ECU", "arrival_currency": "ECS", "method": "BANKTRANSFER"},
         "arrival_currency: Input should be 'BRL', 'MXN', 'USD', 'COP', 'CLP', 'ARS', 'PEN', 'GTQ', 'UYU', 'RUB' or 'TRY'"),
        ({"country": "URY", "arrival_currency": "USD", "method": "BANKTRANSFER"}, "arrival_currency: must be UYU for URY"),
    ],
)  # fmt: skip
def test_the_dry_run_refuses_what_no_corridor_offers(payout_api, changes, err):
    answer = payout_api.post("/payout/dry-run", builders.dry_run(**changes), expect=400)
    assert (answer["code"], answer["data"]) == (4001000, {"err": err})


def test_the_list_carries_the_new_corridors_payouts(send_payout_example, api, payout_api, merchant, fund):
    fund_all(merchant, fund)
    ids = []
    for page in EXAMPLES:  # each under its own custom_code: several examples share one
        example = re.sub(r'("custom_code" ?: ")[^"]+', rf"\g<1>{page}", EXAMPLES[page][0])
        ids.append(send_payout_example("/api/payout", example, **MASKS)[1]["data"]["id"])
    api.post("/sandbox/clock", {"advance_seconds": 360}, expect=200)
    start, end = clock.now() - timedelta(hours=1), clock.now() + timedelta(hours=1)
    listed = payout_api.post(
        "/payout/list",
        {
            "start_time": f"{start:%Y-%m-%d %H:%M:%S}",
            "end_time": f"{end:%Y-%m-%d %H:%M:%S}",
            "page_num": 1,
            "page_size": 100,
            "timestamp": builders.now_unix(),
        },
        expect=200,
    )["data"]
    assert [record["transaction_id"] for record in listed] == ids
    assert {record["transaction_status"] for record in listed} == {"PAID"}
    by_currency = {record["arrival_currency"] for record in listed}
    assert by_currency == {"ARS", "COP", "CLP", "USD", "GTQ", "PEN", "RUB", "TRY", "UYU", "BRL"}
    banks = {record.get("bank_name") for record in listed}
    assert {"Bancolombia", "Banco Industrial, S.A.", "Metrobank S.A.", "Banco Central del Ecuador"} <= banks
