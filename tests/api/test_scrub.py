"""The request log's text rules (scrub.py), as a body's text is kept: card numbers whatever their digits and
separators, runs longer than a card, the service's own numbers and payment codes, secret link parameters."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal

import pytest

from checkout.api import redaction
from checkout.brazil import boleto, brcode


def kept(value: str) -> str:
    """A text as the log keeps it, in a field of no rule of its own."""
    return json.loads(redaction.redacted_body(json.dumps({"remark": value})))["remark"]


@pytest.mark.parametrize(
    "sent",
    [
        "4111.1111.1111.1111",
        "4111_1111_1111_1111",
        "4111/1111/1111/1111",
        "4111 - 1111 - 1111 - 1111",
        "4111\u00a01111\u00a01111\u00a01111",  # no-break spaces
        "4111\u20131111\u20131111\u20131111",  # en dashes
        "\uff14" + "\uff11" * 15,  # full-width digits
        "\uff14\uff11\uff11\uff11" + "\uff0e\uff11\uff11\uff11\uff11" * 3,  # and full-width full stops
        "\u0664" + "\u0661" * 15,  # Arabic-Indic digits
        "4111 1111\uff3f1111.1111",
    ],
)
def test_a_card_number_is_masked_whatever_its_separators_and_digits(sent):
    assert kept(sent) == "411111******1111"
    assert kept(f"paid with {sent} by phone") == "paid with 411111******1111 by phone"


@pytest.mark.parametrize(
    "sent, logged",
    [
        # Longer than any card: a card glued to other digits cannot be told apart, so the run is masked whole.
        ("41111111111111111111", "411111**********1111"),
        ("4111111111111111 2026", "411111**********2026"),
        ("x12345678901234567890y", "x123456**********7890y"),
        ("\uff14" + "\uff11" * 19, "411111**********1111"),
        # A card beside other digits in groups of its own: the run holds it, and is masked whole.
        ("12 4111 1111 1111 1111", "124111********1111"),
        ("+55 11 98765-4321", "+55 11 98765-4321"),  # holds no Luhn-valid number
        # 12 to 14 digits keep their last four only (six and four would leave two to guess).
        ("500000000009", "********0009"),
        ("5000000000005", "*********0005"),
        ("3782-822463-10005", "378282*****0005"),  # 15: the first six too
        # The service's own numbers are kept: a trade_no, a payout's transaction_id, a Pix end-to-end id.
        ("202611252234001234567890", "202611252234001234567890"),
        ("TS20261125123456789012", "TS20261125123456789012"),
        ("E18236120202611252234ABCDEF12345", "E18236120202611252234ABCDEF12345"),
        ("411111111111111120261125", "411111**************1125"),  # not shaped as one: no date first
        # ...and the hex of an app_id and a prepay_id, whose digits may pass the Luhn check by chance.
        ("app_a919b187849955681999e6f1425c", "app_a919b187849955681999e6f1425c"),
        ("pp_a919b187849955681999e6f1", "pp_a919b187849955681999e6f1"),
        ("app_a919b187849955681999e6f1425", "app_a919b187849*****1999e6f1425"),  # one short: not one of ours
        ("app_4111111111111111", "app_411111******1111"),
        # Kept: a run failing the Luhn check, a date and time, an amount.
        ("12345678901234", "12345678901234"),
        ("2026-11-25 22:34:00", "2026-11-25 22:34:00"),
        ("1,234,567,890,123.45", "1,234,567,890,123.45"),
    ],
)
def test_long_runs_and_the_services_own_numbers(sent, logged):
    assert kept(sent) == logged


def test_a_payments_codes_are_kept_whole():
    """A BR Code whose CRC holds and a boleto whose check digits hold are what the customer pays with."""
    code = brcode.build(
        key="123e4567-e12b-12d1-a456-426655440000",
        amount=Decimal("100.50"),
        merchant_name="Loja",
        merchant_city="SAO PAULO",
        txid="202611252234001234567890",
    )
    barcode = boleto.barcode(bank="001", due=date(2026, 12, 1), amount_minor=10050, free_field="0" * 25)
    line = boleto.linha_digitavel(barcode)
    for sent in (code, barcode, line, boleto.formatted(line)):
        assert kept(sent) == sent
    broken = barcode[:4] + str((int(barcode[4]) + 1) % 10) + barcode[5:]  # a wrong check digit: a mere run
    assert kept(broken) == broken[:6] + "*" * 34 + broken[-4:]
    assert kept(code[:-1] + "0") != code[:-1] + "0"


@pytest.mark.parametrize(
    "sent, logged",
    [
        (
            "http://checkout.test/pages/payout?token=abc.def-ghi_jkl",
            "http://checkout.test/pages/payout?token=[redacted]",
        ),
        (
            "http://checkout.test/pages/checkout?token=eyJ0.XYZ&return_url=https://shop.example/back",
            "http://checkout.test/pages/checkout?token=[redacted]&return_url=https://shop.example/back",
        ),
        (
            "open http://checkout.test/pages/vault?token=XYZ now",
            "open http://checkout.test/pages/vault?token=[redacted] now",
        ),
        ("https://shop.example/back#token=XYZ", "https://shop.example/back#token=[redacted]"),
        ("access_token=XYZ&page=2", "access_token=[redacted]&page=2"),
        (
            "https://shop.example/back?apiKey=XYZ;signature=ABC",
            "https://shop.example/back?apiKey=[redacted];signature=[redacted]",
        ),
        (  # a link inside another, percent-encoded
            "https://shop.example/go?next=http%3A%2F%2Fcheckout.test%2Fpages%2Fpay%3Ftoken%3DXYZ%26lang%3Dpt",
            "https://shop.example/go?next=http%3A%2F%2Fcheckout.test%2Fpages%2Fpay%3Ftoken%3D[redacted]%26lang%3Dpt",
        ),
        # A security code is no secret's name, but never kept either.
        ("https://shop.example/cb?cvv=123&cardCvc=4567", "https://shop.example/cb?cvv=[redacted]&cardCvc=[redacted]"),
        # Kept: parameters that name no secret.
        ("https://shop.example/back?page=2&token_type=bearer", "https://shop.example/back?page=2&token_type=bearer"),
        ("a=b", "a=b"),
    ],
)
def test_a_secret_link_parameter_is_redacted_in_any_text(sent, logged):
    assert kept(sent) == logged
    assert json.loads(redaction.redacted_body(json.dumps({"checkout_url": sent, "data": {"pay_url": [sent]}}))) == {
        "checkout_url": logged,
        "data": {"pay_url": [logged]},
    }
