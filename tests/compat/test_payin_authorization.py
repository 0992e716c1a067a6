"""Capture and void as the provider documents them (payin/pci-direct-integration/caputre.md, void.md):
its request examples as it prints them, its answers field by field."""

import pytest

from tests import builders

# The pages' examples; the masked ids ("1617***052", "out_18***1300", "836***93") and the 2022 timestamps
# are the only bytes replaced (a timestamp that old is refused as a stale request).
CAPTURE_EXAMPLE = """{
    "app_id": "{app_id}",
    "timestamp": "{timestamp}",
    "version": "2.0",
    "amount": "90",
    "currency": "brl",
    "out_trade_no": "{out_trade_no}"
}"""
VOID_EXAMPLE = """{
    "app_id": "{app_id}",
    "timestamp": "{timestamp}",
    "version": "2.0",
    "out_trade_no": "{out_trade_no}"
}"""


@pytest.fixture
def authorize(api):
    token = api.post("/card/token", builders.card(), expect=200)["token"]

    def authorized(out_trade_no: str) -> str:
        body = builders.pre_authorization(token, out_trade_no=out_trade_no, order_amount="100.00")
        return api.post("/trade/pre-authorization", body, expect=200)["trade_no"]

    return authorized


def test_the_capture_example_answers_as_documented(api, send_example, authorize):
    trade_no = authorize("out_18001300")
    status, body = send_example("/trade/capture", CAPTURE_EXAMPLE, out_trade_no="out_18001300")
    assert status == 200
    assert (body["msg"], body["code"]) == ("Success", "10000")
    query = api.post("/trade/query", {"trade_no": trade_no}, expect=200)
    assert (query["trade_status"], query["order_amount"], query["authorized_amount"]) == ("SUCCESS", "90.00", "100.00")


def test_the_void_example_answers_as_documented(api, send_example, authorize):
    trade_no = authorize("83600093")
    status, body = send_example("/trade/void", VOID_EXAMPLE, out_trade_no="83600093")
    assert status == 200
    assert (body["msg"], body["code"]) == ("Success", "10000")
    assert api.post("/trade/query", {"trade_no": trade_no}, expect=200)["trade_status"] == "CANCEL"


def test_a_void_that_fails_answers_the_documented_envelope(send_example, authorize):
    authorize("83600094")
    send_example("/trade/capture", CAPTURE_EXAMPLE, out_trade_no="83600094")
    status, body = send_example("/trade/void", VOID_EXAMPLE, out_trade_no="83600094")
    assert status == 400
    assert (body["msg"], body["code"]) == ("Business Failed", "40002")
