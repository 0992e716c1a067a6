"""Sending the customer back to the merchant: return_url rules and the signed JWS it carries."""
from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ..merchants.models import Merchant


class ReturnUrlError(ValueError):
    pass


def check_return_url(url: str, merchant: Merchant, sandbox: bool) -> None:
    """Absolute http(s), no user information; outside the sandbox, a host the merchant registered."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ReturnUrlError("must be an absolute http(s) URL")
    if parts.username or parts.password:
        raise ReturnUrlError("must not carry user information")
    if not sandbox and parts.hostname.lower() not in merchant.return_hosts:
        raise ReturnUrlError("host is not one of the merchant's registered return hosts")


def with_token(url: str, token: str) -> str:
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "token"]
    return urlunsplit(parts._replace(query=urlencode([*query, ("token", token)])))
