"""A declined card on the hosted checkout, as a customer lives it: the reason, another card or Pix, on a desktop and a phone."""

import re

from playwright.sync_api import expect

from e2e.conftest import fill_card
from e2e.test_pages import PAY, hosted_checkout, serious_violations

NO_FUNDS = "4000 0000 0000 9995"  # the sandbox issuer: insufficient funds
GOOD = "4111 1111 1111 1111"
NBSP = "\xa0"


def declined_by(page, number: str, name: str = "Ana Souza") -> None:
    """Pay the open card form with a card the sandbox issuer refuses, through its 3-D Secure step."""
    fill_card(page, number, name=name)
    page.get_by_role("button", name=PAY).click()
    expect(page.get_by_role("heading", name="Confirme sua compra")).to_be_visible()
    page.get_by_role("button", name="Confirmar", exact=True).click()


def test_a_declined_card_then_another_card_pays(profile, shot, shop_api):
    trade = hosted_checkout(shop_api, f"recovery-card-{profile.name}")
    page = profile.new_page()
    page.goto(trade["web_url"])
    page.get_by_role("link", name="Cartão").click()
    declined_by(page, NO_FUNDS)
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Seu cartão não tem saldo suficiente.")
    expect(alert).to_contain_text("Nada foi cobrado no cartão VISA •••• 9995.")
    expect(alert).to_contain_text("Você pode tentar outro cartão (restam 2 tentativas) ou pagar de outra forma.")
    expect(page.get_by_role("heading", name="Cartão")).to_be_visible()
    number = page.get_by_label("Número do cartão")
    expect(number).to_be_focused()
    expect(number).to_have_value("")
    expect(page.get_by_label("Código de segurança")).to_have_value("")
    expect(page.get_by_role("heading", name="Ou pague de outra forma")).to_be_visible()
    expect(page.locator("#other-methods").get_by_role("link", name="Pix")).to_be_visible()
    expect(page.get_by_text("CreditCard", exact=False)).to_have_count(0)
    assert serious_violations(page) == []
    shot(page, "checkout-card-declined")
    assert shop_api.payin("/trade/query", {"trade_no": trade["trade_no"]})["trade_status"] == "INITIAL"

    fill_card(page, GOOD)
    page.get_by_label("Parcelas").select_option("3")
    page.get_by_role("button", name=PAY).click()
    expect(page.locator(".instalments")).to_have_text(f"3x de R${NBSP}50,00 sem juros")
    page.get_by_role("button", name="Confirmar", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Pagamento recebido. Obrigado!")
    expect(page.locator(".instalments")).to_have_text(f"3x de R${NBSP}50,00 sem juros")
    query = shop_api.payin("/trade/query", {"trade_no": trade["trade_no"]})
    assert (query["trade_status"], query["method"]) == ("SUCCESS", "CreditCard")
    assert [h["trade_status"] for h in query["status_history"]] == ["INITIAL", "INITIAL", "PROCESSING", "SUCCESS"]


def test_a_declined_card_then_pix_from_the_same_page(profile, shot, shop_api):
    trade = hosted_checkout(shop_api, f"recovery-pix-{profile.name}")
    page = profile.new_page()
    page.goto(trade["web_url"])
    page.get_by_role("link", name="Cartão").click()
    declined_by(page, GOOD, name="OTHE")  # the holder's name: the issuer declines
    expect(page.get_by_role("alert")).to_contain_text("Seu banco recusou este cartão.")
    page.locator("#other-methods").get_by_role("link", name="Pix").click()
    expect(page.get_by_role("heading", name="Pix")).to_be_visible()
    expect(page.get_by_role("alert")).to_have_count(0)  # the card's reason stays with the card
    page.get_by_label("Telefone").fill("+5511987654321")
    page.get_by_role("button", name=PAY).click()
    expect(page.locator("#pix-code")).to_have_value(re.compile(r"^000201.*5406150\.00"))
    page.get_by_role("button", name="Testes: pagar agora").click()
    expect(page.get_by_role("status")).to_have_text("Pagamento recebido. Obrigado!")
    query = shop_api.payin("/trade/query", {"trade_no": trade["trade_no"]})
    assert (query["trade_status"], query["method"]) == ("SUCCESS", "PIX")
