from decimal import Decimal

import pytest

from checkout.payins.methods import brcode

# The example payload of the Banco Central do Brasil's BR Code manual (static, no amount).
BCB_EXAMPLE = ("00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR"
               "5913Fulano de Tal6008BRASILIA62070503***63041D3D")


def test_crc16_ccitt_false_check_value():
    assert brcode.crc16(b"123456789") == 0x29B1


def test_parses_the_central_bank_example():
    fields = brcode.parse(BCB_EXAMPLE)
    assert fields["26"] == {"00": "br.gov.bcb.pix", "01": "123e4567-e12b-12d1-a456-426655440000"}
    assert fields["59"] == "Fulano de Tal" and fields["62"] == {"05": "***"}


def test_build_carries_amount_currency_country_and_txid():
    code = brcode.build(key="123e4567-e12b-12d1-a456-426655440000", amount=Decimal("1234.5"),
                        merchant_name="Lojinha São João Ltda Comércio", merchant_city="São Paulo",
                        txid="2026112100000000000001")
    fields = brcode.parse(code)
    assert fields["00"] == "01" and fields["01"] == "12"
    assert fields["26"]["00"] == "br.gov.bcb.pix"
    assert (fields["53"], fields["54"], fields["58"]) == ("986", "1234.50", "BR")
    assert fields["59"] == "Lojinha Sao Joao Ltda Com" and fields["60"] == "Sao Paulo"
    assert fields["62"] == {"05": "2026112100000000000001"}


def test_any_corruption_breaks_the_crc():
    code = brcode.build(key="k", amount=Decimal("1.00"), merchant_name="A", merchant_city="B", txid="T1")
    corrupted = code.replace("1.00", "9.00")
    with pytest.raises(brcode.BRCodeError, match="CRC"):
        brcode.parse(corrupted)
