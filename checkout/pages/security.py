"""Page security: CSP with a nonce and the merchant's frame origins, no-store, Origin and CSRF checks."""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from urllib.parse import urlsplit

from flask import current_app, g, request

from .. import origins


def nonce() -> str:
    if "csp_nonce" not in g:
        g.csp_nonce = secrets.token_urlsafe(16)
    return g.csp_nonce


# Longer than any URL a merchant can store (a return URL has 512 characters): a header sent longer is parsed
# each time, so that no client fills the cache's 4,096 entries with its own 64 KiB values.
_KEPT_UP_TO = 512


def origin_of(url: str) -> str | None:
    """The URL's origin in its one canonical form, or None when it has none a browser would send."""
    return _kept_origin(url) if len(url) <= _KEPT_UP_TO else _parsed_origin(url)


def _parsed_origin(url: str) -> str | None:
    try:
        return origins.origin(url)
    except origins.BadOrigin:
        return None


# Kept per process: every request of a page names the same return URL and frame origins (parsing them,
# their host through IDNA, was a twentieth of a payout page's request).
_kept_origin = functools.lru_cache(maxsize=4096)(_parsed_origin)


def trusted_origins() -> set[str]:
    """The origins our own pages are served from, which every page POST must come from. Never the Host
    header alone: CHECKOUT_PUBLIC_URL when set; else the address `checkout serve` was told to listen on,
    and, whatever the Host says, only when it names this machine's loopback (a developer's own sandbox).
    Behind a proxy or under a DNS name, CHECKOUT_PUBLIC_URL must say the public address."""
    public = current_app.config["PUBLIC_URL"]
    if public:
        return {origin for origin in [origin_of(public)] if origin}
    trusted = set(current_app.config.get("SERVED_ORIGINS") or ())
    here = origin_of(request.host_url)
    if here and origins.is_loopback(urlsplit(here).hostname or ""):
        trusted.add(here)
    return trusted


def apply_headers(response):
    """Every page: strict CSP, frames only from the merchant's registered origins, nothing cached."""
    if response.mimetype.startswith("image/"):
        return response  # logos: public and cacheable
    # Each origin was written back by origins.origin() (merchants, allow_form_target): nothing else
    # reaches this header.
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
    sent = origin_of(request.headers.get("Origin", ""))
    if sent is None or sent not in trusted_origins():
        return False
    sent_csrf = request.form.get("csrf", "").encode("utf-8", "replace")
    return hmac.compare_digest(sent_csrf, csrf_token(page_token).encode())


def framed() -> bool:
    """Chromium and Firefox say whether this navigation loads into a frame."""
    return request.headers.get("Sec-Fetch-Dest") == "iframe"
