"""CLDR amounts and dates in each page's locale, the language of every Spanish-speaking country, the message
every framed page posts, and the copy field."""

import json
import re
from decimal import Decimal

import pytest
from flask import g

from checkout import clock
from checkout.pages import i18n, layout
from tests import builders
from tests.conftest import PayoutApi, make_merchant
from tests.pages.conftest import form_action, input_value

NBSP = "\u00a0"


@pytest.mark.parametrize(
    "locale, amount, currency, shown",
    [
        ("es_MX", "1.40", "USD", f"USD{NBSP}1.40"),  # was "USD1.40": CLDR keeps a letter symbol off the digits
        ("es_MX", "1.40", "MXN", "$1.40"),
        ("es_MX", "-5.50", "USD", f"-USD{NBSP}5.50"),
        ("en", "3000", "COP", f"COP{NBSP}3,000.00"),
        ("en", "1.40", "USD", "$1.40"),
        ("pt_BR", "150", "BRL", f"R${NBSP}150,00"),
        ("pt_BR", "1.40", "USD", f"US${NBSP}1,40"),
        ("es_CO", "3000", "COP", "$3.000,00"),
        ("es_CL", "2500", "CLP", "$2.500"),
    ],
)
def test_amounts_as_cldr_writes_them(app, locale, amount, currency, shown):
    with app.test_request_context():
        g.page_locale, g.page_format_locale = "es_MX" if locale.startswith("es") else locale, locale
        assert i18n.format_currency(Decimal(amount), currency) == shown


@pytest.mark.parametrize(
    "country, locale, formats",
    [("MEX", "es_MX", "es_MX"), ("COL", "es_MX", "es_CO"), ("ARG", "es_MX", "es_AR"), ("BRA", "pt_BR", "pt_BR")],
)
def test_every_spanish_speaking_country_reads_spanish_in_its_own_formats(app, country, locale, formats):
    with app.test_request_context():
        assert layout.choose_locale(country) == locale
        assert layout.format_locale(locale, country) == formats
    with app.test_request_context("/?language=en"):
        assert layout.format_locale(layout.choose_locale(country), country) == "en"
    with app.test_request_context(headers={"Accept-Language": "es-AR,es;q=0.9"}):
        assert layout.choose_locale(None) == "es_MX"


def test_a_mexican_payout_page_shows_cldr_amounts_and_no_doubled_period(customer, payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    body = builders.checkout_session("mx", country="MEX", payout_currency="MXN", method="SPEI")
    url = payout_api.post("/checkout", body, expect=200)["data"]["checkout_url"]
    html = customer.get(url).get_data(as_text=True)
    assert 'lang="es-MX"' in html and "$500.00" in html  # the payee's figures, in pesos
    expires = re.search(r'class="deadline">([^<]+)<', html).group(1)
    assert re.fullmatch(r"Esta página vence a las \d{1,2}:\d\d\s[ap]\.\s?m\. \(hora central\)\.", expires), expires


def page_data(response) -> dict:
    return json.loads(re.search(r'id="page-data">(.*?)</script>', response.get_data(as_text=True)).group(1))


def test_every_page_says_what_it_is_to_the_merchants_frame(customer, api):
    trade = api.post("/trade/pay", builders.direct("Boleto"), expect=200)
    assert page_data(customer.get(trade["pay_url"]))["message"] == {
        "type": "checkout.page",
        "page": "payment",
        "status": "PROCESSING",
        "token": None,
    }
    card = api.post("/card/session", {}, expect=200)["card_url"]
    page = customer.get(card)
    assert page_data(page)["message"] == {
        "type": "checkout.page",
        "page": "card_entry",
        "status": "open",
        "token": None,
    }
    refused = customer.post(form_action(page, "/pages/card"), {"card_no": "1"}, page=page)
    assert page_data(refused)["message"]["status"] == "invalid"


def test_a_view_s_own_message_is_kept(customer, api):
    page = customer.get(api.post("/card/session", {}, expect=200)["card_url"])
    fields = {"card_no": builders.APPROVED_CARD, "exp": "12/31", "cvv": "123", "holder": "Ana"}
    done = customer.post(form_action(page, "/pages/card"), fields, page=page, **{"Sec-Fetch-Dest": "iframe"})
    assert page_data(done)["message"]["type"] == "checkout.card_token"


def test_an_error_page_tells_a_registered_frame_and_no_one_else(app, client, customer):
    framed = PayoutApi(client, make_merchant(app, "Framed", frame_origins=["https://shop.example"]))
    url = framed.post("/checkout", builders.checkout_session("late", timeout=60), expect=200)["data"]["checkout_url"]
    clock.advance(61)
    late = customer.get(url)
    assert late.status_code == 410
    assert page_data(late) == {
        "frameOrigins": ["https://shop.example"],
        "message": {"type": "checkout.error", "status": "expired", "token": None},
    }
    unknown = customer.get(url[:-4] + "AAAA")  # no merchant known: nothing to tell, and no frame allowed
    assert unknown.status_code == 400 and page_data(unknown) == {}


def test_long_values_wrap_in_a_readonly_field_and_short_ones_stay_inputs(customer, api):
    pix = customer.get(api.post("/trade/pay", builders.direct("PIX"), expect=200)["pay_url"])
    html = pix.get_data(as_text=True)
    assert re.search(r'<textarea readonly rows="\d" spellcheck="false"[^>]*id="pix-code">', html)
    assert input_value(pix, "pix-code").startswith("000201")
    assert 'id="pix-code-state" aria-live="polite"' in html
    assert 'data-keys="Pressione Ctrl+C para copiar"' in html and 'data-apple="Pressione ⌘C para copiar"' in html
    mx = builders.direct(
        "SPEI", "o-mx", order_currency="MXN", customer={"identify": {"type": "RFC", "number": "MAMB780915969"}}
    )
    spei = customer.get(api.post("/trade/pay", mx, expect=200)["pay_url"])
    assert re.search(r'<input type="text" readonly value="\d{18}"[^>]*id="clabe">', spei.get_data(as_text=True))
