"""A BR Code's QR symbol: its PNG image as the API hands it out (qr_code_img, behind qr_code_url), and its SVG."""

from __future__ import annotations

import base64
import struct
import zlib

import zxingcpp

# Four modules of quiet zone, as ISO/IEC 18004 asks, so that the image scans as it is, without a margin
# the merchant's page would have to add (zxing-cpp's quiet zone is those four modules).
SCALE = 4
# Error correction M, as the BR Code's issuers print it.
EC_LEVEL = "M"
# The page's inline SVG sits in a white box of its own, so it needs only half the quiet zone.
SVG_BORDER = 2


def modules(code: str, *, quiet_zone: bool = True) -> tuple[int, bytes]:
    """The symbol one pixel a module: its side, and its rows one after the other, 0 dark and 255 light.

    zxing-cpp encodes in C++, not in Python: the symbol is drawn once per payment, after its commit, and
    must stay a small part of the request (docs/benchmarks.md has the figures).
    """
    symbol = zxingcpp.create_barcode(code, zxingcpp.BarcodeFormat.QRCode, ec_level=EC_LEVEL)
    grid = memoryview(symbol.to_image(scale=1, add_quiet_zones=quiet_zone))  # type: ignore[arg-type]
    return len(grid), grid.tobytes()


def png(code: str) -> bytes:
    """A two-colour PNG (1-bit greyscale), SCALE pixels a module, quiet zone included: PNG 1.2 (ISO 15948),
    each row behind filter type 0, all rows in one zlib stream.

    Written here rather than by Pillow, whose PNG writer's own machinery outweighed this whole file's work
    (docs/benchmarks.md). At 4 pixels a module, a module is one hex digit of its row's bits: light "f",
    dark "0"."""
    side, grid = modules(code)
    digits = grid.translate(_HEX_DIGIT)
    pad = b"0" * (side % 2)  # a row ends on a whole byte
    rows: list[bytes] = []
    for start in range(0, side * side, side):
        row = b"\0" + bytes.fromhex((digits[start : start + side] + pad).decode("ascii"))
        rows.extend((row,) * SCALE)
    width = side * SCALE
    header = struct.pack(">IIBBBBB", width, width, 1, 0, 0, 0, 0)  # bit depth 1, greyscale, no interlace
    return b"".join(
        [_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"IDAT", zlib.compress(b"".join(rows))), _chunk(b"IEND", b"")]
    )


assert SCALE == 4, "png() writes a module as one hex digit"
_HEX_DIGIT = bytes.maketrans(b"\x00\xff", b"0f")
_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


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
