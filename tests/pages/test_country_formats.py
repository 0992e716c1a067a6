"""Each country's page: the catalogue it reads, its amounts in the country's CLDR formats (Latin digits, the number
charged) and its dates in the country's time zone. Expected texts come from Babel's own data for the locale, so that
no CLDR release's glyphs are written here."""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime
from decimal import Decimal
from html import unescape
from zoneinfo import ZoneInfo

import pycountry
import pytest
from babel import Locale, dates, localedata, numbers
from babel.core import get_global
from flask import g
from sqlalchemy import select

from checkout.db import db
from checkout.merchants.models import Merchant
from checkout.pages import i18n, layout
from checkout.pages.common import open_page
from checkout.pages.trades import country_of
from checkout.payins.methods import catalog, countries
from checkout.payins.models import Trade
from tests import builders
from tests.payins.helpers import hosted


def body(method: str, currency: str, amount: str, identify: dict, address: tuple[str, str, str, str], **extra) -> dict:
    """A direct payment of the country's page, with a customer and address of the country (the interface requires
    both on every direct payment; these are plausible ones, which the page's rules take)."""
    zip_code, state, city, street = address
    return builders.direct(method, f"o-{currency}", order_currency=currency, order_amount=amount, **extra) | {
        "customer": {"name": "Cliente", "email": "cliente@example.com", "phone": "+10000000000", "identify": identify},
        "address": {"zip_code": zip_code, "state": state, "city": city, "street_number": "100", "street": street},
    }


ANY_ID = {"type": "ID", "number": "123456789"}
# (currency, request, catalogue, format locale, zone)
PAGES = [
    (
        "ARS",
        body("PagoFacil", "ARS", "1500.50", {"type": "DNI", "number": "30123456"}, ("C1043", "CABA", "Buenos Aires", "Av. Corrientes")),
        "es_MX",
        "es_AR",
        "America/Argentina/Buenos_Aires",
    ),
    (
        "KRW",
        body("Wallet", "KRW", "15000", ANY_ID, ("04524", "Seoul", "Seoul", "Sejong-daero"), channel="KakaoPay"),
        "en",
        "ko_KR",
        "Asia/Seoul",
    ),
    (
        "PHP",
        body("Wallet", "PHP", "1250.75", ANY_ID, ("1000", "Metro Manila", "Manila", "Roxas Blvd."), channel="GCash"),
        "en",
        "en_PH",
        "Asia/Manila",
    ),
    (
        "TRY",
        body("Wallet", "TRY", "1400.25", ANY_ID, ("34000", "İstanbul", "İstanbul", "İstiklal Caddesi"), channel="Papara"),
        "en",
        "tr_TR",
        "Europe/Istanbul",
    ),
]  # fmt: skip


def read_back(text: str, locale: str) -> Decimal:
    group, decimal = numbers.get_group_symbol(locale), numbers.get_decimal_symbol(locale)
    figure = re.search(rf"\d[\d{re.escape(group + decimal)}]*", text).group(0).rstrip(group + decimal)
    return Decimal(figure.replace(group, "").replace(decimal, "."))


def assert_written_in(shown: str, amount: str, locale: str) -> None:
    """The figure charged, grouped and split by the locale's own signs (every amount here is above 1000), in Latin
    digits, and no letter of another script than Latin (every page here reads English or Spanish)."""
    assert read_back(shown, locale) == Decimal(amount), shown
    assert numbers.get_group_symbol(locale) in shown, shown
    assert all(c in "0123456789" for c in shown if c.isdigit()), shown
    assert not any(unicodedata.category(c)[0] == "L" and "LATIN" not in unicodedata.name(c, "") for c in shown), shown


@pytest.mark.parametrize(("currency", "request_body", "catalogue", "formats", "zone"), PAGES)
def test_a_countrys_page_shows_its_amount_and_deadline_in_the_countrys_formats_and_zone(
    app, customer, api, currency, request_body, catalogue, formats, zone
):
    answer = api.post("/trade/pay", request_body, expect=200)
    html = customer.get(answer.get("pay_url") or answer["wallet_url"]).get_data(as_text=True)
    assert f'lang="{catalogue.replace("_", "-")}"' in html

    shown = unescape(re.search(r'<p class="amount">([^<]+)</p>', html).group(1))
    assert_written_in(shown, request_body["order_amount"], formats)
    # An English page in another language's formats (tr_TR) writes the symbol as English does ("TRY", not "₺").
    foreign = catalogue == "en" and Locale.parse(formats).language != "en"
    assert numbers.get_currency_symbol(currency, "en" if foreign else formats) in shown
    if currency == "KRW":  # no minor unit: no decimal sign at all
        assert numbers.get_decimal_symbol(formats) not in shown.replace(numbers.get_group_symbol(formats), "")

    with app.app_context():
        trade = db.session.scalar(select(Trade).where(Trade.trade_no == answer["trade_no"]))
        expires = trade.expires_at.replace(tzinfo=UTC)
    deadline = unescape(re.search(r'class="deadline">(.*?)</p>', html, re.S).group(1))
    words = i18n.date_locale(formats, catalogue)  # the page's own language's words for months and hours
    # A date and an hour, in the country's zone (named), beside the countdown.
    local = dates.format_date(expires.astimezone(ZoneInfo(zone)).date(), "medium", locale=words)
    local += ", " + dates.format_time(expires, "short", tzinfo=ZoneInfo(zone), locale=words)
    assert local in deadline, (local, deadline)
    assert dates.format_time(expires, "short", tzinfo=UTC, locale=words) not in deadline


def test_a_bahraini_checkout_shows_three_decimals_in_bahrains_formats_and_bahrains_clock(app, customer, api):
    """BHD is paid by card only: its hosted checkout is an English page with Bahrain's number formats (ar_BH,
    its digits Latin, its symbol as English writes it, no right-to-left marks) and Bahrain's time."""
    order = hosted(order_currency="BHD", order_amount="1234.567", customer={"identify": {"type": "", "number": ""}})
    answer = api.post("/trade/create", order, expect=200)
    html = customer.get(answer["web_url"]).get_data(as_text=True)
    assert 'lang="en"' in html
    total = unescape(re.search(r'<dd class="amount">([^<]+)</dd>', html).group(1))
    assert_written_in(total, "1234.567", "ar_BH")
    assert total.rpartition(numbers.get_decimal_symbol("ar_BH"))[2].startswith("567")
    assert numbers.get_currency_symbol("BHD", "en") in total
    assert not set(total) & set(map(chr, i18n.BIDI_MARKS))

    with app.test_request_context():
        trade = db.session.scalar(select(Trade).where(Trade.trade_no == answer["trade_no"]))
        open_page("", db.session.get(Merchant, trade.merchant_id), country_of(trade))
        assert (g.page_locale, g.page_format_locale, g.page_timezone) == ("en", "ar_BH", "Asia/Bahrain")
        moment = trade.created_at.replace(tzinfo=UTC)
        shown = i18n.format_datetime(moment, "short")
    bahrain = dates.format_datetime(
        moment, "short", tzinfo=ZoneInfo("Asia/Bahrain"), locale=i18n.date_locale("ar_BH", "en")
    )
    assert shown == bahrain and all(c in "0123456789" for c in shown if c.isdigit())


def test_a_countrys_page_in_another_language_takes_that_languages_formats(app, customer, api):
    """`language=pt-BR` on a Turkish page: Portuguese words and Brazilian signs, Istanbul's clock still."""
    answer = api.post("/trade/pay", PAGES[-1][1], expect=200)
    html = customer.get(answer["wallet_url"] + "&language=pt-BR").get_data(as_text=True)
    shown = unescape(re.search(r'<p class="amount">([^<]+)</p>', html).group(1))
    assert 'lang="pt-BR"' in html and read_back(shown, "pt_BR") == Decimal("1400.25")
    assert shown == i18n._currency(Decimal("1400.25"), "TRY", "pt_BR")


# --- the tables ------------------------------------------------------------------------------------------


def named_countries() -> set[str]:
    """Every country a payin's page can be of: its method rows, wallet channels, listed banks, card currencies."""
    rows = [*countries.VARIANTS, *catalog.CHANNELS, *(b for banks in catalog.BANKS.values() for b in banks)]
    return {row.country for row in rows} | set(layout.CARD_COUNTRIES.values())


@pytest.mark.parametrize("country", sorted(named_countries()))
def test_every_country_has_a_catalogue_formats_of_its_own_and_its_own_clock(country):
    alpha_2 = pycountry.countries.get(alpha_3=country).alpha_2
    assert layout.COUNTRY_LOCALES[country] in ("pt_BR", "es_MX", "en")
    assert Locale.parse(layout.COUNTRY_FORMATS[country]).territory == alpha_2  # its own CLDR data, no neighbour's
    zone = layout.COUNTRY_TIMEZONES[country]
    territories = get_global("zone_territories")
    assert ZoneInfo(zone) and (territories.get(zone) or territories[get_global("zone_aliases")[zone]]) == alpha_2


def test_english_reading_countries_take_an_english_locale_of_theirs_where_cldr_has_one():
    for country, formats in layout.ENGLISH_COUNTRIES.items():
        english = f"en_{pycountry.countries.get(alpha_3=country).alpha_2}"
        assert (formats == english) == localedata.exists(english), (country, formats)


@pytest.mark.parametrize(
    ("method", "currency", "extra", "country"),
    [
        ("Cash", "USD", {"customer": {"identify": {"type": "DUI", "number": "012345678"}}}, "SLV"),
        ("Cash", "USD", {"customer": {"identify": {"type": "CIP", "number": "812345"}}}, "PAN"),
        ("Wallet", "RUB", {"channel": "QIWI"}, "RUS"),
        ("AlipayPlus", "PHP", {}, "PHL"),
        ("BankTransfer", "MXN", {"bank": "spei"}, "MEX"),
        ("PIX", "BRL", {}, "BRA"),
        ("CreditCard", "KWD", {}, "KWT"),
        ("CreditCard", "USD", {}, None),  # three countries pay in dollars: the page follows its language
        (None, "CNY", {}, "CHN"),  # a hosted checkout before its method
    ],
)
def test_a_trades_country_is_its_methods_row_its_channel_or_its_currencys(method, currency, extra, country):
    trade = Trade(method=method, currency=currency, channel=extra.get("channel"), details=extra)
    assert country_of(trade) == country


@pytest.mark.parametrize(
    ("zone", "language"),
    [("America/La_Paz", "es_MX"), ("Asia/Jakarta", "en"), ("Asia/Dubai", "en"), ("America/Guayaquil", "pt_BR")],
)
def test_a_zone_with_no_generic_cldr_name_is_called_by_its_name_at_that_moment(zone, language):
    """Babel's fallback for these is made of the country's name, and says "hora de verano de Bolivia" for a
    country without summer time: the zone's name at that moment instead."""
    moment = datetime(2026, 11, 27, 2, 30, tzinfo=UTC)
    tz = dates.get_timezone(zone)
    expected = dates.get_timezone_name(moment.astimezone(tz), "long", locale=language)
    said = i18n.zone_name(zone, language, moment)
    assert said == (expected if language == "en" else expected[:1].lower() + expected[1:])
    assert said.lower() != dates.get_timezone_location(tz, locale=language).lower()


@pytest.mark.parametrize(("zone", "language"), [("America/Sao_Paulo", "pt_BR"), ("Asia/Seoul", "en")])
def test_a_zone_with_a_generic_name_keeps_it(zone, language):
    moment = datetime(2026, 11, 27, 2, 30, tzinfo=UTC)
    generic = dates.get_timezone_name(dates.get_timezone(zone), "long", locale=language)
    assert i18n.zone_name(zone, language, moment).lower() == generic.lower()
