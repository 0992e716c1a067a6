"""The BR Code's QR: one fixed data mask (no scoring of all eight), and the image still reads back exactly."""

from __future__ import annotations

import base64
import io
from decimal import Decimal

import zxingcpp
from PIL import Image

from checkout.brazil import brcode, qrimage
from tests import builders


def read(png: bytes) -> list[tuple[str, str]]:
    return [(r.text, r.format.name) for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


def test_every_symbol_uses_the_fixed_mask_and_reads_back():
    for amount in (None, Decimal("0.01"), Decimal("150.00"), Decimal("99999.99")):
        code = brcode.build(
            key="16727230000197", amount=amount, merchant_name="Loja Exemplo", merchant_city="SAO PAULO", txid="abc123"
        )
        assert qrimage.symbol(code).mask == qrimage.MASK
        assert read(qrimage.png(code)) == [(code, "QRCode")]


def test_the_api_image_of_a_direct_pix_payment_reads_back_as_its_code(api):
    answer = api.post("/trade/pay", builders.direct("PIX", "order-qr"), expect=200)
    prefix = "data:image/png;base64,"
    assert answer["qr_code_img"].startswith(prefix)
    assert read(base64.b64decode(answer["qr_code_img"].removeprefix(prefix))) == [(answer["qr_code"], "QRCode")]
