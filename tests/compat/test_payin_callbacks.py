"""Payin callbacks as the provider documents them (payin/notification): body fields and types, and the
Pagsmile-Signature header checked with the provider's own four steps, written here as a merchant would."""

import time

from checkout import worker
from tests import builders

from .helpers import verify_as_the_provider_says

# The provider's notification example, keys and value types (every value a string, `user` an object).
DOCUMENTED = {
    "amount": str,
    "out_trade_no": str,
    "method": str,
    "channel": str,
    "trade_status": str,
    "trade_no": str,
    "currency": str,
    "out_request_no": str,
    "app_id": str,
    "timestamp": str,
    "user": dict,
}
DOCUMENTED_USER = {"buyer_id": str, "identify": dict, "username": str, "phone": str, "email": str, "ip": str}


def _callbacks(app, api, receiver, count):
    worker.run_once(app)
    receiver.wait_for(count)
    return receiver.requests


def test_a_paid_pix_is_notified_in_the_documented_shape(app, api, merchant, receiver):
    body = builders.direct("PIX", notify_url=receiver.url)
    trade = api.post("/trade/pay", body, expect=200)
    api.post(f"/sandbox/trades/{trade['trade_no']}/pay", expect=200)
    [request] = _callbacks(app, api, receiver, 1)
    assert request["headers"]["Content-Type"].startswith("application/json")
    assert verify_as_the_provider_says(
        request["headers"]["Pagsmile-Signature"], request["raw"], merchant["security_key"]
    )
    sent = request["json"]
    assert {key: type(sent[key]) for key in DOCUMENTED} == DOCUMENTED
    assert {key: type(sent["user"][key]) for key in DOCUMENTED_USER} == DOCUMENTED_USER
    assert {key: sent[key] for key in DOCUMENTED if key not in ("timestamp", "user")} == {
        "amount": "100.50",
        "out_trade_no": "order-1",
        "method": "PIX",
        "channel": "",
        "trade_status": "SUCCESS",
        "trade_no": trade["trade_no"],
        "currency": "BRL",
        "out_request_no": "",
        "app_id": merchant["app_id"],
    }
    assert sent["timestamp"].isdigit() and abs(int(sent["timestamp"]) - time.time()) < 60
    customer = body["customer"]
    assert sent["user"] == {
        "buyer_id": "buyer-1",
        "identify": {"type": customer["identify"]["type"], "number": customer["identify"]["number"]},
        "username": customer["name"],
        "phone": customer["phone"],
        "email": customer["email"],
        "ip": "",
    }


def test_a_tampered_body_or_another_key_fails_the_documented_check(app, api, merchant, receiver):
    trade = api.post("/trade/pay", builders.direct("PIX", notify_url=receiver.url), expect=200)
    api.post(f"/sandbox/trades/{trade['trade_no']}/pay", expect=200)
    [request] = _callbacks(app, api, receiver, 1)
    header, raw = request["headers"]["Pagsmile-Signature"], request["raw"]
    assert not verify_as_the_provider_says(header, raw.replace(b"100.50", b"100.51"), merchant["security_key"])
    assert not verify_as_the_provider_says(header, raw, merchant["security_key"] + "x")


def test_a_refund_callback_names_the_merchants_out_request_no(app, api, merchant, receiver):
    trade = api.post("/trade/pay", builders.direct("PIX", notify_url=receiver.url), expect=200)
    api.post(f"/sandbox/trades/{trade['trade_no']}/pay", expect=200)
    api.post("/trade/refund", builders.refund(trade["trade_no"], "100.50", out_request_no="rq-1"), expect=200)
    paid, refunded = _callbacks(app, api, receiver, 2)
    assert [paid["json"]["trade_status"], refunded["json"]["trade_status"]] == ["SUCCESS", "REFUNDED"]
    assert (refunded["json"]["out_request_no"], refunded["json"]["amount"]) == ("rq-1", "100.50")
    assert verify_as_the_provider_says(
        refunded["headers"]["Pagsmile-Signature"], refunded["raw"], merchant["security_key"]
    )
