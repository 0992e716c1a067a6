"""What every beneficiary check shares: the normalised beneficiary, required fields, documents, banks, digits."""

from __future__ import annotations

import re
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

from ...errors import InvalidField
from ...validation import check_email, is_digits
from ..banks import BANKS

# The submit pages' phone: "0 ~ 15 digits"; the + of the international form is optional.
PHONE = re.compile(r"^\+?[0-9]{1,15}$")
# The bank account types of the bank transfer pages ("CHEKCING", as three of them spell it, means CHECKING).
BANK_ACCOUNT_TYPES = ("CHECKING", "SAVINGS")
ACCOUNT_TYPE_SPELLINGS = {"CHEKCING": "CHECKING"}


@dataclass
class Beneficiary:
    """What the service keeps about where the money goes, normalised."""

    account: str | None = None
    account_type: str | None = None
    document_id: str | None = None
    document_type: str | None = None
    bank_code: str | None = None
    branch: str | None = None
    account_digit: str | None = None
    bank_number: str | None = None  # ISPB or bank code, when known
    bank_name: str | None = None


P = ParamSpec("P")
T = TypeVar("T")

# The problems noted while `collect()` runs; None while a check raises its first broken rule (submit).
_collecting: ContextVar[list[InvalidField] | None] = ContextVar("collecting", default=None)


def each(check: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T | None:
    """Run one field's check. Submitting, its broken rule raises; while `collect()` runs, the rule is noted
    (once per field), None stands for the value and the next field is checked, so the rules stay declared once."""
    found = _collecting.get()
    if found is None:
        return check(*args, **kwargs)
    try:
        return check(*args, **kwargs)
    except InvalidField as problem:
        if all(known.field != problem.field for known in found):
            found.append(problem)
        return None


def collect(check: Callable[[object], object], req: object) -> list[InvalidField]:
    """Every rule `check` finds broken in `req`, in the order it checks them, one per field."""
    found: list[InvalidField] = []
    token = _collecting.set(found)
    try:
        each(check, req)  # what a check that does not go field by field raises is its one problem
    finally:
        _collecting.reset(token)
    return found


def required(value, field: str) -> str:
    if value in (None, ""):
        raise InvalidField(field, "is required for this method")
    return value


def named(req) -> None:
    """Every method but WALLET needs the beneficiary's name (the wallet pages mark it optional)."""
    required(req.name, "name")


def one_of(value, field: str, allowed: tuple[str, ...]) -> str:
    value = ACCOUNT_TYPE_SPELLINGS.get(required(value, field), value)
    if value not in allowed:
        raise InvalidField(
            field, f"must be {' or '.join(allowed)}" if len(allowed) < 3 else f"must be one of {', '.join(allowed)}"
        )
    return value


def digits(value, field: str, low: int, high: int | None = None) -> str:
    """`value`, required, of `low` to `high` (or exactly `low`) digits."""
    value = required(value, field)
    high = low if high is None else high
    if not (is_digits(value) and low <= len(value) <= high):
        raise InvalidField(field, f"must be {low} digits" if low == high else f"must be {low} to {high} digits")
    return value


def email(value, field: str, what: str) -> str:
    value = required(value, field)
    try:
        check_email(value)
    except ValueError:
        raise InvalidField(field, f"must be {what}") from None
    return value


def contact(req) -> None:
    """The bank transfer pages that mark phone and e-mail required (Argentina, Colombia, Guatemala, Panama, Uruguay)."""
    required(req.phone, "phone")
    required(req.email, "email")


def bank(country: str, code, *, width: int | None = None) -> tuple[str, str]:
    """(code, name) of a bank of `country`'s bank list; `width` zero-pads a short numeric code."""
    code = required(code, "bank_code")
    if width and is_digits(code) and len(code) < width:
        code = code.rjust(width, "0")
    name = BANKS[country].get(code)
    if name is None:
        raise InvalidField("bank_code", f"must be a bank code from the {country} bank list")
    return code, name


# Document types per country, as each submit page lists them: type -> (pattern, what the pattern means).
DOCUMENTS: dict[str, dict[str, tuple[str, str]]] = {
    "ARG": {"CUIT": (r"[0-9]{11}", "11 digits")},
    "COL": {
        "CC": (r"[0-9]{6,10}", "6 to 10 digits"),
        "CE": (r"[0-9A-Z]{1,12}", "up to 12 letters or digits"),
        "PEP": (r"[0-9]{1,15}", "up to 15 digits"),
    },
    # The page: "13 digits, always start with 001"; its own example (and Ecuador's RUC) ends with 001.
    "ECU": {
        "CEDULA": (r"[0-9]{10}", "10 digits"),
        "PAS": (r"001[0-9]{10}|[0-9]{10}001", "13 digits starting or ending with 001"),
        "RUC": (r"001[0-9]{10}|[0-9]{10}001", "13 digits starting or ending with 001"),
    },
    "GTM": {
        "CUI": (r"[0-9]{13}", "13 digits"),
        "NIT": (r"(?=[0-9K-]{7,12}$)[0-9]{5,10}-?[0-9K]", "7 to 11 digits, the last one may be K"),
    },
    "PAN": {
        "RUC": (r"[0-9A-Z-]{5,15}", "5 to 15 letters, digits or hyphens"),
        "PASS": (r"[0-9A-Z]{5,20}", "5 to 20 letters or digits"),
        "CE": (r"(?=(?:-?[0-9A-Z]){5,12}$)[0-9A-Z]+(?:-[0-9A-Z]+)*", "5 to 12 letters or digits, hyphens between"),
    },
    "PER": {
        "DNI": (r"[0-9]{8}", "8 digits"),
        "RUC": (r"[0-9]{11}", "11 digits"),
        "PAS": (r"[0-9]{7,12}", "7 to 12 digits"),
        "CE": (r"[0-9]{8,12}", "8 to 12 digits"),
    },
    "URY": {"CI": (r"[0-9]{8}", "8 digits"), "RUT": (r"[0-9]{12}", "12 digits")},
    "TUR": {"NIN": (r"[0-9]{11}", "11 digits")},
}


def document(req, country: str, *, optional: bool = False) -> tuple[str | None, str | None]:
    """The beneficiary's document, of a type `country`'s page lists; (None, None) when optional and absent."""
    kinds = DOCUMENTS[country]
    if optional and req.document_id in (None, ""):
        return None, None
    number = required(req.document_id, "document_id").upper()
    kind = req.document_type.upper() if req.document_type else (next(iter(kinds)) if len(kinds) == 1 else None)
    if kind not in kinds:
        raise InvalidField(
            "document_type", f"must be {' or '.join(kinds)}" if len(kinds) < 3 else f"must be one of {', '.join(kinds)}"
        )
    pattern, rule = kinds[kind]
    if not re.fullmatch(pattern, number):
        raise InvalidField("document_id", f"must be a {kind} of {rule}")
    return number, kind
