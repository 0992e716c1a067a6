"""What a merchant may hand us: return URLs (absolute, and outside the sandbox on a registered host) and logos."""

from __future__ import annotations

import io
from typing import NewType
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
    """Refuse anything Pillow cannot read as a PNG image, or one of more than LOGO_MAX_PIXELS pixels (the
    pages decode it: a small file may claim a huge picture). Nothing is decoded here: verify() reads the
    chunks and their checksums only."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format != "PNG":
                raise InvalidField(field, "the logo must be a PNG image")
            if image.width * image.height > LOGO_MAX_PIXELS:
                raise InvalidField(field, f"the logo must have at most {LOGO_MAX_PIXELS} pixels")
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
# A progressive JPEG is decoded scan by scan, each one a pass over every block of its picture: 512 KiB
# hold some 13,000 tiny scans of a 4096 x 4096 picture, over three minutes of CPU. libjpeg writes 6 (grey),
# 10 (colour) or 18 (CMYK) scans; at 32, the worst upload decodes in about a second (docs/dashboard/settings.md).
JPEG_MAX_SCANS = 32

NormalisedLogo = NewType("NormalisedLogo", bytes)  # made by normalise_logo only: what set_logo keeps


class LogoRefused(InvalidField):
    """An uploaded logo that is not kept; `why` is one of: size, type, pixels, scans, unreadable."""

    def __init__(self, why: str, rule: str, field: str = "logo"):
        super().__init__(field, rule)
        self.why = why


def normalise_logo(data: bytes, field: str = "logo") -> NormalisedLogo:
    """A PNG or JPEG upload made into the PNG the pages are served from: turned upright (EXIF), scaled
    down to fit LOGO_STORED, without metadata (EXIF, text chunks, ICC profile). Checked before decoding:
    its byte size, its type, its pixel count (a small file may claim a huge picture) and a JPEG's scans,
    so that the decode costs at most about a second of CPU. It takes a while all the same and touches no
    database: call it before the transaction that keeps the result begins."""
    if len(data) > LOGO_MAX_BYTES:
        raise LogoRefused("size", f"must be at most {LOGO_MAX_BYTES // 1024} KiB", field)
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format not in LOGO_TYPES:
                raise LogoRefused("type", "must be a PNG or JPEG image", field)
            if image.width * image.height > LOGO_MAX_PIXELS:
                raise LogoRefused("pixels", f"must have at most {LOGO_MAX_PIXELS} pixels", field)
            if image.format == "JPEG" and jpeg_scans(data) > JPEG_MAX_SCANS:
                raise LogoRefused("scans", f"must be a JPEG of at most {JPEG_MAX_SCANS} scans", field)
            # A large JPEG is decoded at 1/2, 1/4 or 1/8 of its size where that still covers twice the
            # stored box either way up (EXIF may turn it): down to a quarter of the CPU, a 64th of the memory.
            image.draft(None, (2 * max(LOGO_STORED), 2 * max(LOGO_STORED)))
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
    return NormalisedLogo(stored)


# Markers that stand alone, without a length after them: TEM, RST0-7, SOI, EOI.
_STANDALONE_MARKERS = frozenset((0x01, *range(0xD0, 0xDA)))


def jpeg_scans(data: bytes) -> int:
    """At least as many as the scans (SOS segments) a decoder meets in a JPEG file, counted without decoding.

    The segments before the first scan are stepped over by their lengths, as the decoder reads them, so that
    what they carry (an EXIF thumbnail, an ICC profile) is not counted. From the first scan on, or from
    anything unexpected, every 0xFF 0xDA in the file counts: in a scan's coded data a 0xFF byte is always
    followed by 0x00 or a restart marker, so no scan the decoder would read can be missed."""
    at = 2  # past SOI
    while at + 1 < len(data) and data[at] == 0xFF:
        marker = data[at + 1]
        if marker == 0xDA:
            break
        if marker == 0xFF:  # a fill byte before a marker
            at += 1
        elif marker in _STANDALONE_MARKERS:
            at += 2
        else:
            length = int.from_bytes(data[at + 2 : at + 4], "big")
            if length < 2:  # a bogus length: the decoder and this walk could part ways here
                break
            at += 2 + length
    return data.count(b"\xff\xda", at)
