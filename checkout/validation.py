"""Field types shared by the JSON request models: bounded strings, timestamps, amounts, URLs."""
from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal
from typing import Annotated

from pydantic import AfterValidator, BeforeValidator, ConfigDict, StringConstraints, ValidationError, WithJsonSchema

from . import money

# Unknown keys are ignored (merchants send sign_type, charset, ...); no type coercion beyond ours.
REQUEST_CONFIG = ConfigDict(extra="ignore", strict=False, str_strip_whitespace=False,
                            coerce_numbers_to_str=False, hide_input_in_errors=True)


def first_error(exc: ValidationError) -> tuple[bool, str, str]:
    """(is it a missing field, dotted field name, rule) of the error to report: missing fields first."""
    errors = exc.errors(include_url=False)
    missing = [e for e in errors if e["type"] == "missing"]
    first = (missing or errors)[0]
    field = ".".join(str(part) for part in first["loc"] if not str(part).startswith("function-"))
    return bool(missing), field or "body", first["msg"].removeprefix("Value error, ")


def Text(max_length: int | None = None, min_length: int = 1):
    """A string of 1..max_length characters."""
    return Annotated[str, StringConstraints(min_length=min_length, max_length=max_length)]


def Fixed(value: str):
    """A string that must equal `value` exactly (the seed's "fixed X" rule)."""
    def check(text: str) -> str:
        if text != value:
            raise ValueError(f"must be {value}")
        return text
    return Annotated[str, AfterValidator(check), WithJsonSchema({"type": "string", "enum": [value]})]


_TIMESTAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def is_digits(text: str) -> bool:
    """ASCII digits only (str.isdigit also accepts superscripts and other scripts' digits)."""
    return text.isascii() and text.isdigit()


def brazilian_document(kind: str, number: str) -> bool:
    """A CPF (11 digits) or CNPJ (14) with valid check digits; one digit repeated is never valid."""
    from stdnum.br import cnpj, cpf

    size, module = {"CPF": (11, cpf), "CNPJ": (14, cnpj)}.get(kind, (0, None))
    return (module is not None and is_digits(number) and len(number) == size and len(set(number)) > 1
            and module.is_valid(number))


def _timestamp(text: str) -> str:
    if len(text) != 19:
        raise ValueError("must be yyyy-MM-dd HH:mm:ss (19 characters)")
    if not _TIMESTAMP.fullmatch(text):
        raise ValueError("must be yyyy-MM-dd HH:mm:ss")
    try:
        datetime.strptime(text, "%Y-%m-%d %H:%M:%S")
    except ValueError:
        raise ValueError("must be yyyy-MM-dd HH:mm:ss") from None
    return text


# Patterns spell digits [0-9]: to Python-based tools (schemathesis, hypothesis) \d is any Unicode digit, which
# the service refuses.
Timestamp = Annotated[str, AfterValidator(_timestamp),
                      WithJsonSchema({"type": "string",
                                      "pattern": r"^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$",
                                      "example": "2026-11-21 10:00:00"})]


def _iso_date(text: str) -> date:
    if not isinstance(text, str) or not _DATE.fullmatch(text):
        raise ValueError("must be a date yyyy-MM-dd")
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError("must be a date yyyy-MM-dd") from None


IsoDate = Annotated[date, BeforeValidator(_iso_date),
                    WithJsonSchema({"type": "string", "format": "date"})]


def _decimal(value) -> Decimal:
    try:
        return money.parse_decimal(value)
    except money.MoneyError as exc:
        raise ValueError(str(exc)) from None


def Amount(minimum: str, maximum: str, places: int = 2):
    """A decimal amount (JSON number or numeric string) within [minimum, maximum], at most `places` decimals."""
    low, high = Decimal(minimum), Decimal(maximum)

    def check(amount: Decimal) -> Decimal:
        if money.decimals(amount) > places:
            raise ValueError(f"at most {places} decimal places")
        if not low <= amount <= high:
            raise ValueError(f"must be between {minimum} and {maximum}")
        return amount

    # JSON Schema bounds must be JSON numbers; only the OpenAPI document reads these floats.
    schema = {"anyOf": [{"type": "number", "minimum": float(low), "maximum": float(high)},
                        {"type": "string", "pattern": rf"^[0-9]+(\.[0-9]{{1,{places}}})?$"}]}
    return Annotated[Decimal, BeforeValidator(_decimal), AfterValidator(check), WithJsonSchema(schema)]


def _currency(text: str) -> str:
    if text not in money.CURRENCIES:
        raise ValueError(f"must be one of {', '.join(sorted(money.CURRENCIES))}")
    return text


Currency = Annotated[str, AfterValidator(_currency),
                     WithJsonSchema({"type": "string", "enum": sorted(money.CURRENCIES)})]


def _http_url(text: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("must be an absolute http(s) URL")
    if parts.username or parts.password:
        raise ValueError("must not carry user information")
    return text


HttpUrl = Annotated[str, StringConstraints(min_length=1, max_length=512), AfterValidator(_http_url),
                    WithJsonSchema({"type": "string", "format": "uri", "maxLength": 512})]



def _empty_to_none(value):
    return None if value == "" else value


def OptText(max_length: int):
    """An optional string of at most max_length characters; "" counts as absent."""
    return Annotated[Annotated[str, StringConstraints(max_length=max_length)] | None, BeforeValidator(_empty_to_none)]


def check_email(text: str) -> str:
    local, at, domain = text.rpartition("@")
    if not at or not local or "." not in domain or any(c.isspace() for c in text) or domain.startswith("."):
        raise ValueError("must be an e-mail address")
    return text


def Email(max_length: int):
    return Annotated[str, StringConstraints(min_length=3, max_length=max_length), AfterValidator(check_email),
                     WithJsonSchema({"type": "string", "format": "email", "maxLength": max_length})]


def OptEmail(max_length: int):
    """An optional e-mail address; "" counts as absent."""
    return Annotated[Email(max_length) | None, BeforeValidator(_empty_to_none)]


def _alpha3(text: str) -> str:
    import pycountry

    if not re.fullmatch(r"[A-Z]{3}", text) or pycountry.countries.get(alpha_3=text) is None:
        raise ValueError("must be an ISO 3166-1 alpha-3 country code")
    return text


Alpha3 = Annotated[str, AfterValidator(_alpha3), WithJsonSchema({"type": "string", "pattern": "^[A-Z]{3}$"})]


def _ip(text: str) -> str:
    import ipaddress

    try:
        ipaddress.ip_address(text)
    except ValueError:
        raise ValueError("must be an IPv4 or IPv6 address") from None
    return text


IpAddress = Annotated[str, AfterValidator(_ip), WithJsonSchema({"type": "string", "format": "ip"})]


class FieldError(ValueError):
    """A business rule broken by one field, for any API or form to report in its own way."""

    def __init__(self, field: str, rule: str):
        super().__init__(f"{field}: {rule}")
        self.field, self.rule = field, rule
