"""No English left on a translated page: every page kind, in every state it can be in, read in pt-BR and es-MX."""

from __future__ import annotations

import re

import pytest

from checkout import clock
from tests import builders
from tests.pages.conftest import form_action
from tests.pages.helpers import choose
from tests.payins.helpers import VALID, hosted, payment
from tests.translations.catalogues import LOCALES

from .helpers import NAMES, english_left, visible_text

FRAMED = {"Sec-Fetch-Dest": "iframe"}


def test_the_scan_finds_an_english_text():
    text = visible_text('<label>Card number</label><button data-done="Copied">Copiar</button><p>Cardholder</p>')
    assert sorted(english_left(text, "pt_BR")) == ["Card", "Card number", "Copied"]
    assert english_left("Pague Pay R$ 10,00 agora", "pt_BR") == ["Pay %(amount)s"]
    assert english_left("Número do cartão", "pt_BR") == []


class Pages:
    """Every page a customer can see, fetched in one language; `shown` maps a name to its HTML."""

    def __init__(self, customer, language: str):
        self.customer, self.language = customer, language
        self.shown: dict[str, str] = {}

    def url(self, url: str) -> str:
        return f"{url}&language={self.language}" if "?" in url else f"{url}?language={self.language}"

    def get(self, name: str, url: str, status: int = 200, **headers):
        response = self.customer.get(self.url(url), **headers)
        assert response.status_code == status, (name, response.status_code)
        self.shown[name] = response.get_data(as_text=True)
        return response

    def post(self, name: str, page, path: str, fields: dict, status: int, **headers):
        response = self.customer.post(form_action(page, path), fields, page=page, **headers)
        assert response.status_code == status, (name, response.status_code)
        if status != 303:
            self.shown[name] = response.get_data(as_text=True)
        return response

    def follow(self, name: str, response, **headers):
        location = response.headers["Location"]
        return self.get(name, location if "language=" in location else self.url(location), **headers)


def _vaults(pages: Pages, api) -> None:
    today = clock.brazil_today()
    for decision in ("accept", "decline"):
        pix = api.post("/vault/create", builders.pix_vault(today, pix={"uid": f"u-{decision}"}), expect=200)
        page = pages.get("vault pix", pix["checkout_url"])
        pages.post(f"vault pix result {decision}", page, "/pages/vault", {"decision": decision}, 200, **FRAMED)
        token = api.post("/card/token", builders.card(), expect=200)["token"]
        card = api.post("/vault/create", builders.card_vault(token, return_url="https://shop.example/r"), expect=200)
        page = pages.get("vault card", card["checkout_url"])
        pages.post(f"vault card result {decision}", page, "/pages/vault", {"decision": decision}, 200, **FRAMED)


def _card_entry(pages: Pages, api) -> None:
    url = api.post("/card/session", {"country": "BRA"}, expect=200)["card_url"]
    page = pages.get("card entry", url)
    pages.post("card entry errors", page, "/pages/card", {"card_no": "4111 1111 1111 1112", "cvv": "1"}, 422)
    year = str(clock.now().year + 2)
    fields = {"card_no": builders.APPROVED_CARD, "exp": f"12/{year[2:]}", "cvv": "123", "holder": "Ana"}
    pages.post("card entry result", page, "/pages/card", fields, 200, **FRAMED)


CHECKOUTS = {  # currency, amount, customer identity the country asks
    "BRL": ("12.01", {}),
    "MXN": ("120.50", {"identify": {"type": "", "number": ""}}),
    "COP": ("3000", {"identify": {"type": "", "number": ""}}),
    "CLP": ("2500", {"identify": {"type": "", "number": ""}}),
    "PEN": ("100", {"identify": {"type": "", "number": ""}}),
}


def _checkouts(pages: Pages, api) -> None:
    for n, (currency, (amount, customer)) in enumerate(CHECKOUTS.items()):
        body = hosted(out_trade_no=f"co-{n}", order_currency=currency, order_amount=amount, customer=customer)
        web_url = api.post("/trade/create", body, expect=200)["web_url"]
        listed = pages.get(f"checkout {currency}", web_url)
        for method in re.findall(r'data-method="([A-Za-z0-9]+)"', listed.get_data(as_text=True)):
            form = choose(pages.customer, listed, method)
            assert form.status_code == 200, method
            pages.shown[f"checkout {currency} {method}"] = form.get_data(as_text=True)
            pages.post(f"checkout {currency} {method} errors", form, "/pages/checkout", {}, 422)
    body = hosted(out_trade_no="co-card")
    listed = pages.get("checkout card", api.post("/trade/create", body, expect=200)["web_url"])
    form = choose(pages.customer, listed, "CreditCard")
    year = str(clock.now().year + 2)
    fields = {"name": "Ana", "email": "ana@example.com", "document_type": "CPF", "document_number": builders.CPF}
    fields.update(card_no=builders.APPROVED_CARD, exp=f"12/{year[2:]}", cvv="123", holder="Ana")
    sent = pages.post("checkout card sent", form, "/pages/checkout", fields, 303)
    pages.follow("checkout 3ds", sent)
    expired = api.post("/trade/create", hosted(out_trade_no="co-late", timeout_express="5m"), expect=200)
    clock.advance(301)
    pages.get("checkout expired", expired["web_url"])
    clock.reset()


def _payments(pages: Pages, api) -> None:
    cases = {"PIX": ("PIX", {}), "Boleto": ("Boleto", {}), "Lottery": ("Lottery", {})}
    cases |= {"DepositExpress": ("DepositExpress", {"bank": "itau"}), "Wallet": ("Wallet", {"channel": "PicPay"})}
    cases |= {case: (case.split()[0], {}) for case in VALID}
    for n, (case, (method, extra)) in enumerate(cases.items()):
        body = payment(case, out_trade_no=f"p-{n}") if case in VALID else builders.direct(method, f"p-{n}", **extra)
        answer = api.post("/trade/pay", body, expect=200)
        url = answer.get("pay_url") or answer.get("web_url") or answer.get("wallet_url")
        if url:
            pages.get(f"payment {case}", url)
    paid = api.post("/trade/pay", builders.direct("PIX", "p-paid", return_url="https://shop.example/r"), expect=200)
    api.post(f"/sandbox/trades/{paid['trade_no']}/pay", expect=200)
    pages.get("payment paid", paid["pay_url"])
    late = api.post("/trade/pay", builders.direct("PIX", "p-late", timeout_express="5m"), expect=200)
    clock.advance(301)
    pages.get("payment expired", late["pay_url"])
    clock.reset()


def _payouts(pages: Pages, payout_api) -> None:
    sessions = {
        "BRA": builders.checkout_session("po-br", method=...),
        "MEX": builders.checkout_session("po-mx", country="MEX", payout_currency="MXN", method=...),
    }
    for country, body in sessions.items():
        url = payout_api.post("/checkout", body, expect=200)["data"]["checkout_url"]
        page = pages.get(f"payout {country}", url)
        pages.post(
            f"payout {country} errors", page, "/pages/payout", {"method": "PIX" if country == "BRA" else "SPEI"}, 422
        )
    url = payout_api.post("/checkout", builders.checkout_session("po-done"), expect=200)["data"]["checkout_url"]
    page = pages.get("payout to complete", url)
    fields = {"method": "PIX", "name": "Ana Souza", "document_id": builders.CPF, "pix_key_type": "CPF"}
    pages.post("payout result", page, "/pages/payout", {**fields, "pix_key": builders.CPF}, 200, **FRAMED)


def _errors(pages: Pages, api, payout_api) -> None:
    url = api.post("/card/session", {}, expect=200)["card_url"]
    pages.get("error invalid", url[:-4] + "AAAA", 400)
    pages.get("error not found", "/pages/nowhere", 404)
    page = pages.get("card entry again", url)
    pages.post("error forbidden", page, "/pages/card", {}, 403, origin="https://elsewhere.example")
    late = payout_api.post("/checkout", builders.checkout_session("po-late", timeout=60), expect=200)
    clock.advance(61)
    pages.get("error expired", late["data"]["checkout_url"], 410)
    clock.reset()


@pytest.mark.parametrize(("language", "locale"), [(locale.replace("_", "-"), locale) for locale in LOCALES])
def test_no_page_shows_english_or_a_doubled_period(customer, api, payout_api, merchant, fund, language, locale):
    fund(merchant, "USD", "10000.00")
    pages = Pages(customer, language)
    _vaults(pages, api)
    _card_entry(pages, api)
    _checkouts(pages, api)
    _payments(pages, api)
    _payouts(pages, payout_api)
    _errors(pages, api, payout_api)
    assert len(pages.shown) > 60
    english, doubled = {}, {}
    for name, html in pages.shown.items():
        assert f'lang="{language}"' in html, name
        text = visible_text(html)
        for data in NAMES:
            text = text.replace(data, "")
        if found := english_left(text, locale):
            english[name] = found
        if hits := re.findall(r"\S*(?<!\.)\.\.(?!\.)\S*", text):
            doubled[name] = hits
    assert english == {}
    assert doubled == {}


def test_an_english_page_is_caught(customer, api):
    """The scan itself: a page left in English fails it."""
    url = api.post("/card/session", {"country": "BRA"}, expect=200)["card_url"]
    text = visible_text(customer.get(f"{url}&language=en").get_data(as_text=True))
    assert {"Card number", "Save card", "Secure payment"} <= set(english_left(text, "pt_BR"))
