"""The two APIs' envelopes: how each authenticates a merchant, reads a body and answers.

A payin and a payout operation differ only in their `Envelope`. Each credential failure answers its own
message saying what to send instead (never how close a key came); a failure whose credentials name a known
merchant marks the request for that merchant's request log (`g.api_merchant_id`, see operation.logged).
"""

from __future__ import annotations

import base64
import binascii
import hmac
from typing import Any

from flask import Response, g, jsonify, request
from sqlalchemy.orm import Session

from .. import clock, jsonbody, signing
from ..errors import DomainError, Expired, InvalidField, Malformed, MissingField, Unauthorized
from ..merchants.models import Merchant
from ..merchants.service import for_request
from . import registry


def check_fresh(timestamp: int, window: int, *, expired: bool = False) -> None:
    """Request freshness follows the wall clock (the merchant's own), never a sandbox clock. `expired`
    answers the detail operation's own code (4001009) rather than an invalid timestamp."""
    now = clock.unix(clock.real_now())
    if abs(now - timestamp) > window:
        # Otherwise 4001000 with `data.err` "request has expired", word for word the balance page's answer.
        hint = (
            f"timestamp {timestamp} is {abs(now - timestamp)} s from the server's time {now} and at most {window} s"
            " are allowed: send the current unix time in seconds (check your clock)"
        )
        raise Expired("request has expired", reason=None if expired else "invalid-parameter", hint=hint)


class Envelope:
    """How one API authenticates, reads bodies and answers."""

    name: str
    tag: str
    authenticates_first: bool

    def read_body(self) -> dict:
        raise NotImplementedError

    def authenticate(self, body: dict | None, session: Session, *, attach: bool) -> Merchant:
        raise NotImplementedError

    def claimed(self, session: Session, *, attach: bool = False) -> Merchant | None:
        """The merchant the request's credentials name, unverified (for the request log only)."""
        return None

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
        """The merchant named by `Authorization: Basic base64(app_id:security_key)`. Each failure says what to
        send instead; none says how close a key came, and none repeats what was sent (it may be a key)."""
        header = request.headers.get("Authorization", "").strip()
        if not header:
            raise Unauthorized(
                "missing Authorization header: send HTTP Basic auth with your app_id and security_key",
                reason="missing-signature-config",
            )
        scheme, _, encoded = header.partition(" ")
        not_basic = Unauthorized(
            "Authorization header is not HTTP Basic: send 'Basic ' and the base64 of app_id:security_key",
            reason="missing-signature-config",
        )
        if scheme.lower() != "basic" or not encoded.strip():
            raise not_basic
        try:
            app_id, sep, key = base64.b64decode(encoded.strip(), validate=True).decode().partition(":")
        except (binascii.Error, ValueError):  # ValueError: non-ASCII header text; covers UnicodeDecodeError
            raise not_basic from None
        if not sep:
            raise not_basic
        usable = app_id and len(app_id) <= 32 and "\x00" not in app_id
        merchant = for_request(session, app_id, attach=attach) if usable else None
        # Compare even when the merchant is unknown: the time taken says nothing about the key.
        expected = merchant.security_key if merchant else "\0" * 32
        matches = hmac.compare_digest(expected.encode(), key.encode())
        if merchant is None:
            raise Unauthorized(
                "invalid signature: unknown app_id; send the app_id shown in the dashboard under Developers"
                " (sandbox and production credentials differ)"
            )
        g.api_merchant_id = merchant.id  # a known app_id's refusal is logged under its merchant
        if not matches:
            raise Unauthorized(
                "invalid signature: wrong security_key for this app_id; send the security_key shown with it in the"
                " dashboard under Developers (a rotated key replaces the old one)"
            )
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
        """The merchant whose app key signs this body (AppId header, or MerchantId as the samples send). Each
        failure says what to send instead, never how close the signature came."""
        app_id = self._app_id()
        if not app_id:
            raise Unauthorized("missing AppId header: send your app_id in the AppId header", reason="missing-app-id")
        merchant = self.claimed(session, attach=attach)
        signature = request.headers.get("Authorization", "").strip()
        if not signature:
            raise Unauthorized(
                "missing Authorization header: send the SHA-256 signature of the body made with your app_key",
                reason="missing-authorization",
            )
        key = merchant.app_key if merchant else "unknown-app"
        valid = signing.verify_payout_signature(body or {}, key, signature)
        if merchant is None:
            raise Unauthorized(
                "unknown AppId: send the app_id shown in the dashboard under Developers"
                " (sandbox and production credentials differ)"
            )
        if not valid:
            raise Unauthorized(
                "invalid signature: drop the body's null and empty top-level fields, sort the rest by name, join"
                " each name and value with = and the pairs with &, append your app_key, and send the SHA-256"
                " lowercase hex in Authorization"
            )
        return merchant

    @staticmethod
    def _app_id() -> str:
        return (request.headers.get("AppId") or request.headers.get("MerchantId") or "").strip()

    def claimed(self, session: Session, *, attach: bool = False) -> Merchant | None:
        """The merchant the AppId header names, before its signature is checked: a known AppId's refusal is
        logged under its merchant (a bad signature or body included)."""
        app_id = self._app_id()
        usable = app_id and len(app_id) <= 32 and "\x00" not in app_id
        merchant = for_request(session, app_id, attach=attach) if usable else None
        if merchant is not None:
            g.api_merchant_id = merchant.id
        return merchant

    @staticmethod
    def envelope(code: int, msg: str, data: Any, status: int = 200, hint: str | None = None) -> tuple[Response, int]:
        answer = {"code": code, "msg": msg, "time": clock.unix(clock.real_now()), "data": data}
        if hint:
            answer["hint"] = hint
        return jsonify(answer), status

    def success(self, fields: Any) -> Response:
        return self.envelope(200, "success", fields)[0]

    def failure(self, error: DomainError) -> tuple[Response, int]:
        code, msg, data, status = registry.payout_answer(error)
        return self.envelope(code, msg, data, status, registry.payout_hint(error))


PAYIN = PayinEnvelope()
PAYOUT = PayoutEnvelope()
