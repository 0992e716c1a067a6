"""What a merchant may hand us: return URLs (absolute, and outside the sandbox on a registered host) and logos."""

from __future__ import annotations

import io
from urllib.parse import urlsplit

from PIL import Image

from .. import origins
from ..errors import InvalidField
from .models import Merchant

MAX_URL = 512  # the column that keeps it


def check_return_url(url: str, merchant: Merchant, sandbox: bool, field: str = "return_url") -> None:
    """Absolute http(s), no user information; outside the sandbox, a host the merchant registered."""
    if len(url) > MAX_URL or "\x00" in url:  # a page's form carries it too, past the JSON schema's checks
        raise InvalidField(field, f"must be an absolute http(s) URL of at most {MAX_URL} characters")
    try:
        parts = urlsplit(url)
    except ValueError:  # an unbalanced IPv6 bracket
        raise InvalidField(field, "must be an absolute http(s) URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidField(field, "must be an absolute http(s) URL")
    if parts.username or parts.password:
        raise InvalidField(field, "must not carry user information")
    try:
        # Its origin goes into the page's CSP form-action: the host and port must be what they seem.
        host = urlsplit(origins.origin(url)).hostname or ""
    except origins.BadOrigin:
        raise InvalidField(field, "must have a valid host name and port") from None
    if not sandbox and host not in merchant.return_hosts:
        raise InvalidField(field, "host is not one of the merchant's registered return hosts")


def check_logo(data: bytes, field: str = "logo") -> None:
    """Refuse anything Pillow cannot read as a PNG image."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format != "PNG":
                raise InvalidField(field, "the logo must be a PNG image")
            image.verify()
    except InvalidField:
        raise
    except Exception:
        raise InvalidField(field, "the logo must be a PNG image") from None
