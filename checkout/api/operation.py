"""The one operation layer: authentication, body, validation, transaction and envelope around a view.

A payin and a payout operation differ only in their `Envelope`: how the merchant is authenticated, how
an unusable body is reported, and how success and errors are wrapped (errors through the registry).
"""

from __future__ import annotations

import base64
import binascii
import functools
import hmac
import logging
import time
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, g, jsonify, request
from pydantic import BaseModel, ValidationError
from sqlalchemy.orm import Session

from .. import clock, jsonbody, signing
from ..db import db
from ..errors import DomainError, Expired, InvalidField, Malformed, MissingField, Unauthorized
from ..merchants.models import Merchant
from ..merchants.service import for_request
from ..validation import first_error
from . import openapi, registry, requestlog

log = logging.getLogger(__name__)

View = Callable[..., Any]


def validation_error(exc: ValidationError) -> DomainError:
    """The first problem pydantic found, as the taxonomy names it (missing fields first)."""
    missing, field, rule = first_error(exc)
    return MissingField(field) if missing else InvalidField(field, rule)


def parse_model(model: type[BaseModel], body: dict) -> BaseModel:
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        raise validation_error(exc) from None


def check_fresh(timestamp: int, window: int, *, expired: bool = False) -> None:
    """Request freshness follows the wall clock (the merchant's own), never a sandbox clock. `expired`
    answers the detail operation's own code (4001009) rather than an invalid timestamp."""
    if abs(clock.unix(clock.real_now()) - timestamp) > window:
        # Otherwise 4001000 with `data.err` "request has expired", word for word the balance page's answer.
        raise Expired("request has expired", reason=None if expired else "invalid-parameter")


class Envelope:
    """How one API authenticates, reads bodies and answers."""

    name: str
    tag: str
    authenticates_first: bool

    def read_body(self) -> dict:
        raise NotImplementedError

    def authenticate(self, body: dict | None, session: Session, *, attach: bool) -> Merchant:
        raise NotImplementedError

    def success(self, fields: Any) -> Response:
        raise NotImplementedError

    def failure(self, error: DomainError) -> tuple[Response, int]:
        raise NotImplementedError


class PayinEnvelope(Envelope):
    """Basic auth before the body; `{"code": "10000", "msg": "Success", ...fields}`; errors HTTP 400."""

    name, tag = "payin", "payin"
    authenticates_first = True

    def read_body(self) -> dict:
        try:
            return jsonbody.read_object()
        except jsonbody.BodyError as error:
            if error.kind == "too-large":
                raise Malformed(error.message, reason="request-too-large") from None
            if error.kind == "empty":
                raise MissingField("body", message=error.message) from None
            if error.kind in ("nul", "surrogate"):
                raise InvalidField(error.field or "body", error.message) from None
            raise Malformed(error.message) from None

    def authenticate(self, body: dict | None, session: Session, *, attach: bool) -> Merchant:
        """The merchant named by `Authorization: Basic base64(app_id:security_key)`."""
        header = request.headers.get("Authorization", "")
        scheme, _, encoded = header.partition(" ")
        bad = Unauthorized("invalid signature")
        if scheme.lower() != "basic" or not encoded:
            raise bad
        try:
            app_id, sep, key = base64.b64decode(encoded.strip(), validate=True).decode().partition(":")
        except (binascii.Error, ValueError):  # ValueError: non-ASCII header text; covers UnicodeDecodeError
            raise bad from None
        usable = sep and len(app_id) <= 32 and "\x00" not in app_id
        merchant = for_request(session, app_id, attach=attach) if usable else None
        # Compare even when the merchant is unknown so timing does not reveal valid app ids.
        expected = merchant.security_key if merchant else "\0" * 32
        if not hmac.compare_digest(expected.encode(), key.encode()) or merchant is None:
            raise bad
        return merchant

    def success(self, fields: Any) -> Response:
        return jsonify({"code": "10000", "msg": "Success", **fields})

    def failure(self, error: DomainError) -> tuple[Response, int]:
        body, status = registry.payin_answer(error)
        return jsonify(body), status


class PayoutEnvelope(Envelope):
    """AppId + SHA-256 signature over the body; `{"code": 200, "msg": "success", "time", "data"}`."""

    name, tag = "payout", "payout"
    authenticates_first = False

    def read_body(self) -> dict:
        try:
            return jsonbody.read_object()
        except jsonbody.BodyError as error:
            raise Malformed(error.message, field=error.field or "body") from None

    def authenticate(self, body: dict | None, session: Session, *, attach: bool) -> Merchant:
        """The merchant whose app key signs this body (AppId header, or MerchantId as the samples send)."""
        app_id = request.headers.get("AppId") or request.headers.get("MerchantId") or ""
        signature = request.headers.get("Authorization", "")
        usable = app_id and len(app_id) <= 32 and "\x00" not in app_id
        merchant = for_request(session, app_id, attach=attach) if usable else None
        key = merchant.app_key if merchant else "unknown-app"
        if not signing.verify_payout_signature(body or {}, key, signature) or merchant is None:
            raise Unauthorized("permission denied")
        return merchant

    @staticmethod
    def envelope(code: int, msg: str, data: Any, status: int = 200) -> tuple[Response, int]:
        return jsonify({"code": code, "msg": msg, "time": clock.unix(clock.real_now()), "data": data}), status

    def success(self, fields: Any) -> Response:
        return self.envelope(200, "success", fields)[0]

    def failure(self, error: DomainError) -> tuple[Response, int]:
        code, msg, data, status = registry.payout_answer(error)
        return self.envelope(code, msg, data, status)


def _finished(finish: Callable[[Any], Any], fields: Any) -> Any:
    """The answer completed after the commit; what was committed stands if that fails (the merchant's retry
    would meet a duplicate): the answer goes without what `finish` adds, and the failure is logged."""
    try:
        return finish(fields)
    except Exception:
        log.exception("could not complete the answer to %s %s after its commit", request.method, request.path)
        return fields


def logged(endpoint: View) -> View:
    """The request log around an operation: one row per request that passed authentication, refused or
    not, written after the request's own commit or rollback (RequestLog.record never raises)."""

    @functools.wraps(endpoint)
    def wrapper(**kwargs: str) -> Any:
        started = time.perf_counter()
        try:
            answer = endpoint(**kwargs)
        except Exception:
            _record(started, 500, b"")
            raise
        response, status = answer if isinstance(answer, tuple) else (answer, answer.status_code)
        _record(started, status, response.get_data())
        return answer

    return wrapper


def _record(started: float, status: int, response_body: bytes) -> None:
    merchant_id = g.pop("api_merchant_id", None)
    if merchant_id is None:
        return
    try:
        request_body = request.get_data(cache=True)
    except Exception:  # a body too large to read was refused before: it is not kept
        request_body = b""
    requestlog.of(current_app).record(
        merchant_id=merchant_id,
        method=request.method,
        path=request.path,
        status=status,
        duration_ms=round((time.perf_counter() - started) * 1000),
        request_body=request_body,
        response_body=response_body,
    )


PAYIN = PayinEnvelope()
PAYOUT = PayoutEnvelope()


def operation(
    bp: Blueprint,
    rule: str,
    model: type[BaseModel] | None,
    *,
    envelope: Envelope = PAYIN,
    summary: str,
    response: type[BaseModel] | None = None,
    methods: tuple[str, ...] = ("POST",),
    tag: str | None = None,
    choose: Callable[[dict], type[BaseModel]] | None = None,
    alternatives: tuple[type[BaseModel], ...] = (),
    body_optional: bool = False,
    read_only: bool = False,
    one_statement: bool = False,
    query: dict[str, dict] | None = None,
    finish: Callable[[Any], Any] | None = None,
) -> Callable[[View], View]:
    """Register an operation: auth, body, validation and envelope around `view(merchant, req)`.

    The view returns the response fields (payin) or `data` (payout); the transaction commits only when
    it succeeds. Where one path takes several request shapes, `choose` picks the model from the body. A
    `read_only` operation never writes (on SQLite it then takes no write lock); a `one_statement` one also
    reads with a single statement, which needs no transaction around it (see Database.read_only). `query`
    documents the optional query parameters the view reads (name -> JSON schema); `response` the success
    fields, for /openapi.json. `finish` completes a successful answer after the commit, with no transaction
    (on SQLite, no write lock) held: work derived from what was stored, such as drawing an image.
    """

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def endpoint(**kwargs: str) -> Any:
            if read_only:
                db.read_only(one_statement=one_statement)
            session = db.session
            try:
                body: dict | None = None
                if envelope.authenticates_first:
                    merchant = envelope.authenticate(None, session, attach=not read_only)
                else:
                    body = envelope.read_body()
                    merchant = envelope.authenticate(body, session, attach=not read_only)
                g.api_merchant_id = merchant.id  # from here on the request is logged (see `logged`)
                # The rest of the request runs on this merchant's clock (teardown puts the thread back).
                clock.set_merchant(merchant.id)
                if any("\x00" in value for value in kwargs.values()):
                    raise InvalidField("path", "must not contain NUL characters")
                if model is None:
                    fields = view(merchant, **kwargs)
                else:
                    if body is None:
                        empty = body_optional and not request.get_data(cache=True).strip()
                        body = {} if empty else envelope.read_body()
                    req = parse_model(choose(body) if choose else model, body)
                    if getattr(req, "app_id", merchant.app_id) != merchant.app_id:
                        raise Unauthorized("app_id does not match the credentials")
                    fields = view(merchant, req, **kwargs)
                if not read_only:  # a read-only one ends when the session closes, with nothing to commit
                    session.commit()
                if finish is not None:
                    fields = _finished(finish, fields)
            except DomainError as error:
                session.rollback()
                # One line per refused request, whatever it carried (the message is ours, and bounded).
                log.info("refused %s %s: %s", request.method, request.path, str(error)[:200])
                return envelope.failure(error)
            except Exception:
                session.rollback()
                raise
            return envelope.success(fields)

        # Documented on the view function itself: the app finds it under whatever endpoint name the route
        # gets once registered (a nested blueprint's endpoints carry their parents' names).
        served = logged(endpoint)
        openapi.describe(
            served,
            alternatives or model,
            summary=summary,
            tag=tag or envelope.tag,
            query=query,
            response=response,
        )
        bp.add_url_rule(rule, view.__name__, served, methods=list(methods))
        return endpoint

    return decorate
