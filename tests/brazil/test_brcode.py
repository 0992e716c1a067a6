"""PIX BR Code: CRC16, building, parsing; the codes PIX trades hand out parse back and resist typos."""

from datetime import datetime
from decimal import Decimal
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkout import money
from checkout.brazil import brcode
from checkout.config import Defaults
from checkout.links import Links
from checkout.payins.methods import METHODS, Collector
from checkout.payins.models import Trade
from checkout.payouts import corridors
from tests.strategies import PROPERTY, cpfs, digits, single_digit_corruptions

# The example payload of the Banco Central do Brasil's BR Code manual (static, no amount).
BCB_EXAMPLE = (
    "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR"
    "5913Fulano de Tal6008BRASILIA62070503***63041D3D"
)


def test_crc16_ccitt_false_check_value():
    assert brcode.crc16(b"123456789") == 0x29B1


def test_parses_the_central_bank_example():
    fields = brcode.parse(BCB_EXAMPLE)
    assert fields["26"] == {"00": "br.gov.bcb.pix", "01": "123e4567-e12b-12d1-a456-426655440000"}
    assert fields["59"] == "Fulano de Tal" and fields["62"] == {"05": "***"}


def test_build_carries_amount_currency_country_and_txid():
    code = brcode.build(
        key="123e4567-e12b-12d1-a456-426655440000",
        amount=Decimal("1234.5"),
        merchant_name="Lojinha São João Ltda Comércio",
        merchant_city="São Paulo",
        txid="2026112100000000000001",
    )
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


# --- properties ----------------------------------------------------------------------------------------

COLLECTOR = Collector(
    name=Defaults.COLLECTOR_NAME,
    city=Defaults.COLLECTOR_CITY,
    cnpj=Defaults.COLLECTOR_CNPJ,
    pix_key=Defaults.COLLECTOR_PIX_KEY,
    boleto_due_days=Defaults.BOLETO_DUE_DAYS,
)
LINKS = Links(base_url="http://checkout.test", secret_key="test-secret-key")
# trade_no as payins.service makes it: the creation time to the second, then ten random digits.
trade_numbers = st.builds(
    lambda at, tail: f"{at:%Y%m%d%H%M%S}{tail}",
    st.datetimes(min_value=datetime(2025, 1, 1), max_value=datetime(2040, 12, 31)),
    digits(10),
)
# What a direct payment accepts: 0.01 to 99,999,999.99 BRL.
order_amounts = st.integers(min_value=1, max_value=99_999_999_99)


def pix_code(trade_no: str, amount_minor: int) -> str:
    """The qr_code the PIX method answers for a new trade (the same call payins.service makes)."""
    trade = Trade(trade_no=trade_no, amount_minor=amount_minor, currency="BRL", method="PIX")
    return METHODS["PIX"].present(trade, LINKS, COLLECTOR)["qr_code"]


@PROPERTY
@given(trade_numbers, order_amounts, cpfs())
def test_pix_trade_codes_parse_back_to_what_was_charged(trade_no, amount_minor, cpf):
    code = pix_code(trade_no, amount_minor)
    assert code.isascii() and code[-8:-4] == "6304"
    assert brcode.parse(code) == {
        "00": "01",
        "01": "12",
        "26": {"00": "br.gov.bcb.pix", "01": COLLECTOR.pix_key},
        "52": "0000",
        "53": "986",
        "54": money.format_minor(amount_minor, "BRL"),
        "58": "BR",
        "59": "Checkout Sandbox Pagament",
        "60": "Sao Paulo",
        "62": {"05": trade_no},
    }
    # The payout side takes the same code as a QRCODE beneficiary account, unchanged.
    payout_request = SimpleNamespace(
        country="BRA",
        method="QRCODE",
        channel=None,
        name="Ana Souza",
        phone=None,
        account=code,
        document_id=cpf,
        document_type="CPF",
    )
    assert corridors.beneficiary(payout_request).account == code


# Merchant names and cities as merchants type them: accents, other scripts, runs of spaces.
free_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
pix_keys = (
    st.uuids().map(str)
    | cpfs()
    | st.emails().filter(lambda e: len(e) <= 77)
    | st.builds(lambda n: f"+55{n}", digits(11))
)


@PROPERTY
@given(
    pix_keys,
    st.none() | order_amounts.map(lambda minor: money.from_minor(minor, "BRL")),
    free_text,
    free_text,
    st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=25),
)
def test_any_key_amount_name_and_city_round_trip(key, amount, name, city, txid):
    code = brcode.build(key=key, amount=amount, merchant_name=name, merchant_city=city, txid=txid)
    fields = brcode.parse(code)
    assert fields["26"] == {"00": "br.gov.bcb.pix", "01": key}
    assert fields.get("54") == (None if amount is None else str(amount))
    assert fields["62"] == {"05": txid}
    # Names and cities are plain ASCII, blanks collapsed, cut to the field's size.
    for tag, text, size in (("59", name, 25), ("60", city, 15)):
        assert fields[tag].isascii() and len(fields[tag]) <= size and "  " not in fields[tag]
        if text.isascii() and text.isprintable():
            assert fields[tag] == " ".join(text.split())[:size]


@settings(PROPERTY, max_examples=10)  # each example parses about a thousand corrupted codes
@given(trade_numbers, order_amounts)
def test_every_single_digit_corruption_breaks_the_crc(trade_no, amount_minor):
    code = pix_code(trade_no, amount_minor)
    for position, corrupted in single_digit_corruptions(code):
        # A changed digit in the "6304" marker is reported as a missing CRC field; anywhere else, a wrong CRC.
        message = "missing CRC field 63" if len(code) - 8 <= position < len(code) - 4 else "CRC mismatch"
        with pytest.raises(brcode.BRCodeError, match=message):
            brcode.parse(corrupted)
