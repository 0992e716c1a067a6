"""What the merchant tests share: images a logo upload must refuse."""

from __future__ import annotations

import io

from PIL import Image

SOS = b"\xff\xda"


def progressive_jpeg(width: int, height: int, scans: int | None = None, mode: str = "RGB", **save) -> bytes:
    """A flat picture saved as a progressive JPEG by Pillow; with `scans`, its last scan written again until
    the file has that many (what a hostile upload does: each one is another pass over every block)."""
    colour = {"RGB": (10, 80, 160), "L": 90, "CMYK": (10, 80, 160, 20)}[mode]
    out = io.BytesIO()
    Image.new(mode, (width, height), colour).save(out, format="JPEG", progressive=True, **save)
    data = out.getvalue()
    if scans is None:
        return data
    assert data.endswith(b"\xff\xd9")  # EOI
    last = data[data.rindex(SOS) : -2]
    return data[:-2] + last * (scans - data.count(SOS)) + data[-2:]
