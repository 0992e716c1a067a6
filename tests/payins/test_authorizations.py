"""Capture and void of a card pre-authorization, by the merchant and by the worker."""

import pytest

from checkout import clock, worker
from tests import builders


@pytest.fixture
def authorized(api):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    body = api.post("/trade/pre-authorization", builders.pre_authorization(token, order_amount="150.00"), expect=200)
    return body["trade_no"]


def _capture(amount: str = "150.00", currency: str = "BRL", out_trade_no: str = "pre-1") -> dict:
    return {  # app_id and timestamp: filled in by the Api helper
        "version": "2.0",
        "amount": amount,
        "currency": currency,
        "out_trade_no": out_trade_no,
    }


def _void(out_trade_no: str = "pre-1") -> dict:
    return {"version": "2.0", "out_trade_no": out_trade_no}


def test_full_capture_makes_the_trade_successful_with_its_callback(api, authorized, outbox):
    body = api.post("/trade/capture", _capture(), expect=200)
    assert body == {
        "code": "10000",
        "msg": "Success",
        "trade_no": authorized,
        "out_trade_no": "pre-1",
        "trade_status": "SUCCESS",
        "amount": "150.00",
        "currency": "BRL",
    }
    statuses = [(p["trade_status"], p["amount"]) for _, _, p in outbox(authorized)]
    assert statuses == [("AUTHORIZED", "150.00"), ("SUCCESS", "150.00")]
    query = api.post("/trade/query", {"trade_no": authorized}, expect=200)
    assert (query["trade_status"], query["order_amount"], query["refundable_amount"]) == ("SUCCESS", "150.00", "150.00")


def test_partial_capture_takes_that_amount_and_a_repeat_answers_it_again(api, authorized, outbox):
    # The provider's example sends the currency in lower case and the amount as a string.
    body = api.post("/trade/capture", _capture("90", "brl"), expect=200)
    assert (body["trade_status"], body["amount"], body["currency"]) == ("SUCCESS", "90.00", "BRL")
    again = api.post("/trade/capture", _capture("90.00"), expect=200)
    assert (again["trade_status"], again["amount"]) == ("SUCCESS", "90.00")
    assert [p["trade_status"] for _, _, p in outbox(authorized)] == ["AUTHORIZED", "SUCCESS"]
    query = api.post("/trade/query", {"trade_no": authorized}, expect=200)
    assert (query["order_amount"], query["authorized_amount"], query["refundable_amount"]) == (
        "90.00",
        "150.00",
        "90.00",
    )
    assert query["status_history"][-1]["reason"] == "captured 90.00 of 150.00"
    other = api.post("/trade/capture", _capture("80.00"), expect=400)
    assert (other["sub_code"], other["sub_msg"]) == (
        "trade-status-invalid",
        "trade is SUCCESS; only an AUTHORIZED trade can be captured",
    )
    refund = api.post("/trade/refund", builders.refund(authorized, "90.01", out_request_no="r1"), expect=400)
    assert refund["sub_code"] == "refund-amount-exceeded"


@pytest.mark.parametrize(
    "body, sub_code, sub_msg",
    [
        (_capture("150.01"), "capture-amount-exceeded", "amount exceeds the authorized amount, 150.00 BRL"),
        (_capture(currency="USD"), "invalid-parameter", "currency: must be the trade's currency, BRL"),
        (_capture("1.001"), "invalid-parameter", "amount: at most 2 decimal places for BRL"),
        (_capture(out_trade_no="nope"), "trade-not-exist", "trade does not exist"),
    ],
)
def test_a_capture_the_authorization_does_not_allow_is_refused_and_writes_nothing(
    api, authorized, row_counts, body, sub_code, sub_msg
):
    before = row_counts()
    answer = api.post("/trade/capture", body, expect=400)
    assert (answer["code"], answer["sub_code"], answer["sub_msg"]) == ("40002", sub_code, sub_msg)
    assert row_counts() == before


def test_capture_needs_its_documented_fields(api, authorized):
    body = _capture()
    del body["amount"]
    answer = api.post("/trade/capture", body, expect=400)
    assert (answer["code"], answer["sub_msg"]) == ("40001", "missing required argument: amount")


def test_void_cancels_the_authorization_once(api, authorized, outbox):
    body = api.post("/trade/void", _void(), expect=200)
    assert (body["code"], body["msg"], body["trade_status"], body["amount"]) == ("10000", "Success", "CANCEL", "150.00")
    assert api.post("/trade/void", _void(), expect=200)["trade_status"] == "CANCEL"
    payloads = [p for _, _, p in outbox(authorized)]
    assert [(p["trade_status"], p.get("reason")) for p in payloads] == [
        ("AUTHORIZED", None),
        ("CANCEL", "voided by the merchant"),
    ]
    captured = api.post("/trade/capture", _capture(), expect=400)
    assert captured["sub_msg"] == "trade is CANCEL; only an AUTHORIZED trade can be captured"
    refund = api.post("/trade/refund", builders.refund(authorized, "150.00"), expect=400)
    assert refund["sub_code"] == "trade-status-invalid"


def test_a_captured_or_direct_trade_cannot_be_voided(api, authorized):
    api.post("/trade/capture", _capture(), expect=200)
    answer = api.post("/trade/void", _void(), expect=400)
    assert (answer["sub_code"], answer["sub_msg"]) == (
        "trade-status-invalid",
        "trade is SUCCESS; only an AUTHORIZED trade can be voided",
    )
    api.post("/trade/pay", builders.direct("PIX"), expect=200)
    answer = api.post("/trade/void", _void("order-1"), expect=400)
    assert answer["sub_msg"] == "trade is PROCESSING; only an AUTHORIZED trade can be voided"


def test_another_merchants_authorization_is_not_found(other_api, authorized, row_counts):
    before = row_counts()
    for path, body in (("/trade/capture", _capture()), ("/trade/void", _void())):
        assert other_api.post(path, body, expect=400)["sub_code"] == "trade-not-exist"
    assert row_counts() == before


def test_the_worker_voids_an_authorization_not_captured_within_7_days(app, api, authorized, outbox):
    clock.advance(7 * 24 * 3600 - 60)
    worker.run_once(app)
    assert api.post("/trade/query", {"trade_no": authorized}, expect=200)["trade_status"] == "AUTHORIZED"
    clock.advance(60)
    worker.run_once(app)
    query = api.post("/trade/query", {"trade_no": authorized}, expect=200)
    assert (query["trade_status"], query["failure_reason"]) == ("CANCEL", "not captured within 7 days")
    assert [p["trade_status"] for _, _, p in outbox(authorized)] == ["AUTHORIZED", "CANCEL"]
    assert api.post("/trade/capture", _capture(), expect=400)["sub_code"] == "trade-status-invalid"
