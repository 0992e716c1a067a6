"""PNG images of a BR Code's QR, as the API hands them out (qr_code_img, the image behind qr_code_url)."""

from __future__ import annotations

import base64
import io

import segno

# Four modules of quiet zone, as ISO/IEC 18004 asks, so that the image scans as it is, without a margin
# the merchant's page would have to add.
SCALE, BORDER = 4, 4


def png(code: str) -> bytes:
    buffer = io.BytesIO()
    segno.make(code, error="m").save(buffer, kind="png", scale=SCALE, border=BORDER)
    return buffer.getvalue()


def data_uri(code: str) -> str:
    """`data:image/png;base64,...`, the form of the provider's qr_code_img."""
    return "data:image/png;base64," + base64.b64encode(png(code)).decode("ascii")
