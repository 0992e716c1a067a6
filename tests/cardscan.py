"""Finding card data in a database: every card number (a Luhn-valid run of a brand we take) and every security
code kept under its field name, in every column of every table; the unit and end-to-end suites scan with it."""

from __future__ import annotations

import json
import re
import unicodedata

from sqlalchemy import Engine, select
from stdnum import luhn

from checkout import models  # every feature's tables: the scan covers the whole schema in any process
from checkout.cards.service import brand_of
from checkout.db import Base

# 12 to 19 digits, alone or in groups of 2 to 6 split by one space, dash, dot, underscore or slash, as a number is
# typed or printed, standing apart from letters and digits: a longer run is something else (a barcode, a BR
# Code), and digits inside a word are part of it (a hex key holds a run of 12 digits in one key of six or so).
_NUMBER = re.compile(r"(?<![0-9A-Za-z])(?:[0-9]{2,6}(?:[ ._/-]?[0-9]{2,6}){2,8}|[0-9]{12,19})(?![0-9A-Za-z])")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)
# A security code kept under its name, in JSON ("cvv": "123") or a form (cvv=123), not masked.
_CODE = re.compile(
    r"""["']?\b(?:cvv2?|cvc2?|cid|security_?code|card_?cvv|card_?cvc|cvn)\b["']?\s*[:=]\s*["']?(?![*\]\[]|null)([0-9]{3,4})\b""",
    re.IGNORECASE,
)


def card_numbers(text: str) -> set[str]:
    """The card numbers written in `text`: digit runs of 12 to 19 digits (separators dropped) that pass the
    Luhn check and belong to a brand the service takes."""
    text = _UUID.sub("", text)  # a UUID's last group may be twelve digits, standing apart
    if not text.isascii():  # full-width and other scripts' digits are digits too
        text = "".join(str(unicodedata.digit(c)) if c.isdecimal() and not c.isascii() else c for c in text)
    found = set()
    for match in _NUMBER.finditer(text):
        digits = re.sub(r"[^0-9]", "", match.group())
        if 12 <= len(digits) <= 19 and luhn.is_valid(digits) and brand_of(digits):
            found.add(digits)
    return found


def security_codes(text: str) -> list[str]:
    """Every security code kept under its field's name (masked ones, `***`, are not)."""
    return [match.group() for match in _CODE.finditer(text)]


def stored_rows(engine: Engine) -> dict[str, str]:
    """Each table's rows as text (JSON columns as their JSON); the models' tables are the migrations' (a test
    compares them), alembic_version aside."""
    found = {}
    with engine.connect() as conn:
        for table in Base.metadata.sorted_tables:
            rows = conn.execute(select(table)).all()
            if rows:
                found[table.name] = "\n".join(
                    "\t".join(json.dumps(v, default=str) if isinstance(v, dict | list) else str(v) for v in row)
                    for row in rows
                )
    return found


def own_references(trade_nos: list[str]) -> set[str]:
    """The tails of the service's own trade numbers, 12 to 19 digits long: the references a method's answer
    takes from its trade's number (`payins.methods.answers.digits`). A tail begins with the trade's hour,
    minute or second, and at 22:21 to 23:59 a 16-digit one falls in Mastercard's 2221-2720 range and passes
    the Luhn check one time in ten: it is no card number."""
    return {trade_no[-n:] for trade_no in trade_nos for n in range(12, 20)}


def card_data(engine: Engine, *, ignore: set[str] = frozenset()) -> dict[str, list[str]]:
    """Where card data is kept: {table: [what was found]}; empty when nothing is. `ignore`: numbers that are
    not card data where they appear (none is, today). References cut from the service's own trade numbers
    are not card data either."""
    with engine.connect() as conn:
        ignore = set(ignore) | own_references(list(conn.scalars(select(models.Trade.trade_no))))
    kept = {}
    for table, text in stored_rows(engine).items():
        found = sorted(card_numbers(text) - ignore) + security_codes(text)
        if found:
            kept[table] = found
    return kept


def merchant_secrets(engine: Engine) -> set[str]:
    """Every merchant's security key and app key: text no log line may hold."""
    with engine.connect() as conn:
        rows = conn.execute(select(models.Merchant.security_key, models.Merchant.app_key)).all()
    return {key for row in rows for key in row if key}


def leaks(text: str, secrets: set[str]) -> list[str]:
    """What of card data and of `secrets` appears in `text` (a log): card numbers, security codes, keys."""
    return sorted(card_numbers(text)) + security_codes(text) + sorted(s for s in secrets if s in text)
