"""Payment pages of the country methods beyond Brazil and Mexico: vouchers (reference, bar code, partner code, where,
exact amount, deadline), bank details to transfer to, QR codes, and the language each country reads."""

import io
import json
import re
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image

from checkout.brazil import qrimage
from checkout.pages.method_names import WALLET_NAMES
from tests import formats
from tests.pages.conftest import form_action, input_value
from tests.pages.country_payments import BANK, CASES, HANDOFF, QR, VOUCHER
from tests.pages.helpers import NAMES, english_left, visible_text

from .helpers import create, page_url, status_of

ROOT = Path(__file__).resolve().parents[2]
BANK_NAMES = {"BANK BNI": "Bank Negara Indonesia", "PD-ATM-CTCB": "CTBC Bank ATM"}
SPANISH = {"ARG", "BOL", "PRY", "URY", "PAN", "PAN-CASH", "CRI", "CRI-ID", "ECU", "SLV", "GTM", "GTM-9", "PER", "COL"}
# What marks each journey on the page.
MARKS = {
    VOUCHER: '<dl class="terms copyable voucher">',
    BANK: '<dl class="terms copyable bank-details">',
    QR: '<figure class="qr-box"><svg',
    HANDOFF: 'class="button wide handoff" href="/pages/pay/handoff?token=',
}


@pytest.mark.parametrize("name", list(CASES))
def test_each_method_shows_its_journey_in_its_countrys_language(customer, api, name):
    case = CASES[name]
    trade = create(api, name)
    page = customer.get(page_url(trade), **{"Accept-Language": "en-US"})
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert [kind for kind, mark in MARKS.items() if mark in html] == [case.journey]
    assert ('lang="es-MX"' in html) == (case.country in SPANISH)
    assert ('lang="en"' in html) == (case.country not in SPANISH)
    # Whatever the page reads, no English is left in a translated one (but the names of banks and wallets).
    channel = case.extra.get("channel", "")
    names = [n for n in (WALLET_NAMES.get(channel, channel), BANK_NAMES.get(case.extra.get("bank", ""))) if n]
    names += NAMES  # the collector, whom the customer's bank app shows as the beneficiary
    for language, locale in (("pt-BR", "pt_BR"), ("es-MX", "es_MX")):
        shown = visible_text(customer.get(page_url(trade, language)).get_data(as_text=True))
        for name_shown in names:
            shown = shown.replace(name_shown, "")
        assert english_left(shown, locale) == [], (name, locale)


def test_pago_facil_voucher_shows_reference_bar_code_place_amount_and_deadline(customer, api):
    trade = create(api, "ar-pagofacil")
    page = customer.get(page_url(trade))
    html = page.get_data(as_text=True)
    assert input_value(page, "reference") == trade["reference"] and len(trade["reference"]) == 10
    assert input_value(page, "barcode") == trade["barcode"] == f"3335008{trade['trade_no'][-10:]}00150050"
    # At the till the amount is read with its currency: Argentina's "$" alone is several countries'.
    assert (
        f'<dd class="amount-due" id="voucher-amount">{formats.money("1500.50", "ARS", "es_AR")}\u00a0ARS</dd>' in html
    )
    assert f'<p class="amount">{formats.money("1500.50", "ARS", "es_AR")}</p>' in html
    assert "Ve a cualquier punto Pago Fácil y di que quieres hacer un pago." in html
    assert "Muestra el código de barras o da la referencia." in html
    assert '<dd class="place">Cualquier punto Pago Fácil</dd>' in html
    assert re.search(r'<span class="time-left">quedan <strong data-countdown>1:(29:5\d|30:00)</strong></span>', html)
    assert "(hora de Argentina)</strong>" in html  # the deadline's date and hour stay beside the countdown
    image = re.search(r'<figure class="barcode"><img src="([^"]+)"', html).group(1).replace("&amp;", "&")
    drawn = Image.open(io.BytesIO(customer.get(image).data))
    assert [(r.text, r.format.name) for r in zxingcpp.read_barcodes(drawn)] == [(trade["barcode"], "Code128")]
    pdf = customer.get(image.replace("/pages/pay/barcode.png", "/pages/pay/voucher.pdf"))
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")


def test_english_voucher_texts(customer, api):
    html = customer.get(page_url(create(api, "ar-rapipago"), "en")).get_data(as_text=True)
    for text in (
        "Pay with Rapipago",
        "Go to any Rapipago outlet and say you want to make a payment.",
        "Show the bar code, or give the reference.",
        "Pay the exact amount and keep your receipt.",
        '<dd class="place">Any Rapipago outlet</dd>',
        "Exact amount",
        "Download PDF",
    ):
        assert text in html, text


def test_bncr_gives_the_partner_code_then_the_reference(customer, api):
    trade = create(api, "cr-bncr")
    page = customer.get(page_url(trade, "en"))
    html = page.get_data(as_text=True)
    assert (input_value(page, "partner-code"), input_value(page, "reference")) == ("BNCR", trade["reference"])
    assert (
        len(trade["reference"]) == 11 and '<dd class="amount-due" id="voucher-amount">CRC\u00a015,000.00</dd>' in html
    )
    assert "Go to a Banco Nacional de Costa Rica branch or its app and say you want to make a payment." in html
    assert "Give the partner code, then the reference." in html
    assert "/pages/pay/barcode.png" not in html  # no bar code, so no image and no PDF
    assert customer.get(page_url(trade).replace("/pages/pay?", "/pages/pay/barcode.png?")).status_code == 404


@pytest.mark.parametrize(
    ("name", "place"),
    [
        ("co-baloto", "Any Baloto point"),
        ("pe-pagoefectivo", "A PagoEfectivo agent or your bank&#39;s app"),
        ("eg-cash", "A participating store"),
        ("eg-fawrypay", "Any Fawry outlet or the myFawry app"),
        ("sv-cash", "Punto Xpress"),
        ("gt-transfer", "Banco Industrial"),
        ("id-transfer", "Your bank&#39;s app, internet banking or an ATM"),
    ],
)
def test_each_voucher_says_where_it_is_paid(customer, api, name, place):
    trade = create(api, name)
    page = customer.get(page_url(trade, "en"))
    assert f'<dd class="place">{place}</dd>' in page.get_data(as_text=True)
    assert input_value(page, "reference") == trade["reference"]


def test_indonesian_virtual_account(customer, api):
    trade = create(api, "id-transfer")
    page = customer.get(page_url(trade), **{"Accept-Language": "en-US"})
    html = page.get_data(as_text=True)
    assert input_value(page, "reference") == trade["reference"] and len(trade["reference"]) == 16
    assert 'aria-label="Virtual account number"' in html
    assert "choose a transfer to a virtual account at Bank Negara Indonesia." in html
    assert input_value(page, "voucher-amount") == "150000,00"  # typed into the bank's app, in en_ID's decimals


def test_a_voucher_is_paid_by_pasting_its_reference(customer, api):
    trade = create(api, "co-baloto")
    page = customer.get(page_url(trade, "en"))
    answer = customer.post(form_action(page, "/pages/pay/sandbox/paste"), {"code": trade["reference"]}, page=page)
    assert answer.status_code == 303 and status_of(api, trade) == "SUCCESS"
    assert "Payment received. Thank you!" in customer.get(page_url(trade, "en")).get_data(as_text=True)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "ar-transfer",
            ("ICBC Argentina", "0150000000000000003082", "Cuenta corriente", "30716132028", "1500,00", "CUIT"),
        ),
        ("bo-transfer", ("Banco Ganadero", "1310825187", "Cuenta corriente", "419326025", "250,75", "NIT")),
        ("py-transfer", ("Banco Itaú Paraguay S.A.", "215559", "Cuenta corriente", "80121508-0", "150000", "RUC")),
        ("uy-transfer", ("BROU", "110309016-00001", "Cuenta corriente", "218730880015", "980,00", "RUT")),
        (
            "pa-transfer",
            ("Banco LAFISE Panamá", "201020008603", "Cuenta corriente", "155714930-2-2021", "45.10", "RUC"),
        ),
    ],
)
def test_bank_details_each_copy(customer, api, name, expected):
    trade = create(api, name)
    page = customer.get(page_url(trade))
    shown = tuple(
        input_value(page, f"bank-{field}") for field in ("name", "account", "account-type", "document", "amount")
    )
    bank, account, kind, document, amount, document_type = expected
    assert shown == (bank, account, kind, document, amount)
    assert input_value(page, "bank-holder") == "Checkout Sandbox Pagos S.A."
    instruction = json.loads(trade["instruction"])
    assert input_value(page, "reference") == trade["reference"] == instruction["referenceCode"]
    html = page.get_data(as_text=True)
    assert f'aria-label="Documento ({document_type})"' in html
    assert "Paga por transferencia bancaria" in html and "<strong data-countdown>" in html and "quedan" in html
    assert html.count('class="button secondary" data-copy="bank-') == 6


def test_bank_details_in_english(customer, api):
    page = customer.get(page_url(create(api, "bo-transfer"), "en"))
    html = page.get_data(as_text=True)
    assert input_value(page, "bank-account-type") == "Checking account"
    for text in (
        "Pay by bank transfer",
        "In your bank's app, make a transfer to this account.",
        "Transfer exactly the amount shown, with the reference as the transfer's description.",
        "<dt>Account number</dt>",
        "<dt>Document (NIT)</dt>",
    ):
        assert text in html, text


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("ph-qrph", "Scan this QR Ph code with your bank's or e-wallet's app."),
        ("ph-gcash", "Scan this QR code with the GCash app."),
        ("cn-alipay", "Scan this QR code with the Alipay app."),
        ("kr-kakaopay", "Scan this QR code with the KakaoPay app."),
    ],
)
def test_qr_methods_draw_their_own_code(customer, api, name, says):
    trade = create(api, name)
    page = customer.get(page_url(trade, "en"))
    html = page.get_data(as_text=True)
    assert qrimage.svg(trade["qr_code"]) in html and says in html
    assert input_value(page, "qr-data") == trade["qr_code"]
    # The helper that draws it draws exactly this code (the PNG of the same modules read back).
    drawn = Image.open(io.BytesIO(qrimage.png(trade["qr_code"])))
    assert [r.text for r in zxingcpp.read_barcodes(drawn)] == [trade["qr_code"]]
    phone = customer.get(page_url(trade, "en") + "&view=h5").get_data(as_text=True)
    assert "Paying on this phone? Take a screenshot" in phone


def test_qrph_is_paid_from_the_sandbox_panel(customer, api):
    trade = create(api, "ph-qrph")
    page = customer.get(page_url(trade, "en"))
    answer = customer.post(form_action(page, "/pages/pay/sandbox?"), page=page)
    assert answer.status_code == 303 and status_of(api, trade) == "SUCCESS"
    paid = customer.get(page_url(trade, "en")).get_data(as_text=True)
    assert "Payment received. Thank you!" in paid and "QR Ph" in paid


@pytest.mark.parametrize("name", ["ar-pagofacil", "ar-transfer", "ph-qrph", "tr-papara"])
@pytest.mark.parametrize("view", ["web", "h5"])
def test_each_journey_page_weighs_under_50_kb(customer, api, name, view):
    assets = sum((ROOT / "static" / part).stat().st_size for part in ("css/pages.css", "js/pages.js"))
    page = customer.get(page_url(create(api, name)) + f"&view={view}")
    assert page.status_code == 200
    assert len(page.data) + assets < 50 * 1024
