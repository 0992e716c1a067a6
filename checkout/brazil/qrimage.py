"""A BR Code's QR symbol: its PNG image as the API hands it out (qr_code_img, behind qr_code_url), and its SVG."""

from __future__ import annotations

import base64
import io

import zxingcpp
from PIL import Image

# Four modules of quiet zone, as ISO/IEC 18004 asks, so that the image scans as it is, without a margin
# the merchant's page would have to add (zxing-cpp's quiet zone is those four modules).
SCALE = 4
# Error correction M, as the BR Code's issuers print it.
EC_LEVEL = "M"
# The page's inline SVG sits in a white box of its own, so it needs only half the quiet zone.
SVG_BORDER = 2


def modules(code: str, *, quiet_zone: bool = True) -> tuple[int, bytes]:
    """The symbol one pixel a module: its side, and its rows one after the other, 0 dark and 255 light.

    zxing-cpp encodes in C++: segno, in pure Python, took about 5 ms a symbol to encode and write as a
    PNG, half of a direct Pix payment's whole request (docs/benchmarks.md); this takes under 1 ms.
    """
    symbol = zxingcpp.create_barcode(code, zxingcpp.BarcodeFormat.QRCode, ec_level=EC_LEVEL)
    grid = memoryview(symbol.to_image(scale=1, add_quiet_zones=quiet_zone))  # type: ignore[arg-type]
    return len(grid), grid.tobytes()


def png(code: str) -> bytes:
    """A two-colour PNG, SCALE pixels a module, quiet zone included."""
    side, grid = modules(code)
    image = Image.frombytes("L", (side, side), grid).convert("1", dither=Image.Dither.NONE)
    image = image.resize((side * SCALE, side * SCALE), Image.Resampling.NEAREST)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def data_uri(code: str) -> str:
    """`data:image/png;base64,...`, the form of the provider's qr_code_img."""
    return "data:image/png;base64," + base64.b64encode(png(code)).decode("ascii")


def svg(code: str) -> str:
    """An inline SVG, sized by its box (a viewBox, no width or height): each run of dark modules in a row
    is one stroke of one path, a module wide."""
    size, flat = modules(code, quiet_zone=False)
    runs = []
    for y in range(size):
        row = flat[y * size : (y + 1) * size]
        x = 0
        while (start := row.find(0, x)) != -1:
            end = row.find(255, start)
            end = size if end == -1 else end
            runs.append(f"M{start + SVG_BORDER} {y + SVG_BORDER}.5h{end - start}")
            x = end
    side = size + 2 * SVG_BORDER
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" class="qr" '
        f'shape-rendering="crispEdges"><rect width="{side}" height="{side}" fill="#fff"/>'
        f'<path stroke="#000" d="{"".join(runs)}"/></svg>'
    )
