"""Amounts and moments as a page writes them, from the pages' own CLDR formatters: what tests compare with."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from decimal import Decimal

from flask import Flask, g

from checkout.pages import i18n

# The formatters read the page's language, CLDR locale and time zone from flask.g; any app context holds them.
_CONTEXT = Flask(__name__)


@contextmanager
def _page(language: str, formats: str | None = None, zone: str | None = None) -> Iterator[None]:
    with _CONTEXT.app_context():
        g.page_locale, g.page_format_locale, g.page_timezone = language, formats or language, zone
        yield


def money(value: str | Decimal, currency: str, locale: str) -> str:
    """`value` in `currency` as a page whose amounts follow the CLDR locale `locale` writes it."""
    with _page(locale):
        return i18n.format_currency(Decimal(value), currency)


def moment(value: datetime, zone: str, locale: str, format: str = "short") -> str:
    """A moment (naive: UTC) as a page in `zone` whose dates follow the CLDR locale `locale` writes it."""
    with _page(locale, zone=zone):
        return i18n.format_datetime(value, format)


def deadline(value: datetime | int, zone: str, language: str, formats: str | None = None) -> i18n.Deadline:
    """An expiry (a datetime, or unix seconds as the APIs give it) as a page in `language`, in `zone`, with
    dates in the CLDR locale `formats` (the language's own unless given) says it: time, date, zone's name."""
    when = datetime.fromtimestamp(value, UTC) if isinstance(value, int) else value
    with _page(language, formats, zone):
        return i18n.format_deadline(when)
