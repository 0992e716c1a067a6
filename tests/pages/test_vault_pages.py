import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from joserfc import jws

from checkout import clock, signing
from checkout.brazil import brcode
from tests import builders, formats
from tests.conftest import Api, make_merchant
from tests.pages.conftest import form_action, input_value

RETURN = "https://shop.example/back"


def decode_return(location: str, key: str) -> dict:
    parts = urlsplit(location)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == RETURN
    token = parse_qs(parts.query)["token"][0]
    return json.loads(jws.deserialize_compact(token, signing.jws_key(key)).payload)


@pytest.fixture
def pix_vault(api):
    return api.post(
        "/vault/create",
        builders.pix_vault(clock.brazil_today(), subject="Academia · plano mensal", return_url=RETURN),
        expect=200,
    )


@pytest.fixture
def card_vault(api):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    return api.post("/vault/create", builders.card_vault(token, return_url=RETURN), expect=200)


def test_pix_authorization_shows_the_terms_first(customer, pix_vault):
    page = customer.get(pix_vault["checkout_url"], **{"Accept-Language": "en"})
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    # BRA session: Brazilian Portuguese unless another language is asked for
    for text in (
        "Autorize pagamentos automáticos por Pix",
        "Loja Exemplo",
        "Academia · plano mensal",
        "Mensal",
        formats.money("10.00", "BRL", "pt_BR"),
        formats.money("200.00", "BRL", "pt_BR"),
        "Ana Souza",
        "***.533.447-**",
        "cancelar esta autorização",
    ):
        assert text in html, text
    assert html.index("Mensal") < html.index("<svg")  # the terms come before the code
    code = input_value(page, "pix-code")
    assert brcode.parse(code)["26"]["00"] == "br.gov.bcb.pix"
    assert "Banco aprova" in html and "Banco recusa" in html


def test_pix_page_in_english_and_spanish(customer, pix_vault):
    english = customer.get(pix_vault["checkout_url"] + "&language=en").get_data(as_text=True)
    assert "Authorize automatic Pix payments" in english and "Monthly" in english
    assert f"from {formats.money('10.00', 'BRL', 'en')} to {formats.money('200.00', 'BRL', 'en')}" in english
    spanish = customer.get(pix_vault["checkout_url"] + "&language=es-MX").get_data(as_text=True)
    assert "Autoriza pagos automáticos por Pix" in spanish and "Mensual" in spanish


def test_pix_status_follows_the_bank(customer, api, pix_vault):
    status = customer.get(pix_vault["checkout_url"].replace("/pages/vault?", "/pages/vault/status?")).get_json()
    assert status["status"] == "PENDING" and status["next"].startswith("/pages/vault?token=")
    api.post(f"/sandbox/vaults/{pix_vault['token']}/approve", expect=200)
    status = customer.get(pix_vault["checkout_url"].replace("/pages/vault?", "/pages/vault/status?")).get_json()
    assert status["status"] == "ACTIVE"
    back = customer.get(pix_vault["checkout_url"])
    assert back.status_code == 303


def test_sandbox_bank_approval_returns_a_signed_result(customer, pix_vault, merchant):
    page = customer.get(pix_vault["checkout_url"])
    answer = customer.post(form_action(page, "/pages/vault"), {"decision": "accept"}, page=page)
    assert answer.status_code == 303
    claims = decode_return(answer.headers["Location"], merchant["security_key"])
    assert (claims["sub"], claims["status"], claims["aud"], claims["iss"]) == (
        pix_vault["token"],
        "ACTIVE",
        merchant["app_id"],
        "http://checkout.test",
    )
    assert claims["exp"] - claims["iat"] == 600


def test_card_consent_shows_card_use_and_revocation(customer, card_vault):
    html = customer.get(card_vault["checkout_url"] + "&language=en").get_data(as_text=True)
    for text in ("VISA", "•••• 1111", "Loja Exemplo", "charge it later", "revoke this permission"):
        assert text in html, text


def test_accepting_activates_the_vault(customer, api, card_vault, merchant):
    page = customer.get(card_vault["checkout_url"])
    answer = customer.post(form_action(page, "/pages/vault"), {"decision": "accept"}, page=page)
    assert decode_return(answer.headers["Location"], merchant["security_key"])["status"] == "ACTIVE"
    assert api.post("/trade/pay", builders.vault_pay(card_vault["token"]), expect=200)["trade_status"] == "PROCESSING"


def test_declining_leaves_the_vault_unusable(customer, api, card_vault, merchant):
    page = customer.get(card_vault["checkout_url"])
    answer = customer.post(form_action(page, "/pages/vault"), {"decision": "decline"}, page=page)
    assert decode_return(answer.headers["Location"], merchant["security_key"])["status"] == "DECLINED"
    body = api.post("/trade/pay", builders.vault_pay(card_vault["token"]), expect=400)
    assert body["sub_code"] == "vault-not-active"


def test_a_decided_session_cannot_be_decided_again(customer, api, card_vault, merchant):
    page = customer.get(card_vault["checkout_url"])
    customer.post(form_action(page, "/pages/vault"), {"decision": "accept"}, page=page)
    again = customer.post(form_action(page, "/pages/vault"), {"decision": "decline"}, page=page)
    assert decode_return(again.headers["Location"], merchant["security_key"])["status"] == "ACTIVE"
    reopened = customer.get(card_vault["checkout_url"])
    assert reopened.status_code == 303


def test_inside_a_frame_the_result_is_posted_to_the_parent(app, client, customer):

    credentials = make_merchant(app, "Loja Frame", frame_origins=["https://shop.example"])
    api = Api(client, credentials)
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    vault = api.post("/vault/create", builders.card_vault(token, return_url=RETURN), expect=200)
    page = customer.get(vault["checkout_url"], **{"Sec-Fetch-Dest": "iframe"})
    assert "frame-ancestors https://shop.example" in page.headers["Content-Security-Policy"]
    assert "X-Frame-Options" not in page.headers
    answer = customer.post(
        form_action(page, "/pages/vault"), {"decision": "accept"}, page=page, **{"Sec-Fetch-Dest": "iframe"}
    )
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    data = json.loads(re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html).group(1))
    assert data["frameOrigins"] == ["https://shop.example"]
    assert data["message"]["type"] == "checkout.vault" and data["message"]["status"] == "ACTIVE"
    claims = decode_return(f"{RETURN}?token={data['message']['token']}", credentials["security_key"])
    assert claims["sub"] == vault["token"]
    assert 'target="_top"' in html and RETURN in html


def test_expired_authorization_session(customer, pix_vault):
    clock.advance(24 * 3600 + 1)
    page = customer.get(pix_vault["checkout_url"])
    assert page.status_code == 410
    assert "This link has expired" in customer.get(pix_vault["checkout_url"] + "&language=en").get_data(as_text=True)


def test_return_url_host_must_be_registered_outside_the_sandbox(app, api):
    app.config["SANDBOX"] = False
    try:
        body = api.post(
            "/vault/create", builders.pix_vault(clock.brazil_today(), return_url="https://evil.example/x"), expect=400
        )
        assert body["sub_msg"] == "return_url: host is not one of the merchant's registered return hosts"
        ok = api.post("/vault/create", builders.pix_vault(clock.brazil_today(), return_url=RETURN), expect=200)
        assert ok["code"] == "10000"
    finally:
        app.config["SANDBOX"] = True
