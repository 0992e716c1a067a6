"""The country pages' methods (Mexico, Colombia, Chile, Peru, Brazil's OpenFinance): their rules, their
answers, the sandbox payment and the payment page that shows what the customer needs."""

import re

import pytest

from checkout.mexico import clabe
from checkout.payins import methods
from tests import builders

from .helpers import VALID, payment


@pytest.mark.parametrize("case", list(VALID))
def test_each_method_answers_its_pages_fields_and_is_paid_in_the_sandbox(api, client, case):
    body = api.post("/trade/pay", payment(case), expect=200)
    _, fields = VALID[case]
    assert list(body) == ["code", "msg", "trade_no", "out_trade_no", "trade_status", *fields, "web_url"]
    assert (body["trade_status"], body["web_url"]) == ("PROCESSING", "")
    assert body["pay_url"].startswith("http://checkout.test/pages/pay?token=")
    page = client.get(body["pay_url"].removeprefix("http://checkout.test")).get_data(as_text=True)
    for shown in ("reference", "clabe", "barcode", "partner_code"):
        if shown in body:
            assert body[shown] in page, shown
    query = api.post("/trade/query", {"trade_no": body["trade_no"]}, expect=200)
    kept = [k for k in fields if k != "qr_code_img"]  # drawn from qr_code on the creating request only
    assert {k: query[k] for k in kept} == {k: body[k] for k in kept}
    paid = api.post(f"/sandbox/trades/{body['trade_no']}/pay", expect=200)
    assert paid["trade_status"] == "SUCCESS"


def test_spei_clabes_are_valid_for_the_codec_and_unique(api):
    clabes = [api.post("/trade/pay", payment("SPEI", out_trade_no=f"o-{n}"), expect=200)["clabe"] for n in range(5)]
    assert len(set(clabes)) == 5
    assert {clabe.validate(c) for c in clabes} == {"STP"}
    assert all(c.startswith("646180") for c in clabes)


def test_the_clabe_codec_builds_only_valid_clabes():
    built = clabe.build("646", "180", "00000000001")
    assert clabe.validate(built) == "STP" and len(built) == 18
    broken = built[:17] + str((int(built[17]) + 1) % 10)
    with pytest.raises(ValueError, match="CLABE check digit is wrong"):
        clabe.validate(broken)
    with pytest.raises(ValueError, match="must be 3, 3 and 11 digits"):
        clabe.build("646", "180", "0000000001")
    with pytest.raises(ValueError, match="must be 3, 3 and 11 digits"):
        clabe.build("64a", "180", "00000000001")


def test_method_names_are_read_in_any_case_and_kept_as_the_pages_spell_them(api):
    body = api.post("/trade/pay", payment("WebPay", method="Webpay"), expect=200)
    assert api.post("/trade/query", {"trade_no": body["trade_no"]}, expect=200)["method"] == "WebPay"
    body = api.post("/trade/pay", payment("SPEI", method="spei", out_trade_no="o-2"), expect=200)
    assert api.post("/trade/query", {"trade_no": body["trade_no"]}, expect=200)["method"] == "SPEI"


REFUSED = [
    # the currency picks the page; one the method does not take is refused
    ("SPEI", {"order_currency": "BRL"}, "40002", "invalid-parameter", "order_currency: must be MXN for SPEI"),
    ("PSE", {"order_currency": "MXN"}, "40002", "invalid-parameter", "order_currency: must be COP for PSE"),
    (
        "Cash MXN",
        {"order_currency": "BRL"},
        "40002",
        "invalid-parameter",
        "order_currency: must be CLP or COP or CRC or EGP or GTQ or MXN or PEN or USD for Cash",
    ),
    # Colombia's Cash and BankTransfer pages are discontinued: only the bank list's banks remain
    ("Cash MXN", {"order_currency": "COP"}, "40001", "missing-arguments", "missing required argument: bank"),
    ("BankTransfer PEN", {"order_currency": "MXN"}, "40001", "missing-arguments", "missing required argument: bank"),
    ("OpenFinance", {"bank": None}, "40001", "missing-arguments", "missing required argument: bank"),
    (
        "OpenFinance",
        {"bank": "nubank"},
        "40002",
        "invalid-parameter",
        "bank: must be one of 75e2b9f4-4f60-4d07-916c-fde1163d43bc, 0b7f6a1e-3c5d-4e8f-9a21-6d4c8b2e1f37, "
        "c2d94b8a-57e1-4f0c-b3a6-91e8d7f25c40 for OpenFinance",
    ),
    # amount limits and "Only Integer"
    ("SPEI", {"order_amount": "7.99"}, "40002", "invalid-parameter", "order_amount: must be 8 to 400000 MXN for SPEI"),
    (
        "CoDi",
        {"order_amount": "8000.01"},
        "40002",
        "invalid-parameter",
        "order_amount: must be 0.1 to 8000 MXN for CoDi",
    ),
    (
        "OXXOPay",
        {"order_amount": "9.99"},
        "40002",
        "invalid-parameter",
        "order_amount: must be 10 to 9999 MXN for OXXOPay",
    ),
    (
        "PSE",
        {"order_amount": "3000.50"},
        "40002",
        "invalid-parameter",
        "order_amount: must be a whole number of COP for PSE",
    ),
    (
        "Bancolombia",
        {"order_amount": "4999"},
        "40002",
        "invalid-parameter",
        "order_amount: must be 5000 to 3000000 COP for Bancolombia",
    ),
    (
        "Pago46",
        {"order_amount": "1499"},
        "40002",
        "invalid-parameter",
        "order_amount: must be 1500 to 999999 CLP for Pago46",
    ),
    (
        "Cash PEN",
        {"order_amount": "1000.01"},
        "40002",
        "invalid-parameter",
        "order_amount: must be 5 to 1000 PEN for Cash",
    ),
    (
        "OpenFinance",
        {"order_amount": "20000.01"},
        "40002",
        "invalid-parameter",
        "order_amount: must be 0.1 to 20000 BRL for OpenFinance",
    ),
    # the identity documents each country's pages name
    (
        "SPEI",
        {"customer": {"identify": {"type": "CPF", "number": "50284414727"}}},
        "40002",
        "invalid-parameter",
        "customer.identify.type: must be RFC or CURP for SPEI (MXN)",
    ),
    (
        "OXXO",
        {"customer": {"identify": {"type": "RFC", "number": "MAMB78091596"}}},
        "40002",
        "invalid-parameter",
        "customer.identify.number: must be a valid RFC",
    ),
    (
        "PSE",
        {"customer": {"identify": {"type": "NIT", "number": "123412312"}}},
        "40002",
        "invalid-parameter",
        "customer.identify.number: must be a valid NIT",
    ),
    (
        "WebPay",
        {"customer": {"identify": {"type": "RUT", "number": "36987747-K"}}},
        "40002",
        "invalid-parameter",
        "customer.identify.number: must be a valid RUT",
    ),
    (
        "Cash PEN",
        {"customer": {"identify": {"type": "DNI", "number": "5028441"}}},
        "40002",
        "invalid-parameter",
        "customer.identify.number: must be a valid DNI",
    ),
    (
        "OpenFinance",
        {"customer": {"identify": {"type": "CPF", "number": "11111111111"}}},
        "40002",
        "invalid-parameter",
        "customer.identify.number: must be a valid CPF",
    ),
    # channel only with Wallet, as before
    ("SPEI", {"channel": "Todito"}, "40002", "invalid-parameter", "channel: only with method Wallet"),
]


@pytest.mark.parametrize("case, overrides, code, sub_code, sub_msg", REFUSED)
def test_what_the_pages_refuse_is_refused_exactly_and_writes_nothing(
    api, row_counts, case, overrides, code, sub_code, sub_msg
):
    before = row_counts()
    body = api.post("/trade/pay", payment(case, **overrides), expect=400)
    assert (body["code"], body["sub_code"], body["sub_msg"]) == (code, sub_code, sub_msg)
    assert row_counts() == before


TODITO = {
    "channel": "Todito",
    "order_currency": "MXN",
    "account_number": "2660893978",
    "account_verification_code": "1322",
}


@pytest.mark.parametrize(
    "overrides, code, sub_msg",
    [
        ({"account_number": None}, "40001", "missing required argument: account_number"),
        ({"account_verification_code": None}, "40001", "missing required argument: account_verification_code"),
        ({"account_number": "266089397"}, "40002", "account_number: must be 10 to 18 digits"),
        ({"account_verification_code": "13a2"}, "40002", "account_verification_code: must be 4 digits"),
        ({"order_amount": "0.99"}, "40002", "order_amount: must be 1 to 190000 MXN for Todito"),
        (
            {"channel": "Nequi", "order_currency": "COP", "order_amount": "999"},
            "40002",
            "order_amount: must be 1000 to 3000000 COP for Nequi",
        ),
        (
            {"channel": "Mach", "order_currency": "CLP", "order_amount": "1500.5"},
            "40002",
            "order_amount: must be a whole number of CLP for Mach",
        ),
        (
            {"channel": "Tupay", "order_currency": "PEN", "order_amount": "7.99"},
            "40002",
            "order_amount: must be 8 to 3750 PEN for Tupay",
        ),
    ],
)
def test_wallet_channels_keep_their_pages_rules(api, row_counts, overrides, code, sub_msg):
    before = row_counts()
    body = api.post("/trade/pay", builders.direct("Wallet", **{**TODITO, **overrides}), expect=400)
    assert (body["code"], body["sub_msg"]) == (code, sub_msg)
    assert row_counts() == before


def test_todito_with_its_account_is_paid_in_the_sandbox(api):
    body = api.post("/trade/pay", builders.direct("Wallet", **TODITO), expect=200)
    assert body["wallet_url"].startswith("http://checkout.test/pages/wallet?token=")
    assert api.post(f"/sandbox/trades/{body['trade_no']}/pay", expect=200)["trade_status"] == "SUCCESS"


def test_a_bank_list_cash_payment_keeps_working_and_answers_its_page_and_reference(api, client):
    body = api.post("/trade/pay", builders.direct("Cash", bank="oxxo", order_currency="MXN"), expect=200)
    assert (body["web_url"], re.fullmatch(r"[0-9]{14}", body["reference"]) is not None) == ("", True)
    page = client.get(body["pay_url"].removeprefix("http://checkout.test")).get_data(as_text=True)
    assert "OXXO" in page and body["reference"] in page
    created = api.post(
        "/trade/create", builders.direct("Cash", bank="efecty", order_currency="COP", out_trade_no="o-2"), expect=200
    )
    assert created["web_url"] == created["pay_url"]  # /trade/create answers the payment page as web_url too


def test_the_bank_list_serves_openfinance(api):
    body = api.post("/trade/bank-list", {"method": "OpenFinance"}, expect=200)
    assert body["method"] == "OpenFinance" and "min_amount" not in body
    assert body["data"][0] == {
        "bank_id": "75e2b9f4-4f60-4d07-916c-fde1163d43bc",
        "bank_name": "Nubank",
        "detail": "",
        "country": "BRA",
        "currency": "BRL",
        "language_codes": ["pt"],
    }


@pytest.mark.parametrize("name", [name for name in methods.METHODS if name != "CreditCard"])
@pytest.mark.parametrize("currency", ["BRL", "MXN", "COP", "CLP", "PEN", "USD"])
def test_no_method_in_any_case_and_currency_answers_anything_but_200_or_400(api, row_counts, name, currency):
    for n, spelled in enumerate((name, name.lower(), name.upper())):
        for bank in ("x", None):
            before = row_counts()
            body = builders.direct(spelled, out_trade_no=f"{name}-{currency}-{n}-{bank}", order_currency=currency)
            answer = api.post("/trade/pay", {**body, "bank": bank} if bank else body)
            assert answer["code"] in ("10000", "40001", "40002"), answer
            if answer["code"] != "10000":
                assert row_counts() == before


@pytest.mark.parametrize(
    "method, amount, sub_msg",
    [
        ("PIX", "0.09", "order_amount: must be 0.1 to 50000 BRL for PIX"),
        ("PIX", "50000.01", "order_amount: must be 0.1 to 50000 BRL for PIX"),
        ("Boleto", "4.99", "order_amount: must be 5 to 15000 BRL for Boleto"),
        ("Lottery", "2000.01", "order_amount: must be 4 to 2000 BRL for Lottery"),
        ("DepositExpress", "0.99", "order_amount: must be 1 to 50000 BRL for DepositExpress"),
    ],
)
def test_brazilian_methods_keep_their_pages_amount_ranges(api, row_counts, method, amount, sub_msg):
    before = row_counts()
    body = api.post("/trade/pay", builders.direct(method, order_amount=amount, bank="itau"), expect=400)
    assert (body["code"], body["sub_code"], body["sub_msg"]) == ("40002", "invalid-parameter", sub_msg)
    assert row_counts() == before
    edge = {"0.09": "0.1", "50000.01": "50000", "4.99": "5", "2000.01": "2000", "0.99": "1"}[amount]
    api.post("/trade/pay", builders.direct(method, order_amount=edge, bank="itau"), expect=200)


@pytest.mark.parametrize(
    "identify, sub_msg",
    [
        ({"type": "CI", "number": "12"}, "customer.identify.type: must be DUI for Cash (USD)"),
        ({"type": "CIP", "number": "502844"}, "customer.identify.type: must be DUI for Cash (USD)"),
        ({"type": "DUI", "number": "12"}, "customer.identify.number: must be a valid DUI"),
    ],
)
def test_a_listed_bank_picks_its_countrys_page_and_that_pages_documents(api, row_counts, identify, sub_msg):
    """El Salvador's cash outlet 8300 is paid with a DUI: an Ecuadorian CI or a Panamanian CIP does not go through
    it, nor a DUI of the wrong form."""
    body = builders.direct(
        "Cash",
        order_currency="USD",
        order_amount="20",
        bank="8300",
        language_code="ES",
        customer={"identify": identify},
    )
    before = row_counts()
    assert api.post("/trade/pay", body, expect=400)["sub_msg"] == sub_msg
    assert row_counts() == before
    body["customer"]["identify"] = {"type": "DUI", "number": "567554554"}
    answer = api.post("/trade/pay", body, expect=200)
    assert answer["reference"] == answer["trade_no"][-6:]
