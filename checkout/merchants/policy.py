"""What a merchant may hand us: return URLs (absolute, and outside the sandbox on a registered host) and logos."""

from __future__ import annotations

import io
from urllib.parse import urlsplit

from PIL import Image, ImageOps

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


# An uploaded logo (the dashboard): PNG or JPEG, at most this many bytes and pixels before it is decoded,
# stored as a PNG scaled to fit twice the web box (128x64), which also covers the H5 box (42x42) twice over.
LOGO_MAX_BYTES = 512 * 1024
LOGO_MAX_PIXELS = 4096 * 4096
LOGO_STORED = (256, 128)
LOGO_TYPES = ("PNG", "JPEG")


class LogoRefused(InvalidField):
    """An uploaded logo that is not kept; `why` is one of: size, type, pixels, unreadable."""

    def __init__(self, why: str, rule: str, field: str = "logo"):
        super().__init__(field, rule)
        self.why = why


def normalise_logo(data: bytes, field: str = "logo") -> bytes:
    """A PNG or JPEG upload made into the PNG the pages are served from: turned upright (EXIF), scaled
    down to fit LOGO_STORED, without metadata (EXIF, text chunks, ICC profile). Checked before decoding:
    its byte size, its type, and its pixel count (a small file may claim a huge picture)."""
    if len(data) > LOGO_MAX_BYTES:
        raise LogoRefused("size", f"must be at most {LOGO_MAX_BYTES // 1024} KiB", field)
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format not in LOGO_TYPES:
                raise LogoRefused("type", "must be a PNG or JPEG image", field)
            if image.width * image.height > LOGO_MAX_PIXELS:
                raise LogoRefused("pixels", f"must have at most {LOGO_MAX_PIXELS} pixels", field)
            upright = ImageOps.exif_transpose(image).convert("RGBA")
    except LogoRefused:
        raise
    except Image.DecompressionBombError:  # Pillow's own limit, far above ours, met on opening
        raise LogoRefused("pixels", f"must have at most {LOGO_MAX_PIXELS} pixels", field) from None
    except Exception:  # not an image, truncated, corrupt
        raise LogoRefused("unreadable", "must be a readable PNG or JPEG image", field) from None
    upright.thumbnail(LOGO_STORED, Image.Resampling.LANCZOS)
    clean = Image.new("RGBA", upright.size)  # pixels only: nothing of the file's metadata comes along
    clean.paste(upright)
    out = io.BytesIO()
    clean.save(out, format="PNG", optimize=True)
    stored = out.getvalue()
    check_logo(stored, field)  # the rule the command line and the pages rely on
    return stored
