"""Field types shared by the commands and JSON request models (strings, times, amounts, URLs), and their configs."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Annotated, Any
from urllib.parse import urlsplit

import pycountry
from annotated_types import GroupedMetadata
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    GetCoreSchemaHandler,
    StringConstraints,
    ValidationError,
    WithJsonSchema,
)
from pydantic_core import CoreSchema

from . import money

# Unknown keys are ignored (merchants send sign_type, charset, ...); no type coercion beyond ours.
REQUEST_CONFIG = ConfigDict(
    extra="ignore", strict=False, str_strip_whitespace=False, coerce_numbers_to_str=False, hide_input_in_errors=True
)
# A command (what a service takes) is a request's business part: the same rules, and never changed once made.
COMMAND_CONFIG = ConfigDict(
    extra="ignore",
    strict=False,
    str_strip_whitespace=False,
    coerce_numbers_to_str=False,
    hide_input_in_errors=True,
    frozen=True,
)


def first_error(exc: ValidationError) -> tuple[bool, str, str]:
    """(is it a missing field, dotted field name, rule) of the error to report: missing fields first."""
    errors = exc.errors(include_url=False)
    missing = [e for e in errors if e["type"] == "missing"]
    first = (missing or errors)[0]
    field = ".".join(str(part) for part in first["loc"] if not str(part).startswith("function-"))
    return bool(missing), field or "body", first["msg"].removeprefix("Value error, ")


# The factories below return Annotated metadata, not types, so that fields stay checkable by mypy:
# `app_id: Annotated[str, Text(32)]`, `amount: Annotated[Decimal, Amount("0.01", "9999")]`,
# `email: Annotated[str | None, OptText(64)] = None`.


@dataclass(frozen=True)
class Rules(GroupedMetadata):
    """Several pieces of pydantic metadata as one Annotated argument (pydantic unpacks it in order)."""

    items: tuple[object, ...]

    def __iter__(self) -> Iterator[object]:
        return iter(self.items)


def Text(max_length: int | None = None, min_length: int = 1) -> StringConstraints:
    """A string of 1..max_length characters: `Annotated[str, Text(max_length)]`."""
    return StringConstraints(min_length=min_length, max_length=max_length)


def Fixed(value: str) -> Rules:
    """A string that must equal `value` exactly (the seed's "fixed X" rule): `Annotated[str, Fixed(value)]`."""

    def check(text: str) -> str:
        if text != value:
            raise ValueError(f"must be {value}")
        return text

    return Rules((AfterValidator(check), WithJsonSchema({"type": "string", "enum": [value]})))


_TIMESTAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def is_digits(text: str) -> bool:
    """ASCII digits only (str.isdigit also accepts superscripts and other scripts' digits)."""
    return text.isascii() and text.isdigit()


def _timestamp(text: str) -> str:
    if len(text) != 19:
        raise ValueError("must be yyyy-MM-dd HH:mm:ss (19 characters)")
    if not _TIMESTAMP.fullmatch(text):
        raise ValueError("must be yyyy-MM-dd HH:mm:ss")
    try:
        # The shape is the pattern's; fromisoformat checks the calendar and the clock as strptime would
        # (tests/test_validation.py), at a fortieth of its cost on every payin request.
        datetime.fromisoformat(text)
    except ValueError:
        raise ValueError("must be yyyy-MM-dd HH:mm:ss") from None
    return text


# Patterns spell digits [0-9]: to Python-based tools (schemathesis, hypothesis) \d is any Unicode digit, which
# the service refuses.
Timestamp = Annotated[
    str,
    AfterValidator(_timestamp),
    WithJsonSchema(
        {
            "type": "string",
            "pattern": r"^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$",
            "example": "2026-11-21 10:00:00",
        }
    ),
]


def _iso_date(text: str) -> date:
    if not isinstance(text, str) or not _DATE.fullmatch(text):
        raise ValueError("must be a date yyyy-MM-dd")
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError("must be a date yyyy-MM-dd") from None


IsoDate = Annotated[date, BeforeValidator(_iso_date), WithJsonSchema({"type": "string", "format": "date"})]


def _decimal(value) -> Decimal:
    try:
        return money.parse_decimal(value)
    except money.MoneyError as exc:
        raise ValueError(str(exc)) from None


def Amount(minimum: str, maximum: str, places: int | None = 2) -> Rules:
    """A decimal amount (JSON number or numeric string) within [minimum, maximum], at most `places` decimals:
    `Annotated[Decimal, Amount(minimum, maximum)]`. `places=None`: the amount's currency decides, where the
    service converts it (`money.to_minor`: "at most 3 decimal places for BHD")."""
    low, high = Decimal(minimum), Decimal(maximum)

    def check(amount: Decimal) -> Decimal:
        if places is not None and money.decimals(amount) > places:
            raise ValueError(f"at most {places} decimal places")
        if not low <= amount <= high:
            raise ValueError(f"must be between {minimum} and {maximum}")
        return amount

    # JSON Schema bounds must be JSON numbers; only the OpenAPI document reads these floats.
    schema = {
        "anyOf": [
            {"type": "number", "minimum": float(low), "maximum": float(high)},
            {"type": "string", "pattern": rf"^[0-9]+(\.[0-9]{{1,{places or max(money.MINOR_UNITS.values())}}})?$"},
        ]
    }
    return Rules((BeforeValidator(_decimal), AfterValidator(check), WithJsonSchema(schema)))


def _currency(text: str) -> str:
    if text not in money.CURRENCIES:
        raise ValueError(f"must be one of {', '.join(sorted(money.CURRENCIES))}")
    return text


Currency = Annotated[
    str, AfterValidator(_currency), WithJsonSchema({"type": "string", "enum": sorted(money.CURRENCIES)})
]

# Where the provider's own example sends the code in lower case (its capture page: "brl").
AnyCaseCurrency = Annotated[
    str,
    BeforeValidator(lambda value: value.upper() if isinstance(value, str) else value),
    AfterValidator(_currency),
    WithJsonSchema({"type": "string", "enum": sorted(money.CURRENCIES | {c.lower() for c in money.CURRENCIES})}),
]


def _http_url(text: str) -> str:
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("must be an absolute http(s) URL")
    if parts.username or parts.password:
        raise ValueError("must not carry user information")
    return text


HttpUrl = Annotated[
    str,
    StringConstraints(min_length=1, max_length=512),
    AfterValidator(_http_url),
    WithJsonSchema({"type": "string", "format": "uri", "maxLength": 512}),
]


def _empty_to_none(value):
    return None if value == "" else value


def OptText(max_length: int) -> Rules:
    """An optional string of at most max_length characters; "" counts as absent: `Annotated[str | None, OptText(n)]`.

    pydantic applies the length to the string inside the nullable, as for `Annotated[str, ...] | None`."""
    return Rules((StringConstraints(max_length=max_length), BeforeValidator(_empty_to_none)))


def check_email(text: str) -> str:
    local, at, domain = text.rpartition("@")
    if not at or not local or "." not in domain or any(c.isspace() for c in text) or domain.startswith("."):
        raise ValueError("must be an e-mail address")
    return text


def Email(max_length: int) -> Rules:
    """An e-mail address of 3..max_length characters: `Annotated[str, Email(max_length)]`."""
    return Rules(
        (
            StringConstraints(min_length=3, max_length=max_length),
            AfterValidator(check_email),
            WithJsonSchema({"type": "string", "format": "email", "maxLength": max_length}),
        )
    )


@dataclass(frozen=True)
class OptEmail:
    """An optional e-mail address; "" counts as absent: `Annotated[str | None, OptEmail(max_length)]`.

    The e-mail check and its JSON schema belong to the string inside the nullable, which metadata on
    `str | None` cannot reach: the schema is that of `Annotated[Annotated[str, Email(n)] | None, ...]`."""

    max_length: int

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        if source != str | None:
            raise TypeError(f"OptEmail annotates str | None, not {source}")
        return handler(Annotated[Annotated[str, Email(self.max_length)] | None, BeforeValidator(_empty_to_none)])


def _alpha3(text: str) -> str:
    if not re.fullmatch(r"[A-Z]{3}", text) or pycountry.countries.get(alpha_3=text) is None:
        raise ValueError("must be an ISO 3166-1 alpha-3 country code")
    return text


Alpha3 = Annotated[str, AfterValidator(_alpha3), WithJsonSchema({"type": "string", "pattern": "^[A-Z]{3}$"})]


def _ip(text: str) -> str:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        raise ValueError("must be an IPv4 or IPv6 address") from None
    return text


IpAddress = Annotated[str, AfterValidator(_ip), WithJsonSchema({"type": "string", "format": "ip"})]


class PayinRequest(BaseModel):
    """What every payin request carries: the app id (checked against the credentials) and its time."""

    model_config = REQUEST_CONFIG

    app_id: Annotated[str, Text(32)]
    timestamp: Timestamp
