"""Vouchers and slips a till reads: digits grouped as each network prints them, the deadline as a date and hour in
the customer's zone, the amount with its currency, and the PDF as text with a bar code that scans."""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import UTC, date, datetime, timedelta
from html import unescape
from pathlib import Path

import pytest
import zxingcpp
from flask import g
from PIL import Image

from checkout import clock
from checkout.brazil import boleto
from checkout.pages import pay_slips, slip_pdf
from tests.pages.conftest import form_action
from tests.pages.helpers import choose
from tests.pages.test_checkout_country_methods import MEXICAN, checkout
from tests.pages.test_pay_methods import MX, barcode_url, trade_of

CL = {"order_currency": "CLP", "order_amount": "1000", "customer": {"identify": {"type": "RUT", "number": "123456785"}}}


def shown(html: str, css: str) -> str:
    found = re.search(rf'class="{css}"[^>]*>(.*?)</', html, re.S)
    assert found, css
    return unescape(found.group(1)).strip()


def in_page(app, locale: str, zone: str, call):
    with app.test_request_context("/"):
        g.page_locale, g.page_timezone = locale, zone
        return call()


# -- digits, as each network prints them


def test_boleto_and_loterica_lines_keep_febraban_groups_and_other_references_go_in_fours():
    line = "00190000090287195300200000001172316460000010050"
    assert boleto.formatted(line) == "00190.00009 02871.953002 00000.001172 3 16460000010050"
    assert pay_slips.shown_digits(pay_slips.Slip("itf", boleto.barcode_from_linha(line), line)) == (
        "00190.00009 02871.953002 00000.001172 3 16460000010050"
    )
    assert pay_slips.grouped("88644657610102357000010050") == "8864 4657 6101 0235 7000 0100 50"
    assert pay_slips.grouped("3335008012345678900150050") == "3335 0080 1234 5678 9001 5005 0"
    assert pay_slips.grouped("123456785") == "123456785"  # nine digits read as they are
    assert pay_slips.grouped("ABC1234567890") == "ABC1234567890"  # not only digits: as the network gave it


def test_the_bank_box_is_the_banks_code_and_its_check_digit():
    assert [boleto.bank_box(code + "9") for code in ("001", "104", "341", "237", "033")] == [
        "001-9",
        "104-0",
        "341-7",
        "237-2",
        "033-7",
    ]


def test_oxxo_page_groups_its_26_digits_and_copies_them_bare(customer, api):
    trade = trade_of(api, "OXXO", **MX)
    html = customer.get(trade["pay_url"]).get_data(as_text=True)
    digits = trade["barcode"]
    assert len(digits) == 26
    assert shown(html, "linha") == " ".join(digits[i : i + 4] for i in range(0, 26, 4))
    assert re.search(rf'<input type="text" readonly value="{digits}"[^>]*id="barcode"', html)
    assert html.count('data-copy="barcode"') == 1  # one copy action for the one number
    assert shown(html, "amount-due") == "$100.50\u00a0MXN"
    assert shown(html, "place") == "Cualquier tienda OXXO"
    assert shown(html, "note fee") == "OXXO cobra una comisión en caja, además de este monto."


def test_loterica_page_names_its_own_line_not_a_boleto(customer, api):
    trade = trade_of(api, "Lottery")
    html = customer.get(trade["pay_url"]).get_data(as_text=True)
    assert "<dt>Linha digitável (pagamento em lotérica)</dt>" in html and "do boleto" not in html
    assert shown(html, "linha") == boleto.formatted(trade["barcode"])
    assert shown(html, "amount-due") == "R$\u00a0100,50"


def test_a_long_cash_reference_is_read_in_fours(customer, api):
    trade = trade_of(api, "Cash", **MX)  # Mexico's cash reference: 14 digits
    html = customer.get(trade["pay_url"]).get_data(as_text=True)
    reference = trade["reference"]
    assert shown(html, "linha") == " ".join(reference[i : i + 4] for i in range(0, 14, 4))
    assert re.search(rf'value="{reference}"[^>]*id="reference"', html)
    assert shown(html, "amount-due") == "$100.50\u00a0MXN"


# -- the deadline: a date and an hour in the customer's zone, beside any countdown


def test_the_deadline_reads_as_a_date_and_hour_with_its_zone(app):
    moment = datetime(2026, 11, 27, 21, 30, tzinfo=UTC)
    brazil = in_page(app, "pt_BR", "America/Sao_Paulo", lambda: pay_slips.pay_by(moment))
    assert brazil == "Pague até 27 de nov. de 2026, 18:30 (horário de Brasília)"
    mexico = in_page(app, "es_MX", "America/Mexico_City", lambda: pay_slips.pay_by(moment))
    assert mexico == "Paga a más tardar el 27 nov 2026, 3:30\u202fp.m. (hora central)"
    # A boleto's due day ends at Brazil's midnight: the customer reads that day's 23:59.
    midnight = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
    assert in_page(app, "pt_BR", "America/Sao_Paulo", lambda: pay_slips.pay_by(midnight)) == (
        "Pague até 30 de nov. de 2026, 23:59 (horário de Brasília)"
    )
    assert [pay_slips.time_left(s) for s in (5399, 59, 0, -3)] == ["1:29:59", "00:59", "00:00", "00:00"]


def test_a_countdown_keeps_the_date_and_hour_beside_it(customer, api):
    trade = trade_of(
        api,
        "PagoFacil",
        order_currency="ARS",
        order_amount="1500.50",
        customer={"identify": {"type": "DNI", "number": "30123456"}},
    )
    html = customer.get(trade["pay_url"]).get_data(as_text=True)
    deadline = shown(html, "deadline")
    assert re.fullmatch(
        r"Paga a más tardar el \d{1,2} \w+ 20\d\d, \d{1,2}:\d\d(\s?[ap]\.\s?m\.)? \(hora de Argentina\)",
        shown(html, "pay-by"),
    ), deadline
    assert re.search(r'<span class="time-left">quedan <strong data-countdown>1:(29:5\d|30:00)</strong></span>', html)


def test_a_cash_voucher_lasts_as_long_as_its_provider_says(customer, api):
    """The payment-method summary: OXXO 5 days, Chile's cash 2; Pago Fácil states none (timeout_express's 90m)."""
    for method, extra, lasts in (("OXXO", MX, timedelta(days=5)), ("Cash", CL, timedelta(days=2))):
        before = clock.now()
        trade = trade_of(api, method, out_trade_no=f"o-{method}", **extra)
        query = api.post("/trade/query", {"trade_no": trade["trade_no"], "timestamp": "2026-01-01 00:00:00"})
        expire = datetime.strptime(query["expire_time"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
        assert timedelta(0) <= expire - (before + lasts).replace(microsecond=0) <= timedelta(seconds=5), method
        html = customer.get(trade["pay_url"]).get_data(as_text=True)
        assert "data-countdown" not in html and "Paga a más tardar el" in html  # days away: the date, no countdown
    # With timeout_express, the merchant's own value.
    trade = trade_of(api, "OXXO", out_trade_no="o-short", timeout_express="30m", **MX)
    assert "data-countdown>30:00<" in customer.get(trade["pay_url"]).get_data(as_text=True).replace("29:5", "30:0")


def test_a_loterica_slip_is_due_in_ten_brazil_days(customer, api):
    trade = trade_of(api, "Lottery")
    html = customer.get(trade["pay_url"]).get_data(as_text=True)
    due = clock.brazil_today() + timedelta(days=10)
    assert shown(html, "pay-by").startswith("Pague até ") and shown(html, "pay-by").endswith(
        ", 23:59 (horário de Brasília)"
    )
    assert f"{due.day} de " in shown(html, "pay-by") and str(due.year) in shown(html, "pay-by")


# -- the PDF: text, small, its bar code scans


def _pdf(customer, trade: dict) -> bytes:
    answer = customer.get(barcode_url(customer, trade).replace("/pages/pay/barcode.png", "/pages/pay/voucher.pdf"))
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    return answer.data


def _text(pdf: bytes, tmp_path: Path) -> str:
    if shutil.which("pdftotext") is None:
        pytest.skip("poppler-utils (pdftotext) is not installed")
    path = tmp_path / "slip.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def _scanned(pdf: bytes, tmp_path: Path) -> list[tuple[str, str]]:
    if shutil.which("pdftoppm") is None:
        pytest.skip("poppler-utils (pdftoppm) is not installed")
    path = tmp_path / "scan.pdf"
    path.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", "300", "-gray", "-png", "-singlefile", str(path), str(tmp_path / "scan")], check=True
    )
    with Image.open(tmp_path / "scan.png") as page:
        return [(r.text, r.format.name) for r in zxingcpp.read_barcodes(page)]


def test_boleto_pdf_is_the_ficha_de_compensacao_as_text(customer, api, tmp_path):
    trade = trade_of(api, "Boleto", order_amount="120.00")
    pdf = _pdf(customer, trade)
    assert len(pdf) < 30_000
    text = _text(pdf, tmp_path)
    words = " ".join(text.split())
    assert "001-9" in words and boleto.formatted(trade["bank_code"]) in words
    assert "Beneficiário" in words and "Checkout Sandbox Pagamentos - CNPJ 11.222.333/0001-81" in words
    assert "Pagador" in words and "CPF/CNPJ ***." in words
    due = date.fromisoformat(trade["due_date"]).strftime("%d/%m/%Y")
    assert "Vencimento" in words and due in words
    assert "Valor do documento" in words and "R$ 120,00" in text.replace("\u00a0", " ")
    assert "Nosso número" in words and trade["trade_no"] in words
    assert _scanned(pdf, tmp_path) == [(trade["barcode"], "ITF")]


def test_oxxo_pdf_says_amount_reference_deadline_and_the_fee(customer, api, tmp_path):
    trade = trade_of(api, "OXXO", **MX)
    pdf = _pdf(customer, trade)
    assert len(pdf) < 30_000
    words = " ".join(_text(pdf, tmp_path).replace("\u00a0", " ").split())
    assert "OXXO · Loja Exemplo" in words and "$100.50 MXN" in words
    assert pay_slips.grouped(trade["barcode"]) in words
    assert "Cualquier tienda OXXO" in words and "OXXO cobra una comisión en caja" in words
    assert re.search(r"Paga a más tardar el \d{1,2} \w+ 20\d\d, .* \(hora central\)", words)
    assert _scanned(pdf, tmp_path) == [(trade["barcode"], "Code128")]


def test_loterica_pdf_is_a_slip_of_its_own(customer, api, tmp_path):
    trade = trade_of(api, "Lottery")
    pdf = _pdf(customer, trade)
    words = " ".join(_text(pdf, tmp_path).replace("\u00a0", " ").split())
    assert "Linha digitável (pagamento em lotérica)" in words and boleto.formatted(trade["barcode"]) in words
    assert "R$ 100,50" in words and "Pague até" in words and "Boleto" not in words
    assert _scanned(pdf, tmp_path) == [(boleto.barcode_from_linha(trade["barcode"]), "ITF")]


def test_a_voucher_chosen_on_the_hosted_checkout_lasts_as_long_too(customer, api):
    page = choose(customer, customer.get(checkout(api, "MXN", "120.50")), "OXXO")
    fields = {"name": "Ana López", "email": "ana@example.com", "document_type": "RFC"}
    before = clock.now()
    done = customer.post(
        form_action(page, "/pages/checkout"), {**fields, "document_number": MEXICAN["number"]}, page=page
    )
    assert done.status_code == 303
    query = api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)
    expire = datetime.strptime(query["expire_time"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
    assert query["method"] == "OXXO"
    assert timedelta(0) <= expire - (before + timedelta(days=5)).replace(microsecond=0) <= timedelta(seconds=5)


def test_a_name_outside_the_pdf_fonts_letters_is_written_not_refused(app):
    """A merchant called "Łódź Café" or "東京ストア": the core font writes what it has, never a 500."""
    voucher = slip_pdf.Voucher(title="Łódź Café · 東京ストア", rows=[("Pagar a", "Łódź Café")], digits="12345678")
    with app.app_context():
        pdf = slip_pdf.voucher_pdf(voucher)
    assert pdf.startswith(b"%PDF") and len(pdf) < 30_000
