"""Every method of the payin table and every wallet channel, paid in Chromium on a phone and a desktop with only
what its page shows: the code it gives to copy pasted into the sandbox's bank app, its QR read from the screen as a
phone's camera would, or the bank's or wallet's sandbox page it continues to. Every redirect method is also declined
there, and left without an answer (back on the payment page, which still waits). Each ends on the result page, back
at the merchant's return_url, with the merchant's notification. Plus a card of each Gulf country paid on the hosted
checkout's card form."""

from __future__ import annotations

import io
import json
import re
from decimal import Decimal

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from checkout import money
from e2e.conftest import CARD_EXPIRY
from e2e.test_pages import serious_violations
from tests.pages.country_payments import APP, BANK, EVERY_METHOD, HANDOFF, QR, VOUCHER

PAID = {
    "en": "Payment received. Thank you!",
    "es-MX": "Pago recibido. ¡Gracias!",
    "pt-BR": "Pagamento recebido. Obrigado!",
}
REFUSED = {
    "en": "This payment was refused.",
    "es-MX": "Este pago fue rechazado.",
    "pt-BR": "Este pagamento foi recusado.",
}
CAME_BACK = {"en": "without paying", "es-MX": "sin pagar", "pt-BR": "sem pagar"}
PAY_NOW = {"en": "Sandbox: pay now", "es-MX": "Pruebas: pagar ahora", "pt-BR": "Testes: pagar agora"}
# What a bank's app is given, in the order a customer would reach for it: the page's own code first.
CODES = ("pix-code", "boleto-digits", "clabe", "barcode", "reference")
REDIRECTS = [name for name, case in EVERY_METHOD.items() if case.journey in (HANDOFF, APP)]
# PSE asks which bank pays, on its own page.
PSE_BANK = "Bancolombia"
# The gallery's pictures of the journeys (docs/gallery.md): a method's page as the customer first sees it.
SHOTS = {
    "co-pse": "pse-payment",
    "mx-codi": "codi-payment",
    "br-lottery": "lottery-payment",
    "mx-cash": "cash-payment",
    "ar-pagofacil": "pagofacil-payment",
    "ar-transfer": "bank-transfer-payment",
    "ph-qrph": "qrph-payment",
    "br-picpay": "wallet-payment",
}


def create(shop_api, shop: str, name: str, out_trade_no: str) -> dict:
    body = EVERY_METHOD[name].body(out_trade_no, notify_url=f"{shop}/notify", return_url=f"{shop}/back")
    return shop_api.payin("/trade/pay", body)


def open_page(profile, trade: dict):
    profile.grant_permissions(["clipboard-read", "clipboard-write"])
    page = profile.new_page()
    page.goto(trade.get("pay_url") or trade.get("wallet_url") or trade["web_url"])
    expect(page.locator("main h1")).to_be_visible()
    return page


def language(page) -> str:
    lang = page.locator("html").get_attribute("lang")
    assert lang in PAID, lang
    return lang


def copied(page, target: str) -> str:
    """Press a field's copy button and read back what the clipboard holds."""
    button = page.locator(f".copy [data-copy={target}]").first
    button.click()
    expect(button).to_have_text(re.compile("Copied|Copiado"))
    return page.evaluate("navigator.clipboard.readText()")


def read_codes(picture: bytes) -> list[tuple[str, str]]:
    return [(r.text, r.format.name) for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(picture)))]


def scanned_qr(page) -> str:
    """The QR the page draws, read from the screen as a phone's camera would."""
    box = page.locator(".qr-box").first
    if box.locator("svg").count() == 0:  # folded away on a phone: the customer opens it
        page.locator("details.fold summary").first.click()
    expect(box.locator("svg")).to_be_visible()
    ((code, symbology),) = read_codes(box.screenshot())
    assert symbology == "QRCode"
    return code


def pay_by_pasting(page, code: str) -> None:
    """The sandbox panel's paste form: what the customer copied from the page, as into its bank's app."""
    page.locator(".paste input[name=code]").fill(code)
    page.locator(".paste button").click()


def hand_off(page, decision: str, shot=None, scan: bool = False) -> None:
    """Continue to the bank or wallet, which the sandbox plays (choosing the bank where it asks), then answer."""
    page.locator("a.handoff").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("(")  # "<bank or wallet> (sandbox)"
    expect(page.locator(".handoff .terms")).to_be_visible()
    choose = page.locator("select[name=bank]")
    if choose.count():
        choose.select_option(label=PSE_BANK)
    if scan:
        assert serious_violations(page) == []
    if shot:
        shot(page)
    if decision == "leave":
        page.locator(".leave a").click()
    else:
        page.locator(f"button[value={decision}]").click()


def pay_with_what_the_page_shows(page, case, lang: str) -> None:
    if case.journey in (HANDOFF, APP):
        expect(page.locator(".paste")).to_have_count(0)  # nothing to paste: the bank or wallet confirms it
        hand_off(page, "approve")
    elif case.journey == QR or (case.method == "CoDi"):
        pay_by_pasting(page, scanned_qr(page))
    else:
        shown = [code for code in CODES if page.locator(f".copy [data-copy={code}]").count()]
        if shown:
            pay_by_pasting(page, copied(page, shown[0]))
        else:  # a deposit is recognised by its amount and account: the sandbox plays the deposit
            page.get_by_role("button", name=PAY_NOW[lang]).click()


@pytest.mark.parametrize("name", list(EVERY_METHOD))
def test_every_method_is_paid_from_its_page(profile, shop_api, shop, notified, shot, name):
    case = EVERY_METHOD[name]
    trade = create(shop_api, shop, name, f"every-{name}-{profile.name}")
    page = open_page(profile, trade)
    lang = language(page)
    assert serious_violations(page) == [], name
    if name in SHOTS:
        shot(page, SHOTS[name])
    if case.journey == VOUCHER:
        expect(page.locator(".voucher .place")).not_to_be_empty()
    elif case.journey == BANK:
        given = json.loads(trade["instruction"])["beneficiary"]
        expect(page.locator("#bank-account")).to_have_value(given["bank"]["account"]["number"])
    pay_with_what_the_page_shows(page, case, lang)
    expect(page.locator(".pay-result [role=status]")).to_have_text(PAID[lang], timeout=15_000)
    query = shop_api.payin("/trade/query", {"trade_no": trade["trade_no"]})
    assert (query["trade_status"], query["order_amount"]) == ("SUCCESS", _amount(case))
    arrived = notified(lambda headers, raw: json.loads(raw).get("trade_no") == trade["trade_no"])
    assert arrived is not None and json.loads(arrived[1])["trade_status"] == "SUCCESS"
    page.locator(".pay-result a.button").click()  # back to the shop, with the signed result
    expect(page.get_by_role("heading", name="Back at the shop")).to_be_visible()
    assert page.locator("#token").inner_text().count(".") == 2


@pytest.mark.parametrize("name", REDIRECTS)
def test_a_redirect_left_then_declined_at_the_bank_or_wallet(profile, shop_api, shop, notified, shot, name):
    """Back from the bank without an answer, the page still waits and offers the bank again; declined there, the
    payment is refused, with the reason in the query and the notification."""
    case = EVERY_METHOD[name]
    trade = create(shop_api, shop, name, f"every-no-{name}-{profile.name}")
    page = open_page(profile, trade)
    lang = language(page)
    pictured = name == "co-pse"
    hand_off(page, "leave", (lambda p: shot(p, "pse-bank")) if pictured else None, scan=True)
    expect(page.get_by_role("alert")).to_contain_text(CAME_BACK[lang])
    expect(page.locator(".pay-how [role=status]")).to_be_visible()
    assert serious_violations(page) == [], name
    if pictured:
        shot(page, "handoff-came-back")
    assert shop_api.payin("/trade/query", {"trade_no": trade["trade_no"]})["trade_status"] == "PROCESSING"
    hand_off(page, "decline")
    expect(page.locator(".pay-result [role=status]")).to_have_text(REFUSED[lang], timeout=15_000)
    if pictured:
        shot(page, "handoff-refused")
    query = shop_api.payin("/trade/query", {"trade_no": trade["trade_no"]})
    assert query["trade_status"] == "REFUSED"
    assert query["refuse_detail"].startswith("declined by the customer at ")
    if case.method == "PSE":
        assert query["refuse_detail"] == f"declined by the customer at PSE ({PSE_BANK})"
    arrived = notified(lambda headers, raw: json.loads(raw).get("trade_no") == trade["trade_no"])
    assert arrived is not None and json.loads(arrived[1])["trade_status"] == "REFUSED"


def _amount(case) -> str:
    return money.format_minor(money.to_minor(Decimal(case.amount), case.currency), case.currency)


# The Gulf's card pages: Bahrain, Kuwait and Oman in three-decimal currencies, Qatar, Saudi Arabia and the UAE in two.
GULF_CARDS = [
    ("BHD", "12.345"),
    ("KWD", "7.125"),
    ("OMR", "3.500"),
    ("QAR", "45.50"),
    ("SAR", "120.75"),
    ("AED", "99.99"),
]


@pytest.mark.parametrize(("currency", "amount"), GULF_CARDS)
def test_a_gulf_card_on_the_hosted_checkout(profile, shop_api, currency, amount):
    trade = shop_api.payin(
        "/trade/create",
        {
            "out_trade_no": f"cj-{currency.lower()}-{profile.name}",
            "order_currency": currency,
            "order_amount": amount,
            "subject": "Order 42",
            "content": "Blue shirt",
            "trade_type": "WEB",
            "version": "2.0",
            "notify_url": "http://127.0.0.1:9/notify",
            "buyer_id": "buyer-42",
            "customer": {"name": "Fatima Ali", "email": "fatima@example.com", "identify": {"type": "", "number": ""}},
        },
    )
    page = profile.new_page()
    page.goto(trade["web_url"])
    # The card is the only method in these currencies: its form is open at once, in English (no Arabic catalogue).
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_label("Full name")).to_have_value("Fatima Ali")
    page.get_by_label("Card number").fill("4111 1111 1111 1111")
    page.get_by_label("Expiry date").fill(CARD_EXPIRY)
    page.get_by_label("Security code").fill("123")
    page.get_by_label("Name on the card").fill("Fatima Ali")
    pay = page.locator("button.pay")
    expect(pay).to_contain_text(amount)  # the currency's minor units: three for the dinars and the rial of Oman
    pay.click()
    expect(page.get_by_role("heading", name="Confirm your purchase")).to_be_visible()
    page.get_by_role("button", name="Confirm", exact=True).click()
    expect(page.get_by_role("status")).to_have_text(PAID["en"], timeout=15_000)
    query = shop_api.payin("/trade/query", {"trade_no": trade["trade_no"]})
    assert (query["trade_status"], query["method"], query["order_amount"]) == ("SUCCESS", "CreditCard", amount)
