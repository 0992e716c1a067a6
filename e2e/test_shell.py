"""The shell every page shares, in Chromium: dark mode, the landing page, result pages, the demo at 127.0.0.1."""

from urllib.parse import quote, urlsplit

import requests
from playwright.sync_api import expect

from e2e.test_demo import store_card
from e2e.test_pages import CPF, direct, expected_logo, logo_box, payout_session, serious_violations
from tests import formats


def test_dark_mode_payment_page_and_payout_form_pass_axe(profile, shot, shop_api, shop):
    trade = direct(shop_api, "PIX", f"dark-pix-{profile.name}")
    session = payout_session(shop_api, shop, f"dark-{profile.name}")
    page = profile.new_page()
    page.emulate_media(color_scheme="dark")
    for name, url, heading in (
        ("shell-dark-pix-payment", trade["pay_url"], None),
        ("shell-dark-payout-form", session["checkout_url"], f"Receba {formats.money('500.00', 'BRL', 'pt_BR')}"),
    ):
        page.goto(url)
        expect(page.locator("main h1")).to_be_visible()
        if heading:
            expect(page.get_by_role("heading", name=heading)).to_be_visible()
        # The dark scheme is on: the page's background is the dark one, not the light sheet's.
        background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        assert background == "rgb(14, 19, 26)", background
        expect(page.locator(".foot .secure")).to_have_text("Pagamento seguro")
        assert logo_box(page) == expected_logo(profile)
        assert serious_violations(page) == [], name
        shot(page, name)


def test_light_mode_has_the_light_sheet(profile, shop_api):
    page = profile.new_page()
    page.emulate_media(color_scheme="light")
    page.goto(direct(shop_api, "Boleto", f"light-boleto-{profile.name}")["pay_url"])
    expect(page.locator("main h1")).to_be_visible()
    assert page.evaluate("getComputedStyle(document.documentElement).backgroundColor") == "rgb(245, 247, 250)"
    expect(page.locator(".sandbox-badge")).to_have_text("Ambiente de testes")
    expect(page.locator(".foot-note")).to_have_text("Ambiente de testes: nenhum dinheiro real é movimentado.")


def test_landing_page_links_work(profile, shot, live_server):
    page = profile.new_page()
    page.goto(live_server + "/")
    expect(page.get_by_role("heading", name="A payment service, running here")).to_be_visible()
    assert serious_violations(page) == []
    shot(page, "shell-landing")
    for name in ("OpenAPI document", "/healthz"):
        href = page.get_by_role("link", name=name, exact=True).get_attribute("href")
        answer = requests.get(live_server + href, timeout=15)
        assert answer.status_code == 200 and answer.headers["Content-Type"] == "application/json", name
    assert requests.get(live_server + "/openapi.json", timeout=15).json()["openapi"].startswith("3.")
    page.get_by_role("link", name="Open the merchant demo").click()
    expect(page).to_have_url(f"http://localhost:{urlsplit(live_server).port}/demo/")
    expect(page.locator("main h1")).to_be_visible()


def test_the_demo_opened_at_127_0_0_1_stores_a_card_in_its_frame(profile, shot, live_server):
    demo = f"http://127.0.0.1:{urlsplit(live_server).port}/demo"
    page = profile.new_page()
    store_card(page, demo, "4111 1111 1111 1111")
    # Back where the journey started, not on the other loopback name.
    assert page.url.startswith(demo + "/return?")
    shot(page, "shell-demo-127")


def test_payout_result_in_a_frame_says_what_was_sent_where(profile, shot, shop_api, shop):
    session = payout_session(shop_api, shop, f"framed-result-{profile.name}")
    page = profile.new_page()
    page.goto(f"{shop}/frame?src={quote(session['checkout_url'] + '&language=en', safe='')}")
    frame = page.frame_locator("#checkout")
    frame.get_by_label("Full name").fill("Ana Souza")
    frame.get_by_label("CPF or CNPJ").fill(CPF)
    frame.get_by_label("Pix key type").select_option("EMAIL")
    frame.get_by_label("Pix key", exact=True).fill("ana@example.com")
    frame.get_by_role("button", name="Confirm and receive").click()
    expect(frame.get_by_role("heading", name="Your transfer is on its way")).to_be_visible()
    status = shop_api.payout("/payout/status", {"custom_code": f"framed-result-{profile.name}"})
    expect(frame.locator(".result-amount")).to_have_text(formats.money("500.00", "BRL", "en"))
    expect(frame.locator(".summary dd")).to_have_text(
        ["Pix", "Pix key (E-mail): a•••@example.com", "Ana Souza", status["payout_id"]]
    )
    expect(frame.locator(".next-steps li").first).to_have_text("The money usually arrives in minutes.")
    expect(frame.get_by_role("link", name="Back to Loja Exemplo")).to_have_attribute("target", "_top")
    expect(page.locator("#received")).to_contain_text('"type":"checkout.payout"')
    shot(page, "shell-payout-result-framed")
