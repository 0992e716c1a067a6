"""Card entry as a customer types it: grouping, brand, expiry, every error at once, the frame that fits it."""

import json
import re
from datetime import date

from playwright.sync_api import expect

from e2e.conftest import fill_card
from e2e.test_pages import ORDER, PAY, hosted_checkout, serious_violations

NEXT_YEAR = f"{(date.today().year + 3) % 100:02d}"


def card_page(profile, shop_api, language="en"):
    page = profile.new_page()
    page.goto(shop_api.payin("/card/session", {"country": "BRA"})["card_url"] + f"&language={language}")
    return page


def shown_brand(scope) -> str:
    return scope.locator(".brand-mark:visible").get_attribute("data-brand")


def test_number_grouped_brand_named_and_expiry_slashed_while_typing(profile, shot, shop_api):
    page = card_page(profile, shop_api)
    number = page.get_by_label("Card number")
    expect(page.get_by_label("Expiry date")).to_have_value("")  # nothing pre-filled
    expect(page.get_by_label("Expiry date")).to_have_attribute("placeholder", "MM/YY")
    number.press_sequentially("4111111111111111")
    expect(number).to_have_value("4111 1111 1111 1111")
    assert shown_brand(page) == "visa"
    expect(page.get_by_text("3 digits on the back")).to_be_visible()
    # The caret stays sane: a backspace just after a space takes the digit before it; typing goes where it is.
    number.evaluate("input => input.setSelectionRange(5, 5)")
    number.press("Backspace")
    expect(number).to_have_value("4111 1111 1111 111")
    number.press("9")
    expect(number).to_have_value("4119 1111 1111 1111")
    assert number.evaluate("input => input.selectionStart") == 4
    number.fill("")
    number.press_sequentially("378282246310005")
    expect(number).to_have_value("3782 822463 10005")
    assert shown_brand(page) == "amex"
    expect(page.get_by_text("4 digits on the front")).to_be_visible()
    expect(page.get_by_text("3 digits on the back")).to_be_hidden()
    expiry = page.get_by_label("Expiry date")
    expiry.press_sequentially("1228")
    expect(expiry).to_have_value("12/28")
    expiry.fill("")
    expiry.press_sequentially("4")
    expect(expiry).to_have_value("04/")
    assert serious_violations(page) == []
    shot(page, "card-entry-typing")


def test_an_empty_submit_shows_every_error_at_once_in_portuguese_without_a_request(profile, shot, shop_api):
    page = card_page(profile, shop_api, "pt-BR")
    expect(page.get_by_role("heading", name="Dados do cartão")).to_be_visible()
    sent = []
    page.on("request", lambda request: sent.append(request.url))
    page.get_by_role("button", name="Salvar cartão").click()
    errors = page.locator(".error")
    expect(errors).to_have_count(4)
    expect(errors).to_have_text(["Este campo é obrigatório."] * 4)
    for field in ("card_no", "exp", "cvv", "holder"):
        expect(page.locator(f"#{field}")).to_have_attribute("aria-invalid", "true")
        expect(page.locator(f"#{field}")).to_have_attribute("aria-describedby", re.compile(rf"\b{field}-error\b"))
    expect(page.get_by_label("Número do cartão")).to_be_focused()
    text = page.locator("main").inner_text()
    for english in ("required", "This field", "expired", "Card number", "Save card"):
        assert english not in text, english
    assert serious_violations(page) == []
    shot(page, "card-entry-errors")
    # Wrong values: the same messages the server gives, still no request; a fixed field loses its error.
    page.get_by_label("Número do cartão").fill("4111 1111 1111 1112")
    page.get_by_label("Validade").fill("01/20")
    page.get_by_label("Código de segurança").fill("12")
    page.get_by_label("Nome impresso no cartão").fill("Ana Souza")
    page.get_by_role("button", name="Salvar cartão").click()
    expect(page.locator("#card_no-error")).to_have_text("Este número de cartão não é válido.")
    expect(page.locator("#exp-error")).to_have_text("Este cartão está vencido.")
    expect(page.locator("#cvv-error")).to_have_text("3 ou 4 dígitos.")
    expect(page.locator("#holder-error")).to_have_count(0)
    expect(page.locator("#holder")).not_to_have_attribute("aria-invalid", "true")
    page.get_by_label("Validade").fill("13/30")
    page.get_by_label("Validade").blur()
    expect(page.locator("#exp-error")).to_have_text("O mês deve ser de 01 a 12.")
    assert sent == []
    # Right values: the request goes, once, and the card is saved.
    fill_card(page, name=None)
    page.get_by_role("button", name="Salvar cartão").click()
    expect(page.get_by_role("heading", name="Cartão salvo")).to_be_visible()
    assert len([url for url in sent if "/pages/card" in url]) == 1


def test_the_server_says_every_error_at_once_too(profile, shop_api):
    """A script-less submit (a form filled by a password manager, say): the server's page, one field each."""
    profile.expected_statuses.add(422)
    page = card_page(profile, shop_api)
    page.get_by_label("Card number").fill("5555 5555 5555 4444")
    page.evaluate("document.querySelector('form').submit()")  # bypasses the page's own checks
    expect(page.locator(".error")).to_have_count(3)
    assert shown_brand(page) == "mastercard"  # named by the server's own rules
    expect(page.get_by_label("Expiry date")).to_be_focused()
    expect(page.locator("#exp-error")).to_have_text("This field is required.")


def test_card_entry_in_a_small_frame_grows_with_its_errors(profile, shot, shop_api, shop):
    card_url = shop_api.payin("/card/session", {"country": "BRA"})["card_url"]
    page = profile.new_page()
    page.goto(f"{shop}/frame?src={card_url.replace('&', '%26')}&height=200")
    frame = page.frame_locator("#checkout")
    iframe = page.locator("#checkout")
    expect(page.locator("#messages")).to_contain_text("checkout.resize")
    expect(iframe).not_to_have_attribute("height", "200")  # fitted to the page at once
    fitted = int(iframe.get_attribute("height"))
    frame.get_by_role("button", name="Salvar cartão").click()
    expect(frame.locator(".error")).to_have_count(4)
    expect(iframe).not_to_have_attribute("height", str(fitted))
    grown = int(iframe.get_attribute("height"))
    assert grown > fitted
    button = frame.get_by_role("button", name="Salvar cartão").bounding_box()
    box = iframe.bounding_box()
    assert button["y"] + button["height"] <= box["y"] + box["height"]  # the save button is never cut
    resizes = [
        json.loads(item)["data"]
        for item in page.locator("#messages li").all_text_contents()
        if "checkout.resize" in item
    ]
    assert {r["type"] for r in resizes} == {"checkout.resize"} and resizes[-1]["height"] == grown
    shot(page, "card-entry-in-frame-errors")
    fill_card(frame)
    frame.get_by_role("button", name="Salvar cartão").click()
    expect(page.locator("#received")).to_contain_text("checkout.card_token")
    received = json.loads(page.locator("#received").text_content())
    assert received["origin"].startswith("http://127.0.0.1:")
    assert (received["data"]["brand"], received["data"]["last_four_digits"]) == ("visa", "1111")
    assert received["data"]["token"].startswith("tok_")


def test_hosted_checkout_by_card_with_3ds(profile, shot, shop_api):
    trade = hosted_checkout(shop_api, f"card-entry-3ds-{profile.name}")
    page = profile.new_page()
    page.goto(trade["web_url"])
    expect(page.get_by_role("heading", name="Pedido 42")).to_be_visible()
    summary = page.locator(".order-summary").first
    expect(summary).to_contain_text("Loja Exemplo")
    expect(summary).to_contain_text(ORDER)
    expect(page.locator(".order-content")).to_have_text("Camiseta azul")
    cards = page.locator(".method-card")
    expect(cards.first).to_be_visible()
    for box in (cards.nth(i).bounding_box() for i in range(cards.count())):
        assert box["height"] >= 44 and box["width"] >= 44
    expect(page.get_by_role("link", name="Lotérica")).to_be_visible()
    assert serious_violations(page) == []
    shot(page, "card-entry-checkout-methods")
    page.get_by_role("link", name="Cartão").focus()
    page.keyboard.press("Enter")  # keyboard-usable
    expect(page.get_by_role("heading", name="Cartão")).to_be_visible()
    page.get_by_label("Número do cartão").press_sequentially("4111111111111111")
    assert shown_brand(page) == "visa"
    page.get_by_label("Validade").press_sequentially(f"12{NEXT_YEAR}")
    page.get_by_label("Código de segurança").fill("123")
    page.get_by_label("Nome impresso no cartão").fill("Ana Souza")
    expect(page.get_by_role("button", name=PAY)).to_have_text(PAY)
    shot(page, "card-entry-checkout-card")
    page.get_by_role("button", name=PAY).click()
    expect(page.get_by_role("heading", name="Confirme sua compra")).to_be_visible()
    expect(page.locator(".card-used > span")).to_have_text("VISA •••• 1111")
    assert serious_violations(page) == []
    shot(page, "card-entry-3ds")
    page.get_by_role("button", name="Confirmar", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Pagamento recebido. Obrigado!")
    assert shop_api.payin("/trade/query", {"trade_no": trade["trade_no"]})["trade_status"] == "SUCCESS"
