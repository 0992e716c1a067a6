"""Every hosted page, completed in real Chromium on a desktop and a phone profile."""

import json
import re
from datetime import date, datetime, timedelta, timezone
from urllib.parse import quote

import requests
from axe_playwright_python.sync_playwright import Axe
from joserfc import jws
from playwright.sync_api import expect

from checkout.signing import jws_key
from e2e.conftest import fill_card, framed
from tests import formats

BRAZIL = timezone(timedelta(hours=-3))
CPF = "39053344705"
# The 150.00 BRL of direct() and hosted_checkout() as the Brazilian pages write it, and their pay button.
ORDER = formats.money("150.00", "BRL", "pt_BR")
PAY = f"Pagar {ORDER}"


def claims_of(url: str, key: str) -> dict:
    token = re.search(r"[?&]token=([^&]+)", url).group(1)
    return json.loads(jws.deserialize_compact(token, jws_key(key)).payload)


def logo_box(page) -> tuple[float, float]:
    box = page.locator(".logo img").bounding_box()
    return round(box["width"]), round(box["height"])


def expected_logo(profile) -> tuple[int, int]:
    return (42, 42) if profile.name == "mobile" else (128, 64)


def pix_vault(shop_api, shop, uid: str) -> dict:
    # The service's day, not this machine's: another test moves the sandbox clock (30 minutes), which
    # near midnight in Brazil is already tomorrow there.
    now = requests.get(f"{shop_api.base}/sandbox/clock", headers=shop_api.basic, timeout=15).json()["now"]
    today = datetime.fromtimestamp(now, BRAZIL).date()
    return shop_api.payin(
        "/vault/create",
        {
            "version": "2.0",
            "type": "pix",
            "return_url": f"{shop}/back",
            "subject": "Academia · plano mensal",
            "pix": {
                "region": "BRA",
                "method": "PIXAutomatic",
                "uid": uid,
                "plan": {
                    "internal": "1M",
                    "start_date": today.isoformat(),
                    "end_date": date(today.year + 1, today.month, min(today.day, 28)).isoformat(),
                    "minimum_amount": "10.00",
                    "maximum_amount": "200.00",
                },
                "customer": {"identification": {"type": "CPF", "number": CPF}, "name": "Ana Souza"},
            },
        },
    )


def card_token(shop_api, card_no="4111111111111111") -> str:
    return shop_api.payin(
        "/card/token",
        {
            "card": {
                "card_no": card_no,
                "cvv": "123",
                "valid_thru_year": "2031",
                "valid_thru_month": "12",
                "holder": {"name": "Ana Souza"},
            }
        },
    )["token"]


def test_pix_automatico_authorization_follows_the_bank_live(profile, shop_api, shop, merchant):
    vault = pix_vault(shop_api, shop, f"pix-{profile.name}")
    page = profile.new_page()
    page.goto(vault["checkout_url"])
    expect(page.get_by_role("heading", name="Autorize pagamentos automáticos por Pix")).to_be_visible()
    expect(page.locator(".terms")).to_contain_text("Mensal")
    expect(page.locator(".terms")).to_contain_text("***.533.447-**")
    expect(page.locator("#pix-code")).to_have_value(re.compile(r"^000201.*br\.gov\.bcb\.pix.*6304[0-9A-F]{4}$"))
    assert logo_box(page) == expected_logo(profile)
    shop_api.payin(f"/sandbox/vaults/{vault['token']}/approve")  # the payer's bank, elsewhere
    expect(page.get_by_role("heading", name="Back at the shop")).to_be_visible(timeout=10_000)
    claims = claims_of(page.url, merchant["security_key"])
    assert (claims["sub"], claims["status"]) == (vault["token"], "ACTIVE")


def test_rejected_pix_authorization(profile, shop_api, shop, merchant):
    vault = pix_vault(shop_api, shop, f"pix-reject-{profile.name}")
    page = profile.new_page()
    page.goto(vault["checkout_url"] + "&language=en")
    page.get_by_role("button", name="Bank rejects").click()
    expect(page.get_by_role("heading", name="Back at the shop")).to_be_visible()
    assert claims_of(page.url, merchant["security_key"])["status"] == "DECLINED"


def card_vault(shop_api, shop, **extra) -> dict:
    """A card-on-file vault of a fresh Visa token: its consent page waits at `checkout_url`."""
    return shop_api.payin(
        "/vault/create",
        {
            "version": "2.0",
            "type": "Card",
            **extra,
            "card_token": {
                "region": "BRA",
                "method": "CreditCard",
                "uid": "u1",
                "token": card_token(shop_api),
                "notify_url": f"{shop}/notify",
            },
        },
    )


def test_card_consent(profile, shop_api, shop, merchant):
    vault = card_vault(shop_api, shop, return_url=f"{shop}/back")
    page = profile.new_page()
    page.goto(vault["checkout_url"])
    expect(page.locator(".card-line")).to_have_text("VISA •••• 1111")
    assert logo_box(page) == expected_logo(profile)
    page.get_by_role("button", name="Permitir", exact=True).click()
    expect(page.get_by_role("heading", name="Back at the shop")).to_be_visible()
    assert claims_of(page.url, merchant["security_key"])["status"] == "ACTIVE"
    page.go_back()  # back button after completion: the result, never the form again
    expect(page.get_by_role("button", name="Permitir", exact=True)).to_have_count(0)


def test_card_entry_in_a_cross_site_iframe(profile, shop_api, shop):
    card_url = shop_api.payin("/card/session", {"country": "BRA"})["card_url"]
    page = profile.new_page()
    page.goto(f"{shop}/frame?src={card_url.replace('&', '%26')}")
    frame = page.frame_locator("#checkout")
    fill_card(frame)
    frame.get_by_role("button", name="Salvar cartão").click()
    expect(page.locator("#received")).to_contain_text("checkout.card_token")
    received = json.loads(page.locator("#received").text_content())
    assert received["origin"].startswith("http://127.0.0.1:")
    assert received["data"]["token"].startswith("tok_") and received["data"]["last_four_digits"] == "1111"
    expect(frame.get_by_role("heading", name="Cartão salvo")).to_be_visible()


def test_card_entry_refuses_a_bad_number(profile, shop_api):
    profile.expected_statuses.add(422)
    page = profile.new_page()
    page.goto(shop_api.payin("/card/session", {})["card_url"] + "&language=en")
    page.get_by_label("Card number").fill("4111 1111 1111 1112")
    page.get_by_label("Expiry date").fill(f"12/{(date.today().year + 3) % 100:02d}")
    page.get_by_label("Security code").fill("123")
    page.get_by_label("Name on the card").fill("Ana")
    page.get_by_role("button", name="Save card").click()
    expect(page.locator("#card_no-error")).to_have_text("This card number is not valid.")
    expect(page.get_by_label("Card number")).to_have_attribute("aria-invalid", "true")


def direct(shop_api, method: str, out_trade_no: str, **extra) -> dict:
    return shop_api.payin(
        "/trade/pay",
        {
            "out_trade_no": out_trade_no,
            "method": method,
            "order_currency": "BRL",
            "order_amount": "150.00",
            "subject": "Pedido 42",
            "notify_url": "http://127.0.0.1:9/notify",
            "buyer_id": "b1",
            "customer": {
                "name": "Ana Souza",
                "email": "ana@example.com",
                "phone": "+5511987654321",
                "identify": {"type": "CPF", "number": CPF},
            },
            "address": {
                "zip_code": "01310100",
                "state": "SP",
                "city": "São Paulo",
                "street_number": "1000",
                "street": "Avenida Paulista",
            },
            **extra,
        },
    )


def test_pix_payment_page(profile, shop_api, shop):
    trade = direct(shop_api, "PIX", f"pix-{profile.name}", return_url=f"{shop}/back")
    page = profile.new_page()
    page.goto(trade["pay_url"])
    expect(page.locator(".amount")).to_have_text(ORDER)
    expect(page.locator("#pix-code")).to_have_value(trade["qr_code"])
    expect(page.locator("[data-countdown]")).to_have_text(re.compile(r"^1:2\d:\d\d$|^1:30:00$"))
    assert logo_box(page) == expected_logo(profile)
    page.get_by_role("button", name="Testes: pagar agora").click()
    expect(page.get_by_role("status")).to_have_text("Pagamento recebido. Obrigado!")
    expect(page.get_by_role("link", name="Voltar para Loja Exemplo")).to_be_visible()


def test_boleto_page_updates_when_paid_elsewhere(profile, shop_api):
    trade = direct(shop_api, "Boleto", f"boleto-{profile.name}")
    page = profile.new_page()
    page.goto(trade["pay_url"])
    line = re.compile(r"^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$")
    expect(page.locator("#slip-digits")).to_have_text(line)
    shop_api.payin(f"/sandbox/trades/{trade['trade_no']}/pay")
    expect(page.get_by_role("status")).to_have_text("Pagamento recebido. Obrigado!", timeout=10_000)


def payout_session(shop_api, shop, custom_code: str) -> dict:
    """A 500.00 BRL payout checkout session paid from USD, the merchant bearing the fee."""
    return shop_api.payout(
        "/checkout",
        {
            "user_id": "u1",
            "custom_code": custom_code,
            "fee_bear": "merchant",
            "source_currency": "USD",
            "payout_currency": "BRL",
            "payout_amount": "500.00",
            "notify_url": f"{shop}/notify",
            "return_url": f"{shop}/back",
            "additional_remark": "withdrawal",
            "country": "BRA",
        },
    )


def test_payout_checkout_creates_one_payout_on_a_double_click(profile, shop_api, shop, merchant):
    custom_code = f"co-{profile.name}"
    session = payout_session(shop_api, shop, custom_code)
    page = profile.new_page()
    page.goto(session["checkout_url"])
    expect(page.get_by_role("heading", name=f"Receba {formats.money('500.00', 'BRL', 'pt_BR')}")).to_be_visible()
    assert logo_box(page) == expected_logo(profile)
    page.get_by_label("Nome completo").fill("Ana Souza")
    page.get_by_label("CPF ou CNPJ").fill(CPF)
    page.get_by_label("Tipo de chave Pix").select_option("EMAIL")
    page.get_by_label("Chave Pix", exact=True).fill("ana@example.com")
    page.get_by_role("button", name="Confirmar e receber").dblclick()
    expect(page.get_by_role("heading", name="Back at the shop")).to_be_visible()
    claims = claims_of(page.url, merchant["app_key"])
    assert claims["custom_code"] == custom_code
    status = shop_api.payout("/payout/status", {"custom_code": custom_code})
    assert status["payout_id"] == claims["sub"]


def test_expired_and_tampered_links(profile, shop_api):
    profile.expected_statuses.add(400)
    trade = direct(shop_api, "Lottery", f"lottery-{profile.name}")
    page = profile.new_page()
    response = page.goto(trade["pay_url"][:-4] + "AAAA")
    assert response.status == 400
    expect(page.get_by_role("heading", name="This link is not valid")).to_be_visible()


def serious_violations(page) -> list[str]:

    results = Axe().run(page)
    return [
        f"{v['id']}: {v['help']} ({len(v['nodes'])} nodes)"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


LANGUAGES = ("en", "pt-BR", "es-MX")


def test_screenshots_of_every_page(profile, shot, shop_api, shop, demo):
    """Each page as the customer first sees it, in this profile's view, scanned with axe-core, then the
    same page inside the shop's cross-site iframe; no interaction follows the picture (a full-page shot
    relays a phone's page out)."""
    session = payout_session(shop_api, shop, f"shot-{profile.name}")
    rfc = {"type": "RFC", "number": "MAMB780915969"}
    mexican = {
        "order_currency": "MXN",
        "customer": {"name": "Ana López", "email": "ana@example.com", "phone": "+525512345678", "identify": rfc},
    }
    paid = direct(shop_api, "PIX", f"shot-paid-{profile.name}", return_url=f"{shop}/back")
    shop_api.payin(f"/sandbox/trades/{paid['trade_no']}/pay")
    web_url = hosted_checkout(shop_api, f"shot-hosted-{profile.name}")["web_url"]
    pages = {
        "pix-authorization": pix_vault(shop_api, shop, f"shot-{profile.name}")["checkout_url"],
        "card-consent": card_vault(shop_api, shop)["checkout_url"],
        "card-entry": shop_api.payin("/card/session", {"country": "BRA"})["card_url"],
        "checkout-methods": web_url,
        "checkout-pix": f"{web_url}&method=PIX",
        "checkout-card": f"{web_url}&method=CreditCard",
        "pix-payment": direct(shop_api, "PIX", f"shot-pix-{profile.name}")["pay_url"],
        "pix-paid": paid["pay_url"],
        "boleto-payment": direct(shop_api, "Boleto", f"shot-boleto-{profile.name}")["pay_url"],
        "deposit-payment": direct(shop_api, "DepositExpress", f"shot-dep-{profile.name}", bank="itau")["pay_url"],
        "spei-payment": direct(shop_api, "SPEI", f"shot-spei-{profile.name}", **mexican)["pay_url"],
        "oxxo-payment": direct(shop_api, "OXXO", f"shot-oxxo-{profile.name}", **mexican)["pay_url"],
        "payout-checkout": session["checkout_url"],
        "payout-checkout-es": shop_api.payout(
            "/checkout",
            {
                "user_id": "u2",
                "custom_code": f"shot-mx-{profile.name}",
                "fee_bear": "beneficiary",
                "source_currency": "USD",
                "payout_currency": "MXN",
                "payout_amount": "2000.00",
                "notify_url": f"{shop}/notify",
                "return_url": f"{shop}/back",
                "additional_remark": "retiro",
                "country": "MEX",
            },
        )["checkout_url"],
    }
    page = profile.new_page()
    for name, url in pages.items():
        # axe-core in each language the pages speak (their texts' lengths and lang attribute differ); the
        # picture in the session's own language.
        for language in LANGUAGES:
            page.goto(f"{url}&language={language}")
            expect(page.locator("html")).to_have_attribute("lang", language)
            assert serious_violations(page) == [], (name, language)
        page.goto(url)
        expect(page.locator("main h1")).to_be_visible()
        assert logo_box(page) == expected_logo(profile), name
        assert serious_violations(page) == [], name
        shot(page, name)
    for name, url in pages.items():
        frame = framed(page, shop, url)
        expect(frame.locator("main h1")).to_be_visible()
        expect(page.locator("#received")).to_contain_text('"type":"checkout.')
        shot(page, name, f"{profile.name}-frame")
    profile.expected_statuses.add(400)
    page.goto(pages["pix-payment"][:-4] + "AAAA")
    expect(page.locator("main h1")).to_be_visible()
    assert serious_violations(page) == []
    shot(page, "error-page")
    for name in ("", "card", "notifications"):
        page.goto(f"{demo}/{name}")
        expect(page.locator("main h1")).to_be_visible()
        shot(page, f"demo-{name or 'index'}")


def hosted_checkout(shop_api, out_trade_no: str, **extra) -> dict:
    """The provider's checkout-page request (payin/checkout-page/general.md): no method, customer partly known."""
    return shop_api.payin(
        "/trade/create",
        {
            "out_trade_no": out_trade_no,
            "order_currency": "BRL",
            "order_amount": "150.00",
            "subject": "Pedido 42",
            "content": "Camiseta azul",
            "trade_type": "WEB",
            "version": "2.0",
            "notify_url": "http://127.0.0.1:9/notify",
            "buyer_id": "b1",
            "customer": {"name": "Ana Souza", "email": "ana@example.com", "identify": {"type": "CPF", "number": CPF}},
            **extra,
        },
    )


def test_hosted_checkout_by_card_with_3ds_and_back_to_the_shop(profile, shop_api, shop, merchant):
    trade = hosted_checkout(shop_api, f"hosted-card-{profile.name}")
    page = profile.new_page()
    page.goto(trade["web_url"] + "&return_url=" + quote(f"{shop}/back?order=42", safe=""))
    expect(page.get_by_role("heading", name="Como você quer pagar?")).to_be_visible()
    page.get_by_role("link", name="Cartão").click()
    expect(page.get_by_label("Nome completo")).to_have_value("Ana Souza")
    fill_card(page)
    page.get_by_role("button", name=PAY).click()
    expect(page.get_by_role("heading", name="Confirme sua compra")).to_be_visible()
    page.get_by_role("button", name="Confirmar", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Pagamento recebido. Obrigado!")
    page.get_by_role("link", name="Voltar para Loja Exemplo").click()
    expect(page.get_by_role("heading", name="Back at the shop")).to_be_visible()
    assert "order=42" in page.url
    claims = claims_of(page.url, merchant["security_key"])
    assert (claims["sub"], claims["status"], claims["out_trade_no"]) == (
        trade["trade_no"],
        "SUCCESS",
        f"hosted-card-{profile.name}",
    )


def test_hosted_checkout_by_pix_in_a_cross_site_iframe(profile, shop_api, shop):
    trade = hosted_checkout(shop_api, f"hosted-pix-{profile.name}")
    page = profile.new_page()
    page.goto(f"{shop}/frame?src={trade['web_url'].replace('&', '%26')}")
    frame = page.frame_locator("#checkout")
    frame.get_by_role("link", name="Pix").click()
    expect(frame.get_by_label("CPF ou CNPJ")).to_have_value(CPF)
    frame.get_by_label("CPF ou CNPJ").fill("390.533.447-05")  # as the customer's card prints it
    frame.get_by_label("Telefone").fill("+5511987654321")
    frame.get_by_role("button", name=PAY).click()
    expect(frame.locator("#pix-code")).to_have_value(re.compile(r"^000201.*5406150\.00"))
    frame.get_by_role("button", name="Testes: pagar agora").click()
    expect(frame.get_by_role("status")).to_have_text("Pagamento recebido. Obrigado!")
    assert shop_api.payin("/trade/query", {"trade_no": trade["trade_no"]})["trade_status"] == "SUCCESS"
