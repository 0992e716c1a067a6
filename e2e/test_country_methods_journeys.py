"""A customer journey for each country's new methods, in Chromium: the payment made through the API, its pay_url
opened, what the page shows checked (reference, bar code, bank details, QR, the hand-off button), then paid with
only what the page offers (the sandbox panel, or the bank's or wallet's sandbox page), until the page says paid.
Plus one Decline, and a card of each Gulf country paid on the hosted checkout's card form."""

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
from tests.pages.country_payments import BANK, CASES, HANDOFF, QR, VOUCHER

SPANISH = {"ARG", "BOL", "PRY", "URY", "PAN", "CRI", "ECU", "SLV", "GTM", "PER", "COL"}
PAID = {"en": "Payment received. Thank you!", "es-MX": "Pago recibido. ¡Gracias!"}
REFUSED = {"en": "This payment was refused.", "es-MX": "Este pago fue rechazado."}
# At least one new method of every new country, each journey kind among them.
JOURNEYS = [
    "ar-pagofacil",  # Argentina: voucher with its Code 128 bar code
    "ar-transfer",  # Argentina: bank details
    "bo-transfer",  # Bolivia
    "cr-bncr",  # Costa Rica: partner code and reference
    "ec-transfer",  # Ecuador: hand-off to the bank
    "sv-cash",  # El Salvador
    "gt-cash",  # Guatemala
    "pa-transfer",  # Panama
    "py-transfer",  # Paraguay
    "uy-transfer",  # Uruguay
    "pe-pagoefectivo",  # Peru
    "co-baloto",  # Colombia
    "eg-fawrypay",  # Egypt
    "id-transfer",  # Indonesia: virtual account
    "tw-otc",  # Taiwan: hand-off to the ATM
    "ph-qrph",  # the Philippines: QR Ph
    "my-tng",  # Malaysia
    "th-truemoney",  # Thailand: QR
    "cn-alipay",  # China
    "hk-alipayhk",  # Hong Kong
    "kr-naverpay",  # Korea
    "ru-qiwi",  # Russia
    "tr-papara",  # Türkiye
]


def create(shop_api, name: str, out_trade_no: str) -> dict:
    return shop_api.payin("/trade/pay", CASES[name].body(out_trade_no))


def open_page(profile, trade: dict):
    profile.grant_permissions(["clipboard-read", "clipboard-write"])
    page = profile.new_page()
    page.goto(trade.get("pay_url") or trade["wallet_url"])
    expect(page.locator("main h1")).to_be_visible()
    return page


def language(page) -> str:
    lang = page.locator("html").get_attribute("lang")
    assert lang in PAID, lang
    return lang


def copied(page, target: str) -> str:
    """Press a field's copy button and read back what the clipboard holds."""
    button = page.locator(f".copy [data-copy={target}]")
    button.click()
    expect(button).to_have_text(re.compile("Copied|Copiado"))
    return page.evaluate("navigator.clipboard.readText()")


def pay_by_pasting(page, code: str) -> None:
    """The sandbox panel's paste form: what the customer copied from the page, as into its bank's app."""
    page.locator(".paste input[name=code]").fill(code)
    page.locator(".paste button").click()


def read_codes(picture: bytes) -> list[tuple[str, str]]:
    return [(r.text, r.format.name) for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(picture)))]


def shows_voucher(page, trade: dict) -> str:
    """Reference (partner code), bar code image where there is one, where to pay, exact amount, deadline."""
    expect(page.locator(".voucher .place")).not_to_be_empty()
    expect(page.locator("[data-countdown], .deadline")).not_to_have_count(0)
    if "partner_code" in trade:
        expect(page.locator("#partner-code")).to_have_value(trade["partner_code"])
    if "barcode" in trade:
        source = page.locator(".barcode img").evaluate("image => image.src")
        answer = page.request.get(source)
        assert answer.ok and read_codes(answer.body()) == [(trade["barcode"], "Code128")]
        expect(page.locator("#barcode")).to_have_value(trade["barcode"])
    expect(page.locator("#reference")).to_have_value(trade["reference"])
    return copied(page, "reference")


def shows_bank_details(page, trade: dict) -> str:
    given = json.loads(trade["instruction"])["beneficiary"]
    expect(page.locator("#bank-name")).to_have_value(given["bank"]["name"])
    expect(page.locator("#bank-account")).to_have_value(given["bank"]["account"]["number"])
    expect(page.locator("#bank-document")).to_have_value(given["document"]["id"])
    expect(page.locator("#bank-holder")).to_have_value(given["name"])
    expect(page.locator("#bank-account-type")).not_to_be_empty()
    expect(page.locator("#bank-amount")).to_have_value(trade["_amount"])
    assert copied(page, "bank-account") == given["bank"]["account"]["number"]
    return copied(page, "reference")


def scanned_qr(page, trade: dict) -> str:
    """The QR the page draws, read from the screen as a phone's camera would."""
    box = page.locator(".qr-box")
    expect(box.locator("svg")).to_be_visible()
    ((code, symbology),) = read_codes(box.screenshot())
    assert (code, symbology) == (trade["qr_code"], "QRCode")
    return code


def hand_off(page, decision: str) -> None:
    """Continue to the bank or wallet, which the sandbox plays: Approve or Decline, then back to the page."""
    page.locator("a.handoff").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("(")  # "<bank or wallet> (sandbox)"
    expect(page.locator(".handoff .terms")).to_be_visible()
    assert serious_violations(page) == []
    page.locator(f"button[value={decision}]").click()


@pytest.mark.parametrize("name", JOURNEYS)
def test_country_method_journey(profile, shop_api, name):
    case = CASES[name]
    trade = create(shop_api, name, f"cj-{name}-{profile.name}")
    trade["_amount"] = money.format_minor(money.to_minor(Decimal(case.amount), case.currency), case.currency)
    page = open_page(profile, trade)
    lang = language(page)
    assert serious_violations(page) == [], name
    assert lang == ("es-MX" if case.country.split("-")[0] in SPANISH else "en")
    if case.journey == VOUCHER:
        pay_by_pasting(page, shows_voucher(page, trade))
    elif case.journey == BANK:
        pay_by_pasting(page, shows_bank_details(page, trade))
    elif case.journey == QR:
        pay_by_pasting(page, scanned_qr(page, trade))
    else:
        assert case.journey == HANDOFF
        expect(page.locator(".paste")).to_have_count(0)
        hand_off(page, "approve")
    expect(page.locator(".pay-result [role=status]")).to_have_text(PAID[lang], timeout=15_000)
    assert "/pages/pay?" in page.url
    assert shop_api.payin("/trade/query", {"trade_no": trade["trade_no"]})["trade_status"] == "SUCCESS"


def test_decline_at_the_wallet(profile, shop_api):
    trade = create(shop_api, "tr-papara", f"cj-decline-{profile.name}")
    page = open_page(profile, trade)
    expect(page.locator("a.handoff")).to_have_text("Continue to Papara")
    hand_off(page, "decline")
    expect(page.locator(".pay-result [role=status]")).to_have_text(REFUSED["en"], timeout=15_000)
    query = shop_api.payin("/trade/query", {"trade_no": trade["trade_no"]})
    assert (query["trade_status"], query["refuse_detail"]) == ("REFUSED", "declined by the customer at Papara")


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
