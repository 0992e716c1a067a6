"""The dashboard lists' search terms as SQL the migration 0018 indexes answer: id prefixes, customer fields, amounts."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import ColumnElement, and_, false, func, literal_column, or_
from sqlalchemy.orm import InstrumentedAttribute, Session

from .. import money

# Every exponent a currency has, with its currencies: an amount typed without a currency is that many
# minor units in each of them ("50.00" is 5000 BRL cents, 50 CLP, 50000 BHD fils).
_BY_EXPONENT: dict[int, tuple[str, ...]] = {}
for _code, _places in sorted(money.MINOR_UNITS.items()):
    _BY_EXPONENT.setdefault(_places, ())
    _BY_EXPONENT[_places] = (*_BY_EXPONENT[_places], _code)

# The customer's fields inside trades.details, written exactly as the PostgreSQL expression indexes write
# them (the planner matches an index expression by its text), and as SQLite reads the same JSON.
_CUSTOMER_PATHS = {
    "email": (
        "lower((trades.details -> 'customer') ->> 'email')",
        "lower(json_extract(trades.details, '$.customer.email'))",
    ),
    "email_as_sent": (
        "(trades.details -> 'customer') ->> 'email'",
        "json_extract(trades.details, '$.customer.email')",
    ),
    "document": (
        "((trades.details -> 'customer') -> 'identify') ->> 'number'",
        "json_extract(trades.details, '$.customer.identify.number')",
    ),
}


def document_forms(typed: str) -> list[str]:
    """A document as typed and without its punctuation: "390.533.447-05" finds the 39053344705 the API was
    sent, and the other way round only when the merchant sent the dots."""
    bare = "".join(c for c in typed if c not in ".-/ ")
    return sorted({typed, bare} - {""})


def _postgres(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


def customer_field(session: Session, name: str) -> ColumnElement:
    postgres, sqlite = _CUSTOMER_PATHS[name]
    return literal_column(postgres if _postgres(session) else sqlite)


def starts_with(session: Session, column: ColumnElement | InstrumentedAttribute, prefix: str) -> ColumnElement:
    """`column` begins with `prefix`, exactly (case and wildcards as typed). On PostgreSQL a LIKE with its
    wildcards escaped, which a `text_pattern_ops` index answers as a range; on SQLite (whose LIKE ignores case)
    the first characters compared."""
    if _postgres(session):
        escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        return column.like(escaped + "%", escape="\\")
    return func.substr(column, 1, len(prefix)) == prefix


def amount_matches(amount: Decimal, minor: InstrumentedAttribute, currency: InstrumentedAttribute) -> ColumnElement:
    """Rows of exactly `amount` in their own currency: for each currency exponent the amount can be written
    in (50.5 is no CLP amount), its minor units and those currencies."""
    terms, values = [], []
    for places, codes in _BY_EXPONENT.items():
        scaled = amount.scaleb(places)
        if scaled == scaled.to_integral_value():
            values.append(int(scaled))
            terms.append(and_(minor == int(scaled), currency.in_(codes)))
    # The IN alone is what an index on (merchant_id, minor, ...) takes as its condition; the OR then keeps
    # only the rows whose currency writes the amount that way.
    return and_(minor.in_(values), or_(*terms)) if terms else false()
