"""Payin gateway plumbing: Basic auth, JSON bodies, request models, and the payin envelope."""
from __future__ import annotations

import base64
import binascii
import functools
import hmac
from collections.abc import Callable

from flask import Blueprint, jsonify, request
from pydantic import BaseModel, ValidationError

from . import jsonbody, openapi
from .db import db
from .validation import first_error

SUCCESS = {"code": "10000", "msg": "Success"}
MESSAGES = {"40001": "Missing Required Arguments", "40002": "Business Failed",
            "20000": "Service Currently Unavailable"}


class PayinError(Exception):
    """A rejected payin request: answered with the error envelope, nothing written."""

    def __init__(self, sub_code: str, sub_msg: str, *, code: str = "40002", status: int = 400):
        super().__init__(sub_msg)
        self.code, self.sub_code, self.sub_msg, self.status = code, sub_code, sub_msg, status

    @property
    def msg(self) -> str:
        return MESSAGES.get(self.code, "Business Failed")


def invalid(field: str, rule: str) -> PayinError:
    return PayinError("invalid-parameter", f"{field}: {rule}")


def error_response(error: PayinError):
    body = {"code": error.code, "msg": error.msg, "sub_code": error.sub_code, "sub_msg": error.sub_msg}
    return jsonify(body), error.status


def parse_json_object() -> dict:
    try:
        return jsonbody.read_object()
    except jsonbody.BodyError as error:
        if error.kind == "too-large":
            raise PayinError("request-too-large", error.message, status=413) from None
        if error.kind == "empty":
            raise PayinError("missing-arguments", error.message, code="40001") from None
        if error.kind in ("nul", "surrogate"):
            raise invalid(error.field, error.message) from None
        raise PayinError("invalid-json", error.message) from None


def validation_error(exc: ValidationError) -> PayinError:
    missing, field, rule = first_error(exc)
    if missing:
        return PayinError("missing-arguments", f"missing required argument: {field}", code="40001")
    return invalid(field, rule)


def parse_model(model: type[BaseModel], body: dict) -> BaseModel:
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        raise validation_error(exc) from None


def authenticate(*, attach: bool = True):
    """The merchant named by `Authorization: Basic base64(app_id:security_key)` (see for_request)."""
    from .merchants.service import for_request

    header = request.headers.get("Authorization", "")
    scheme, _, encoded = header.partition(" ")
    bad = PayinError("invalid-signature", "invalid signature")
    if scheme.lower() != "basic" or not encoded:
        raise bad
    try:
        app_id, sep, key = base64.b64decode(encoded.strip(), validate=True).decode().partition(":")
    except (binascii.Error, ValueError):  # ValueError: non-ASCII header text; covers UnicodeDecodeError
        raise bad from None
    usable = sep and len(app_id) <= 32 and "\x00" not in app_id
    merchant = for_request(db.session, app_id, attach=attach) if usable else None
    # Compare even when the merchant is unknown so timing does not reveal valid app ids.
    expected = merchant.security_key if merchant else "\0" * 32
    if not hmac.compare_digest(expected.encode(), key.encode()) or merchant is None:
        raise bad
    return merchant


def operation(bp: Blueprint, rule: str, model: type[BaseModel] | None, *, summary: str,
              methods=("POST",), tag: str = "payin",
              choose: Callable[[dict], type[BaseModel]] | None = None,
              alternatives: tuple[type[BaseModel], ...] = (), body_optional: bool = False,
              read_only: bool = False, one_statement: bool = False,
              query: dict[str, dict] | None = None) -> Callable:
    """Register a payin operation: auth, body, validation and envelope around `view(merchant, req)`.

    The view returns the response fields; the transaction commits only when it succeeds. Where one
    path takes several request shapes, `choose` picks the model from the body. A `read_only` operation
    never writes (on SQLite it then takes no write lock); a `one_statement` one also reads with a single
    statement, which needs no transaction around it (see Database.read_only). `query` documents the
    optional query parameters the view reads (name -> JSON schema).
    """
    def decorate(view):
        @functools.wraps(view)
        def endpoint(**kwargs):
            if read_only:
                db.read_only(one_statement=one_statement)
            session = db.session
            try:
                merchant = authenticate(attach=not read_only)
                if any("\x00" in value for value in kwargs.values()):
                    raise invalid("path", "must not contain NUL characters")
                req = None
                if model is not None:
                    body = {} if body_optional and not request.get_data(cache=True).strip() else parse_json_object()
                    req = parse_model(choose(body) if choose else model, body)
                    if getattr(req, "app_id", merchant.app_id) != merchant.app_id:
                        raise PayinError("invalid-signature", "app_id does not match the credentials")
                fields = view(merchant, req, **kwargs) if model is not None else view(merchant, **kwargs)
                if not read_only:  # a read-only one ends when the session closes, with nothing to commit
                    session.commit()
            except PayinError as error:
                session.rollback()
                return error_response(error)
            except Exception:
                session.rollback()
                raise
            return jsonify({**SUCCESS, **fields})

        openapi.register(f"{bp.name}.{view.__name__}", alternatives or model, summary=summary, tag=tag,
                         query=query)
        bp.add_url_rule(rule, view.__name__, endpoint, methods=list(methods))
        return endpoint

    return decorate
