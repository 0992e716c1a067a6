"""Payout platform plumbing: AppId + SHA-256 signature, JSON bodies, request models, the payout envelope."""
from __future__ import annotations

import functools
from collections.abc import Callable

from flask import Blueprint, jsonify, request
from pydantic import BaseModel, ValidationError

from .. import clock, jsonbody, openapi, signing
from ..db import db
from ..merchants.models import Merchant
from ..merchants.service import for_request
from ..validation import FieldError, first_error


class PayoutError(Exception):
    """A rejected payout request: answered with the payout envelope, nothing written."""

    def __init__(self, code: int, msg: str, *, status: int = 400, data: dict | None = None):
        super().__init__(msg)
        self.code, self.msg, self.status, self.data = code, msg, status, data or {}


def invalid(field: str, rule: str) -> PayoutError:
    return PayoutError(4001000, "invalid parameter", data={"err": f"{field}: {rule}"})


def from_field_error(error: FieldError) -> PayoutError:
    return invalid(error.field, error.rule)


def envelope(code: int, msg: str, data, status: int = 200):
    return jsonify({"code": code, "msg": msg, "time": clock.unix(clock.real_now()), "data": data}), status


def error_response(error: PayoutError):
    return envelope(error.code, error.msg, error.data, error.status)


def _body() -> dict:
    try:
        return jsonbody.read_object()
    except jsonbody.BodyError as error:
        raise invalid(error.field or "body", error.message) from None


def authenticate(body: dict, *, attach: bool = True) -> Merchant:
    """The merchant whose app key signs this body (AppId header, or MerchantId as the samples send);
    `attach` as for_request says."""
    app_id = request.headers.get("AppId") or request.headers.get("MerchantId") or ""
    signature = request.headers.get("Authorization", "")
    usable = app_id and len(app_id) <= 32 and "\x00" not in app_id
    merchant = for_request(db.session, app_id, attach=attach) if usable else None
    key = merchant.app_key if merchant else "unknown-app"
    if not signing.verify_payout_signature(body, key, signature) or merchant is None:
        raise PayoutError(4004003, "permission denied", status=401)
    return merchant


def check_fresh(timestamp: int, window: int, *, code: int = 4001000) -> None:
    """Request freshness follows the wall clock (the merchant's own), not the sandbox clock."""
    if abs(clock.unix(clock.real_now()) - timestamp) > window:
        if code == 4001009:
            raise PayoutError(4001009, "request has expired")
        raise invalid("timestamp", "request has expired")


def operation(bp: Blueprint, rule: str, model: type[BaseModel], *, summary: str, read_only: bool = False) -> Callable:
    """Register a payout operation around `view(merchant, req)`, which returns `data`; a `read_only`
    one never writes (on SQLite it then takes no write lock)."""
    def decorate(view):
        @functools.wraps(view)
        def endpoint():
            if read_only:
                db.read_only()
            session = db.session
            try:
                body = _body()
                merchant = authenticate(body, attach=not read_only)
                try:
                    req = model.model_validate(body)
                except ValidationError as exc:
                    missing, field, rule_text = first_error(exc)
                    raise invalid(field, "is required" if missing else rule_text) from None
                data = view(merchant, req)
                if not read_only:  # a read-only one ends when the session closes, with nothing to commit
                    session.commit()
            except FieldError as error:
                session.rollback()
                return error_response(from_field_error(error))
            except PayoutError as error:
                session.rollback()
                return error_response(error)
            except Exception:
                session.rollback()
                raise
            return envelope(200, "success", data)

        openapi.register(f"{bp.name}.{view.__name__}", model, summary=summary, tag="payout")
        bp.add_url_rule(rule, view.__name__, endpoint, methods=["POST"])
        return endpoint

    return decorate
