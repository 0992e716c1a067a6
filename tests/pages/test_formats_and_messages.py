"""CLDR amounts and dates in each page's locale, the language of every Spanish-speaking country, the message
every framed page posts, and the copy field."""

import json
import re
import unicodedata
from datetime import UTC, datetime
from decimal import Decimal
from html import unescape
from zoneinfo import ZoneInfo

import pytest
from babel import dates, numbers
from flask import g

from checkout import clock
from checkout.pages import i18n, layout
from tests import builders
from tests.conftest import PayoutApi, make_merchant
from tests.formats import deadline, money
from tests.pages.conftest import form_action, input_value

NBSP, NNBSP = "\u00a0", "\u202f"
SPACES = f" {NBSP}{NNBSP}"
# Amounts no CLDR digits round (a pattern's own decimals are another rule: test_amounts_shown.py).
AMOUNTS = [
    ("es_MX", "1.40", "USD"),  # once "USD1.40": a letter symbol touching the digits
    ("es_MX", "1.40", "MXN"),
    ("es_MX", "-5.50", "USD"),
    ("en", "3000", "COP"),  # two decimals in CLDR 47 (Babel 2.18), none in CLDR 49 (Babel 2.19)
    ("en", "1.40", "USD"),
    ("pt_BR", "150", "BRL"),
    ("pt_BR", "1.40", "USD"),
    ("pt_BR", "1234567.89", "BRL"),
    ("es_CO", "3000", "COP"),
    ("es_CO", "-1250000", "COP"),
    ("es_CL", "2500", "CLP"),
    ("es_CL", "-1.40", "USD"),  # Chile writes the minus between the symbol and the digits
]


@pytest.mark.parametrize("locale, amount, currency", AMOUNTS)
def test_amounts_follow_the_currencys_cldr_digits_and_the_locales_signs(app, locale, amount, currency):
    """The amount's digits in order, grouped and split by the locale's signs, with as many decimals as CLDR
    gives the currency, its CLDR symbol, a minus when negative, and nothing else: Babel's own writing,
    where a symbol ending in a letter is kept off the digits by a no-break space (our rule, see _currency)."""
    with app.test_request_context():
        g.page_locale, g.page_format_locale = "es_MX" if locale.startswith("es") else locale, locale
        shown = i18n.format_currency(Decimal(amount), currency)
    value, digits = Decimal(amount), numbers.get_currency_precision(currency)
    symbol, minus = numbers.get_currency_symbol(currency, locale), numbers.get_minus_sign_symbol(locale)
    group, decimal = numbers.get_group_symbol(locale), numbers.get_decimal_symbol(locale)
    number = re.search(rf"\d(?:[\d{re.escape(group + decimal)}]*\d)?", shown)
    whole, _, cents = number.group(0).partition(decimal)
    grouped = f"{int(abs(value)):,}".replace(",", group)
    # CLDR's minimum grouping digits may leave a four-digit number whole (Spanish: "3000"); never a longer one.
    assert whole in ({grouped, str(int(abs(value)))} if abs(value) < 10_000 else {grouped}), shown
    assert len(cents) == digits and Decimal(f"{whole.replace(group, '')}.{cents or 0}") == abs(value), shown
    assert shown.count(symbol) == 1 and (minus in shown) == (value < 0), shown
    rest = shown.replace(symbol, "", 1).replace(number.group(0), "", 1).replace(minus, "", 1)
    assert rest.strip(SPACES) == "", shown
    at, first = shown.index(symbol), number.start()
    gap, edge = (shown[at + len(symbol) : first], symbol[-1]) if at < first else (shown[number.end() : at], symbol[0])
    if unicodedata.category(edge).startswith("L"):
        assert gap.strip(minus) and set(gap.strip(minus)) <= {NBSP, NNBSP}, shown
    babel_writes = numbers.format_currency(value, currency, locale=locale)
    assert shown == babel_writes or shown.replace(NBSP, "", 1) == babel_writes, (shown, babel_writes)


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


@pytest.mark.parametrize(
    "zone, language, locale",
    [
        ("America/Sao_Paulo", "pt_BR", "pt_BR"),
        ("America/Sao_Paulo", "en", "en"),
        ("America/Mexico_City", "es_MX", "es_MX"),
        ("America/Bogota", "es_MX", "es_CO"),
    ],
)
def test_a_deadline_is_said_in_the_pages_zone_and_locale(app, zone, language, locale):
    """Time and date of the moment in the page's zone (02:30 UTC is the day before in the Americas), as Babel
    writes them in the page's CLDR locale; the zone's name in the page's language."""
    moment = datetime(2026, 11, 27, 2, 30, tzinfo=UTC)
    local = moment.astimezone(ZoneInfo(zone))
    with app.test_request_context():
        g.page_locale, g.page_format_locale, g.page_timezone = language, locale, zone
        said, day = i18n.format_deadline(moment), i18n.format_date(moment)
    assert said.time == dates.format_time(local, "short", locale=locale)
    assert said.date == day == dates.format_date(local.date(), "medium", locale=locale)
    assert day != dates.format_date(moment.date(), "medium", locale=locale)
    assert said.zone == i18n.zone_name(zone, language, moment)


def test_a_mexican_payout_page_shows_cldr_amounts_and_no_doubled_period(customer, payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    body = builders.checkout_session("mx", country="MEX", payout_currency="MXN", method="SPEI")
    session = payout_api.post("/checkout", body, expect=200)["data"]
    html = customer.get(session["checkout_url"]).get_data(as_text=True)
    assert 'lang="es-MX"' in html and money("500.00", "MXN", "es_MX") in html  # the payee's figures, in pesos
    expires = unescape(re.search(r'class="deadline">([^<]+)<', html).group(1))
    said = deadline(session["expire_time"], "America/Mexico_City", "es_MX")
    assert expires == f"Esta página vence a las {said.time} ({said.zone})." and ".." not in expires, expires


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
