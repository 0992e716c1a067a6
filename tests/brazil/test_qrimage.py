"""The BR Code's QR, encoded in C++: the PNG and the page's SVG read back exactly as their code."""

from __future__ import annotations

import base64
import io
import re
from decimal import Decimal

import zxingcpp
from PIL import Image

from checkout.brazil import brcode, qrimage
from tests import builders


def read(png: bytes) -> list[tuple[str, str]]:
    return [(r.text, r.format.name) for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


def codes() -> list[str]:
    return [
        brcode.build(
            key="16727230000197", amount=amount, merchant_name="Loja Exemplo", merchant_city="SAO PAULO", txid="abc123"
        )
        for amount in (None, Decimal("0.01"), Decimal("150.00"), Decimal("99999.99"))
    ]


def test_every_png_reads_back_with_its_quiet_zone_and_scale():
    for code in codes():
        png = qrimage.png(code)
        image = Image.open(io.BytesIO(png))
        modules, _ = qrimage.modules(code, quiet_zone=False)
        assert image.mode == "1" and image.size == ((modules + 8) * qrimage.SCALE,) * 2
        # Four light modules all round: the first and last 16 pixel rows and columns are white.
        pixels = image.load()
        edge = 4 * qrimage.SCALE
        assert all(pixels[x, y] for x in range(image.size[0]) for y in (*range(edge), *range(-edge, 0)))
        assert all(pixels[x, y] for y in range(image.size[1]) for x in (*range(edge), *range(-edge, 0)))
        assert read(png) == [(code, "QRCode")]


def test_every_png_pixel_is_its_module_four_times_over():
    # A symbol's side is odd (4 x version + 17 modules, and 8 of quiet zone): each row's last byte is half
    # padding. Several versions, up to a long code's larger symbol.
    for code in [*codes(), "short", "x" * 300]:
        side, grid = qrimage.modules(code)
        png = qrimage.png(code)
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and png.endswith(b"IEND\xaeB`\x82")
        image = Image.open(io.BytesIO(png))
        image.load()  # Pillow checks every chunk's CRC as it reads
        assert image.mode == "1" and image.size == (side * 4, side * 4)
        pixels = image.load()
        for y in range(side * 4):
            for x in range(side * 4):
                assert bool(pixels[x, y]) == (grid[(y // 4) * side + x // 4] == 255), (code, x, y)


def _draw(svg: str) -> bytes:
    """The SVG's strokes painted on a white canvas, 4 pixels a unit (a rasteriser of this one shape: each
    stroke one unit wide, centred on its row)."""
    side = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))
    image = Image.new("1", (side * 4, side * 4), 1)
    pixels = image.load()
    assert 'stroke="#000"' in svg
    for x, y, width in re.findall(r"M(\d+) (\d+)\.5h(\d+)", svg):
        for px in range(int(x) * 4, (int(x) + int(width)) * 4):
            for py in range(int(y) * 4, (int(y) + 1) * 4):
                pixels[px, py] = 0
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def test_the_page_svg_draws_the_same_symbol():
    for code in codes():
        svg = qrimage.svg(code)
        assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ') and 'class="qr"' in svg
        assert "width=" not in svg.split(">")[0]  # sized by its box
        assert read(_draw(svg)) == [(code, "QRCode")]


def test_the_api_image_of_a_direct_pix_payment_reads_back_as_its_code(api):
    answer = api.post("/trade/pay", builders.direct("PIX", "order-qr"), expect=200)
    prefix = "data:image/png;base64,"
    assert answer["qr_code_img"].startswith(prefix)
    assert read(base64.b64decode(answer["qr_code_img"].removeprefix(prefix))) == [(answer["qr_code"], "QRCode")]


def test_a_payment_whose_image_fails_after_its_commit_still_answers_it(api, monkeypatch, caplog):
    """The image is drawn after the trade is stored: failing then, the answer goes without it (a retry
    would meet a duplicate out_trade_no), with its QR code and link, and the failure is logged."""

    def broken(code):
        raise RuntimeError("no image today")

    monkeypatch.setattr(qrimage, "data_uri", broken)
    answer = api.post("/trade/pay", builders.direct("PIX", "order-no-image"), expect=200)
    assert answer["code"] == "10000" and answer["trade_status"] == "PROCESSING"
    assert answer["qr_code"].startswith("000201") and answer["qr_code_url"] and "qr_code_img" not in answer
    assert api.post("/trade/query", {"out_trade_no": "order-no-image"}, expect=200)["trade_no"] == answer["trade_no"]
    assert "could not complete the answer to POST /trade/pay after its commit" in caplog.text
