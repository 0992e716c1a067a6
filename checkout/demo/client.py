"""The demo shop's side of the integration, written as a merchant would: HTTP, Basic auth, signatures.

Nothing here imports the service: a merchant's code only has the documented API and algorithms.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from datetime import datetime

import requests
from joserfc import jws
from joserfc.errors import JoseError
from joserfc.jwk import OctKey


class ApiError(RuntimeError):
    pass


def payout_signature(body: dict, app_key: str) -> str:
    """SHA-256 of the sorted non-empty parameters, `key=value` joined by `&`, then the app key."""

    def text(value):
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (dict, list)):
            return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return value if isinstance(value, str) else json.dumps(value)

    pairs = sorted((key, value) for key, value in body.items() if value is not None and value != "")
    return hashlib.sha256(("&".join(f"{k}={text(v)}" for k, v in pairs) + app_key).encode()).hexdigest()


def callback_is_genuine(header: str, raw: bytes, security_key: str) -> bool:
    """Pagsmile-Signature: t=<unix>,v2=<hex HMAC-SHA256 of the raw body>, checked as the provider's
    security page says: split on commas, then on the first "=", and compare v2 with the HMAC."""
    parts = dict(part.strip().split("=", 1) for part in header.split(",") if "=" in part)
    expected = hmac.new(security_key.encode(), raw, hashlib.sha256)
    return hmac.compare_digest(expected.hexdigest(), parts.get("v2", ""))


def read_return_token(token: str, key: str, app_id: str) -> dict | None:
    """The claims of a return token when its HS256 signature, audience and expiry hold; None otherwise."""
    try:
        claims = json.loads(jws.deserialize_compact(token, OctKey.import_key(key.encode())).payload)
    except (JoseError, ValueError):
        return None
    if claims.get("aud") != app_id or claims.get("exp", 0) < datetime.now().timestamp() - 60:
        return None
    return claims


class Shop:
    def __init__(self, service_url: str, credentials: dict):
        self.base, self.credentials = service_url.rstrip("/"), credentials
        basic = f"{credentials['app_id']}:{credentials['security_key']}".encode()
        self.basic = {"Authorization": "Basic " + base64.b64encode(basic).decode()}

    def payin(self, path: str, body: dict | None = None) -> dict:
        payload = (
            None
            if body is None
            else {
                "app_id": self.credentials["app_id"],
                "timestamp": datetime.now().strftime("%Y-%m-%d %H:%M:%S"),
                **body,
            }
        )
        answer = requests.post(self.base + path, json=payload, headers=self.basic, timeout=15).json()
        if answer.get("code") != "10000":
            raise ApiError(f"{answer.get('sub_code')}: {answer.get('sub_msg')}")
        return answer

    def payout(self, path: str, body: dict) -> dict:
        headers = {
            "AppId": self.credentials["app_id"],
            "Authorization": payout_signature(body, self.credentials["app_key"]),
        }
        answer = requests.post(f"{self.base}/api{path}", json=body, headers=headers, timeout=15).json()
        if answer.get("code") != 200:
            raise ApiError(f"{answer.get('code')} {answer.get('msg')}: {answer.get('data')}")
        return answer["data"]
