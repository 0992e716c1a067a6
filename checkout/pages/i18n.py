"""Languages and formats of the pages and dashboard: English, Brazilian Portuguese and Mexican Spanish, CLDR formats."""

from __future__ import annotations

import copy
import functools
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from babel import Locale, dates, numbers
from babel.core import get_global
from flask import Flask, g
from flask_babel import Babel, get_translations

from .. import money
from . import widgets

TIMEZONES = {"pt_BR": "America/Sao_Paulo", "es_MX": "America/Mexico_City"}
NBSP = "\u00a0"

babel = Babel()  # a Flask extension: init_app binds it to each app, which keeps the state


def _locale() -> str:
    return g.get("page_locale", "en")


def _format_locale() -> str:
    """Where amounts and dates follow another CLDR locale than the catalogue's (es_CO for a Colombian page)."""
    return g.get("page_format_locale") or _locale()


def _timezone() -> str:
    return g.get("page_timezone") or TIMEZONES.get(_locale(), "UTC")


def cnpj(number: str | None) -> str:
    n = number or ""
    return f"{n[:2]}.{n[2:5]}.{n[5:8]}/{n[8:12]}-{n[12:]}" if len(n) == 14 else n


def _translations():
    """The request's catalogue, found once per request and language: Flask-Babel looks it up through
    its contexts on every call, and a page makes dozens."""
    cached = g.get("_translations")
    if cached is None or cached[0] != _locale():
        cached = g._translations = (_locale(), get_translations())
    return cached[1]


# Marks that set a right-to-left locale's direction (Arabic's currency patterns carry them): on a page in a
# left-to-right language they would only reorder the amount.
BIDI_MARKS = dict.fromkeys(map(ord, "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))


@functools.lru_cache(maxsize=256)
def _pattern(locale: str, places: int | None, currency: bool) -> numbers.NumberPattern:
    """The locale's currency (or decimal) pattern, with exactly `places` decimals where given."""
    data = Locale.parse(locale)
    pattern = copy.copy(data.currency_formats["standard"] if currency else data.decimal_formats[None])
    if places is not None:
        pattern.frac_prec = (places, places)
    return pattern


def _places(number: Decimal, currency: str) -> int:
    """The decimals that write `number` whole: its currency's ISO 4217 minor units, more if it has them."""
    try:
        units = money.exponent(currency)
    except money.MoneyError:
        units = numbers.get_currency_precision(currency)
    return max(units, money.decimals(number))


def _other_script(symbol: str) -> bool:
    return any(unicodedata.category(c)[0] == "L" and not unicodedata.name(c, "").startswith("LATIN") for c in symbol)


@functools.lru_cache(maxsize=4096)
def _currency(number, currency: str, locale: str, language: str | None = None) -> str:
    """`number` in `currency` as CLDR writes it in `locale`, on a page in `language` (the locale's own unless
    given). Four rules over Babel's:

    - CLDR's digits of a currency can be fewer than the ISO 4217 minor units the service charges in (Colombian
      pesos have none in CLDR 49, Babel 2.19, while a COP trade may be 3000.50): an amount those digits would
      round is written with the currency's minor units instead. A page never shows another number than the one
      charged, whatever CLDR release.
    - Digits are always Latin (numbering_system "latn"), never a locale's default Arabic-Indic ones.
    - On a page whose language is not the locale's (an English page of a Bahraini trade, in ar_BH's formats),
      a symbol in another script than Latin is written as the page's language writes it ("BHD", not "د.ب."),
      and the right-to-left marks of the locale's pattern are dropped. On an English page any symbol that
      English (`en`) writes otherwise is English's: zh_Hant_TW's "$" would read as US dollars and
      zh_Hans_CN's "¥" as yen, where English writes "NT$" and "CN¥".
    - Babel applies CLDR's currency patterns but not its currencySpacing (root's, which every locale keeps):
      a symbol whose edge next to the digits is neither a symbol nor a space ("USD", unlike "$" or "US$") is
      kept apart from them by a no-break space. Without it es-MX read "USD1.40"."""
    exact = number == round(number, numbers.get_currency_precision(currency))
    places = None if exact else _places(number, currency)
    text = numbers.format_currency(
        number,
        currency,
        format=_pattern(locale, places, currency=True),
        locale=locale,
        currency_digits=exact,
        numbering_system="latn",
    )
    symbol = numbers.get_currency_symbol(currency, locale=locale)
    if language and Locale.parse(language).language != Locale.parse(locale).language:
        text = text.translate(BIDI_MARKS)
        own = numbers.get_currency_symbol(currency, locale=language)
        bare = symbol.translate(BIDI_MARKS)
        if own != bare and (_other_script(symbol) or Locale.parse(language).language == "en"):
            text, symbol = text.replace(bare, own), own
    at = text.find(symbol)
    if at < 0:
        return text
    before, after = text[at - 1 : at], text[at + len(symbol) : at + len(symbol) + 1]
    if after.isdigit() and unicodedata.category(symbol[-1])[0] not in "SZ":
        return text[: at + len(symbol)] + NBSP + text[at + len(symbol) :]
    if before.isdigit() and unicodedata.category(symbol[0])[0] not in "SZ":
        return text[:at] + NBSP + text[at:]
    return text


def format_currency(number, currency: str) -> str:
    """An amount as CLDR writes it in the page's locale (Babel re-reads its number patterns on every call: cached)."""
    return _currency(number, currency, _format_locale(), _locale())


@functools.lru_cache(maxsize=4096)
def _figure(number: Decimal, places: int, locale: str) -> str:
    pattern = _pattern(locale, places, currency=False)
    return numbers.format_decimal(number, format=pattern, locale=locale, numbering_system="latn")


def format_amount(value: Decimal | str, currency: str | None = None) -> str:
    """A figure in the page's locale, its currency beside it left to the caller (the dashboard's "1,234.567
    BHD"): exactly the currency's ISO 4217 minor units (three for BHD, none for KRW), as the APIs print it,
    whatever CLDR's digits; without a currency (a chart's axis), the decimals `value` is written with."""
    number = value if isinstance(value, Decimal) else money.parse_decimal(value)
    exponent = number.as_tuple().exponent
    written = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return _figure(number, _places(number, currency) if currency else written, _format_locale())


@functools.lru_cache(maxsize=64)
def date_locale(formats: str, language: str) -> str:
    """The CLDR locale of a page's dates: its format locale, unless that speaks another language than the page
    (an English page in Korea or Russia, whose format locale is ko_KR or ru_RU): then English, on the country's
    clock (12 or 24 hours), for a date's words (months, "pm") are the page's language's."""
    if Locale.parse(formats).language == Locale.parse(language).language:
        return formats
    if Locale.parse(language).language != "en":
        return language
    clock = Locale.parse(formats).time_formats["short"].format
    return "en_001" if "%(h" in clock or "%(K" in clock else "en_GB"


def _date_locale() -> str:
    return date_locale(_format_locale(), _locale())


def format_date(value: date | datetime, format: str = "medium") -> str:
    """A date in the page's locale; a moment is first put in the page's time zone (Brazil's, Mexico City's...)."""
    if isinstance(value, datetime):
        value = _aware(value).astimezone(dates.get_timezone(_timezone())).date()
    return dates.format_date(value, format, locale=_date_locale())


def format_datetime(value: datetime, format: str = "medium") -> str:
    """A moment in the page's locale and time zone."""
    return dates.format_datetime(_aware(value), format, tzinfo=dates.get_timezone(_timezone()), locale=_date_locale())


def format_utc(value: datetime, seconds: bool = False) -> str:
    """A moment in UTC as the page's language writes its date, on a 24-hour clock ("27 de nov. de 2026 21:03",
    "Nov 27, 2026 21:03"): the dashboard's columns say "(UTC)", whatever the merchant's country."""
    moment = _aware(value).astimezone(dates.UTC)
    locale, pattern = _day_pattern(_date_locale())
    day = pattern.apply(moment.date(), locale)
    return f"{day} {moment:%H:%M:%S}" if seconds else f"{day} {moment:%H:%M}"


@functools.lru_cache(maxsize=64)
def _day_pattern(name: str) -> tuple[Locale, dates.DateTimePattern]:
    """The locale's pattern for a day with its month's short name ("d 'de' MMM 'de' y"), parsed once: a
    list writes fifty of them, and babel's lookup by skeleton costs five times the writing."""
    locale = Locale.parse(name)
    pattern = locale.datetime_skeletons.get("yMMMd") or locale.date_formats["medium"]
    return locale, dates.parse_pattern(str(pattern))


def _aware(value: datetime) -> datetime:
    # The database gives back naive UTC datetimes on SQLite.
    return value if value.tzinfo else value.replace(tzinfo=dates.UTC)


@dataclass(frozen=True)
class Deadline:
    """A moment as the page's sentence says it: its time, date and time zone's name, in the page's language."""

    time: str
    date: str
    zone: str


def zone_name(zone: str, locale: str, moment: datetime) -> str:
    """CLDR's name of `zone` ("Brasilia Time", "horário de Brasília", "hora central"), written to sit inside
    a sentence: Portuguese and Spanish names start in lower case there."""
    tz = dates.get_timezone(zone)
    # A zone with no generic name in CLDR (UTC, Bolivia's, Western Indonesia's, the Gulf's) would get Babel's
    # fallback from its country's name ("hora de verano de Bolivia", "Indonesia (Jakarta) Time"): its name at
    # that moment instead ("hora de Bolivia", "Western Indonesia Time").
    generic = tz if _has_generic_name(zone, locale) else moment.astimezone(tz)
    name = dates.get_timezone_name(generic, "long", locale=locale)
    return name if locale == "en" else name[:1].lower() + name[1:]


@functools.lru_cache(maxsize=256)
def _has_generic_name(zone: str, locale: str) -> bool:
    canonical = get_global("zone_aliases").get(zone, zone)
    data = Locale.parse(locale)
    if data.time_zones.get(canonical, {}).get("long", {}).get("generic"):
        return True
    metazone = get_global("meta_zones").get(canonical)
    return bool(metazone and data.meta_zones.get(metazone, {}).get("long", {}).get("generic"))


def format_deadline(moment: datetime) -> Deadline:
    """`moment` in the page's time zone (the session's country's, else its language's) with that zone's name,
    for sentences such as "This page expires at %(time)s (%(zone)s)."."""
    zone, formats = _timezone(), _date_locale()
    aware = _aware(moment)
    tz = dates.get_timezone(zone)
    return Deadline(
        time=dates.format_time(aware, "short", tzinfo=tz, locale=formats),
        date=dates.format_date(aware.astimezone(tz).date(), "medium", locale=formats),
        zone=zone_name(zone, _locale(), aware),
    )


def init_app(app: Flask) -> None:
    babel.init_app(app, locale_selector=_locale, timezone_selector=_timezone)
    # Flask-Babel adds the jinja2.ext.i18n extension, which installs this method on the environment.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        lambda text: _translations().ugettext(text),
        lambda singular, plural, n: _translations().ungettext(singular, plural, n),
        newstyle=True,
    )
    app.jinja_env.globals.update(
        format_currency=format_currency,
        format_amount=format_amount,
        format_date=format_date,
        format_datetime=format_datetime,
        format_deadline=format_deadline,
        control=widgets.control,
    )
    app.jinja_env.filters["cnpj"] = cnpj
    app.jinja_env.filters["isodate"] = date.fromisoformat
