"""Reading a request body as one JSON object: size limit, numbers as Decimal, no NUL characters."""
from __future__ import annotations

import json
from decimal import Decimal

from flask import request
from werkzeug.exceptions import RequestEntityTooLarge


class JsonNumber(Decimal):
    """A JSON number with a fraction or exponent, read exactly, that remembers how it was written."""

    text: str

    def __new__(cls, text: str):
        number = super().__new__(cls, text)
        number.text = text
        return number


class BodyError(ValueError):
    """Why a body is unusable: kind is too-large, empty, invalid-json or nul; field names where."""

    def __init__(self, kind: str, message: str, field: str | None = None):
        super().__init__(message)
        self.kind, self.message, self.field = kind, message, field


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a number")


def _nul_path(value, path: str = "") -> str | None:
    """Where a NUL character hides in the body (PostgreSQL text cannot hold one), if anywhere."""
    if isinstance(value, str):
        return path or "body" if "\x00" in value else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if isinstance(key, str) and "\x00" in key:
            return path or "body"
        found = _nul_path(item, f"{path}.{key}" if path else str(key))
        if found:
            return found
    return None


def read_object() -> dict:
    """The current request's body as a JSON object, numbers as Decimal (never float)."""
    try:
        raw = request.get_data(cache=True)
    except RequestEntityTooLarge:
        raise BodyError("too-large", "request body exceeds 1 MiB") from None
    if not raw.strip():
        raise BodyError("empty", "request body is empty; a JSON object is required")
    try:
        body = json.loads(raw, parse_float=JsonNumber, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        raise BodyError("invalid-json", "request body is not valid UTF-8 JSON") from None
    if not isinstance(body, dict):
        raise BodyError("invalid-json", "request body must be a JSON object")
    where = _nul_path(body)
    if where:
        raise BodyError("nul", "must not contain NUL characters", field=where)
    return body
