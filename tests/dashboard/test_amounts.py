"""Amounts in the dashboard: each currency's ISO 4217 minor units (three for BHD, none for KRW), written in the
dashboard's language by Babel, and the refund form's words and example following the currency."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from babel import numbers

from tests import builders
from tests.dashboard.helpers import csrf

KOREAN = {
    "name": "Kim Minji",
    "email": "minji@example.com",
    "phone": "+821012345678",
    "identify": {"type": "ID", "number": "9001011234567"},
}
SEOUL = {"zip_code": "04524", "state": "Seoul", "city": "Seoul", "street_number": "100", "street": "Sejong-daero"}


def bahraini(api, work, amount: str = "1234.567") -> str:
    """A card payment in Bahraini dinars, approved."""
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    card = {"token": token, "fingerprint": "fp-1", "issuer": "visa", "user_ip": "203.0.113.7"}
    body = builders.direct("CreditCard", "o-bhd", order_currency="BHD", order_amount=amount, **card)
    trade_no = api.post("/trade/pay", body, expect=200)["trade_no"]
    work()
    return trade_no


def korean(api, amount: str = "15000") -> str:
    """A KakaoPay payment in won, paid (the customer and address of the country: see test_country_formats)."""
    body = builders.direct("Wallet", "o-krw", order_currency="KRW", order_amount=amount, channel="KakaoPay")
    body |= {"customer": KOREAN, "address": SEOUL}
    trade_no = api.post("/trade/pay", body, expect=200)["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    return trade_no


def written(value: str, locale: str) -> str:
    """The figure as Babel writes it in `locale` (its own decimal pattern keeps up to three decimals)."""
    return numbers.format_decimal(Decimal(value), locale=locale)


@pytest.mark.parametrize(("language", "locale"), [("en", "en"), ("pt-BR", "pt_BR"), ("es-MX", "es_MX")])
def test_a_bhd_trade_shows_three_decimals_and_a_krw_one_none_in_the_dashboards_language(
    api, alice, work, language, locale
):
    dinars, won = bahraini(api, work), korean(api)
    bhd, krw = f"{written('1234.567', locale)} BHD", f"{written('15000', locale)} KRW"
    assert numbers.get_decimal_symbol(locale) + "567" in bhd and numbers.get_decimal_symbol(locale) not in krw

    overview = alice.get(f"/dashboard?language={language}").get_data(as_text=True)
    assert f'<td class="num">{bhd}</td>' in overview and f'<td class="num">{krw}</td>' in overview

    # The list and a payment's page write the currency as the language does, symbol and all ("BHD 1,234.567",
    # "₩15,000").
    bhd = {"en": "BHD\u00a01,234.567", "pt_BR": "BHD\u00a01.234,567", "es_MX": "BHD\u00a01,234.567"}[locale]
    krw = {"en": "₩15,000", "pt_BR": "₩\u00a015.000", "es_MX": "KRW\u00a015,000"}[locale]
    listed = alice.get(f"/dashboard/payments?language={language}").get_data(as_text=True)
    assert f'<td class="num">{bhd}</td>' in listed and f'<td class="num">{krw}</td>' in listed
    detail = alice.get(f"/dashboard/payments/{dinars}?language={language}").get_data(as_text=True)
    assert f'id="trade-amount">{bhd}<' in detail and f'id="trade-refundable">{bhd}<' in detail
    assert f'id="trade-refunded">BHD\u00a00{numbers.get_decimal_symbol(locale)}000<' in detail
    assert re.search(r'<input[^>]*id="refund-amount"[^>]*value=""', detail)  # the form starts empty
    detail = alice.get(f"/dashboard/payments/{won}?language={language}").get_data(as_text=True)
    assert f'id="trade-amount">{krw}<' in detail


def test_the_refund_forms_hint_gives_an_example_in_the_currencys_minor_units(api, alice, work):
    html = alice.get(f"/dashboard/payments/{bahraini(api, work)}").get_data(as_text=True)
    assert "Up to BHD\u00a01,234.567, like 10.500." in html  # the example as the form takes it


def test_won_are_not_refunded_so_no_refund_form_is_offered(api, alice):
    html = alice.get(f"/dashboard/payments/{korean(api)}").get_data(as_text=True)
    assert 'id="refund-form"' not in html


def refund(browser, trade_no: str, amount: str, language: str = "en"):
    html = browser.get(f"/dashboard/payments/{trade_no}?language={language}").get_data(as_text=True)
    request_id = re.search(r'name="request_id" type="hidden" value="([0-9a-f]{16})"', html).group(1)
    form = {"csrf_token": csrf(html), "request_id": request_id, "amount": amount, "reason": "", "confirm": "y"}
    return post(browser, f"/dashboard/payments/{trade_no}/refund?language={language}", form)


def capture(browser, trade_no: str, amount: str, language: str = "en"):
    html = browser.get(f"/dashboard/payments/{trade_no}?language={language}").get_data(as_text=True)
    form = {"csrf_token": csrf(html), "amount": amount}
    return post(browser, f"/dashboard/payments/{trade_no}/capture?language={language}", form)


def post(browser, path: str, form: dict):
    return browser.client.post(path, data=form, environ_base={"REMOTE_ADDR": browser.address})


def chilean_authorization(api) -> str:
    """A card authorization in Chilean pesos, which have no minor unit."""
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    body = builders.pre_authorization(token, "pre-clp", order_currency="CLP", order_amount="2500")
    return api.post("/trade/pre-authorization", body, expect=200)["trade_no"]


@pytest.mark.parametrize("amount", ["1234.5671", "0.0001", "0"])
def test_a_bhd_refund_finer_than_a_fils_is_refused_with_three_decimal_places(api, alice, work, row_counts, amount):
    trade_no = bahraini(api, work)
    before = row_counts()
    answer = refund(alice, trade_no, amount)
    message = "Enter an amount above zero with at most 3 decimal places in BHD."
    assert answer.status_code == 400
    assert f'id="refund-error" role="alert">{message} <code>invalid-parameter</code>' in answer.get_data(as_text=True)
    assert row_counts() == before


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "Enter a whole amount above zero in CLP."),
        ("pt-BR", "Informe um valor inteiro acima de zero em CLP."),
        ("es-MX", "Ingresa un monto entero mayor que cero en CLP."),
    ],
)
def test_an_amount_in_a_currency_without_decimals_is_asked_whole(api, alice, row_counts, language, message):
    trade_no = chilean_authorization(api)
    before = row_counts()
    answer = capture(alice, trade_no, "1000.5", language)
    assert answer.status_code == 400
    assert f'id="capture-error" role="alert">{message} <code>invalid-parameter</code>' in answer.get_data(as_text=True)
    assert row_counts() == before


def test_a_refund_done_is_said_with_the_currencys_minor_units(api, alice, work):
    dinars = bahraini(api, work)
    done = refund(alice, dinars, "1000.001")
    assert done.status_code == 302
    html = alice.get(done.headers["Location"]).get_data(as_text=True)
    assert re.search(r"Refund [0-9a-f]{16} of BHD\u00a01,000.001: Refunded. ", html)
    assert 'id="trade-refundable">BHD\u00a0234.566<' in html
