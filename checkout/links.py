"""Addresses handed out to merchants: the public base URL and signed hosted-page links."""
from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from flask import current_app, request

from . import signing


@dataclass(frozen=True)
class Links:
    base_url: str
    secret_key: str

    def page(self, path: str, purpose: str, payload: dict) -> str:
        """`{base}/pages/{path}?token=...`, the token signed for this page's purpose only."""
        token = signing.page_token(self.secret_key, purpose, payload)
        return f"{self.base_url}/pages/{path}?{urlencode({'token': token})}"


def current() -> Links:
    """Links for the running request: CHECKOUT_PUBLIC_URL, else the address the request came to."""
    base = current_app.config["PUBLIC_URL"] or request.host_url.rstrip("/")
    return Links(base_url=base, secret_key=current_app.config["SECRET_KEY"])
