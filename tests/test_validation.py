"""From validated request models to the plain inputs services take."""

from dataclasses import dataclass
from decimal import Decimal

import pytest

from checkout.payins.commands import DirectPayment, RefundOrder
from checkout.payins.schemas import DirectPayRequest, RefundRequest
from checkout.payouts.commands import NewPayout
from checkout.payouts.schemas import PayoutRequest
from checkout.validation import command
from tests import builders


def test_a_request_becomes_nested_dataclasses_with_the_same_values():
    body = builders.direct("PIX")
    req = DirectPayRequest.model_validate({"app_id": "app", "timestamp": "2026-01-02 03:04:05", **body})
    payment = command(req, DirectPayment)
    assert type(payment) is DirectPayment
    assert payment.order_amount == Decimal(body["order_amount"]) and type(payment.order_amount) is Decimal
    assert payment.customer.identify.number == body["customer"]["identify"]["number"]
    assert payment.address.zip_code == body["address"]["zip_code"]
    assert payment.token is None and payment.installments == 1


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
    order = command(req, RefundOrder)
    assert (order.user_info, order.bank_info, order.refund_amount) == (None, None, Decimal("1.00"))


def test_only_the_dataclass_fields_are_taken():
    req = PayoutRequest.model_validate(builders.payout("c1", email="", timestamp=1_700_000_000))
    payout = command(req, NewPayout)
    assert not hasattr(payout, "timestamp")
    assert (payout.custom_code, payout.amount, payout.email, payout.document_id) == (
        "c1",
        Decimal("100.00"),
        None,
        builders.CPF,
    )


def test_a_dataclass_field_the_model_lacks_is_an_error():
    @dataclass(frozen=True)
    class Wider:
        name: str
        nickname: str

    req = PayoutRequest.model_construct(name="Ana")
    with pytest.raises(AttributeError, match="nickname"):  # a missing field never passes silently
        command(req, Wider)
