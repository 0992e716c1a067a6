"""Requests as a merchant sends them: payin bodies with Basic auth, payout bodies signed for each second."""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Callable
from datetime import datetime

from checkout.signing import payout_signature

from .load import Plan, Request


def _json(body: dict) -> str:
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False)


def payin(credentials: dict, path: str, fields: dict) -> Request:
    raw = f"{credentials['app_id']}:{credentials['security_key']}".encode()
    body = {"app_id": credentials["app_id"], "timestamp": datetime.now().strftime("%Y-%m-%d %H:%M:%S"), **fields}
    return Request(
        "POST",
        path,
        {"Authorization": "Basic " + base64.b64encode(raw).decode(), "Content-Type": "application/json"},
        _json(body),
    )


def payout(credentials: dict, path: str, fields: dict, timestamp: int | None = None) -> Request:
    """Signed over the exact body sent; `timestamp` (unix) must be near the wall clock when it arrives."""
    body = {**fields, "timestamp": int(time.time()) if timestamp is None else timestamp}
    return Request(
        "POST",
        "/api" + path,
        {
            "AppId": credentials["app_id"],
            "Authorization": payout_signature(body, credentials["app_key"]),
            "Content-Type": "application/json",
        },
        _json(body),
    )


def payout_plan(credentials: dict, path: str, fields: Callable[[int], dict], seconds: float, variants: int = 1) -> Plan:
    """Bodies signed for every second from now to `seconds` ahead (and a little either side), `variants` a
    second; fields(n) gives the n-th body's own fields (n counts across seconds, to rotate through ids)."""
    now = int(time.time())
    per_second, n = {}, 0
    for second in range(now - 2, now + int(seconds) + 3):
        per_second[second] = []
        for _ in range(variants):
            per_second[second].append(payout(credentials, path, fields(n), second))
            n += 1
    return Plan(per_second=per_second)


def get(url_path: str) -> Request:
    """A hosted page as a desktop browser asks for it (uncompressed, so bytes are what the page weighs)."""
    return Request(
        "GET",
        url_path,
        {"Accept": "text/html", "Accept-Encoding": "identity", "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) bench"},
    )
