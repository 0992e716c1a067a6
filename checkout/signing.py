"""Signatures: payout SHA-256 scheme, payin callback HMAC, hosted-page tokens, return-URL JWS."""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import uuid
from collections.abc import Callable
from datetime import datetime
from decimal import Decimal
from typing import Any

from itsdangerous import BadSignature, TimestampSigner, URLSafeTimedSerializer
from joserfc import jws
from joserfc.jwk import OctKey

from . import clock

RETURN_TOKEN_TTL = 10 * 60


# --- payout requests and notifications -------------------------------------------------------


def _json(value: Any) -> str:
    """Compact JSON with sorted keys, numbers as they were written (see jsonbody.JsonNumber)."""
    if isinstance(value, dict):
        return (
            "{" + ",".join(f"{json.dumps(str(k), ensure_ascii=False)}:{_json(value[k])}" for k in sorted(value)) + "}"
        )
    if isinstance(value, list):
        return "[" + ",".join(_json(item) for item in value) + "]"
    return _canonical_value(value) if not isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _canonical_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return value
    if isinstance(value, (dict, list)):
        return _json(value)
    if isinstance(value, Decimal):
        return getattr(value, "text", None) or str(value)
    return json.dumps(value)


def payout_canonical(body: dict) -> str:
    kept = {k: v for k, v in body.items() if v is not None and v != ""}
    return "&".join(f"{key}={_canonical_value(kept[key])}" for key in sorted(kept))


def payout_signature(body: dict, app_key: str) -> str:
    return hashlib.sha256((payout_canonical(body) + app_key).encode("utf-8")).hexdigest()


def verify_payout_signature(body: dict, app_key: str, signature: str) -> bool:
    sent = (signature or "").strip().lower().encode("utf-8", "replace")
    return hmac.compare_digest(payout_signature(body, app_key).encode(), sent)


# --- payin callbacks ---------------------------------------------------------------------------


def callback_signature(raw_body: bytes, security_key: str, timestamp: int) -> str:
    """The provider's `Pagsmile-Signature` header: `t=<unix>,v2=<hex>`, where v2 is the HMAC-SHA256 of the
    raw body exactly as sent, keyed with the merchant's security key (the timestamp is not signed)."""
    digest = hmac.new(security_key.encode(), raw_body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v2={digest}"


# --- hosted-page tokens ------------------------------------------------------------------------


class PageTokenError(ValueError):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason  # "expired" or "invalid"


class _BusinessTimeSigner(TimestampSigner):
    """Stamps tokens with business time, so that their age follows the sandbox clock both ways."""

    def get_timestamp(self) -> int:
        return int(clock.now().timestamp())


def _serializer(secret_key: str, purpose: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret_key, salt=f"checkout.page.{purpose}", signer=_BusinessTimeSigner)


def page_token(secret_key: str, purpose: str, payload: dict) -> str:
    """A signed token for a hosted page; `purpose` is the salt, so tokens never cross pages."""
    return _serializer(secret_key, purpose).dumps(payload)


@functools.lru_cache(maxsize=1024)
def _verified(secret_key: str, purpose: str, token: str) -> tuple[Any, datetime]:
    """A token's payload and signing time, its signature checked once per process: a page and its assets
    and polls present the same token many times (checking it was a seventh of a page's time). A bad
    signature raises, and is never kept; the age is the caller's to check, on each use."""
    return _serializer(secret_key, purpose).loads(token, max_age=None, return_timestamp=True)


def read_page_token(
    secret_key: str, purpose: str, token: str, max_age: int, merchant_of: Callable[[dict], Any] | None = None
) -> dict:
    """The token's payload; its age counted on the clock of the merchant `merchant_of` names in the
    payload (the one it was stamped on), else on the current clock."""
    try:
        payload, signed_at = _verified(secret_key, purpose, token)
    except BadSignature:
        raise PageTokenError("invalid") from None
    # A copy for the reader, so the kept one stays as signed (page payloads are flat: ids and codes).
    payload = dict(payload) if isinstance(payload, dict) else payload
    named = merchant_of(payload) if merchant_of is not None and isinstance(payload, dict) else None
    with clock.merchant(named if isinstance(named, int) else clock.current_merchant()):
        age = clock.now().timestamp() - signed_at.timestamp()
    if age > max_age:
        raise PageTokenError("expired")
    return payload


# --- return to the merchant ----------------------------------------------------------------------


def return_token(key: str, *, issuer: str, app_id: str, subject: str, status: str, reference: dict[str, str]) -> str:
    """Compact HS256 JWS handed to the merchant's return_url (and to its parent frame)."""
    issued = clock.unix(clock.now())
    claims = {
        "iss": issuer,
        "aud": app_id,
        "sub": subject,
        "status": status,
        "iat": issued,
        "exp": issued + RETURN_TOKEN_TTL,
        "jti": uuid.uuid4().hex,
        **reference,
    }
    payload = json.dumps(claims, separators=(",", ":"), sort_keys=True).encode()
    return jws.serialize_compact({"alg": "HS256", "typ": "JWT"}, payload, jws_key(key))


def jws_key(secret: str):
    return OctKey.import_key(secret.encode())
