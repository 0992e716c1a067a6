"""The checkout link of a trade_type API order, `/?prepay_id=…&return_url=…`, paid by card in real Chromium."""

from urllib.parse import quote

from playwright.sync_api import expect

from e2e.conftest import fill_card
from e2e.test_pages import PAY, claims_of, hosted_checkout


def test_an_api_order_opened_by_its_prepay_id_is_paid_by_card_and_returns(
    profile, live_server, shop_api, shop, merchant
):
    out_trade_no = f"link-card-{profile.name}"
    order = hosted_checkout(shop_api, out_trade_no, trade_type="API")
    assert (order["code"], order["web_url"], order["trade_status"]) == ("10000", "", "INITIAL")
    page = profile.new_page()
    # The address the provider's pages print: the checkout host, prepay_id, then the encoded return_url.
    page.goto(f"{live_server}/?prepay_id={order['prepay_id']}&return_url={quote(f'{shop}/back?order=42', safe='')}")
    expect(page.get_by_role("heading", name="Como você quer pagar?")).to_be_visible()
    assert "/pages/checkout?token=" in page.url
    page.get_by_role("link", name="Cartão").click()
    expect(page.get_by_label("Nome completo")).to_have_value("Ana Souza")
    fill_card(page)  # the sandbox's approved test card
    page.get_by_role("button", name=PAY).click()
    expect(page.get_by_role("heading", name="Confirme sua compra")).to_be_visible()
    page.get_by_role("button", name="Confirmar", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Pagamento recebido. Obrigado!")
    page.get_by_role("link", name="Voltar para Loja Exemplo").click()
    expect(page.get_by_role("heading", name="Back at the shop")).to_be_visible()
    assert page.url.startswith(f"{shop}/back?order=42&token=")
    claims = claims_of(page.url, merchant["security_key"])
    assert (claims["sub"], claims["status"], claims["out_trade_no"]) == (order["trade_no"], "SUCCESS", out_trade_no)
    # The link stays the order's: paid now, it leads to the payment page and its result, not the picker.
    page.goto(f"{live_server}/?prepay_id={order['prepay_id']}")
    expect(page.get_by_role("status")).to_have_text("Pagamento recebido. Obrigado!")
    assert "/pages/pay?token=" in page.url
