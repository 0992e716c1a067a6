"""Languages and formats of the pages: catalogues in English, Brazilian Portuguese and Mexican Spanish, CLDR formats."""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime

from babel import dates, numbers
from flask import Flask, g
from flask_babel import Babel, get_translations

from . import widgets

TIMEZONES = {"pt_BR": "America/Sao_Paulo", "es_MX": "America/Mexico_City"}
NBSP = "\u00a0"

babel = Babel()


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


@functools.lru_cache(maxsize=4096)
def _currency(number, currency: str, locale: str) -> str:
    """Babel applies CLDR's currency patterns but not its currencySpacing (root's, which every locale keeps):
    a symbol whose edge next to the digits is neither a symbol nor a space ("USD", unlike "$" or "US$") is
    kept apart from them by a no-break space. Without it es-MX read "USD1.40".

    CLDR's digits of a currency can be fewer than the ISO 4217 minor units the service charges in: Colombian
    pesos have none in CLDR 49 (Babel 2.19), while a COP trade may be 3000.50. An amount those digits would
    round is written with the locale pattern's own decimals instead: a page never shows another amount than
    the one charged."""
    exact = number == round(number, numbers.get_currency_precision(currency))
    text = numbers.format_currency(number, currency, locale=locale, currency_digits=exact)
    symbol = numbers.get_currency_symbol(currency, locale=locale)
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
    return _currency(number, currency, _format_locale())


def format_date(value: date | datetime, format: str = "medium") -> str:
    """A date in the page's locale; a moment is first put in the page's time zone (Brazil's, Mexico City's...)."""
    if isinstance(value, datetime):
        value = _aware(value).astimezone(dates.get_timezone(_timezone())).date()
    return dates.format_date(value, format, locale=_format_locale())


def format_datetime(value: datetime, format: str = "medium") -> str:
    """A moment in the page's locale and time zone."""
    return dates.format_datetime(_aware(value), format, tzinfo=dates.get_timezone(_timezone()), locale=_format_locale())


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
    # UTC belongs to no region, so CLDR has no generic name for it: its name at that moment instead.
    name = dates.get_timezone_name(moment.astimezone(tz) if zone == "UTC" else tz, "long", locale=locale)
    return name if locale == "en" else name[:1].lower() + name[1:]


def format_deadline(moment: datetime) -> Deadline:
    """`moment` in the page's time zone (the session's country's, else its language's) with that zone's name,
    for sentences such as "This page expires at %(time)s (%(zone)s)."."""
    zone, formats = _timezone(), _format_locale()
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
        format_date=format_date,
        format_datetime=format_datetime,
        format_deadline=format_deadline,
        control=widgets.control,
    )
    app.jinja_env.filters["cnpj"] = cnpj
    app.jinja_env.filters["isodate"] = date.fromisoformat
