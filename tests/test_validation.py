"""Commands carry the rules: a request model is its command plus the envelope, and what a route hands a
service."""

from decimal import Decimal

import pytest
from pydantic import ValidationError

from checkout.payins.requests import DirectPayRequest, RefundRequest
from checkout.payins.schemas import Capture, DirectPayment, RefundOrder
from checkout.payouts.schemas import NewPayout, PayoutRequest
from tests import builders


def test_a_request_is_its_command_with_the_same_values():
    body = builders.direct("PIX")
    req = DirectPayRequest.model_validate({"app_id": "app", "timestamp": "2026-01-02 03:04:05", **body})
    assert isinstance(req, DirectPayment)
    assert req.order_amount == Decimal(body["order_amount"]) and type(req.order_amount) is Decimal
    assert req.customer.identify.number == body["customer"]["identify"]["number"]
    assert req.address.zip_code == body["address"]["zip_code"]
    assert req.token is None and req.installments == 1


def test_the_envelope_comes_first_then_the_command_in_the_interface_order():
    fields = list(DirectPayRequest.model_fields)
    assert fields[:2] == ["app_id", "timestamp"] and fields[2:] == list(DirectPayment.model_fields)


def test_absent_nested_blocks_stay_none():
    req = RefundRequest.model_validate(
        {
            "app_id": "app",
            "timestamp": "2026-01-02 03:04:05",
            "trade_no": "T1",
            "refund_currency": "BRL",
            "refund_amount": "1.00",
        }
    )
    assert (req.user_info, req.bank_info, req.refund_amount) == (None, None, Decimal("1.00"))


def test_a_command_built_directly_meets_the_same_rules_and_cannot_change():
    order = RefundOrder(trade_no="T1", refund_currency="BRL", refund_amount=Decimal("1.00"))
    assert order.refund_amount == Decimal("1.00") and order.user_info is None
    with pytest.raises(ValidationError):
        Capture(out_trade_no="T1", amount=Decimal("0"), currency="BRL")
    with pytest.raises(ValidationError):
        order.refund_amount = Decimal("2.00")  # type: ignore[misc]


def test_a_payout_request_is_its_command_and_its_timestamp():
    req = PayoutRequest.model_validate(builders.payout("c1", email="", timestamp=1_700_000_000))
    assert isinstance(req, NewPayout) and list(NewPayout.model_fields) == list(PayoutRequest.model_fields)[:-1]
    assert (req.custom_code, req.amount, req.email, req.document_id) == ("c1", Decimal("100.00"), None, builders.CPF)


@pytest.mark.parametrize(
    ("timestamp", "valid"),
    [
        ("2026-11-29 12:00:00", True),
        ("2024-02-29 23:59:59", True),  # a leap day
        ("2026-02-29 00:00:00", False),  # none this year
        ("2026-04-31 00:00:00", False),
        ("2026-13-01 00:00:00", False),
        ("2026-00-10 00:00:00", False),
        ("2026-11-00 00:00:00", False),
        ("0000-01-01 00:00:00", False),  # no year 0
        ("2026-11-29 24:00:00", False),
        ("2026-11-29 23:60:00", False),
        ("2026-11-29 23:59:60", False),  # a leap second: strptime's %S reads it, a datetime refuses it
        ("2026-11-29T12:00:00", False),  # ISO 8601's own separator: not the provider's format
        ("2026-11-29 12:00:00Z", False),
    ],
)
def test_a_timestamp_is_a_real_moment_in_the_providers_format(timestamp, valid):
    from datetime import datetime

    from checkout.validation import _timestamp

    def by_strptime(text: str) -> bool:  # the format as the provider states it
        try:
            datetime.strptime(text, "%Y-%m-%d %H:%M:%S")  # noqa: DTZ007 (a format check)
        except ValueError:
            return False
        return len(text) == 19

    assert by_strptime(timestamp) is valid
    if valid:
        assert _timestamp(timestamp) == timestamp
    else:
        with pytest.raises(ValueError, match="must be yyyy-MM-dd HH:mm:ss"):
            _timestamp(timestamp)
