"""A BR Code's QR symbol, and its PNG image as the API hands it out (qr_code_img, behind qr_code_url)."""

from __future__ import annotations

import base64
import io

import segno

# Four modules of quiet zone, as ISO/IEC 18004 asks, so that the image scans as it is, without a margin
# the merchant's page would have to add.
SCALE, BORDER = 4, 4
# One data mask for every symbol. Left to choose, segno scores all eight masks in pure Python: about 10 ms,
# three quarters of a direct Pix payment's whole request. Every mask is valid (ISO/IEC 18004 only prefers
# the one whose pattern penalty is lowest) and every reader decodes every mask.
MASK = 0


def symbol(code: str) -> segno.QRCode:
    return segno.make(code, error="m", mask=MASK)


def png(code: str) -> bytes:
    buffer = io.BytesIO()
    symbol(code).save(buffer, kind="png", scale=SCALE, border=BORDER)
    return buffer.getvalue()


def data_uri(code: str) -> str:
    """`data:image/png;base64,...`, the form of the provider's qr_code_img."""
    return "data:image/png;base64," + base64.b64encode(png(code)).decode("ascii")
