"""Every journey through the merchant demo, as a person would take it, on a desktop and a phone."""

import re

from playwright.sync_api import expect

from e2e.conftest import fill_card
from tests import formats

# The payout the Demo Shop's "Withdraw R$ 250" buttons ask for (their labels are the demo's own text).
WITHDRAWAL = formats.money("250.00", "BRL", "pt_BR")


def save_card(frame, number: str) -> None:
    fill_card(frame, number)
    frame.get_by_role("button", name="Salvar cartão").click()


def expect_notification(page, demo: str, text: str) -> None:
    page.goto(f"{demo}/notifications")
    expect(page.locator("tbody")).to_contain_text(text, timeout=20_000)


def store_card(page, demo: str, number: str) -> None:
    page.goto(f"{demo}/card")
    save_card(page.frame_locator("#checkout-frame"), number)
    expect(page.get_by_role("heading", name="Permitir que Demo Shop guarde o seu cartão")).to_be_visible()
    page.get_by_role("button", name="Permitir", exact=True).click()
    expect(page.locator(".ok")).to_have_text("Signature verified with the shop's key.")
    expect(page.locator("#claim-status")).to_have_text("ACTIVE")


def test_store_a_card_in_a_frame_and_charge_it(profile, demo):
    page = profile.new_page()
    store_card(page, demo, "4111 1111 1111 1111")
    page.get_by_role("button", name="Charge the card R$ 49,90").click()
    expect(page.locator("#trade-status")).to_have_text("PROCESSING")
    trade_no = page.locator("#trade-no").text_content()
    expect_notification(page, demo, trade_no)
    row = page.locator("tr", has_text=trade_no)
    expect(row.locator(".status")).to_have_text("SUCCESS")
    expect(row).to_contain_text("valid")


def test_a_refused_card(profile, demo):
    page = profile.new_page()
    store_card(page, demo, "4000 0000 0000 0119")
    page.get_by_role("button", name="Charge the card R$ 49,90").click()
    trade_no = page.locator("#trade-no").text_content()
    expect_notification(page, demo, trade_no)
    expect(page.locator("tr", has_text=trade_no).locator(".status")).to_have_text("REFUSED")


def test_pix_automatico_plan_and_first_debit(profile, demo):
    page = profile.new_page()
    page.goto(demo + "/")
    page.get_by_role("button", name="Set up a monthly plan").click()
    expect(page.locator(".terms")).to_contain_text("Demo Shop monthly box")
    page.get_by_role("button", name="Banco aprova").click()
    expect(page.locator("#claim-status")).to_have_text("ACTIVE")
    page.get_by_role("button", name="Schedule today's PIX Automático debit of R$ 49,90").click()
    trade_no = page.locator("#trade-no").text_content()
    expect_notification(page, demo, trade_no)
    expect(page.locator("tr", has_text=trade_no).locator(".status")).to_have_text("SUCCESS")


def test_a_rejected_pix_automatico_authorization(profile, demo):
    page = profile.new_page()
    page.goto(demo + "/")
    page.get_by_role("button", name="Set up a monthly plan").click()
    page.get_by_role("button", name="Banco recusa").click()
    expect(page.locator("#claim-status")).to_have_text("DECLINED")


def test_pay_by_pix_and_come_back(profile, demo):
    page = profile.new_page()
    page.goto(demo + "/")
    page.get_by_role("button", name="Pay by PIX").click()
    expect(page.locator("#pix-code")).to_have_value(re.compile(r"^000201"))
    page.get_by_role("button", name="Testes: pagar agora").click()
    page.get_by_role("link", name="Voltar para Demo Shop").click()
    expect(page.locator("#claim-status")).to_have_text("SUCCESS")


def test_pay_by_boleto(profile, demo):
    page = profile.new_page()
    page.goto(demo + "/")
    page.get_by_role("button", name="Pay by Boleto").click()
    expect(page.locator("#slip-digits")).to_have_text(re.compile(r"^\d{5}\.\d{5} "))
    page.get_by_role("button", name="Testes: pagar agora").click()
    expect(page.get_by_role("status")).to_have_text("Pagamento recebido. Obrigado!")


def payout_form(target) -> None:
    target.get_by_label("Nome completo").fill("Ana Souza")
    target.get_by_label("CPF ou CNPJ").fill("39053344705")
    target.get_by_label("Tipo de chave Pix").select_option("EMAIL")
    target.get_by_label("Chave Pix", exact=True).fill("ana@example.com")
    target.get_by_role("button", name="Confirmar e receber").click()


def test_payout_by_redirect(profile, demo):
    page = profile.new_page()
    page.goto(demo + "/")
    page.get_by_role("button", name="Withdraw R$ 250 (redirect)").click()
    expect(page.get_by_role("heading", name=f"Receba {WITHDRAWAL}")).to_be_visible()
    payout_form(page)
    expect(page.locator("#claim-status")).to_have_text("IN_PROCESSING")
    expect(page.locator("#claim-sub")).to_have_text(re.compile(r"^TS\d+$"))


def test_payout_inside_a_cross_site_frame(profile, demo):
    page = profile.new_page()
    page.goto(demo + "/")
    page.get_by_role("button", name="Withdraw R$ 250 (in a frame)").click()
    payout_form(page.frame_locator("#checkout-frame"))
    expect(page.locator("#claim-status")).to_have_text("IN_PROCESSING")
    assert page.url.startswith(demo + "/return?kind=payout")


def test_mexican_payout_page_is_in_spanish(profile, demo):
    page = profile.new_page()
    page.goto(demo + "/")
    page.get_by_role("button", name="Retirar MX$ 2,000 (SPEI)").click()
    expect(page.get_by_role("heading", name=re.compile(r"^Recibe"))).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "es-MX")


def test_a_tampered_return_token_is_refused(profile, demo):
    profile.expected_statuses.add(400)
    page = profile.new_page()
    page.goto(demo + "/")
    page.get_by_role("button", name="Pay by PIX").click()
    page.get_by_role("button", name="Testes: pagar agora").click()
    back = page.get_by_role("link", name="Voltar para Demo Shop").get_attribute("href")
    tampered = back[:-6] + ("A" if back[-6] != "A" else "B") + back[-5:]
    page.goto(tampered)
    expect(page.get_by_role("heading", name="Return refused")).to_be_visible()


def test_an_expired_payout_session(profile, demo, demo_api):
    profile.expected_statuses.add(410)
    page = profile.new_page()
    page.goto(demo + "/")
    page.get_by_role("button", name="Withdraw R$ 250 (redirect)").click()
    expect(page.get_by_role("heading", name=f"Receba {WITHDRAWAL}")).to_be_visible()
    demo_api.payin("/sandbox/clock", {"advance_seconds": 1801})  # the Demo Shop's own clock
    page.reload()
    expect(page.get_by_role("heading", name="Este link expirou")).to_be_visible()
