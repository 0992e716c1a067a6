"""Languages and formats of the pages: Flask-Babel with English, Brazilian Portuguese and Mexican Spanish."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import UTC, date, datetime

from babel import dates, numbers
from flask import Flask, g
from flask_babel import Babel, format_date, format_datetime, get_translations

from . import widgets

TIMEZONES = {"pt_BR": "America/Sao_Paulo", "es_MX": "America/Mexico_City"}

babel = Babel()


def _locale() -> str:
    return g.get("page_locale", "en")


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
    return numbers.format_currency(number, currency, locale=locale)


def format_currency(number, currency: str) -> str:
    """An amount in the page's language (Babel re-reads its number patterns on every call: cached)."""
    return _currency(number, currency, _locale())


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
    zone, locale = _timezone(), _locale()
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # the database's naive times are UTC
    tz = dates.get_timezone(zone)
    return Deadline(
        time=dates.format_time(aware, "short", tzinfo=tz, locale=locale),
        date=dates.format_date(aware.astimezone(tz).date(), "medium", locale=locale),
        zone=zone_name(zone, locale, aware),
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
