"""What the compatibility tests share: checks of answers as the provider documents them, and its examples' helpers."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time


def final_status(api, payout_api, outbox, transaction_id: str) -> tuple[str, list[str]]:
    """The payout's status once the sandbox bank is done, and the statuses notified."""
    api.post("/sandbox/clock", {"advance_seconds": 360}, expect=200)
    status = payout_api.post("/payout/status", {"payout_id": transaction_id}, expect=200)["data"]["status"]
    notified = [p["status"] for kind, _, p in outbox(transaction_id) if kind == "payout.notification"]
    return status, notified


INVALID_JSON = {
    "code": "40002",
    "msg": "Business Failed",
    "sub_code": "invalid-json",
    "sub_msg": "request body is not valid UTF-8 JSON",
}


def unmarked(example: str) -> str:
    return re.sub(r"(?m)^(\s*)\*\s?", r"\1", example)


WALLET_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354003",
    * "method": "Wallet",
    * "channel": "PicPay",
    * "order_amount": "12.01",
    * "order_currency": "BRL",
    * "subject": "trade pay test",
    * "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer" : {
    *     "identify": {
    *         "type": "CPF",
    *         "number": "11032341882"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com"
      }
      }"""


# The provider's sandbox test customer (payin/data/data-for-test-sandbox.md) gives the values.
PHONE = ',\n          "phone": "5511987654321"'


ADDRESS_PARTS = (
    ',\n          "state": "MG", "city": "Uberaba", "street": "Avenida Leopoldino de Oliveira", "street_number": "100"'
)


def with_required(example: str) -> str:
    """The example with what the interface's table requires and the page leaves out, added (and only that)."""
    sent = json.loads(example.replace("{app_id}", "x").replace("${token}", "x"))
    if "phone" not in sent["customer"]:
        anchor = '"email": "test@pagsmile.com"'
        example = example.replace(anchor, anchor + PHONE, 1)
    if "address" not in sent:
        end = example.rindex("}")
        example = example[:end] + ',\n      "address" : {\n          "zip_code": "38082365"\n      }\n' + example[end:]
    anchor = '"zip_code": "38082365"'
    example = example.replace(anchor, anchor + ADDRESS_PARTS, 1)
    completed = json.loads(example.replace("{app_id}", "x").replace("${token}", "x"))
    assert set(completed["address"]) == {"zip_code", "state", "city", "street", "street_number"}
    assert "phone" in completed["customer"]
    return example


def verify_as_the_provider_says(header: str, raw_body: bytes, secret_key: str, tolerance: int = 300) -> bool:
    # Step 1: split on "," then on "=": t is the timestamp, v2 the signature; other elements are discarded.
    elements = dict(element.strip().split("=", 1) for element in header.split(","))
    # Steps 2 and 3: HMAC-SHA256 keyed with the SecretKey over the original request body.
    expected = hmac.new(secret_key.encode("utf-8"), raw_body, hashlib.sha256).hexdigest()
    # Step 4: compare, then check the timestamp against one's own tolerance.
    return hmac.compare_digest(expected, elements["v2"]) and abs(time.time() - int(elements["t"])) <= tolerance
