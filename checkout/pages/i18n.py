"""Languages and formats of the pages: Flask-Babel with English, Brazilian Portuguese and Mexican Spanish."""
from __future__ import annotations

from datetime import date

from flask import Flask, g
from flask_babel import Babel, format_currency, format_date, format_datetime

TIMEZONES = {"pt_BR": "America/Sao_Paulo", "es_MX": "America/Mexico_City"}

babel = Babel()


def _locale() -> str:
    return g.get("page_locale", "en")


def _timezone() -> str:
    return TIMEZONES.get(_locale(), "UTC")


def cnpj(number: str | None) -> str:
    n = number or ""
    return f"{n[:2]}.{n[2:5]}.{n[5:8]}/{n[8:12]}-{n[12:]}" if len(n) == 14 else n


def init_app(app: Flask) -> None:
    babel.init_app(app, locale_selector=_locale, timezone_selector=_timezone)
    app.jinja_env.globals.update(format_currency=format_currency, format_date=format_date,
                                 format_datetime=format_datetime)
    app.jinja_env.filters["cnpj"] = cnpj
    app.jinja_env.filters["isodate"] = date.fromisoformat
