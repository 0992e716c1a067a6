"""The shell every page shares: result pages (amount, method, destination, next steps) and the landing page."""

import json
import re
from html import unescape

import pytest

from checkout import clock
from tests import builders, formats
from tests.conftest import Api, PayoutApi, make_merchant
from tests.pages.conftest import form_action

FRAMED = {"Sec-Fetch-Dest": "iframe"}


def text_of(response) -> str:
    """The page's visible text, tags dropped and spaces folded, as a customer reads it."""
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", response.get_data(as_text=True), flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def summary_of(response) -> dict[str, str]:
    html = response.get_data(as_text=True)
    block = re.search(r'<dl class="terms summary">(.*?)</dl>', html, re.S).group(1)
    pairs = re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", block, re.S)
    return {unescape(label): unescape(value) for label, value in pairs}


def steps_of(response) -> list[str]:
    block = re.search(r'<ul class="next-steps">(.*?)</ul>', response.get_data(as_text=True), re.S).group(1)
    return [unescape(step) for step in re.findall(r"<li>(.*?)</li>", block, re.S)]


def test_card_entry_result_shows_the_card_and_what_the_merchant_gets(customer, api):
    url = api.post("/card/session", {"country": "BRA"}, expect=200)["card_url"] + "&language=en"
    page = customer.get(url)
    year = clock.now().year + 2
    form = {
        "card_no": "4111 1111 1111 1111",
        "exp": f"07/{year % 100:02d}",
        "cvv": "123",
        "holder": "Ana Souza",
    }
    answer = customer.post(form_action(page, "/pages/card"), form, page=page, **FRAMED)
    assert answer.status_code == 200
    assert "Card saved" in text_of(answer) and 'class="panel result result-ok"' in answer.get_data(as_text=True)
    assert summary_of(answer) == {
        "Method": "Card",
        "Card": "VISA •••• 1111",
        "Expires": f"07/{year}",
        "Name on the card": "Ana Souza",
    }
    assert steps_of(answer) == ["Loja Exemplo receives a token for this card, never its number."]


@pytest.fixture
def card_vault_url(api):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    vault = api.post("/vault/create", builders.card_vault(token), expect=200)
    return vault["checkout_url"] + "&language=en", vault["token"]


@pytest.mark.parametrize(
    "decision, tone, title, steps",
    [
        (
            "accept",
            "ok",
            "Authorization confirmed",
            [
                "Loja Exemplo can now charge this card for what you agree with them.",
                "You can revoke this permission at any time by asking Loja Exemplo to remove the card, or by "
                "contacting your card issuer.",
            ],
        ),
        (
            "decline",
            "bad",
            "Authorization not given",
            ["Nothing will be charged.", "You can go back to Loja Exemplo and start again whenever you like."],
        ),
    ],
)
def test_card_consent_result(customer, card_vault_url, decision, tone, title, steps):
    url, vault_token = card_vault_url
    page = customer.get(url)
    answer = customer.post(form_action(page, "/pages/vault"), {"decision": decision}, page=page, **FRAMED)
    assert answer.status_code == 200
    assert f'class="panel result result-{tone}"' in answer.get_data(as_text=True)
    assert title in text_of(answer)
    assert summary_of(answer) == {"Method": "Card", "Card": "VISA •••• 1111", "Reference": vault_token}
    assert steps_of(answer) == steps


def test_pix_automatico_result_in_portuguese(app, client, customer):
    credentials = make_merchant(app, "Academia Forte", document="16727230000197")
    api = Api(client, credentials)
    vault = api.post("/vault/create", builders.pix_vault(clock.brazil_today()), expect=200)
    page = customer.get(vault["checkout_url"])
    answer = customer.post(form_action(page, "/pages/vault"), {"decision": "accept"}, page=page, **FRAMED)
    assert "Autorização confirmada" in text_of(answer)
    assert summary_of(answer) == {
        "Forma de pagamento": "Pix Automático",
        "Recebedor": "Academia Forte · CNPJ 16.727.230/0001-97",
        "Frequência": "Mensal",
        "Valor por débito": f"de {formats.money('10.00', 'BRL', 'pt_BR')} a {formats.money('200.00', 'BRL', 'pt_BR')}",
        "Referência": vault["token"],
    }
    assert steps_of(answer)[0] == "Cada débito aparece no app do seu banco antes de ser feito."


def test_payout_result_inside_a_frame(app, client, customer, fund):
    credentials = make_merchant(app, "Loja Frame", frame_origins=["https://shop.example"])
    fund(credentials, "USD", "1000.00")
    payout_api = PayoutApi(client, credentials)
    session = payout_api.post("/checkout", builders.checkout_session(), expect=200)["data"]
    page = customer.get(session["checkout_url"] + "&language=en")
    form = {
        "method": "PIX",
        "name": "Ana Souza",
        "document_id": builders.CPF,
        "pix_key_type": "EMAIL",
        "pix_key": "ana@example.com",
    }
    answer = customer.post(form_action(page, "/pages/payout"), form, page=page, **FRAMED)
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    data = json.loads(re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html).group(1))
    transaction_id = payout_api.post("/payout/status", {"custom_code": "co-1"}, expect=200)["data"]["payout_id"]
    assert data["message"]["type"] == "checkout.payout"
    assert "Your transfer is on its way" in text_of(answer)
    assert f'<p class="amount result-amount">{formats.money("500.00", "BRL", "en")}</p>' in html
    assert summary_of(answer) == {
        "Method": "Pix",
        "Sent to": "Pix key (E-mail): a•••@example.com",
        "Receiver": "Ana Souza",
        "Reference": transaction_id,
    }
    assert steps_of(answer) == [
        "The money usually arrives in minutes.",
        "If the receiving bank refuses it, Loja Frame will let you know.",
    ]
    assert 'target="_top"' in html and "Back to Loja Frame" in html


def test_the_shell_says_secure_payment_and_sandbox(customer, card_vault_url):
    page = customer.get(card_vault_url[0])
    words = text_of(page)
    assert "Secure payment" in words and "Sandbox: no real money moves." in words
    assert 'class="badge sandbox-badge">Sandbox<' in page.get_data(as_text=True)
    assert '<svg class="mark lock"' in page.get_data(as_text=True)


BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_landing_page_for_a_browser(app, client, monkeypatch):
    monkeypatch.setitem(app.config, "DEMO", {"url": "http://localhost:8000/demo"})
    page = client.get("/", headers={"Accept": BROWSER})
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert 'href="http://localhost:8000/demo/"' in html and 'href="/openapi.json"' in html
    assert 'href="/healthz"' in html and "docs/getting-started.md" in html and "http://checkout.test/trade/pay" in html
    csp = page.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
    assert page.headers["Cache-Control"] == "no-store" and page.headers["X-Content-Type-Options"] == "nosniff"
    assert "Accept" in page.headers["Vary"]
    assert "<script" not in html and "style=" not in html


@pytest.mark.parametrize("accept", ["application/json", "*/*", None])
def test_landing_answers_json_to_an_api_client(app, client, monkeypatch, accept):
    monkeypatch.setitem(app.config, "DEMO", {"url": "http://localhost:8000/demo"})
    answer = client.get("/", headers={"Accept": accept} if accept else {})
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    assert answer.get_json() == {
        "code": "10000",
        "msg": "Success",
        "service": "checkout",
        "sandbox": True,
        "links": {"openapi": "/openapi.json", "health": "/healthz", "demo": "http://localhost:8000/demo/"},
    }
    assert "default-src 'none'" in answer.headers["Content-Security-Policy"]


def test_landing_without_the_demo_links_no_demo(app, client, monkeypatch):
    monkeypatch.delitem(app.config, "DEMO", raising=False)
    html = client.get("/", headers={"Accept": BROWSER}).get_data(as_text=True)
    assert "Open the merchant demo" not in html and 'href="http://localhost:8000/demo/"' not in html


@pytest.mark.parametrize(
    "fields, shown",
    [
        ({"method": "PIX", "account": "39053344705", "account_type": "CPF"}, "Pix key (CPF): ***.533.447-**"),
        ({"method": "PIX", "account": "+5511987654321", "account_type": "PHONE"}, "Pix key (Mobile phone): •••• 4321"),
        ({"method": "SPEI", "account": "646180157000000004"}, "CLABE •••• 0004"),
        (
            {"method": "BANKTRANSFER", "account": "12345678", "bank_code": "341", "bank_name": "Itaú Unibanco"},
            "Itaú Unibanco · Account •••• 5678",
        ),
        (
            {"method": "WALLET", "account": "ana@example.com", "channel": "MERCADOPAGO"},
            "Mercadopago · a•••@example.com",
        ),
    ],
)
def test_payout_destinations_are_masked(app, fields, shown):
    from checkout.pages import results
    from checkout.payouts.models import Payout

    with app.test_request_context("/pages/payout?language=en"):
        assert results.destination(Payout(**fields)) == shown
