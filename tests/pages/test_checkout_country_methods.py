"""The hosted checkout offers the country pages' methods of the order's currency and asks what each needs."""

import re
from datetime import datetime
from html import unescape

import pytest

from checkout.mexico import clabe
from tests import builders, formats
from tests.pages.conftest import form_action
from tests.pages.helpers import choose
from tests.payins.helpers import hosted

MEXICAN = {"type": "RFC", "number": "MAMB780915969"}


def methods_offered(page) -> list[str]:
    return re.findall(r'data-method="([A-Za-z0-9]+)"', page.get_data(as_text=True))  # Pago46 has digits


def checkout(api, currency: str, amount: str, **overrides) -> str:
    customer = {"identify": {"type": "", "number": ""}} if currency != "BRL" else {}
    body = hosted(order_currency=currency, order_amount=amount, customer=customer, **overrides)
    return api.post("/trade/create", body, expect=200)["web_url"]


@pytest.mark.parametrize(
    "currency, amount, offered",
    [
        (
            "COP",
            "3000",  # Bancolombia and Baloto start at 5,000 COP
            ["Wallet", "Cash", "BankTransfer", "PSE", "Efecty", "SuRed", "Gana", "CreditCard"],
        ),
        (
            "COP",
            "5000",
            ["Wallet", "Cash", "BankTransfer", "PSE", "Efecty", "Bancolombia", "SuRed", "Gana", "Baloto", "CreditCard"],
        ),
        ("CLP", "2500", ["Wallet", "Cash", "BankTransfer", "Khipu", "WebPay", "Pago46", "CreditCard"]),
        ("PEN", "100", ["Wallet", "Cash", "BankTransfer", "PagoEfectivo", "CreditCard"]),
        ("ARS", "100", ["Wallet", "BankTransfer", "Khipu", "PagoFacil", "Rapipago"]),
        ("PHP", "100", ["Wallet", "QRPH", "AlipayPlus"]),
        ("KRW", "1000", ["Wallet"]),
        ("BHD", "1.250", ["CreditCard"]),
        # Ecuador's, Panama's and El Salvador's cash and bank transfers: the order names no country
        ("USD", "10", ["CreditCard"]),
    ],
)
def test_each_currency_offers_its_countrys_methods(customer, api, currency, amount, offered):
    assert methods_offered(customer.get(checkout(api, currency, amount))) == offered


def test_spei_asks_a_mexican_document_and_shows_the_clabe(customer, api):
    page = choose(customer, customer.get(checkout(api, "MXN", "120.50")), "SPEI")
    html = page.get_data(as_text=True)
    assert '<option value="RFC"' in html and '<option value="CURP"' in html and 'value="CPF"' not in html
    fields = {"name": "Ana López", "email": "ana@example.com", "document_type": "RFC"}
    refused = customer.post(form_action(page, "/pages/checkout"), {**fields, "document_number": "MAMB7809"}, page=page)
    assert refused.status_code == 422 and "must be a valid RFC" in refused.get_data(as_text=True)
    done = customer.post(
        form_action(page, "/pages/checkout"), {**fields, "document_number": MEXICAN["number"]}, page=page
    )
    assert done.status_code == 303
    shown = customer.get(done.headers["Location"]).get_data(as_text=True)
    query = api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)
    assert (query["method"], query["trade_status"]) == ("SPEI", "PROCESSING")
    assert clabe.validate(query["clabe"]) == "STP" and query["clabe"] in shown
    assert "CLABE" in shown and 'lang="es-MX"' in shown  # a Mexican trade's page speaks Spanish


def test_colombian_cash_still_asks_a_bank_from_the_bank_list(customer, api):
    page = choose(customer, customer.get(checkout(api, "COP", "3000")), "Cash")
    html = page.get_data(as_text=True)
    assert '<option value="efecty"' in html and 'name="document_number"' not in html
    done = customer.post(
        form_action(page, "/pages/checkout"), {"name": "Ana", "email": "ana@example.com", "bank": "efecty"}, page=page
    )
    assert done.status_code == 303
    shown = customer.get(done.headers["Location"]).get_data(as_text=True)
    reference = api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)["reference"]
    assert "Efecty" in shown and reference in shown


def test_todito_asks_the_wallet_account(customer, api, row_counts):
    web_url = checkout(api, "MXN", "120.50", method="Wallet", channel="Todito")
    page = customer.get(web_url)
    html = page.get_data(as_text=True)
    assert 'name="account_number"' in html and 'name="account_verification_code"' in html
    before = row_counts()
    refused = customer.post(
        form_action(page, "/pages/checkout"), {"name": "Ana", "email": "ana@example.com"}, page=page
    )
    assert refused.status_code == 422 and "account_number" in refused.get_data(as_text=True)
    assert row_counts() == before
    fields = {
        "name": "Ana",
        "email": "ana@example.com",
        "account_number": "2660893978",
        "account_verification_code": "1322",
    }
    assert customer.post(form_action(page, "/pages/checkout"), fields, page=page).status_code == 303
    query = api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)
    assert (query["method"], query["channel"], query["trade_status"]) == ("Wallet", "Todito", "PROCESSING")
    assert re.match(r"^http://checkout\.test/pages/wallet\?token=", query["wallet_url"])


def test_a_method_and_channel_given_in_another_case_are_kept_as_the_catalogue_spells_them(customer, api):
    checkout(api, "BRL", "12.01", method="wallet", channel="mercadopago")
    query = api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)
    assert (query["method"], query["channel"]) == ("Wallet", "MercadoPago")


def test_openfinance_asks_the_bank_and_the_brazilian_document(customer, api):
    page = choose(customer, customer.get(checkout(api, "BRL", "12.01")), "OpenFinance")
    html = page.get_data(as_text=True)
    assert '<option value="75e2b9f4-4f60-4d07-916c-fde1163d43bc">' in html
    assert re.search(r'<option[^>]* value="CPF">', html)
    fields = {"name": "Ana", "email": "ana@example.com", "phone": "5511987654321", "document_type": "CPF"}
    fields.update(document_number="50284414727", bank="75e2b9f4-4f60-4d07-916c-fde1163d43bc")
    assert customer.post(form_action(page, "/pages/checkout"), fields, page=page).status_code == 303
    query = api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)
    assert (query["method"], query["trade_status"]) == ("OpenFinance", "PROCESSING")


@pytest.mark.parametrize(
    "currency, amount, method, zone, locale",
    [("COP", "3000", "PSE", "America/Bogota", "es_CO"), ("CLP", "2500", "WebPay", "America/Santiago", "es_CL")],
)
def test_a_colombian_or_chilean_payment_page_shows_its_countrys_time(
    api, client, currency, amount, method, zone, locale
):
    """The expiry in the country's zone, as its own CLDR locale writes a moment. A 12-hour "h:mm" check once
    failed on Chile's pages at some hours of the day only: CLDR 49 (Babel 2.19) writes Chile's times in 24 hours."""
    identify = {"COP": {"type": "CC", "number": "123412312"}, "CLP": {"type": "RUT", "number": "36987747K"}}
    body = builders.direct(
        method, order_currency=currency, order_amount=amount, customer={"identify": identify[currency]}
    )
    answer = api.post("/trade/pay", body, expect=200)
    expires = api.post("/trade/query", {"trade_no": answer["trade_no"]}, expect=200)["expire_time"]
    html = unescape(client.get(answer["pay_url"].removeprefix("http://checkout.test")).get_data(as_text=True))
    local = formats.deadline(datetime.fromisoformat(expires + "+00:00"), zone, "es_MX", locale)
    utc = formats.deadline(datetime.fromisoformat(expires + "+00:00"), "UTC", "es_MX", locale)
    assert f"{local.date}, {local.time} ({local.zone})" in html
    assert f"{utc.date}, {utc.time}" not in html


def test_an_argentine_bank_transfer_asks_the_bank_the_document_and_the_payers_account(customer, api, row_counts):
    page = choose(customer, customer.get(checkout(api, "ARS", "1500.50")), "BankTransfer")
    html = page.get_data(as_text=True)
    assert '<option value="191">' in html and '<option value="CUIT"' in html and '<option value="DNI"' not in html
    assert 'name="payer_account"' in html and '<option value="C"' in html and '<option value="S"' in html
    fields = {"name": "Ana", "email": "ana@example.com", "bank": "191", "document_type": "CUIT"}
    # The CUIT as printed: taken as its digits.
    fields.update(document_number="20-11587204-5", payer_account="0071234567890123456789", payer_account_type="C")
    before = row_counts()
    refused = customer.post(form_action(page, "/pages/checkout"), fields, page=page)
    assert refused.status_code == 422 and "must start with the bank code 191" in refused.get_data(as_text=True)
    assert row_counts() == before
    fields["payer_account"] = "1910123456789012345678"
    assert customer.post(form_action(page, "/pages/checkout"), fields, page=page).status_code == 303
    query = api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)
    assert (query["method"], query["order_amount"], query["trade_status"]) == ("BankTransfer", "1500.50", "PROCESSING")
    assert query["customer"]["identify"] == {"type": "CUIT", "number": "20115872045"}
    assert (
        query["reference"] == query["trade_no"][-10:]
        and '"referenceCode":"' + query["reference"] in query["instruction"]
    )


def test_argentine_khipu_asks_the_bank_and_the_document(customer, api):
    page = choose(customer, customer.get(checkout(api, "ARS", "60")), "Khipu")
    html = page.get_data(as_text=True)
    assert '<option value="Si9wa">' in html and '<option value="DNI"' in html and 'name="payer_account"' not in html
    fields = {"name": "Ana", "email": "ana@example.com", "bank": "Si9wa", "document_type": "DNI"}
    assert (
        customer.post(
            form_action(page, "/pages/checkout"), {**fields, "document_number": "40754127"}, page=page
        ).status_code
        == 303
    )
    query = api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)
    assert (query["method"], query["order_currency"], query["trade_status"]) == ("Khipu", "ARS", "PROCESSING")


def test_a_costa_rican_bank_transfer_sends_the_banks_language(customer, api):
    page = choose(customer, customer.get(checkout(api, "CRC", "5000")), "BankTransfer")
    fields = {"name": "Ana", "email": "ana@example.com", "bank": "1021", "document_type": "ID"}
    done = customer.post(form_action(page, "/pages/checkout"), {**fields, "document_number": "567554554"}, page=page)
    assert done.status_code == 303
    query = api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)
    assert (query["method"], query["reference"], query["trade_status"]) == (
        "BankTransfer",
        query["trade_no"][-6:],
        "PROCESSING",
    )


@pytest.mark.parametrize(("typed", "sent"), [("1234567-8", "1234567-8"), ("1.234.567-8", "12345678")])
def test_a_document_already_in_its_pages_form_is_sent_as_typed(customer, api, typed, sent):
    """Paraguay's RUC is written with its check digit after a hyphen, a form its page takes: kept as the customer
    wrote it; typed with other punctuation, it is taken as its characters."""
    page = customer.get(checkout(api, "PYG", "150000"))  # its one method: the form at once
    assert 'name="document_number"' in page.get_data(as_text=True)
    fields = {"name": "Ana", "email": "ana@example.com", "bank": "015", "document_type": "RUC"}
    fields.update(document_number=typed, payer_account="123456", payer_account_type="SAVINGS")
    assert customer.post(form_action(page, "/pages/checkout"), fields, page=page).status_code == 303
    query = api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)
    assert query["customer"]["identify"] == {"type": "RUC", "number": sent}
