"""Reading a request body as one JSON object: size and depth limits, numbers as Decimal, only storable text."""

from __future__ import annotations

import json
from decimal import Decimal

from flask import request
from werkzeug.exceptions import RequestEntityTooLarge

from checkout.config import MIB


class JsonNumber(Decimal):
    """A JSON number with a fraction or exponent, read exactly, that remembers how it was written."""

    text: str

    def __new__(cls, text: str):
        number = super().__new__(cls, text)
        number.text = text
        return number


class BodyError(ValueError):
    """Why a body is unusable: kind is too-large, empty, invalid-json, too-deep, nul or surrogate; field
    names where."""

    def __init__(self, kind: str, message: str, field: str | None = None):
        super().__init__(message)
        self.kind, self.message, self.field = kind, message, field


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a number")


def text_fault(text: str) -> str | None:
    """Why a string cannot be kept: a NUL (PostgreSQL text cannot hold one), or an unpaired surrogate (the
    JSON escape \\ud800 alone), which no UTF-8 text, database column or payout signature can carry."""
    if "\x00" in text:
        return "nul"
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return "surrogate"
    return None


# No request of either API nests beyond four levels; a body that nests deeper than this is refused before
# anything walks it recursively (signature, validation), which would otherwise exhaust the stack.
MAX_DEPTH = 32


def _too_deep(value) -> bool:
    """Whether `value` nests objects and arrays deeper than MAX_DEPTH (walked without recursion)."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth > MAX_DEPTH:
            return True
        pending.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


TEXT_FAULTS = {
    "nul": "must not contain NUL characters",
    "surrogate": "must be valid Unicode (no unpaired surrogate escapes)",
}


def _bad_text(value, path: str = "") -> tuple[str, str] | None:
    """Where the first string the service cannot keep hides in the body, and its fault, if anywhere."""
    if isinstance(value, str):
        fault = text_fault(value)
        return (path or "body", fault) if fault else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        fault = text_fault(key) if isinstance(key, str) else None
        if fault:
            return path or "body", fault
        found = _bad_text(item, f"{path}.{key}" if path else str(key))
        if found:
            return found
    return None


def parse_object(raw: bytes | str) -> dict:
    """`raw` read as one JSON object under the limits every JSON the service reads meets (a request body, a
    body pasted into the dashboard, a notification the demo shop receives): at most 1 MiB, UTF-8, numbers as
    Decimal (never float), nested at most MAX_DEPTH levels, no string a database or a signature cannot keep.
    Anything else raises BodyError before a recursive walk (signature, validation, redaction) sees it."""
    if len(raw) > MIB:
        raise BodyError("too-large", "request body exceeds 1 MiB")
    if not raw.strip():
        raise BodyError("empty", "request body is empty; a JSON object is required")
    try:
        body = json.loads(raw, parse_float=JsonNumber, parse_constant=_reject_constant)
    except RecursionError:  # the parser's own stack bound, far past ours
        raise BodyError("too-deep", f"request body nests deeper than {MAX_DEPTH} levels") from None
    except ValueError:
        raise BodyError("invalid-json", "request body is not valid UTF-8 JSON") from None
    if not isinstance(body, dict):
        raise BodyError("invalid-json", "request body must be a JSON object")
    if _too_deep(body):
        raise BodyError("too-deep", f"request body nests deeper than {MAX_DEPTH} levels")
    found = _bad_text(body)
    if found:
        where, fault = found
        raise BodyError(fault, TEXT_FAULTS[fault], field=where)
    return body


def read_object() -> dict:
    """The current request's body as a JSON object (parse_object's limits)."""
    try:
        raw = request.get_data(cache=True)
    except RequestEntityTooLarge:
        raise BodyError("too-large", "request body exceeds 1 MiB") from None
    return parse_object(raw)
