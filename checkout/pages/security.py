"""Page security: CSP with a nonce and the merchant's frame origins, no-store, Origin and CSRF checks."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from urllib.parse import urlsplit

from flask import current_app, g, request

from ..links import current as current_links


def nonce() -> str:
    if "csp_nonce" not in g:
        g.csp_nonce = secrets.token_urlsafe(16)
    return g.csp_nonce


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def apply_headers(response):
    """Every page: strict CSP, frames only from the merchant's registered origins, nothing cached."""
    if response.mimetype.startswith("image/"):
        return response  # logos: public and cacheable
    frame_origins = g.get("frame_origins") or []
    form_targets = " ".join(["'self'", *g.get("form_origins", [])])
    response.headers["Content-Security-Policy"] = "; ".join(
        [
            "default-src 'none'",
            f"script-src 'nonce-{nonce()}'",
            "style-src 'self'",
            "img-src 'self' data:",
            "connect-src 'self'",
            f"form-action {form_targets}",
            "base-uri 'none'",
            f"frame-ancestors {' '.join(frame_origins) if frame_origins else chr(39) + 'none' + chr(39)}",
        ]
    )
    response.headers["Cache-Control"] = "no-store"
    # Page URLs carry tokens: no referrer leaves our origin (and "no-referrer" would make POSTs send Origin: null).
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def csrf_token(page_token: str) -> str:
    """The form field that proves a POST came from the page this token opened (no cookie involved)."""
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, b"page-csrf:" + page_token.encode(), hashlib.sha256).hexdigest()[:40]


def same_origin_post(page_token: str) -> bool:
    """A POST is ours when it comes from our own origin and carries the page's CSRF value."""
    expected_origin = origin_of(current_links().base_url)
    sent = request.headers.get("Origin", "")
    if not sent or origin_of(sent) != expected_origin:
        return False
    return hmac.compare_digest(request.form.get("csrf", ""), csrf_token(page_token))


def framed() -> bool:
    """Chromium and Firefox say whether this navigation loads into a frame."""
    return request.headers.get("Sec-Fetch-Dest") == "iframe"
